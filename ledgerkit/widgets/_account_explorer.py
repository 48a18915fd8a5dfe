"""The account explorer: an account's overview and assets, resources as a tree of Move
values, modules with their ABI, event streams and transactions, each paged from the node.

Everything is read at one ledger version (the account's first answer, or the one given),
so the tabs agree with each other. Opening an account reads only its overview (the
account and its assets); each other tab asks the node when it is first shown. The
resources are paged through one source per account and version, which the Events tab
reads too: no page of them is asked twice.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ledgerkit._errors import AccountNotFoundError
from ledgerkit.frames import functions_to_frame, holdings_to_frame, structs_to_frame
from ledgerkit.types import Address, MoveType
from ledgerkit.widgets._grid import Column, LedgerGrid
from ledgerkit.widgets._move_rows import flatten_value
from ledgerkit.widgets._navigator import LazyTabs, Navigator, View, register_view, short
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._sources import CountedSource, CursorSource, ListSource, Row, frame_rows

__all__ = ["AccountExplorer", "account_view", "events_view"]

_ASSET_COLUMNS = [
    Column("symbol", "Symbol"),
    Column("name", "Name"),
    Column("amount", "Amount"),
    Column("balance", "Balance (base units)", "int"),
    Column("kind", "Kind"),
    Column("asset", "Asset", "address"),
]
_VALUE_COLUMNS = [
    Column("path", "Field"),
    Column("value", "Value"),
    Column("type", "Move type"),
    Column("points_to", "Opens"),
]
_TXN_COLUMNS = [
    Column("version", "Version", "version"),
    Column("sequence_number", "Seq", "int"),
    Column("function", "Function"),
    Column("success", "OK", "bool"),
    Column("gas_used", "Gas", "int"),
    Column("timestamp", "Time (UTC)", "time"),
    Column("hash", "Hash", "hash"),
]
_EVENT_COLUMNS = [
    Column("sequence_number", "Seq", "int"),
    Column("version", "Version", "version"),
    Column("type", "Type"),
    Column("data", "Data", "json"),
]
#: Rows a page of resources asks for when the whole list is read (the Events tab).
_ALL_RESOURCES_PAGE = 100


def _overview_html(address: Address, account: Any, version: int) -> str:
    rows = [("Address", address.long), ("Ledger version", f"{version:,}")]
    if account is None:
        rows.append(("Account", "no account resource (it may still hold fungible assets)"))
    else:
        rows += [
            ("Sequence number", str(account.sequence_number)),
            ("Authentication key", account.authentication_key),
        ]
    cells = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th>"
        f"<td><code>{html.escape(v)}</code></td></tr>"
        for k, v in rows
    )
    return f"<table class='lk-overview'>{cells}</table>"


def _resource_rows(resources: list[Any]) -> list[Row]:
    return [
        {"type": r.type, "fields": len(r.data) if isinstance(r.data, dict) else 1, "resource": r}
        for r in resources
    ]


def _transaction_row(txn: Any) -> Row:
    payload = getattr(txn, "payload", None)
    return {
        "version": getattr(txn, "version", None),
        "sequence_number": getattr(txn, "sequence_number", None),
        "function": getattr(payload, "function", "") or type(payload).__name__,
        "success": getattr(txn, "success", None),
        "gas_used": getattr(txn, "gas_used", None),
        "timestamp": getattr(txn, "timestamp", None),
        "hash": getattr(txn, "hash", ""),
    }


def _event_row(event: Any) -> Row:
    return {
        "sequence_number": event.sequence_number,
        "version": event.version,
        "type": event.type,
        "data": event.data,
    }


def _event_streams(address: Address, resources: list[Any]) -> list[tuple[str, str, int, int]]:
    """``(label, address, creation number, count)`` of the event handles in resources."""
    streams = []
    for resource in resources:
        data = resource.data if isinstance(resource.data, dict) else {}
        for field, value in data.items():
            if (
                isinstance(value, dict)
                and "counter" in value
                and isinstance(value.get("guid"), dict)
            ):
                ident = value["guid"].get("id", {})
                try:
                    number, count = int(ident["creation_num"]), int(value["counter"])
                except (KeyError, TypeError, ValueError):
                    continue
                label = f"{resource.type.split('<')[0].split('::', 1)[-1]}.{field} ({count})"
                streams.append((label, str(ident.get("addr", address.long)), number, count))
    return streams


def events_view(
    nav: Navigator,
    address: str,
    creation_number: int | str,
    title: str = "",
    count: int | None = None,
) -> View:
    """One event stream, newest first. The node pages a stream by sequence number from the
    oldest: its length comes from the handle's counter when known, else it is found by
    single reads (doubling, then bisecting)."""
    client = nav.client
    creation_number = int(creation_number)
    if count is None:
        count = _stream_length(client, address, creation_number)

    def fetch(start: int, limit: int) -> list[Row]:
        page = client.events_by_creation_number(address, creation_number, start=start, limit=limit)
        return [_event_row(e) for e in page.value]

    grid = LedgerGrid(
        CountedSource(fetch, count), _EVENT_COLUMNS, title=f"{count:,} events", searchable=False
    )
    grid.on_activate(nav.follow)
    label = title or f"events {short(str(address))}/{creation_number}"
    return View(label, [grid], [grid])


def _stream_length(client: ReadClient, address: str, creation_number: int) -> int:
    """How many events a stream holds: doubling, then bisecting on single reads."""

    def exists(n: int) -> bool:
        return bool(
            client.events_by_creation_number(address, creation_number, start=n, limit=1).value
        )

    high = 1
    while exists(high) and high < 1 << 40:
        high *= 2
    low = high // 2
    while low < high:
        mid = (low + high) // 2
        if exists(mid):
            low = mid + 1
        else:
            high = mid
    return low


def account_view(nav: Navigator, address: str | Address, ledger_version: int | None = None) -> View:
    """The account's tabs, read at one version; only the overview is read now."""
    client = nav.client
    address = Address.parse(str(address))
    account: Any
    try:
        answer = client.account(address, ledger_version=ledger_version)
        account, version = answer.value, answer.ledger.ledger_version
    except AccountNotFoundError:
        account = None
        version = (
            ledger_version
            if ledger_version is not None
            else client.ledger_info().value.ledger_version
        )

    def resources_page(cursor: str | None, limit: int) -> tuple[Sequence[Row], str | None]:
        page = client.account_resources(address, ledger_version=version, start=cursor, limit=limit)
        return _resource_rows(page.value), page.ledger.cursor

    # One source of resources per account and version: the Resources and Events tabs
    # read the same pages, and so does the account opened again at that version.
    resources = nav.memo(
        ("resources", address.long, version), lambda: CursorSource(resources_page, ["type"])
    )
    tabs = LazyTabs(
        [
            ("Overview", lambda: _overview_tab(nav, address, account, version)),
            ("Resources", lambda: _resources_tab(nav, resources)),
            ("Modules", lambda: _modules_tab(nav, address, version)),
            ("Events", lambda: _events_tab(nav, address, resources)),
            ("Transactions", lambda: _transactions_tab(nav, address, account)),
        ],
        guard=nav.guard,
    )
    return View(f"account {short(address.long)}", [tabs], [], tabs=tabs)


