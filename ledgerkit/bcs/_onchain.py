"""Committed transactions as the node's BCS reads hold them.

A BCS answer of ``GET /transactions/by_version/{v}`` (and by hash, waiting, the listings)
is a ``TransactionData``: ``OnChain`` (variant 0) with the version, the ledger
``Transaction``, its ``TransactionInfo`` (``V0``), events, the accumulator root hash and
the write set, or ``Pending`` (variant 1) with the signed transaction still waiting.

``Transaction`` variants read and written here: ``UserTransaction`` 0,
``GenesisTransaction`` 1 (a direct write set and its events), ``BlockMetadata`` 2,
``StateCheckpoint`` 3 and ``BlockEpilogue`` 6 (its ``V0``). ``ValidatorTransaction`` 4 and
``BlockMetadataExt`` 5 are refused with :class:`BCSDecodeError` naming them.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Final

from ledgerkit._errors import BCSDecodeError, BCSEncodeError
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer
from ledgerkit.bcs._enums import StructEnum
from ledgerkit.bcs._transactions import SignedTransaction
from ledgerkit.bcs._typetag import read_identifier
from ledgerkit.bcs._writeset import ContractEvent, WriteSet
from ledgerkit.types import Address, ModuleId

__all__ = [
    "BlockEpilogue",
    "BlockMetadata",
    "ExecutionStatus",
    "GenesisTransaction",
    "LedgerTransaction",
    "StateCheckpoint",
    "TransactionData",
    "TransactionInfo",
    "TransactionOnChainData",
]

_HASH: Final = 32
_STATUSES: Final = ("Success", "OutOfGas", "MoveAbort", "ExecutionFailure", "MiscellaneousError")
_LOCATIONS: Final = ("Module", "Script")
_TRANSACTIONS: Final = (
    "UserTransaction",
    "GenesisTransaction",
    "BlockMetadata",
    "StateCheckpoint",
    "ValidatorTransaction",
    "BlockMetadataExt",
    "BlockEpilogue",
)
_WRITE_SET_PAYLOADS: Final = ("Direct", "Script")
_EPILOGUES: Final = ("V0", "V1")
_END_INFOS: Final = ("V0",)
_INFOS: Final = ("V0",)
_DATA: Final = ("OnChain", "Pending")


def _hash(d: Deserializer) -> bytes:
    return d.fixed_bytes(_HASH)


def _write_hash(s: Serializer, value: bytes) -> None:
    s.fixed_bytes(value, _HASH)


@dataclass(frozen=True, slots=True)
class ExecutionStatus(BCSStruct):
    """How a transaction ended: ``kind`` is ``Success``, ``OutOfGas``, ``MoveAbort``,
    ``ExecutionFailure`` or ``MiscellaneousError``.

    A ``MoveAbort`` has ``location`` (a module, or None for a script), ``code`` and, when
    known, ``reason_name`` and ``description``; an ``ExecutionFailure`` has ``location``,
    ``function`` and ``code_offset``; a ``MiscellaneousError`` may have ``status_code``.
    """

    kind: str = "Success"
    location: ModuleId | None = None
    code: int | None = None
    reason_name: str | None = None
    description: str | None = None
    function: int | None = None
    code_offset: int | None = None
    status_code: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in _STATUSES:
            raise BCSEncodeError(f"execution status is one of {_STATUSES}, got {self.kind!r}")
        if (self.reason_name is None) != (self.description is None):
            raise BCSEncodeError("reason_name and description go together")

    @property
    def success(self) -> bool:
        return self.kind == "Success"

    def _write_location(self, s: Serializer) -> None:
        if self.location is None:
            s.uleb128(1)
        else:
            s.uleb128(0)
            s.address(self.location.address)
            s.string(self.location.name)

    def serialize(self, s: Serializer) -> None:
        s.uleb128(_STATUSES.index(self.kind))
        if self.kind == "MoveAbort":
            self._write_location(s)
            s.u64(_required(self.code, "code"))
            if self.reason_name is None:
                s.u8(0)
            else:
                s.u8(1)
                s.string(self.reason_name)
                s.string(self.description or "")
        elif self.kind == "ExecutionFailure":
            self._write_location(s)
            s.u16(_required(self.function, "function"))
            s.u16(_required(self.code_offset, "code_offset"))
        elif self.kind == "MiscellaneousError":
            s.option(self.status_code, s.u64)

    @classmethod
    def deserialize(cls, d: Deserializer) -> ExecutionStatus:
        kind = _STATUSES[d.variant(_STATUSES, "ExecutionStatus")]
        if kind == "MoveAbort":
            location = d.field("location", _read_location, d)
            code = d.field("code", d.u64)
            info = d.field(
                "info",
                d.option,
                lambda: (d.field("reason_name", d.string), d.field("description", d.string)),
            )
            reason, text = info if info is not None else (None, None)
            return cls(kind, location, code, reason, text)
        if kind == "ExecutionFailure":
            location = d.field("location", _read_location, d)
            function = d.field("function", d.u16)
            return cls(kind, location, function=function, code_offset=d.field("code_offset", d.u16))
        if kind == "MiscellaneousError":
            return cls(kind, status_code=d.field("status_code", d.option, d.u64))
        return cls(kind)


def _required(value: int | None, name: str) -> int:
    if value is None:
        raise BCSEncodeError(f"{name} is required for this execution status")
    return value


def _read_location(d: Deserializer) -> ModuleId | None:
    if d.variant(_LOCATIONS, "AbortLocation") == 1:
        return None
    address = d.field("address", d.address)
    return ModuleId(address, d.field("name", read_identifier, d))


@dataclass(frozen=True, slots=True)
class TransactionInfo(BCSStruct):
    """What executing a transaction produced, as the ledger commits it (``V0``)."""

    gas_used: int
    status: ExecutionStatus
    transaction_hash: bytes
    event_root_hash: bytes
    state_change_hash: bytes
    state_checkpoint_hash: bytes | None = None
    auxiliary_info_hash: bytes | None = None

    def serialize(self, s: Serializer) -> None:
        s.uleb128(0)
        s.u64(self.gas_used)
        self.status.serialize(s)
        for value in (self.transaction_hash, self.event_root_hash, self.state_change_hash):
            _write_hash(s, value)
        s.option(self.state_checkpoint_hash, lambda h: _write_hash(s, h))
        s.option(self.auxiliary_info_hash, lambda h: _write_hash(s, h))

    @classmethod
    def deserialize(cls, d: Deserializer) -> TransactionInfo:
        d.variant(_INFOS, "TransactionInfo")
        return cls(
            gas_used=d.field("gas_used", d.u64),
            status=d.field("status", ExecutionStatus.deserialize, d),
            transaction_hash=d.field("transaction_hash", _hash, d),
            event_root_hash=d.field("event_root_hash", _hash, d),
            state_change_hash=d.field("state_change_hash", _hash, d),
            state_checkpoint_hash=d.field("state_checkpoint_hash", d.option, lambda: _hash(d)),
            auxiliary_info_hash=d.field("auxiliary_info_hash", d.option, lambda: _hash(d)),
        )


@dataclass(frozen=True, slots=True)
class GenesisTransaction:
    """The first transaction: a direct write set and the events it emits."""

    write_set: WriteSet
    events: tuple[ContractEvent, ...] = ()

    def serialize(self, s: Serializer) -> None:
        s.uleb128(0)  # WriteSetPayload::Direct(ChangeSet)
        self.write_set.serialize(s)
        s.sequence(self.events, lambda e: e.serialize(s))

    @classmethod
    def deserialize(cls, d: Deserializer) -> GenesisTransaction:
        if d.variant(_WRITE_SET_PAYLOADS, "WriteSetPayload") != 0:
            raise BCSDecodeError("a genesis write set of the Script kind is not supported")
        write_set = d.field("write_set", WriteSet.deserialize, d)
        events = d.field("events", d.sequence, lambda: ContractEvent.deserialize(d), "event")
        return cls(write_set, tuple(events))


@dataclass(frozen=True, slots=True)
class BlockMetadata:
    """The transaction opening a block."""

    id: bytes
    epoch: int
    round: int
    proposer: Address
    previous_block_votes_bitvec: bytes
    failed_proposer_indices: tuple[int, ...]
    timestamp_usecs: int

    def serialize(self, s: Serializer) -> None:
        _write_hash(s, self.id)
        s.u64(self.epoch)
        s.u64(self.round)
        s.address(self.proposer)
        s.var_bytes(self.previous_block_votes_bitvec)
        s.sequence(self.failed_proposer_indices, s.u32)
        s.u64(self.timestamp_usecs)

    @classmethod
    def deserialize(cls, d: Deserializer) -> BlockMetadata:
        return cls(
            id=d.field("id", _hash, d),
            epoch=d.field("epoch", d.u64),
            round=d.field("round", d.u64),
            proposer=d.field("proposer", d.address),
            previous_block_votes_bitvec=d.field("previous_block_votes_bitvec", d.var_bytes),
            failed_proposer_indices=tuple(d.field("failed_proposer_indices", d.sequence, d.u32)),
            timestamp_usecs=d.field("timestamp_usecs", d.u64),
        )


@dataclass(frozen=True, slots=True)
class StateCheckpoint:
    """The older block-closing transaction: the block's id only."""

    block_id: bytes

    def serialize(self, s: Serializer) -> None:
        _write_hash(s, self.block_id)

    @classmethod
    def deserialize(cls, d: Deserializer) -> StateCheckpoint:
        return cls(d.field("block_id", _hash, d))


