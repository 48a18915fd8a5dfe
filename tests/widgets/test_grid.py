"""LedgerGrid without a browser: a recording comm stands in for the frontend.

Messages from the browser are fed the way the kernel delivers them; what the grid sends
back (its state updates) is read from the comm, as JSON, the way the browser reads it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import re
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import comm
import httpx
import numpy as np
import pandas as pd
import pytest
from ipywidgets.widgets import widget as ipywidget

import ledgerkit.widgets
from ledgerkit import Address, HexBytes, InputError, ResourceNotFoundError, TransportError
from ledgerkit.widgets import Column, GridPage, LedgerGrid

STATIC = Path(ledgerkit.widgets.__file__).parent / "static"
JS_SAFE = 2**53 - 1


class RecordingComm:
    """A comm that keeps what the widget sends and whether it was closed."""

    kernel = "recording"  # a widget sends only when its comm has a kernel

    def __init__(self, **kwargs: Any) -> None:
        self.comm_id = uuid.uuid4().hex
        self.opened_with = kwargs
        self.sent: list[dict[str, Any]] = []
        self.closed = False
        self.handler: Callable[[dict[str, Any]], None] | None = None

    def send(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        assert not self.closed, "sent on a closed comm"
        # What the browser receives is JSON: fail here on anything JSON cannot carry.
        self.sent.append(json.loads(json.dumps(data, allow_nan=False)))

    def on_msg(self, handler: Callable[[dict[str, Any]], None]) -> None:
        self.handler = handler

    def close(self, *args: Any, **kwargs: Any) -> None:
        self.closed = True

    def deliver(self, content: dict[str, Any]) -> None:
        """A custom message from the browser, as the kernel hands it to the widget."""
        assert self.handler is not None
        self.handler({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})

    def states(self) -> list[dict[str, Any]]:
        return [m["state"] for m in self.sent if m.get("method") == "update"]


@pytest.fixture
def comms(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[RecordingComm]]:
    """Every comm opened during the test; all must be closed by its end."""
    opened: list[RecordingComm] = []

    def create_comm(**kwargs: Any) -> RecordingComm:
        opened.append(RecordingComm(**kwargs))
        return opened[-1]

    monkeypatch.setattr(comm, "create_comm", create_comm)
    yield opened
    left_open = [c.opened_with["data"]["state"]["_model_name"] for c in opened if not c.closed]
    assert not left_open, f"comms left open: {left_open}"
    assert not {c.comm_id for c in opened} & set(ipywidget._instances)


class Listing:
    """A page source over a list, recording every call."""

    def __init__(self, rows: list[Mapping[str, Any]], *, known_total: bool = True) -> None:
        self.rows = rows
        self.known_total = known_total
        self.calls: list[tuple[int, int, str]] = []
        self.fail: Exception | None = None

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        self.calls.append((page, size, query))
        if self.fail is not None:
            raise self.fail
        matching = [r for r in self.rows if query in str(r.get("name", ""))]
        chunk = matching[page * size : (page + 1) * size]
        if self.known_total:
            return GridPage(chunk, total=len(matching))
        return GridPage(chunk, more=(page + 1) * size < len(matching))


COLUMNS = [Column("n", "No.", "int"), Column("name"), Column("owner", kind="address")]


def numbered(count: int) -> list[Mapping[str, Any]]:
    return [
        {"n": n, "name": f"item{n}", "owner": Address.from_int(n + 1), "extra": n}
        for n in range(count)
    ]


@pytest.fixture
def make(comms: list[RecordingComm]) -> Iterator[Callable[..., tuple[LedgerGrid, RecordingComm]]]:
    """Build grids (and find each one's comm); closed, with their layouts, at teardown."""
    grids: list[LedgerGrid] = []

    def build(
        source: Any, columns: Any = COLUMNS, **options: Any
    ) -> tuple[LedgerGrid, RecordingComm]:
        grid = LedgerGrid(source, columns, **options)
        grids.append(grid)
        return grid, next(c for c in comms if c.comm_id == grid.model_id)

    yield build
    for grid in grids:
        grid.layout.close()
        grid.close()


def ints_in(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from ints_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from ints_in(item)


# -- the first page --------------------------------------------------------------------------


def test_the_first_page_is_asked_for_and_shown(make: Any) -> None:
    source = Listing(numbered(45))
    grid, channel = make(source, title="Items", page_size=20)
    assert source.calls == [(0, 20, "")]
    assert grid.columns == [
        {"name": "n", "label": "No.", "kind": "int", "keep": False},
        {"name": "name", "label": "name", "kind": "text", "keep": False},
        {"name": "owner", "label": "owner", "kind": "address", "keep": False},
    ]
    assert len(grid.rows) == 20
    assert grid.rows[0] == {"n": 0, "name": "item0", "owner": "0x1"}  # only the grid's columns
    assert (grid.page, grid.page_size, grid.total, grid.more) == (0, 20, 45, True)
    assert (grid.query, grid.selected_index, grid.loading, grid.error) == ("", -1, False, "")
    assert (grid.title, grid.searchable) == ("Items", True)
    assert grid.selected is None
    opened = channel.opened_with["data"]["state"]
    assert opened["_model_name"] == "AnyModel"
    assert "export default" in opened["_esm"]
    assert ".lk-grid-root" in opened["_css"]


def test_a_kept_column_tells_the_browser_not_to_cut_it(make: Any) -> None:
    columns = [Column("n", "No.", "int"), Column("name", "Change", keep=True)]
    grid, _ = make(Listing(numbered(3)), columns)
    assert grid.columns == [
        {"name": "n", "label": "No.", "kind": "int", "keep": False},
        {"name": "name", "label": "Change", "kind": "text", "keep": True},
    ]
    # In the browser, the account explorer's kept columns stay whole at 1100 px
    # (tests/browser/test_account_widths.py).


def test_the_module_and_style_ship_beside_the_package() -> None:
    assert (STATIC / "grid.js").is_file()
    assert (STATIC / "grid.css").is_file()
    assert '"ledgerkit.widgets" = ["static/*.js", "static/*.css"]' in (
        Path(__file__).resolve().parents[2] / "pyproject.toml"
    ).read_text("utf-8")


# -- exactness ---------------------------------------------------------------------------------


def exact_rows() -> list[Mapping[str, Any]]:
    return [
        {
            "u64": 2**64 - 1,
            "u128": 2**128 - 1,
            "neg": -(2**70),
            "edge": 2**53,
            "safe": 2**53 - 1,
            "who": Address.parse("0xabc"),
            "raw": b"\x00\xff",
            "hash": HexBytes(bytes(range(32))),
            "data": {"amount": 2**128 - 1, "to": Address.parse("0x1"), "list": [2**64, 1]},
            "ok": True,
            "when": 1_700_000_000_123_456,
        },
        {
            "u64": 7,
            "u128": 1,
            "neg": 1,
            "edge": 1,
            "safe": 1,
            "who": Address.parse("0x1"),
            "raw": b"",
            "hash": None,
            "data": "already text",
            "ok": False,
            "when": dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.UTC),
        },
    ]


EXACT_COLUMNS = [
    Column("u64", kind="int"),
    Column("u128", kind="int"),
    Column("neg", kind="int"),
    Column("edge", kind="version"),
    Column("safe", kind="int"),
    Column("who", kind="address"),
    Column("raw", kind="hash"),
    Column("hash", kind="hash"),
    Column("data", kind="json"),
    Column("ok", kind="bool"),
    Column("when", kind="time"),
]


def test_big_integers_addresses_and_bytes_travel_as_text(make: Any) -> None:
    rows = exact_rows()
    grid, channel = make(lambda page, size, query: GridPage(rows, total=2), EXACT_COLUMNS)
    first = grid.rows[0]
    assert first["u64"] == "18446744073709551615"
    assert first["u128"] == "340282366920938463463374607431768211455"
    assert first["neg"] == "-1180591620717411303424"
    assert first["edge"] == "9007199254740992"
    assert first["safe"] == JS_SAFE  # still a number: JavaScript holds it exactly
    assert first["who"] == "0x" + "0" * 61 + "abc"
    assert grid.rows[1]["who"] == "0x1"  # the form the node writes
    assert first["raw"] == "0x00ff"
    assert first["hash"] == "0x" + bytes(range(32)).hex()
    assert json.loads(first["data"]) == {
        "amount": "340282366920938463463374607431768211455",
        "to": "0x1",
        "list": ["18446744073709551616", 1],
    }
    assert " " not in first["data"]  # compact
    assert grid.rows[1]["data"] == "already text"
    assert (first["ok"], grid.rows[1]["ok"]) == (True, False)
    assert first["when"] == "2023-11-14 22:13:20.123456 UTC"
    assert grid.rows[1]["when"] == "2024-05-01 12:00:00.000000 UTC"
    assert grid.rows[1]["hash"] is None
    # Everything the browser received: no integer JavaScript would round.
    sent = [state["rows"] for state in channel.states() if "rows" in state]
    assert sent
    assert all(abs(n) <= JS_SAFE for n in ints_in(sent))


def test_selected_and_the_frame_give_the_exact_values_back(make: Any) -> None:
    rows = exact_rows()
    grid, _ = make(lambda page, size, query: GridPage(rows, total=2), EXACT_COLUMNS)
    grid._handle_custom_msg({"type": "select", "index": 0}, [])
    assert grid.selected is rows[0]
    assert grid.selected["u128"] == 2**128 - 1
    assert grid.selected["who"] == Address.parse("0xabc")
    frame = grid.to_frame()
    assert list(frame.columns) == [c.name for c in EXACT_COLUMNS]
    assert str(frame["u64"].dtype) == "UInt64"
    assert frame["u64"][0] == 2**64 - 1
    assert frame["u128"].dtype == object
    assert [type(v) for v in frame["u128"]] == [int, int]
    assert frame["u128"][0] == 2**128 - 1
    assert frame["neg"][0] == -(2**70)
    assert str(frame["edge"].dtype) == "UInt64"
    assert frame["edge"][0] == 2**53
    assert str(frame["who"].dtype) == "string"
    assert frame["who"][1] == "0x" + "0" * 63 + "1"  # addresses in their long form
    assert list(frame["raw"]) == ["0x00ff", "0x"]
    assert frame["data"][0] == rows[0]["data"]
    assert str(frame["ok"].dtype) == "boolean"
    assert str(frame["when"].dtype) == "datetime64[us, UTC]"
    assert frame["when"][0] == pd.Timestamp("2023-11-14 22:13:20.123456", tz="UTC")


def test_rows_made_from_a_frame_are_read_as_python_values(make: Any) -> None:
    rows = [{"n": np.uint64(2**64 - 1), "name": pd.NA, "owner": None}]
    grid, _ = make(lambda page, size, query: GridPage(rows, total=1))
    assert grid.rows == [{"n": "18446744073709551615", "name": None, "owner": None}]
    frame = grid.to_frame()
    assert frame["n"][0] == 2**64 - 1
    assert str(frame["n"].dtype) == "UInt64"


def test_an_empty_page_keeps_the_columns_typed_by_kind(make: Any) -> None:
    grid, _ = make(Listing([]), EXACT_COLUMNS)
    assert grid.rows == []
    frame = grid.to_frame()
    assert frame.empty
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == {
        "u64": "UInt64",
        "u128": "UInt64",
        "neg": "UInt64",
        "edge": "UInt64",
        "safe": "UInt64",
        "who": "string",
        "raw": "string",
        "hash": "string",
        "data": "object",
        "ok": "boolean",
        "when": "datetime64[us, UTC]",
    }


def test_the_frame_builder_given_is_used(make: Any) -> None:
    seen: list[Any] = []

    def frame(rows: Any) -> pd.DataFrame:
        seen.append(rows)
        return pd.DataFrame({"count": [len(rows)]})

    grid, _ = make(Listing(numbered(30)), frame=frame, page_size=10)
    assert grid.to_frame()["count"][0] == 10
    assert seen[0][0]["extra"] == 0  # the whole rows, not only the columns shown


def test_only_the_page_shown_crosses_to_the_browser(make: Any) -> None:
    def everything(page: int, size: int, query: str) -> GridPage:
        return GridPage(numbered(1000), total=1000)  # a careless source: the whole list

    grid, channel = make(everything, page_size=20)
    assert len(grid.rows) == 20
    assert len(grid.to_frame()) == 20
    assert max(len(state["rows"]) for state in channel.states() if "rows" in state) == 20


# -- messages from the browser -------------------------------------------------------------


def test_page_messages_load_the_page_asked_for(make: Any) -> None:
    source = Listing(numbered(45))
    grid, channel = make(source)
    channel.deliver({"type": "page", "page": 1})
    assert source.calls[-1] == (1, 20, "")
    assert (grid.page, grid.rows[0]["n"], grid.more) == (1, 20, True)
    channel.deliver({"type": "page", "page": 2})
    assert (grid.page, len(grid.rows), grid.more) == (2, 5, False)
    assert channel.states()[-1]["page"] == 2  # the browser was told
    channel.deliver({"type": "page", "page": 99})  # past the end: the last page
    assert grid.page == 2
    channel.deliver({"type": "page", "page": -3})
    assert (grid.page, source.calls[-1]) == (0, (0, 20, ""))
    channel.deliver({"type": "page", "page": "1"})  # not a number: the page shown again
    assert grid.page == 0


def test_a_page_message_can_say_which_row_to_select(make: Any) -> None:
    grid, channel = make(Listing(numbered(45)))
    channel.deliver({"type": "page", "page": 1, "select": "first"})
    assert (grid.page, grid.selected_index) == (1, 0)
    channel.deliver({"type": "page", "page": 0, "select": "last"})
    assert (grid.page, grid.selected_index) == (0, 19)
    channel.deliver({"type": "page", "page": 2, "select": 12})  # the last page has 5 rows
    assert (grid.page, grid.selected_index) == (2, 4)
    channel.deliver({"type": "page", "page": 1})
    assert grid.selected_index == -1


def test_the_browser_hears_of_the_loading_before_the_source_is_asked(make: Any) -> None:
    seen: list[Any] = []

    def watching(page: int, size: int, query: str) -> GridPage:
        if channels:
            seen.append(channels[0].states()[-1])
        return GridPage([], total=0)

    channels: list[RecordingComm] = []
    grid, channel = make(watching)
    channels.append(channel)
    grid.refresh()
    assert seen == [{"loading": True}]
    assert channel.states()[-1]["loading"] is False


def test_an_unknown_total_pages_by_more(make: Any) -> None:
    grid, channel = make(Listing(numbered(25), known_total=False))
    assert (grid.total, grid.more) == (None, True)
    assert repr(grid) == "LedgerGrid(3 columns, page 1, more available, 20 rows)"
    channel.deliver({"type": "page", "page": 1})
    assert (grid.total, grid.more, len(grid.rows)) == (None, False, 5)
    assert repr(grid) == "LedgerGrid(3 columns, page 2, 5 rows)"


def test_search_passes_the_query_to_the_source_from_page_zero(make: Any) -> None:
    source = Listing(numbered(45))
    grid, channel = make(source)
    channel.deliver({"type": "page", "page": 1})
    channel.deliver({"type": "search", "query": "item4"})
    assert source.calls[-1] == (0, 20, "item4")
    assert (grid.query, grid.page, grid.total) == ("item4", 0, 6)  # item4, item40..item44
    assert [row["name"] for row in grid.rows][:2] == ["item4", "item40"]
    channel.deliver({"type": "search", "query": "x" * 5000})
    assert source.calls[-1][2] == "x" * 200
    assert grid.query == "x" * 200
    channel.deliver({"type": "search", "query": None})  # ignored
    assert source.calls[-1][2] == "x" * 200
    channel.deliver({"type": "search", "query": ""})
    assert (grid.query, grid.total) == ("", 45)


def test_page_size_messages_are_bounded_and_keep_the_first_row_in_view(make: Any) -> None:
    source = Listing(numbered(450))
    grid, channel = make(source)
    channel.deliver({"type": "page", "page": 3})  # rows 60..79
    channel.deliver({"type": "size", "page_size": 50})
    assert (grid.page_size, grid.page, grid.rows[0]["n"]) == (50, 1, 50)
    channel.deliver({"type": "size", "page_size": 10_000})
    assert grid.page_size == 200
    assert len(grid.rows) == 200
    channel.deliver({"type": "size", "page_size": 1})
    assert grid.page_size == 5
    assert source.calls[-1][1] == 5


def test_select_messages_set_the_selection_and_call_back(make: Any) -> None:
    rows = numbered(45)
    grid, channel = make(Listing(rows))
    seen: list[Any] = []
    grid.on_select(seen.append)
    channel.deliver({"type": "select", "index": 3})
    assert grid.selected_index == 3
    assert grid.selected is rows[3]
    assert seen == [rows[3]]
    assert channel.states()[-1] == {"selected_index": 3}
    channel.deliver({"type": "select", "index": 999})  # not a row: nothing selected
    assert (grid.selected_index, grid.selected, seen[-1]) == (-1, None, None)
    channel.deliver({"type": "select", "index": 5})
    channel.deliver({"type": "page", "page": 1})  # another page: the selection goes
    assert (grid.selected_index, seen[-1]) == (-1, None)
    channel.deliver({"type": "page", "page": 2, "select": "first"})
    assert seen[-1] is rows[40]


def test_activate_messages_call_back_with_the_row_and_column(make: Any) -> None:
    rows = numbered(45)
    grid, channel = make(Listing(rows))
    seen: list[tuple[Any, str]] = []
    grid.on_activate(lambda row, column: seen.append((row, column)))
    channel.deliver({"type": "activate", "index": 2, "column": "owner"})
    assert seen == [(rows[2], "owner")]
    assert grid.selected_index == 2  # what is activated is selected
    channel.deliver({"type": "activate", "index": 4, "column": "<script>"})
    assert seen[-1] == (rows[4], "n")  # an unknown column: the first one
    channel.deliver({"type": "activate", "index": 20, "column": "n"})  # not a row
    channel.deliver({"type": "activate", "index": True, "column": "n"})
    assert len(seen) == 2


def test_unknown_and_malformed_messages_are_ignored(make: Any) -> None:
    source = Listing(numbered(45))
    grid, channel = make(source)
    for content in ({"type": "drop_tables"}, {"no": "type"}, {"type": "select"}):
        channel.deliver(content)
    grid._handle_custom_msg(["not", "a", "dict"], [])
    assert (grid.page, grid.selected_index, grid.error, len(source.calls)) == (0, -1, "", 1)


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "failure",
    [
        ResourceNotFoundError(
            "Resource not found\nat version 7",
            status=404,
            error_code="resource_not_found",
            request="GET http://127.0.0.1:1/v1/accounts/0x1/resource/0x1::x::Y",
        ),
        TransportError("connection refused"),
        httpx.ConnectError("[Errno 111] Connection refused"),
        RuntimeError("a bug in the source"),
    ],
)
def test_a_failing_source_is_shown_in_the_grid_and_keeps_the_rows(
    make: Any, failure: Exception
) -> None:
    source = Listing(numbered(45))
    grid, channel = make(source)
    before = list(grid.rows)
    source.fail = failure
    grid._handle_custom_msg({"type": "page", "page": 1}, [])  # raises nothing
    assert grid.rows == before
    assert (grid.page, grid.loading) == (0, False)
    assert grid.error.startswith(f"Could not load page 2: {type(failure).__name__}")
    assert "\n" not in grid.error
    assert "Traceback" not in grid.error
    assert channel.states()[-1]["error"] == grid.error
    source.fail = None
    grid.refresh()
    assert grid.error == ""


