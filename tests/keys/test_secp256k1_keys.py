"""secp256k1 ECDSA keys: the official SDK's vectors, low-S signatures, single-key addresses,
AIP-80 text, and secrets that stay secret."""

from __future__ import annotations

import hashlib
import logging
import pickle
import traceback

import pytest
from aptos_sdk import asymmetric_crypto_wrapper, secp256k1_ecdsa
from aptos_sdk.account_address import AccountAddress

from ledgerkit import LedgerError, Secp256k1PrivateKey, Secp256k1PublicKey, SigningError
from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.types import Address

# The official Python SDK's own test vector (aptos_sdk/secp256k1_ecdsa.py).
SDK_SECRET = "0x306fa009600e27c09d2659145ce1785249360dd5fb992da01a578fe67ed607f4"
SDK_PUBLIC = (
    "0x04210c9129e35337ff5d6488f90f18d842cf985f06e0baeff8df4bfb2ac4221863"
    "e2631b971a237b5db0aa71188e33250732dd461d56ee623cbe0426a5c2db79ef"
)
SDK_SIGNATURE = bytes.fromhex(
    "a539b0973e76fa99b2a864eebd5da950b4dfb399c7afe57ddb34130e454fc9db"
    "04dceb2c3d4260b8cc3d3952ab21b5d36c7dc76277fe3747764e6762d12bd9a9"
)
# The group order of secp256k1 (SEC 2, section 2.4.1).
N = int("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16)


def high_s(signature: bytes) -> bytes:
    """The other valid ECDSA signature of the same message: s replaced by n - s."""
    s = int.from_bytes(signature[32:], "big")
    return signature[:32] + (N - s).to_bytes(32, "big")


def test_the_sdk_vector_gives_the_same_public_key_and_verifies() -> None:
    key = Secp256k1PrivateKey(SDK_SECRET)
    assert str(key.public_key) == SDK_PUBLIC
    assert len(key.public_key_bytes) == 65
    assert key.public_key.verify(b"Hello world", SDK_SIGNATURE) is True
    assert key.public_key.verify(b"Hello world!", SDK_SIGNATURE) is False


@pytest.mark.parametrize("message", [b"", b"Hello world", bytes(range(256)), b"\xff" * 1000])
def test_signatures_are_the_sdk_signatures_byte_for_byte(message: bytes) -> None:
    key = Secp256k1PrivateKey(SDK_SECRET)
    theirs = secp256k1_ecdsa.PrivateKey.from_str("secp256k1-priv-" + SDK_SECRET, strict=True)
    assert key.sign(message) == theirs.sign(message).data()
    assert theirs.public_key().verify(message, secp256k1_ecdsa.Signature(key.sign(message)))


def test_signatures_are_low_s_and_the_high_s_twin_is_refused() -> None:
    key = Secp256k1PrivateKey.from_seed(b"low s")
    for i in range(40):
        message = f"message {i}".encode()
        signature = key.sign(message)
        assert len(signature) == 64
        assert int.from_bytes(signature[32:], "big") <= N // 2
        assert key.public_key.verify(message, signature) is True
        assert key.public_key.verify(message, high_s(signature)) is False
    assert key.public_key.verify(b"message 0", high_s(high_s(key.sign(b"message 0")))) is True


def test_tampered_or_malformed_signatures_do_not_verify() -> None:
    key = Secp256k1PrivateKey.from_seed(b"tamper")
    signature = key.sign(b"m")
    public = key.public_key
    assert public.verify(b"m", bytes([signature[0] ^ 1]) + signature[1:]) is False
    assert public.verify(b"m", signature[:63]) is False
    assert public.verify(b"m", bytes(64)) is False  # r = s = 0
    assert public.verify(b"m", signature[:32] + N.to_bytes(32, "big")) is False
    assert Secp256k1PrivateKey.from_seed(b"other").public_key.verify(b"m", signature) is False


def test_the_address_is_the_single_key_authentication_key() -> None:
    key = Secp256k1PrivateKey(SDK_SECRET)
    # AnyPublicKey::Secp256k1Ecdsa is variant 1, then the 65 bytes with their length.
    body = b"\x01\x41" + key.public_key_bytes + b"\x02"
    assert bytes(key.address()) == hashlib.sha3_256(body).digest()
    theirs = secp256k1_ecdsa.PrivateKey.from_hex(SDK_SECRET)
    wrapped = asymmetric_crypto_wrapper.PublicKey(theirs.public_key())
    assert key.address() == Address.parse(str(AccountAddress.from_key(wrapped)))


def test_aip80_text_is_given_and_taken() -> None:
    key = Secp256k1PrivateKey(SDK_SECRET)
    assert key.secret_aip80() == "secp256k1-priv-" + SDK_SECRET
    assert key.secret_hex() == SDK_SECRET
    assert Secp256k1PrivateKey(key.secret_aip80()) == key
    assert Secp256k1PrivateKey(SDK_SECRET[2:]) == key  # bare hex too
    assert Secp256k1PrivateKey(bytes.fromhex(SDK_SECRET[2:])) == key
    theirs = secp256k1_ecdsa.PrivateKey.from_str(key.secret_aip80(), strict=True)
    assert str(theirs) == key.secret_aip80()


@pytest.mark.parametrize(
    "bad",
    [
        "ed25519-priv-" + SDK_SECRET,
        "0x" + "00" * 32,  # zero is not a key
        "0x" + N.to_bytes(32, "big").hex(),  # nor is the group order
        "0x" + "ff" * 32,
        "0x" + "11" * 31,
        "secp256k1-priv-0x" + "zz" * 32,
        "not a key",
        None,
    ],
    ids=["aip80_ed25519", "zero", "order", "above_order", "31_bytes", "not_hex", "words", "none"],
)
def test_bad_private_keys_raise_signing_error_without_the_secret(bad: object) -> None:
    with pytest.raises(SigningError) as info:
        Secp256k1PrivateKey(bad)  # type: ignore[arg-type]
    assert isinstance(info.value, LedgerError)
    if isinstance(bad, str) and "0x" in bad:
        digits = bad.split("0x")[-1]
        assert digits not in "".join(traceback.format_exception(info.value))


def test_public_keys_take_both_encodings_and_refuse_points_off_the_curve() -> None:
    public = Secp256k1PublicKey(SDK_PUBLIC)
    assert Secp256k1PublicKey("0x" + SDK_PUBLIC[4:]) == public  # without the 0x04
    assert Secp256k1PublicKey(bytes(public)) == public
    assert hash(Secp256k1PublicKey(SDK_PUBLIC)) == hash(public)
    assert repr(public) == f"Secp256k1PublicKey('{SDK_PUBLIC}')"
    off_curve = SDK_PUBLIC[:-2] + ("00" if SDK_PUBLIC[-2:] != "00" else "01")
    for bad in (off_curve, "0x02" + SDK_PUBLIC[4:], "0x" + "04" * 33, "0xzz"):
        with pytest.raises(SigningError):
            Secp256k1PublicKey(bad)


def test_the_secret_never_shows_and_keys_refuse_pickling(
    caplog: pytest.LogCaptureFixture,
) -> None:
    key = Secp256k1PrivateKey(SDK_SECRET)
    digits = SDK_SECRET[2:]
    for text in (repr(key), str(key), f"{key!r}", repr([key])):
        assert digits not in text
        assert "<secret>" in text
    with caplog.at_level(logging.INFO, logger="ledgerkit"):
        logging.getLogger("ledgerkit").info("using %s / %r", key, key)
    assert digits not in caplog.text
    with pytest.raises(TypeError, match="secret_hex"):
        pickle.dumps(key)


def test_from_seed_and_generate() -> None:
    assert Secp256k1PrivateKey.from_seed(b"a") == Secp256k1PrivateKey.from_seed("a")
    assert Secp256k1PrivateKey.from_seed(b"a") != Secp256k1PrivateKey.from_seed(b"b")
    assert Secp256k1PrivateKey.generate() != Secp256k1PrivateKey.generate()


def test_sign_transaction_gives_a_single_sender_transaction_that_verifies() -> None:
    key = Secp256k1PrivateKey.from_seed(b"sender")
    raw = RawTransaction(
        key.address(),
        0,
        EntryFunction.build("0x1::aptos_account::transfer", [], [("address", "0xb0b"), ("u64", 5)]),
        2000,
        100,
        1_800_000_000,
        4,
    )
    signed = key.sign_transaction(raw)
    assert signed.verify() is True
    assert SignedTransaction.from_bcs(signed.to_bcs()) == signed
    # The SDK reads the same bytes back and agrees the signature holds.
    theirs = secp256k1_ecdsa.PublicKey.from_str(str(key.public_key))
    signature = secp256k1_ecdsa.Signature(key.sign(raw.signing_message()))
    assert theirs.verify(raw.signing_message(), signature)