def _overview_tab(
    nav: Navigator, address: Address, account: Any, version: int
) -> tuple[Any, list[LedgerGrid]]:
    """The account's overview and every asset it holds."""
    client = nav.client
    holdings = nav.guard("assets", lambda: client.account_assets(address, ledger_version=version))
    held = list(holdings or [])
    assets = holdings_to_frame(held)
    asset_rows = assets.astype(object).where(assets.notna(), None).to_dict("records")
    assets_grid = LedgerGrid(
        ListSource(asset_rows, ["symbol", "name", "asset"]),
        _ASSET_COLUMNS,
        title="Assets",
        frame=lambda rows: holdings_to_frame(
            [h for h in held if h.asset in {r["asset"] for r in rows}]
        ),
    )
    assets_grid.on_activate(nav.follow)
    overview = w.VBox([w.HTML(_overview_html(address, account, version)), assets_grid])
    return overview, [assets_grid]


def _resources_tab(nav: Navigator, resources: CursorSource) -> tuple[Any, list[LedgerGrid]]:
    """The resources, and the selected one's value as rows."""
    layouts = nav.layouts
    resources_grid = LedgerGrid(
        resources,
        [Column("type", "Resource type"), Column("fields", "Fields", "int")],
        title="Resources",
    )
    value_source = ListSource([], ["path", "value", "type"])
    value_grid = LedgerGrid(value_source, _VALUE_COLUMNS, title="Value", searchable=True)
    value_grid.on_activate(nav.follow)

    def show_resource(row: Row | None) -> None:
        if row is None:
            return
        resource = row["resource"]
        move_type = nav.guard("type", lambda: MoveType.parse(resource.type))
        rows = flatten_value(resource.data, move_type, layouts)
        value_source.rows = rows
        value_grid.title = resource.type
        value_grid.go(0)

    resources_grid.on_select(show_resource)
    resources_grid.on_activate(lambda row, _column: show_resource(row))
    return w.VBox([resources_grid, value_grid]), [resources_grid, value_grid]


