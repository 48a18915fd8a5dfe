"""A transaction's bytes explained field by field, entry-function arguments typed by ABI.

:func:`explain_transaction` walks the BCS of a raw, signed, committed or pending
transaction (:func:`ledgerkit.bcs.explain_spans` gives every field's span) and, when the
function's ABI is known (an :class:`~ledgerkit.AbiCache` holds its module), decodes each
entry-function argument by its Move type: ``arg[1] = u64 1000000``, ``address 0x...``,
strings, vectors, options.
No I/O here: the client fetches the BCS and the ABIs (``Client.explain``).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ledgerkit._errors import InputError, LedgerError
from ledgerkit.bcs import (
    EntryFunction,
    MoveValueCodec,
    Multisig,
    RawTransaction,
    SignedTransaction,
    Span,
    TransactionData,
    TransactionPayloadV1,
    explain_spans,
)
from ledgerkit.models import AbiCache, MoveModule
from ledgerkit.types import (
    Address,
    GenericTypeParam,
    MoveType,
    PrimitiveType,
    ReferenceType,
    StructTag,
    VectorType,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EXPLANATION_COLUMNS",
    "ExplainedField",
    "TransactionExplanation",
    "entry_function_of",
    "explain_transaction",
]

#: Columns of :meth:`TransactionExplanation.to_frame`, in order.
EXPLANATION_COLUMNS: Final = ("offset", "bytes", "field", "value")
#: Every Move integer width, unsigned and signed: shown in the frame as an exact ``int``.
_INTS: Final = frozenset(f"{sign}{bits}" for sign in "ui" for bits in (8, 16, 32, 64, 128, 256))
_HEX_SHOWN: Final = 32
_STRING: Final = "0x1::string::String"
_OPTION: Final = "0x1::option::Option"
_CODEC: Final = MoveValueCodec()

Explainable = RawTransaction | SignedTransaction | TransactionData


def argument_types(ef: EntryFunction, module: MoveModule | None) -> list[MoveType] | None:
    """The Move types of ``ef``'s arguments by ``module``'s ABI (signers left out, generics
    filled in from its type arguments), or None when the ABI is unknown or does not fit
    the call."""
    function = None if module is None else module.function(ef.function)
    if function is None or len(function.generic_type_params) != len(ef.type_args):
        return None
    try:
        params = [MoveType.parse(p) for p in function.params]
    except LedgerError:
        return None
    values = [p for p in params if not _is_signer(p)]
    if len(values) != len(ef.args):
        return None
    return [p.substitute(tuple(ef.type_args)) for p in values]


def _is_signer(t: MoveType) -> bool:
    if isinstance(t, ReferenceType):
        t = t.referent
    return isinstance(t, PrimitiveType) and t.name == "signer"


def entry_function_of(txn: Explainable) -> EntryFunction | None:
    """The entry function a user transaction calls, or None (scripts, other kinds)."""
    if isinstance(txn, TransactionData):
        signed = txn.signed
        if signed is None:
            return None
        txn = signed
    raw = txn.raw if isinstance(txn, SignedTransaction) else txn
    payload = raw.payload
    if isinstance(payload, TransactionPayloadV1):
        executable = payload.executable
        return executable if isinstance(executable, EntryFunction) else None
    if isinstance(payload, Multisig):
        return payload.payload
    return payload if isinstance(payload, EntryFunction) else None


@dataclass(frozen=True, slots=True)
class ExplainedField:
    """One line of an explanation: a field and the bytes it spans.

    ``value`` is exact (an ``int`` for integers, however wide); ``text`` is how it reads.
    A field with children (a struct, a sequence) has ``leaf`` False; the leaves cover
    every byte of the transaction once.
    """

    offset: int
    data: bytes
    path: tuple[str, ...]
    value: Any
    text: str
    leaf: bool

    @property
    def field(self) -> str:
        return ".".join(self.path)


class TransactionExplanation:
    """The annotated dump of a transaction's BCS.

    ``str()`` is the dump (one line per field: offset, bytes in hex, name, value); in
    Jupyter it renders as ``<pre>``; :meth:`to_frame` gives the leaves as a frame.
    """

    __slots__ = ("data", "fields", "kind", "typed")

    def __init__(
        self, kind: str, data: bytes, fields: Sequence[ExplainedField], *, typed: bool
    ) -> None:
        self.kind = kind
        self.data = data
        self.fields = tuple(fields)
        self.typed = typed

    def __repr__(self) -> str:
        how = "arguments typed" if self.typed else "arguments untyped"
        return (
            f"<TransactionExplanation {self.kind}: {len(self.data)} bytes, "
            f"{sum(f.leaf for f in self.fields)} fields, {how}>"
        )

    def __str__(self) -> str:
        width = 16
        lines = []
        for f in self.fields:
            indent = "  " * (len(f.path) - 1)
            shown = f.data[:width].hex(" ") if f.leaf else ""
            if f.leaf and len(f.data) > width:
                shown += f" ...(+{len(f.data) - width})"
            label = f"{indent}{f.path[-1]}"
            line = f"{f.offset:6d}  {shown:<{width * 3 + 10}}{label}"
            lines.append(f"{line} = {f.text}" if f.text else line)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(str(self))}</pre>"

    def to_frame(self) -> pd.DataFrame:
        """The leaves as a frame: ``offset`` (int64), ``bytes`` (hex), ``field`` (dotted
        path) and ``value`` (exact: Python ints, however wide; text otherwise)."""
        import pandas as pd

        leaves = [f for f in self.fields if f.leaf]
        frame = pd.DataFrame(
            {
                "offset": pd.Series([f.offset for f in leaves], dtype="int64"),
                "bytes": pd.Series([f.data.hex() for f in leaves], dtype=object),
                "field": pd.Series([f.field for f in leaves], dtype=object),
                "value": pd.Series([_exact(f) for f in leaves], dtype=object),
            }
        )
        return frame[list(EXPLANATION_COLUMNS)]


def _exact(f: ExplainedField) -> Any:
    value = f.value
    if isinstance(value, bool) or value is None:
        return f.text if value is None else value
    if isinstance(value, int):
        return value
    return f.text


def explain_transaction(
    txn: Explainable | bytes, *, kind: type | None = None, abis: AbiCache | None = None
) -> TransactionExplanation:
    """Explain a transaction's BCS field by field, typing entry-function arguments by ABI.

    Parameters
    ----------
    txn : RawTransaction, SignedTransaction, TransactionData or bytes
        The transaction; bytes need ``kind`` (one of those three classes).
    abis : AbiCache, optional
        ABIs of the modules called; without the called one, arguments show as bytes.

    Raises
    ------
    InputError
        Not a transaction (or bytes without a kind).
    BCSDecodeError
        Bytes that do not decode as ``kind``.
    """
    if isinstance(txn, bytes | bytearray | memoryview):
        if kind not in (RawTransaction, SignedTransaction, TransactionData):
            raise InputError("explaining bytes needs kind=RawTransaction, SignedTransaction...")
        assert kind is not None
        data = bytes(txn)
        value: Explainable = kind.from_bcs(data)
    elif isinstance(txn, RawTransaction | SignedTransaction | TransactionData):
        value = txn
        data = txn.bytes if isinstance(txn, TransactionData) and txn.bytes else txn.to_bcs()
    else:
        raise InputError(
            "explain takes a RawTransaction, SignedTransaction or TransactionData, "
            f"got {type(txn).__name__}"
        )
    spans = explain_spans(data, type(value))
    ef = entry_function_of(value)
    types = None if ef is None or abis is None else argument_types(ef, abis.module(ef.module))
    typed = _typed_arguments(ef, types)
    fields = []
    for i, span in enumerate(spans):
        leaf = i + 1 == len(spans) or spans[i + 1].depth <= span.depth
        chunk = data[span.start : span.end]
        found = typed.get(_arg_index(span, ef))
        if found is not None:
            exact, text = found
            fields.append(ExplainedField(span.start, chunk, span.path, exact, text, leaf))
        else:
            text = _show_span(span)
            fields.append(ExplainedField(span.start, chunk, span.path, span.value, text, leaf))
    return TransactionExplanation(type(value).__name__, data, fields, typed=bool(typed))


def _arg_index(span: Span, ef: EntryFunction | None) -> int:
    """The index of the entry-function argument ``span`` is, or -1."""
    if ef is None or len(span.path) < 2 or span.path[-2] != "args":
        return -1
    name = span.name
    if not (name.startswith("arg[") and name.endswith("]")):
        return -1
    index = int(name[4:-1])
    if index < len(ef.args) and span.value == ef.args[index]:
        return index
    return -1


def _typed_arguments(
    ef: EntryFunction | None, types: list[MoveType] | None
) -> dict[int, tuple[Any, str]]:
    if ef is None or types is None:
        return {}
    out: dict[int, tuple[Any, str]] = {}
    for i, (t, raw) in enumerate(zip(types, ef.args, strict=True)):
        try:
            decoded = _CODEC.decode(t, raw)
        except LedgerError:
            continue  # not decodable by its ABI type (a struct without a layout...)
        exact = int(decoded) if _is_int(t) else decoded if isinstance(decoded, bool) else None
        text = f"{t} {_render(t, decoded)}"
        out[i] = (exact, text)
    return out


def _is_int(t: MoveType) -> bool:
    return isinstance(t, PrimitiveType) and t.name in _INTS


def _render(t: MoveType, value: Any) -> str:
    """A decoded Move value (JSON form) as text, by its type."""
    if isinstance(t, PrimitiveType):
        if t.name == "bool":
            return "true" if value else "false"
        if t.name == "address":
            return Address.parse(value).standard
        return str(value)
    if isinstance(t, VectorType):
        if isinstance(value, str):  # vector<u8>: hex
            return value
        return "[" + ", ".join(_render(t.element, v) for v in value) + "]"
    if isinstance(t, StructTag):
        name = f"{t.address.short}::{t.module}::{t.name}"
        if name == _STRING:
            return json.dumps(value, ensure_ascii=False)
        if name == _OPTION and isinstance(value, Mapping):
            items = value.get("vec", [])
            return f"some({_render(t.type_args[0], items[0])})" if items else "none"
    if isinstance(t, GenericTypeParam):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _show_span(span: Span) -> str:
    if span.name.endswith("variant)"):
        return str(span.value)
    if span.name.startswith("("):
        return ""  # length prefixes and tags
    if span.value is None:
        return "none"  # an option left empty
    return _show(span.value)


def _show(value: Any) -> str:
    if isinstance(value, bytes):
        return f"{len(value)} bytes" if len(value) > _HEX_SHOWN else "0x" + value.hex()
    if isinstance(value, Address):
        return value.standard
    if isinstance(value, MoveType):
        return str(value)
    if isinstance(value, str):
        return value if value.startswith("(") else json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return f"{len(value)} item(s)"
    return ""
