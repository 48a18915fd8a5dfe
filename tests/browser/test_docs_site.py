"""The docs site in a real browser: every page opens in chromium without a console error,
every link to a page or an anchor of the site lands, and nothing is asked of another host;
served by the local docs host too, at its page paths.

The site is the one ``make docs`` built when it is newer than everything it is built from
(``make test`` builds it just before); otherwise it is built once for the session, into a
temporary directory, with the same options (warnings are errors); see ``conftest.py``. A
static server on 127.0.0.1 serves it, as any static host would.
"""

from __future__ import annotations

import functools
import html
import importlib
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

import pytest
import uvicorn
from browser_harness import REPO
from playwright.sync_api import ConsoleMessage, Page

from ledgerkit.localnet.services import BuiltSite, PageStore, create_docs_app

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

DOCS: Final = REPO / "docs"
PAGE_TIMEOUT_MS: Final = 30_000
#: An element id in a page (what a ``#fragment`` lands on).
ELEMENT_ID: Final = re.compile(r"""\sid=["']([^"']*)["']""")
#: A resource from another host named by a script or a style sheet link.
EXTERNAL_ASSET: Final = re.compile(r"""<(?:script|link)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""")


def site_pages(site: Path) -> list[str]:
    """The site's pages, as paths from its root (``api/index.html``)."""
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if not path.relative_to(site).parts[0].startswith("_")  # _static: the theme's files
    )


@functools.cache
def element_ids(page: Path) -> frozenset[str]:
    return frozenset(html.unescape(found) for found in ELEMENT_ID.findall(page.read_text("utf-8")))


def broken_link(site: Path, origin: str, href: str) -> str | None:
    """Why a link of the site does not land (None when it does or leads elsewhere)."""
    parts = urlsplit(href)
    if f"{parts.scheme}://{parts.netloc}" != origin:
        return None
    path = unquote(parts.path).lstrip("/")
    target = site / path
    if not path or path.endswith("/"):
        target = target / "index.html"
    if not target.is_file():
        return f"{href}: no file {target.relative_to(site)}"
    fragment = unquote(parts.fragment)
    if fragment and target.suffix == ".html" and fragment not in element_ids(target):
        return f"{href}: no element #{fragment} in {target.relative_to(site)}"
    return None


# -- what the site holds ---------------------------------------------------------------------


def test_the_site_has_every_part(docs_site: Path) -> None:
    pages = set(site_pages(docs_site))
    guides = {f"{path.stem}.html" for path in DOCS.glob("*.md")}
    notebooks = {f"notebooks/{path.stem}.html" for path in (REPO / "notebooks").glob("*.ipynb")}
    assert {"index.html", "getting-started.html", "contributing.html"} <= guides
    assert notebooks
    assert guides | notebooks | {"api/index.html", "api/dtypes.html", "search.html"} <= pages
    for notebook in notebooks:  # shown with their committed outputs
        assert 'class="cell_output' in (docs_site / notebook).read_text("utf-8"), notebook
    shots = sorted(path.name for path in (DOCS / "_static" / "screenshots").glob("*.png"))
    widgets = (docs_site / "widgets.html").read_text("utf-8")
    assert shots
    assert all(shot in widgets for shot in shots)


def test_the_api_reference_documents_every_name_of_the_front_door(docs_site: Path) -> None:
    ledgerkit = importlib.import_module("ledgerkit")
    ids = element_ids(docs_site / "api" / "index.html")
    missing = [name for name in ledgerkit.__all__ if f"ledgerkit.{name}" not in ids]
    assert missing == ["__version__"]
    # Shown by the names users import: ``class ledgerkit.Client``.
    assert "ledgerkit.Client.transactions" in ids
    assert "ledgerkit.frames.TRANSACTION_COLUMNS" in element_ids(docs_site / "api" / "frames.html")


