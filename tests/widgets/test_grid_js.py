"""The grid's ES module in a real browser, without Jupyter.

A page served from 127.0.0.1 imports the grid's module, as ledgerkit composes it from
``grid.js`` and the modules beside it, and renders it with a stub model
(``get``/``set``/``on``/``off``/``send``/``save_changes``). The kernel's side is a real
:class:`LedgerGrid`: what the view sends is handed to it, and its state is set back on
the stub model, as the widget manager would. Every request that does not go to
127.0.0.1 is blocked and recorded; none may be attempted.

Needs Debian's chromium at ``/usr/bin/chromium``: skipped without it, except in CI
(``CI=true``), where a missing browser fails.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from ledgerkit import Address, TransportError
from ledgerkit.widgets import Column, GridPage, LedgerGrid
from ledgerkit.widgets import _grid as grid_module
from ledgerkit.widgets._front_end import compose_module
from ledgerkit.widgets._sources import ListSource

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The traits the view reads (the rest of the state is the widget manager's business).
SYNCED = (
    "columns",
    "rows",
    "page",
    "page_size",
    "total",
    "more",
    "query",
    "selected_index",
    "loading",
    "error",
    "title",
    "searchable",
    "sortable",
    "sort",
    "activatable",
    "opens_on_click",
    "detail",
)

PAGE = """<!doctype html>
<html>
<head><meta charset="utf-8"><title>grid</title><link rel="stylesheet" href="grid.css"></head>
<body>
<div id="host"></div>
<script type="module">
import widget from "./grid.js";

const state = {};
const listeners = {};
window.sent = [];
const fire = (name) => (listeners["change:" + name] || []).slice().forEach((f) => f());
const model = {
  get: (name) => state[name],
  set: (name, value) => { state[name] = value; fire(name); },
  on: (name, f) => { (listeners[name] = listeners[name] || []).push(f); },
  off: (name, f) => { listeners[name] = (listeners[name] || []).filter((g) => g !== f); },
  send: (message) => { window.sent.push(JSON.parse(JSON.stringify(message))); },
  save_changes: () => {},
};
// As a widget manager applies a state update: every value first, then the events.
window.update = (changes) => {
  const changed = Object.keys(changes).filter(
    (name) => JSON.stringify(state[name]) !== JSON.stringify(changes[name]));
  Object.assign(state, changes);
  changed.forEach(fire);
};
window.start = (initial) => {
  Object.assign(state, initial);
  window.cleanup = widget.render({ model, el: document.getElementById("host") });
};
window.loaded = true;
</script>
</body>
</html>
"""


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if _in_ci():
            pytest.fail(f"CI=true but {CHROMIUM} is missing: apt-get install chromium")
        pytest.skip(f"{CHROMIUM} is not installed (Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An HTTP server on 127.0.0.1 serving the test page, and the grid's module and style
    sheet as the widget sends them (composed from the files of ``static/``)."""
    root = tmp_path_factory.mktemp("grid-page")
    (root / "index.html").write_text(PAGE, "utf-8")
    (root / "grid.js").write_text(LedgerGrid._esm, "utf-8")
    (root / "grid.css").write_text(LedgerGrid._css, "utf-8")
    static = Path(grid_module.__file__).parent / "static"
    (root / "fit.js").write_text(compose_module(static, "grid-fit.js"), "utf-8")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


ROWS = [
    {
        "n": n,
        "name": f"item{n}",
        "owner": Address.from_int(0xABCDEF << 200 | n),
        "balance": 2**64 - 1 - n,
    }
    for n in range(45)
]
COLUMNS = [
    Column("n", "No.", "int"),
    Column("name"),
    Column("owner", kind="address"),
    Column("balance", kind="int"),
]


class Listing:
    def __init__(self) -> None:
        self.fail: Exception | None = None

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        if self.fail is not None:
            raise self.fail
        matching = [row for row in ROWS if query in str(row["name"])]
        return GridPage(matching[page * size : (page + 1) * size], total=len(matching))


