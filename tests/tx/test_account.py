"""Accounts: keys in every form, addresses and signatures as the official Python SDK
(``aptos_sdk``) makes them, single-signer, multi-agent and fee-payer signing, and the
errors of a wrong signer or a malformed key."""

from __future__ import annotations

from typing import Any

import pytest
from aptos_sdk import ed25519, secp256k1_ecdsa
from aptos_sdk.account import Account as SdkAccount
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.asymmetric_crypto_wrapper import PublicKey as SdkAnyPublicKey
from aptos_sdk.authenticator import Authenticator as SdkAuthenticator
from aptos_sdk.authenticator import FeePayerAuthenticator as SdkFeePayerAuthenticator
from aptos_sdk.authenticator import MultiAgentAuthenticator as SdkMultiAgentAuthenticator
from aptos_sdk.bcs import Deserializer as SdkDeserializer
from aptos_sdk.bcs import Serializer as SdkSerializer
from aptos_sdk.transactions import FeePayerRawTransaction as SdkFeePayerRaw
from aptos_sdk.transactions import MultiAgentRawTransaction as SdkMultiAgentRaw
from aptos_sdk.transactions import RawTransaction as SdkRawTransaction
from aptos_sdk.transactions import SignedTransaction as SdkSignedTransaction

import ledgerkit
from ledgerkit import (
    Account,
    Address,
    Ed25519PrivateKey,
    InputError,
    InvalidKeyError,
    Secp256k1PrivateKey,
    SigningError,
)
from ledgerkit.bcs import (
    EntryFunction,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
    Serializer,
    SingleSenderAuthenticator,
    serialize_account_authenticator,
)

# A hand-picked Ed25519 key (RFC 8032's first test vector) and a secp256k1 key.
ED_SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
ED_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
SECP_SECRET = "1f5d3c0b8a6e4f2d9c7b5a3e1d0c8b6a4f2e0d9c7b5a3e1f0d2c4b6a8e0f1a2b"


def transfer(sender: Address, sequence: int = 7) -> RawTransaction:
    call = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", "0xb0b"), ("u64", 1_000)]
    )
    return RawTransaction(sender, sequence, call, 200_000, 100, 1_900_000_000, 4)


def sdk_raw(raw: RawTransaction) -> SdkRawTransaction:
    return SdkRawTransaction.deserialize(SdkDeserializer(raw.to_bcs()))


def sdk_bytes(value: Any) -> bytes:
    s = SdkSerializer()
    value.serialize(s)
    return s.output()


def account_auth_bytes(auth: Any) -> bytes:
    s = Serializer()
    serialize_account_authenticator(s, auth)
    return s.output()


# -- keys in every form ----------------------------------------------------------------------


def test_an_ed25519_account_has_the_address_and_public_key_the_sdk_gives() -> None:
    sdk = SdkAccount.load_key("ed25519-priv-0x" + ED_SECRET)
    for form in (ED_SECRET, "0x" + ED_SECRET, "ed25519-priv-0x" + ED_SECRET,
                 bytes.fromhex(ED_SECRET), Ed25519PrivateKey(ED_SECRET)):  # fmt: skip
        account = Account.from_key(form)
        assert account.scheme == "ed25519"
        assert str(account.address) == str(sdk.address())
        assert bytes(account.public_key).hex() == ED_PUBLIC  # RFC 8032, test 1
        assert account.private_key == Ed25519PrivateKey(ED_SECRET)


def test_a_secp256k1_account_has_the_single_key_address_the_sdk_gives() -> None:
    sdk_key = secp256k1_ecdsa.PrivateKey.from_hex(bytes.fromhex(SECP_SECRET))
    expected = AccountAddress.from_key(SdkAnyPublicKey(sdk_key.public_key()))
    for account in (
        Account.from_key(SECP_SECRET, scheme="secp256k1"),
        Account.from_key("secp256k1-priv-0x" + SECP_SECRET),
        Account.from_key(bytes.fromhex(SECP_SECRET), scheme="secp256k1"),
        Account.from_key(Secp256k1PrivateKey(SECP_SECRET)),
    ):
        assert account.scheme == "secp256k1"
        assert str(account.address) == str(expected)
        assert bytes(account.public_key) == sdk_key.public_key().to_crypto_bytes()


