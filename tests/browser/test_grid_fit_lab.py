"""The explorers' grids in JupyterLab's notebook panel, beside the open file browser, in
its light and dark themes: one JupyterLab a theme, ``notebooks/lab_fit.ipynb`` run once,
the window resized from 1400 to 1100 pixels in the same page.

The account explored received APT and sent some back. At each width: no text is cut
without an ellipsis; every cut cell of a grid has its whole value as its tooltip; the
Transactions grid ends within its output area, scrolls sideways inside itself (the page
never does), its first column stays in view, and each key column (Version, Time, Role,
Change, Function, Fee, Hash) is in view or brought into it by the grid's own scroll; the
overview shows the address and the authentication key as ``0x1234…cdef``, the full value
in the tooltip and in what a click selects; the Resources tab's Move types and the gas
dashboard's Function column are read whole in their tooltips; every tab label is whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

import pytest
from browser_harness import NOTEBOOKS
from lab_harness import LabServer, run_notebook
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

WIDTHS: Final = (1400, 1100)
VISIBLE_MS: Final = 120_000
ANSWER_MS: Final = 60_000
KEY_COLUMNS: Final = (
    "version",
    "timestamp",
    "role",
    "change",
    "function_shown",
    "fee_shown",
    "hash",
)
ADDRESS: Final = re.compile(r"0x[0-9a-f]{64}")

#: Elements of ``scope`` whose text their box cuts with no ellipsis (scrolling boxes and
#: the unseen middle of a short id, drawn at no size, aside).
CUT_WITHOUT_ELLIPSIS: Final = """
(scope) => Array.from(scope.querySelectorAll("*")).filter((e) => {
  if (!e.offsetParent || e.scrollWidth <= e.clientWidth + 1) return false;
  const style = getComputedStyle(e);
  if (["auto", "scroll"].includes(style.overflowX)) return false;
  if (style.overflowX === "visible") return false;
  return style.textOverflow !== "ellipsis";
}).map((e) => `${e.className || e.tagName}: ${e.textContent.slice(0, 60)}`)
"""
#: Cells of a grid cut by their width whose tooltip is not their whole value.
CUT_WITHOUT_TOOLTIP: Final = """
(grid) => Array.from(grid.querySelectorAll("tr.lk-row > td.lk-cell")).filter((td) => {
  const value = td.querySelector(":scope > .lk-value");
  const cut = td.scrollWidth > td.clientWidth || (value && value.scrollWidth > value.clientWidth);
  if (!cut) return false;
  const full = td.dataset.full || td.textContent;
  return td.title !== full && !(value && value.title === full);
}).map((td) => td.textContent)
"""


@pytest.fixture(scope="module", params=["light", "dark"])
def lab(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LabServer]:
    server = LabServer(
        NOTEBOOKS / "lab_fit.ipynb",
        workdir=tmp_path_factory.mktemp(f"lab-fit-{request.param}"),
        theme=request.param,
    )
    with server:
        yield server


def _grid(scope: Locator, title: str) -> Locator:
    heading = scope.page.locator(".lk-grid-title", has_text=title)
    return scope.locator(".lk-grid-root").filter(has=heading).first


def _tab(explorer: Locator, name: str) -> None:
    explorer.locator(".lm-TabBar-tab", has_text=re.compile(rf"^{name}$")).first.click()


def _box(locator: Locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return dict(box)


def _within(inner: Locator, outer: Locator) -> bool:
    a, b = _box(inner), _box(outer)
    return b["x"] - 1 <= a["x"] and a["x"] + a["width"] <= b["x"] + b["width"] + 1


def _nothing_cut_unread(scope: Locator, width: int) -> None:
    assert scope.evaluate(CUT_WITHOUT_ELLIPSIS) == [], f"at {width} px"
    for at in range(scope.locator(".lk-grid-root").count()):
        grid = scope.locator(".lk-grid-root").nth(at)
        if grid.is_visible():
            assert grid.evaluate(CUT_WITHOUT_TOOLTIP) == [], f"at {width} px"


def _transactions(page: Page, explorer: Locator, output: Locator, width: int) -> None:
    _tab(explorer, "Transactions")
    txns = _grid(explorer, "touched the account")
    rows = txns.locator("tr.lk-row")
    expect(rows.filter(has_text="sent")).to_have_count(1, timeout=ANSWER_MS)
    expect(rows.filter(has_text="+1,000 APT")).to_have_count(1)
    scroll = txns.locator(".lk-grid-scroll")
    assert _within(scroll, output), f"at {width} px the grid overflows its output area"
    first = rows.first.locator("td.lk-cell").first
    for name in (*KEY_COLUMNS[1:], *reversed(KEY_COLUMNS[1:])):  # there and back
        header = txns.locator(f"th[data-name={name}]")
        header.evaluate("(th) => th.scrollIntoView({block: 'nearest', inline: 'nearest'})")
        assert _within(header, scroll), f"at {width} px {name} is out of the grid's reach"
        assert _within(first, scroll), f"at {width} px the first column left the view"
        # Not beneath the first column, kept in view over what scrolls.
        assert _box(header)["x"] >= _box(first)["x"] + _box(first)["width"] - 1, name
    # Only the grid scrolled: neither the page nor the notebook panel moved sideways.
    assert page.evaluate("document.scrollingElement.scrollLeft") == 0
    assert (
        page.evaluate("document.querySelector('.jp-WindowedPanel-outer, .jp-Notebook').scrollLeft")
        == 0
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    scroll.evaluate("(s) => { s.scrollLeft = 0; }")
    sent = rows.filter(has_text="sent")
    assert sent.locator("td.lk-kind-hash .lk-value").get_attribute("title") is not None
    _nothing_cut_unread(explorer, width)


def _overview(explorer: Locator, width: int) -> None:
    _tab(explorer, "Overview")
    ids = explorer.locator(".lk-overview code.lk-id")
    expect(ids).to_have_count(2, timeout=ANSWER_MS)
    for at in range(2):
        shown = ids.nth(at)
        full = shown.get_attribute("title") or ""
        assert ADDRESS.fullmatch(full), full
        # What is seen: 0x1234…cdef; what a click selects and copies: the whole value.
        seen = shown.evaluate(
            "(c) => c.querySelector('.lk-id-head').textContent"
            " + getComputedStyle(c.querySelector('.lk-id-head'), '::after').content.slice(1, -1)"
            " + c.lastChild.textContent"
        )
        assert seen == f"{full[:6]}…{full[-4:]}"
        shown.click()
        assert shown.evaluate("() => getSelection().toString()") == full
        assert _box(shown)["width"] < 200, f"at {width} px the short form is not short"
    _nothing_cut_unread(explorer, width)


def _resources(explorer: Locator, width: int) -> None:
    _tab(explorer, "Resources")
    resources = _grid(explorer, "Resources")
    account = resources.locator("tr.lk-row", has_text="0x1::account::Account")
    expect(account).to_have_count(1, timeout=ANSWER_MS)
    account.click()
    value = _grid(explorer, "0x1::account::Account")
    types = value.locator("td.lk-kind-move .lk-value")
    expect(types.first).to_be_visible(timeout=ANSWER_MS)
    texts = types.evaluate_all("(all) => all.map((e) => e.title)")
    assert "0x1::event::EventHandle<0x1::account::CoinRegisterEvent>" in texts
    copies = value.locator("td.lk-kind-move button.lk-copy").evaluate_all(
        "(all) => all.map((b) => b.dataset.value)"
    )
    assert copies == texts
    _nothing_cut_unread(explorer, width)


def _dashboard(page: Page, width: int) -> None:
    dashboard = page.locator(".lk-gas-dashboard")
    dashboard.scroll_into_view_if_needed()
    grid = dashboard.locator(".lk-grid-root").first
    expect(grid.locator("tr.lk-row").first).to_be_visible(timeout=ANSWER_MS)
    output = page.locator(".jp-OutputArea-output").filter(has=dashboard)
    assert _within(grid.locator(".lk-grid-scroll"), output)
    expect(grid.locator("th[data-name=version]")).to_have_attribute("aria-sort", "descending")
    versions = [int(v) for v in grid.locator("td.lk-kind-version").all_inner_texts()]
    assert versions == sorted(versions, reverse=True)
    functions = grid.locator("td.lk-kind-move .lk-value")
    titles = functions.evaluate_all("(all) => all.map((e) => e.title)")
    assert any(title.startswith("0x1::aptos_account::transfer") for title in titles)
    # With room for it (1400 px, beside the file browser), no function is cut; narrower,
    # the Function column gives way before the numbers after it (read whole in its
    # tooltip, checked below).
    if width >= 1400:
        cut = functions.evaluate_all(
            "(all) => all.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.title)"
        )
        assert cut == [], f"at {width} px"
    _nothing_cut_unread(dashboard, width)


def test_the_explorers_fit_jupyterlab_s_panel_and_every_cut_value_reads_whole(
    page: Page, lab: LabServer, blocked_requests: list[str], page_errors: list[str]
) -> None:
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    run_notebook(page, lab)
    explorer = page.locator(".lk-account-explorer")
    expect(explorer).to_be_visible(timeout=VISIBLE_MS)
    expect(page.locator(".lk-gas-dashboard")).to_be_visible(timeout=VISIBLE_MS)
    light = page.evaluate("document.body.dataset.jpThemeLight")
    assert light == ("true" if lab.theme == "light" else "false")
    assert page.locator(".jp-FileBrowser").is_visible()  # the sidebar takes its room
    output = page.locator(".jp-OutputArea-output").filter(has=explorer)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        explorer.scroll_into_view_if_needed()
        _overview(explorer, width)
        _transactions(page, explorer, output, width)
        _resources(explorer, width)
        labels = explorer.locator(".lm-TabBar-tabLabel")
        assert (
            labels.evaluate_all(
                "(all) => all.filter((e) => e.scrollWidth > e.clientWidth + 1).length"
            )
            == 0
        )
        _dashboard(page, width)
    # The file browser closed: the grids take the room it leaves, laid out again.
    _tab(explorer, "Transactions")
    txns = _grid(explorer, "touched the account")
    scroll = txns.locator(".lk-grid-scroll")
    before = scroll.evaluate("(s) => s.clientWidth")
    page.evaluate("jupyterapp.commands.execute('application:toggle-left-area')")
    expect(page.locator(".jp-FileBrowser")).to_be_hidden()
    page.wait_for_function(
        "([s, w]) => s.clientWidth > w + 200", arg=[scroll.element_handle(), before]
    )
    wider = scroll.evaluate("(s) => s.clientWidth")
    expect(txns).to_have_attribute("style", re.compile(rf"--lk-view-width: {wider}px"))
    assert _within(scroll, output)
    assert page_errors == []
    assert blocked_requests == []