class Session:
    """The page in the browser and the grid in the kernel, joined by :meth:`pump`."""

    def __init__(self, page: Any, grid: LedgerGrid, source: Listing) -> None:
        self.page = page
        self.grid = grid
        self.source = source

    def state(self) -> dict[str, Any]:
        return {name: getattr(self.grid, name) for name in SYNCED}

    def sent(self) -> list[dict[str, Any]]:
        """What the view has sent so far."""
        messages: list[dict[str, Any]] = self.page.evaluate("window.sent")
        return messages

    def pump(self) -> list[dict[str, Any]]:
        """Deliver what the view sent to the grid, then show the grid's state in the view."""
        messages: list[dict[str, Any]] = self.page.evaluate("window.sent.splice(0)")
        for message in messages:
            self.grid._handle_custom_msg(message, [])
        self.page.evaluate("(state) => window.update(state)", json.loads(json.dumps(self.state())))
        return messages

    def rows(self) -> Any:
        return self.page.locator("table.lk-grid tbody tr.lk-row")

    def selected(self) -> Any:
        return self.page.locator("table.lk-grid tbody tr.lk-selected")

    def status(self) -> str:
        text: str = self.page.locator(".lk-grid-status").inner_text()
        return text


def guarded_context(browser: Any) -> tuple[Any, list[str]]:
    """A browser context whose requests away from 127.0.0.1 are blocked, and their list."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    blocked: list[str] = []

    def only_here(route: Any) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_here)
    return context, blocked


@pytest.fixture
def session(chromium: Any, origin: str) -> Iterator[Session]:
    context, blocked = guarded_context(chromium)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{origin}/index.html")
    page.wait_for_function("window.loaded === true")
    source = Listing()
    grid = LedgerGrid(source, COLUMNS, title="Items", page_size=20)
    session = Session(page, grid, source)
    page.evaluate("(state) => window.start(state)", json.loads(json.dumps(session.state())))
    try:
        yield session
    finally:
        grid.layout.close()
        grid.close()
        context.close()
    assert not errors, errors
    assert not blocked, f"requests away from 127.0.0.1: {blocked}"


def test_the_page_renders_with_title_header_rows_and_pager(session: Session) -> None:
    page = session.page
    assert page.locator(".lk-grid-title").inner_text() == "Items"
    headers = page.locator("table.lk-grid thead th[data-name]").all_inner_texts()
    assert headers == ["No.", "name", "owner", "balance"]
    assert session.rows().count() == 20
    first = session.rows().nth(0).locator("td.lk-cell")
    assert first.nth(0).inner_text() == "0"
    assert first.nth(3).inner_text() == "18,446,744,073,709,551,615"  # exact: it came as text
    owner = first.nth(2).locator(".lk-value")
    full = ROWS[0]["owner"].long
    assert owner.inner_text() == f"{full[:6]}…{full[-4:]}"
    assert owner.get_attribute("title") == full
    assert session.status() == "page 1 of 3 · 45 rows"
    assert page.locator(".lk-grid-prev").is_disabled()
    assert page.locator(".lk-grid-next").is_enabled()
    assert page.locator(".lk-grid-size").input_value() == "20"
    assert not page.locator(".lk-grid-error").is_visible()
    assert session.selected().count() == 0


def test_a_click_selects_and_the_selection_comes_back_from_the_kernel(session: Session) -> None:
    session.rows().nth(3).locator("td.lk-cell").nth(1).click()
    assert session.sent() == [{"type": "select", "index": 3}]
    assert session.selected().get_attribute("data-index") == "3"
    assert session.rows().nth(3).get_attribute("aria-selected") == "true"
    session.pump()
    assert session.grid.selected is ROWS[3]
    assert session.selected().get_attribute("data-index") == "3"


def test_arrow_keys_move_the_selection_and_enter_activates(session: Session) -> None:
    activated: list[tuple[Any, str]] = []
    session.grid.on_activate(lambda row, column: activated.append((row, column)))
    session.pump()  # the view learns that the grid activates rows
    table = session.page.locator("table.lk-grid")
    table.focus()
    keyboard = session.page.keyboard
    keyboard.press("ArrowDown")
    keyboard.press("ArrowDown")
    keyboard.press("ArrowDown")
    keyboard.press("ArrowUp")
    keyboard.press("ArrowRight")
    keyboard.press("ArrowRight")
    keyboard.press("Enter")
    assert session.sent() == [
        {"type": "select", "index": 0},
        {"type": "select", "index": 1},
        {"type": "select", "index": 2},
        {"type": "select", "index": 1},
        {"type": "activate", "index": 1, "column": "owner"},
    ]
    assert session.selected().get_attribute("data-index") == "1"
    assert session.selected().locator("td.lk-focus").count() == 1
    assert session.selected().locator("td.lk-focus").get_attribute("class") == (
        "lk-cell lk-kind-address lk-focus"
    )
    session.pump()
    assert activated == [(ROWS[1], "owner")]
    keyboard.press("End")
    assert session.selected().get_attribute("data-index") == "19"
    keyboard.press("Home")
    assert session.selected().get_attribute("data-index") == "0"


def test_a_double_click_activates_the_cell_clicked(session: Session) -> None:
    session.grid.on_activate(lambda row, column: None)
    session.pump()
    session.rows().nth(5).locator("td.lk-cell").nth(3).dblclick()
    assert session.sent() == [
        {"type": "select", "index": 5},
        {"type": "activate", "index": 5, "column": "balance"},
    ]


def test_a_list_whose_rows_open_opens_a_row_on_one_click(session: Session) -> None:
    session.grid.on_activate(lambda row, column: None)
    session.grid.opens_on_click = True
    session.pump()
    assert "lk-opens" in (session.page.locator(".lk-grid-root").get_attribute("class") or "")
    cell = session.rows().nth(4).locator("td.lk-cell").nth(1)
    assert cell.evaluate("(td) => getComputedStyle(td.parentElement).cursor") == "pointer"
    cell.click()
    assert session.sent() == [
        {"type": "select", "index": 4},
        {"type": "activate", "index": 4, "column": "name"},
    ]
    session.pump()
    session.rows().nth(6).locator("td.lk-cell").nth(1).dblclick()
    # A double-click (out of habit) opens the row once.
    assert session.pump() == [
        {"type": "select", "index": 6},
        {"type": "activate", "index": 6, "column": "name"},
    ]


def test_arrows_at_the_edges_and_page_keys_turn_pages(session: Session) -> None:
    session.page.locator("table.lk-grid").focus()
    keyboard = session.page.keyboard
    keyboard.press("End")
    session.pump()
    keyboard.press("ArrowDown")  # past the last row: the next page, its first row
    assert session.pump() == [{"type": "page", "page": 1, "select": "first"}]
    assert session.status() == "page 2 of 3 · 45 rows"
    assert session.selected().get_attribute("data-index") == "0"
    assert session.rows().nth(0).locator("td.lk-cell").nth(0).inner_text() == "20"
    keyboard.press("ArrowUp")  # above the first row: the previous page, its last row
    assert session.pump() == [{"type": "page", "page": 0, "select": "last"}]
    assert session.selected().get_attribute("data-index") == "19"
    keyboard.press("PageDown")
    keyboard.press("PageDown")
    session.pump()
    assert session.grid.page == 2
    assert session.selected().get_attribute("data-index") == "4"  # 5 rows on the last page
    assert session.page.locator(".lk-grid-next").is_disabled()
    keyboard.press("PageDown")  # no next page: nothing sent
    keyboard.press("PageUp")
    assert session.pump() == [{"type": "page", "page": 1, "select": 4}]


def test_the_pager_sends_page_and_size_messages(session: Session) -> None:
    page = session.page
    page.locator(".lk-grid-next").click()
    assert session.pump() == [{"type": "page", "page": 1}]
    assert session.status() == "page 2 of 3 · 45 rows"
    assert page.locator(".lk-grid-prev").is_enabled()
    page.locator(".lk-grid-prev").click()
    assert session.pump() == [{"type": "page", "page": 0}]
    page.locator(".lk-grid-size").select_option("50")
    assert session.pump() == [{"type": "size", "page_size": 50}]
    assert session.rows().count() == 45
    assert session.status() == "page 1 of 1 · 45 rows"
    assert page.locator(".lk-grid-next").is_disabled()


def test_typing_in_the_search_box_sends_one_search_after_a_pause(session: Session) -> None:
    page = session.page
    page.locator("table.lk-grid").focus()
    page.keyboard.press("/")  # focuses the search box
    assert page.evaluate("document.activeElement.className") == "lk-grid-search"
    page.keyboard.type("item1", delay=20)
    page.wait_for_function("window.sent.some((m) => m.type === 'search')")
    page.wait_for_timeout(400)
    assert session.pump() == [{"type": "search", "query": "item1"}]
    assert session.rows().count() == 11
    assert session.status() == "page 1 of 1 · 11 rows"
    page.keyboard.press("Escape")  # back to the table
    assert page.evaluate("document.activeElement.tagName") == "TABLE"


def test_an_error_is_shown_and_the_rows_stay(session: Session) -> None:
    session.source.fail = TransportError("connection refused")
    session.page.locator(".lk-grid-next").click()
    session.pump()
    error = session.page.locator(".lk-grid-error")
    assert error.is_visible()
    assert error.inner_text() == "⚠ Could not load page 2: TransportError: connection refused"
    assert error.get_attribute("role") == "alert"
    assert session.rows().count() == 20
    assert session.status() == "page 1 of 3 · 45 rows"
    session.source.fail = None
    session.page.locator(".lk-grid-next").click()
    session.pump()
    assert not error.is_visible()


def test_loading_disables_the_pager(session: Session) -> None:
    page = session.page
    page.evaluate("window.update({loading: true})")
    assert page.locator(".lk-grid-loading").is_visible()
    assert page.locator(".lk-grid-next").is_disabled()
    assert page.locator("table.lk-grid").get_attribute("aria-busy") == "true"
    page.evaluate("window.update({loading: false})")
    assert not page.locator(".lk-grid-loading").is_visible()
    assert page.locator(".lk-grid-next").is_enabled()


def test_the_copy_button_copies_the_full_value(session: Session) -> None:
    cell = session.rows().nth(2).locator("td.lk-cell").nth(2)
    cell.hover()
    cell.locator("button.lk-copy").click()
    assert session.page.evaluate("navigator.clipboard.readText()") == ROWS[2]["owner"].long
    assert cell.locator("button.lk-copy").inner_text() == "✓"
    assert session.sent() == []  # copying is not selecting


def test_colours_follow_the_notebook_theme_then_the_system(session: Session) -> None:
    page = session.page
    background = "getComputedStyle(document.querySelector('.lk-grid-root')).backgroundColor"
    page.emulate_media(color_scheme="light")
    assert page.evaluate(background) == "rgb(255, 255, 255)"
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(background) == "rgb(13, 17, 23)"
    page.evaluate("document.body.style.setProperty('--jp-layout-color1', 'rgb(1, 2, 3)')")
    assert page.evaluate(background) == "rgb(1, 2, 3)"


def test_the_view_cleans_up_its_listeners(session: Session) -> None:
    page = session.page
    page.evaluate("window.cleanup()")
    page.evaluate("window.update({error: 'after cleanup'})")
    assert not page.locator(".lk-grid-error").is_visible()


def test_the_guard_sees_a_request_away_from_this_host(chromium: Any, origin: str) -> None:
    context, blocked = guarded_context(chromium)
    try:
        page = context.new_page()
        page.goto(f"{origin}/index.html")
        page.evaluate("fetch('https://cdn.example.invalid/x.js').catch(() => null)")
        page.wait_for_function("true")
    finally:
        context.close()
    assert blocked == ["https://cdn.example.invalid/x.js"]


#: As anywidget loads a widget's module: from a ``blob:`` URL of its text.
IMPORT_TEXT = """async (text) => {
  const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  const module = await import(url);
  const shown = (value) => (typeof value === "function" ? "a function" : value);
  const members = Object.entries(module.default).map(([name, value]) => [name, shown(value)]);
  return { exports: Object.keys(module), members: Object.fromEntries(members) };
}"""


def _imported(chromium: Any, origin: str, text: str) -> Any:
    """What a page of ``origin`` gets by importing ``text`` as anywidget does."""
    context, blocked = guarded_context(chromium)
    try:
        page = context.new_page()
        page.goto(f"{origin}/index.html")
        page.wait_for_function("window.loaded === true")
        imported = page.evaluate(IMPORT_TEXT, text)
    finally:
        context.close()
    assert blocked == []
    return imported


def test_the_grid_module_loads_from_its_text_as_anywidget_loads_it(
    chromium: Any, origin: str
) -> None:
    imported = _imported(chromium, origin, LedgerGrid._esm)
    assert imported == {"exports": ["default"], "members": {"render": "a function"}}


def test_composed_files_stay_modules_of_their_own(
    chromium: Any, origin: str, tmp_path: Path
) -> None:
    files = {
        # Imported by two modules: evaluated once all the same, its constant its own.
        "shared.js": "globalThis.evaluations = (globalThis.evaluations || 0) + 1;\n"
        'const hidden = "shared";\nexport const one = 1;\n',
        "left.js": 'import { one } from "./shared.js";\nexport const left = one + 1;\n'
        "export const seen = typeof hidden;\n",
        "right.js": "export { one as right } from './shared.js';\n",
        "entry.js": 'import { left, seen } from "./left.js";\nimport { right } from "./right.js";\n'
        "const strict = (function () { return this === undefined; })();\n"
        "export default { left, right, seen, strict, evaluations: globalThis.evaluations };\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    imported = _imported(chromium, origin, compose_module(tmp_path, "entry.js"))
    assert imported == {
        "exports": ["default"],
        "members": {"left": 2, "right": 1, "seen": "undefined", "strict": True, "evaluations": 1},
    }


def test_a_grid_without_search_hides_the_box_and_ignores_the_slash(session: Session) -> None:
    page = session.page
    page.evaluate("window.update({searchable: false})")
    assert not page.locator(".lk-grid-search").is_visible()
    page.locator("table.lk-grid").focus()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.tagName") == "TABLE"


def test_a_double_click_selects_no_text(session: Session) -> None:
    session.rows().nth(1).locator("td.lk-cell").nth(3).dblclick()
    assert session.page.evaluate("String(window.getSelection())") == ""


# -- layout: widths, hidden columns, resizing, rows in full, sorting -------------------------

LONG = {"entries": [{"key": f"k{n}", "value": str(2**64 - 1 - n)} for n in range(60)]}
WIDE_ROWS = [
    {
        "version": 18_000_000_000 + n,
        "account": Address.from_int(0xABCDEF << 200 | n),
        "function": "0x1::primary_fungible_store::transfer_with_a_long_name",
        "amount": 2**64 - 1 - n,
        "data": LONG,
        "empty": None,
        "ok": n % 2 == 0,
    }
    for n in range(12)
]
WIDE_COLUMNS = [
    Column("version", "Version", "version"),
    Column("account", "Account", "address"),
    Column("function", "Function"),
    Column("amount", "Amount", "int"),
    Column("data", "Data", "json"),
    Column("empty", "Empty"),
    Column("ok", "OK", "bool"),
]
#: Whole in their cells at any width the tests try.
WHOLE = ("version", "account", "function", "amount", "ok")


def _open(chromium: Any, origin: str, grid: LedgerGrid, width: int) -> tuple[Session, Any]:
    context, _blocked = guarded_context(chromium)
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.set_default_timeout(10_000)
    page.goto(f"{origin}/index.html")
    page.wait_for_function("window.loaded === true")
    session = Session(page, grid, Listing())
    page.evaluate("(state) => window.start(state)", json.loads(json.dumps(session.state())))
    page.evaluate("document.fonts.ready")
    return session, context


@pytest.fixture(params=[1100, 1400], ids=lambda width: f"{width}px")
def wide(request: pytest.FixtureRequest, chromium: Any, origin: str) -> Iterator[Session]:
    grid = LedgerGrid(lambda p, s, q: GridPage(WIDE_ROWS, total=len(WIDE_ROWS)), WIDE_COLUMNS)
    session, context = _open(chromium, origin, grid, request.param)
    try:
        yield session
    finally:
        grid.close()
        context.close()


def _cut(cell: Any) -> bool:
    """Whether the text of a cell is cut by its width (an ellipsis shows)."""
    cut: bool = cell.evaluate("(td) => td.scrollWidth > td.clientWidth")
    return cut


def _width(locator: Any) -> float:
    box = locator.bounding_box()
    assert box is not None
    return float(box["width"])


def test_columns_fit_the_widget_and_key_values_are_whole(wide: Session) -> None:
    page = wide.page
    scroll = page.locator(".lk-grid-scroll")
    assert scroll.evaluate("(s) => s.scrollWidth <= s.clientWidth")  # nothing off to the right
    for name in WHOLE:
        cells = page.locator(f"tbody tr.lk-row td.lk-cell:nth-child({_index(page, name) + 1})")
        assert cells.count() == len(WIDE_ROWS)
        assert not any(_cut(cells.nth(i)) for i in range(cells.count())), name
    amount = page.locator("tbody tr.lk-row").first.locator("td.lk-cell").nth(3)
    assert amount.inner_text() == "18,446,744,073,709,551,615"
    # The long JSON is cut, beyond a readable width, and the last column is in view.
    data = page.locator("th[data-name=data]")
    assert _width(data) >= 96
    assert _cut(page.locator("tbody tr.lk-row").first.locator("td.lk-cell").nth(4))
    ok = page.locator("th[data-name=ok]").bounding_box()
    frame = scroll.bounding_box()
    assert ok is not None
    assert frame is not None
    assert ok["x"] + ok["width"] <= frame["x"] + frame["width"]


def _index(page: Any, name: str) -> int:
    """The position of a column's cells in a row (the toggle comes first)."""
    names: list[str] = page.locator("thead th").evaluate_all(
        "(ths) => ths.map((th) => th.dataset.name || '')"
    )
    return names.index(name)


