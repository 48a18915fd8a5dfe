"""A transaction's events and write set as typed fields, for the inspector's Events and
Changes tabs.

An event's fields come from :func:`ledgerkit.frames.expand_event_data` over the
explorer's one :class:`~ledgerkit.AbiCache` (``nav.abis``), filled by the flow
:func:`ledgerkit.models.abi_requests`, run by the client's driver with modules read once
per explorer (the Payload tab's function ABI comes from the same reads). A resource's or
table item's value is flattened with the struct layouts of the same cache. A value whose
type cannot be learnt (a module the node does not publish) is still shown field by
field, untyped.

Each field is a row as :func:`ledgerkit.widgets._move_rows.flatten_value` makes them
(``path``, ``type``, ``value``, ``points_to``, ``target``): an address opens its account,
a table its items.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any, Final

import pandas as pd

from ledgerkit._errors import LedgerError, NotFoundError
from ledgerkit.client import drive
from ledgerkit.frames import EVENT_KEY_COLUMNS, expand_event_data
from ledgerkit.models import (
    AbiCache,
    DeleteModule,
    DeleteResource,
    DeleteTableItem,
    MoveModule,
    WriteModule,
    WriteResource,
    WriteTableItem,
    abi_requests,
)
from ledgerkit.types import Address, ModuleId, MoveType, PrimitiveType, StructTag
from ledgerkit.widgets._grid import LedgerGrid
from ledgerkit.widgets._move_rows import VALUE_COLUMNS, flatten_value
from ledgerkit.widgets._navigator import Navigator, short
from ledgerkit.widgets._sources import ListSource, Row

__all__ = [
    "change_fields",
    "change_rows",
    "event_fields",
    "fields_text",
    "load_abis",
    "module_abi",
]

#: Fields the Events grid's one-line summary of an event names at most.
SUMMARY_FIELDS: Final = 8
_WIDE: Final = frozenset({"u128", "u256", "i128", "i256"})


def module_abi(nav: Navigator, address: str | Address, name: str) -> MoveModule | None:
    """The ABI of module ``address::name``, read once per explorer into its one cache
    (None: the node does not publish it)."""
    where = Address.parse(str(address))
    module_id = ModuleId(where, name)
    cache = nav.abis
    if module_id in cache:
        return cache.module(module_id)
    try:
        found = nav.client.account_module(where, name).value.abi
    except NotFoundError:
        found = None
    if found is None:
        cache.add_missing(module_id)
    else:
        cache.add(found)
    return found


def load_abis(nav: Navigator, types: list[str]) -> AbiCache:
    """The explorer's cache, holding the ABIs laying out ``types`` takes."""

    def read(needed: list[ModuleId]) -> dict[ModuleId, MoveModule | None]:
        return {m: module_abi(nav, m.address, m.name) for m in needed}

    return drive(abi_requests(nav.abis, types), read)


def _shown(value: Any, move_type: MoveType | None) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)):
        return "none" if move_type is not None else "null"
    if isinstance(value, bool):
        return str(value).lower()
    if (
        isinstance(move_type, PrimitiveType)
        and move_type.name in _WIDE
        and isinstance(value, str)
        and value.lstrip("-").isdigit()
    ):
        return str(int(value))  # the frame pads wide integers to sort; shown plainly
    if hasattr(value, "item"):
        value = value.item()
    return str(value)


def _field(path: str, move_type: MoveType | None, value: Any) -> dict[str, Any]:
    shown = _shown(value, move_type)
    opens = str(move_type) == "address" and shown.startswith("0x")
    return {
        "path": path,
        "type": "" if move_type is None else str(move_type),
        "value": shown,
        "points_to": "account" if opens else "",
        "target": shown if opens else None,
    }


def _typed(nav: Navigator, frame: pd.DataFrame, event_type: str) -> dict[int, list[dict[str, Any]]]:
    """``event_index -> fields`` of the events of ``event_type`` (raises when untyped)."""
    StructTag.parse(event_type)
    cache = load_abis(nav, [event_type])
    layout = cache.layout(event_type)
    typed = expand_event_data(frame, event_type, modules=cache)
    found: dict[int, list[dict[str, Any]]] = {}
    for _, row in typed.iterrows():
        found[int(row["event_index"])] = [
            _field(name, move_type, row[f"data.{name}" if name in EVENT_KEY_COLUMNS else name])
            for name, move_type in layout.items()
        ]
    return found


