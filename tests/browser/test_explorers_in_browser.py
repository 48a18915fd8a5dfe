"""The explorers in a real browser: Voilà runs ``notebooks/explorers.ipynb`` against the
embedded node; chromium renders the account explorer and the gas dashboard. The test
pages, searches, drills into a table and into a transaction and back, moves the
selection with the keyboard, brushes the gas chart and sees the grid follow, with nothing
asked of any host but 127.0.0.1 (Voilà's own template stylesheets are blocked, and the
widgets render fully without them). A screenshot of each widget is saved for the docs.
"""

from __future__ import annotations

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


def _grid(page: Page, scope: Locator, title: str) -> Locator:
    """The grid root inside ``scope`` whose title contains ``title``."""
    heading = page.locator(".lk-grid-title", has_text=title)
    return scope.locator(".lk-grid-root").filter(has=heading).first


def _tab(page: Page, name: str) -> None:
    page.locator(".lk-account-explorer .lm-TabBar-tab", has_text=name).first.click()


def test_the_account_explorer_pages_searches_and_drills_in(
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page = voila_page("explorers.ipynb")
    explorer = page.locator(".lk-account-explorer")
    expect(explorer).to_be_visible(timeout=VISIBLE_MS)

    # The overview lists the assets with exact balances.
    assets = _grid(page, explorer, "Assets")
    expect(assets.locator("tr.lk-row", has_text="LDT")).to_be_visible(timeout=ANSWER_MS)
    expect(assets.locator("tr.lk-row", has_text="1,000,000")).to_be_visible()
    save_screenshot(explorer, "account-explorer")

    # Resources: search, select the board, open its scores table, come back.
    _tab(page, "Resources")
    resources = _grid(page, explorer, "Resources")
    expect(resources.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    resources.locator(".lk-grid-search").fill("Board")
    board = resources.locator("tr.lk-row", has_text="0x1::ledger_demo::Board")
    expect(board).to_have_count(1, timeout=ANSWER_MS)
    expect(resources.locator("tr.lk-row")).to_have_count(1)
    board.click()
    value = _grid(page, explorer, "0x1::ledger_demo::Board")
    scores = value.locator("tr.lk-row", has_text="0x1::table::Table<address, u64>")
    expect(scores).to_be_visible(timeout=ANSWER_MS)
    scores.dblclick()
    expect(page.locator(".lk-crumbs")).to_contain_text("table", timeout=ANSWER_MS)
    items = _grid(page, explorer, "Items written")
    expect(items.locator("tr.lk-row", has_text="18446744073709551615")).to_be_visible(
        timeout=ANSWER_MS
    )
    save_screenshot(explorer, "table-explorer")
    explorer.get_by_role("button", name="◀ Back").click()
    expect(page.locator(".lk-crumbs")).not_to_contain_text("table", timeout=ANSWER_MS)

    # Transactions: the keyboard moves the selection, Enter opens the inspector.
    _tab(page, "Transactions")
    txns = _grid(page, explorer, "touched the account")
    rows = txns.locator("tr.lk-row")
    expect(rows).to_have_count(4, timeout=ANSWER_MS)  # three sent, and genesis's deposit
    rows.first.click()
    expect(rows.nth(0)).to_have_class(re.compile(r"\blk-selected\b"))
    page.keyboard.press("ArrowDown")
    expect(rows.nth(1)).to_have_class(re.compile(r"\blk-selected\b"), timeout=ANSWER_MS)
    page.keyboard.press("Enter")
    expect(page.locator(".lk-crumbs")).to_contain_text("txn", timeout=ANSWER_MS)
    _tab(page, "Payload")
    expect(_grid(page, explorer, "0x1::ledger_demo::").locator("tr.lk-row").first).to_be_visible(
        timeout=ANSWER_MS
    )
    save_screenshot(explorer, "transaction-inspector")

    assert page_errors == []
    assert [url for url in blocked_requests if not TEMPLATE_CDN.match(url)] == []


def test_the_brush_filters_the_transactions_grid(
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page = voila_page("explorers.ipynb")
    dashboard = page.locator(".lk-gas-dashboard")
    expect(dashboard).to_be_visible(timeout=VISIBLE_MS)
    title = dashboard.locator(".lk-grid-title")
    expect(title).to_contain_text("All ", timeout=ANSWER_MS)
    chart = dashboard.locator(".vega-embed").first
    expect(chart).to_be_visible(timeout=ANSWER_MS)
    box = chart.bounding_box()
    assert box is not None
    # Drag across the top panel (the price panel carries the brush).
    y = box["y"] + box["height"] * 0.18
    page.mouse.move(box["x"] + box["width"] * 0.35, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.55, y, steps=8)
    page.mouse.up()
    expect(title).to_contain_text("in the brushed range", timeout=ANSWER_MS)
    save_screenshot(dashboard, "gas-dashboard")
    assert page_errors == []
    assert [url for url in blocked_requests if not TEMPLATE_CDN.match(url)] == []