def test_a_column_empty_on_the_page_is_hidden_and_said(wide: Session) -> None:
    page = wide.page
    assert page.locator("th[data-name=empty]").count() == 0
    note = page.locator(".lk-grid-hidden")
    assert note.inner_text() == "1 empty column hidden"
    assert note.get_attribute("title") == "Empty"


def _drag(page: Any, handle: Any, dx: float) -> None:
    """Drag ``handle`` ``dx`` pixels to the right with the mouse, from its middle."""
    box = handle.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y, steps=6)
    page.mouse.up()


def test_a_header_edge_dragged_resizes_and_a_double_click_fits_again(wide: Session) -> None:
    page = wide.page
    header = page.locator("th[data-name=function]")
    fitted = _width(header)
    handle = header.locator(".lk-resize")
    _drag(page, handle, 120)
    assert abs(_width(header) - (fitted + 120)) <= 2
    assert wide.sent() == []  # resizing is the view's own business
    handle.dblclick()
    assert abs(_width(header) - fitted) <= 1


def test_keys_on_a_header_edge_go_on_from_a_dragged_width(wide: Session) -> None:
    page = wide.page
    header = page.locator("th[data-name=function]")
    handle = header.locator(".lk-resize")
    _drag(page, handle, 60)
    dragged = round(_width(header))
    assert handle.get_attribute("aria-valuenow") == str(dragged)
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert round(_width(header)) == dragged + 20  # two steps of 10 pixels
    assert handle.get_attribute("aria-valuenow") == str(dragged + 20)
    page.keyboard.press("Shift+ArrowLeft")
    assert round(_width(header)) == dragged - 30  # and one of 50
    page.keyboard.press("Home")
    assert round(_width(header)) == 32
    page.keyboard.press("Enter")
    fitted = round(_width(header))
    assert handle.get_attribute("aria-valuenow") == str(fitted)
    handle.dblclick()  # fitted already: a double-click changes nothing
    assert round(_width(header)) == fitted
    assert wide.sent() == []  # the view's own business, from the keyboard too


