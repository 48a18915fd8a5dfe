"""Transactions, a union on ``type``: pending, user, genesis, block metadata, state
checkpoint, block epilogue and validator transactions, and any newer kind kept whole.

Two answers carry no ``type``: a submission's pending transaction and a simulation's
user transactions are written by their own schemas, not the union's. Their kind is read
from their fields instead (:func:`kind_without_type`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec

from ledgerkit.models._base import (
    Record,
    TaggedRecord,
    U8Int,
    U32Int,
    U64Int,
    UnknownVariant,
    check_u64,
)
from ledgerkit.models._changes import WriteSetChangeField
from ledgerkit.models._events import Event
from ledgerkit.models._payloads import GenesisPayloadField, TransactionPayloadField
from ledgerkit.models._signatures import TransactionSignatureField
from ledgerkit.types import Address

__all__ = [
    "BlockEndInfo",
    "BlockEpilogueTransaction",
    "BlockMetadataExtension",
    "BlockMetadataTransaction",
    "CommittedTransaction",
    "GenesisTransaction",
    "KnownTransaction",
    "PendingTransaction",
    "StateCheckpointTransaction",
    "Transaction",
    "UnknownTransaction",
    "UserTransaction",
    "ValidatorTransaction",
]


class PendingTransaction(TaggedRecord, frozen=True, kw_only=True, tag="pending_transaction"):
    """A transaction accepted into the mempool and not yet committed (no version)."""

    hash: str
    sender: str
    sequence_number: U64Int
    max_gas_amount: U64Int
    gas_unit_price: U64Int
    expiration_timestamp_secs: U64Int
    payload: TransactionPayloadField
    signature: TransactionSignatureField | None = None
    replay_protection_nonce: U64Int | None = None
    txn_limits_request: Any = None

    def __post_init__(self) -> None:
        check_u64(
            self.sequence_number,
            self.max_gas_amount,
            self.gas_unit_price,
            self.expiration_timestamp_secs,
            self.replay_protection_nonce,
        )

    @property
    def sender_address(self) -> Address:
        """``sender`` parsed."""
        return Address.parse(self.sender)


class CommittedTransaction(TaggedRecord, frozen=True, kw_only=True):
    """What every committed transaction has (all but :class:`PendingTransaction`).

    ``isinstance(txn, CommittedTransaction)`` tells a transaction with a ``version``,
    ``success`` and ``changes`` from a pending or unknown one.
    """

    version: U64Int
    hash: str
    state_change_hash: str
    event_root_hash: str
    state_checkpoint_hash: str | None = None
    gas_used: U64Int
    success: bool
    vm_status: str
    accumulator_root_hash: str
    changes: list[WriteSetChangeField]


class UserTransaction(CommittedTransaction, frozen=True, kw_only=True, tag="user_transaction"):
    """A committed transaction sent by an account (also what simulation answers).

    ``success`` False with a ``vm_status`` saying why is a committed failure: the
    sender still paid ``gas_used``.
    """

    sender: str
    sequence_number: U64Int
    max_gas_amount: U64Int
    gas_unit_price: U64Int
    expiration_timestamp_secs: U64Int
    payload: TransactionPayloadField
    signature: TransactionSignatureField | None = None
    replay_protection_nonce: U64Int | None = None
    txn_limits_request: Any = None
    events: list[Event]
    timestamp: U64Int

    def __post_init__(self) -> None:
        check_u64(
            self.version,
            self.gas_used,
            self.sequence_number,
            self.max_gas_amount,
            self.gas_unit_price,
            self.expiration_timestamp_secs,
            self.replay_protection_nonce,
            self.timestamp,
        )

    @property
    def sender_address(self) -> Address:
        """``sender`` parsed."""
        return Address.parse(self.sender)


class GenesisTransaction(
    CommittedTransaction, frozen=True, kw_only=True, tag="genesis_transaction"
):
    """The first transaction (version 0): the write set that starts the chain."""

    payload: GenesisPayloadField
    events: list[Event] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        check_u64(self.version, self.gas_used)


class BlockMetadataExtension(Record, frozen=True, kw_only=True):
    """Extra block metadata, versioned by ``type``: ``v0`` (nothing), ``v1`` (+ on-chain
    randomness), ``v2`` (+ decryption key), ``v3`` (+ decryption round).

    One record for every version: a field a version lacks is None, and a later version
    decodes too, keeping the fields known here.
    """

    type: str
    randomness: str | None = None
    decryption_key: str | None = None
    decryption_round: U64Int | None = None

    def __post_init__(self) -> None:
        check_u64(self.decryption_round)


class BlockMetadataTransaction(
    CommittedTransaction, frozen=True, kw_only=True, tag="block_metadata_transaction"
):
    """Opens a block: its id, epoch, round, proposer and the previous round's votes."""

    id: str
    epoch: U64Int
    round: U64Int
    events: list[Event]
    previous_block_votes_bitvec: list[U8Int]
    proposer: str
    failed_proposer_indices: list[U32Int]
    timestamp: U64Int
    block_metadata_extension: BlockMetadataExtension | None = None

    def __post_init__(self) -> None:
        check_u64(self.version, self.gas_used, self.epoch, self.round, self.timestamp)


