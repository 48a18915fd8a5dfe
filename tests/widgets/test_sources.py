"""The grid's page sources, fed by a fake ``ReadClient``: which pages they ask the node
for, and what a grid over them shows (no node: the answers are hand-written)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fake_read_client import ALICE, FakeReadClient

from ledgerkit.widgets import Column, LedgerGrid
from ledgerkit.widgets._sources import (
    MAX_SEARCHED_ROWS,
    CountedSource,
    CursorSource,
    ListSource,
    Row,
)


def _resources(client: FakeReadClient) -> CursorSource:
    def fetch(cursor: str | None, limit: int) -> tuple[Sequence[Row], str | None]:
        page = client.account_resources(ALICE, ledger_version=25, start=cursor, limit=limit)
        return [{"type": r.type} for r in page.value], page.ledger.cursor

    return CursorSource(fetch, ["type"])


def _starts(client: FakeReadClient) -> list[Any]:
    return [kwargs["start"] for _, kwargs in client.asked("account_resources")]


def test_a_cursor_source_asks_each_page_of_the_node_once() -> None:
    client = FakeReadClient()
    source = _resources(client)
    grid = LedgerGrid(source, [Column("type")], page_size=5, title="Resources")
    # The node serves two a page: three pages fill the grid's page of five.
    assert _starts(client) == [None, "2", "4"]
    assert [r["type"] for r in grid.rows] == [
        "0x1::account::Account",
        "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
        "0x1::ledger_demo::Board",
        "0x1::ledger_demo::Counter",
        "0x1::object::ObjectCore",
    ]
    assert (grid.total, grid.more, source.complete) == (5, False, True)
    grid.page_size = 10
    grid.query = "coin"
    assert [r["type"] for r in grid.rows] == ["0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"]
    assert len(source.all_rows()) == 5
    assert _starts(client) == [None, "2", "4"]
    assert repr(grid) == "LedgerGrid('Resources', 1 column, page 1 of 1, 1 row)"


def test_a_cursor_source_reads_no_further_than_the_page_asked() -> None:
    client = FakeReadClient()
    source = _resources(client)
    page = source(0, 2, "")
    assert [r["type"] for r in page.rows] == [
        "0x1::account::Account",
        "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    ]
    assert (page.total, page.more) == (None, True)
    assert _starts(client) == [None]
    page = source(2, 2, "")
    assert [r["type"] for r in page.rows] == ["0x1::object::ObjectCore"]
    assert (page.total, page.more) == (5, False)
    assert _starts(client) == [None, "2", "4"]
    assert source(7, 2, "").rows == []
    assert _starts(client) == [None, "2", "4"]


def test_a_search_reads_a_bounded_list() -> None:
    asked: list[str | None] = []

    def endless(cursor: str | None, limit: int) -> tuple[Sequence[Row], str | None]:
        asked.append(cursor)
        start = int(cursor or 0)
        return [{"n": str(n)} for n in range(start, start + limit)], str(start + limit)

    source = CursorSource(endless, ["n"])
    found = source(0, 100, "9999")
    assert [r["n"] for r in found.rows] == ["9999"]
    assert found.total == 1
    assert len(asked) == MAX_SEARCHED_ROWS // 100


def test_a_counted_source_pages_newest_first_one_read_a_page() -> None:
    client = FakeReadClient()

    def fetch(start: int, limit: int) -> list[Row]:
        page = client.events_by_creation_number(ALICE, 4, start=start, limit=limit)
        return [{"sequence_number": e.sequence_number, "version": e.version} for e in page.value]

    grid = LedgerGrid(
        CountedSource(fetch, 3),
        [Column("sequence_number", kind="int"), Column("version", kind="version")],
        page_size=5,
        searchable=False,
    )
    assert grid.rows == [
        {"sequence_number": 2, "version": 17},
        {"sequence_number": 1, "version": 14},
        {"sequence_number": 0, "version": 11},
    ]
    assert grid.total == 3
    assert client.asked("events_by_creation_number") == [((ALICE, 4), {"start": 0, "limit": 3})]


def test_a_list_source_searches_its_keys_only() -> None:
    rows = [{"symbol": "APT", "note": "LDT"}, {"symbol": "LDT", "note": ""}]
    source = ListSource(rows, ["symbol"])
    assert [r["symbol"] for r in source(0, 5, "ldt").rows] == ["LDT"]
    assert source(0, 5, "").total == 2
