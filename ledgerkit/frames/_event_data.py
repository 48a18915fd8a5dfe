"""Event data as typed columns: field types written by hand, or read from the ABIs of the
modules that declare the events' structs (held in an :class:`~ledgerkit.AbiCache`, which
lays an event type out as columns), nested structs flattened to dotted names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import msgspec
import pandas as pd

from ledgerkit._errors import InputError, LedgerError
from ledgerkit.frames._dtypes import (
    string,
)
from ledgerkit.frames._events_blocks import EVENT_COLUMNS
from ledgerkit.frames._inputs import describe, json_text
from ledgerkit.frames._state import move_column
from ledgerkit.models import AbiCache, MoveModule, MoveModuleBytecode
from ledgerkit.types import MoveType, PrimitiveType, StructTag, VectorType

__all__ = ["EVENT_KEY_COLUMNS", "event_type_matches", "expand_event_data"]

#: The columns of an expanded frame before the fields: the event's place and identity,
#: as in :data:`EVENT_COLUMNS`.
EVENT_KEY_COLUMNS: Final = {
    name: EVENT_COLUMNS[name]
    for name in (
        "version",
        "event_index",
        "creation_number",
        "account_address",
        "sequence_number",
        "type",
    )
}
_SIGNED_64: Final = frozenset({"i8", "i16", "i32", "i64"})
_SIGNED_WIDE: Final = frozenset({"i128", "i256"})
#: Where a field lies in an event's data: field names, ``None`` stepping into an option
#: (as in :class:`ledgerkit.models.Leaf`).
_Path = tuple[str | None, ...]
_BYTES: Final = VectorType(PrimitiveType("u8"))


def _parse_struct(text: str) -> StructTag | None:
    try:
        parsed = MoveType.parse(text)
    except LedgerError:
        return None
    return parsed if isinstance(parsed, StructTag) else None


def event_type_matches(wanted: StructTag | str, event_type: str) -> bool:
    """Whether an event of type ``event_type`` is one of ``wanted``: with type arguments,
    that exact instantiation; without, the struct with any type arguments. Addresses may
    be written in any form."""
    want = StructTag.parse(wanted)
    tag = _parse_struct(event_type)
    if tag is None:
        return False
    return tag == want if want.type_args else tag.base == want


def _value_at(data: Any, path: _Path) -> Any:
    for step in path:
        if step is None:
            inner = data.get("vec") if isinstance(data, dict) else None
            data = inner[0] if isinstance(inner, list) and inner else None
        else:
            data = data.get(step) if isinstance(data, dict) else None
        if data is None:
            return None
    return data


def _typed(values: Sequence[Any], move_type: MoveType | None) -> Any:
    """A column of ``values`` of one Move type (None: JSON text)."""
    if isinstance(move_type, PrimitiveType) and move_type.name in _SIGNED_64:
        return pd.array([None if v is None else int(v) for v in values], dtype="Int64")
    if isinstance(move_type, PrimitiveType) and move_type.name in _SIGNED_WIDE:
        return string([None if v is None else str(int(v)) for v in values])
    if move_type == _BYTES:
        return string([None if v is None else str(v) for v in values])
    if move_type is None:
        return string([None if v is None else json_text(v) for v in values])
    return move_column(values, move_type)


def _column_name(name: str) -> str:
    """A field's column: ``data.<name>`` when a key column already has its name."""
    return f"data.{name}" if name in EVENT_KEY_COLUMNS else name


def _events_of_type(frame: pd.DataFrame, wanted: StructTag) -> tuple[pd.DataFrame, set[str]]:
    """The rows of events of the ``wanted`` type, and the type names among them."""
    types = frame["type"]
    kinds = pd.unique(types.dropna().astype(str))
    chosen = {t for t in kinds if event_type_matches(wanted, t)}
    keep = types.isin(list(chosen)).to_numpy(dtype=bool, na_value=False)
    return frame.loc[keep], chosen


def _given_field_columns(data: list[Any], fields: Mapping[str, MoveType | str]) -> dict[str, Any]:
    """The columns of fields typed by hand, read by their dotted names."""
    return {
        _column_name(name): move_column(
            [_value_at(item, tuple(name.split("."))) for item in data], given
        )
        for name, given in fields.items()
    }


def _field_layout(
    cache: AbiCache, wanted: StructTag, chosen: set[str]
) -> tuple[dict[str, tuple[_Path, MoveType | None]], dict[str, dict[str, _Path]]]:
    """From the ABIs, each field's column and Move type (``None``, JSON text, where the
    kept types disagree), and where each type name holds each field."""
    layouts = {t: cache.leaves(tag) for t in chosen if (tag := _parse_struct(t)) is not None}
    if not layouts:
        # No event matched: the columns the wanted type lays out to (exact types, or the
        # struct's own declaration when its type arguments are left open).
        layouts = {str(wanted): cache.leaves(wanted)}
    order: dict[str, tuple[_Path, MoveType | None]] = {}
    for leaves in layouts.values():
        for leaf in leaves:
            seen = order.get(leaf.name)
            if seen is None:
                order[leaf.name] = (leaf.path, leaf.move_type)
            elif seen[1] != leaf.move_type:
                order[leaf.name] = (seen[0], None)  # types differ: JSON text
    paths = {t: {leaf.name: leaf.path for leaf in leaves} for t, leaves in layouts.items()}
    return order, paths


