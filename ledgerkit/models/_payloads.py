"""Transaction payloads, a union on ``type``: what a transaction asks the chain to run.

User transactions carry an entry function call, a script, a multisig call or (newest
nodes) an encrypted payload; the genesis transaction carries a write set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from ledgerkit.models._accounts import MoveFunction
from ledgerkit.models._base import Record, TaggedRecord, U64Int, UnknownVariant, check_u64
from ledgerkit.models._changes import WriteSetChangeField
from ledgerkit.models._events import Event
from ledgerkit.types import EntryFunctionId

__all__ = [
    "ClaimedEntryFunction",
    "DirectWriteSet",
    "EncryptedTransactionPayload",
    "EntryFunctionPayload",
    "GenesisPayload",
    "KnownTransactionPayload",
    "KnownWriteSet",
    "ModuleBundlePayload",
    "MoveScriptBytecode",
    "MultisigPayload",
    "ScriptPayload",
    "ScriptWriteSet",
    "TransactionPayload",
    "UnknownPayload",
    "UnknownWriteSet",
    "WriteSet",
    "WriteSetPayload",
    "WriteSetScript",
]


class UnknownPayload(UnknownVariant, frozen=True, kw_only=True):
    """A payload of a ``type`` this version does not know, kept whole."""


class EntryFunctionPayload(TaggedRecord, frozen=True, kw_only=True, tag="entry_function_payload"):
    """A call of an entry function.

    Attributes
    ----------
    function : str
        ``address::module::function``.
    type_arguments : list of str
        Move types.
    arguments : list
        The arguments as plain JSON Move values (u64 and wider are decimal strings).
    """

    function: str
    type_arguments: list[str]
    arguments: list[Any]

    @property
    def function_id(self) -> EntryFunctionId:
        """``function`` parsed."""
        return EntryFunctionId.parse(self.function)


class MoveScriptBytecode(Record, frozen=True, kw_only=True):
    """A script's bytecode (hex) and, when the node could read it, its ABI."""

    bytecode: str
    abi: MoveFunction | None = None


class ScriptPayload(TaggedRecord, frozen=True, kw_only=True, tag="script_payload"):
    """A script run once: its ``code``, type arguments and arguments (plain JSON)."""

    code: MoveScriptBytecode
    type_arguments: list[str]
    arguments: list[Any]


class ModuleBundlePayload(TaggedRecord, frozen=True, kw_only=True, tag="module_bundle_payload"):
    """The deprecated module bundle; the node sends it with no fields."""


if TYPE_CHECKING:  # see _changes.py: known variants at run time, all of them for mypy
    MultisigInnerField: TypeAlias = EntryFunctionPayload | ScriptPayload | UnknownPayload
else:
    MultisigInnerField = EntryFunctionPayload | ScriptPayload


class MultisigPayload(TaggedRecord, frozen=True, kw_only=True, tag="multisig_payload"):
    """A call made as the multisig account ``multisig_address``.

    ``transaction_payload`` is None when the call was stored on chain beforehand.
    """

    multisig_address: str
    transaction_payload: MultisigInnerField | None = None


class ClaimedEntryFunction(Record, frozen=True, kw_only=True):
    """What an encrypted payload claims to call: a module, maybe a function name."""

    module: str
    name: str | None = None


if TYPE_CHECKING:
    DecryptedInnerField: TypeAlias = (
        EntryFunctionPayload | ScriptPayload | MultisigPayload | UnknownPayload
    )
else:
    DecryptedInnerField = EntryFunctionPayload | ScriptPayload | MultisigPayload


class EncryptedTransactionPayload(
    TaggedRecord, frozen=True, kw_only=True, tag="encrypted_transaction_payload"
):
    """An encrypted payload (newest nodes).

    ``encrypted_state`` is ``"encrypted"``, ``"failed_decryption"`` or ``"decrypted"``;
    the last adds ``decrypted_payload`` and ``decryption_nonce``.
    """

    encrypted_state: str
    payload_hash: str
    ciphertext: str
    encryption_epoch: U64Int
    claimed_entry_fun: ClaimedEntryFunction | None = None
    decrypted_payload: DecryptedInnerField | None = None
    decryption_nonce: str | None = None

    def __post_init__(self) -> None:
        check_u64(self.encryption_epoch)


class WriteSetScript(Record, frozen=True, kw_only=True):
    """The script of a :class:`ScriptWriteSet`: a :class:`ScriptPayload` without the tag."""

    code: MoveScriptBytecode
    type_arguments: list[str]
    arguments: list[Any]


class ScriptWriteSet(TaggedRecord, frozen=True, kw_only=True, tag="script_write_set"):
    """A genesis write set produced by running ``script`` as ``execute_as``."""

    execute_as: str
    script: WriteSetScript


class DirectWriteSet(TaggedRecord, frozen=True, kw_only=True, tag="direct_write_set"):
    """A genesis write set given directly: its changes and events."""

    changes: list[WriteSetChangeField]
    events: list[Event]


class UnknownWriteSet(UnknownVariant, frozen=True, kw_only=True):
    """A write set of a ``type`` this version does not know, kept whole."""


KnownWriteSet: TypeAlias = ScriptWriteSet | DirectWriteSet
WriteSet: TypeAlias = KnownWriteSet | UnknownWriteSet

if TYPE_CHECKING:
    WriteSetField: TypeAlias = WriteSet
else:
    WriteSetField = KnownWriteSet


class WriteSetPayload(TaggedRecord, frozen=True, kw_only=True, tag="write_set_payload"):
    """The payload of the genesis transaction: a write set."""

    write_set: WriteSetField


KnownTransactionPayload: TypeAlias = (
    EntryFunctionPayload
    | ScriptPayload
    | ModuleBundlePayload
    | MultisigPayload
    | EncryptedTransactionPayload
    | WriteSetPayload
)
TransactionPayload: TypeAlias = KnownTransactionPayload | UnknownPayload
GenesisPayload: TypeAlias = WriteSetPayload | UnknownPayload

if TYPE_CHECKING:
    TransactionPayloadField: TypeAlias = TransactionPayload
    GenesisPayloadField: TypeAlias = GenesisPayload
else:
    TransactionPayloadField = KnownTransactionPayload
    GenesisPayloadField = WriteSetPayload
