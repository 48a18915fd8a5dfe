"""The whole stack in a real browser: Voilà runs ``notebooks/probe.ipynb`` in a kernel that
imports this checkout and starts the embedded node; chromium renders an ipywidgets button
and an inline anywidget; clicks travel to the kernel and its answers come back to the page,
with nothing asked of any host but 127.0.0.1 except the blocked stylesheets of Voilà's template.
"""

from __future__ import annotations

import re
from typing import Final

import pytest
from browser_harness import REPO, OpenNotebook, SaveScreenshot
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

#: What Voilà's lab template asks of a CDN (Font Awesome): aborted, and the page renders.
TEMPLATE_CDN: Final = re.compile(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@")
VISIBLE_MS: Final = 60_000
ANSWER_MS: Final = 30_000


def test_widgets_answer_clicks_in_voila(
    voila_page: OpenNotebook,
    blocked_requests: list[str],
    page_errors: list[str],
    save_screenshot: SaveScreenshot,
) -> None:
    page = voila_page("probe.ipynb")

    buttons = page.locator(".lk-probe-buttons")
    button = page.locator(".lk-probe-button")
    label = page.locator(".lk-probe-label")
    probe = page.locator(".lk-probe")
    expect(button).to_be_visible(timeout=VISIBLE_MS)
    expect(probe).to_be_visible(timeout=VISIBLE_MS)

    # The kernel imported this checkout and its embedded node serves the local chain.
    expect(page.locator(".lk-origin")).to_have_text(str(REPO / "ledgerkit"))
    expect(page.locator(".lk-chain")).to_have_text("chain 4")

    # ipywidgets: the click runs on_click in the kernel, which asks the node.
    expect(label).to_have_text("clicks: 0")
    button.click()
    expect(label).to_have_text(re.compile(r"clicks: 1 \(ledger version \d+\)"), timeout=ANSWER_MS)
    button.click()
    expect(label).to_have_text(re.compile(r"clicks: 2 \(ledger version \d+\)"), timeout=ANSWER_MS)

    # anywidget: the click sends a custom message; the kernel answers through a synced trait.
    expect(probe).to_have_text("ready")
    probe.click()
    expect(probe).to_have_text("pong 1", timeout=ANSWER_MS)

    assert page_errors == []
    assert blocked_requests, "Voilà's template asks a CDN for Font Awesome: it should be blocked"
    assert [url for url in blocked_requests if not TEMPLATE_CDN.match(url)] == []

    for locator, name in ((buttons, "probe-ipywidgets"), (probe, "probe-anywidget")):
        path = save_screenshot(locator, name)
        assert path.stat().st_size > 0