def test_keys_on_a_header_edge_leave_the_rows_keys_alone(wide: Session) -> None:
    page = wide.page
    page.locator("th[data-name=amount] .lk-resize").focus()
    for key in ("ArrowDown", "End", "Enter", " "):
        page.keyboard.press(key)
    assert wide.sent() == []
    assert wide.selected().count() == 0
    assert page.locator("tr.lk-detail").count() == 0


def test_a_width_chosen_is_not_stretched_to_fill_the_widget(chromium: Any, origin: str) -> None:
    numbers = [{"n": n, "square": n * n} for n in range(5)]
    grid = LedgerGrid(
        lambda p, s, q: GridPage(numbers, total=len(numbers)),
        [Column("n", kind="int"), Column("square", kind="int")],
    )
    session, context = _open(chromium, origin, grid, 1100)
    try:
        page = session.page
        last = page.locator("th[data-name=square]")
        assert _width(last) > 500  # the last column takes the widget's spare width...
        last.locator(".lk-resize").focus()
        page.keyboard.press("Home")
        assert round(_width(last)) == 32  # ...until its width is chosen
        assert last.locator(".lk-resize").get_attribute("aria-valuenow") == "32"
        page.keyboard.press("Enter")
        assert _width(last) > 500
        # A column narrower than 32 pixels by its content ("n", one digit) is not
        # widened by the keys that narrow it.
        first = page.locator("th[data-name=n]")
        narrow = round(_width(first))
        assert narrow < 32
        edge = first.locator(".lk-resize")
        assert edge.get_attribute("aria-valuemin") == str(narrow)
        edge.focus()
        page.keyboard.press("Home")
        page.keyboard.press("ArrowLeft")
        assert round(_width(first)) == narrow
        page.keyboard.press("ArrowRight")
        assert round(_width(first)) == narrow + 10
    finally:
        grid.close()
        context.close()


