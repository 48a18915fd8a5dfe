"""Transactions signed with zeros for simulation: each signer's public key with a zero
signature, checked byte for byte against the authenticators of the official
``aptos_sdk`` package; signers without a key get no authenticator."""

from __future__ import annotations

from typing import Any

import pytest
from aptos_sdk import authenticator as sdk
from aptos_sdk import ed25519 as sdk_ed25519
from aptos_sdk import secp256k1_ecdsa as sdk_secp
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.bcs import Serializer as SdkSerializer
from ecdsa import SECP256k1, VerifyingKey  # type: ignore[import-untyped]
from nacl.signing import VerifyKey

from ledgerkit import InputError
from ledgerkit.bcs import (
    EntryFunction,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    NoAccountAuthenticator,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.keys import Ed25519PrivateKey, Secp256k1PrivateKey
from ledgerkit.tx import signed_with_zeros, zero_authenticator
from ledgerkit.types import Address

ALICE = Ed25519PrivateKey.from_seed(b"alice")
BOB = Ed25519PrivateKey.from_seed(b"bob")
CAROL = Secp256k1PrivateKey.from_seed(b"carol")
RAW = RawTransaction(
    ALICE.address(),
    3,
    EntryFunction.build("0x1::aptos_account::transfer", [], [("address", "0xb0b"), ("u64", 5)]),
    2_000,
    100,
    1_700_000_000,
    4,
)


def sdk_bytes(value: Any) -> bytes:
    s = SdkSerializer()
    value.serialize(s)
    return s.output()


def authenticator_bytes(signed: SignedTransaction) -> bytes:
    return signed.to_bcs()[len(RAW.to_bcs()) :]


def sdk_ed(key: Ed25519PrivateKey) -> sdk.Ed25519Authenticator:
    public = sdk_ed25519.PublicKey(VerifyKey(key.public_key_bytes))
    return sdk.Ed25519Authenticator(public, sdk_ed25519.Signature(bytes(64)))


@pytest.mark.parametrize(
    "key", [ALICE, ALICE.public_key, ALICE.public_key_bytes, str(ALICE.public_key)]
)
def test_a_single_ed25519_signer_signs_with_zeros(key: object) -> None:
    signed = signed_with_zeros(RAW, key)
    assert authenticator_bytes(signed) == sdk_bytes(sdk.Authenticator(sdk_ed(ALICE)))
    assert not signed.verify()


def test_a_secp256k1_signer_is_a_single_key_sender() -> None:
    signed = signed_with_zeros(RAW, CAROL)
    point = VerifyingKey.from_string(CAROL.public_key_bytes, curve=SECP256k1)
    expected = sdk.Authenticator(
        sdk.SingleSenderAuthenticator(
            sdk.AccountAuthenticator(
                sdk.SingleKeyAuthenticator(sdk_secp.PublicKey(point), sdk_secp.Signature(bytes(64)))
            )
        )
    )
    assert authenticator_bytes(signed) == sdk_bytes(expected)


def test_a_fee_payer_transaction_gets_one_authenticator_per_signer() -> None:
    payer = Address.parse("0xfee")
    message = FeePayerRawTransaction(RAW, (BOB.address(),), payer)
    signed = signed_with_zeros(message, ALICE, secondary_signers=[BOB], fee_payer=BOB.public_key)
    expected = sdk.Authenticator(
        sdk.FeePayerAuthenticator(
            sdk.AccountAuthenticator(sdk_ed(ALICE)),
            [(AccountAddress(bytes(BOB.address())), sdk.AccountAuthenticator(sdk_ed(BOB)))],
            (AccountAddress(bytes(payer)), sdk.AccountAuthenticator(sdk_ed(BOB))),
        )
    )
    assert authenticator_bytes(signed) == sdk_bytes(expected)


def test_signers_without_keys_get_no_authenticator() -> None:
    message = FeePayerRawTransaction(RAW, (BOB.address(),), Address.parse("0x0"))
    auth = signed_with_zeros(message, ALICE).authenticator
    assert auth.secondary_signers == (NoAccountAuthenticator(),)  # type: ignore[union-attr]
    assert auth.fee_payer_signer == NoAccountAuthenticator()  # type: ignore[union-attr]
    assert zero_authenticator(None) == NoAccountAuthenticator()


def test_a_multi_agent_transaction_signs_with_zeros() -> None:
    message = MultiAgentRawTransaction(RAW, (BOB.address(),))
    signed = signed_with_zeros(message, ALICE, secondary_signers=[BOB])
    expected = sdk.Authenticator(
        sdk.MultiAgentAuthenticator(
            sdk.AccountAuthenticator(sdk_ed(ALICE)),
            [(AccountAddress(bytes(BOB.address())), sdk.AccountAuthenticator(sdk_ed(BOB)))],
        )
    )
    assert authenticator_bytes(signed) == sdk_bytes(expected)


@pytest.mark.parametrize(
    ("transaction", "kwargs"),
    [
        (RAW, {"fee_payer": BOB}),
        (RAW, {"secondary_signers": [BOB]}),
        (MultiAgentRawTransaction(RAW, (BOB.address(),)), {"secondary_signers": []}),
        (MultiAgentRawTransaction(RAW, (BOB.address(),)), {"fee_payer": BOB}),
        (FeePayerRawTransaction(RAW, (), Address.parse("0x0")), {"secondary_signers": "ab"}),
        ("not a transaction", {}),
    ],
)
def test_a_mismatch_of_signers_and_keys_is_an_input_error(
    transaction: Any, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(InputError):
        signed_with_zeros(transaction, ALICE, **kwargs)


@pytest.mark.parametrize("key", [42, b"\x01" * 31, "0xnothex", object(), b"\x04" + b"\x00" * 64])
def test_a_key_of_no_known_kind_is_an_input_error(key: object) -> None:
    with pytest.raises(InputError):
        signed_with_zeros(RAW, key)