def test_a_failing_source_never_raises_from_python_calls_either(make: Any) -> None:
    source = Listing(numbered(45))
    source.fail = TransportError("unreachable " + "x" * 1000)
    grid, _ = make(source)
    assert (grid.rows, grid.error[:40]) == ([], "Could not load page 1: TransportError: u")
    assert len(grid.error) <= 300
    assert repr(grid) == "LedgerGrid(3 columns, page 1, 0 rows, error)"
    source.fail = None
    grid.go(1)
    assert (grid.page, grid.error) == (1, "")
    source.fail = ValueError("boom")
    grid.go(0)
    grid.refresh()
    assert grid.page == 1


@pytest.mark.parametrize(
    ("answer", "complaint"),
    [
        ([{"n": 1}], "not a GridPage"),
        (GridPage([["not", "a", "mapping"]]), "a row is a mapping"),  # type: ignore[list-item]
    ],
)
def test_a_source_that_answers_the_wrong_thing_is_shown(
    make: Any, answer: Any, complaint: str
) -> None:
    grid, _ = make(lambda page, size, query: answer)
    assert complaint in grid.error
    assert grid.rows == []


def test_a_failing_callback_is_shown_not_raised_from_a_message(make: Any) -> None:
    grid, _ = make(Listing(numbered(45)))

    def broken(row: Any, column: str) -> None:
        raise KeyError(column)

    grid.on_activate(broken)
    grid._handle_custom_msg({"type": "activate", "index": 1, "column": "name"}, [])
    assert grid.error == "Activate failed: KeyError: 'name'"


