"""The explorers' grids at laptop widths, in a real browser: Voilà runs
``notebooks/widths.ipynb`` against the embedded node at 1100 and 1400 pixels wide.

What a reader must see without leaving the grid is asserted whole, not cut by the page's
style (a cell's ``scrollWidth`` within its ``clientWidth``, a header's box within the
grid's): the transaction inspector's changes with their addresses and types, a long Move
value expanded as a typed tree, the account explorer's "Opens" column, the gas
dashboard's last columns and its chart's legends. The dashboard sorts by a header,
opens the inspector on a double-click and on Enter, and counts what its chart counts.
Under Voilà's dark theme the chart's text and the grid follow it; in JupyterLab Dark at
1100 pixels, beside the file browser, the dashboard keeps its legends and last columns.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from browser_harness import NOTEBOOKS, OpenNotebook, SaveScreenshot, VoilaServer
from lab_harness import LabServer, run_notebook
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

WIDTHS: Final = (1100, 1400)
VISIBLE_MS: Final = 120_000
ANSWER_MS: Final = 30_000
#: What Voilà's lab template asks of a CDN (Font Awesome): aborted, and the page renders.
TEMPLATE_CDN: Final = re.compile(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@")


def _open(voila_page: OpenNotebook, page: Page, width: int) -> Page:
    page.set_viewport_size({"width": width, "height": 900})
    return voila_page("widths.ipynb")


def _grid(scope: Locator, title: str) -> Locator:
    heading = scope.page.locator(".lk-grid-title", has_text=title)
    return scope.locator(".lk-grid-root").filter(has=heading).first


def _cut(locator: Locator) -> list[str]:
    """The texts of the elements of ``locator`` that their width cuts."""
    cut: list[str] = locator.evaluate_all(
        "(all) => all.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"
    )
    return cut


def _column(grid: Locator, name: str) -> Locator:
    """The cells of a column (by its name) in the rows shown."""
    names: list[str] = grid.locator("thead th").evaluate_all(
        "(ths) => ths.map((th) => th.dataset.name || '')"
    )
    return grid.locator(f"tbody tr.lk-row > td:nth-child({names.index(name) + 1})")


def _inside(inner: Locator, outer: Locator) -> bool:
    """Whether ``inner``'s box lies within ``outer``'s, left to right."""
    a, b = inner.bounding_box(), outer.bounding_box()
    assert a is not None
    assert b is not None
    return b["x"] - 1 <= a["x"] and a["x"] + a["width"] <= b["x"] + b["width"] + 1


def _clean(blocked: list[str], errors: list[str]) -> None:
    assert errors == []
    assert [url for url in blocked if not TEMPLATE_CDN.match(url)] == []


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_changes_and_values_are_read_whole_without_leaving_the_grid(
    width: int,
    page: Page,
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    _open(voila_page, page, width)
    inspector = page.locator(".lk-inspector")
    expect(inspector).to_be_visible(timeout=VISIBLE_MS)
    inspector.locator(".lm-TabBar-tab", has_text=re.compile(r"^Changes$")).first.click()
    # The write set's grid, titled by its count ("12 changes"), not the balance changes'.
    changes = inspector.locator(".lk-grid-root").filter(
        has=page.locator(".lk-grid-title", has_text=re.compile(r"^[\d,]+ changes?$"))
    )
    rows = changes.locator("tr.lk-row")
    expect(rows.first).to_be_visible(timeout=ANSWER_MS)
    scroll = changes.locator(".lk-grid-scroll")
    assert scroll.evaluate("(s) => s.scrollWidth <= s.clientWidth")  # nothing off to the right
    names: list[str] = changes.locator("thead th").evaluate_all(
        "(ths) => ths.map((th) => th.dataset.name || '')"
    )
    for name in ("type", "address", "what", "handle"):
        if name in names:
            assert _cut(_column(changes, name)) == [], name
    # The sender's account, written by the transaction: selected, its fields typed below.
    account = rows.filter(has_text="0x1::account::Account").first
    address = account.locator("td.lk-kind-address button.lk-copy").get_attribute("data-value")
    assert address is not None
    assert re.fullmatch(r"0x[0-9a-f]{64}", address)
    account.click()
    fields = _grid(inspector, "0x1::account::Account")
    field_rows = fields.locator("tr.lk-row")
    sequence = field_rows.filter(has_text="sequence_number").first
    expect(sequence).to_be_visible(timeout=ANSWER_MS)
    expect(sequence).to_contain_text("u64")
    assert _cut(_column(fields, "path")) == []
    # The authentication key, cut or not in its cell, read whole in the expanded row.
    key = field_rows.filter(has_text="authentication_key").first
    key.locator("button.lk-toggle").click()
    whole = fields.locator("tr.lk-detail .lk-field[data-name=value] .lk-field-text")
    expect(whole).to_have_text(address, timeout=ANSWER_MS)
    assert _cut(whole) == []
    assert _inside(fields.locator(".lk-detail-body"), fields.locator(".lk-grid-scroll"))
    kind = fields.locator("tr.lk-detail .lk-field[data-name=type] .lk-field-text")
    expect(kind).to_have_text("vector<u8>")
    assert _cut(kind) == []
    copied = fields.locator("tr.lk-detail .lk-field[data-name=value] button.lk-copy")
    assert copied.get_attribute("data-value") == address
    # The table item the transaction wrote: its key and value typed by the types it carries.
    rows.filter(has_text="write_table_item").first.click()
    item = _grid(inspector, "item of type").locator("tr.lk-row")
    expect(item.filter(has_text="ada").first).to_contain_text("0x1::string::String")
    expect(item.filter(has_text="python").first).to_contain_text("0x1::string::String")
    save_screenshot(inspector, f"inspector-changes-{width}")

    # The account's board: the "Opens" column, the only hint a row drills in, in view.
    explorer = page.locator(".lk-account-explorer")
    explorer.locator(".lm-TabBar-tab", has_text="Resources").first.click()
    resources = _grid(explorer, "Resources")
    expect(resources.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    resources.locator(".lk-grid-search").fill("Board")
    board = resources.locator("tr.lk-row", has_text="0x1::ledger_demo::Board")
    expect(board).to_have_count(1, timeout=ANSWER_MS)
    board.click()
    value = _grid(explorer, "0x1::ledger_demo::Board")
    expect(value.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    opens = value.locator("th[data-name=points_to]")
    expect(opens).to_have_text("Opens")
    assert _inside(opens, value.locator(".lk-grid-scroll"))
    assert _inside(opens, page.locator("body"))
    assert _cut(_column(value, "points_to")) == []
    assert _column(value, "points_to").all_inner_texts() == ["table", "table", "table", "events"]
    # The scores table it opens: the items written, each key and value whole.
    value.locator("tr.lk-row", has_text="0x1::table::Table<address, u64>").first.dblclick()
    items = _grid(explorer, "Items written")
    expect(items.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    assert items.locator(".lk-grid-scroll").evaluate("(s) => s.scrollWidth <= s.clientWidth")
    for name in ("version", "key", "value"):
        assert _cut(_column(items, name)) == [], name
    assert _inside(items.locator("th[data-name=value]"), page.locator("body"))
    _clean(blocked_requests, page_errors)


def _ints(cells: Locator) -> list[int]:
    return [int(text.replace(",", "")) for text in cells.all_inner_texts()]


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
def test_the_dashboard_counts_what_its_chart_counts_sorts_and_opens_transactions(
    width: int,
    page: Page,
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    _open(voila_page, page, width)
    dashboard = page.locator(".lk-gas-dashboard")
    expect(dashboard).to_be_visible(timeout=VISIBLE_MS)
    grid = dashboard.locator(".lk-grid-root").first
    title = grid.locator(".lk-grid-title")
    expect(title).to_have_text(re.compile(r"^All [0-9,]+ user transactions$"), timeout=ANSWER_MS)
    subtitle = dashboard.locator(".lk-chart svg .role-title-subtitle text").first
    expect(subtitle).to_have_text(re.compile(r"^[0-9,]+ user transactions, per "))
    counted = (subtitle.text_content() or "").split()[0]
    assert int(counted.replace(",", "")) >= 1000  # grouped below
    assert re.fullmatch(r"[1-9][0-9]{0,2}(,[0-9]{3})+", counted)
    expect(title).to_have_text(f"All {counted} user transactions")
    expect(grid.locator(".lk-grid-status")).to_contain_text(f"· {counted} rows")

    # The chart's legends and the grid's last columns are in view.
    legends = dashboard.locator(".lk-chart svg .role-legend")
    assert legends.count() == 2
    for at in range(legends.count()):
        assert _inside(legends.nth(at), page.locator("body"))
    scroll = grid.locator(".lk-grid-scroll")
    assert scroll.evaluate("(s) => s.scrollWidth <= s.clientWidth")
    for name in ("gas_used", "gas_unit_price", "success"):
        assert _inside(grid.locator(f"th[data-name={name}]"), scroll), name
    for name in ("version", "timestamp", "sender", "gas_used", "gas_unit_price", "success"):
        assert _cut(_column(grid, name)) == [], name

    # A click on "Gas" sorts the whole listing in the kernel, again the other way.
    gas = grid.locator("th[data-name=gas_used]")
    gas.locator("button.lk-sort").click()
    expect(gas).to_have_attribute("aria-sort", "ascending", timeout=ANSWER_MS)
    ascending = _ints(_column(grid, "gas_used"))
    assert ascending == sorted(ascending)
    gas.locator("button.lk-sort").click()
    expect(gas).to_have_attribute("aria-sort", "descending", timeout=ANSWER_MS)
    descending = _ints(_column(grid, "gas_used"))
    assert descending == sorted(descending, reverse=True)
    assert descending[0] > ascending[-1]
    save_screenshot(dashboard, f"gas-dashboard-{width}")

    # A double-click opens the transaction inspector beneath; so does Enter.
    rows = grid.locator("tr.lk-row")
    first = _column(grid, "version").nth(0).inner_text()
    _column(grid, "timestamp").nth(0).dblclick()
    crumbs = dashboard.locator(".lk-explorer .lk-crumbs")
    expect(crumbs).to_have_text(f"txn {first}", timeout=ANSWER_MS)
    dashboard.get_by_role("button", name="✕ Close").click()
    expect(crumbs).to_have_count(0, timeout=ANSWER_MS)
    third = _column(grid, "version").nth(2).inner_text()
    rows.nth(2).click()
    page.keyboard.press("Enter")
    expect(crumbs).to_have_text(f"txn {third}", timeout=ANSWER_MS)

    # A search: the title says so.
    grid.locator(".lk-grid-search").fill("ledger_demo")
    expect(title).to_have_text(
        re.compile(rf"^[0-9,]+ of {counted} user transactions matching “ledger_demo”$"),
        timeout=ANSWER_MS,
    )
    _clean(blocked_requests, page_errors)


@pytest.fixture(scope="module")
def dark_voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """Voilà serving the notebook in JupyterLab's dark theme."""
    server = VoilaServer(
        Path(NOTEBOOKS / "widths.ipynb"),
        workdir=tmp_path_factory.mktemp("voila-dark"),
        arguments=["--theme=dark"],
    )
    with server:
        yield server