@dataclass(frozen=True, slots=True)
class BlockEpilogue:
    """The transaction closing a block (``V0``): its id and why the block ended."""

    block_id: bytes
    block_gas_limit_reached: bool
    block_output_limit_reached: bool
    block_effective_block_gas_units: int
    block_approx_output_size: int

    def serialize(self, s: Serializer) -> None:
        s.uleb128(0)
        _write_hash(s, self.block_id)
        s.uleb128(0)  # BlockEndInfo::V0
        s.boolean(self.block_gas_limit_reached)
        s.boolean(self.block_output_limit_reached)
        s.u64(self.block_effective_block_gas_units)
        s.u64(self.block_approx_output_size)

    @classmethod
    def deserialize(cls, d: Deserializer) -> BlockEpilogue:
        if d.variant(_EPILOGUES, "BlockEpiloguePayload") != 0:
            raise BCSDecodeError("a block epilogue of version V1 is not supported")
        block_id = d.field("block_id", _hash, d)
        d.variant(_END_INFOS, "BlockEndInfo")
        return cls(
            block_id,
            d.field("block_gas_limit_reached", d.boolean),
            d.field("block_output_limit_reached", d.boolean),
            d.field("block_effective_block_gas_units", d.u64),
            d.field("block_approx_output_size", d.u64),
        )


