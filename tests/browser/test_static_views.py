"""The widgets outside a kernel, in a real browser: the quickstart exported to HTML as
``make demo`` exports it, and the docs site's notebook pages, show each widget's static
view (the tables of what it showed) rather than a line of text, with nothing asked of
another host for it; a live frontend (Voilà) still renders the widget itself. Exported in
nbconvert's light and dark themes, the snapshot's text keeps WCAG AA contrast. And the
built site serves ``llms.txt`` and every page as Markdown, as its home page promises.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Final

import pytest
from browser_harness import REPO, OpenNotebook
from playwright.sync_api import Page, expect
from wcag import TEXT_ELEMENTS_JS, below_aa, luminance, parse_colour

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

QUICKSTART: Final = REPO / "notebooks" / "01-quickstart.ipynb"
#: What ``make demo`` adds to ``nbconvert --to html --execute`` (its ``NBCONVERT_STATIC``).
DEMO_OPTIONS: Final = (
    "--embed-images",
    "--ExecutePreprocessor.store_widget_state=False",
    f"--TemplateExporter.extra_template_basedirs={REPO / 'notebooks' / '_export'}",
    "--template",
    "offline",
)
EXPORT_TIMEOUT_SECONDS: Final = 600
PAGE_TIMEOUT_MS: Final = 30_000
VISIBLE_MS: Final = 120_000
WIDGET_VIEW: Final = "application/vnd.jupyter.widget-view+json"
#: Where a widget manager would come from, were the exported page to draw live widgets.
WIDGET_MANAGER: Final = re.compile(r"html-manager|@jupyter-widgets|jupyter-js-widgets")
#: A ``[Title](target)`` link of llms.txt.
LLMS_LINK: Final = re.compile(r"^- \[([^\]]+)\]\(([^)\s]+)\)(?:: (.+))?$", re.M)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _committed_chart_width() -> int:
    """The width of the gas chart's SVG in the committed notebook 01 (its outputs, which
    nbval checks): the exported page draws the same chart, so its image is that wide."""
    notebook = json.loads(QUICKSTART.read_text("utf-8"))
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            svg = output.get("data", {}).get("image/svg+xml")
            if svg:
                text = "".join(svg) if isinstance(svg, list) else svg
                found = re.search(r'<svg[^>]*\bwidth="(\d+)"', text)
                assert found, "the committed chart's SVG has no width"
                return int(found[1])
    raise AssertionError("notebook 01 has no chart drawn as SVG")


@pytest.fixture(scope="module")
def exported_quickstart(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The quickstart executed against the embedded node and exported to HTML, as
    ``make demo`` does, in a kernel importing this checkout and none of the user's
    Jupyter settings."""
    work = tmp_path_factory.mktemp("demo")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("JUPYTER_", "JPY_", "IPYTHON"))
        and key not in {"LEDGERKIT_NODE_URL", "LEDGERKIT_CACHE_DIR", "PYTHONSTARTUP"}
    }
    for variable in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[variable] = str(work / variable.lower())
    env["IPYTHONDIR"] = str(work / "ipython")
    env["LEDGERKIT_CACHE_DIR"] = str(work / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    out = work / "out"
    command = [
        sys.executable,
        "-m",
        "nbconvert",
        "--to",
        "html",
        "--execute",
        *DEMO_OPTIONS,
        "--output-dir",
        str(out),
        "--output",
        "quickstart",
        str(QUICKSTART),
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=work,
        env=env,
        timeout=EXPORT_TIMEOUT_SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"nbconvert failed:\n{done.stderr[-5000:]}"
    return out / "quickstart.html"


@contextlib.contextmanager
def _served(directory: Path) -> Iterator[str]:
    """``directory`` on a static server of 127.0.0.1, for as long as the block runs."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def demo_server(exported_quickstart: Path) -> Iterator[str]:
    """The exported page's directory on a static server of 127.0.0.1."""
    with _served(exported_quickstart.parent) as url:
        yield url


@pytest.fixture(scope="module")
def themed_exports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The quickstart with its committed outputs (not run again) exported as ``make demo``
    exports it, in nbconvert's light and dark themes (``quickstart-light.html``,
    ``quickstart-dark.html``), on a static server of 127.0.0.1."""
    work = tmp_path_factory.mktemp("themes")
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(("JUPYTER_", "JPY_"))
    }
    env["JUPYTER_CONFIG_DIR"] = str(work / "jupyter_config_dir")
    for theme in ("light", "dark"):
        command = [
            *(sys.executable, "-m", "nbconvert", "--to", "html", *DEMO_OPTIONS),
            *(f"--HTMLExporter.theme={theme}", "--output-dir", str(work / "out")),
            *("--output", f"quickstart-{theme}", str(QUICKSTART)),
        ]
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=work, env=env, timeout=120, check=False
        )
        assert done.returncode == 0, f"nbconvert failed:\n{done.stderr[-5000:]}"
    with _served(work / "out") as url:
        yield url


def widget_outputs(notebook: Path) -> list[dict[str, Any]]:
    """The saved outputs of a notebook that show a widget."""
    cells = json.loads(notebook.read_text("utf-8"))["cells"]
    return [
        output
        for cell in cells
        for output in cell.get("outputs", [])
        if WIDGET_VIEW in output.get("data", {})
    ]


# -- an exported notebook ---------------------------------------------------------------------


def test_the_exported_quickstart_shows_the_explorer_as_tables(
    chromium: Path,
    exported_quickstart: Path,
    demo_server: str,
    page: Page,
    blocked_requests: list[str],
    page_errors: list[str],
) -> None:
    page.set_viewport_size({"width": 1100, "height": 900})
    answer = page.goto(f"{demo_server}/quickstart.html", timeout=PAGE_TIMEOUT_MS)
    assert answer is not None
    assert answer.status == 200
    static = page.locator(".lk-static")
    expect(static).to_have_count(1)
    expect(static).to_be_visible()
    assert static.get_attribute("data-lk-widget") == "AccountExplorer"
    # The tab it showed, and the account's assets in a table with their exact amounts.
    expect(static.locator(".lk-static-tabs .lk-static-on")).to_have_text("Overview")
    assets = static.locator(".lk-static-grid").filter(
        has=page.locator(".lk-static-title", has_text="Assets")
    )
    expect(assets.locator("th").first).to_be_visible()
    apt = assets.locator("tbody tr", has_text="APT")
    expect(apt).to_have_count(1)
    expect(apt).to_be_visible()
    # Fully visible: no cell of the table is cut by the page's width.
    cut = assets.locator("td, th").evaluate_all(
        """cells => cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent)"""
    )
    assert cut == []
    # The gas chart is an image with its alternative text, drawn whole.
    chart = page.locator(".jp-RenderedSVG img")
    expect(chart).to_have_count(1)
    assert (chart.get_attribute("alt") or "").startswith("Gas over the sampled day")
    assert chart.evaluate("img => img.complete && img.naturalWidth") == _committed_chart_width()
    # Not the widget's text form, and no widget manager asked for.
    text = exported_quickstart.read_text("utf-8")
    assert WIDGET_VIEW not in text
    assert "widget-state" not in text
    assert not [url for url in blocked_requests if WIDGET_MANAGER.search(url)]
    # Nothing else from another host either: no require.js, MathJax or Mermaid from a CDN.
    assert blocked_requests == []
    assert page_errors == []


@pytest.mark.parametrize(("theme", "system"), [("light", "dark"), ("dark", "light")])
def test_the_exported_snapshot_is_readable_in_nbconvert_s_light_and_dark_themes(
    chromium: Path, themed_exports: str, page: Page, theme: str, system: str
) -> None:
    # The system's colour scheme says the opposite: the page's theme is what counts.
    page.emulate_media(color_scheme=system)  # type: ignore[arg-type]
    answer = page.goto(f"{themed_exports}/quickstart-{theme}.html", timeout=PAGE_TIMEOUT_MS)
    assert answer is not None
    assert answer.status == 200
    light = page.locator("body").get_attribute("data-jp-theme-light")
    assert light == {"light": "true", "dark": "false"}[theme]
    static = page.locator(".lk-static")
    expect(static).to_have_count(1)
    # Drawn in the theme's palette: on a dark ground in the dark theme, a light one else.
    ground = parse_colour(static.evaluate("s => getComputedStyle(s).backgroundColor"))
    assert (luminance(ground) < 0.1) == (theme == "dark"), ground
    elements = static.evaluate_all(TEXT_ELEMENTS_JS)
    assert len(elements) >= 10
    below = [text for _ratio, text in sorted(below_aa(elements, theme))]
    assert below == []


def test_a_live_frontend_renders_the_widget_not_its_static_view(
    voila_page: OpenNotebook,
) -> None:
    page = voila_page("explorers.ipynb")
    expect(page.locator(".lk-explorer").first).to_be_visible(timeout=VISIBLE_MS)
    expect(page.locator(".lk-grid-root").first).to_be_visible(timeout=VISIBLE_MS)
    expect(page.locator(".lk-static")).to_have_count(0)


# -- the docs site ---------------------------------------------------------------------------


def test_the_notebook_pages_show_each_widgets_static_view(
    chromium: Path,
    docs_site: Path,
    site_server: tuple[str, list[str]],
    page: Page,
    blocked_requests: list[str],
) -> None:
    origin, _failures = site_server
    notebooks = {
        path.stem: widget_outputs(path) for path in sorted((REPO / "notebooks").glob("*.ipynb"))
    }
    with_widgets = {name: outputs for name, outputs in notebooks.items() if outputs}
    assert with_widgets, "no notebook shows a widget"
    unsaved = sorted(
        name
        for name, outputs in with_widgets.items()
        if any("text/html" not in output["data"] for output in outputs)
    )
    assert unsaved == [], (
        f"widgets saved without their static view in {unsaved}: re-execute the notebooks "
        "(make notebooks)"
    )
    for name, outputs in with_widgets.items():
        answer = page.goto(f"{origin}/notebooks/{name}.html", timeout=PAGE_TIMEOUT_MS)
        assert answer is not None
        assert answer.status == 200, name
        static = page.locator(".lk-static")
        expect(static).to_have_count(len(outputs))
        for index in range(len(outputs)):
            shown = static.nth(index)
            expect(shown).to_be_visible()
            expect(shown.locator("table").first).to_be_visible()
            # The rows of its first table hold values, not a line of text.
            expect(shown.locator("tbody tr td").first).not_to_be_empty()
        # The widget's text form (``GasDashboard(2,374 transactions)``) is not what shows.
        for output in outputs:
            plain = "".join(output["data"].get("text/plain", ""))
            assert page.get_by_text(plain, exact=True).count() == 0, (name, plain)
    assert blocked_requests == []


def test_the_site_serves_llms_txt_and_every_page_as_markdown(
    chromium: Path, docs_site: Path, site_server: tuple[str, list[str]], page: Page
) -> None:
    origin, _failures = site_server
    # The home page promises it.
    home = (REPO / "docs" / "index.md").read_text("utf-8")
    assert "llms.txt" in home
    assert "`client.md`" in home

    answer = page.request.get(f"{origin}/llms.txt")
    assert answer.status == 200
    llms = answer.text()
    assert llms.startswith("# ledgerkit\n\n> ledgerkit is a Python toolkit")
    links = LLMS_LINK.findall(llms)
    targets = [target for _title, target, _description in links]
    assert len(targets) == len(set(targets))
    assert "client.md" in targets
    assert "api/frames.md" in targets
    assert "notebooks/01-quickstart.md" in targets
    headings = re.findall(r"^## (.+)$", llms, re.M)
    assert headings[:2] == ["Using ledgerkit", "Working on ledgerkit"]
    assert [title for title, target, _ in links if target == "client.md"] == ["The client"]

    # Every page of the site has its Markdown beside it, listed in llms.txt.
    pages = sorted(
        path.relative_to(docs_site).with_suffix("").as_posix()
        for path in docs_site.rglob("*.html")
        if not path.relative_to(docs_site).parts[0].startswith("_")
        and path.stem not in {"genindex", "search", "py-modindex"}
    )
    assert len(pages) > 20
    listed = {target.removesuffix(".md") for target in targets} | {"index"}
    assert sorted(listed) == pages
    for name in pages:
        got = page.request.get(f"{origin}/{name}.md")
        assert got.status == 200, name
        assert got.text().strip(), name
        html_text = (docs_site / f"{name}.html").read_text("utf-8")
        alternate = f'<link rel="alternate" type="text/markdown" href="{Path(name).name}.md">'
        assert alternate in html_text, name

    # A guide is its source as written; an API page and a notebook become plain Markdown.
    client = page.request.get(f"{origin}/client.md").text()
    assert client == (REPO / "docs" / "client.md").read_text("utf-8").rstrip("\n") + "\n"
    frames = page.request.get(f"{origin}/api/frames.md").text()
    assert frames.startswith("# `ledgerkit.frames`")
    assert "## `transactions_to_frame`" in frames
    assert "{ledgerkit-api}" not in frames
    assert "eval-rst" not in frames
    quickstart = page.request.get(f"{origin}/notebooks/01-quickstart.md").text()
    assert quickstart.startswith("# Quickstart: a ledger in DataFrames")
    assert "```python\ninfo = client.ledger_info().value" in quickstart

    full = page.request.get(f"{origin}/llms-full.txt")
    assert full.status == 200
    assert full.text().startswith("# ledgerkit\n")
    assert client.strip("\n") in full.text()