class StateCheckpointTransaction(
    CommittedTransaction, frozen=True, kw_only=True, tag="state_checkpoint_transaction"
):
    """Closes a block on older nodes: a checkpoint of the state."""

    timestamp: U64Int

    def __post_init__(self) -> None:
        check_u64(self.version, self.gas_used, self.timestamp)


class BlockEndInfo(Record, frozen=True, kw_only=True):
    """How full a block got (JSON numbers)."""

    block_gas_limit_reached: bool
    block_output_limit_reached: bool
    block_effective_block_gas_units: U64Int
    block_approx_output_size: U64Int

    def __post_init__(self) -> None:
        check_u64(self.block_effective_block_gas_units, self.block_approx_output_size)


class BlockEpilogueTransaction(
    CommittedTransaction, frozen=True, kw_only=True, tag="block_epilogue_transaction"
):
    """Closes a block on newer nodes, with how full the block got."""

    timestamp: U64Int
    block_end_info: BlockEndInfo | None = None

    def __post_init__(self) -> None:
        check_u64(self.version, self.gas_used, self.timestamp)


class ValidatorTransaction(
    CommittedTransaction, frozen=True, kw_only=True, tag="validator_transaction"
):
    """A transaction the validators add themselves, kinded by ``validator_transaction_type``.

    ``observed_jwk_update`` carries ``quorum_certified_update``, ``dkg_result`` carries
    ``dkg_transcript`` and ``chunky_d_k_g_result`` carries ``certified_subtrx`` and
    ``encryption_key``; they are kept as the node sends them (plain JSON), and a newer
    kind decodes with all of them None.
    """

    events: list[Event]
    timestamp: U64Int
    validator_transaction_type: str | None = None
    quorum_certified_update: Any = None
    dkg_transcript: Any = None
    certified_subtrx: Any = None
    encryption_key: str | None = None

    def __post_init__(self) -> None:
        check_u64(self.version, self.gas_used, self.timestamp)


class UnknownTransaction(UnknownVariant, frozen=True, kw_only=True):
    """A transaction of a ``type`` this version does not know, kept whole."""


KnownTransaction: TypeAlias = (
    PendingTransaction
    | UserTransaction
    | GenesisTransaction
    | BlockMetadataTransaction
    | StateCheckpointTransaction
    | BlockEpilogueTransaction
    | ValidatorTransaction
)
Transaction: TypeAlias = KnownTransaction | UnknownTransaction


def kind_without_type(obj: Mapping[str, Any]) -> str | None:
    """The ``type`` of a transaction the node wrote without one, told by its fields.

    A pending transaction has a ``hash`` and no ``version`` (the answer of a submission);
    a user transaction has a ``version`` and a ``sender`` (an item of a simulation's
    answer). Anything else is None: the other kinds are only ever sent tagged, and
    guessing between them (a state checkpoint and a block epilogue look alike) would be
    wrong.
    """
    if "version" not in obj:
        return "pending_transaction" if "hash" in obj else None
    return "user_transaction" if "sender" in obj else None


if TYPE_CHECKING:  # see _changes.py: known variants at run time, all of them for mypy
    TransactionField: TypeAlias = Transaction
else:
    TransactionField = KnownTransaction