def event_fields(nav: Navigator, frame: pd.DataFrame) -> dict[int, list[dict[str, Any]]]:
    """Each event of ``frame`` (``events_to_frame``'s, one transaction) -> its fields,
    typed by its module's ABI when the node publishes it."""
    fields: dict[int, list[dict[str, Any]]] = {}
    for event_type in pd.unique(frame["type"].dropna().astype(str)):
        with contextlib.suppress(LedgerError):  # untyped below
            fields.update(_typed(nav, frame, str(event_type)))
    for _, row in frame.iterrows():
        index = int(row["event_index"])
        if index not in fields:
            data = row["data"]
            value = json.loads(data) if isinstance(data, str) else data
            fields[index] = flatten_value(value, None, None)
    return fields


def fields_text(fields: list[dict[str, Any]]) -> str:
    """A one-line summary of fields: ``store: 0xc5c5…c5c5 · amount: 250000000`` (long
    addresses and bytes shortened; the fields grid shows them whole)."""
    parts = [
        f"{row['path']}: {short(value) if value.startswith('0x') else value}"
        for row in fields[:SUMMARY_FIELDS]
        for value in [str(row["value"])]
    ]
    if len(fields) > SUMMARY_FIELDS:
        parts.append(f"… {len(fields) - SUMMARY_FIELDS} more")
    return " · ".join(parts)


def _prefixed(prefix: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for row in rows:
        row["path"] = prefix if row["path"] == "(value)" else f"{prefix}.{row['path']}"
    return rows


def _parsed(text: str) -> MoveType | None:
    try:
        return MoveType.parse(text)
    except LedgerError:
        return None


def change_fields(nav: Navigator, change: Any) -> list[dict[str, Any]]:
    """The fields of one write-set change: a resource's value, a table item's key and
    value, typed by the modules' ABIs."""
    layouts = nav.layouts
    if isinstance(change, WriteResource):
        return flatten_value(change.data.data, _parsed(change.data.type), layouts)
    if isinstance(change, WriteTableItem):
        if change.data is None:
            return [_field("key", None, change.key), _field("value", None, change.value)]
        data = change.data
        key = flatten_value(data.key, _parsed(data.key_type), layouts)
        value = flatten_value(data.value, _parsed(data.value_type), layouts)
        return _prefixed("key", key) + _prefixed("value", value)
    if isinstance(change, DeleteTableItem):
        if change.data is None:
            return [_field("key", None, change.key)]
        key_type = _parsed(change.data.key_type)
        return _prefixed("key", flatten_value(change.data.key, key_type, layouts))
    if isinstance(change, WriteModule):
        abi = change.data.abi
        name = f"{abi.address}::{abi.name}" if abi is not None else "(no ABI)"
        size = (len(change.data.bytecode) - 2) // 2
        return [_field("module", None, name), _field("bytecode", None, f"{size:,} bytes")]
    if isinstance(change, DeleteResource):
        return [_field("deleted", None, change.resource)]
    if isinstance(change, DeleteModule):
        return [_field("deleted", None, change.module)]
    return []


def change_rows(txn: Any) -> list[dict[str, Any]]:
    """One row per write-set change: its kind, where (address or table), what (resource
    type, module, or the table item's key), and the change itself (``change``)."""
    rows = []
    for index, change in enumerate(getattr(txn, "changes", None) or ()):
        what = ""
        if isinstance(change, WriteResource):
            what = change.data.type
        elif isinstance(change, DeleteResource):
            what = change.resource
        elif isinstance(change, WriteModule | DeleteModule):
            abi = getattr(getattr(change, "data", None), "abi", None)
            what = abi.name if abi is not None else str(getattr(change, "module", ""))
        elif isinstance(change, WriteTableItem | DeleteTableItem):
            data = change.data
            what = f"item of type {data.key_type}" if data is not None else "item"
        tag = getattr(getattr(change, "__struct_config__", None), "tag", None)
        rows.append(
            {
                "change_index": index,
                "type": tag if isinstance(tag, str) else type(change).__name__,
                "address": getattr(change, "address", None),
                "what": what,
                "handle": getattr(change, "handle", None),
                "state_key_hash": getattr(change, "state_key_hash", None),
                "change": change,
            }
        )
    return rows


def selected_fields(
    nav: Navigator,
    grid: LedgerGrid,
    fields_of: Callable[[Row], list[Row]],
    title_of: Callable[[Row], str],
) -> LedgerGrid:
    """A grid of the typed fields of the row selected in ``grid`` (the first row's at
    first), titled by ``title_of``; a field's account or stream opens on activation."""
    source = ListSource([], ["path", "value", "type"])
    fields = LedgerGrid(source, VALUE_COLUMNS, title="Fields")
    fields.on_activate(nav.follow)

    def show(row: Row | None) -> None:
        if row is None:
            return
        source.rows = fields_of(row)
        fields.title = title_of(row)
        fields.go(0)

    grid.on_select(show)
    if grid.rows:
        grid.selected_index = 0
    return fields
