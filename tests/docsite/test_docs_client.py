"""``DocsClient`` and ``AsyncDocsClient``: against answers in the real docs host's shapes
(``docs_host_shapes``, through ``httpx.MockTransport``) and against ledgerkit's local docs
host (a real uvicorn server for the blocking client, the ASGI app for the async one)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest
import uvicorn
from docs_host_shapes import (
    ACCOUNTS_ISSUER,
    ACCOUNTS_JWKS,
    ACCOUNTS_KIDS,
    AUTHORIZATION_SERVER,
    DOCS,
    FAUCET_MD,
    OPENID_CONFIGURATION,
    PROJECT_ISSUER,
    PROJECT_JWKS,
    PROJECT_KID,
    PROTECTED_RESOURCE,
    Canned,
    RealHost,
    chunks,
    jwk,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

import ledgerkit
from ledgerkit import (
    AsyncDocsClient,
    DocsClient,
    DocsError,
    InputError,
    PageNotFoundError,
    RequestTimeoutError,
    TransportError,
)
from ledgerkit.docsite import INDEX_COLUMNS, MAX_ANSWER_BYTES, SEARCH_COLUMNS, Check, Discovery
from ledgerkit.frames import docs_index_to_frame, search_hits_to_frame
from ledgerkit.localnet.services import create_docs_app

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def host() -> RealHost:
    return RealHost()


@pytest.fixture
def docs(host: RealHost) -> Iterator[DocsClient]:
    with DocsClient(DOCS, transport=host.transport()) as client:
        yield client


# -- pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/network/faucet",
        "network/faucet",
        "/network/faucet/",
        "/network/faucet.md",
        "https://aptos.dev/network/faucet",
        "https://aptos.dev/network/faucet.md#testnet",
        "/network/faucet#testnet",
    ],
)
def test_a_page_is_its_markdown(host: RealHost, docs: DocsClient, path: str) -> None:
    assert docs.page(path) == FAUCET_MD
    (request,) = host.asked
    assert str(request.url) == "https://aptos.dev/network/faucet.md"
    assert request.headers["accept"] == "text/markdown"
    assert request.method == "GET"
    assert "authorization" not in request.headers  # no token, ever


def test_the_root_is_the_index_page(host: RealHost, docs: DocsClient) -> None:
    assert docs.page("/") == "# Aptos Docs\n\nStart here.\n"
    assert docs.page("") == "# Aptos Docs\n\nStart here.\n"
    assert host.urls() == ["https://aptos.dev/index.md"]  # the second came from the cache


def test_an_unknown_page_is_page_not_found(docs: DocsClient) -> None:
    with pytest.raises(PageNotFoundError) as caught:
        docs.page("/nope")
    assert caught.value.status == 404
    assert caught.value.url == "https://aptos.dev/nope.md"
    assert isinstance(caught.value, DocsError)


def test_any_other_status_is_a_docs_error(host: RealHost, docs: DocsClient) -> None:
    host.answers["https://aptos.dev/broken.md"] = Canned(
        503, {"content-type": "text/plain"}, b"Service  Unavailable\n"
    )
    with pytest.raises(DocsError) as caught:
        docs.page("/broken")
    assert not isinstance(caught.value, PageNotFoundError)
    assert caught.value.status == 503
    assert str(caught.value) == (
        "503 page /broken.md: Service Unavailable [https://aptos.dev/broken.md]"
    )


def test_html_instead_of_markdown_is_a_docs_error(host: RealHost, docs: DocsClient) -> None:
    host.answers["https://aptos.dev/spa.md"] = Canned(
        200, {"content-type": "text/html; charset=utf-8"}, b"<!DOCTYPE html><html></html>"
    )
    with pytest.raises(DocsError, match="answered HTML, not Markdown"):
        docs.page("/spa")


def test_a_body_that_is_not_utf8_is_a_docs_error(host: RealHost, docs: DocsClient) -> None:
    host.answers["https://aptos.dev/latin.md"] = Canned(200, {}, "# Caf\xe9\n".encode("latin-1"))
    with pytest.raises(DocsError, match="not UTF-8 text"):
        docs.page("/latin")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/../secret", "no '..' segment"),
        ("/a/../../b", "no '..' segment"),
        ("https://evil.test/page", "is not a page of https://aptos.dev"),
        ("/search?q=x", "not a page path"),
        ("/a\\b", "not a page path"),
        ("/a\nb", "not a page path"),
        ("/" + "a" * 1024, "at most 1024 characters"),
    ],
)
def test_a_path_that_is_not_a_page_is_refused_before_sending(
    host: RealHost, docs: DocsClient, path: str, message: str
) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        docs.page(path)
    assert host.asked == []


def test_show_renders_the_page_in_a_notebook(docs: DocsClient) -> None:
    from IPython.display import Markdown

    shown = docs.show("/network/faucet")
    assert isinstance(shown, Markdown)
    assert shown.data == FAUCET_MD


# -- failures without an answer, and answers too large ----------------------------------------


def _failing(exc: Exception) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    return httpx.MockTransport(handler)


def test_no_answer_is_a_transport_error_never_an_httpx_error() -> None:
    refused = httpx.ConnectError("connection refused")
    docs = DocsClient(DOCS, transport=_failing(refused))
    with pytest.raises(TransportError) as caught:
        docs.page("/network/faucet")
    assert not isinstance(caught.value, httpx.HTTPError)
    assert str(caught.value) == (
        "page /network/faucet.md (https://aptos.dev/network/faucet.md): "
        "ConnectError: connection refused"
    )
    slow = httpx.ReadTimeout("read timed out")
    docs = DocsClient(DOCS, transport=_failing(slow))
    with pytest.raises(RequestTimeoutError, match="timed out"):
        docs.index()


def test_an_answer_declared_too_large_is_refused(host: RealHost, docs: DocsClient) -> None:
    assert MAX_ANSWER_BYTES == 8 * 1024 * 1024
    host.answers["https://aptos.dev/huge.md"] = Canned(
        200, {"content-length": str(8 * 1024 * 1024 + 1)}, b""
    )
    with pytest.raises(DocsError, match="larger than 8388608 bytes") as caught:
        docs.page("/huge")
    assert caught.value.status == 200


def test_an_answer_that_grows_too_large_is_refused() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=chunks(9 * 1024 * 1024))  # no declared length

    docs = DocsClient(DOCS, transport=httpx.MockTransport(handler))
    with pytest.raises(DocsError, match="larger than 8388608 bytes"):
        docs.page("/endless")


def test_an_answer_just_within_the_limit_is_read() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=chunks(8 * 1024 * 1024))

    with DocsClient(DOCS, transport=httpx.MockTransport(handler)) as docs:
        assert len(docs.page("/big")) == 8 * 1024 * 1024


# -- the index -----------------------------------------------------------------------------


def test_the_index_is_llms_txt_as_a_frame(host: RealHost, docs: DocsClient) -> None:
    frame = docs_index_to_frame(docs.index())
    assert (
        tuple(frame.columns)
        == INDEX_COLUMNS
        == (
            "section",
            "title",
            "url",
            "path",
            "description",
        )
    )
    assert frame.to_dict("records") == [
        {
            "section": "Build",
            "title": "Your First Transaction",
            "url": "https://aptos.dev/build/guides/first-transaction.md",
            "path": "/build/guides/first-transaction",
            "description": "Create, sign and submit a transfer.",
        },
        {
            "section": "Build",
            "title": "Aptos Faucet API",
            "url": "https://aptos.dev/network/faucet.md",
            "path": "/network/faucet",
            "description": "Fund accounts on devnet and testnet.",
        },
        {
            "section": "Optional",
            "title": "Glossary",
            "url": "https://aptos.dev/network/glossary.md",
            "path": "/network/glossary",
            "description": "",
        },
        {
            "section": "Optional",
            "title": "Aptos on GitHub",
            "url": "https://github.com/aptos-labs",
            "path": "",
            "description": "Source code of the node and SDKs.",
        },
    ]
    assert all(isinstance(dtype, pd.StringDtype) for dtype in frame.dtypes)
    assert host.urls() == ["https://aptos.dev/llms.txt"]
    # Each path is what page() takes.
    assert docs.page(frame.loc[1, "path"]) == FAUCET_MD


def test_the_index_and_the_hits_are_records(docs: DocsClient) -> None:
    entries = docs.index()
    assert [type(entry).__name__ for entry in entries] == ["IndexEntry"] * 4
    assert entries[1].title == "Aptos Faucet API"
    assert entries[1].path == "/network/faucet"
    assert entries[3].path == ""  # a link elsewhere
    hits = docs.search("faucet")
    assert [(type(hit).__name__, hit.title) for hit in hits] == [
        ("SearchHit", "Aptos Faucet API"),
        ("SearchHit", "Your First Transaction"),
    ]
    with pytest.raises(InputError, match="item 0"):
        docs_index_to_frame(["not a record"])
    with pytest.raises(InputError, match="list of records"):
        search_hits_to_frame("faucet")


def test_an_index_without_links_has_the_same_columns(host: RealHost, docs: DocsClient) -> None:
    host.answers["https://aptos.dev/llms.txt"] = Canned(200, {}, b"# Empty\n\n> Nothing yet.\n")
    frame = docs_index_to_frame(docs.index())
    assert tuple(frame.columns) == INDEX_COLUMNS
    assert len(frame) == 0
    assert all(isinstance(dtype, pd.StringDtype) for dtype in frame.dtypes)


def test_relative_links_and_code_blocks_in_llms_txt(host: RealHost, docs: DocsClient) -> None:
    text = (
        "# Site\n\n- [Home](/index.md): home\n\n## Guides\n\n* [Rel](guides/a.md)\n\n"
        "```md\n- [Not a link](x.md): in a code block\n```\n"
    )
    host.answers["https://aptos.dev/llms.txt"] = Canned(200, {}, text.encode())
    assert docs_index_to_frame(docs.index()).values.tolist() == [
        ["", "Home", "https://aptos.dev/index.md", "/", "home"],
        ["Guides", "Rel", "https://aptos.dev/guides/a.md", "/guides/a", ""],
    ]


# -- search --------------------------------------------------------------------------------


def test_search_ranks_the_pages_of_llms_full_txt(host: RealHost, docs: DocsClient) -> None:
    frame = search_hits_to_frame(docs.search("faucet"))
    assert tuple(frame.columns) == SEARCH_COLUMNS == ("title", "url", "score", "snippet")
    assert frame["title"].tolist() == ["Aptos Faucet API", "Your First Transaction"]
    assert frame["url"].tolist() == [
        "https://aptos.dev/network/faucet.md",
        "https://aptos.dev/build/guides/first-transaction.md",
    ]
    # 3 pages, "faucet" in 2: idf = ln(1 + 3/2). The faucet page holds it 4 times (title,
    # two sentences, the curl URL) and in its title; the first-transaction page once.
    idf = math.log(2.5)
    assert frame["score"].tolist() == [
        round(idf * (1 + math.log(4)) + idf, 4),
        round(idf, 4),
    ]
    assert frame["score"].dtype == "float64"
    assert frame.loc[0, "snippet"].startswith("# Aptos Faucet API The faucet funds accounts")
    # About 160 characters from a little before the first match, cut at spaces.
    assert frame.loc[1, "snippet"] == (
        "…Transaction Create two accounts, fund them from the faucet, and transfer coins "
        "between them. The transaction is signed with the sender's key and submitted to a…"
    )
    assert host.urls() == ["https://aptos.dev/llms.txt", "https://aptos.dev/llms-full.txt"]


def test_search_sums_its_terms_and_keeps_limit(docs: DocsClient) -> None:
    frame = search_hits_to_frame(docs.search("Ledger NODE node", limit=1))
    # "ledger" is only in the glossary (idf ln 4), "node" in the glossary and the first
    # transaction (idf ln 2.5), each once; the glossary wins.
    assert frame["title"].tolist() == ["Glossary"]
    assert frame["score"].tolist() == [round(math.log(4) + math.log(2.5), 4)]


def test_a_fenced_comment_is_not_a_page_of_llms_full_txt(docs: DocsClient) -> None:
    # "# fund an account" sits in a code block of the faucet page: not a page title.
    assert search_hits_to_frame(docs.search("account"))["title"].tolist() == [
        "Aptos Faucet API",
        "Glossary",
    ]


def test_search_without_llms_full_txt_reads_the_pages_of_the_index(
    host: RealHost, docs: DocsClient
) -> None:
    host.drop("https://aptos.dev/llms-full.txt")
    host.drop("https://aptos.dev/network/glossary.md")  # a listed page that is gone
    frame = search_hits_to_frame(docs.search("faucet"))
    assert frame["title"].tolist() == ["Aptos Faucet API", "Your First Transaction"]
    # 2 pages now, "faucet" in both: idf = ln(1 + 2/2).
    assert frame["score"].tolist() == [
        round(math.log(2) * (1 + math.log(4)) + math.log(2), 4),
        round(math.log(2), 4),
    ]
    assert host.urls() == [
        "https://aptos.dev/llms.txt",
        "https://aptos.dev/llms-full.txt",
        "https://aptos.dev/build/guides/first-transaction.md",
        "https://aptos.dev/network/faucet.md",
        "https://aptos.dev/network/glossary.md",
    ]  # never the GitHub link: not a page of this host


def test_no_match_is_an_empty_frame_with_the_columns(docs: DocsClient) -> None:
    frame = search_hits_to_frame(docs.search("zebra"))
    assert tuple(frame.columns) == SEARCH_COLUMNS
    assert len(frame) == 0


@pytest.mark.parametrize(
    ("query", "limit", "message"),
    [("", 10, "at least one word"), ("  ?! ", 10, "at least one word"), ("x", 0, "limit")],
)
def test_a_search_that_cannot_run_is_refused_before_sending(
    host: RealHost, docs: DocsClient, query: str, limit: int, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        docs.search(query, limit=limit)
    assert host.asked == []


# -- discovery -----------------------------------------------------------------------------


def test_discovery_of_the_real_host_holds(host: RealHost, docs: DocsClient) -> None:
    found = docs.discovery()
    assert isinstance(found, Discovery)
    assert found.ok
    assert found.origin == "https://aptos.dev"
    assert found.protected_resource == PROTECTED_RESOURCE
    assert found.authorization_server == AUTHORIZATION_SERVER
    assert found.openid_configuration == OPENID_CONFIGURATION
    assert [check.name for check in found.report] == [
        "protected-resource metadata",
        "resource is the docs origin",
        "RS256 for the resource",
        "authorization servers listed",
        "issuer https://securetoken.google.com/aptos-api-gateway-prod",
        "RS256 at https://securetoken.google.com/aptos-api-gateway-prod",
        "keys of https://securetoken.google.com/aptos-api-gateway-prod",
        "issuer https://accounts.google.com",
        "RS256 at https://accounts.google.com",
        "keys of https://accounts.google.com",
        "authorization-server metadata",
        "OpenID configuration",
    ]
    assert all(check.ok for check in found.report)
    assert found.report[1] == Check(
        "resource is the docs origin", True, "'https://aptos.dev', origin 'https://aptos.dev'"
    )
    assert found.report[6].detail == f"1 key ({PROJECT_KID}) at {PROJECT_JWKS}"
    assert found.report[9].detail == f"2 keys ({', '.join(ACCOUNTS_KIDS)}) at {ACCOUNTS_JWKS}"
    # The issuer is not the docs origin (RFC 8414 §3.3): a note, not a failure.
    (note,) = found.notes
    assert note.startswith(
        "the authorization-server metadata's issuer is "
        "https://securetoken.google.com/aptos-api-gateway-prod, not the docs origin"
    )
    assert host.urls()[:3] == [
        "https://aptos.dev/.well-known/oauth-protected-resource",
        "https://aptos.dev/.well-known/oauth-authorization-server",
        "https://aptos.dev/.well-known/openid-configuration",
    ]
    assert all(r.headers["accept"] == "application/json" for r in host.asked)


def test_discovery_reads_well_without_memory_addresses(docs: DocsClient) -> None:
    found = docs.discovery()
    text = repr(found)
    assert text.splitlines()[0] == "Discovery of https://aptos.dev: ok (12/12 checks)"
    assert "  [ok] authorization servers listed: " in text
    assert "  note: the authorization-server metadata's issuer is " in text
    assert not re.search(r"0x[0-9a-f]{6,}", text)
    page = found._repr_html_()
    assert page.startswith("<div><strong>Discovery of https://aptos.dev: ok</strong><table>")
    assert page.count("<tr><td>✓</td>") == 12
    assert not re.search(r"0x[0-9a-f]{6,}", page)


def test_a_resource_that_is_not_the_origin_fails(host: RealHost, docs: DocsClient) -> None:
    host.set_json(
        "https://aptos.dev/.well-known/oauth-protected-resource",
        {**PROTECTED_RESOURCE, "resource": "https://docs.aptos.dev"},
    )
    found = docs.discovery()
    assert not found.ok
    assert found.failures == (
        Check(
            "resource is the docs origin",
            False,
            "'https://docs.aptos.dev', origin 'https://aptos.dev'",
        ),
    )
    assert "FAILED (11/12 checks)" in repr(found)
    assert "[FAIL] resource is the docs origin" in repr(found)


def test_no_authorization_servers_fails(host: RealHost, docs: DocsClient) -> None:
    host.set_json(
        "https://aptos.dev/.well-known/oauth-protected-resource",
        {"resource": "https://aptos.dev", "authorization_servers": []},
    )
    found = docs.discovery()
    assert [(c.name, c.ok) for c in found.failures] == [("authorization servers listed", False)]


def test_an_issuer_that_names_another_fails(host: RealHost, docs: DocsClient) -> None:
    host.set_json(
        f"{ACCOUNTS_ISSUER}/.well-known/openid-configuration",
        {"issuer": "https://accounts.example", "jwks_uri": ACCOUNTS_JWKS,
         "id_token_signing_alg_values_supported": ["ES256"]},
    )  # fmt: skip
    found = docs.discovery()
    assert [c.name for c in found.failures] == [
        "issuer https://accounts.google.com",
        "RS256 at https://accounts.google.com",
    ]


@pytest.mark.parametrize(
    "keys",
    [{"keys": []}, {"keys": [{"kty": "RSA"}]}, {"nothing": 1}, [jwk("x")]],
    ids=["empty", "unusable", "no-keys", "not-an-object"],
)
def test_keys_that_do_not_parse_fail(host: RealHost, docs: DocsClient, keys: Any) -> None:
    host.set_json(PROJECT_JWKS, keys)
    found = docs.discovery()
    (failure,) = found.failures
    assert failure.name == f"keys of {PROJECT_ISSUER}"


def test_an_authorization_server_that_does_not_answer_is_a_failed_check() -> None:
    host = RealHost()

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.host == "accounts.google.com":
            raise httpx.ConnectError("no route to host")
        return host(request)

    with DocsClient(DOCS, transport=httpx.MockTransport(handler)) as docs:
        found = docs.discovery()
    (failure,) = found.failures
    assert failure.name == "issuer https://accounts.google.com"
    assert "ConnectError: no route to host" in failure.detail


def test_missing_optional_documents_are_notes(host: RealHost, docs: DocsClient) -> None:
    host.drop("https://aptos.dev/.well-known/oauth-authorization-server")
    host.drop("https://aptos.dev/.well-known/openid-configuration")
    found = docs.discovery()
    assert found.ok
    assert found.authorization_server is None
    assert found.openid_configuration is None
    assert found.notes == (
        "no authorization-server metadata at the docs host "
        "(404 at https://aptos.dev/.well-known/oauth-authorization-server)",
        "no OpenID configuration at the docs host "
        "(404 at https://aptos.dev/.well-known/openid-configuration)",
    )


def test_a_missing_protected_resource_fails(host: RealHost, docs: DocsClient) -> None:
    host.drop("https://aptos.dev/.well-known/oauth-protected-resource")
    host.answers["https://aptos.dev/.well-known/openid-configuration"] = Canned(
        200, {"content-type": "application/json"}, b"{not json"
    )
    found = docs.discovery()
    assert found.protected_resource is None
    assert found.openid_configuration is None
    assert found.report == (
        Check(
            "protected-resource metadata",
            False,
            "404 at https://aptos.dev/.well-known/oauth-protected-resource",
        ),
        Check("authorization-server metadata", True, f"issuer {PROJECT_ISSUER!r}"),
    )
    assert found.notes[-1] == (
        "no OpenID configuration at the docs host "
        "(not JSON at https://aptos.dev/.well-known/openid-configuration)"
    )


def test_discovery_of_a_host_that_is_down_raises() -> None:
    docs = DocsClient(DOCS, transport=_failing(httpx.ConnectError("refused")))
    with pytest.raises(TransportError):
        docs.discovery()


# -- the cache -----------------------------------------------------------------------------


def test_answers_are_kept_for_their_max_age(host: RealHost, docs: DocsClient) -> None:
    docs.page("/network/faucet")
    docs.page("/network/faucet.md")
    docs.index()
    docs.index()
    assert host.urls() == ["https://aptos.dev/network/faucet.md", "https://aptos.dev/llms.txt"]


@pytest.mark.parametrize(
    "headers",
    [
        {"cache-control": "public, max-age=0"},
        {"cache-control": "no-store, max-age=3600"},
        {"cache-control": "public, max-age=3600", "age": "3600"},
        {},
    ],
    ids=["max-age-0", "no-store", "aged", "none"],
)
def test_answers_not_to_keep_are_asked_again(
    host: RealHost, docs: DocsClient, headers: dict[str, str]
) -> None:
    host.answers["https://aptos.dev/network/faucet.md"] = Canned(
        200, {"content-type": "text/markdown", **headers}, FAUCET_MD.encode()
    )
    docs.page("/network/faucet")
    docs.page("/network/faucet")
    assert len(host.asked) == 2


def test_an_answer_expires(host: RealHost, docs: DocsClient) -> None:
    host.answers["https://aptos.dev/network/faucet.md"] = Canned(
        200, {"cache-control": "max-age=3600", "age": "3599"}, FAUCET_MD.encode()
    )
    docs.page("/network/faucet")
    docs.page("/network/faucet")
    assert len(host.asked) == 1
    time.sleep(1.05)
    docs.page("/network/faucet")
    assert len(host.asked) == 2


def test_errors_are_not_kept(host: RealHost, docs: DocsClient) -> None:
    for _ in range(2):
        with pytest.raises(PageNotFoundError):
            docs.page("/nope")
    assert len(host.asked) == 2


def test_cache_false_asks_every_time(host: RealHost) -> None:
    with DocsClient(DOCS, transport=host.transport(), cache=False) as docs:
        docs.page("/network/faucet")
        docs.page("/network/faucet")
    assert len(host.asked) == 2


def test_each_client_has_its_own_cache(host: RealHost) -> None:
    for _ in range(2):
        with DocsClient(DOCS, transport=host.transport()) as docs:
            docs.page("/network/faucet")
    assert len(host.asked) == 2


# -- options -------------------------------------------------------------------------------


def test_headers_are_sent_and_never_shown(host: RealHost) -> None:
    with DocsClient(
        "https://aptos.dev/", transport=host.transport(), headers={"X-Team": "secret-team"}
    ) as docs:
        docs.page("/network/faucet")
        assert repr(docs) == "DocsClient('https://aptos.dev')"
    (request,) = host.asked
    assert request.headers["x-team"] == "secret-team"
    assert request.headers["user-agent"] == "ledgerkit-docs"


@pytest.mark.parametrize(
    "url", ["aptos.dev", "ftp://aptos.dev", "https://aptos.dev/docs", "https://aptos.dev?x=1", 5]
)
def test_the_url_is_an_origin(url: Any) -> None:
    with pytest.raises(InputError):
        DocsClient(url)


def test_redirects_are_followed(host: RealHost, docs: DocsClient) -> None:
    host.answers["https://aptos.dev/old.md"] = Canned(
        301, {"location": "https://aptos.dev/network/faucet.md"}, b""
    )
    assert docs.page("/old") == FAUCET_MD


def test_the_front_door_names_the_clients() -> None:
    import ledgerkit.docsite

    assert ledgerkit.DocsClient is ledgerkit.docsite.DocsClient
    assert ledgerkit.AsyncDocsClient is ledgerkit.docsite.AsyncDocsClient
    assert repr(ledgerkit.DocsClient) == "<class 'ledgerkit.DocsClient'>"
    assert repr(ledgerkit.docsite.Discovery) == "<class 'ledgerkit.docsite.Discovery'>"


# -- the async twin ------------------------------------------------------------------------


def test_the_async_client_answers_as_the_blocking_one() -> None:
    host = RealHost()

    async def run() -> tuple[Any, ...]:
        async with AsyncDocsClient(DOCS, transport=host.transport()) as docs:
            page = await docs.page("/network/faucet")
            again = await docs.page("network/faucet.md")
            index = docs_index_to_frame(await docs.index())
            hits = search_hits_to_frame(await docs.search("faucet", limit=1))
            found = await docs.discovery()
            with pytest.raises(PageNotFoundError):
                await docs.page("/nope")
            return page, again, index, hits, found, repr(docs)

    page, again, index, hits, found, shown = asyncio.run(run())
    assert page == again == FAUCET_MD
    assert index["title"].tolist() == [
        "Your First Transaction",
        "Aptos Faucet API",
        "Glossary",
        "Aptos on GitHub",
    ]
    assert hits["title"].tolist() == ["Aptos Faucet API"]
    assert found.ok
    assert shown == "AsyncDocsClient('https://aptos.dev')"
    assert host.urls().count("https://aptos.dev/network/faucet.md") == 1


def test_the_async_client_maps_failures_too() -> None:
    async def run() -> None:
        async with AsyncDocsClient(DOCS, transport=_failing(httpx.ConnectError("x"))) as docs:
            await docs.page("/network/faucet")

    with pytest.raises(TransportError):
        asyncio.run(run())


# -- against ledgerkit's local docs host ------------------------------------------------------

#: The local docs host's pages as its index lists them.
LOCAL_TITLES = [
    "Getting started",
    "The client",
    "Transactions",
    "The faucet",
    "Widgets",
    "Frames: exact pandas DataFrames from ledger records",
    "Charts",
    "Bulk extraction",
    "The embedded local node",
    "Move packages",
    "Teaching with the official tutorials",
    "The docs client",
    "Contributing",
]
LOCAL_PATHS = [
    "/getting-started",
    "/client",
    "/transactions",
    "/faucet",
    "/widgets",
    "/frames",
    "/charts",
    "/extract",
    "/localnet",
    "/move",
    "/teaching",
    "/docsite",
    "/contributing",
]


def _local_apps(origin: str) -> Any:
    """The docs host and, under ``/idp``, a small issuer it names (its discovery
    document and its keys), as one ASGI app."""
    issuer = f"{origin}/idp"
    metadata = {
        "issuer": issuer,
        "authorization_endpoint": f"{issuer}/authorize",
        "token_endpoint": f"{issuer}/token",
        "jwks_uri": f"{issuer}/jwks",
        "response_types_supported": ["id_token"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
    }

    async def configuration(request: Request) -> JSONResponse:
        return JSONResponse(metadata)

    async def keys(request: Request) -> JSONResponse:
        return JSONResponse({"keys": [jwk("local")]})

    provider = Starlette(
        routes=[
            Route("/idp/.well-known/openid-configuration", configuration),
            Route("/idp/jwks", keys),
        ]
    )
    docs_host = create_docs_app(
        authorization_servers=[issuer], project_issuer_metadata=lambda: metadata
    )

    async def both(scope: Scope, receive: Receive, send: Send) -> None:
        target = provider if scope.get("path", "").startswith("/idp/") else docs_host
        await target(scope, receive, send)

    return both


@pytest.fixture(scope="module")
def local_host() -> Iterator[str]:
    """ledgerkit's docs host on a real uvicorn server on 127.0.0.1, a free port."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    origin = f"http://127.0.0.1:{listener.getsockname()[1]}"
    config = uvicorn.Config(_local_apps(origin), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
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


def test_the_local_host_serves_ledgerkits_pages(local_host: str) -> None:
    with DocsClient(local_host) as docs:
        assert docs.page("/localnet") == (DOCS_DIR / "localnet.md").read_text("utf-8")
        assert docs.page("/") == (DOCS_DIR / "index.md").read_text("utf-8")
        index = docs_index_to_frame(docs.index())
        assert index["title"].tolist() == LOCAL_TITLES
        assert index["path"].tolist() == LOCAL_PATHS
        assert index["url"].tolist() == [f"{local_host}{path}.md" for path in LOCAL_PATHS]
        assert set(index["section"]) == {"Using ledgerkit", "Working on ledgerkit"}
        assert search_hits_to_frame(docs.search("parquet manifest resume", limit=1))[
            "title"
        ].tolist() == ["Bulk extraction"]
        with pytest.raises(PageNotFoundError):
            docs.page("/nope")


def test_the_local_hosts_discovery_holds(local_host: str) -> None:
    with DocsClient(local_host) as docs:
        found = docs.discovery()
    assert found.ok, repr(found)
    assert found.protected_resource is not None
    assert found.protected_resource["resource"] == local_host
    assert found.protected_resource["authorization_servers"] == [f"{local_host}/idp"]


def test_the_async_client_reads_the_local_app_directly() -> None:
    app = _local_apps("http://docs.local")

    async def run() -> tuple[str, list[str], bool]:
        transport = httpx.ASGITransport(app=app)
        async with AsyncDocsClient("http://docs.local", transport=transport) as docs:
            page = await docs.page("/extract")
            titles = (docs_index_to_frame(await docs.index()))["title"].tolist()
            found = await docs.discovery()
            return page, titles, found.ok

    page, titles, ok = asyncio.run(run())
    assert page == (DOCS_DIR / "extract.md").read_text("utf-8")
    assert titles == LOCAL_TITLES
    assert ok


# -- the examples of docs/docsite.md -------------------------------------------------------


def test_the_docsite_page_runs_against_answers_of_the_real_hosts_shapes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its blocks run as written, top to bottom, with the network replaced by the recorded
    answers (the clients the blocks import get the transport)."""
    host = RealHost()

    class Recorded(DocsClient):
        def __init__(self, url: str, **options: Any) -> None:
            super().__init__(url, transport=host.transport(), **options)

    class AsyncRecorded(AsyncDocsClient):
        def __init__(self, url: str, **options: Any) -> None:
            super().__init__(url, transport=host.transport(), **options)

    monkeypatch.setattr(ledgerkit, "DocsClient", Recorded)
    monkeypatch.setattr(ledgerkit, "AsyncDocsClient", AsyncRecorded)
    page = (DOCS_DIR / "docsite.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    printed = []
    for number, source in enumerate(blocks):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(source, f"docsite.md block {number}", "exec"), namespace)
        printed.append(out.getvalue())
    assert len(printed) == 6
    assert printed[0] == "# Aptos Faucet API\n"
    assert printed[1].startswith(
        "Your First Transaction /build/guides/first-transaction\n"
        "['section', 'title', 'url', 'path', 'description']\n"
    )
    assert "/network/faucet" in printed[1]
    assert "Aptos Faucet API" in printed[2]
    assert printed[3].splitlines()[:2] == ["True", "True protected-resource metadata"]
    assert printed[4] == ""
    assert printed[5] == "['Your First Transaction', 'Aptos Faucet API', 'Glossary']\n"
