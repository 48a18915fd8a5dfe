"""The transaction inspector at common laptop widths: Voilà runs
``notebooks/inspector.ipynb`` (a transfer whose gas a fee payer paid, and a transfer that
aborted, on the embedded node) and chromium shows it 1100 and 1400 pixels wide. Every
field of the summary (the status line with the decoded abort, each fact, each account)
and every cell of the Balance changes tab is fully visible: on screen, its text not cut
by an ellipsis, and not hidden by a scrolled or clipping container.
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

#: Why an element is not fully visible, or null: it is drawn, its text is not cut (its
#: content is no wider than its box), it is within the window, and no ancestor that
#: clips or scrolls hides any part of it.
CUT: Final = """(el) => {
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return "not drawn";
  if (el.scrollWidth > el.clientWidth + 1)
    return `text cut: ${el.scrollWidth}px of content in ${el.clientWidth}px`;
  if (box.left < -1 || box.right > document.documentElement.clientWidth + 1)
    return `off the window: ${Math.round(box.left)} to ${Math.round(box.right)}`;
  for (let up = el.parentElement; up; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const outer = up.getBoundingClientRect();
    if (box.left < outer.left - 1 || box.right > outer.right + 1)
      return `hidden by ${up.tagName.toLowerCase()}.${up.className}`;
  }
  return null;
}"""


def _cut(elements: Locator) -> list[str]:
    """``text: why`` of each element of ``elements`` not fully visible."""
    found = []
    for index in range(elements.count()):
        element = elements.nth(index)
        why = element.evaluate(CUT)
        if why is not None:
            found.append(f"{element.inner_text()[:60]!r}: {why}")
    return found


def _tab(inspector: Locator, name: str) -> None:
    inspector.locator(".lm-TabBar-tab", has_text=name).first.click()


@pytest.mark.parametrize("width", [1100, 1400])
def test_the_summary_and_the_balance_changes_are_fully_visible(
    width: int,
    page: Page,
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    voila_page("inspector.ipynb")
    sponsored = page.locator(".lk-inspector-sponsored")
    expect(sponsored).to_be_visible(timeout=VISIBLE_MS)

    # The summary of the sponsored transfer: success, the facts, the sender and fee payer.
    summary = sponsored.locator(".lk-transaction-summary")
    expect(summary.locator(".lk-status")).to_contain_text("✓ Success", timeout=ANSWER_MS)
    facts = summary.locator(".lk-summary th")
    expect(facts).to_have_text(
        [
            "Function",
            "Amounts moved",
            "Fee",
            "Gas",
            "Block",
            "Time",
            "Version",
            "Sequence number",
            "Hash",
            "Type",
        ]
    )
    expect(summary.locator(".lk-summary td").nth(1)).to_have_text("2.5 APT")
    expect(summary.locator(".lk-summary td").nth(2)).to_contain_text("paid by the fee payer")
    links = summary.locator(".lk-account-link")
    expect(links).to_have_count(2)
    # Each account in its short form, whole at any width; the full address on hover.
    for at in range(2):
        expect(links.nth(at)).to_have_text(re.compile(r"^0x[0-9a-f]{4}…[0-9a-f]{4}$"))
        expect(links.nth(at)).to_have_attribute(
            "title", re.compile(r"^Open the account 0x[0-9a-f]{64}$")
        )
    cells = summary.locator(".lk-status, .lk-summary th, .lk-summary td, .lk-account-link")
    assert _cut(cells) == []
    save_screenshot(sponsored, f"transaction-inspector-summary-{width}")

    # The failed transfer leads with its abort, decoded.
    failed = page.locator(".lk-inspector-failed")
    expect(failed).to_be_visible(timeout=ANSWER_MS)
    status = failed.locator(".lk-status.lk-failed")
    expect(status.locator(".lk-abort-module")).to_have_text("0x1::fungible_asset")
    expect(status.locator(".lk-abort-name")).to_have_text("EINSUFFICIENT_BALANCE")
    expect(status.locator(".lk-abort-description")).to_have_text(
        "The store's balance is too small for the amount asked"
    )
    assert _cut(failed.locator(".lk-status, .lk-summary th, .lk-summary td")) == []

    # The Balance changes tab: the sender's and the recipient's APT, the fee payer's fee.
    _tab(sponsored, "Balance changes")
    grid = sponsored.locator(".lk-grid-root").filter(
        has=page.locator(".lk-grid-title", has_text="balance changes")
    )
    rows = grid.locator("tr.lk-row")
    expect(rows).to_have_count(3, timeout=ANSWER_MS)
    expect(rows.nth(0)).to_contain_text("-250,000,000")
    expect(rows.nth(1)).to_contain_text("+250,000,000")
    expect(rows.nth(2)).to_contain_text("fee payer")
    assert _cut(grid.locator("th, tr.lk-row td")) == []
    save_screenshot(sponsored, f"transaction-inspector-balance-changes-{width}")

    assert page_errors == []
    assert [url for url in blocked_requests if not TEMPLATE_CDN.match(url)] == []