# -- bounds and the Python side --------------------------------------------------------------


def test_python_callers_get_input_errors_for_out_of_range_values(make: Any) -> None:
    source = Listing(numbered(45))
    with pytest.raises(InputError, match="page size"):
        LedgerGrid(source, COLUMNS, page_size=4)
    with pytest.raises(InputError, match="page size"):
        LedgerGrid(source, COLUMNS, page_size=201)
    with pytest.raises(InputError, match="at least one Column"):
        LedgerGrid(source, [])
    with pytest.raises(InputError, match="repeat"):
        LedgerGrid(source, [Column("a"), Column("a")])
    with pytest.raises(InputError, match="callable"):
        LedgerGrid("rows", COLUMNS)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="unknown column kind 'float'"):
        Column("x", kind="float")
    with pytest.raises(InputError, match="total"):
        GridPage([], total=-1)
    grid, _ = make(source)
    with pytest.raises(InputError, match="page number"):
        grid.go(-1)
    with pytest.raises(InputError, match="page number"):
        grid.page = -2
    with pytest.raises(InputError, match="page size"):
        grid.page_size = 500
    with pytest.raises(InputError, match="at most 200"):
        grid.query = "q" * 201
    assert (grid.page, grid.page_size, grid.query) == (0, 20, "")
    assert len(source.calls) == 1


