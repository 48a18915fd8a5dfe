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
from typing import Any

import ipywidgets

from ledgerkit._errors import AccountNotFoundError, LedgerError, NotFoundError
from ledgerkit.frames import holdings_to_frame
from ledgerkit.types import Address, MoveType
from ledgerkit.widgets._account_activity import ACTIVITY_COLUMNS_SHOWN, ActivityScan, AssetNames
from ledgerkit.widgets._account_events import events_tab, events_view
from ledgerkit.widgets._account_modules import modules_tab
from ledgerkit.widgets._grid import Column, LedgerGrid
from ledgerkit.widgets._move_rows import VALUE_COLUMNS, flatten_value
from ledgerkit.widgets._names import amount_text, grouped, short, short_id_html, short_type
from ledgerkit.widgets._navigator import LazyTabs, Navigator, View, register_view
from ledgerkit.widgets._read_client import ReadClient, activity_of
from ledgerkit.widgets._sources import (
    MAX_SEARCHED_ROWS,
    CursorSource,
    ListSource,
    Row,
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
#: Rows a page of resources asks for when the whole list is read (the overview).
_ALL_RESOURCES_PAGE = 200


def _code(text: str) -> str:
    return f"<code>{html.escape(text)}</code>"


def _overview_html(address: Address, account: Any, version: int) -> str:
    """The overview's table: each field's label and its value, as HTML."""
    rows = [
        ("Address", short_id_html(address.standard)),
        ("Ledger version", _code(grouped(version))),
    ]
    if account is None:
        rows.append(("Account", _code("no account resource (it may still hold fungible assets)")))
    else:
        rows += [
            ("Sequence number", _code(str(account.sequence_number))),
            ("Authentication key", short_id_html(str(account.authentication_key))),
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
        "type": _asset_type(holding, coin_type),
        "asset": _asset_id(holding.asset),
    }


def _asset_type(holding: Any, coin_type: str | None) -> str:
    """What the asset is, in a word or a type: a coin's type, a token's collection."""
    if coin_type:
        return short_type(coin_type)
    if holding.kind == "token":
        collection = getattr(holding, "collection", None)
        standard = getattr(holding, "token_standard", None) or "v2"
        return f"token {standard}" + (f" of {collection}" if collection else "")
    return "fungible asset"


def _asset_id(asset: Any) -> Address | str:
    """An asset's key as an address (shown as AIP-40 writes it), or as it is when it is
    not one (a coin type, from an older client)."""
    try:
        return Address.parse(str(asset))
    except LedgerError:
        return str(asset)


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
            ("Modules", lambda: modules_tab(nav, address, version)),
            ("Events", lambda: events_tab(nav, address, resources)),
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
