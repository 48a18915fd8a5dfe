"""The account explorer: an account's overview and assets, resources as a tree of Move
values, modules with their ABI, event streams and every transaction that touched it,
each paged from the node.

Everything is read at one ledger version (the account's first answer, or the one given),
so the tabs agree with each other. Opening an account reads its overview: the account,
its resources (every page) and the assets found in them. Each other tab asks the node
when it is first shown. The resources are kept in one source per account and version,
which the holdings, the Resources tab and the Events tab read: no page of them is asked
twice.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from typing import Any, Final

import ipywidgets

from ledgerkit._errors import AccountNotFoundError, LedgerError, NotFoundError
from ledgerkit.frames import functions_to_frame, holdings_to_frame, structs_to_frame
from ledgerkit.types import Address, MoveType
from ledgerkit.widgets._account_activity import ACTIVITY_COLUMNS_SHOWN, ActivityScan, AssetNames
from ledgerkit.widgets._grid import Column, LedgerGrid
from ledgerkit.widgets._move_rows import VALUE_COLUMNS, flatten_value
from ledgerkit.widgets._names import amount_text, grouped, short, short_type
from ledgerkit.widgets._navigator import LazyTabs, Navigator, View, register_view
from ledgerkit.widgets._read_client import ReadClient, activity_of
from ledgerkit.widgets._sources import (
    MAX_SEARCHED_ROWS,
    CountedSource,
    CursorSource,
    ListSource,
    Row,
    frame_rows,
)

__all__ = ["AccountExplorer", "account_view", "events_view"]

_log = logging.getLogger("ledgerkit.widgets")

_ASSET_COLUMNS = [
    Column("symbol", "Symbol"),
    Column("name", "Name"),
    Column("amount", "Amount", keep=True),
    Column("base_units", "Balance (base units)", "int"),
    Column("type", "Type"),
    Column("asset", "Asset", "address"),
]
_EVENT_COLUMNS = [
    Column("sequence_number", "Seq", "int"),
    Column("version", "Version", "version"),
    Column("type", "Type"),
    Column("data", "Data", "json"),
]
#: Rows a page of resources asks for when the whole list is read (the overview).
_ALL_RESOURCES_PAGE = 200
#: An id longer than this is shown short in the overview (``0x1234…cdef``), as the grid does.
_SHORT_ID_FROM: Final = 14


def _short_id_html(value: str) -> str:
    """``value`` (an address, a key) as ``0x1234…cdef`` in HTML: the full value in its
    tooltip and in its text, whose middle is there unseen (``font-size: 0``, an ellipsis
    drawn in its place by the grid's style sheet), so that a click selects the whole
    value and copying copies it whole; a short one as it is."""
    if len(value) <= _SHORT_ID_FROM:
        return _code(value)
    text = html.escape(value)
    head, middle, tail = (html.escape(part) for part in (value[:6], value[6:-4], value[-4:]))
    return (
        f"<code class='lk-id' title='{text}'><span class='lk-id-head'>{head}</span>"
        f"<span class='lk-id-middle' style='font-size:0'>{middle}</span>{tail}</code>"
    )


def _code(text: str) -> str:
    return f"<code>{html.escape(text)}</code>"


def _overview_html(address: Address, account: Any, version: int) -> str:
    """The overview's table: each field's label and its value, as HTML."""
    rows = [
        ("Address", _short_id_html(address.standard)),
        ("Ledger version", _code(grouped(version))),
    ]
    if account is None:
        rows.append(("Account", _code("no account resource (it may still hold fungible assets)")))
    else:
        rows += [
            ("Sequence number", _code(str(account.sequence_number))),
            ("Authentication key", _short_id_html(str(account.authentication_key))),
        ]
    cells = "".join(
        "<tr><th style='text-align:left;padding-right:1em;white-space:nowrap'>"
        f"{html.escape(label)}</th><td>{value}</td></tr>"
        for label, value in rows
    )
    return f"<table class='lk-overview'>{cells}</table>"


def _resource_rows(resources: list[Any]) -> list[Row]:
    return [
        {"type": r.type, "fields": len(r.data) if isinstance(r.data, dict) else 1, "resource": r}
        for r in resources
    ]


def _asset_row(holding: Any) -> Row:
    """An asset held: exact ``balance`` and ``coin_type``, and what is shown."""
    coin_type = getattr(holding, "coin_type", None)
    balance = int(holding.balance)
    return {
        "symbol": holding.symbol,
        "name": holding.name,
        "amount": (None if holding.decimals is None else amount_text(balance, holding.decimals)),
        "balance": balance,
        "base_units": grouped(balance),
        "kind": holding.kind,
        "coin_type": coin_type,
        "type": short_type(coin_type) if coin_type else "fungible asset",
        "asset": _asset_id(holding.asset),
    }


def _asset_id(asset: Any) -> Address | str:
    """An asset's key as an address (shown as AIP-40 writes it), or as it is when it is
    not one (a coin type, from an older client)."""
    try:
        return Address.parse(str(asset))
    except LedgerError:
        return str(asset)


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
        # The answer's ledger is the node's latest, whatever version was asked.
        account = answer.value
        version = answer.ledger.ledger_version if ledger_version is None else ledger_version
        oldest = answer.ledger.oldest_ledger_version
    except AccountNotFoundError as exc:
        account = None
        if ledger_version is None:
            info = client.ledger_info().value
            version, oldest = info.ledger_version, info.oldest_ledger_version
        else:
            version = ledger_version
            oldest = exc.ledger.oldest_ledger_version if exc.ledger is not None else 0

    def resources_page(cursor: str | None, limit: int) -> tuple[Sequence[Row], str | None]:
        page = client.account_resources(address, ledger_version=version, start=cursor, limit=limit)
        return _resource_rows(page.value), page.ledger.cursor

    # One source of resources per account and version: the holdings, the Resources and
    # Events tabs read the same pages, and so does the account opened again at that version.
    resources = nav.memo(
        ("resources", address.long, version), lambda: CursorSource(resources_page, ["type"])
    )
    held: list[Any] = []  # the assets, once the overview has read them
    tabs = LazyTabs(
        [
            ("Overview", lambda: _overview_tab(nav, address, account, version, resources, held)),
            ("Resources", lambda: _resources_tab(nav, resources)),
            ("Modules", lambda: _modules_tab(nav, address, version)),
            ("Events", lambda: _events_tab(nav, address, resources)),
            (
                "Transactions",
                lambda: _transactions_tab(nav, address, account, (oldest, version), held),
            ),
        ],
        guard=nav.guard,
    )
    return View(f"account {short(address)}", [tabs], [], tabs=tabs)


def _every_resource(resources: CursorSource) -> list[Any] | None:
    """Every resource of the account through its source, or ``None`` when they are too
    many to hold (the holdings then read their own) or the node knows no account."""
    try:
        rows = resources.all_rows(_ALL_RESOURCES_PAGE)
    except NotFoundError:
        return None
    if not resources.complete or len(rows) >= MAX_SEARCHED_ROWS:
        return None
    return [row["resource"] for row in rows]


def _overview_tab(
    nav: Navigator,
    address: Address,
    account: Any,
    version: int,
    resources: CursorSource,
    held: list[Any],
) -> tuple[Any, list[LedgerGrid]]:
    """The account's overview and every asset it holds, found in its resources (read
    here through the view's source of them, kept for the other tabs)."""
    client = nav.client

    failed = ""
    try:
        every = _every_resource(resources)
        held[:] = client.account_assets(address, ledger_version=version, resources=every)
    except LedgerError as exc:
        failed = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
    except Exception as exc:  # a widget must not raise into the frontend
        _log.exception("reading the assets failed")
        failed = type(exc).__name__
    asset_rows = [_asset_row(holding) for holding in held]

    def frame(rows: Sequence[Row]) -> Any:
        shown = {row["asset"] for row in rows}
        return holdings_to_frame([h for h in held if _asset_id(h.asset) in shown])

    assets_grid = LedgerGrid(
        ListSource(asset_rows, ["symbol", "name", "coin_type", "asset"]),
        _ASSET_COLUMNS,
        title="Assets",
        frame=frame,
    )
    if failed:  # said in the grid: the view's message line is cleared when it is shown
        assets_grid.error = f"Could not read the assets: {failed}"
    assets_grid.on_activate(nav.follow)
    overview = ipywidgets.VBox(
        [ipywidgets.HTML(_overview_html(address, account, version)), assets_grid]
    )
    return overview, [assets_grid]


def _resources_tab(nav: Navigator, resources: CursorSource) -> tuple[Any, list[LedgerGrid]]:
    """The resources, and the selected one's value as rows."""
    layouts = nav.layouts
    resources_grid = LedgerGrid(
        resources,
        [Column("type", "Resource type", "move"), Column("fields", "Fields", "int")],
        title="Resources",
    )
    value_source = ListSource([], ["path", "value", "type"])
    value_grid = LedgerGrid(value_source, VALUE_COLUMNS, title="Value", searchable=True)
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
    return ipywidgets.VBox([resources_grid, value_grid]), [resources_grid, value_grid]


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
    return ipywidgets.VBox(grids), grids


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
    nav: Navigator, address: Address, account: Any, versions: tuple[int, int], held: list[Any]
) -> tuple[Any, list[LedgerGrid]]:
    """Every transaction that touched the account, newest first, found by scanning the
    versions back from the view's (see :mod:`ledgerkit.widgets._account_activity`)."""
    client = nav.client
    oldest, version = versions

    def fetch(first: int, last: int) -> Any:
        return activity_of(
            client, address, start_version=None if first == 0 else first - 1, end_version=last
        )

    scan = ActivityScan(fetch, AssetNames(client, version, held), version, oldest)
    grid: LedgerGrid | None = None

    def source(page: int, size: int, query: str) -> Any:
        got = scan(page, size, query)
        if grid is not None:
            grid.title = scan.describe()
        return got

    grid = LedgerGrid(source, ACTIVITY_COLUMNS_SHOWN, title="", searchable=False, frame=scan.frame)
    grid.title = scan.describe()
    grid.on_activate(nav.follow)
    sent = int(account.sequence_number) if account is not None else 0
    note = ipywidgets.HTML(
        "<div class='lk-note'>Sent, received, paid for: every transaction that touched "
        f"the account. The node lists only those an account sent ({grouped(sent)} here); "
        "the others are found by scanning versions, newest first, as far back as each "
        "page needs.</div>"
    )
    return ipywidgets.VBox([note, grid]), [grid]


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
