"""Transaction authenticators: who signed a transaction (the ``TransactionAuthenticator`` enum).

The variants, as the ledger numbers them: :class:`Ed25519Authenticator` (0),
:class:`MultiEd25519Authenticator` (1), :class:`MultiAgentAuthenticator` (2),
:class:`FeePayerAuthenticator` (3), :class:`SingleSenderAuthenticator` (4). The signers
inside multi-agent, fee-payer and single-sender transactions are account authenticators.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ledgerkit._errors import BCSEncodeError
from ledgerkit.bcs._account_authenticators import (
    AccountAuthenticator,
    Ed25519Authenticator,
    MultiEd25519Authenticator,
    deserialize_account_authenticator,
    serialize_account_authenticator,
)
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer
from ledgerkit.bcs._enums import StructEnum
from ledgerkit.types import Address

__all__ = [
    "FeePayerAuthenticator",
    "MultiAgentAuthenticator",
    "SingleSenderAuthenticator",
    "TransactionAuthenticator",
    "deserialize_transaction_authenticator",
    "serialize_transaction_authenticator",
]


def _check_agents(auth: MultiAgentAuthenticator | FeePayerAuthenticator) -> None:
    object.__setattr__(auth, "secondary_signer_addresses", tuple(auth.secondary_signer_addresses))
    object.__setattr__(auth, "secondary_signers", tuple(auth.secondary_signers))
    if len(auth.secondary_signer_addresses) != len(auth.secondary_signers):
        raise BCSEncodeError("one secondary signer authenticator per secondary address")


def _write_agents(s: Serializer, auth: MultiAgentAuthenticator | FeePayerAuthenticator) -> None:
    serialize_account_authenticator(s, auth.sender)
    s.sequence(auth.secondary_signer_addresses, s.address)
    s.uleb128(len(auth.secondary_signers))
    for signer in auth.secondary_signers:
        serialize_account_authenticator(s, signer)


def _read_agents(
    d: Deserializer,
) -> tuple[AccountAuthenticator, tuple[Address, ...], tuple[AccountAuthenticator, ...]]:
    sender = d.field("sender", deserialize_account_authenticator, d)
    addresses = d.field("secondary_signer_addresses", d.sequence, d.address, "address")
    signers = d.field(
        "secondary_signers", d.sequence, lambda: deserialize_account_authenticator(d), "signer"
    )
    return sender, tuple(addresses), tuple(signers)


@dataclass(frozen=True, slots=True)
class MultiAgentAuthenticator(BCSStruct):
    """The sender and secondary signers, each with an account authenticator."""

    sender: AccountAuthenticator
    secondary_signer_addresses: tuple[Address, ...]
    secondary_signers: tuple[AccountAuthenticator, ...]

    def __post_init__(self) -> None:
        _check_agents(self)

    def serialize(self, s: Serializer) -> None:
        _write_agents(s, self)

    @classmethod
    def deserialize(cls, d: Deserializer) -> MultiAgentAuthenticator:
        return cls(*_read_agents(d))


@dataclass(frozen=True, slots=True)
class FeePayerAuthenticator(BCSStruct):
    """Multi-agent plus a fee payer who pays the gas."""

    sender: AccountAuthenticator
    secondary_signer_addresses: tuple[Address, ...]
    secondary_signers: tuple[AccountAuthenticator, ...]
    fee_payer_address: Address
    fee_payer_signer: AccountAuthenticator

    def __post_init__(self) -> None:
        _check_agents(self)

    def serialize(self, s: Serializer) -> None:
        _write_agents(s, self)
        s.address(self.fee_payer_address)
        serialize_account_authenticator(s, self.fee_payer_signer)

    @classmethod
    def deserialize(cls, d: Deserializer) -> FeePayerAuthenticator:
        sender, addresses, signers = _read_agents(d)
        fee_payer = d.field("fee_payer_address", d.address)
        fee_signer = d.field("fee_payer_signer", deserialize_account_authenticator, d)
        return cls(sender, addresses, signers, fee_payer, fee_signer)


@dataclass(frozen=True, slots=True)
class SingleSenderAuthenticator(BCSStruct):
    """One sender with any account authenticator (single-key, multi-key...)."""

    sender: AccountAuthenticator

    def serialize(self, s: Serializer) -> None:
        serialize_account_authenticator(s, self.sender)

    @classmethod
    def deserialize(cls, d: Deserializer) -> SingleSenderAuthenticator:
        return cls(d.field("sender", deserialize_account_authenticator, d))


TransactionAuthenticator = (
    Ed25519Authenticator
    | MultiEd25519Authenticator
    | MultiAgentAuthenticator
    | FeePayerAuthenticator
    | SingleSenderAuthenticator
)
_TXN_ENUM: Final = StructEnum[TransactionAuthenticator](
    ("ed25519", "multi_ed25519", "multi_agent", "fee_payer", "single_sender"),
    {
        0: Ed25519Authenticator,
        1: MultiEd25519Authenticator,
        2: MultiAgentAuthenticator,
        3: FeePayerAuthenticator,
        4: SingleSenderAuthenticator,
    },
    what="transaction authenticator",
    noun="a transaction authenticator",
)


def serialize_transaction_authenticator(s: Serializer, auth: TransactionAuthenticator) -> None:
    """Write a TransactionAuthenticator with its variant index."""
    _TXN_ENUM.serialize(s, auth)


def deserialize_transaction_authenticator(d: Deserializer) -> TransactionAuthenticator:
    """Read a TransactionAuthenticator."""
    return _TXN_ENUM.deserialize(d)