def _abi_field_columns(
    data: list[Any], row_types: list[str], cache: AbiCache, wanted: StructTag, chosen: set[str]
) -> dict[str, Any]:
    """The columns of every field, typed from the ABIs of the modules in ``cache``."""
    order, paths = _field_layout(cache, wanted, chosen)
    columns: dict[str, Any] = {}
    for name, (_, move_type) in order.items():
        values = []
        for item, kind in zip(data, row_types, strict=True):
            path = paths.get(kind, {}).get(name)
            values.append(None if path is None else _value_at(item, path))
        columns[_column_name(name)] = _typed(values, move_type)
    return columns


def expand_event_data(
    frame: pd.DataFrame,
    event_type: str | StructTag,
    fields: Mapping[str, MoveType | str] | None = None,
    *,
    modules: AbiCache | Iterable[MoveModule | MoveModuleBytecode] | None = None,
) -> pd.DataFrame:
    """The events of one type from :func:`events_to_frame`, their ``data`` as typed columns.

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame of :data:`EVENT_COLUMNS`.
    event_type : str or StructTag
        The events to keep. With type arguments
        (``0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>``), that exact instantiation;
        without, the struct with any type arguments. Addresses may be in any form.
    fields : mapping of str to MoveType or str, optional
        The field types written by hand: name -> Move type (``{"store": "address",
        "amount": "u64"}``), typed as :func:`move_column` does; a dotted name reads a
        nested field (``"type_info.account_address"``). A field an event lacks is missing.
    modules : AbiCache or iterable of MoveModule, optional
        Instead of ``fields``: module ABIs, from which every field is typed (see Notes).
        With a client, :func:`ledgerkit.typed_events` fetches them.

    Returns
    -------
    pandas.DataFrame
        :data:`EVENT_KEY_COLUMNS` (``version``, ``event_index``, ``creation_number``,
        ``account_address``, ``sequence_number``, ``type``), then one column per field;
        the same columns and dtypes when no event matches.

    Raises
    ------
    InputError
        ``frame`` is not an events frame; neither or both of ``fields`` and ``modules``.
    UnknownStructError
        With ``modules``: the event's struct, or one nested in it, is declared by none.

    Notes
    -----
    Typed from module ABIs, a field becomes:

    - u8 ... u64: ``UInt64``; u128, u256: fixed-width decimal text (exact, sorts
      numerically); i8 ... i64: ``Int64``; i128, i256: decimal text;
    - ``address``: the long form (``0x`` and 64 hex digits), ``category``; ``bool``:
      ``boolean``; ``0x1::string::String``: ``string``;
    - ``0x1::object::Object<T>``: the object's address, as an ``address``;
    - a struct: its fields, flattened to dotted names (``coin.value``), through each
      struct's own module's ABI, generic parameters replaced by the type arguments of
      the event's type;
    - ``0x1::option::Option<T>``: as ``T`` would be, missing when the option is none;
    - ``vector<u8>``: the ``0x``-prefixed hex text the node writes; any other vector, an
      enum, or a struct nested more than 16 deep: JSON text (numbers exact, as strings).

    A field named like one of the key columns is written ``data.<name>``. When events of
    several instantiations of a generic struct are kept, a column whose type differs
    between them is JSON text.

    Examples
    --------
    >>> expand_event_data(events, "0x1::fungible_asset::Deposit",
    ...                   {"store": "address", "amount": "u64"})  # doctest: +SKIP
    >>> expand_event_data(events, "0x1::fungible_asset::Deposit",
    ...                   modules=client.account_modules("0x1").value)  # doctest: +SKIP
    """
    if not isinstance(frame, pd.DataFrame) or not {*EVENT_KEY_COLUMNS, "data"} <= set(
        frame.columns
    ):
        raise InputError(
            f"expand_event_data expects a frame of events_to_frame, got {describe(frame)}"
        )
    if (fields is None) == (modules is None):
        raise InputError("expand_event_data takes the field types (fields=) or modules=, one")
    wanted = StructTag.parse(event_type)
    rows, chosen = _events_of_type(frame, wanted)
    decode = msgspec.json.Decoder().decode
    data = [decode(text) for text in rows["data"].tolist()]
    columns: dict[str, Any] = {key: rows[key].reset_index(drop=True) for key in EVENT_KEY_COLUMNS}
    if fields is not None:
        columns.update(_given_field_columns(data, fields))
    else:
        cache = modules if isinstance(modules, AbiCache) else AbiCache(modules or ())
        row_types = [str(t) for t in rows["type"].tolist()]
        columns.update(_abi_field_columns(data, row_types, cache, wanted, chosen))
    return pd.DataFrame(columns, index=pd.RangeIndex(len(data)))
