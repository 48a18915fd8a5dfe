"""A grid's columns resized from the keyboard, in a real browser: Voilà runs
``notebooks/resize_keys.ipynb`` (45 rows in pages of 20, no node) and chromium shows it.

Tab reaches each header's edge, a vertical separator named for its column whose value is
the column's width in pixels. An arrow key moves it by a step (Shift, a larger one),
Home and End to the bounds, Enter fits the column to its content again; a width chosen
so is kept when the kernel sends another page. The widths expected are written out from
the steps and bounds that the docs give; the content's width is measured on the text of
the column's cells.
"""

from __future__ import annotations

import math
import re
from typing import Final

import pytest
from browser_harness import OpenNotebook, SaveScreenshot
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

#: What Voilà's lab template asks of a CDN (Font Awesome): aborted, and the page renders.
TEMPLATE_CDN: Final = re.compile(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@")
VISIBLE_MS: Final = 120_000
ANSWER_MS: Final = 30_000

#: The documented steps of an arrow key, without and with Shift, and the bounds, in pixels.
STEP: Final = 10
LARGE_STEP: Final = 50
NARROWEST: Final = 32
WIDEST: Final = 2000
#: A cell's padding, left and right (grid.css): a column fitted to its content is this
#: much wider than its widest text.
PADDING: Final = 2 * 8
#: Tab from the search box: the table, the edge of "No.", the edge of "Name".
TABS_TO_NAME: Final = 3

#: The width of the widest text of the cells given (a header's label, a cell's text).
TEXT_WIDTH: Final = """(cells) => Math.max(...cells.map((cell) => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  return range.getBoundingClientRect().width;
}))"""


def _open(voila_page: OpenNotebook) -> tuple[Page, Locator]:
    page = voila_page("resize_keys.ipynb")
    title = page.locator(".lk-grid-title", has_text="Items")
    grid = page.locator(".lk-grid-root").filter(has=title)
    expect(grid.locator("tr.lk-row")).to_have_count(20, timeout=VISIBLE_MS)
    page.evaluate("document.fonts.ready")
    return page, grid


def _header(grid: Locator, name: str) -> Locator:
    return grid.locator(f"th[data-name={name}]")


def _edge(grid: Locator, name: str) -> Locator:
    return _header(grid, name).locator(".lk-resize")


def _width(grid: Locator, name: str) -> int:
    box = _header(grid, name).bounding_box()
    assert box is not None
    return round(box["width"])


def _shown_width(grid: Locator, name: str, expected: int) -> None:
    """The column is ``expected`` pixels wide, and its edge says so."""
    assert _width(grid, name) == expected
    edge = _edge(grid, name)
    assert edge.get_attribute("aria-valuenow") == str(expected)
    assert edge.get_attribute("aria-valuetext") == f"{expected} pixels"


def _tab_to_name(page: Page, grid: Locator) -> None:
    """From the grid's search box, Tab to the edge of the "Name" header."""
    grid.locator(".lk-grid-search").click()
    for _ in range(TABS_TO_NAME):
        page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "Resize column Name"


def _name_cells(grid: Locator) -> Locator:
    """The "Name" header's label and the column's cells (after the toggle and "No.")."""
    return grid.locator("th[data-name=name] .lk-label, tbody tr.lk-row > td:nth-child(3)")


def _content_width(grid: Locator) -> int:
    """The width of the "Name" column fitted to its content: its widest text and padding."""
    text: float = _name_cells(grid).evaluate_all(TEXT_WIDTH)
    return math.ceil(text) + PADDING


def _cut(grid: Locator) -> list[str]:
    """The texts of the "Name" column that its width cuts."""
    cut: list[str] = grid.locator("tbody tr.lk-row > td:nth-child(3)").evaluate_all(
        "(all) => all.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"
    )
    return cut


def _clean(blocked: list[str], errors: list[str]) -> None:
    assert errors == []
    assert [url for url in blocked if not TEMPLATE_CDN.match(url)] == []


def test_tab_reaches_each_edge_and_the_arrows_resize_by_steps_kept_across_pages(
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page, grid = _open(voila_page)
    edges = grid.locator("thead .lk-resize")
    assert edges.evaluate_all("(all) => all.map((e) => e.getAttribute('aria-label'))") == [
        "Resize column No.",
        "Resize column Name",
        "Resize column Owner",
        "Resize column Memo",
    ]
    fitted = _width(grid, "name")
    edge = _edge(grid, "name")
    assert edge.get_attribute("role") == "separator"
    assert edge.get_attribute("aria-orientation") == "vertical"
    assert edge.get_attribute("tabindex") == "0"
    assert edge.get_attribute("aria-valuemin") == str(NARROWEST)
    assert edge.get_attribute("aria-valuemax") == str(WIDEST)
    assert edge.get_attribute("aria-hidden") is None
    _shown_width(grid, "name", fitted)

    _tab_to_name(page, grid)
    # The focused edge is seen: drawn in a colour, its header outlined.
    assert edge.evaluate("(e) => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert "inset" in _header(grid, "name").evaluate("(th) => getComputedStyle(th).boxShadow")

    for _ in range(4):
        page.keyboard.press("ArrowRight")
    _shown_width(grid, "name", fitted + 4 * STEP)
    page.keyboard.press("Shift+ArrowRight")
    _shown_width(grid, "name", fitted + 4 * STEP + LARGE_STEP)
    page.keyboard.press("ArrowLeft")
    _shown_width(grid, "name", fitted + 3 * STEP + LARGE_STEP)
    assert page.evaluate("document.activeElement.dataset.name") == "name"
    save_screenshot(grid, "grid-resize-keys")

    # The kernel sends the next page: the column keeps the width chosen.
    grid.locator(".lk-grid-next").click()
    expect(grid.locator(".lk-grid-status")).to_have_text("page 2 of 3 · 45 rows", timeout=ANSWER_MS)
    first = grid.locator("tbody tr.lk-row").first.locator("td.lk-cell")
    expect(first.nth(1)).to_have_text("item 20")
    _shown_width(grid, "name", fitted + 3 * STEP + LARGE_STEP)
    # ...and the keys go on from it.
    _tab_to_name(page, grid)
    page.keyboard.press("Shift+ArrowLeft")
    _shown_width(grid, "name", fitted + 3 * STEP)
    grid.locator(".lk-grid-prev").click()
    expect(grid.locator(".lk-grid-status")).to_have_text("page 1 of 3 · 45 rows", timeout=ANSWER_MS)
    expect(first.nth(1)).to_have_text("item 0")
    _shown_width(grid, "name", fitted + 3 * STEP)
    _clean(blocked_requests, page_errors)


def test_the_edge_stops_at_its_bounds_and_enter_fits_the_column_to_its_content(
    voila_page: OpenNotebook, blocked_requests: list[str], page_errors: list[str]
) -> None:
    page, grid = _open(voila_page)
    fitted = _width(grid, "name")
    assert fitted == _content_width(grid)  # as wide as its widest text: nothing cut
    assert _cut(grid) == []
    assert fitted > NARROWEST + STEP

    _tab_to_name(page, grid)
    page.keyboard.press("ArrowLeft")
    _shown_width(grid, "name", fitted - STEP)
    # Down to the narrowest, and no further.
    for _ in range(math.ceil((fitted - STEP - NARROWEST) / STEP) + 3):
        page.keyboard.press("ArrowLeft")
    _shown_width(grid, "name", NARROWEST)
    assert len(_cut(grid)) == 20  # every name is cut now
    page.keyboard.press("Shift+ArrowLeft")
    _shown_width(grid, "name", NARROWEST)

    page.keyboard.press("End")
    _shown_width(grid, "name", WIDEST)
    page.keyboard.press("ArrowRight")
    _shown_width(grid, "name", WIDEST)
    # Wider than the widget: the table scrolls sideways.
    assert grid.locator(".lk-grid-scroll").evaluate("(s) => s.scrollWidth > s.clientWidth")
    page.keyboard.press("Home")
    _shown_width(grid, "name", NARROWEST)

    # Enter: the column is fitted to its content again, as before any key.
    page.keyboard.press("Enter")
    _shown_width(grid, "name", fitted)
    assert _cut(grid) == []
    assert page.evaluate("document.activeElement.dataset.name") == "name"
    # The next page's names are fitted to in turn: the fitted width is not kept.
    grid.locator(".lk-grid-next").click()
    expect(grid.locator(".lk-grid-status")).to_have_text("page 2 of 3 · 45 rows", timeout=ANSWER_MS)
    expect(grid.locator("tbody tr.lk-row").first.locator("td.lk-cell").nth(1)).to_have_text(
        "item 20"
    )
    _shown_width(grid, "name", _content_width(grid))
    assert _cut(grid) == []
    _clean(blocked_requests, page_errors)
