"""The inspector's Bytes tab and the account explorer's Events tab in a real browser:
Voilà runs ``notebooks/tabs.ipynb`` (a dev account sets a score on the embedded node)
and chromium shows it 1100 pixels wide.

The hex dump is in a monospace font, each of its lines one line high (nothing wraps),
each field name in one piece, and what is wider than the tab scrolls within the tab:
the page itself never grows sideways. One click on an event stream opens it, and its
event shows its time and its fields typed.
"""

from __future__ import annotations

import re
from typing import Final

import pytest
from browser_harness import OpenNotebook, SaveScreenshot
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

#: What Voilà's lab template asks of a CDN (Font Awesome): aborted, and the page renders.
TEMPLATE_CDN: Final = re.compile(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@")
VISIBLE_MS: Final = 120_000
ANSWER_MS: Final = 30_000
TIME: Final = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} UTC$")


def _tab(widget: Locator, name: str) -> None:
    widget.locator(".lm-TabBar-tab", has_text=name).first.click()


def _heights(cells: Locator) -> list[float]:
    return [float(h) for h in cells.evaluate_all("(els) => els.map((e) => e.offsetHeight)")]


def test_the_hex_dump_never_wraps_and_a_click_opens_a_stream(
    page: Page,
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page.set_viewport_size({"width": 1100, "height": 900})
    voila_page("tabs.ipynb")
    inspector = page.locator(".lk-inspector-bytes")
    expect(inspector).to_be_visible(timeout=VISIBLE_MS)

    _tab(inspector, "Bytes")
    inspector.get_by_role("button", name="Explain the bytes").click()
    dump = inspector.locator(".lk-hex-dump")
    expect(dump.locator("tbody tr").first).to_be_visible(timeout=ANSWER_MS)
    font = dump.locator("table").evaluate("(t) => getComputedStyle(t).fontFamily")
    assert "monospace" in font, font
    # Every line of the dump one line high: the offsets' cells hold a single line, and
    # so does every other cell of the row.
    heights = _heights(dump.locator("tbody td.lk-hex-bytes"))
    assert len(heights) > 10
    assert max(heights) == min(heights), heights
    assert max(_heights(dump.locator("tbody td.lk-hex-field"))) == heights[0]
    names = dump.locator(".lk-hex-name")
    broken = names.evaluate_all(
        "(els) => els.filter((e) => e.getClientRects().length !== 1).map((e) => e.textContent)"
    )
    assert broken == []
    expect(names.filter(has_text=re.compile(r"^raw_txn\.sender$"))).to_have_count(1)
    # Wider than the tab: it scrolls within the tab, the page does not grow sideways.
    assert dump.evaluate("(d) => d.scrollWidth > d.clientWidth")
    assert page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    save_screenshot(inspector, "transaction-inspector-bytes-1100")

    explorer = page.locator(".lk-explorer-events")
    _tab(explorer, "Events")
    streams = explorer.locator(".lk-grid-root").filter(
        has=page.locator(".lk-grid-title", has_text="Event streams")
    )
    expect(explorer.locator(".lk-note", has_text="Click a stream")).to_be_visible()
    row = streams.locator("tr.lk-row", has_text="score_events")
    expect(row).to_be_visible(timeout=ANSWER_MS)
    assert row.evaluate("(tr) => getComputedStyle(tr).cursor") == "pointer"
    row.locator("td.lk-cell").first.click()
    events = explorer.locator(".lk-grid-root").filter(
        has=page.locator(".lk-grid-title", has_text="1 event")
    )
    cells = events.locator("tr.lk-row").first.locator("td.lk-cell")
    expect(cells.nth(4)).to_have_text(
        re.compile(r"^player: 0x5a5a…5a5a · old: 0 · new: 7$"), timeout=ANSWER_MS
    )
    assert TIME.match(cells.nth(2).inner_text()), cells.nth(2).inner_text()
    save_screenshot(explorer, "account-explorer-event-stream-1100")

    assert page_errors == []
    assert [url for url in blocked_requests if not TEMPLATE_CDN.match(url)] == []
