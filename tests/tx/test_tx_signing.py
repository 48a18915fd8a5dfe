"""Signing a built transaction with its signers, checked against the official Python SDK.

The signing message of a plain, multi-agent and fee-payer transaction, and the Ed25519
signature over it (deterministic), are compared with what aptos-sdk computes for the
same transaction and key. Every kind of signer (a key, an account with a private key, an
account that signs itself) gives the same signed bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import pytest
from aptos_sdk import ed25519
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.bcs import Serializer as SdkSerializer
from aptos_sdk.transactions import EntryFunction as SdkEntryFunction
from aptos_sdk.transactions import FeePayerRawTransaction as SdkFeePayer
from aptos_sdk.transactions import MultiAgentRawTransaction as SdkMultiAgent
from aptos_sdk.transactions import RawTransaction as SdkRaw
from aptos_sdk.transactions import TransactionArgument, TransactionPayload

from ledgerkit import Address, Ed25519PrivateKey, InputError, Secp256k1PrivateKey, SigningError
from ledgerkit.bcs import (
    EntryFunction,
    FeePayerAuthenticator,
    FeePayerRawTransaction,
    MultiAgentAuthenticator,
    MultiAgentRawTransaction,
    RawTransaction,
    SingleSenderAuthenticator,
)
from ledgerkit.tx import NO_FEE_PAYER, as_signer, sign_transaction

SENDER: Final = Ed25519PrivateKey.from_seed("signing sender")
SECOND: Final = Ed25519PrivateKey.from_seed("signing second")
PAYER: Final = Ed25519PrivateKey.from_seed("signing payer")
RECIPIENT: Final = "0x" + "cd" * 32


def _raw() -> RawTransaction:
    call = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", RECIPIENT), ("u64", 1_000)]
    )
    return RawTransaction(SENDER.address(), 3, call, 2_000, 100, 1_900_000_000, 4)


def _sdk_raw() -> SdkRaw:
    call = SdkEntryFunction.natural(
        "0x1::aptos_account",
        "transfer",
        [],
        [
            TransactionArgument(AccountAddress.from_str(RECIPIENT), SdkSerializer.struct),
            TransactionArgument(1_000, SdkSerializer.u64),
        ],
    )
    sender = AccountAddress.from_str(str(SENDER.address()))
    return SdkRaw(sender, 3, TransactionPayload(call), 2_000, 100, 1_900_000_000, 4)


def _sdk_key(key: Ed25519PrivateKey) -> ed25519.PrivateKey:
    return ed25519.PrivateKey.from_str(key.secret_hex())


def _sdk_address(key: Ed25519PrivateKey) -> AccountAddress:
    return AccountAddress.from_str(str(key.address()))


@dataclass(frozen=True)
class DevLike:
    """An account as the embedded node hands them out: address and private key."""

    address: Address
    private_key: Any


class SignsItself:
    """An account that keeps its key to itself: address, public key and ``sign``."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self.address = key.address()
        self.public_key = key.public_key
        self._key = key

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)


def test_a_plain_transaction_signs_as_the_sdk_does() -> None:
    raw = _raw()
    sdk_bytes = SdkSerializer()
    _sdk_raw().serialize(sdk_bytes)
    assert raw.to_bcs() == sdk_bytes.output()
    assert raw.signing_message() == _sdk_raw().keyed()
    signed = sign_transaction(raw, SENDER)
    expected = _sdk_key(SENDER).sign(_sdk_raw().keyed()).data()
    assert signed.authenticator.signature == expected  # type: ignore[union-attr]
    assert signed.verify()


@pytest.mark.parametrize(
    "signer",
    [SENDER, DevLike(SENDER.address(), SENDER), SignsItself(SENDER)],
    ids=["key", "account-with-key", "account-that-signs"],
)
def test_every_kind_of_signer_signs_the_same(signer: Any) -> None:
    assert sign_transaction(_raw(), signer).to_bcs() == sign_transaction(_raw(), SENDER).to_bcs()


def test_multi_agent_signs_as_the_sdk_does() -> None:
    built = MultiAgentRawTransaction(_raw(), (SECOND.address(),))
    sdk = SdkMultiAgent(_sdk_raw(), [_sdk_address(SECOND)])
    assert built.signing_message() == sdk.keyed()
    signed = sign_transaction(built, SENDER, secondary_signers=[DevLike(SECOND.address(), SECOND)])
    auth = signed.authenticator
    assert isinstance(auth, MultiAgentAuthenticator)
    assert auth.sender.signature == _sdk_key(SENDER).sign(sdk.keyed()).data()  # type: ignore[union-attr]
    assert auth.secondary_signers[0].signature == _sdk_key(SECOND).sign(sdk.keyed()).data()  # type: ignore[union-attr]
    assert signed.verify()


def test_fee_payer_known_later_signs_as_the_sdk_does() -> None:
    built = FeePayerRawTransaction(_raw(), (), NO_FEE_PAYER)
    signed = sign_transaction(built, SENDER, fee_payer=PAYER)
    auth = signed.authenticator
    assert isinstance(auth, FeePayerAuthenticator)
    assert auth.fee_payer_address == PAYER.address()
    sdk = SdkFeePayer(_sdk_raw(), [], _sdk_address(PAYER))
    assert auth.fee_payer_signer.signature == _sdk_key(PAYER).sign(sdk.keyed()).data()  # type: ignore[union-attr]
    assert signed.verify()


def test_a_secp256k1_sender_gets_a_single_sender_authenticator() -> None:
    key = Secp256k1PrivateKey.from_seed("signing secp")
    raw = RawTransaction(key.address(), 0, _raw().payload, 2_000, 100, 1_900_000_000, 4)
    signed = sign_transaction(raw, key)
    assert isinstance(signed.authenticator, SingleSenderAuthenticator)
    assert signed.verify()


def test_the_wrong_signers_are_refused() -> None:
    with pytest.raises(SigningError, match="the transaction names"):
        sign_transaction(_raw(), SECOND)
    built = MultiAgentRawTransaction(_raw(), (SECOND.address(),))
    with pytest.raises(SigningError, match="1 secondary signer"):
        sign_transaction(built, SENDER)
    with pytest.raises(SigningError, match="needs its fee_payer"):
        sign_transaction(FeePayerRawTransaction(_raw(), (), NO_FEE_PAYER), SENDER)
    with pytest.raises(InputError, match="must be able to sign"):
        sign_transaction(_raw(), SENDER.address())
    with pytest.raises(InputError, match="an account, a private key or an address"):
        as_signer(42)


def test_a_signer_never_shows_its_key() -> None:
    parts = as_signer(DevLike(SENDER.address(), SENDER))
    assert SENDER.secret_hex()[2:] not in repr(parts)
