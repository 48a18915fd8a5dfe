"""The account explorer at common laptop widths, in a real browser: Voilà runs
``notebooks/account_widths.ipynb``, where a dev account that never sent a transaction
received 1,000 APT from another; chromium renders the explorer at 1100 and 1400 px.

At each width the key values are read as a reader sees them and checked to be fully
visible: the breadcrumb's short address, the asset's amount, its base units grouped, its
type by name and its key (``0xa`` in full), and in the Transactions tab the transactions
it received, each with its change per asset. Fully visible means the element's text is
not cut by its own box (no ellipsis, no hidden overflow), and no ancestor that clips or
scrolls hides any of it.
"""

from __future__ import annotations

import re
from typing import Final

import pytest
from browser_harness import OpenNotebook, SaveScreenshot
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

#: What Voilà's lab template asks of a CDN (Font Awesome): aborted, and the page renders.
TEMPLATE_CDN: Final = re.compile(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@")
VISIBLE_MS: Final = 120_000
ANSWER_MS: Final = 60_000
WIDTHS: Final = (1100, 1400)

#: Why an element is not fully visible, or "" when it is: its text overflows its box,
#: it lies outside the window, or an ancestor that clips or scrolls hides part of it.
HIDDEN_BY: Final = """
(element) => {
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return "not rendered";
  if (element.scrollWidth > element.clientWidth + 1) {
    return `text cut: ${element.scrollWidth}px of text in ${element.clientWidth}px`;
  }
  if (box.left < -0.5 || box.right > window.innerWidth + 0.5) {
    return `outside the window: ${box.left}..${box.right} of ${window.innerWidth}`;
  }
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const style = getComputedStyle(parent);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const frame = parent.getBoundingClientRect();
    if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5
        || box.top < frame.top - 0.5 || box.bottom > frame.bottom + 0.5) {
      const name = parent.className || parent.tagName;
      return `hidden by ${name}: ${box.left}..${box.right} outside ${frame.left}..${frame.right}`;
    }
  }
  return "";
}
"""


def _grid(page: Page, scope: Locator, title: str) -> Locator:
    """The grid root inside ``scope`` whose title contains ``title``."""
    heading = page.locator(".lk-grid-title", has_text=title)
    return scope.locator(".lk-grid-root").filter(has=heading).first


def _tab(page: Page, name: str) -> None:
    page.locator(".lk-account-explorer .lm-TabBar-tab", has_text=name).first.click()


def _exactly(text: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def _cell(row: Locator, text: str) -> Locator:
    """The cell of ``row`` that shows exactly ``text`` (a shortened address's value)."""
    plain = row.locator("td.lk-cell", has_text=_exactly(text))
    shortened = row.locator("td.lk-cell .lk-value", has_text=_exactly(text))
    return plain.or_(shortened).first


def _assert_fully_visible(element: Locator, what: str, width: int) -> None:
    expect(element).to_be_visible(timeout=ANSWER_MS)
    element.scroll_into_view_if_needed()
    hidden = element.evaluate(HIDDEN_BY)
    assert hidden == "", f"at {width} px, {what} is not fully visible: {hidden}"


def test_the_received_transactions_and_key_values_are_fully_visible(
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page = voila_page("account_widths.ipynb")
    explorer = page.locator(".lk-account-explorer")
    expect(explorer).to_be_visible(timeout=VISIBLE_MS)
    assets = _grid(page, explorer, "Assets")
    expect(assets.locator("tr.lk-row", has_text="AptosCoin")).to_be_visible(timeout=ANSWER_MS)

    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        _tab(page, "Overview")
        crumbs = page.locator(".lk-crumbs")
        expect(crumbs).to_have_text(re.compile(r"^account 0x[0-9a-f]{4}…[0-9a-f]{4}$"))
        _assert_fully_visible(crumbs, "the breadcrumb", width)

        # A million APT from genesis and a thousand from the other account; base units
        # grouped as the amount is; the coin by its type's name; APT's key 0xa in full.
        apt = assets.locator("tr.lk-row", has_text="AptosCoin")
        for text in ("APT", "1,001,000", "100,100,000,000,000", "AptosCoin", "0xa"):
            _assert_fully_visible(_cell(apt, text), f"the APT row's {text!r}", width)
        ldt = assets.locator("tr.lk-row", has_text="LDT")
        for text in ("1,000,000", "1,000,000,000,000", "fungible asset"):
            _assert_fully_visible(_cell(ldt, text), f"the LDT row's {text!r}", width)

        # Never sent, yet two transactions: the transfer and genesis, each received.
        _tab(page, "Transactions")
        txns = _grid(page, explorer, "touched the account")
        title = txns.locator(".lk-grid-title")
        scanned = r"^2 transactions touched the account \(versions 0 to [\d,]+, all scanned\)$"
        expect(title).to_have_text(re.compile(scanned), timeout=ANSWER_MS)
        expect(explorer).not_to_contain_text("transactions sent")
        _assert_fully_visible(title, "the Transactions grid's title", width)
        rows = txns.locator("tr.lk-row")
        expect(rows).to_have_count(2, timeout=ANSWER_MS)
        transfer = rows.filter(has_text="+1,000 APT")
        genesis = rows.filter(has_text="+1,000,000 APT; +1,000,000 LDT")
        for row, texts in [
            (transfer, ["received, state written", "+1,000 APT"]),
            (genesis, ["received, state written", "+1,000,000 APT; +1,000,000 LDT"]),
        ]:
            for text in texts:
                _assert_fully_visible(_cell(row, text), f"the received row's {text!r}", width)
        function = transfer.locator("td.lk-cell", has_text="0x1::aptos_account::transfer")
        _assert_fully_visible(function.first, "the transfer's function", width)
        version = transfer.locator("td.lk-kind-version")
        _assert_fully_visible(version, "the transfer's version", width)
        save_screenshot(explorer, f"account-transactions-{width}")

    assert page_errors == []
    assert [url for url in blocked_requests if not TEMPLATE_CDN.match(url)] == []
