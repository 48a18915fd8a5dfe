"""The local docs host answers as the real one does: pages as HTML or Markdown (``.md``
or ``Accept: text/markdown``), ``Vary`` and ``Cache-Control``, ``llms.txt`` and
``llms-full.txt``, the three OAuth metadata documents, and plain-text refusals."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from ledgerkit.localnet.services import CACHE_CONTROL, PageStore, create_docs_app, wants_markdown
from ledgerkit.localnet.services._docs_host import _routes

ORIGIN = "http://docs.test"
ISSUER = "https://securetoken.google.com/aptos-api-gateway-prod"
ACCOUNTS = "https://accounts.google.com"
#: The project issuer's metadata, with the fields the real docs host publishes.
METADATA: dict[str, Any] = {
    "issuer": ISSUER,
    "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
    "token_endpoint": "https://oauth2.googleapis.com/token",
    "revocation_endpoint": "https://oauth2.googleapis.com/revoke",
    "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo",
    "jwks_uri": "https://www.googleapis.com/service_accounts/v1/jwk/"
    "securetoken@system.gserviceaccount.com",
    "response_types_supported": ["code", "id_token", "code id_token"],
    "response_modes_supported": ["query", "fragment", "form_post"],
    "subject_types_supported": ["public"],
    "id_token_signing_alg_values_supported": ["RS256"],
    "scopes_supported": ["openid", "email", "profile"],
    "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
    "grant_types_supported": ["authorization_code", "refresh_token"],
    "code_challenge_methods_supported": ["plain", "S256"],
    "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "iss", "sub"],
}
PAGES = {
    "index": "# Demo docs\n\nDemo pages for the tests. More here.\n\n## Guides\n\n"
    "- [Alpha](alpha.md): first\n- [Beta, again](./beta.md#usage)\n- [Away](https://x.test/a.md)\n",
    "alpha": "# Alpha\n\nThe alpha page says [see beta](beta.md) first.\n\n"
    "```sh\n# not a heading\n```\n\n## Usage\n\nText.\n",
    "beta": "# Beta page\n\nBeta explains tokens.\n\n## Usage\n\n## Usage\n",
    "gamma": "# Gamma\n\nNot linked from the home page.\n",
}
HTML_TYPE = "text/html; charset=utf-8"
MARKDOWN_TYPE = "text/markdown; charset=utf-8"
TEXT_TYPE = "text/plain; charset=utf-8"


def make_app(**options: Any) -> Starlette:
    settings: dict[str, Any] = {
        "authorization_servers": [ISSUER, ACCOUNTS],
        "project_issuer_metadata": lambda: METADATA,
        "pages": PageStore(PAGES),
    }
    return create_docs_app(**{**settings, **options})


def ask(
    app: Starlette,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    *,
    base: str = ORIGIN,
) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=base) as client:
            return await client.request(method, path, headers=headers)

    return asyncio.run(send())


@pytest.fixture(scope="module")
def app() -> Starlette:
    return make_app()


# -- pages -------------------------------------------------------------------------------


def test_a_page_is_a_small_complete_html_document(app: Starlette) -> None:
    answer = ask(app, "GET", "/alpha")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == HTML_TYPE
    assert answer.headers["cache-control"] == "public, max-age=3600"
    assert answer.headers["vary"] == "Accept"
    page = answer.text
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert "<title>Alpha · ledgerkit</title>" in page
    assert '<nav aria-label="Pages">' in page
    assert '<li><a href="/alpha" aria-current="page">Alpha</a></li>' in page
    assert '<li><a href="/gamma">Gamma</a></li>' in page
    assert '<h1 id="alpha">Alpha</h1>' in page
    assert '<a href="/beta">see beta</a>' in page  # beta.md -> its HTML path
    assert '<code class="language-sh"># not a heading\n</code>' in page
    assert page.rstrip().endswith("</html>")
    # Nothing from elsewhere: no script, no external style sheet, font or image.
    assert "<script" not in page
    assert "stylesheet" not in page
    assert not re.search(r"(src|href)=\"(https?:)?//", page)


def test_links_keep_their_anchor_and_repeated_headings_get_distinct_ids(app: Starlette) -> None:
    home = ask(app, "GET", "/").text
    assert '<a href="/beta#usage">Beta, again</a>' in home
    assert '<a href="https://x.test/a.md">Away</a>' in home  # another host's link is kept
    assert "<title>ledgerkit</title>" in home
    beta = ask(app, "GET", "/beta").text
    assert '<h2 id="usage">Usage</h2>' in beta
    assert '<h2 id="usage-1">Usage</h2>' in beta


@pytest.mark.parametrize(
    ("path", "page"), [("/alpha.md", "alpha"), ("/index.md", "index"), ("/beta.md", "beta")]
)
def test_dot_md_is_the_markdown_as_written(app: Starlette, path: str, page: str) -> None:
    answer = ask(app, "GET", path)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == MARKDOWN_TYPE
    assert answer.headers["cache-control"] == "public, max-age=3600"
    assert "vary" not in answer.headers  # a path with an extension is not negotiated
    assert answer.text == PAGES[page]


@pytest.mark.parametrize(
    ("accept", "markdown"),
    [
        ("text/markdown", True),
        ("TEXT/Markdown", True),
        ("text/markdown; q=0.5", True),
        ("text/html, text/markdown;q=0.1", True),
        ("text/html;q=0.9, text/markdown ; charset=utf-8", True),
        ("*/*", False),
        ("text/*", False),  # only the exact range counts, wildcards keep HTML
        ("text/markdown;q=0", False),
        ("text/markdown; q=0.000", False),
        ("text/markdown;q=soon", False),
        ("text/html,application/xhtml+xml,*/*;q=0.8", False),
        ("", False),
    ],
)
def test_accept_markdown_turns_a_page_path_into_its_markdown(
    app: Starlette, accept: str, markdown: bool
) -> None:
    assert wants_markdown(accept) is markdown
    for path, page in (("/alpha", "alpha"), ("/", "index"), ("/beta/", "beta")):
        answer = ask(app, "GET", path, {"Accept": accept} if accept else {})
        assert answer.status_code == 200
        assert answer.headers["vary"] == "Accept"
        assert answer.headers["content-type"] == (MARKDOWN_TYPE if markdown else HTML_TYPE)
        assert (answer.text == PAGES[page]) is markdown


def test_head_has_the_headers_of_get_and_no_body(app: Starlette) -> None:
    for path, headers in (
        ("/alpha", {}),
        ("/alpha", {"Accept": "text/markdown"}),
        ("/alpha.md", {}),
        ("/llms.txt", {}),
        ("/.well-known/openid-configuration", {}),
    ):
        got = ask(app, "GET", path, headers)
        head = ask(app, "HEAD", path, headers)
        assert head.status_code == 200
        assert head.content == b""
        assert head.headers == got.headers  # Content-Length included
        assert int(head.headers["content-length"]) == len(got.content)


def test_an_unknown_page_is_a_plain_text_404(app: Starlette) -> None:
    for path, vary in (("/nope", True), ("/nope.md", False), ("/alpha/beta", True)):
        answer = ask(app, "GET", path, {"Accept": "text/markdown"})
        assert answer.status_code == 404
        assert answer.headers["content-type"] == TEXT_TYPE
        assert answer.text == "Not found"
        assert ("vary" in answer.headers) is vary


@pytest.mark.parametrize(
    "path",
    [
        "/.well-known/oauth-protected-resource",
        "/.well-known/security.txt",
        "/api/alpha",
        "/_alpha",
        "/rest-api",
        "/rest-api/alpha",
        "/llms.txt",
        "/alpha.md",
        "/alpha.html",
    ],
)
def test_no_negotiation_outside_page_paths(app: Starlette, path: str) -> None:
    answer = ask(app, "GET", path, {"Accept": "text/markdown"})
    assert "vary" not in answer.headers
    assert answer.headers["content-type"] != HTML_TYPE
    if path.startswith("/.well-known/oauth"):
        assert answer.headers["content-type"] == "application/json"
    elif path == "/llms.txt":
        assert answer.headers["content-type"] == TEXT_TYPE
    elif path != "/alpha.md":
        assert (answer.status_code, answer.text) == (404, "Not found")


@pytest.mark.parametrize(
    "path",
    [
        "/%2e%2e/%2e%2e/pyproject.toml",
        "/..%2Fpyproject.toml",
        "/%2e%2e",
        "/alpha/%2e%2e/beta",
        "/docs/alpha",
        "/docs/alpha.md",
        "/__init__",
        "/__init__.py",
        "/alpha.md.md",
        "/" + "a" * 300,
        "/alpha%00",
    ],
)
def test_no_path_reaches_a_file(path: str) -> None:
    app = create_docs_app(authorization_servers=[ISSUER], project_issuer_metadata=lambda: METADATA)
    answer = ask(app, "GET", path, {"Accept": "text/markdown"})
    assert (answer.status_code, answer.text) == (404, "Not found")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/alpha"),
        ("PUT", "/alpha.md"),
        ("DELETE", "/llms.txt"),
        ("PATCH", "/.well-known/oauth-protected-resource"),
        ("POST", "/nope"),
    ],
)
def test_other_methods_are_a_plain_text_405_with_allow(
    app: Starlette, method: str, path: str
) -> None:
    answer = ask(app, method, path)
    assert answer.status_code == 405
    assert answer.headers["content-type"] == TEXT_TYPE
    assert answer.headers["allow"] == "GET, HEAD"


def test_an_authorization_header_changes_nothing(app: Starlette) -> None:
    for path in ("/alpha.md", "/llms.txt", "/.well-known/oauth-protected-resource"):
        plain = ask(app, "GET", path)
        bearing = ask(app, "GET", path, {"Authorization": "Bearer not-a-token"})
        assert (bearing.status_code, bearing.content) == (200, plain.content)


# -- llms.txt and llms-full.txt --------------------------------------------------------------


def test_llms_txt_lists_the_pages_by_the_home_pages_sections(app: Starlette) -> None:
    answer = ask(app, "GET", "/llms.txt")
    assert answer.headers["content-type"] == TEXT_TYPE
    assert answer.headers["cache-control"] == "public, max-age=3600"
    assert answer.text == (
        "# ledgerkit\n"
        "\n"
        "> Demo pages for the tests.\n"
        "\n"
        "## Guides\n"
        "\n"
        "- [Alpha](http://docs.test/alpha.md): The alpha page says see beta first.\n"
        "- [Beta page](http://docs.test/beta.md): Beta explains tokens.\n"
        "\n"
        "## Other pages\n"
        "\n"
        "- [Gamma](http://docs.test/gamma.md): Not linked from the home page.\n"
    )


def test_llms_txt_links_are_under_the_origin_the_request_reached() -> None:
    text = ask(make_app(), "GET", "/llms.txt", base="https://docs.example:8443").text
    assert "- [Alpha](https://docs.example:8443/alpha.md): " in text


def test_llms_full_txt_is_every_page_one_after_another(app: Starlette) -> None:
    answer = ask(app, "GET", "/llms-full.txt")
    assert answer.headers["content-type"] == TEXT_TYPE
    assert answer.headers["cache-control"] == "public, max-age=3600"
    assert (
        answer.text
        == "\n\n".join(PAGES[name].strip("\n") for name in ("index", "alpha", "beta", "gamma"))
        + "\n"
    )


#: One line of llms.txt: the name, the summary, a section, a link, or a blank.
LLMS_LINE = re.compile(
    r"^(?:# (?P<name>.+)|> (?P<summary>.+)|## (?P<section>.+)"
    r"|- \[(?P<title>[^\]]+)\]\((?P<url>[^)\s]+)\)(?:: (?P<description>.+))?|)$"
)


def test_ledgerkits_own_llms_txt_has_the_real_format() -> None:
    app = create_docs_app(authorization_servers=[ISSUER], project_issuer_metadata=lambda: METADATA)
    lines = ask(app, "GET", "/llms.txt").text.splitlines()
    matched = [LLMS_LINE.match(line) for line in lines]
    assert all(matched), [line for line, m in zip(lines, matched, strict=True) if not m]
    assert lines[:3] == ["# ledgerkit", "", lines[2]]
    assert lines[2].startswith("> ledgerkit is a Python toolkit")
    sections = [m["section"] for m in matched if m and m["section"]]
    assert sections == ["Using ledgerkit", "Working on ledgerkit"]
    urls = [m["url"] for m in matched if m and m["url"]]
    assert urls == [
        f"{ORIGIN}/{name}.md"
        for name in (
            *("getting-started", "client", "transactions", "faucet", "widgets", "frames"),
            *("charts", "extract", "localnet", "move", "teaching", "docsite"),
        )
    ] + [f"{ORIGIN}/contributing.md"]
    assert all(m["description"] for m in matched if m and m["url"])


# -- the OAuth metadata documents ------------------------------------------------------------


def test_protected_resource_metadata_names_the_docs_origin(app: Starlette) -> None:
    answer = ask(app, "GET", "/.well-known/oauth-protected-resource")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "public, max-age=3600"
    document = answer.json()
    assert "resource" in document  # RFC 9728 §2: the one required field
    assert document == {
        "resource": "http://docs.test",
        "authorization_servers": [
            "https://securetoken.google.com/aptos-api-gateway-prod",
            "https://accounts.google.com",
        ],
        "scopes_supported": ["openid", "email", "profile"],
        "bearer_methods_supported": ["header"],
        "resource_name": "ledgerkit documentation",
        "resource_documentation": "http://docs.test/",
        "resource_signing_alg_values_supported": ["RS256"],
    }


def test_the_resource_is_the_origin_as_reached_with_its_port() -> None:
    document = ask(
        make_app(), "GET", "/.well-known/oauth-protected-resource", base="https://docs.example:8443"
    ).json()
    assert document["resource"] == "https://docs.example:8443"
    assert document["resource_documentation"] == "https://docs.example:8443/"


def test_authorization_server_metadata_is_the_issuers_without_openid_fields(
    app: Starlette,
) -> None:
    answer = ask(app, "GET", "/.well-known/oauth-authorization-server")
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "public, max-age=3600"
    document = answer.json()
    assert {"issuer", "response_types_supported"} <= set(document)  # RFC 8414 §2
    assert document["issuer"] == "https://securetoken.google.com/aptos-api-gateway-prod"
    assert sorted(document) == sorted(
        [
            "issuer",
            "authorization_endpoint",
            "token_endpoint",
            "revocation_endpoint",
            "jwks_uri",
            "response_types_supported",
            "response_modes_supported",
            "subject_types_supported",
            "id_token_signing_alg_values_supported",
            "scopes_supported",
            "token_endpoint_auth_methods_supported",
            "grant_types_supported",
            "code_challenge_methods_supported",
        ]
    )
    assert document["code_challenge_methods_supported"] == ["plain", "S256"]


def test_openid_configuration_is_the_issuers_metadata(app: Starlette) -> None:
    answer = ask(app, "GET", "/.well-known/openid-configuration")
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "public, max-age=3600"
    document = answer.json()
    # OpenID Connect Discovery 1.0 §3: the provider metadata a relying party needs.
    assert {
        "issuer",
        "authorization_endpoint",
        "token_endpoint",
        "jwks_uri",
        "response_types_supported",
        "subject_types_supported",
        "id_token_signing_alg_values_supported",
    } <= set(document)
    assert document == METADATA
    assert document["userinfo_endpoint"] == "https://openidconnect.googleapis.com/v1/userinfo"


def test_the_documents_follow_the_issuer() -> None:
    issued = [{"issuer": "https://one.test", "response_types_supported": ["id_token"]}]
    app = make_app(project_issuer_metadata=lambda: issued[-1])
    assert ask(app, "GET", "/.well-known/openid-configuration").json()["issuer"] == (
        "https://one.test"
    )
    issued.append({"issuer": "https://two.test", "response_types_supported": ["id_token"]})
    assert ask(app, "GET", "/.well-known/oauth-authorization-server").json()["issuer"] == (
        "https://two.test"
    )


def test_cache_control_is_on_every_page_and_document(app: Starlette) -> None:
    for path in (
        "/",
        "/alpha",
        "/alpha.md",
        "/llms.txt",
        "/llms-full.txt",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
    ):
        assert ask(app, "GET", path).headers["cache-control"] == CACHE_CONTROL, path


# -- the routes ------------------------------------------------------------------------------


def test_the_routes_are_the_docs_rows_of_the_endpoint_table(app: Starlette) -> None:
    paths = [route.path for route in app.routes if isinstance(route, Route)]
    assert paths == [
        "/llms.txt",
        "/llms-full.txt",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
        "/{page:path}",
    ]


def test_a_row_without_a_handler_or_a_handler_without_a_row_is_refused() -> None:
    async def endpoint(request: Any) -> Any:
        raise AssertionError

    ids = (
        "get_llms_txt",
        "get_llms_full_txt",
        "get_oauth_protected_resource",
        "get_oauth_authorization_server",
        "get_docs_openid_configuration",
        "get_docs_page",
    )
    handlers = dict.fromkeys(ids, endpoint)
    assert len(_routes(handlers)) == 6
    with pytest.raises(RuntimeError, match=r"disagree on \['get_llms_txt'\]"):
        _routes({k: v for k, v in handlers.items() if k != "get_llms_txt"})
    with pytest.raises(RuntimeError, match=r"disagree on \['search'\]"):
        _routes({**handlers, "search": endpoint})


def test_authorization_servers_must_be_urls() -> None:
    with pytest.raises(ValueError, match="authorization servers must be URLs"):
        make_app(authorization_servers=[""])


def test_ledgerkits_own_pages_link_to_each_other_in_html() -> None:
    app = create_docs_app(authorization_servers=[ISSUER], project_issuer_metadata=lambda: METADATA)
    docsite = ask(app, "GET", "/docsite").text
    assert '<a href="/localnet#the-docs-host">' in docsite
    assert '<h2 id="the-docs-host">The docs host</h2>' in ask(app, "GET", "/localnet").text
    home = ask(app, "GET", "/").text
    assert '<a href="/docsite">The docs client</a>' in home
