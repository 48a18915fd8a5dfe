"""Write sets and contract events: what a committed transaction changed and emitted.

``StateKey`` is the ledger's ``StateKeyInner`` (``AccessPath`` 0, ``TableItem`` 1,
``Raw`` 2); ``WriteOp`` is its persisted form (``Creation`` 0, ``Modification`` 1,
``Deletion`` 2, and the same three ``...WithMetadata`` at 3, 4, 5); ``WriteSet`` is the
``V0`` enum over a map of state key to write op, entries in the order of their keys'
bytes. ``ContractEvent`` is ``V1`` (an event handle's stream: key and sequence number) or
``V2`` (a module event: type and data only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ledgerkit._errors import BCSDecodeError, BCSEncodeError
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer
from ledgerkit.bcs._typetag import deserialize_type_tag, serialize_type_tag
from ledgerkit.types import Address, MoveType

__all__ = ["ContractEvent", "StateKey", "StateValueMetadata", "WriteOp", "WriteSet"]

_STATE_KEY_KINDS: Final = ("AccessPath", "TableItem", "Raw")
_WRITE_OPS: Final = (
    "Creation",
    "Modification",
    "Deletion",
    "CreationWithMetadata",
    "ModificationWithMetadata",
    "DeletionWithMetadata",
)
_METADATA: Final = ("V0", "V1")
_EVENTS: Final = ("V1", "V2")
_WRITE_SETS: Final = ("V0",)


@dataclass(frozen=True, slots=True)
class StateKey(BCSStruct):
    """A state key: ``kind`` is ``AccessPath``, ``TableItem`` or ``Raw``.

    ``address`` is the account (or the table handle); ``path`` the BCS of the access
    path's ``Path`` (or the table item's key, or the raw key); ``address`` is None for
    ``Raw``.
    """

    kind: str
    address: Address | None
    path: bytes

    def __post_init__(self) -> None:
        if self.kind not in _STATE_KEY_KINDS:
            raise BCSEncodeError(f"state key kind is one of {_STATE_KEY_KINDS}, got {self.kind!r}")
        if (self.address is None) != (self.kind == "Raw"):
            raise BCSEncodeError("a Raw state key has no address; the other kinds have one")

    def serialize(self, s: Serializer) -> None:
        s.uleb128(_STATE_KEY_KINDS.index(self.kind))
        if self.address is not None:
            s.address(self.address)
        s.var_bytes(self.path)

    @classmethod
    def deserialize(cls, d: Deserializer) -> StateKey:
        kind = _STATE_KEY_KINDS[d.variant(_STATE_KEY_KINDS, "StateKey")]
        address = None if kind == "Raw" else d.field("address", d.address)
        return cls(kind, address, d.field("path", d.var_bytes))


@dataclass(frozen=True, slots=True)
class StateValueMetadata:
    """Storage deposits of a state value: ``V0`` has one deposit (``slot_deposit``,
    ``bytes_deposit`` 0), ``V1`` two."""

    slot_deposit: int
    bytes_deposit: int
    creation_time_usecs: int
    version: str = "V1"

    def serialize(self, s: Serializer) -> None:
        if self.version not in _METADATA:
            raise BCSEncodeError(f"metadata version is V0 or V1, got {self.version!r}")
        s.uleb128(_METADATA.index(self.version))
        s.u64(self.slot_deposit)
        if self.version == "V1":
            s.u64(self.bytes_deposit)
        s.u64(self.creation_time_usecs)

    @classmethod
    def deserialize(cls, d: Deserializer) -> StateValueMetadata:
        if d.variant(_METADATA, "StateValueMetadata") == 0:
            deposit = d.field("deposit", d.u64)
            return cls(deposit, 0, d.field("creation_time_usecs", d.u64), "V0")
        slot = d.field("slot_deposit", d.u64)
        size = d.field("bytes_deposit", d.u64)
        return cls(slot, size, d.field("creation_time_usecs", d.u64), "V1")


@dataclass(frozen=True, slots=True)
class WriteOp(BCSStruct):
    """One change: ``kind`` is a persisted write-op variant name; ``data`` the new value's
    bytes (None for a deletion); ``metadata`` only for the ``...WithMetadata`` kinds."""

    kind: str
    data: bytes | None = None
    metadata: StateValueMetadata | None = None

    def __post_init__(self) -> None:
        if self.kind not in _WRITE_OPS:
            raise BCSEncodeError(f"write op kind is one of {_WRITE_OPS}, got {self.kind!r}")
        if (self.data is None) != self.kind.startswith("Deletion"):
            raise BCSEncodeError(f"{self.kind}: data is given exactly when not a deletion")
        if (self.metadata is None) == self.kind.endswith("WithMetadata"):
            raise BCSEncodeError(f"{self.kind}: metadata is given exactly for ...WithMetadata")

    @property
    def is_deletion(self) -> bool:
        return self.data is None

    def serialize(self, s: Serializer) -> None:
        s.uleb128(_WRITE_OPS.index(self.kind))
        if self.data is not None:
            s.var_bytes(self.data)
        if self.metadata is not None:
            self.metadata.serialize(s)

    @classmethod
    def deserialize(cls, d: Deserializer) -> WriteOp:
        kind = _WRITE_OPS[d.variant(_WRITE_OPS, "WriteOp")]
        data = None if kind.startswith("Deletion") else d.field("data", d.var_bytes)
        metadata = None
        if kind.endswith("WithMetadata"):
            metadata = d.field("metadata", StateValueMetadata.deserialize, d)
        return cls(kind, data, metadata)


@dataclass(frozen=True, slots=True)
class WriteSet(BCSStruct):
    """The changes of a transaction, as ``(state key, write op)`` pairs.

    Written in the canonical order (by the bytes of each key); decoding refuses keys out
    of that order or repeated.
    """

    changes: tuple[tuple[StateKey, WriteOp], ...] = ()

    def serialize(self, s: Serializer) -> None:
        changes = dict(self.changes)
        if len(changes) != len(self.changes):
            raise BCSEncodeError("a write set changes each state key once")
        s.uleb128(0)
        s.map(changes, lambda ks, key: key.serialize(ks), lambda vs, op: op.serialize(vs))

    @classmethod
    def deserialize(cls, d: Deserializer) -> WriteSet:
        d.variant(_WRITE_SETS, "WriteSet")
        changes: list[tuple[StateKey, WriteOp]] = []
        count = d.length()
        if count > d.remaining:
            raise BCSDecodeError(
                f"write set of {count} changes but only {d.remaining} byte(s) left",
                offset=d.position,
            )
        previous: bytes | None = None
        for i in range(count):
            start = d.position
            key = d.field(f"key[{i}]", StateKey.deserialize, d)
            key_bytes = d.bytes_since(start)
            if previous is not None and key_bytes <= previous:
                raise BCSDecodeError("write set keys out of canonical order", offset=start)
            previous = key_bytes
            changes.append((key, d.field(f"op[{i}]", WriteOp.deserialize, d)))
        return cls(tuple(changes))


@dataclass(frozen=True, slots=True)
class ContractEvent(BCSStruct):
    """An emitted event. With ``creation_number`` and ``account`` (an event handle's
    stream, with ``sequence_number``) it is ``V1``; without them a module event, ``V2``."""

    type: MoveType
    data: bytes
    creation_number: int | None = None
    account: Address | None = None
    sequence_number: int | None = None

    def __post_init__(self) -> None:
        given = {self.creation_number is None, self.account is None, self.sequence_number is None}
        if len(given) != 1:
            raise BCSEncodeError(
                "creation_number, account and sequence_number go together (V1) or not at all (V2)"
            )

    @property
    def is_module_event(self) -> bool:
        return self.account is None

    def serialize(self, s: Serializer) -> None:
        if self.account is None:
            s.uleb128(1)
        else:
            assert self.creation_number is not None
            assert self.sequence_number is not None
            s.uleb128(0)
            s.u64(self.creation_number)
            s.address(self.account)
            s.u64(self.sequence_number)
        serialize_type_tag(s, self.type)
        s.var_bytes(self.data)

    @classmethod
    def deserialize(cls, d: Deserializer) -> ContractEvent:
        if d.variant(_EVENTS, "ContractEvent") == 1:
            type_ = d.field("type_tag", deserialize_type_tag, d)
            return cls(type_, d.field("event_data", d.var_bytes))
        creation_number = d.field("creation_number", d.u64)
        account = d.field("account_address", d.address)
        sequence_number = d.field("sequence_number", d.u64)
        type_ = d.field("type_tag", deserialize_type_tag, d)
        data = d.field("event_data", d.var_bytes)
        return cls(type_, data, creation_number, account, sequence_number)
