"""Ed25519 keys: deterministic derivation, signing, addresses, AIP-80 text, and secrets
that stay secret."""

from __future__ import annotations

import copy
import hashlib
import logging
import pickle
import traceback

import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account

from ledgerkit import LedgerError
from ledgerkit._errors import SigningError
from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.keys import Ed25519PrivateKey, Ed25519PublicKey
from ledgerkit.types import Address

SECRETS = ["0x" + bytes([n]).hex() * 32 for n in (1, 2, 5, 0x42, 0xFF)]


def test_from_seed_is_deterministic() -> None:
    a = Ed25519PrivateKey.from_seed(b"alice")
    assert Ed25519PrivateKey.from_seed(b"alice").secret_hex() == a.secret_hex()
    assert Ed25519PrivateKey.from_seed("alice") == a  # text seeds are their UTF-8 bytes
    assert Ed25519PrivateKey.from_seed(b"alice").address() == a.address()
    assert Ed25519PrivateKey.from_seed(b"bob") != a
    assert Ed25519PrivateKey.from_seed(b"bob").address() != a.address()
    assert Ed25519PrivateKey.from_seed(b"alice").sign(b"m") == a.sign(b"m")


def test_generate_gives_fresh_keys() -> None:
    first, second = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    assert first != second
    assert first.address() != second.address()


def test_key_round_trips_through_its_secret() -> None:
    key = Ed25519PrivateKey.from_seed(b"round trip")
    secret = key.secret_hex()
    assert secret.startswith("0x")
    assert len(secret) == 66
    again = Ed25519PrivateKey(secret)
    assert again == key
    assert again.public_key_bytes == key.public_key_bytes
    assert Ed25519PrivateKey(bytes.fromhex(secret[2:])) == key
    assert Ed25519PrivateKey(secret[2:]) == key  # bare hex is accepted too


def test_sign_and_verify() -> None:
    key = Ed25519PrivateKey.from_seed(b"signer")
    message = b"ledgerkit signs this"
    signature = key.sign(message)
    assert len(signature) == 64
    assert key.sign(message) == signature  # Ed25519 is deterministic
    assert key.public_key.verify(message, signature) is True
    assert key.public_key.verify(message + b"!", signature) is False
    tampered = bytes([signature[0] ^ 1]) + signature[1:]
    assert key.public_key.verify(message, tampered) is False
    other = Ed25519PrivateKey.from_seed(b"someone else")
    assert other.public_key.verify(message, signature) is False
    assert key.public_key.verify(message, signature[:63]) is False


def test_public_key_object() -> None:
    key = Ed25519PrivateKey(SECRETS[0])
    public = key.public_key
    assert bytes(public) == key.public_key_bytes
    assert len(bytes(public)) == 32
    assert str(public) == "0x" + key.public_key_bytes.hex()
    assert Ed25519PublicKey(str(public)) == public
    assert Ed25519PublicKey(bytes(public)) == public
    assert hash(Ed25519PublicKey(str(public))) == hash(public)
    with pytest.raises(SigningError):
        Ed25519PublicKey(bytes(31))
    with pytest.raises(SigningError):
        Ed25519PublicKey("0xnothex")


@pytest.mark.parametrize("secret", SECRETS)
def test_address_is_sha3_of_public_key_and_scheme(secret: str) -> None:
    key = Ed25519PrivateKey(secret)
    expected = hashlib.sha3_256(key.public_key_bytes + b"\x00").digest()
    assert bytes(key.address()) == expected
    assert key.public_key.authentication_key() == expected
    assert key.address() == key.public_key.address()


@pytest.mark.parametrize("secret", SECRETS)
def test_address_matches_aptos_sdk(secret: str) -> None:
    key = Ed25519PrivateKey(secret)
    account = Account.load_key("ed25519-priv-" + secret)  # AIP-80 form: no advice printed
    assert key.address() == Address.parse(str(account.address()))
    assert key.public_key_bytes == account.private_key.public_key().to_crypto_bytes()
    assert key.sign(b"same bytes") == account.sign(b"same bytes").data()


def test_single_key_address_uses_the_single_key_scheme() -> None:
    key = Ed25519PrivateKey(SECRETS[2])
    # AnyPublicKey::Ed25519 BCS is variant 0, length 32, key; then scheme byte 2.
    body = b"\x00\x20" + key.public_key_bytes + b"\x02"
    assert bytes(key.address(single_key=True)) == hashlib.sha3_256(body).digest()
    assert key.address(single_key=True) != key.address()
    # The golden vectors' single-key Ed25519 sender was made from this key.
    assert key.address(single_key=True) == Address.parse(
        "0xff62c1b145444da83d317a2d8414132d3e1b93956d855eeca0950f90c06dceae"
    )


