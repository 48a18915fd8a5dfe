"""The node over HTTP, general part: ledger info, health, the headers on every answer,
unknown paths and wrong methods."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from node_http_helpers import (
    REQUIRED_HEADERS,
    assert_error,
    assert_headers,
    is_u64,
    ok,
)

from ledgerkit.localnet import LocalNode

UNKNOWN = "0x" + "ab" * 32


@pytest.fixture(scope="module")
def idle_http() -> Iterator[httpx.Client]:
    """A node nobody submits to: its last block is from the generated (past) chain."""
    with LocalNode(seed=3, blocks=2) as idle, httpx.Client(base_url=idle.url) as client:
        yield client


# -- GET / ------------------------------------------------------------------------------------


def test_ledger_info_has_every_field_in_its_format(http: httpx.Client) -> None:
    response = http.get("/")
    info = ok(response)
    assert isinstance(info["chain_id"], int)
    assert not isinstance(info["chain_id"], bool)
    for name in (
        "epoch",
        "ledger_version",
        "oldest_ledger_version",
        "ledger_timestamp",
        "oldest_block_height",
        "block_height",
    ):
        assert is_u64(info[name]), (name, info[name])
    assert info["node_role"] in ("validator", "full_node")
    assert isinstance(info["git_hash"], str)
    assert info["git_hash"]
    # The headers describe the same position as the body.
    headers = assert_headers(response)
    assert headers["X-NODE-CHAIN-ID"] == info["chain_id"]
    assert headers["X-NODE-LEDGER-VERSION"] == int(info["ledger_version"])
    assert headers["X-NODE-LEDGER-OLDEST-VERSION"] == int(info["oldest_ledger_version"])
    assert headers["X-NODE-LEDGER-TIMESTAMPUSEC"] == int(info["ledger_timestamp"])
    assert headers["X-NODE-EPOCH"] == int(info["epoch"])
    assert headers["X-NODE-BLOCK-HEIGHT"] == int(info["block_height"])
    assert headers["X-NODE-OLDEST-BLOCK-HEIGHT"] == int(info["oldest_block_height"])


def test_generated_chain_is_there(http: httpx.Client) -> None:
    info = ok(http.get("/"))
    assert int(info["block_height"]) >= 40
    assert int(info["ledger_version"]) > int(info["block_height"])
    assert info["oldest_ledger_version"] == "0"
    assert info["oldest_block_height"] == "0"


# -- health -------------------------------------------------------------------------------------


def test_health_without_duration_is_ok(http: httpx.Client) -> None:
    body = ok(http.get("/-/healthy"))
    assert isinstance(body["message"], str)
    assert body["message"]


def test_health_fails_when_the_last_block_is_older_than_duration(idle_http: httpx.Client) -> None:
    # Health is judged by the chain's clock, which has moved on since the node started
    # (nothing was submitted, so no block came since): the last block is older than 0 s.
    response = idle_http.get("/-/healthy", params={"duration_secs": "0"})
    assert_error(response, 503, "health_check_failed")


def test_health_passes_with_a_duration_reaching_back_to_the_last_block(
    idle_http: httpx.Client,
) -> None:
    body = ok(idle_http.get("/-/healthy", params={"duration_secs": str(2**32 - 1)}))
    assert body["message"]


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "", str(2**32)])
def test_health_refuses_a_duration_that_is_not_a_u32(http: httpx.Client, value: str) -> None:
    assert_error(http.get("/-/healthy", params={"duration_secs": value}), 400)


# -- headers everywhere ------------------------------------------------------------------------

ANSWERS: list[tuple[str, str, dict[str, Any], int]] = [
    ("GET", "/", {}, 200),
    ("GET", "/-/healthy", {}, 200),
    ("GET", "/accounts/0x1", {}, 200),
    ("GET", "/accounts/0x1/resources", {"params": {"limit": "2"}}, 200),
    ("GET", "/accounts/0x1/resource/0x1::chain_id::ChainId", {}, 200),
    ("GET", "/accounts/0x1/modules", {"params": {"limit": "1"}}, 200),
    ("GET", "/accounts/0x1/module/coin", {}, 200),
    ("GET", "/accounts/0x1/balance/0xa", {}, 200),
    ("GET", "/accounts/0x1/events/2", {}, 200),
    ("GET", "/transactions", {}, 200),
    ("GET", "/transactions/by_version/0", {}, 200),
    ("GET", "/transactions/auxiliary_info", {"params": {"start_version": "0"}}, 200),
    ("GET", "/blocks/by_height/1", {}, 200),
    ("GET", "/blocks/by_version/1", {}, 200),
    ("GET", "/estimate_gas_price", {}, 200),
    (
        "POST",
        "/view",
        {"json": {"function": "0x1::chain_id::get", "type_arguments": [], "arguments": []}},
        200,
    ),
    ("GET", f"/accounts/{UNKNOWN}", {}, 404),
    ("GET", "/accounts/0xzz", {}, 400),
    ("GET", "/transactions/by_version/99999999", {}, 404),
    ("GET", "/transactions/by_hash/" + UNKNOWN, {}, 404),
    ("GET", "/blocks/by_height/99999999", {}, 404),
    ("POST", "/view", {"content": b"{", "headers": {"Content-Type": "application/json"}}, 400),
    ("GET", "/nope", {}, 404),
    ("GET", "/accounts/0x1/nope/deeper", {}, 404),
    ("DELETE", "/transactions", {}, 405),
    ("POST", "/", {}, 405),
    ("PUT", "/accounts/0x1", {}, 405),
    ("GET", "/view", {}, 405),
    ("GET", "/transactions/simulate", {}, 405),
    ("POST", "/estimate_gas_price", {"json": {}}, 405),
]


@pytest.mark.parametrize(
    ("method", "path", "options", "status"),
    ANSWERS,
    ids=[f"{m} {p} {s}" for m, p, _, s in ANSWERS],
)
def test_every_answer_carries_the_ledger_headers(
    http: httpx.Client, method: str, path: str, options: dict[str, Any], status: int
) -> None:
    response = http.request(method, path, **options)
    assert response.status_code == status, response.text[:300]
    headers = assert_headers(response)
    assert headers["X-NODE-CHAIN-ID"] == ok(http.get("/"))["chain_id"]
    if status >= 400:
        assert_error(response, status)


def test_unknown_path_outside_v1_is_a_404_record(node: LocalNode, http: httpx.Client) -> None:
    root = node.url.removesuffix("/v1")
    response = http.get(root + "/definitely/not/here")
    body = assert_error(response, 404, "web_framework_error")
    assert "/definitely/not/here" in body["message"]


def test_unknown_endpoint_and_wrong_method_name_the_fault(http: httpx.Client) -> None:
    missing = assert_error(http.get("/nope"), 404, "web_framework_error")
    assert "/v1/nope" in missing["message"]
    refused = assert_error(http.delete("/transactions"), 405, "web_framework_error")
    assert "DELETE" in refused["message"]


@pytest.mark.parametrize(
    "path", ["/accounts/0x1/", "/transactions/", "/-/healthy/", "//accounts/0x1", "/blocks/"]
)
def test_trailing_and_doubled_slashes_are_404_records(http: httpx.Client, path: str) -> None:
    """No bare redirects: every answer is the node's own, with its headers."""
    assert_error(http.get(path), 404, "web_framework_error")


def test_v1_with_and_without_a_slash_is_the_ledger_info(node: LocalNode) -> None:
    bare = httpx.get(node.url)
    slashed = httpx.get(node.url + "/")
    assert ok(bare) == ok(slashed)
    assert "ledger_version" in ok(bare)


def test_header_names_are_the_documented_ones(http: httpx.Client) -> None:
    response = http.get("/")
    names = {name.upper() for name in response.headers if name.upper().startswith("X-NODE-")}
    assert set(REQUIRED_HEADERS) <= names
    assert names <= {
        *REQUIRED_HEADERS,
        "X-NODE-GAS-USED",
        "X-NODE-CURSOR",
        "X-NODE-TXN-ENCRYPTION-KEY",
    }