def test_setting_page_query_or_size_from_python_loads_what_they_name(make: Any) -> None:
    source = Listing(numbered(45))
    grid, _ = make(source)
    grid.page = 2
    assert (source.calls[-1], grid.rows[0]["n"]) == ((2, 20, ""), 40)
    grid.query = "item1"
    assert (source.calls[-1], grid.page, grid.total) == ((0, 20, "item1"), 0, 11)
    grid.page_size = 5
    assert source.calls[-1] == (0, 5, "item1")
    source.fail = TransportError("down")
    grid.page = 1  # fails: the page shown stays, and says so
    assert (grid.page, grid.rows[0]["n"]) == (0, 1)
    assert "down" in grid.error


def test_refresh_asks_again_for_the_page_shown_and_keeps_the_selection(make: Any) -> None:
    rows = numbered(45)
    source = Listing(rows)
    grid, _ = make(source)
    grid.go(1)
    grid.selected_index = 2
    seen: list[Any] = []
    grid.on_select(seen.append)
    rows[22] = {**rows[22], "name": "renamed"}
    grid.refresh()
    assert source.calls[-1] == (1, 20, "")
    assert grid.selected_index == 2
    assert grid.rows[2]["name"] == "renamed"
    assert seen == [rows[22]]


def test_go_past_the_last_page_shows_the_last_one(make: Any) -> None:
    grid, _ = make(Listing(numbered(45)))
    grid.go(7)
    assert grid.page == 2