def _luminance(colour: str) -> float:
    """Relative brightness (0 black, 1 white) of an ``rgb()``/``rgba()`` colour."""
    red, green, blue = (int(v) for v in re.findall(r"[0-9.]+", colour)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


def test_under_the_dark_theme_the_chart_and_the_grid_follow_it(
    page: Page,
    dark_voila: VoilaServer,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto(dark_voila.url, timeout=VISIBLE_MS)
    page.wait_for_selector("#loading", state="detached", timeout=VISIBLE_MS)
    assert page.evaluate("document.body.dataset.jpThemeLight") == "false"
    dashboard = page.locator(".lk-gas-dashboard")
    expect(dashboard).to_be_visible(timeout=VISIBLE_MS)
    chart = dashboard.locator(".lk-chart")
    label = chart.locator("svg .role-axis-label text").first
    expect(label).to_be_visible(timeout=ANSWER_MS)
    fill: Any = label.evaluate("(t) => getComputedStyle(t).fill")
    assert _luminance(fill) > 0.7  # light text...
    background: Any = chart.locator("svg.marks").evaluate(
        "(s) => getComputedStyle(s).backgroundColor"
    )
    assert background == "rgba(0, 0, 0, 0)"  # ...on the page's own dark background
    page_background: Any = page.evaluate(
        "getComputedStyle(document.querySelector('.lk-grid-root')).backgroundColor"
    )
    assert _luminance(page_background) < 0.2
    cell: Any = dashboard.locator("tr.lk-row td.lk-cell").first.evaluate(
        "(td) => getComputedStyle(td).color"
    )
    assert _luminance(cell) > 0.7
    save_screenshot(dashboard, "gas-dashboard-dark")
    _clean(blocked_requests, page_errors)


@pytest.fixture(scope="module")
def dark_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """JupyterLab, in its dark theme, serving the notebook."""
    server = LabServer(
        NOTEBOOKS / "widths.ipynb", workdir=tmp_path_factory.mktemp("lab-dark"), theme="dark"
    )
    with server:
        yield server


def test_in_jupyterlab_dark_at_1100_px_the_dashboard_keeps_legends_and_last_columns(
    page: Page, dark_lab: LabServer, blocked_requests: list[str], page_errors: list[str]
) -> None:
    page.set_viewport_size({"width": 1100, "height": 900})
    run_notebook(page, dark_lab)
    dashboard = page.locator(".lk-gas-dashboard")
    expect(dashboard).to_be_visible(timeout=VISIBLE_MS)
    assert page.evaluate("document.body.dataset.jpThemeLight") == "false"
    output = page.locator(".jp-OutputArea-output").filter(has=dashboard)
    assert page.locator(".jp-FileBrowser").is_visible()  # the sidebar takes its room
    grid = dashboard.locator(".lk-grid-root").first
    expect(grid.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    dashboard.scroll_into_view_if_needed()
    chart = dashboard.locator(".lk-chart svg.marks")
    expect(chart).to_be_visible(timeout=ANSWER_MS)
    assert _inside(chart, output)
    legends = dashboard.locator(".lk-chart svg .role-legend")
    assert legends.count() == 2
    for at in range(legends.count()):
        assert _inside(legends.nth(at), output)
    scroll = grid.locator(".lk-grid-scroll")
    assert scroll.evaluate("(s) => s.scrollWidth <= s.clientWidth")
    for name in ("gas_used", "gas_unit_price", "success"):
        assert _inside(grid.locator(f"th[data-name={name}]"), scroll), name
    for name in ("version", "sender", "gas_used", "gas_unit_price", "success"):
        assert _cut(_column(grid, name)) == [], name
    label = dashboard.locator(".lk-chart svg .role-axis-label text").first
    fill: Any = label.evaluate("(t) => getComputedStyle(t).fill")
    assert _luminance(fill) > 0.7
    assert page_errors == []
    assert blocked_requests == []