def test_aip80_text_parses_to_the_same_key_as_the_sdks() -> None:
    pairs = [(ed25519.PrivateKey, "ed25519"), (secp256k1_ecdsa.PrivateKey, "secp256k1")]
    for sdk_class, ours in pairs:
        secret = ED_SECRET if ours == "ed25519" else SECP_SECRET
        sdk_key = sdk_class.from_hex(bytes.fromhex(secret))
        text = sdk_key.aip80()
        account = Account.from_key(text)
        assert account.scheme == ours
        assert account.private_key.secret_aip80() == text
        assert sdk_class.from_str(account.private_key.secret_aip80(), strict=True) == sdk_key


def test_generated_accounts_are_new_and_of_their_scheme() -> None:
    a, b = Account.generate(), Account.generate()
    assert a != b
    assert a.scheme == "ed25519"
    assert a.address == a.public_key.address()
    k = Account.generate("secp256k1")
    assert k.scheme == "secp256k1"
    assert k.address == k.public_key.address()
    with pytest.raises(InputError, match="'ed25519' or 'secp256k1'"):
        Account.generate("rsa")  # type: ignore[arg-type]


def test_a_rotated_key_signs_for_the_address_given() -> None:
    home = Address.parse("0xcafe")
    account = Account.from_key(ED_SECRET, address="0xcafe")
    assert account.address == home != account.public_key.address()
    signed = account.sign(transfer(home))
    assert signed.verify()
    assert signed.raw.sender == home


@pytest.mark.parametrize(
    ("key", "kwargs", "says"),
    [
        ("secp256k1-priv-0x" + SECP_SECRET, {"scheme": "ed25519"}, "scheme='ed25519'"),
        (Ed25519PrivateKey(ED_SECRET), {"scheme": "secp256k1"}, "scheme='secp256k1'"),
        ("secp256r1-priv-0x" + ED_SECRET, {}, "AIP-80 'secp256r1'"),
        ("ed25519-priv-0x" + ED_SECRET[:-2], {}, "32 bytes"),
        (ED_SECRET + "zz", {}, "64 hex digits"),
        ("f" * 64, {"scheme": "secp256k1"}, "group order"),
        (12345, {}, "AIP-80 string"),
    ],
)
def test_a_malformed_key_is_an_input_error_naming_the_forms(
    key: object, kwargs: dict[str, Any], says: str
) -> None:
    with pytest.raises(InvalidKeyError, match=says) as caught:
        Account.from_key(key, **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, InputError)
    assert isinstance(caught.value, SigningError)


# -- signing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["ed25519", "secp256k1"])
def test_signatures_are_the_sdks_bytes(scheme: str) -> None:
    secret = ED_SECRET if scheme == "ed25519" else SECP_SECRET
    account = Account.from_key(secret, scheme=scheme)  # type: ignore[arg-type]
    sdk_key = (ed25519.PrivateKey if scheme == "ed25519" else secp256k1_ecdsa.PrivateKey).from_hex(
        bytes.fromhex(secret)
    )
    sdk = SdkAccount(AccountAddress.from_str(str(account.address)), sdk_key)
    assert account.sign_message(b"hello") == sdk.sign(b"hello").data()

    raw = transfer(account.address)
    signed = account.sign(raw)
    sdk_auth = sdk.sign_transaction(sdk_raw(raw))
    sdk_signed = SdkSignedTransaction(sdk_raw(raw), sdk_auth)
    assert signed.to_bcs() == sdk_bytes(sdk_signed)
    assert signed.verify()
    if scheme == "secp256k1":
        assert isinstance(signed.authenticator, SingleSenderAuthenticator)