# -- repr and names ----------------------------------------------------------------------------


def test_repr_is_deterministic_and_shows_no_values(make: Any) -> None:
    first, _ = make(Listing(numbered(45)), title="Resources")
    second, _ = make(Listing(numbered(45)), title="Resources")
    assert repr(first) == repr(second) == "LedgerGrid('Resources', 3 columns, page 1 of 3, 20 rows)"
    first.go(2)
    assert repr(first) == "LedgerGrid('Resources', 3 columns, page 3 of 3, 5 rows)"
    one, _ = make(Listing(numbered(1)), [Column("name")])
    assert repr(one) == "LedgerGrid(1 column, page 1 of 1, 1 row)"
    assert not re.search(r"0x[0-9a-f]{6,}|item", repr(first) + repr(one))


def test_public_names_report_their_package() -> None:
    assert {"Column", "GridPage", "LedgerGrid", "PageSource"} <= set(ledgerkit.widgets.__all__)
    for name in ledgerkit.widgets.__all__:
        assert getattr(ledgerkit.widgets, name).__module__ == "ledgerkit.widgets"


# -- the ES module -----------------------------------------------------------------------------


def test_the_module_loads_nothing_from_anywhere() -> None:
    modules = sorted(STATIC.glob("*.js"))
    assert len(modules) > 1  # grid.js and the modules beside it
    for module in modules:
        source = module.read_text("utf-8")
        # Static imports name only the modules beside it, which ledgerkit composes.
        for statement in re.findall(r"^\s*import\b[^;]*;?", source, re.M):
            assert re.fullmatch(
                r'import \{[\w, ]+\} from "\./grid-[a-z]+\.js";', " ".join(statement.split())
            ), (module.name, statement)
            assert (STATIC / statement.split('"')[1]).is_file(), (module.name, statement)
        assert not re.search(r"\bimport\s*\(", source), module.name  # dynamic imports
        for banned in ("http://", "https://", "//cdn", "fetch(", "XMLHttpRequest"):
            assert banned not in source, (module.name, banned)
    assert "export default" in (STATIC / "grid.js").read_text("utf-8")
    for sheet in sorted(STATIC.glob("*.css")):
        style = sheet.read_text("utf-8")
        for banned in ("@import", "url(", "http://", "https://"):
            assert banned not in style, (sheet.name, banned)


# -- the docs ----------------------------------------------------------------------------------


def test_the_grid_section_of_the_docs_runs_as_written(comms: list[RecordingComm]) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "widgets.md").read_text("utf-8")
    section = page.split("\n## The grid\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    printed = []
    try:
        for number, source in enumerate(blocks):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(source, f"widgets.md block {number}", "exec"), namespace)
            printed.append(out.getvalue())
    finally:
        for value in namespace.values():
            if isinstance(value, LedgerGrid):
                value.layout.close()
                value.close()
        if "client" in namespace:
            namespace["client"].close()
    assert printed[0] == "LedgerGrid('Accounts', 3 columns, page 1 of 5, 20 rows)\n"
    assert "LedgerGrid('Accounts', 3 columns, page 1 of 5, 20 rows)" in section
    lines = printed[1].splitlines()
    assert lines[0].split() == ["version", "type", "success"]
    assert len(lines) == 4
    assert namespace["transactions"].error == ""
