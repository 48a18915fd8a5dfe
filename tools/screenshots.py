"""Retake the widgets guide's screenshots, ``docs/_static/screenshots``: ``make screenshots``.

Voilà runs ``tools/screenshots.ipynb`` against the embedded node in a kernel importing this
checkout; Debian's chromium, driven by Playwright, opens it with the widgets as wide as
the docs' content column (:data:`WIDGET_WIDTH`), drives them as a reader would (the
account's overview; a table opened from a resource; a transaction's payload; the gas
dashboard brushed over a busy range, a page of rows shown) and keeps a PNG of each widget,
cropped to it, at one pixel per CSS pixel. The docs site shows them at that size: the
browser test ``tests/browser/test_docs_snapshots.py`` checks that none is scaled.

Nothing is asked of another host: every request beyond 127.0.0.1 is aborted (Voilà's
template asks a CDN for an icon font, which the widgets do without).

    .venv/bin/python tools/screenshots.py [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

from playwright.sync_api import Locator, Page, Route, expect, sync_playwright

REPO: Final = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from browser_harness import CHROMIUM, CHROMIUM_ARGS, VoilaServer, is_loopback  # noqa: E402

NOTEBOOK: Final = REPO / "tools" / "screenshots.ipynb"
OUT: Final = REPO / "docs" / "_static" / "screenshots"
#: The widgets' width in pixels: within the docs' content column (714 pixels at the docs'
#: default 1,400-pixel window, up to 60em less the article's padding), so the pictures are
#: never scaled down.
WIDGET_WIDTH: Final = 700
#: The window's height: taller than the tallest widget (the gas dashboard, about 1,100
#: pixels), as a grid draws only the rows within the window and is at most 4/5 as tall.
PAGE_HEIGHT: Final = 1600
RENDER_MS: Final = 120_000
ANSWER_MS: Final = 30_000
#: Rows of the gas dashboard's grid in its picture (the notebook sets the page size).
DASHBOARD_ROWS: Final = 10


def grid(scope: Locator, title: str) -> Locator:
    """The grid inside ``scope`` whose title contains ``title``."""
    heading = scope.page.locator(".lk-grid-title", has_text=title)
    return scope.locator(".lk-grid-root").filter(has=heading).first


def tab(explorer: Locator, name: str) -> None:
    explorer.locator(".lm-TabBar-tab", has_text=name).first.click()


def account_explorer(page: Page, keep: Callable[[Locator, str], None]) -> None:
    """The overview, a table opened from the board's resource, a transaction's payload."""
    explorer = page.locator(".lk-account-explorer")
    expect(explorer).to_be_visible(timeout=RENDER_MS)
    assets = grid(explorer, "Assets")
    expect(assets.locator("tr.lk-row", has_text="LDT")).to_be_visible(timeout=ANSWER_MS)
    keep(explorer, "account-explorer")

    tab(explorer, "Resources")
    resources = grid(explorer, "Resources")
    expect(resources.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    resources.locator(".lk-grid-search").fill("Board")
    board = resources.locator("tr.lk-row", has_text="0x1::ledger_demo::Board")
    expect(board).to_have_count(1, timeout=ANSWER_MS)
    board.click()
    value = grid(explorer, "0x1::ledger_demo::Board")
    scores = value.locator("tr.lk-row", has_text="0x1::table::Table<address, u64>")
    expect(scores).to_be_visible(timeout=ANSWER_MS)
    scores.dblclick()
    items = grid(explorer, "Items written")
    expect(items.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    keep(explorer, "table-explorer")
    explorer.get_by_role("button", name="◀ Back").click()
    expect(page.locator(".lk-crumbs")).not_to_contain_text("table", timeout=ANSWER_MS)

    tab(explorer, "Transactions")
    rows = grid(explorer, "touched the account").locator("tr.lk-row")
    expect(rows.nth(1)).to_be_visible(timeout=ANSWER_MS)
    rows.nth(1).click()
    page.keyboard.press("Enter")
    expect(page.locator(".lk-crumbs")).to_contain_text("txn", timeout=ANSWER_MS)
    tab(explorer, "Payload")
    payload = grid(explorer, "0x1::ledger_demo::").locator("tr.lk-row")
    expect(payload.first).to_be_visible(timeout=ANSWER_MS)
    keep(explorer, "transaction-inspector")


def gas_dashboard(page: Page, keep: Callable[[Locator, str], None]) -> None:
    """Brushed over the busiest hours of the chart, a page of their transactions below."""
    dashboard = page.locator(".lk-gas-dashboard")
    dashboard.scroll_into_view_if_needed(timeout=RENDER_MS)
    chart = dashboard.locator(".vega-embed").first
    expect(chart).to_be_visible(timeout=RENDER_MS)
    box = chart.bounding_box()
    assert box is not None
    # Drag across the top panel (the price panel carries the brush).
    y = box["y"] + box["height"] * 0.18
    page.mouse.move(box["x"] + box["width"] * 0.35, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, y, steps=8)
    page.mouse.up()
    title = dashboard.locator(".lk-grid-title")
    expect(title).to_contain_text("in the brushed range", timeout=ANSWER_MS)
    expect(dashboard.locator("tr.lk-row")).to_have_count(DASHBOARD_ROWS, timeout=ANSWER_MS)
    page.mouse.move(0, 0)  # no hover highlight in the picture
    keep(dashboard, "gas-dashboard")


def take(out: Path, workdir: Path) -> list[Path]:
    """Run the notebook in Voilà and keep each widget's PNG in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    kept: list[Path] = []

    def keep(locator: Locator, name: str) -> None:
        locator.page.evaluate("document.fonts.ready")
        width = locator.evaluate("element => element.getBoundingClientRect().width")
        if width > WIDGET_WIDTH + 0.5:
            raise RuntimeError(f"{name}: the widget is {width} pixels wide, > {WIDGET_WIDTH}")
        path = out / f"{name}.png"
        locator.screenshot(path=path, animations="disabled", caret="hide")
        kept.append(path)

    def route(request: Route) -> None:
        if is_loopback(request.request.url):
            request.continue_()
        else:
            request.abort("blockedbyclient")

    with VoilaServer(NOTEBOOK, workdir=workdir) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        try:
            page = browser.new_page(
                viewport={"width": WIDGET_WIDTH + 200, "height": PAGE_HEIGHT},
                device_scale_factor=1,
                service_workers="block",
            )
            page.route("**/*", route)
            page.goto(server.url, timeout=RENDER_MS)
            page.wait_for_selector("#loading", state="detached", timeout=RENDER_MS)
            explorer = page.locator(".lk-account-explorer")
            expect(explorer).to_be_visible(timeout=RENDER_MS)
            # Size the window so that the widgets are as wide as the docs' column.
            box = explorer.bounding_box()
            assert box is not None
            margin = WIDGET_WIDTH + 200 - box["width"]
            page.set_viewport_size({"width": round(WIDGET_WIDTH + margin), "height": PAGE_HEIGHT})
            expect(explorer).to_have_js_property("offsetWidth", WIDGET_WIDTH)
            account_explorer(page, keep)
            gas_dashboard(page, keep)
        finally:
            browser.close()
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    options = parser.parse_args(argv)
    if not CHROMIUM.is_file():
        print(f"{CHROMIUM} is missing: make chromium installs it", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="ledgerkit-screenshots-") as workdir:
        for path in take(options.out, Path(workdir)):
            print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