def test_multi_agent_signers_combine_into_the_sdks_transaction() -> None:
    alice = Account.from_key(ED_SECRET)
    bob = Account.from_key(SECP_SECRET, scheme="secp256k1")
    raw = MultiAgentRawTransaction(transfer(alice.address), (bob.address,))
    mine, theirs = alice.sign(raw), bob.sign(raw)
    signed = raw.authenticate(mine, [theirs])
    assert signed.verify()

    sdk_multi = SdkMultiAgentRaw(sdk_raw(raw.raw), [AccountAddress.from_str(str(bob.address))])
    assert sdk_multi.keyed() == raw.signing_message()
    sdk_alice = SdkAccount.load_key("ed25519-priv-0x" + ED_SECRET)
    sdk_bob_key = secp256k1_ecdsa.PrivateKey.from_hex(bytes.fromhex(SECP_SECRET))
    sdk_bob = SdkAccount(AccountAddress.from_str(str(bob.address)), sdk_bob_key)
    alice_auth = sdk_alice.sign_transaction(sdk_multi)
    bob_auth = sdk_bob.sign_transaction(sdk_multi)
    assert account_auth_bytes(mine) == sdk_bytes(alice_auth)
    assert account_auth_bytes(theirs) == sdk_bytes(bob_auth)
    sdk_auth = SdkMultiAgentAuthenticator(alice_auth, [(sdk_bob.address(), bob_auth)])
    sdk_signed = SdkSignedTransaction(sdk_multi.raw_transaction, SdkAuthenticator(sdk_auth))
    assert signed.to_bcs() == sdk_bytes(sdk_signed)


def test_a_fee_payer_signs_with_its_address_and_the_transaction_verifies() -> None:
    alice, payer = Account.from_key(ED_SECRET), Account.generate()
    raw = FeePayerRawTransaction(transfer(alice.address), (), payer.address)
    signed = raw.authenticate(alice.sign(raw), [], payer.sign(raw))
    assert signed.verify()

    sdk_fee = SdkFeePayerRaw(sdk_raw(raw.raw), [], AccountAddress.from_str(str(payer.address)))
    assert sdk_fee.keyed() == raw.signing_message()
    sdk_alice = SdkAccount.load_key("ed25519-priv-0x" + ED_SECRET)
    alice_auth = sdk_alice.sign_transaction(sdk_fee)
    payer_auth = SdkAccount.load_key(payer.private_key.secret_aip80()).sign_transaction(sdk_fee)
    sdk_auth = SdkFeePayerAuthenticator(
        alice_auth, [], (AccountAddress.from_str(str(payer.address)), payer_auth)
    )
    sdk_signed = SdkSignedTransaction(sdk_fee.raw_transaction, SdkAuthenticator(sdk_auth))
    assert signed.to_bcs() == sdk_bytes(sdk_signed)


def test_signing_as_someone_else_is_refused() -> None:
    alice, mallory = Account.from_key(ED_SECRET), Account.generate()
    with pytest.raises(SigningError, match="sender is"):
        mallory.sign(transfer(alice.address))
    with pytest.raises(SigningError, match="neither the sender nor a secondary signer"):
        mallory.sign(MultiAgentRawTransaction(transfer(alice.address), ()))
    unknown_payer = FeePayerRawTransaction(transfer(alice.address), (), Address.parse("0x0"))
    with pytest.raises(SigningError, match="fee payer signs with its address set"):
        mallory.sign(unknown_payer)
    assert alice.sign(unknown_payer)  # the sender may sign before the payer is known
    with pytest.raises(InputError, match="sign_message signs bytes"):
        alice.sign(b"bytes")  # type: ignore[call-overload]
    with pytest.raises(InputError):
        alice.sign_message("text")  # type: ignore[arg-type]


def test_dev_accounts_of_the_node_are_accounts() -> None:
    from ledgerkit.localnet.chain import dev_accounts

    dev = dev_accounts(3, 1)[0]
    assert isinstance(dev, Account)
    assert dev.scheme == "ed25519"
    assert dev.sign(transfer(dev.address)).verify()
    assert Account.from_key(dev.private_key.secret_aip80()) == dev
    assert ledgerkit.Account.__module__ == "ledgerkit"
