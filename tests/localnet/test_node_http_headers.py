"""The node over HTTP looks like a public node to clients written for one: the
``X-APTOS-*`` twins of the ledger headers on every answer, CORS as public nodes do it,
and ``Allow`` on 405 answers."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from node_http_helpers import APT, BCS, JSON, assert_error, ok

ORIGIN = "https://explorer.example"

#: The seven ledger headers, without their family prefix.
LEDGER = (
    "CHAIN-ID",
    "LEDGER-VERSION",
    "LEDGER-OLDEST-VERSION",
    "LEDGER-TIMESTAMPUSEC",
    "EPOCH",
    "BLOCK-HEIGHT",
    "OLDEST-BLOCK-HEIGHT",
)
#: Every header of the position the node may send, without prefix.
METADATA = (*LEDGER, "GAS-USED", "CURSOR", "TXN-ENCRYPTION-KEY")

VIEW = {"function": "0x1::chain_id::get", "type_arguments": [], "arguments": []}

# (method, path, request options, expected status)
ANSWERS: list[tuple[str, str, dict[str, Any], int]] = [
    ("GET", "/", {}, 200),
    ("GET", "/accounts/0x1/resources", {"params": {"limit": "2"}}, 200),
    ("GET", "/accounts/0x1/modules", {"params": {"limit": "2"}, "headers": {"Accept": BCS}}, 200),
    ("GET", f"/accounts/0x1/balance/{APT}", {"headers": {"Accept": BCS}}, 200),
    ("POST", "/view", {"json": VIEW}, 200),
    ("GET", "/accounts/0x1/resource/0x1::nope::Nope", {}, 404),
    ("GET", "/transactions", {"params": {"limit": "x"}}, 400),
    ("GET", "/no/such/endpoint", {}, 404),
    ("DELETE", "/transactions", {}, 405),
    ("POST", "/view", {"content": b"{", "headers": {"Content-Type": JSON}}, 400),
]


def twins(response: httpx.Response) -> dict[str, tuple[str | None, str | None]]:
    """Each metadata header's ``X-NODE-*`` and ``X-APTOS-*`` values."""
    return {
        name: (response.headers.get("X-NODE-" + name), response.headers.get("X-APTOS-" + name))
        for name in METADATA
    }


@pytest.mark.parametrize(
    ("method", "path", "options", "status"),
    ANSWERS,
    ids=[f"{m} {p} {s}" for m, p, _, s in ANSWERS],
)
def test_every_answer_carries_both_header_families(
    http: httpx.Client, method: str, path: str, options: dict[str, Any], status: int
) -> None:
    response = http.request(method, path, **options)
    assert response.status_code == status, response.text[:300]
    pairs = twins(response)
    for name in LEDGER:
        node, aptos = pairs[name]
        assert node is not None, name
        assert node.isdigit(), (name, node)
        assert aptos == node, (name, pairs[name])
    for name in ("GAS-USED", "CURSOR", "TXN-ENCRYPTION-KEY"):
        node, aptos = pairs[name]
        assert aptos == node, (name, pairs[name])


def test_gas_used_has_its_twin(http: httpx.Client) -> None:
    response = http.post("/view", json=VIEW)
    assert ok(response) == [4]
    assert response.headers["X-APTOS-GAS-USED"] == response.headers["X-NODE-GAS-USED"]


def test_paging_by_the_aptos_cursor_reads_every_resource(http: httpx.Client) -> None:
    """A client that reads only ``x-aptos-cursor`` (as the TypeScript SDK does) pages on."""
    first = http.get("/accounts/0x1/resources")
    whole = ok(first)
    assert len(whole) > 3
    assert "X-APTOS-CURSOR" not in first.headers
    at = {"ledger_version": first.headers["X-APTOS-LEDGER-VERSION"]}  # blocks may follow
    seen: list[Any] = []
    params = {**at, "limit": "2"}
    for _ in range(len(whole)):
        response = http.get("/accounts/0x1/resources", params=params)
        seen += ok(response)
        cursor = response.headers.get("x-aptos-cursor")
        if cursor is None:
            break
        assert response.headers["X-NODE-CURSOR"] == cursor
        params = {**at, "limit": "2", "start": cursor}
    assert seen == whole