def test_the_dtype_page_lists_every_frames_columns(docs_site: Path) -> None:
    frames = importlib.import_module("ledgerkit.frames")
    text = (docs_site / "api" / "dtypes.html").read_text("utf-8")
    constants = [name for name in frames.__all__ if name.endswith("_COLUMNS")]
    assert constants
    assert [name for name in constants if f'<span class="pre">{name}</span>' not in text] == []
    assert "UInt64" in text
    assert '<span class="pre">datetime64[us,</span>' in text


def test_no_page_names_a_script_or_style_sheet_of_another_host(docs_site: Path) -> None:
    offending = [
        page
        for page in site_pages(docs_site)
        if EXTERNAL_ASSET.search((docs_site / page).read_text("utf-8"))
    ]
    assert offending == []


# -- in the browser --------------------------------------------------------------------------


def test_every_page_opens_cleanly_and_its_links_land(
    chromium: Path,
    docs_site: Path,
    site_server: tuple[str, list[str]],
    page: Page,
    blocked_requests: list[str],
    page_errors: list[str],
) -> None:
    origin, failures = site_server
    console_errors: list[str] = []
    current = [""]

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            console_errors.append(f"{current[0]}: {message.text}")

    page.on("console", on_console)
    broken: list[str] = []
    pages = site_pages(docs_site)
    for path in pages:
        current[0] = path
        answer = page.goto(f"{origin}/{path}", wait_until="load", timeout=PAGE_TIMEOUT_MS)
        assert answer is not None
        assert answer.status == 200, path
        hrefs: list[str] = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        sources: list[str] = page.eval_on_selector_all("img[src]", "imgs => imgs.map(i => i.src)")
        for href in {*hrefs, *sources}:
            why = broken_link(docs_site, origin, href)
            if why:
                broken.append(f"{path}: {why}")
    assert len(pages) > 20
    found = {
        "broken links": broken,
        "console errors": console_errors,
        "uncaught errors": page_errors,
        "failed requests": failures,  # any script, style sheet, font or image asked for
        "requests to other hosts": blocked_requests,
    }
    assert found == {name: [] for name in found}


@pytest.fixture(scope="module")
def docs_host(docs_site: Path) -> Iterator[str]:
    """The local docs host serving the built site, on a uvicorn server of 127.0.0.1."""
    issuer = "http://127.0.0.1:9/project"
    app = create_docs_app(
        authorization_servers=[issuer],
        project_issuer_metadata=lambda: {"issuer": issuer},
        site=BuiltSite(docs_site),
    )
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    origin = f"http://127.0.0.1:{listener.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the docs host did not start"
        time.sleep(0.01)
    yield origin
    server.should_exit = True
    thread.join(10)
    listener.close()


def test_the_docs_host_serves_the_site_at_its_page_paths(
    chromium: Path,
    docs_host: str,
    page: Page,
    blocked_requests: list[str],
    page_errors: list[str],
) -> None:
    failed: list[str] = []
    console_errors: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    names = [p.name for p in PageStore.bundled()]
    visited = []
    checked: set[str] = set()
    for name in names:
        path = "/" if name == "index" else f"/{name}"
        answer = page.goto(f"{docs_host}{path}", wait_until="load", timeout=PAGE_TIMEOUT_MS)
        assert answer is not None
        assert answer.status == 200, path
        assert page.locator(".bd-header").count() == 1, path  # the site's page, not the plain one
        visited.append(path)
        # Its relative links lead to the site's files through the host.
        hrefs: list[str] = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        for href in sorted({h.split("#")[0] for h in hrefs if h.startswith(docs_host)} - checked):
            checked.add(href)
            status = page.request.head(href).status
            if status != 200:
                failed.append(f"{status} {path}: {href}")
    markdown = page.request.get(f"{docs_host}/client", headers={"Accept": "text/markdown"})
    assert markdown.text() == (DOCS / "client.md").read_text("utf-8")
    assert len(visited) == len(names)
    found = {
        "failed": failed,
        "console errors": console_errors,
        "uncaught errors": page_errors,
        "requests to other hosts": blocked_requests,
    }
    assert found == {name: [] for name in found}
