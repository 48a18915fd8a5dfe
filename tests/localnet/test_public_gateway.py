"""The public fullnode's gateway over HTTP: compute-unit budgets per client address and
per key, 429 with ``Retry-After``, unknown keys, seeded load shedding, chunked bodies.

Budgets are counted per client address, so each test sends from a loopback address of
its own (127.0.0.0/8 is all loopback on Linux): the tests share a node and still pass in
any order.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import ok

from ledgerkit.localnet import LocalNode, PublicSettings

MakeNode = Callable[..., LocalNode]
SEED: Final = 19
BUDGET: Final = 6
KEY_BUDGET: Final = 40
PAGE_COST: Final = 3
VIEW_BODY: Final = {"function": "0x1::chain_id::get", "type_arguments": [], "arguments": []}


@pytest.fixture(scope="module")
def metered(make_node: MakeNode) -> LocalNode:
    """A public node with a tiny budget and a long window (nothing comes back mid-test)."""
    settings = PublicSettings(
        budget=BUDGET, key_budget=KEY_BUDGET, page_cost=PAGE_COST, window_seconds=600
    )
    return make_node(seed=SEED, blocks=4, profile="public", public=settings, services=False)


@pytest.fixture
def client_from() -> Iterator[Callable[[str, str], httpx.Client]]:
    """``client_from(url, "127.0.0.N")``: a client whose requests come from that address."""
    opened: list[httpx.Client] = []

    def make(url: str, address: str) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=address)
        opened.append(httpx.Client(base_url=url, transport=transport, timeout=30.0))
        return opened[-1]

    yield make
    for client in opened:
        client.close()


def assert_rate_limited(response: httpx.Response, window: float) -> int:
    """A 429 record with ``Retry-After`` in whole seconds within the window; returns it."""
    assert response.status_code == 429, response.text[:300]
    body = response.json()
    assert body["error_code"] == "rate_limited"
    assert body["message"]
    retry = response.headers["Retry-After"]
    assert retry.isdigit()
    assert 1 <= int(retry) <= window
    return int(retry)


def test_point_reads_spend_the_budget_of_a_client_address_then_429(
    metered: LocalNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    first = client_from(metered.url, "127.0.0.11")
    for _ in range(BUDGET):
        ok(first.get("/"))
    assert_rate_limited(first.get("/"), 600)
    assert_rate_limited(first.get("/-/healthy"), 600)
    # Another address has a budget of its own.
    other = client_from(metered.url, "127.0.0.12")
    ok(other.get("/"))


def test_page_reads_cost_more_than_point_reads(
    metered: LocalNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    pages = client_from(metered.url, "127.0.0.13")
    served = 0
    while pages.get("/transactions", params={"limit": 1}).status_code == 200:
        served += 1
        assert served <= BUDGET, "page reads were never refused"
    assert served == BUDGET // PAGE_COST
    assert_rate_limited(pages.get("/"), 600)  # the pages spent it all
    points = client_from(metered.url, "127.0.0.14")
    for _ in range(BUDGET):
        ok(points.get("/accounts/0x1"))
    # Every list endpoint is a page read.
    lists = client_from(metered.url, "127.0.0.15")
    ok(lists.get("/accounts/0x1/resources"))
    ok(lists.get("/accounts/0x1/events/2", params={"limit": 1}))  # the newest, kept
    assert_rate_limited(lists.get("/accounts/0x1/modules"), 600)


def test_the_nodes_key_raises_the_budget(
    metered: LocalNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    keyed = client_from(metered.url, "127.0.0.16")
    auth = {"Authorization": f"Bearer {metered.api_key}"}
    for _ in range(BUDGET * 3):
        ok(keyed.get("/", headers=auth))
    # The anonymous budget of that address is untouched.
    for _ in range(BUDGET):
        ok(keyed.get("/"))
    assert_rate_limited(keyed.get("/"), 600)


def test_an_unknown_key_answers_401_and_spends_nothing(
    metered: LocalNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    caller = client_from(metered.url, "127.0.0.17")
    for authorization in ("Bearer not-the-key", "Basic dXNlcjpwdw==", "Bearer"):
        response = caller.get("/", headers={"Authorization": authorization})
        assert response.status_code == 401
        body = response.json()
        assert set(body) == {"message", "error_code"}
        assert body["message"]
    for _ in range(BUDGET):
        ok(caller.get("/"))


def test_the_budget_comes_back_when_the_window_ends(
    make_node: MakeNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    settings = PublicSettings(budget=2, window_seconds=1)
    node = make_node(seed=SEED, blocks=4, profile="public", public=settings, services=False)
    caller = client_from(node.url, "127.0.0.18")
    for _ in range(10):  # a 429 comes within the budget's 2 requests (and a slow window)
        response = caller.get("/")
        if response.status_code == 429:
            break
    retry = assert_rate_limited(response, 1)
    time.sleep(retry)  # Retry-After is whole seconds up to the window's end
    ok(caller.get("/"))


def _statuses(node: LocalNode, count: int) -> list[int]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        answers = [client.get(("/", "/accounts/0x1")[i % 2]) for i in range(count)]
    for response in answers:
        if response.status_code == 503:
            body = response.json()
            assert body == {
                "message": "Server is shedding load; please retry shortly",
                "error_code": "overloaded",
            }
        else:
            ok(response)
    return [response.status_code for response in answers]


def test_overload_sheds_a_seeded_share_of_requests_the_same_way_each_time(
    make_node: MakeNode,
) -> None:
    def node(seed: int) -> LocalNode:
        settings = PublicSettings(overload_rate=0.3, seed=seed)
        return make_node(seed=SEED, blocks=4, profile="public", public=settings, services=False)

    first = _statuses(node(1), 40)
    assert 503 in first
    assert 200 in first
    assert _statuses(node(1), 40) == first  # same seed, same requests: same faults
    assert _statuses(node(2), 40) != first
    # Without overload_rate nothing is shed.
    none = make_node(seed=SEED, blocks=4, profile="public", services=False)
    assert set(_statuses(none, 20)) == {200}


def test_overload_spares_the_health_check(make_node: MakeNode) -> None:
    settings = PublicSettings(overload_rate=1.0)
    node = make_node(seed=SEED, blocks=4, profile="public", public=settings, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        assert client.get("/").status_code == 503
        ok(client.get("/-/healthy"))
    with httpx.Client(base_url=node.archive_url, timeout=30.0) as archive:
        ok(archive.get("/"))  # the archive is not shedding


def _chunked(body: dict[str, Any]) -> Iterator[bytes]:
    """A body httpx sends with ``Transfer-Encoding: chunked`` (no Content-Length)."""
    yield json.dumps(body).encode()


def test_a_chunked_post_answers_400_on_the_public_fullnode(
    metered: LocalNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    caller = client_from(metered.url, "127.0.0.19")
    headers = {"Content-Type": "application/json"}
    refused = caller.post("/view", content=_chunked(VIEW_BODY), headers=headers)
    assert refused.request.headers.get("transfer-encoding") == "chunked"
    assert refused.status_code == 400
    assert refused.json() == {
        "message": "Transfer-Encoding is not supported",
        "error_code": "web_framework_error",
    }
    assert ok(caller.post("/view", json=VIEW_BODY)) == [metered.config.chain_id]


def test_a_chunked_post_is_read_by_the_default_profile(http: httpx.Client, node: LocalNode) -> None:
    headers = {"Content-Type": "application/json"}
    answer = http.post("/view", content=_chunked(VIEW_BODY), headers=headers)
    assert answer.request.headers.get("transfer-encoding") == "chunked"
    assert ok(answer) == [node.config.chain_id]
    # Nor does it meter or refuse keys.
    for _ in range(3):
        ok(http.get("/", headers={"Authorization": "Bearer anything"}))


def test_the_gateways_answers_are_marked_for_browsers(
    metered: LocalNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    caller = client_from(metered.url, "127.0.0.20")
    origin = {"Origin": "https://explorer.example"}
    response = caller.get("/", headers={**origin, "Authorization": "Bearer wrong"})
    assert response.status_code == 401
    assert response.headers["Access-Control-Allow-Origin"] == "https://explorer.example"
    # A preflight costs nothing: the whole budget is still there afterwards.
    for _ in range(BUDGET + 2):
        preflight = caller.options("/", headers={**origin, "Access-Control-Request-Method": "GET"})
        assert preflight.status_code == 200
    for _ in range(BUDGET):
        ok(caller.get("/"))


def test_a_metered_archive_counts_per_client_address(
    make_node: MakeNode, client_from: Callable[[str, str], httpx.Client]
) -> None:
    settings = PublicSettings(archive_budget=2, window_seconds=600)
    node = make_node(seed=SEED, blocks=4, profile="public", public=settings, services=False)
    caller = client_from(node.archive_url, "127.0.0.21")
    ok(caller.get("/"))
    ok(caller.get("/blocks/by_height/0"))
    assert_rate_limited(caller.get("/"), 600)
    ok(client_from(node.archive_url, "127.0.0.22").get("/"))