def test_space_shows_a_row_in_full_with_its_tree_and_copy(wide: Session) -> None:
    page = wide.page
    page.locator("table.lk-grid").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press(" ")
    assert wide.pump() == [{"type": "select", "index": 0}, {"type": "expand", "index": 0}]
    detail = page.locator("tr.lk-detail")
    assert detail.count() == 1
    toggle = page.locator("tbody tr.lk-row").first.locator("button.lk-toggle")
    assert toggle.get_attribute("aria-expanded") == "true"
    data = detail.locator(".lk-field[data-name=data]")
    nodes = data.locator(".lk-node")
    assert nodes.count() == 1 + 60 * 3  # entries, then each entry and its two fields
    assert nodes.nth(0).inner_text() == "entries:"
    assert nodes.nth(3).inner_text() == "value: 18446744073709551615"
    assert nodes.last.inner_text() == f"value: {2**64 - 1 - 59}"
    assert not any(_cut(nodes.nth(i)) for i in (0, 3, nodes.count() - 1))
    copied = data.locator("button.lk-copy").get_attribute("data-value")
    assert copied is not None
    assert json.loads(copied) == LONG
    assert data.evaluate("(d) => getComputedStyle(d).userSelect") in ("text", "auto")
    account = detail.locator(".lk-field[data-name=account] .lk-field-text")
    assert account.inner_text() == WIDE_ROWS[0]["account"].long  # type: ignore[attr-defined]
    body = detail.locator(".lk-detail-body").bounding_box()
    frame = page.locator(".lk-grid-scroll").bounding_box()
    assert body is not None
    assert frame is not None
    assert body["x"] + body["width"] <= frame["x"] + frame["width"] + 1
    page.keyboard.press(" ")  # again: closed
    wide.pump()
    assert page.locator("tr.lk-detail").count() == 0


