"""With a built docs site, the local docs host gives browsers the site's HTML at the page
paths and serves the site's files, while Markdown (``.md``, ``Accept``) and ``llms.txt``
stay those of the Markdown pages; nothing outside the site's directory is ever served."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from ledgerkit.localnet.services import SITE_ENV, BuiltSite, PageStore, _site, create_docs_app

ORIGIN = "http://docs.test"
ISSUER = "http://127.0.0.1:1/project"
PAGES = {
    "index": "# Home\n\nThe home page.\n\n## Guides\n\n- [Client](client.md): the client\n",
    "client": "# Client\n\nThe client page.\n",
    "beta": "# Beta\n\nA page the site does not have yet.\n",
}
SITE_FILES = {
    "index.html": "<!DOCTYPE html><title>site home</title>",
    "client.html": '<!DOCTYPE html><title>site client</title><a href="index.html">home</a>',
    "_static/style.css": "body { margin: 0 }",
    "_static/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    "api/index.html": "<!DOCTYPE html><title>site api</title>",
    "notebooks/01-quickstart.html": "<!DOCTYPE html><title>notebook</title>",
    ".hidden.html": "hidden",
    "conf.py": "secret = 1",
    "notes.md": "# not served from the site",
}


@pytest.fixture
def site(tmp_path: Path) -> BuiltSite:
    root = tmp_path / "html"
    for name, text in SITE_FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    (tmp_path / "outside.html").write_text("outside", "utf-8")
    (root / "escape.html").symlink_to(tmp_path / "outside.html")
    return BuiltSite(root)


def make_app(site: BuiltSite | None) -> Starlette:
    return create_docs_app(
        authorization_servers=[ISSUER],
        project_issuer_metadata=lambda: {"issuer": ISSUER},
        pages=PageStore(PAGES),
        site=site,
    )


def ask(
    app: Starlette, method: str, path: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=ORIGIN) as client:
            return await client.request(method, path, headers=headers)

    return asyncio.run(send())


def test_browsers_get_the_sites_html_at_the_page_paths(site: BuiltSite) -> None:
    app = make_app(site)
    for path, title in (("/", "site home"), ("/client", "site client")):
        answer = ask(app, "GET", path, {"Accept": "text/html,*/*;q=0.8"})
        assert answer.status_code == 200
        assert f"<title>{title}</title>" in answer.text
        assert answer.headers["content-type"] == "text/html; charset=utf-8"
        assert answer.headers["vary"] == "Accept"
        assert answer.headers["cache-control"] == "public, max-age=3600"


def test_markdown_and_llms_txt_stay_the_pages(site: BuiltSite) -> None:
    with_site, without = make_app(site), make_app(None)
    for path, headers in [
        ("/client.md", None),
        ("/client", {"Accept": "text/markdown"}),
        ("/index.md", None),
        ("/llms.txt", None),
        ("/llms-full.txt", None),
    ]:
        answer = ask(with_site, "GET", path, headers)
        assert answer.status_code == 200, path
        assert answer.content == ask(without, "GET", path, headers).content, path
    assert ask(with_site, "GET", "/client.md").text == PAGES["client"]


def test_a_page_the_site_lacks_keeps_its_rendered_html(site: BuiltSite) -> None:
    answer = ask(make_app(site), "GET", "/beta")
    assert answer.status_code == 200
    assert '<h1 id="beta">Beta</h1>' in answer.text


def test_a_page_path_with_a_slash_leads_to_the_path_the_sites_links_work_from(
    site: BuiltSite,
) -> None:
    answer = ask(make_app(site), "GET", "/client/")
    assert answer.status_code == 308
    assert answer.headers["location"] == "/client"
    markdown = ask(make_app(site), "GET", "/client/", {"Accept": "text/markdown"})
    assert (markdown.status_code, markdown.text) == (200, PAGES["client"])


@pytest.mark.parametrize(
    ("path", "media_type", "body"),
    [
        ("/client.html", "text/html; charset=utf-8", SITE_FILES["client.html"]),
        ("/_static/style.css", "text/css; charset=utf-8", SITE_FILES["_static/style.css"]),
        ("/_static/logo.svg", "image/svg+xml", SITE_FILES["_static/logo.svg"]),
        ("/api/index.html", "text/html; charset=utf-8", SITE_FILES["api/index.html"]),
        ("/notebooks/01-quickstart.html", "text/html; charset=utf-8", "<title>notebook</title>"),
    ],
)
def test_the_sites_files_are_served_at_their_paths(
    site: BuiltSite, path: str, media_type: str, body: str
) -> None:
    app = make_app(site)
    answer = ask(app, "GET", path)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == media_type
    assert body in answer.text
    assert answer.headers["cache-control"] == "public, max-age=3600"
    assert "vary" not in answer.headers  # a path with an extension is never negotiated
    head = ask(app, "HEAD", path)
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == str(len(answer.content))


@pytest.mark.parametrize(
    "path",
    [
        "/.hidden.html",
        "/escape.html",  # a link out of the site's directory
        "/conf.py",
        "/notes.md",
        "/_static",
        "/_static/",
        "/api",
        "/api/",
        "/_static/missing.css",
        "/%2e%2e/outside.html",
        "/_static/%2e%2e/%2e%2e/outside.html",
        "/api//index.html",
    ],
)
def test_nothing_else_is_served(site: BuiltSite, path: str) -> None:
    answer = ask(make_app(site), "GET", path)
    assert (answer.status_code, answer.text) == (404, "Not found")


@pytest.mark.parametrize(
    "path",
    ["../outside.html", "_static/../../outside.html", "./index.html", "", "a/" * 9 + "x.html"],
)
def test_a_site_looks_up_only_plain_paths_inside_it(site: BuiltSite, path: str) -> None:
    assert site.file(path) is None
    assert site.file("index.html") == (site.root / "index.html", "text/html")


def test_a_site_needs_its_home_page(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"holds no index\.html"):
        BuiltSite(tmp_path)


def fake_checkout(root: Path, *, built: bool) -> None:
    """A checkout's layout as ``BuiltSite.found`` reads it from ``_site.__file__``."""
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "__init__.py").write_text("", "utf-8")
    if built:
        (root / "build" / "docs" / "html").mkdir(parents=True)
        (root / "build" / "docs" / "html" / "index.html").write_text("<title>x</title>", "utf-8")


