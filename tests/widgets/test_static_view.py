"""The static view of the widgets: the ``text/html`` beside the widget view in their mime
bundle, which an exported HTML, the docs site and saved outputs show without a kernel.

The HTML is read back with BeautifulSoup (a parser of its own); the values expected are
written out here, or computed from the rows given to the grid.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
import pytest
from bs4 import BeautifulSoup, Tag
from fake_read_client import ALICE, FakeReadClient
from recorded_chain import ReadLog, Scene

from ledgerkit.localnet import LocalNode
from ledgerkit.widgets import (
    AccountExplorer,
    Column,
    GasDashboard,
    GridPage,
    LedgerGrid,
    TransactionInspector,
)
from ledgerkit.widgets._static import (
    MAX_ROWS,
    WIDGET_MIME,
    clean_html,
    static_html,
    with_static_html,
)

HTML = "text/html"
SVG_MIME = "image/svg+xml"


@pytest.fixture(autouse=True)
def no_node(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("a test of the static view started a LocalNode")

    monkeypatch.setattr(LocalNode, "__init__", refuse)


def bundle_of(widget: Any) -> dict[str, Any]:
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert isinstance(data, dict)
    return data


def soup_of(widget: Any) -> BeautifulSoup:
    data = bundle_of(widget)
    assert WIDGET_MIME in data  # live frontends still get the widget
    return BeautifulSoup(data[HTML], "html.parser")


def table_rows(table: Tag) -> list[list[str]]:
    return [
        [cell.get_text() for cell in row.find_all(["th", "td"])] for row in table.find_all("tr")
    ]


def notes(soup: BeautifulSoup) -> list[str]:
    return [note.get_text() for note in soup.select(".lk-static-grid .lk-static-note")]


def list_grid(
    rows: Sequence[dict[str, Any]], columns: Sequence[Column], **options: Any
) -> LedgerGrid:
    def source(page: int, size: int, query: str) -> GridPage:
        found = [r for r in rows if query in str(r.get("name", ""))] if query else list(rows)
        return GridPage(found[page * size : (page + 1) * size], total=len(found))

    return LedgerGrid(source, columns, **options)


# -- a grid ----------------------------------------------------------------------------------------


def test_a_grid_shows_its_page_as_a_table_and_says_which_rows_of_how_many() -> None:
    rows = [{"n": n, "square": n * n} for n in range(95)]
    grid = list_grid(
        rows, [Column("n", "N", "int"), Column("square", "Square", "int")], title="Squares"
    )
    soup = soup_of(grid)
    assert soup.select_one(".lk-static-title").get_text() == "Squares"
    table = table_rows(soup.find("table"))
    assert table[0] == ["N", "Square"]
    assert table[1:4] == [["0", "0"], ["1", "1"], ["2", "4"]]
    assert len(table) == 1 + 20
    assert notes(soup) == ["Rows 1 to 20 of 95."]

    grid.go(4)
    table = table_rows(soup_of(grid).find("table"))
    assert table[1] == ["80", "6,400"]
    assert table[-1] == ["94", "8,836"]
    assert notes(soup_of(grid)) == ["Rows 81 to 95 of 95."]


def test_a_long_page_is_cut_to_the_first_rows_with_a_note() -> None:
    rows = [{"n": n} for n in range(300)]
    grid = list_grid(rows, [Column("n", kind="int")], page_size=200)
    soup = soup_of(grid)
    assert len(soup.find("tbody").find_all("tr")) == MAX_ROWS == 25
    assert notes(soup) == ["Rows 1 to 25 of 300."]


def test_a_short_listing_counts_its_rows_and_an_empty_one_says_so() -> None:
    rows = [{"name": "alpha"}, {"name": "beta"}, {"name": "gamma"}]
    grid = list_grid(rows, [Column("name")])
    assert notes(soup_of(grid)) == ["3 rows."]
    grid.query = "zzz"
    soup = soup_of(grid)
    assert soup.find("table") is None
    assert notes(soup) == ['No rows matching "zzz".']
    grid.query = "a"
    assert notes(soup_of(grid)) == ['3 rows matching "a".']


def test_integers_stay_exact_and_are_grouped() -> None:
    values = [2**53 + 1, 2**64 - 1, 2**128 - 1, 2**256 - 1]
    grid = list_grid([{"n": v} for v in values], [Column("n", kind="int")])
    cells = [row[0] for row in table_rows(soup_of(grid).find("table"))[1:]]
    assert cells == [
        "9,007,199,254,740,993",
        "18,446,744,073,709,551,615",
        "340,282,366,920,938,463,463,374,607,431,768,211,455",
        "115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,"
        "584,007,913,129,639,935",
    ]


def test_long_hex_values_are_shortened_with_the_full_value_in_the_tooltip() -> None:
    account = "0x" + "ab" * 32
    rows = [
        {"who": account, "asset": "0x1::aptos_coin::AptosCoin", "special": "0x1"},
    ]
    columns = [
        Column("who", kind="address"),
        Column("asset", kind="address"),
        Column("special", kind="address"),
    ]
    cells = soup_of(list_grid(rows, columns)).find("tbody").find_all("td")
    assert [cell.get_text() for cell in cells] == [
        "0xabab…abab",
        "0x1::aptos_coin::AptosCoin",
        "0x1",
    ]
    assert cells[0]["title"] == account
    assert "title" not in cells[1].attrs


def test_ledger_strings_are_text_never_markup() -> None:
    evil = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    quote = "\"' onmouseover='alert(3)"
    rows = [{"name": evil, "data": {"k": evil}, "who": "0x" + "ab" * 31 + quote}]
    grid = list_grid(
        rows,
        [Column("name"), Column("data", kind="json"), Column("who", kind="address")],
        title=evil,
    )
    html_text = bundle_of(grid)[HTML]
    soup = BeautifulSoup(html_text, "html.parser")
    assert soup.find("script") is None
    assert soup.find("img") is None
    assert not [tag for tag in soup.find_all(True) if any(a.startswith("on") for a in tag.attrs)]
    assert soup.select_one(".lk-static-title").get_text() == evil
    assert table_rows(soup.find("table"))[1][:2] == [evil, '{"k":"' + evil + '"}']


def test_a_column_empty_on_the_whole_page_is_left_out() -> None:
    rows = [{"a": 1, "b": None, "c": ""}, {"a": 2, "b": None, "c": ""}]
    grid = list_grid(rows, [Column("a", "A", "int"), Column("b", "B"), Column("c", "C")])
    assert table_rows(soup_of(grid).find("table"))[0] == ["A"]


def test_cells_and_the_whole_view_are_bounded() -> None:
    wide = [Column(f"c{i}") for i in range(30)]
    rows = [{f"c{i}": "x" * 5000 for i in range(30)} for _ in range(200)]
    grid = list_grid(rows, wide, page_size=200)
    html_text = bundle_of(grid)[HTML]
    table = table_rows(BeautifulSoup(html_text, "html.parser").find("table"))
    assert len(table[0]) == 20
    assert len(table) == 1 + 25
    assert table[1][0] == "x" * 159 + "…"
    assert len(html_text) < 150_000


def test_the_view_is_the_same_each_time_and_names_no_memory_address() -> None:
    def make() -> LedgerGrid:
        return list_grid([{"n": n} for n in range(7)], [Column("n", kind="int")], title="t")

    first, second = bundle_of(make())[HTML], bundle_of(make())[HTML]
    assert first == second
    assert not re.search(r"0x[0-9a-f]{8,}", first)
    assert "http://" not in first
    assert "https://" not in first


def test_a_grid_error_is_shown() -> None:
    def failing(page: int, size: int, query: str) -> GridPage:
        raise RuntimeError("the node is away")

    grid = LedgerGrid(failing, [Column("n")])
    soup = soup_of(grid)
    assert soup.select_one(".lk-static-error").get_text() == (
        "Could not load page 1: RuntimeError: the node is away"
    )


# -- explorers -------------------------------------------------------------------------------------


def test_the_account_explorer_shows_its_open_tab_and_the_assets_it_holds() -> None:
    # The fake's balances are past a float's reach: the static view keeps them exact.
    client = FakeReadClient()
    explorer = AccountExplorer(client, ALICE)
    asked = list(client.methods)
    soup = soup_of(explorer)
    assert client.methods == asked  # shown from what it holds: nothing more is read
    assert soup.select_one(".lk-static")["data-lk-widget"] == "AccountExplorer"
    tabs = soup.select(".lk-static-tabs span")
    assert [t.get_text() for t in tabs][:2] == ["Overview", "Resources"]
    assert [t.get_text() for t in soup.select(".lk-static-tabs .lk-static-on")] == ["Overview"]
    text = soup.get_text(" ")
    assert "APT" in text
    assert "10,000,081,973,700" in text  # its APT in base units, exactly
    assert "18,446,744,073,709,551,615" in text  # 2**64 - 1 of its demo token
    assert soup.find("button") is None  # Back does nothing without a kernel


def test_the_inspector_shows_the_tab_shown_when_it_was_displayed(
    client: ReadLog, scene: Scene
) -> None:
    version = scene.version("score_max")
    inspector = TransactionInspector(client, version)
    soup = soup_of(inspector)
    assert [t.get_text() for t in soup.select(".lk-static-tabs .lk-static-on")] == ["Summary"]
    assert str(version) in soup.get_text(" ")
    assert inspector.view is not None
    inspector.view.show("Events")
    soup = soup_of(inspector)
    assert [t.get_text() for t in soup.select(".lk-static-tabs .lk-static-on")] == ["Events"]
    assert "ScoreChanged" in soup.find("table").get_text(" ")


# -- any composition of widgets --------------------------------------------------------------------


def test_boxes_tabs_fields_and_outputs_are_walked_and_buttons_left_out() -> None:
    out = w.Output()
    out.outputs = (
        {"output_type": "stream", "name": "stdout", "text": "printed <b>here</b>\n"},
        {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []},
    )
    tabs = w.Tab(children=[w.Label("first tab"), w.Label("second tab")])
    tabs.titles = ("One", "Two")
    tabs.selected_index = 1
    box = w.VBox(
        [
            w.HTML("<b>Table</b> <code>0xabc</code>"),
            w.HBox([w.Text(value="u64", description="key type"), w.Button(description="Go")]),
            w.Dropdown(options=[("Alpha", 1), ("Beta", 2)], value=2, description="pick"),
            tabs,
            out,
        ]
    )
    soup = BeautifulSoup(static_html(box), "html.parser")
    assert soup.select_one(".lk-static-html").decode_contents() == (
        "<b>Table</b> <code>0xabc</code>"
    )
    fields = [" ".join(f.get_text(" ").split()) for f in soup.select(".lk-static-field")]
    assert fields == ["key type u64", "pick Beta"]
    assert [t.get_text() for t in soup.select(".lk-static-tabs span")] == ["One", "Two"]
    text = soup.get_text(" ")
    assert "second tab" in text
    assert "first tab" not in text
    assert [p.get_text() for p in soup.find_all("pre")] == [
        "printed <b>here</b>\n",
        "ValueError: bad",
    ]
    assert "Go" not in text


def test_a_failing_view_leaves_the_widget_its_live_view() -> None:
    class Broken(w.DOMWidget):  # type: ignore[misc]
        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            raise RuntimeError("cannot draw")

    box = w.VBox([Broken()])
    bundle = with_static_html(box._repr_mimebundle_(), box)
    assert HTML not in bundle
    assert WIDGET_MIME in bundle


def test_html_excluded_by_the_frontend_is_not_made() -> None:
    grid = list_grid([{"n": 1}], [Column("n")])
    data = grid._repr_mimebundle_(exclude=[HTML])
    data = data[0] if isinstance(data, tuple) else data
    assert HTML not in data


# -- the gas dashboard -----------------------------------------------------------------------------


def test_the_gas_dashboard_shows_its_chart_as_an_image_and_its_grid_as_a_table() -> None:
    n = 60
    frame = pd.DataFrame(
        {
            "version": pd.array(range(n), dtype="UInt64"),
            "timestamp": pd.date_range("2025-06-01", periods=n, freq="min", tz="UTC"),
            "type": ["user_transaction"] * n,
            "sender": ["0x" + "cd" * 32] * n,
            "function": ["0x1::aptos_account::transfer"] * n,
            "gas_used": pd.array([7 + i % 5 for i in range(n)], dtype="UInt64"),
            "gas_unit_price": pd.array([100] * n, dtype="UInt64"),
            "success": pd.array([True] * n, dtype="boolean"),
        }
    )
    dashboard = GasDashboard(frame)
    soup = soup_of(dashboard)
    image = soup.find("img")
    assert image["src"].startswith("data:image/svg+xml;base64,")
    svg = dashboard.chart._repr_mimebundle_()
    svg = svg[0] if isinstance(svg, tuple) else svg
    drawn = base64.b64decode(image["src"].split(",", 1)[1]).decode()
    # The chart's own SVG, less the accessibility attributes an image does not expose.
    assert drawn == re.sub(r' (aria-label|aria-roledescription|role)="[^"]*"', "", svg[SVG_MIME])
    assert len(drawn) < len(svg[SVG_MIME])
    assert "Gas over time" in drawn
    table = table_rows(soup.find("table"))
    assert table[1][0] == "59"  # newest first, as the live grid lists them
    assert "0x1::aptos_account::transfer" in table[1]
    assert notes(soup) == ["Rows 1 to 20 of 60."]


# -- markup of HTML widgets ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ("<b>bold</b> & <i>it</i>", "<b>bold</b> &amp; <i>it</i>"),
        ("<script>alert(1)</script>ok", "ok"),
        ("<style>body{display:none}</style>ok", "ok"),
        ("<div onclick='alert(1)' class='x'>a</div>", "<div class='x'>a</div>"),
        ("<a href='javascript:alert(1)'>x</a>", "<a>x</a>"),
        ("<a href='https://example.org/a?b=1'>x</a>", "<a href='https://example.org/a?b=1'>x</a>"),
        ("<img src='https://cdn.example/x.png'>after", "after"),
        ("<link rel=stylesheet href='https://cdn.example/x.css'>", ""),
        ("<table><tr><td>open", "<table><tr><td>open</td></tr></table>"),
        ("<p style='background:url(https://x)'>p</p>", "<p>p</p>"),
        ("<svg><script>x</script><svg></svg>in</svg>after", "after"),
        ("</div>stray", "stray"),
        ("&lt;not a tag&gt;", "&lt;not a tag&gt;"),
    ],
)
def test_html_widgets_keep_only_harmless_markup(markup: str, expected: str) -> None:
    assert clean_html(markup) == expected
