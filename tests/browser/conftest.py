"""Fixtures of the browser tests: Voilà serves a notebook, Playwright drives Debian's chromium.

``voila_page("probe.ipynb")`` is the usual entry: a Playwright page showing the notebook
rendered by Voilà, its cells run by a kernel that imports this checkout's ledgerkit, with
no error output. Every request the page makes beyond the loopback interface is aborted and
listed in ``blocked_requests``. ``save_screenshot(locator, name)`` keeps a PNG of one
element in ``$LEDGERKIT_SCREENSHOTS`` (pytest's temporary directory when unset).

Without ``/usr/bin/chromium`` the tests skip, except in CI (``CI=true``), where they fail:
``make test`` installs it with apt-get. They run serially: Voilà, a kernel and chromium
take the two cores of a CI machine.

The notebooks under ``notebooks/`` are served, not checked by nbval: ``collect_ignore``
keeps ``--nbval`` from running them as tests.

``docs_site`` is the built docs site (``make docs``'s when it is newer than everything it
is built from, else one built once for the session), and ``site_server`` serves it from
a static server on 127.0.0.1, as any static host would.
"""

from __future__ import annotations

import functools
import os
import re
import secrets
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Final

import pytest
from browser_harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS,
    REPO,
    SCREENSHOTS_ENV,
    OpenNotebook,
    SaveScreenshot,
    ServeNotebook,
    VoilaServer,
    in_ci,
    is_loopback,
)
from playwright.sync_api import (
    Browser,
    Locator,
    Page,
    Playwright,
    Route,
    WebSocketRoute,
    sync_playwright,
)

collect_ignore = ["notebooks"]

#: Bound on Voilà running the notebook and its frontend rendering the outputs.
RENDER_TIMEOUT_MS = 60_000
STDERR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
#: A safe file name for a screenshot.
SCREENSHOT_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's chromium; skips the test without it (fails in CI)."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    message = (
        f"{CHROMIUM} is missing: `make test` installs Debian's chromium "
        "(apt-get install chromium fonts-liberation)"
    )
    if in_ci():
        pytest.fail(f"CI=true but {message}")
    pytest.skip(message)


@pytest.fixture(scope="module")
def playwright(chromium: Path) -> Iterator[Playwright]:
    """Playwright's sync API, for one test module at a time.

    While it runs, Playwright marks its event loop as the thread's running loop, and
    ``asyncio.run()`` refuses to start: kept for the session, it would break the async
    tests that the random order runs after it. The order keeps a module's tests together.
    """
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="module")
def browser(playwright: Playwright, chromium: Path) -> Iterator[Browser]:
    """Headless chromium for the test module; each test gets a context of its own."""
    launched = playwright.chromium.launch(executable_path=str(chromium), args=list(CHROMIUM_ARGS))
    yield launched
    launched.close()


@pytest.fixture
def blocked_requests() -> list[str]:
    """The URLs the test's page asked beyond the loopback interface, all aborted."""
    return []


@pytest.fixture
def page_errors() -> list[str]:
    """The test's page's uncaught JavaScript errors, as their messages."""
    return []


@pytest.fixture
def page(browser: Browser, blocked_requests: list[str], page_errors: list[str]) -> Iterator[Page]:
    """A page in a fresh context whose requests may reach 127.0.0.1 and localhost only."""

    def route(request: Route) -> None:
        if is_loopback(request.request.url):
            request.continue_()
        else:
            blocked_requests.append(request.request.url)
            request.abort("blockedbyclient")

    def route_websocket(socket: WebSocketRoute) -> None:
        blocked_requests.append(socket.url)
        socket.close()

    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        service_workers="block",  # a service worker's requests would bypass the routes
    )
    context.route("**/*", route)
    context.route_web_socket(lambda url: not is_loopback(url), route_websocket)
    opened = context.new_page()
    opened.on("pageerror", lambda error: page_errors.append(f"{error.name}: {error.message}"))
    yield opened
    context.close()


@pytest.fixture(scope="session")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeNotebook]:
    """``voila(notebook)``: the running :class:`VoilaServer` of a notebook, started once
    per session (each page load runs the notebook in a new kernel). A bare file name is
    one of ``tests/browser/notebooks``; another relative path starts at the repository."""
    servers: dict[Path, VoilaServer] = {}

    def serve(notebook: str | Path) -> VoilaServer:
        path = Path(notebook)
        if not path.is_absolute():
            path = NOTEBOOKS / path if path.parent == Path() else REPO / path
        path = path.resolve()
        if path not in servers:
            server = VoilaServer(path, workdir=tmp_path_factory.mktemp(f"voila-{path.stem}"))
            servers[path] = server.start()
        return servers[path]

    try:
        yield serve
    finally:
        for server in servers.values():
            server.stop()


