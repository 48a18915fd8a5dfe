"""The table explorer: look an item up by a typed key (checked against the key type
before anything is sent) or by the key's BCS bytes, and list the items the ledger's
write sets wrote to the table, newest first, with the version that wrote each.

The node has no endpoint listing a table's keys: the list comes from scanning committed
transactions backwards from the newest, a bounded number of versions per page asked.

A look-up shows its item, or says why there is none (a key with no item, a key that
does not fit the type, a node that did not answer) with nothing left of the item shown
before, so a result is never taken for the answer to another key.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, Final

import ipywidgets

from ledgerkit._errors import InputError, LedgerError, TableItemNotFoundError
from ledgerkit.bcs import MoveValueCodec
from ledgerkit.models import DeleteTableItem, WriteTableItem
from ledgerkit.types import Address, MoveType
from ledgerkit.widgets._grid import Column, GridPage, LedgerGrid
from ledgerkit.widgets._move_rows import VALUE_COLUMNS, flatten_value
from ledgerkit.widgets._names import short
from ledgerkit.widgets._navigator import Navigator, View, register_view
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._sources import ListSource, Row

__all__ = ["MAX_SCAN_VERSIONS", "TableExplorer", "WriteSetScan", "parse_key", "table_view"]

#: Most versions one page of the item list scans.
MAX_SCAN_VERSIONS: Final = 20_000
_SCAN_PAGE: Final = 100
#: What a look-up of a key with no item gives (the node answered 404).
_NO_ITEM: Final = object()
_ITEM_COLUMNS = [
    Column("version", "Version", "version"),
    Column("op", "Change"),
    Column("key", "Key", "json"),
    Column("value", "Value", "json"),
]


def parse_key(text: str, key_type: MoveType, codec: MoveValueCodec) -> Any:
    """The key typed in, in JSON form, checked against ``key_type`` by encoding it.

    JSON is read first (``"alice"``, ``42``, ``{"x": "1", "y": "2"}``); text that is not
    JSON is taken as a string (an address, a ``String`` key). Integers of every width go
    as decimal strings, as the node reads them.

    Raises
    ------
    InputError
        The key does not fit the type.
    """
    text = text.strip()
    if not text:
        raise InputError("type a key")
    try:
        value: Any = json.loads(text)
    except ValueError:
        value = text
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and str(key_type) in ("u64", "u128", "u256")
    ):
        value = str(value)
    try:
        codec.encode(key_type, value)
    except (LedgerError, ValueError, TypeError) as exc:
        raise InputError(f"the key does not fit {key_type}: {str(exc)[:200]}") from None
    return value


class WriteSetScan:
    """Pages of the items written to one table, newest first, from the transactions'
    write sets (see the module docstring)."""

    def __init__(self, client: ReadClient, handle: str, newest: int) -> None:
        self._client = client
        self._handle = Address.parse(handle).long
        self._next = newest  # the newest version not yet scanned
        self._found: list[Row] = []
        self.key_type: str | None = None
        self.value_type: str | None = None

    @property
    def exhausted(self) -> bool:
        return self._next < 0

    def _scan(self, budget: int) -> None:
        while budget > 0 and self._next >= 0:
            start = max(0, self._next - _SCAN_PAGE + 1)
            txns = self._client.transactions(start=start, limit=self._next - start + 1).value
            for txn in reversed(txns):
                self._collect(txn)
            budget -= self._next - start + 1
            self._next = start - 1

    def _collect(self, txn: Any) -> None:
        for change in getattr(txn, "changes", None) or ():
            if not isinstance(change, WriteTableItem | DeleteTableItem):
                continue
            if Address.parse(change.handle).long != self._handle:
                continue
            data = change.data
            written = isinstance(change, WriteTableItem)
            key = getattr(data, "key", None) if data is not None else None
            value = getattr(data, "value", None) if written else None
            if data is not None and written and self.key_type is None:
                self.key_type, self.value_type = data.key_type, data.value_type  # type: ignore[union-attr]
            self._found.append(
                {
                    "version": txn.version,
                    "op": "write" if written else "delete",
                    "key": key if key is not None else change.key,
                    "value": value if value is not None else getattr(change, "value", None),
                }
            )

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        want = (page + 1) * size
        budget = MAX_SCAN_VERSIONS
        while len(self._found) < want and not self.exhausted and budget > 0:
            before = self._next
            self._scan(min(budget, MAX_SCAN_VERSIONS))
            budget -= before - self._next
        rows = self._found[page * size : want]
        return GridPage(
            rows,
            total=len(self._found) if self.exhausted else None,
            more=not self.exhausted or len(self._found) > want,
        )


def _item_or_none(read: Callable[[], Any]) -> Any:
    """``read()``, or :data:`_NO_ITEM` when the node has no item for the key."""
    try:
        return read()
    except TableItemNotFoundError:
        return _NO_ITEM


class _ItemLookUp:
    """The look-up form of a table's view, and the grid of the item it found: a typed key
    (checked against the key type before it is sent) or the key's BCS bytes."""

    def __init__(self, nav: Navigator, handle: str, key_type: str, value_type: str) -> None:
        self._nav = nav
        self._client = nav.client
        self._handle = handle
        self._layouts = nav.layouts
        self._codec = MoveValueCodec(self._layouts)
        self.key_type_box = ipywidgets.Text(value=key_type, description="key type")
        self.value_type_box = ipywidgets.Text(value=value_type, description="value type")
        self.key_box = ipywidgets.Text(
            placeholder='key as JSON: 42, "alice", {"x": "1", "y": "2"}', description="key"
        )
        self.look_up = ipywidgets.Button(description="Look up")
        self.raw_box = ipywidgets.Text(
            placeholder="0x… (the key's BCS bytes)", description="raw key"
        )
        self.raw_look_up = ipywidgets.Button(description="Look up raw")
        self._value_source = ListSource([])
        self.value_grid = LedgerGrid(
            self._value_source, VALUE_COLUMNS, title="Item", searchable=False
        )
        self.value_grid.on_activate(nav.follow)
        self.look_up.on_click(self.typed)
        self.raw_look_up.on_click(self.raw)

    def form(self) -> ipywidgets.VBox:
        """The form: the table's handle, the types, and a key of each kind to look up."""
        return ipywidgets.VBox(
            [
                ipywidgets.HTML(f"<b>Table</b> <code>{self._handle}</code>"),
                ipywidgets.HBox([self.key_type_box, self.value_type_box]),
                ipywidgets.HBox([self.key_box, self.look_up]),
                ipywidgets.HBox([self.raw_box, self.raw_look_up]),
            ]
        )

    def _show(self, value: Any, move_type: MoveType | None, title: str) -> None:
        self._value_source.rows = flatten_value(value, move_type, self._layouts)
        self.value_grid.title = title
        self.value_grid.go(0)

    def _clear(self, title: str = "Item") -> None:
        self._value_source.rows = []
        self.value_grid.title = title
        self.value_grid.go(0)

    def _fetch(self, what: str, key_text: str, read: Callable[[], Any]) -> Any:
        """``read()``, or ``None`` with the previous item cleared and the reason said: a
        key with no item in a sentence of its own, any other failure as the navigator
        says failures."""
        found = self._nav.guard(what, functools.partial(_item_or_none, read))
        if found is _NO_ITEM:
            self._nav.say(f"{what}: no item for this key ({short(key_text)})", error=False)
            self._clear(f"No item for {short(key_text)}")
            return None
        if found is None:
            self._clear()
        return found

    def typed(self, _button: Any) -> None:
        """Look the item up by the typed key."""
        nav, client, handle = self._nav, self._client, self._handle
        nav.say("")
        try:
            k_type = MoveType.parse(self.key_type_box.value)
            v_type = MoveType.parse(self.value_type_box.value)
            key = parse_key(self.key_box.value, k_type, self._codec)
        except InputError as exc:
            nav.say(str(exc))
            self._clear()
            return
        found = self._fetch(
            "look-up",
            key if isinstance(key, str) else json.dumps(key, separators=(",", ":")),
            lambda: client.table_item(handle, k_type, v_type, key).value,
        )
        if found is not None:
            self._show(found, v_type, f"{self.key_box.value.strip()} → {v_type}")

    def raw(self, _button: Any) -> None:
        """Look the item up by the key's BCS bytes, decoded by the value type if it can."""
        client, handle, raw_key = self._client, self._handle, self.raw_box.value.strip()
        self._nav.say("")
        found = self._fetch(
            "raw look-up", raw_key, lambda: client.raw_table_item(handle, raw_key).value
        )
        if found is None:
            return
        decoded: Any = "0x" + bytes(found).hex()
        move_type = None
        if self.value_type_box.value:
            try:
                move_type = MoveType.parse(self.value_type_box.value)
                decoded = self._codec.decode(move_type, bytes(found))
            except (LedgerError, ValueError):
                move_type = None
        self._show(decoded, move_type, f"raw {short(raw_key)}")