def test_sign_transaction_verifies() -> None:
    key = Ed25519PrivateKey.from_seed(b"sender")
    raw = RawTransaction(
        key.address(),
        3,
        EntryFunction.build("0x1::aptos_account::transfer", [], [("address", "0xb0b"), ("u64", 5)]),
        2000,
        100,
        1_800_000_000,
        4,
    )
    signed = key.sign_transaction(raw)
    assert signed.verify() is True
    assert SignedTransaction.from_bcs(signed.to_bcs()) == signed
    assert signed.authenticator == key.authenticator(raw.signing_message())


@pytest.mark.parametrize("secret", SECRETS)
def test_secret_never_shows_in_repr_or_str(secret: str) -> None:
    key = Ed25519PrivateKey(secret)
    digits = secret[2:]
    for text in (repr(key), str(key), f"{key}", f"{key!r}", repr([key]), repr({"k": key})):
        assert digits not in text.lower()
        assert "<secret>" in text
    assert str(key.public_key) in repr(key)


def test_secret_never_shows_in_logs(caplog: pytest.LogCaptureFixture) -> None:
    key = Ed25519PrivateKey(SECRETS[3])
    with caplog.at_level(logging.INFO, logger="ledgerkit"):
        logging.getLogger("ledgerkit").info("using %s / %r", key, key)
    assert caplog.text
    assert SECRETS[3][2:] not in caplog.text


def test_private_keys_refuse_pickling_and_copying() -> None:
    key = Ed25519PrivateKey(SECRETS[1])
    with pytest.raises(TypeError, match="secret_hex"):
        pickle.dumps(key)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError):
            pickle.dumps(key, protocol=protocol)
    with pytest.raises(TypeError):
        copy.deepcopy(key)


@pytest.mark.parametrize(
    "bad",
    [
        bytes(31),
        bytes(33),
        b"",
        "0x" + "11" * 31,
        "0x" + "11" * 33,
        "0x" + "1" * 63,
        "not hex at all",
        "0x" + "zz" * 32,
        "secp256k1-priv-0x" + "11" * 32,
        "ed25519-priv-0x" + "11" * 31,
        "ed25519-priv-0x" + "zz" * 32,
        12345,
        None,
    ],
    ids=[
        "31_bytes",
        "33_bytes",
        "empty",
        "31_hex_bytes",
        "33_hex_bytes",
        "odd_digits",
        "words",
        "non_hex_64_chars",
        "aip80_of_another_scheme",
        "aip80_31_bytes",
        "aip80_not_hex",
        "int",
        "none",
    ],
)
def test_bad_private_keys_raise_signing_error(bad: object) -> None:
    with pytest.raises(SigningError) as info:
        Ed25519PrivateKey(bad)  # type: ignore[arg-type]
    error = info.value
    assert isinstance(error, LedgerError)
    shown = "".join(traceback.format_exception(error))
    if isinstance(bad, str) and len(bad) > 8:
        digits = bad.split("0x")[-1]
        assert digits not in str(error)
        assert digits not in shown  # not even in the printed traceback


@pytest.mark.parametrize("secret", SECRETS)
def test_aip80_text_is_given_and_taken(secret: str) -> None:
    key = Ed25519PrivateKey(secret)
    assert key.secret_aip80() == "ed25519-priv-" + secret
    assert Ed25519PrivateKey("ed25519-priv-" + secret) == key
    assert Ed25519PrivateKey("ed25519-priv-" + secret[2:]) == key
    assert Ed25519PrivateKey(f"  ed25519-priv-{secret}\n") == key  # as read from a file
    # The official SDK reads our text in its strict AIP-80 mode, and we read its text.
    theirs = ed25519.PrivateKey.from_str(key.secret_aip80(), strict=True)
    assert theirs.public_key().to_crypto_bytes() == key.public_key_bytes
    assert Ed25519PrivateKey(theirs.aip80()) == key


def test_the_aip80_text_of_another_scheme_is_refused_by_name() -> None:
    text = "secp256k1-priv-" + SECRETS[3]
    with pytest.raises(SigningError, match="AIP-80 'secp256k1-priv-' key") as info:
        Ed25519PrivateKey(text)
    assert SECRETS[3][2:] not in str(info.value)
    assert info.value.__context__ is None


def test_bad_private_key_text_is_not_chained_into_the_error() -> None:
    text = "0x" + "ab" * 31 + "zz"
    with pytest.raises(SigningError) as info:
        Ed25519PrivateKey(text)
    assert info.value.__context__ is None
    assert info.value.__cause__ is None
    assert text not in str(info.value)