@pytest.fixture
def voila_page(page: Page, voila: ServeNotebook) -> Iterator[OpenNotebook]:
    """``voila_page(notebook, *, allow_stderr=False)``: ``page`` showing the notebook once
    Voilà has run it in a new kernel and its frontend has rendered the outputs.

    Fails if a cell wrote to stderr (a traceback, a warning) unless ``allow_stderr``.
    Leaving the page shuts its kernel down.
    """
    opened: list[Page] = []

    def open_notebook(notebook: str | Path, *, allow_stderr: bool = False) -> Page:
        server = voila(notebook)
        # The page shuts its kernel down with a beacon when it is left, signed with the
        # _xsrf cookie, which Voilà's own server never sets: without one, the beacon is
        # refused (403) and the kernel lives until Voilà stops.
        token = secrets.token_hex(16)
        page.context.add_cookies([{"name": "_xsrf", "value": token, "url": server.url}])
        page.goto(server.url, timeout=RENDER_TIMEOUT_MS)
        opened.append(page)
        # Voilà removes its spinner once its frontend has rendered the outputs.
        page.wait_for_selector("#loading", state="detached", timeout=RENDER_TIMEOUT_MS)
        errors = page.locator(STDERR_OUTPUT)
        if not allow_stderr and errors.count():
            texts = "\n".join(errors.all_inner_texts())
            pytest.fail(f"{server.notebook.name} wrote to stderr in Voilà:\n{texts}")
        return page

    yield open_notebook
    if opened:
        page.goto("about:blank")  # fires the beacon


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``$LEDGERKIT_SCREENSHOTS``, else ``screenshots/`` in pytest's temporary directory."""
    configured = os.environ.get(SCREENSHOTS_ENV)
    directory = Path(configured) if configured else tmp_path_factory.getbasetemp() / "screenshots"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture
def save_screenshot(screenshot_dir: Path) -> SaveScreenshot:
    """``save_screenshot(locator, name)``: ``<screenshot_dir>/<name>.png`` of one element,
    once the page's fonts have loaded; returns its path."""

    def save(locator: Locator, name: str) -> Path:
        if not SCREENSHOT_NAME.fullmatch(name):
            raise ValueError(f"screenshot name {name!r}: lowercase letters, digits, - and _")
        path = screenshot_dir / f"{name}.png"
        locator.page.evaluate("document.fonts.ready")
        locator.screenshot(path=path, animations="disabled")
        return path

    return save


# -- the docs site ---------------------------------------------------------------------------

DOCS: Final = REPO / "docs"
BUILT: Final = REPO / "build" / "docs"
#: What ``make docs`` touches once its build succeeded.
COMPLETE: Final = BUILT / "complete"
SPHINX_OPTIONS: Final = ("-b", "html", "-W", "--keep-going", "-n", "-E", "-q")
BUILD_TIMEOUT_SECONDS: Final = 600


def _inputs() -> Iterator[Path]:
    """Every file the site is built from: the docs, the notebooks, the package."""
    for root in (DOCS, REPO / "notebooks", REPO / "ledgerkit"):
        for folder, _, files in os.walk(root):
            for name in files:
                yield Path(folder, name)


def _fresh_build() -> Path | None:
    """``build/docs/html`` if ``make docs`` completed it after the last change of its inputs."""
    if not COMPLETE.is_file():
        return None
    built_at = COMPLETE.stat().st_mtime
    if any(path.stat().st_mtime > built_at for path in _inputs()):
        return None
    return BUILT / "html"


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: ``make docs``'s when fresh, else one built now."""
    fresh = _fresh_build()
    if fresh is not None:
        return fresh
    out = tmp_path_factory.mktemp("docs-site")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", "sphinx", *SPHINX_OPTIONS, "-d", str(out / "doctrees")]
    done = subprocess.run(
        [*command, str(DOCS), str(out / "html")],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=BUILD_TIMEOUT_SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"sphinx-build failed:\n{done.stderr[-5000:]}"
    return out / "html"


class _Quiet(SimpleHTTPRequestHandler):
    """Serves a directory without logging; records what it could not answer."""

    failures: list[str]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        self.failures.append(f"{code} {self.path}")
        super().send_error(code, message, explain)


@pytest.fixture(scope="session")
def site_server(docs_site: Path) -> Iterator[tuple[str, list[str]]]:
    """``(origin, failures)``: the site on a static server of 127.0.0.1, and the requests
    it answered with an error."""
    failures: list[str] = []
    handler = type("Handler", (_Quiet,), {"failures": failures})
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(docs_site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", failures
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
