"""The grid's page sources over the embedded node's answers, recorded once and replayed
(``recorded_chain``): which pages they ask the node for, and what a grid over them
shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from recorded_chain import SOURCE_PAGE, ReadLog, Scene

from ledgerkit.widgets import Column, LedgerGrid
from ledgerkit.widgets._sources import (
    MAX_SEARCHED_ROWS,
    CountedSource,
    CursorSource,
    ListSource,
    Row,
)

pytestmark = pytest.mark.usefixtures("no_node")


def _resources(client: ReadLog, scene: Scene) -> CursorSource:
    """0x1's resources at the recording's version, paged by the node's cursor."""

    def fetch(cursor: str | None, limit: int) -> tuple[Sequence[Row], str | None]:
        page = client.account_resources("0x1", ledger_version=scene.head, start=cursor, limit=limit)
        return [{"type": r.type} for r in page.value], page.ledger.cursor

    return CursorSource(fetch, ["type"])


def _starts(client: ReadLog) -> list[Any]:
    return [kwargs["start"] for _, kwargs in client.asked("account_resources")]


def test_a_cursor_source_asks_each_page_of_the_node_once(client: ReadLog, scene: Scene) -> None:
    every = scene.framework_resources  # read in one page when the chain was made
    pages = -(-len(every) // SOURCE_PAGE)
    assert pages >= 2
    source = _resources(client, scene)
    grid = LedgerGrid(source, [Column("type")], page_size=SOURCE_PAGE, title="Resources")
    # The grid's first page is the node's first page of five.
    assert _starts(client) == [None]
    assert [r["type"] for r in grid.rows] == every[:SOURCE_PAGE]
    assert (grid.total, grid.more, source.complete) == (None, True, False)
    # A search reads the rest of the list once, a page of the grid's size at a time.
    grid.query = "::"
    assert [r["type"] for r in grid.rows] == every[:SOURCE_PAGE]
    assert (grid.total, source.complete) == (len(every), True)
    grid.query = "block"
    assert [r["type"] for r in grid.rows] == [
        "0x1::block::BlockResource",
        "0x1::block::CommitHistory",
        "0x1::randomness::PerBlockRandomness",
    ]
    starts = _starts(client)
    assert len(starts) == pages
    assert starts[0] is None
    assert len(set(starts)) == pages  # each cursor once
    # Nothing more is asked: every row is kept.
    assert len(source.all_rows()) == len(every)
    grid.query = ""
    grid.go(0)
    assert [r["type"] for r in grid.rows] == every[:SOURCE_PAGE]
    assert _starts(client) == starts


def test_a_cursor_source_reads_no_further_than_the_page_asked(
    client: ReadLog, scene: Scene
) -> None:
    every = scene.framework_resources
    source = _resources(client, scene)
    page = source(0, SOURCE_PAGE, "")
    assert [r["type"] for r in page.rows] == every[:SOURCE_PAGE]
    assert (page.total, page.more) == (None, True)
    assert _starts(client) == [None]
    page = source(1, SOURCE_PAGE, "")
    assert [r["type"] for r in page.rows] == every[SOURCE_PAGE : 2 * SOURCE_PAGE]
    assert len(_starts(client)) == 2
    far = source(99, SOURCE_PAGE, "")
    assert (far.rows, far.total) == ([], len(every))
    asked = _starts(client)
    assert len(asked) == -(-len(every) // SOURCE_PAGE)
    assert source(99, SOURCE_PAGE, "").rows == []
    assert _starts(client) == asked


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


def test_a_counted_source_pages_newest_first_one_read_a_page(client: ReadLog, scene: Scene) -> None:
    def fetch(start: int, limit: int) -> list[Row]:
        # ALICE's board's score_events: creation number 2, three events.
        page = client.events_by_creation_number(scene.alice, 2, start=start, limit=limit)
        return [{"sequence_number": e.sequence_number, "version": e.version} for e in page.value]

    grid = LedgerGrid(
        CountedSource(fetch, 3),
        [Column("sequence_number", kind="int"), Column("version", kind="version")],
        page_size=5,
        searchable=False,
    )
    assert grid.rows == [
        {"sequence_number": 2, "version": scene.version("score_max")},
        {"sequence_number": 1, "version": scene.version("score_9")},
        {"sequence_number": 0, "version": scene.version("score_7")},
    ]
    assert grid.total == 3
    assert client.asked("events_by_creation_number") == [
        ((scene.alice, 2), {"start": 0, "limit": 3})
    ]


def test_a_list_source_searches_its_keys_only() -> None:
    rows = [{"symbol": "APT", "note": "LDT"}, {"symbol": "LDT", "note": ""}]
    source = ListSource(rows, ["symbol"])
    assert [r["symbol"] for r in source(0, 5, "ldt").rows] == ["LDT"]
    assert source(0, 5, "").total == 2