def test_the_toggle_and_enter_expand_when_rows_open_nothing(wide: Session) -> None:
    page = wide.page
    page.locator("tbody tr.lk-row").nth(2).locator("button.lk-toggle").click()
    assert wide.pump() == [{"type": "select", "index": 2}, {"type": "expand", "index": 2}]
    assert page.locator("tr.lk-detail").count() == 1
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # nothing is activated on Enter in this grid: it expands
    assert wide.pump() == [{"type": "select", "index": 3}, {"type": "expand", "index": 3}]
    assert page.locator("tbody tr.lk-row").nth(3).locator("button.lk-toggle").get_attribute(
        "aria-expanded"
    ) == ("true")
    page.keyboard.press("Escape")
    assert wide.pump() == [{"type": "collapse"}]
    assert page.locator("tr.lk-detail").count() == 0


def test_a_sortable_header_is_a_button_that_asks_the_kernel(chromium: Any, origin: str) -> None:
    grid = LedgerGrid(ListSource(WIDE_ROWS), WIDE_COLUMNS, sortable=True)
    session, context = _open(chromium, origin, grid, 1100)
    try:
        page = session.page
        page.locator("th[data-name=amount] button.lk-sort").click()
        assert session.pump() == [{"type": "sort", "column": "amount"}]
        header = page.locator("th[data-name=amount]")
        assert header.get_attribute("aria-sort") == "ascending"
        assert header.inner_text() == "Amount ▲"
        assert page.locator("tbody tr.lk-row").first.locator("td.lk-cell").nth(3).inner_text() == (
            f"{2**64 - 1 - 11:,}"
        )
        page.locator("th[data-name=amount] button.lk-sort").focus()
        page.keyboard.press("Enter")  # a header is reached and pressed from the keyboard too
        session.pump()
        assert header.get_attribute("aria-sort") == "descending"
        # Drawn again, the header keeps the focus: Enter sorts the other way again.
        assert page.evaluate("document.activeElement.dataset.name") == "amount"
        page.keyboard.press("Enter")
        session.pump()
        assert header.get_attribute("aria-sort") == "ascending"
        page.keyboard.press("Tab")  # then its edge
        edge = page.locator("th[data-name=amount] .lk-resize")
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
            "Resize column Amount"
        )
        width = round(_width(header))
        page.keyboard.press("ArrowRight")
        assert edge.get_attribute("aria-valuenow") == str(width + 10)
        assert session.sent() == []
    finally:
        grid.close()
        context.close()