def test_the_cursor_twin_is_only_on_cursor_pages(http: httpx.Client) -> None:
    for path in ("/transactions", "/accounts/0x1/events/2", "/accounts/0x1/transactions"):
        response = http.get(path, params={"limit": "1"})
        ok(response)
        assert "X-APTOS-CURSOR" not in response.headers
        assert "X-NODE-CURSOR" not in response.headers


# -- CORS ---------------------------------------------------------------------------------------


def exposed(response: httpx.Response) -> set[str]:
    text = response.headers.get("Access-Control-Expose-Headers", "")
    return {name.strip().upper() for name in text.split(",") if name.strip()}


def vary(response: httpx.Response) -> set[str]:
    return {part.strip().lower() for part in response.headers.get("Vary", "").split(",")}


@pytest.mark.parametrize(
    ("method", "path", "options"),
    [
        ("GET", "/", {}),
        ("POST", "/view", {"json": VIEW}),
        ("GET", "/accounts/0x1/resource/0x1::nope::Nope", {}),
        ("DELETE", "/", {}),
    ],
)
def test_cross_origin_answers_echo_the_origin_with_credentials(
    http: httpx.Client, method: str, path: str, options: dict[str, Any]
) -> None:
    headers = {"Origin": ORIGIN, **options.pop("headers", {})}
    response = http.request(method, path, headers=headers, **options)
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert response.headers["Access-Control-Allow-Credentials"] == "true"
    assert "origin" in vary(response)
    expected = {prefix + name for prefix in ("X-NODE-", "X-APTOS-") for name in METADATA}
    assert exposed(response) == expected


def test_answers_without_an_origin_still_vary_on_it(http: httpx.Client) -> None:
    response = http.get("/")
    assert "Access-Control-Allow-Origin" not in response.headers
    assert "origin" in vary(response)


@pytest.mark.parametrize("method", ["GET", "POST", "get"])
def test_preflight_for_get_and_post_is_granted(http: httpx.Client, method: str) -> None:
    response = http.options(
        "/transactions",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "content-type, x-aptos-client, authorization",
        },
    )
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert response.headers["Access-Control-Allow-Credentials"] == "true"
    assert response.headers["Access-Control-Max-Age"] == "86400"
    methods = {m.strip() for m in response.headers["Access-Control-Allow-Methods"].split(",")}
    assert methods == {"GET", "POST"}
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    assert {h.strip() for h in allowed.split(",")} == {
        "content-type",
        "x-aptos-client",
        "authorization",
    }
    assert "origin" in vary(response)
    assert response.headers["X-APTOS-LEDGER-VERSION"] == response.headers["X-NODE-LEDGER-VERSION"]


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS"])
def test_preflight_for_other_methods_is_refused(http: httpx.Client, method: str) -> None:
    response = http.options(
        "/transactions", headers={"Origin": ORIGIN, "Access-Control-Request-Method": method}
    )
    body = assert_error(response, 403, "web_framework_error")
    assert method in body["message"]
    assert "Access-Control-Allow-Origin" not in response.headers
    assert "Access-Control-Allow-Methods" not in response.headers


def test_the_origin_is_never_a_wildcard(http: httpx.Client) -> None:
    for origin in ("http://localhost:3000", "null", "https://a.example:8443"):
        response = http.get("/", headers={"Origin": origin})
        assert response.headers["Access-Control-Allow-Origin"] == origin
        preflight = http.options(
            "/", headers={"Origin": origin, "Access-Control-Request-Method": "GET"}
        )
        assert preflight.headers["Access-Control-Allow-Origin"] == origin


# -- 405 and Allow --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/transactions", {"GET", "HEAD", "POST"}),
        ("PUT", "/view", {"POST"}),
        ("POST", "/accounts/0x1", {"GET", "HEAD"}),
        ("PATCH", "/", {"GET", "HEAD"}),
        ("OPTIONS", "/tables/0x1/item", {"POST"}),
    ],
)
def test_405_names_what_is_allowed(
    http: httpx.Client, method: str, path: str, allowed: set[str]
) -> None:
    response = http.request(method, path)
    body = assert_error(response, 405, "web_framework_error")
    assert {m.strip() for m in response.headers["Allow"].split(",")} == allowed
    assert method in body["message"]
