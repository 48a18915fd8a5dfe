"""Write-set changes: the state a transaction wrote or deleted, a union on ``type``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from ledgerkit.models._accounts import MoveModuleBytecode, MoveResource
from ledgerkit.models._base import Record, TaggedRecord, UnknownVariant

__all__ = [
    "DecodedTableData",
    "DeleteModule",
    "DeleteResource",
    "DeleteTableItem",
    "DeletedTableData",
    "KnownWriteSetChange",
    "UnknownChange",
    "WriteModule",
    "WriteResource",
    "WriteSetChange",
    "WriteTableItem",
]


class WriteResource(TaggedRecord, frozen=True, kw_only=True, tag="write_resource"):
    """A resource written (created or updated) at ``address``."""

    address: str
    state_key_hash: str
    data: MoveResource


class DeleteResource(TaggedRecord, frozen=True, kw_only=True, tag="delete_resource"):
    """A resource removed from ``address``; ``resource`` is its struct tag."""

    address: str
    state_key_hash: str
    resource: str


class WriteModule(TaggedRecord, frozen=True, kw_only=True, tag="write_module"):
    """A module published or upgraded at ``address``."""

    address: str
    state_key_hash: str
    data: MoveModuleBytecode


class DeleteModule(TaggedRecord, frozen=True, kw_only=True, tag="delete_module"):
    """A module removed; ``module`` is its id (``address::name``)."""

    address: str
    state_key_hash: str
    module: str


class DecodedTableData(Record, frozen=True, kw_only=True):
    """A table item in JSON, when the node could decode it: key and value with their types."""

    key: Any
    key_type: str
    value: Any
    value_type: str


class DeletedTableData(Record, frozen=True, kw_only=True):
    """The key of a deleted table item in JSON, with its type."""

    key: Any
    key_type: str


class WriteTableItem(TaggedRecord, frozen=True, kw_only=True, tag="write_table_item"):
    """A table item written; ``key`` and ``value`` are the BCS bytes in hex."""

    state_key_hash: str
    handle: str
    key: str
    value: str
    data: DecodedTableData | None = None


class DeleteTableItem(TaggedRecord, frozen=True, kw_only=True, tag="delete_table_item"):
    """A table item deleted; ``key`` is the BCS bytes in hex."""

    state_key_hash: str
    handle: str
    key: str
    data: DeletedTableData | None = None


class UnknownChange(UnknownVariant, frozen=True, kw_only=True):
    """A change of a ``type`` this version does not know, kept whole."""


KnownWriteSetChange: TypeAlias = (
    WriteResource | DeleteResource | WriteModule | DeleteModule | WriteTableItem | DeleteTableItem
)
WriteSetChange: TypeAlias = KnownWriteSetChange | UnknownChange

# Record fields are annotated with the known variants at run time (what msgspec decodes
# in one pass) and with the whole union for type checkers (what a decoded record may
# hold once the decoder has put an unknown variant in place).
if TYPE_CHECKING:
    WriteSetChangeField: TypeAlias = WriteSetChange
else:
    WriteSetChangeField = KnownWriteSetChange