# -- the give-way order, as arithmetic: grid-fit.js alone ---------------------------------

#: Columns as the view hands them over, and their widths with nothing cut (the toggle's first).
GIVING = [
    {"name": "version", "kind": "version"},
    {"name": "data", "kind": "json"},
    {"name": "name", "kind": "text"},
    {"name": "time", "kind": "time"},
    {"name": "role", "kind": "text", "keep": True},
]
NATURAL = [24, 60, 300, 250, 200, 150]  # 984 pixels in all


def _lay(chromium: Any, origin: str, available: int, chosen: dict[str, int]) -> Any:
    context, _blocked = guarded_context(chromium)
    try:
        page = context.new_page()
        page.goto(f"{origin}/index.html")
        return page.evaluate(
            """async ([columns, natural, available, chosen]) => {
                const { layColumns } = (await import("./fit.js")).default;
                return layColumns(columns, natural, available, chosen);
            }""",
            [GIVING, NATURAL, available, chosen],
        )
    finally:
        context.close()


def test_json_gives_way_first_then_text_kept_columns_and_numbers_never(
    chromium: Any, origin: str
) -> None:
    # 284 pixels too wide: the JSON down to 96 (204 taken), then the text (80 more).
    laid = _lay(chromium, origin, 700, {})
    assert laid["widths"] == [24, 60, 96, 170, 200, 150]
    assert laid["overflow"] == 0