def _modules_tab(nav: Navigator, address: Address, version: int) -> tuple[Any, list[LedgerGrid]]:
    """The modules, and the selected one's functions and structs."""
    client = nav.client

    def modules_page(cursor: str | None, limit: int) -> tuple[Sequence[Row], str | None]:
        page = client.account_modules(address, ledger_version=version, start=cursor, limit=limit)
        rows = [
            {
                "name": m.abi.name if m.abi else "?",
                "functions": len(m.abi.exposed_functions) if m.abi else 0,
                "structs": len(m.abi.structs) if m.abi else 0,
                "module": m,
            }
            for m in page.value
        ]
        return rows, page.ledger.cursor

    modules_grid = LedgerGrid(
        nav.memo(("modules", address.long, version), lambda: CursorSource(modules_page, ["name"])),
        [
            Column("name", "Module"),
            Column("functions", "Functions", "int"),
            Column("structs", "Structs", "int"),
        ],
        title="Modules",
    )
    function_source, struct_source = ListSource([], ["name"]), ListSource([], ["name"])
    functions_grid = LedgerGrid(
        function_source,
        [
            Column("name", "Function"),
            Column("visibility", "Visibility"),
            Column("is_entry", "Entry", "bool"),
            Column("is_view", "View", "bool"),
            Column("type_param_count", "Generics", "int"),
            Column("params", "Parameters", "json"),
            Column("returns", "Returns", "json"),
        ],
        title="Functions",
    )
    structs_grid = LedgerGrid(
        struct_source,
        [
            Column("name", "Struct"),
            Column("abilities", "Abilities", "json"),
            Column("fields", "Fields", "json"),
        ],
        title="Structs",
    )

    def show_module(row: Row | None) -> None:
        if row is None or row["module"].abi is None:
            return
        module = row["module"]
        function_source.rows = frame_rows(functions_to_frame([module]))
        struct_source.rows = frame_rows(structs_to_frame([module]))
        functions_grid.go(0)
        structs_grid.go(0)

    modules_grid.on_select(show_module)
    grids = [modules_grid, functions_grid, structs_grid]
    return w.VBox(grids), grids


def _events_tab(
    nav: Navigator, address: Address, resources: CursorSource
) -> tuple[Any, list[LedgerGrid]]:
    """The event streams found in the resources (read through the Resources tab's source)."""
    # A failure to read them leaves the tab unbuilt, read again when next shown.
    everything = resources.all_rows(_ALL_RESOURCES_PAGE)
    streams = _event_streams(address, [row["resource"] for row in everything])
    stream_rows = [
        {"stream": label, "address": where, "creation_number": number, "events": count}
        for label, where, number, count in streams
    ]
    streams_grid = LedgerGrid(
        ListSource(stream_rows, ["stream"]),
        [
            Column("stream", "Stream"),
            Column("creation_number", "Creation number", "int"),
            Column("events", "Events", "int"),
        ],
        title="Event streams",
    )
    streams_grid.on_activate(
        lambda row, _c: nav.open_events(
            row["address"], row["creation_number"], row["stream"], row["events"]
        )
    )
    return streams_grid, [streams_grid]


def _transactions_tab(
    nav: Navigator, address: Address, account: Any
) -> tuple[Any, list[LedgerGrid]]:
    """The transactions the account sent, newest first."""
    client = nav.client
    sent = int(account.sequence_number) if account is not None else 0

    def transactions_page(start: int, limit: int) -> list[Row]:
        page = client.account_transactions(address, start=start, limit=limit)
        return [_transaction_row(t) for t in page.value]

    txn_grid = LedgerGrid(
        CountedSource(transactions_page, sent),
        _TXN_COLUMNS,
        title=f"{sent:,} transactions sent",
        searchable=False,
    )
    txn_grid.on_activate(nav.follow)
    return txn_grid, [txn_grid]


class AccountExplorer(Navigator):
    """An account, explored: overview and assets, resources as a tree of Move values,
    modules with their ABI, event streams, transactions; drill into tables, transactions
    and other accounts (Back returns).

    Parameters
    ----------
    client : ReadClient
        The node to read from: a :class:`ledgerkit.Client` (not an ``AsyncClient``), or
        any object with the methods of :class:`ReadClient`.
    address : str or Address
        The account.
    ledger_version : int, optional
        Read everything at this version (default: the latest, pinned when opened).

    Raises
    ------
    InputError
        ``client`` is an ``AsyncClient``: the explorer reads in the kernel's thread.

    Examples
    --------
    >>> from ledgerkit.widgets import AccountExplorer
    >>> AccountExplorer(client, "0x1")  # doctest: +SKIP
    """

    def __init__(
        self, client: ReadClient, address: str | Address, *, ledger_version: int | None = None
    ) -> None:
        super().__init__(client)
        self.address = Address.parse(str(address))
        self.open_view("account", self.address, ledger_version)

    def __repr__(self) -> str:
        return f"AccountExplorer({self.address})"


register_view("account", account_view)
register_view("events", events_view)