#: A ledger transaction: one of the variants of the ``Transaction`` enum read here.
LedgerTransaction = (
    SignedTransaction | GenesisTransaction | BlockMetadata | StateCheckpoint | BlockEpilogue
)
_LEDGER_ENUM: Final = StructEnum[LedgerTransaction](
    _TRANSACTIONS,
    {
        0: SignedTransaction,
        1: GenesisTransaction,
        2: BlockMetadata,
        3: StateCheckpoint,
        6: BlockEpilogue,
    },
    what="Transaction",
    noun="a ledger transaction",
    unsupported="the {name} transaction variant is not supported",
)


def serialize_ledger_transaction(s: Serializer, txn: LedgerTransaction) -> None:
    """Write ``txn`` as the ledger's ``Transaction`` enum."""
    _LEDGER_ENUM.serialize(s, txn)


def deserialize_ledger_transaction(d: Deserializer) -> LedgerTransaction:
    """Read the ledger's ``Transaction`` enum."""
    return _LEDGER_ENUM.deserialize(d)


@dataclass(frozen=True, slots=True)
class TransactionOnChainData(BCSStruct):
    """A committed transaction with what it produced."""

    version: int
    transaction: LedgerTransaction
    info: TransactionInfo
    events: tuple[ContractEvent, ...]
    accumulator_root_hash: bytes
    changes: WriteSet

    def serialize(self, s: Serializer) -> None:
        s.u64(self.version)
        serialize_ledger_transaction(s, self.transaction)
        self.info.serialize(s)
        s.sequence(self.events, lambda e: e.serialize(s))
        _write_hash(s, self.accumulator_root_hash)
        self.changes.serialize(s)

    @classmethod
    def deserialize(cls, d: Deserializer) -> TransactionOnChainData:
        return cls(
            version=d.field("version", d.u64),
            transaction=d.field("transaction", deserialize_ledger_transaction, d),
            info=d.field("info", TransactionInfo.deserialize, d),
            events=tuple(
                d.field("events", d.sequence, lambda: ContractEvent.deserialize(d), "event")
            ),
            accumulator_root_hash=d.field("accumulator_root_hash", _hash, d),
            changes=d.field("changes", WriteSet.deserialize, d),
        )

    @classmethod
    def list_from_bcs(
        cls, data: builtins.bytes | bytearray | memoryview
    ) -> list[TransactionOnChainData]:
        """Decode a BCS sequence of committed transactions (what a listing answers);
        trailing bytes are an error."""
        d = Deserializer(data)
        items = d.sequence(lambda: cls.deserialize(d))
        d.finish()
        return items


@dataclass(frozen=True, slots=True)
class TransactionData(BCSStruct):
    """A transaction as a BCS read answers it: committed (``onchain``) or still waiting
    (``pending``, its signed transaction). ``bytes`` are the BCS it was decoded from
    (empty for one built by hand)."""

    onchain: TransactionOnChainData | None = None
    pending: SignedTransaction | None = None
    bytes: builtins.bytes = field(default=b"", compare=False, repr=False)

    def __post_init__(self) -> None:
        if (self.onchain is None) == (self.pending is None):
            raise BCSEncodeError("a TransactionData is either onchain or pending")

    @property
    def is_pending(self) -> bool:
        return self.pending is not None

    @property
    def signed(self) -> SignedTransaction | None:
        """The signed transaction of a user transaction (committed or pending), else None."""
        if self.pending is not None:
            return self.pending
        assert self.onchain is not None
        txn = self.onchain.transaction
        return txn if isinstance(txn, SignedTransaction) else None

    def serialize(self, s: Serializer) -> None:
        if self.onchain is not None:
            s.uleb128(0)
            self.onchain.serialize(s)
        else:
            assert self.pending is not None
            s.uleb128(1)
            self.pending.serialize(s)

    @classmethod
    def deserialize(cls, d: Deserializer) -> TransactionData:
        start = d.position
        if d.variant(_DATA, "TransactionData") == 0:
            onchain = d.field("OnChain", TransactionOnChainData.deserialize, d)
            return cls(onchain=onchain, bytes=d.bytes_since(start))
        pending = d.field("Pending", SignedTransaction.deserialize, d)
        return cls(pending=pending, bytes=d.bytes_since(start))