def test_a_time_gives_way_only_when_the_table_then_fits(chromium: Any, origin: str) -> None:
    # 454 too wide: JSON and text down to 96 leave 96, which the time (104 to give) takes.
    fits = _lay(chromium, origin, 530, {})
    assert fits["widths"] == [24, 60, 96, 96, 104, 150]
    assert fits["overflow"] == 0
    # 484 too wide: 126 left, more than the time can give; it stays whole, the rest scrolls.
    scrolls = _lay(chromium, origin, 500, {})
    assert scrolls["widths"] == [24, 60, 96, 96, 200, 150]
    assert scrolls["overflow"] == 126


def test_a_width_the_reader_chose_does_not_give_way(chromium: Any, origin: str) -> None:
    laid = _lay(chromium, origin, 700, {"name": 260, "version": 40})
    # 274 too wide: the JSON down to 96 (204), the chosen text kept, the time the 70 left.
    assert laid["widths"] == [24, 40, 96, 260, 130, 150]
    assert laid["overflow"] == 0


def test_every_cut_cell_shows_its_whole_value_in_its_tooltip(chromium: Any, origin: str) -> None:
    rows = [
        {"version": 7, "function": "0x1::coin::transfer", "type": "0x" + "5a" * 32 + "::b::B<u8>"},
        {"version": 8, "function": "f", "type": "0x1::m::T"},
    ]
    grid = LedgerGrid(
        lambda p, s, q: GridPage(rows, total=len(rows)),
        [
            Column("version", "Version", "version"),
            Column("function", "Function"),
            Column("type", "Type", "move"),
            Column("pad", "Pad", "int"),
        ],
    )
    session, context = _open(chromium, origin, grid, 1100)
    try:
        page = session.page
        # A Move type in its short form, its long address shortened, whole in its title.
        short = page.locator("tbody tr.lk-row").first.locator("td.lk-kind-move .lk-value")
        assert short.inner_text() == "0x5a5a…5a5a::b::B<u8>"
        assert short.get_attribute("title") == "0x" + "5a" * 32 + "::b::B<u8>"
        function = page.locator("th[data-name=function] .lk-resize")
        function.focus()
        page.keyboard.press("Home")  # 32 pixels: "0x1::coin::transfer" (19 letters) is cut
        cut = page.locator("tbody tr.lk-row").first.locator("td.lk-cell").nth(1)
        assert _cut(cut)
        assert cut.get_attribute("title") == "0x1::coin::transfer"
        whole = page.locator("tbody tr.lk-row").nth(1).locator("td.lk-cell").nth(1)
        assert not _cut(whole)  # "f" fits: no tooltip
        assert whole.get_attribute("title") is None
        assert page.locator("th[data-name=function]").get_attribute("title") == "Function"
        page.keyboard.press("Enter")  # fitted again: nothing cut, no tooltip left
        assert cut.get_attribute("title") is None
    finally:
        grid.close()
        context.close()


def test_the_widest_give_way_together_and_a_move_cell_keeps_room_for_its_copy_button(
    chromium: Any, origin: str
) -> None:
    context, _blocked = guarded_context(chromium)
    try:
        page = context.new_page()
        page.goto(f"{origin}/index.html")
        laid = page.evaluate(
            """async () => {
                const { layColumns } = (await import("./fit.js")).default;
                const columns = [
                    { name: "a", kind: "text" },
                    { name: "b", kind: "text" },
                    { name: "f", kind: "move" },
                ];
                return layColumns(columns, [24, 250, 200, 300], 380);
            }"""
        )
    finally:
        context.close()
    # Capped at 228 (six tenths of 380), 300 too wide: the widest come down together (to
    # 200, then all three to 122), the text then to 117 while the Move column stops at its
    # floor, 122 (96 of text and 26 for its copy button).
    assert laid["widths"] == [24, 117, 117, 122]
    assert laid["overflow"] == 0