def table_view(nav: Navigator, handle: str, key_type: Any = None, value_type: Any = None) -> View:
    """A table: typed and raw look-ups, and the items its write sets wrote."""
    client = nav.client
    handle = Address.parse(handle).long
    newest = client.ledger_info().value.ledger_version
    scan = WriteSetScan(client, handle, newest)
    items = LedgerGrid(scan, _ITEM_COLUMNS, title="Items written (newest first)", searchable=False)
    items.go(0)  # the first page also tells the key and value types when given none
    look_up = _ItemLookUp(
        nav,
        handle,
        str(key_type or scan.key_type or ""),
        str(value_type or scan.value_type or ""),
    )
    items.on_activate(lambda row, column: nav.follow(row, column))
    value_grid = look_up.value_grid
    return View(f"table {short(handle)}", [look_up.form(), value_grid, items], [items, value_grid])


class TableExplorer(Navigator):
    """A table, explored: look up an item by a typed key (checked against the key type
    before it is sent) or by its key's BCS bytes, and page through the items the ledger's
    write sets wrote, newest first.

    Parameters
    ----------
    client : ReadClient
        The node to read from: a :class:`ledgerkit.Client` (not an ``AsyncClient``), or
        any object with the methods of :class:`ReadClient`.
    handle : str
        The table's handle (a ``Table<K, V>``'s ``handle`` field).
    key_type, value_type : str or MoveType, optional
        ``K`` and ``V``; read from the first item written when not given.

    Raises
    ------
    InputError
        ``client`` is an ``AsyncClient``: the explorer reads in the kernel's thread.
    """

    def __init__(
        self, client: ReadClient, handle: str, *, key_type: Any = None, value_type: Any = None
    ) -> None:
        super().__init__(client)
        self.handle = handle
        self.open_view("table", handle, key_type, value_type)

    def __repr__(self) -> str:
        return f"TableExplorer({short(self.handle)})"


register_view("table", table_view)