def test_the_node_serves_its_checkouts_built_site(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(SITE_ENV, raising=False)
    for name, built in (("unbuilt", False), ("built", True)):
        checkout = tmp_path / name
        fake_checkout(checkout, built=built)
        module = checkout / "ledgerkit" / "localnet" / "services" / "_site.py"
        monkeypatch.setattr(_site, "__file__", str(module))
        found = BuiltSite.found()
        if not built:
            assert found is None
        else:
            assert found is not None
            assert found.root == (checkout / "build" / "docs" / "html").resolve()


def test_the_environment_names_the_site_or_turns_it_off(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    site: BuiltSite,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv(SITE_ENV, str(site.root))
    found = BuiltSite.found()
    assert found is not None
    assert found.root == site.root
    assert repr(found) == f"BuiltSite({str(site.root)!r})"
    monkeypatch.setenv(SITE_ENV, "")
    assert BuiltSite.found() is None
    monkeypatch.setenv(SITE_ENV, str(tmp_path / "nowhere"))
    with caplog.at_level(logging.WARNING, logger="ledgerkit.localnet"):
        assert BuiltSite.found() is None
    assert "holds no index.html" in caplog.text


def test_without_a_site_nothing_but_pages_is_served(site: BuiltSite) -> None:
    app = make_app(None)
    assert ask(app, "GET", "/_static/style.css").status_code == 404
    assert "<title>site" not in ask(app, "GET", "/client").text
