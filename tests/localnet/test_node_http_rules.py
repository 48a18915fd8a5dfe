"""The node over HTTP, rules that cut across endpoints: BCS negotiation, switched-off
endpoint groups, pruning, malformed bodies, and no internal errors on odd input."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from node_http_helpers import (
    BCS,
    JSON,
    SIGNED_TXN_BCS,
    assert_error,
    assert_headers,
    ok,
    ok_bcs,
)

from ledgerkit.localnet import LocalNode

GAS = "/estimate_gas_price"

# -- BCS negotiation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "bcs"),
    [
        (BCS, True),
        (JSON, False),
        (f"{BCS}, {JSON}", True),
        (f"{JSON}, {BCS}", False),
        (f"text/html, {BCS}", True),
        (f"text/html;q=1.0, {JSON};q=0.5, {BCS}", False),
        (f"{BCS};q=0.1, {JSON};q=1.0", True),  # the list order decides, not q
        ("*/*", False),
        ("application/*", False),
        ("text/html", False),
        ("", False),
    ],
)
def test_accept_list_picks_the_first_known_type(http: httpx.Client, accept: str, bcs: bool) -> None:
    headers = {"Accept": accept} if accept else {}
    response = http.get(GAS, headers=headers)
    if bcs:
        assert len(ok_bcs(response)) == 8
    else:
        assert isinstance(ok(response)["gas_estimate"], int)


def test_no_accept_header_is_json(node: LocalNode) -> None:
    with httpx.Client(base_url=node.url, headers={}) as client:
        request = client.build_request("GET", GAS)
        del request.headers["Accept"]
        assert isinstance(ok(client.send(request))["gas_estimate"], int)


JSON_ONLY: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/", {}),
    ("GET", "/-/healthy", {}),
    ("GET", "/accounts/0x1", {}),
    ("GET", "/accounts/0x1/events/2", {}),
    ("GET", "/accounts/0x1/events/0x1::block::BlockResource/new_block_events", {}),
    ("GET", "/transactions/auxiliary_info", {"params": {"start_version": "0"}}),
    ("GET", "/blocks/by_height/0", {}),
    ("GET", "/blocks/by_version/0", {}),
    ("POST", "/transactions/encode_submission", {"json": {}}),
]


@pytest.mark.parametrize(
    ("method", "path", "options"), JSON_ONLY, ids=[f"{m} {p}" for m, p, _ in JSON_ONLY]
)
def test_json_only_endpoints_refuse_a_bcs_only_client(
    http: httpx.Client, method: str, path: str, options: dict[str, Any]
) -> None:
    response = http.request(method, path, headers={"Accept": BCS}, **options)
    body = assert_error(response, 400, "bcs_not_supported")
    assert "BCS" in body["message"] or "JSON" in body["message"]
    # The same request accepting JSON is answered (or refused for its own reasons).
    again = http.request(method, path, headers={"Accept": JSON}, **options)
    assert again.status_code != 400 or again.json()["error_code"] != "bcs_not_supported"


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/0x1/resources",
        "/accounts/0x1/resource/0x1::chain_id::ChainId",
        "/accounts/0x1/modules",
        "/accounts/0x1/module/coin",
        "/accounts/0x1/balance/0xa",
        GAS,
    ],
)
def test_bcs_endpoints_answer_in_either(http: httpx.Client, path: str) -> None:
    assert ok_bcs(http.get(path, headers={"Accept": BCS}))
    assert ok(http.get(path, headers={"Accept": JSON})) is not None
    assert ok(http.get(path, headers={"Accept": "*/*"})) is not None


# -- switched-off groups -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited_http() -> Iterator[httpx.Client]:
    with (
        LocalNode(seed=11, blocks=3, disabled=frozenset({"view", "accounts"})) as limited,
        httpx.Client(base_url=limited.url) as client,
    ):
        yield client


VIEW_BODY = {"function": "0x1::chain_id::get", "type_arguments": [], "arguments": []}


@pytest.mark.parametrize(
    ("method", "path", "options"),
    [
        ("POST", "/view", {"json": VIEW_BODY}),
        ("POST", "/view", {"content": b"{", "headers": {"Content-Type": JSON}}),
        ("GET", "/accounts/0x1", {}),
        ("GET", "/accounts/0x1/resources", {}),
        ("GET", "/accounts/0x1/resource/0x1::chain_id::ChainId", {}),
        ("GET", "/accounts/0x1/modules", {}),
        ("GET", "/accounts/0x1/module/coin", {}),
        ("GET", "/accounts/0x1/balance/0xa", {}),
        ("GET", "/accounts/0xzz", {}),
    ],
)
def test_switched_off_groups_answer_403(
    limited_http: httpx.Client, method: str, path: str, options: dict[str, Any]
) -> None:
    body = assert_error(limited_http.request(method, path, **options), 403, "api_disabled")
    assert "disabled" in body["message"]


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/-/healthy",
        "/transactions",
        "/transactions/by_version/0",
        "/blocks/by_height/1",
        GAS,
        "/accounts/0x1/events/2",
    ],
)
def test_other_groups_still_work(limited_http: httpx.Client, path: str) -> None:
    ok(limited_http.get(path))


@pytest.fixture(scope="module")
def json_only_http() -> Iterator[httpx.Client]:
    with (
        LocalNode(seed=12, blocks=2, disabled=frozenset({"bcs"})) as node,
        httpx.Client(base_url=node.url) as client,
    ):
        yield client


def test_switching_off_bcs_refuses_bcs_answers_everywhere(json_only_http: httpx.Client) -> None:
    assert_error(json_only_http.get(GAS, headers={"Accept": BCS}), 403, "api_disabled")
    assert isinstance(ok(json_only_http.get(GAS))["gas_estimate"], int)
    raw = json_only_http.post("/tables/0x1/raw_item", json={"key": "0x01"})
    assert_error(raw, 403, "api_disabled")
    submit = json_only_http.post(
        "/transactions", content=b"\x00", headers={"Content-Type": SIGNED_TXN_BCS, "Accept": BCS}
    )
    assert_error(submit, 403, "api_disabled")


# -- pruning -------------------------------------------------------------------------------------

WINDOW = 30


class Pruned:
    def __init__(self, client: httpx.Client, oldest: int, latest: int, oldest_block: int) -> None:
        self.http = client
        self.oldest = oldest
        self.latest = latest
        self.oldest_block = oldest_block


@pytest.fixture(scope="module")
def pruned() -> Iterator[Pruned]:
    with (
        LocalNode(seed=13, blocks=20, prune_window=WINDOW) as node,
        httpx.Client(base_url=node.url) as client,
    ):
        info = ok(client.get("/"))
        yield Pruned(
            client,
            int(info["oldest_ledger_version"]),
            int(info["ledger_version"]),
            int(info["oldest_block_height"]),
        )


def test_pruned_node_says_what_it_holds(pruned: Pruned) -> None:
    assert pruned.oldest > 0
    assert pruned.oldest_block > 0
    assert pruned.latest - pruned.oldest + 1 <= WINDOW
    response = pruned.http.get("/transactions/by_version/0")
    headers = assert_headers(response)
    assert headers["X-NODE-LEDGER-OLDEST-VERSION"] == pruned.oldest
    assert headers["X-NODE-OLDEST-BLOCK-HEIGHT"] == pruned.oldest_block
    # The oldest block held starts at the oldest version held.
    block = ok(pruned.http.get(f"/blocks/by_height/{pruned.oldest_block}"))
    assert int(block["first_version"]) == pruned.oldest


@pytest.mark.parametrize(
    "path",
    [
        "/transactions/by_version/{old}",
        "/transactions?start={old}",
        "/transactions/auxiliary_info?start_version={old}",
        "/accounts/0x1?ledger_version={old}",
        "/accounts/0x1/resources?ledger_version={old}",
        "/accounts/0x1/resource/0x1::chain_id::ChainId?ledger_version={old}",
        "/accounts/0x1/modules?ledger_version={old}",
        "/accounts/0x1/module/coin?ledger_version={old}",
        "/accounts/0x1/balance/0xa?ledger_version={old}",
    ],
)
def test_pruned_versions_answer_410(pruned: Pruned, path: str) -> None:
    for old in (0, pruned.oldest - 1):
        response = pruned.http.get(path.format(old=old))
        body = assert_error(response, 410, "version_pruned")
        assert str(pruned.oldest) in body["message"]
        assert assert_headers(response)["X-NODE-LEDGER-OLDEST-VERSION"] == pruned.oldest


def test_pruned_versions_of_posts_answer_410(pruned: Pruned) -> None:
    old = {"ledger_version": str(pruned.oldest - 1)}
    assert_error(pruned.http.post("/view", json=VIEW_BODY, params=old), 410, "version_pruned")
    item = {"key_type": "u64", "value_type": "u64", "key": "1"}
    response = pruned.http.post("/tables/0x1/item", json=item, params=old)
    assert_error(response, 410, "version_pruned")
    raw = pruned.http.post("/tables/0x1/raw_item", json={"key": "0x01"}, params=old)
    assert_error(raw, 410, "version_pruned")


def test_pruned_blocks_answer_410(pruned: Pruned) -> None:
    for height in (0, pruned.oldest_block - 1):
        response = pruned.http.get(f"/blocks/by_height/{height}")
        assert_error(response, 410, "block_pruned")
    assert_error(pruned.http.get("/blocks/by_version/0"), 410, "block_pruned")
    last = pruned.oldest - 1
    assert_error(pruned.http.get(f"/blocks/by_version/{last}"), 410, "block_pruned")


def test_pruned_hashes_answer_410(pruned: Pruned) -> None:
    """A transaction known by hash but older than the window is pruned, not missing."""
    with (
        LocalNode(seed=13, blocks=20) as twin,  # the same chain, unpruned
        httpx.Client(base_url=twin.url) as client,
    ):
        old = [ok(client.get(f"/transactions/by_version/{v}")) for v in (0, pruned.oldest - 1)]
        held = ok(client.get(f"/transactions/by_version/{pruned.oldest}"))
    for txn in old:
        response = pruned.http.get(f"/transactions/by_hash/{txn['hash']}")
        assert_error(response, 410, "version_pruned")
    assert ok(pruned.http.get(f"/transactions/by_hash/{held['hash']}")) == held


def test_pruned_node_still_serves_recent_state(pruned: Pruned) -> None:
    http = pruned.http
    at_oldest = {"ledger_version": str(pruned.oldest)}
    assert ok(http.get(f"/transactions/by_version/{pruned.oldest}"))["version"] == str(
        pruned.oldest
    )
    assert ok(http.get("/accounts/0x1", params=at_oldest))["sequence_number"] == "0"
    assert ok(http.get("/accounts/0x1/modules", params=at_oldest))
    assert ok(http.post("/view", json=VIEW_BODY, params=at_oldest))
    listing = ok(http.get("/transactions", params={"limit": "100"}))
    assert [int(t["version"]) for t in listing] == list(range(pruned.oldest, pruned.latest + 1))
    info = ok(http.get("/transactions/auxiliary_info", params={"start_version": pruned.oldest}))
    assert info[0] == {"transaction_index": 0}
    assert ok(http.get(f"/blocks/by_height/{pruned.oldest_block}"))
    assert ok(http.get("/accounts/0x1/events/2", params={"limit": "3"}))


def test_pruned_events_are_not_served(pruned: Pruned) -> None:
    events = ok(pruned.http.get("/accounts/0x1/events/2", params={"start": "0", "limit": "100"}))
    assert all(int(e["version"]) >= pruned.oldest for e in events)


# -- malformed bodies ----------------------------------------------------------------------------

POSTS = [
    "/view",
    "/tables/0x1/item",
    "/tables/0x1/raw_item",
    "/transactions",
    "/transactions/simulate",
    "/transactions/encode_submission",
]


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize(
    ("content", "says"),
    [(b"{not json", "json"), (b'{"a": ', "json"), (b"\xff\xfe", "json"), (b"", "empty")],
)
def test_malformed_json_bodies_are_400_and_say_so(
    http: httpx.Client, path: str, content: bytes, says: str
) -> None:
    response = http.post(path, content=content, headers={"Content-Type": JSON})
    body = assert_error(response, 400, "invalid_input", "web_framework_error")
    assert says in body["message"].lower()


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "multipart/form-data"])
def test_wrong_content_types_are_400_and_named(
    http: httpx.Client, path: str, content_type: str
) -> None:
    response = http.post(path, content=b"{}", headers={"Content-Type": content_type})
    body = assert_error(response, 400, "invalid_input", "web_framework_error")
    assert content_type in body["message"] or JSON in body["message"]


@pytest.mark.parametrize("path", ["/transactions", "/transactions/simulate"])
def test_garbage_bcs_bodies_are_400(http: httpx.Client, path: str) -> None:
    for content in (b"", b"\x00", b"\xff" * 40, bytes(range(256))):
        response = http.post(path, content=content, headers={"Content-Type": SIGNED_TXN_BCS})
        body = assert_error(response, 400, "invalid_input")
        assert "BCS" in body["message"]


def test_deeply_nested_json_is_400(http: httpx.Client) -> None:
    nested = b"[" * 100_000 + b"]" * 100_000
    for path in POSTS:
        response = http.post(path, content=nested, headers={"Content-Type": JSON})
        assert_error(response, 400)


# -- no internal errors on odd input ---------------------------------------------------------------

GET_TEMPLATES = [
    "/accounts/{a}",
    "/accounts/{a}/resources",
    "/accounts/{a}/modules",
    "/accounts/0x1/resource/{a}",
    "/accounts/0x1/module/{a}",
    "/accounts/0x1/balance/{a}",
    "/accounts/{a}/balance/0xa",
    "/accounts/{a}/events/{b}",
    "/accounts/0x1/events/{a}/{b}",
    "/accounts/{a}/transactions",
    "/transactions/by_version/{a}",
    "/transactions/by_hash/{a}",
    "/blocks/by_height/{a}",
    "/blocks/by_version/{a}",
    "/{a}",
    "/accounts/0x1/{a}",
    "/transactions/{a}",
    "/tables/{a}/item",
]
QUERY_KEYS = [
    "limit",
    "start",
    "ledger_version",
    "with_transactions",
    "duration_secs",
    "start_version",
]
QUERY_PATHS = [
    "/-/healthy",
    "/accounts/0x1",
    "/accounts/0x1/resources",
    "/accounts/0x1/modules",
    "/accounts/0x1/events/2",
    "/accounts/0x1/transactions",
    "/transactions",
    "/transactions/auxiliary_info",
    "/blocks/by_height/1",
]
NUMBERS = st.integers(min_value=0, max_value=2**64 + 1).map(str)
ODD = st.sampled_from(
    [
        "",
        "0",
        "-1",
        "0x",
        "0x1",
        "0x" + "f" * 64,
        "0x" + "f" * 65,
        "1e9",
        "1.0",
        " 1",
        "true",
        "null",
        "0x1::coin::CoinInfo<",
        "0x1::coin::CoinInfo<0x1::aptos_coin::AptosCoin>",
        "0x1::a::B<u8, vector<u64>>",
        "vector<vector<vector<u8>>>",
        "%",
        "..",
        "\x00",
        "é",
        "\ud7ff",
        "a" * 300,
        str(2**64),
        str(2**128),
    ]
)
SEGMENTS = st.one_of(st.text(max_size=40), NUMBERS, ODD)


def assert_answered(response: httpx.Response) -> None:
    """Any answer but an internal error: the node's record, with its headers."""
    if response.status_code == 503:  # a health check with a short duration_secs
        assert_error(response, 503, "health_check_failed")
        return
    assert response.status_code < 500, (response.request.url, response.text[:300])
    assert_headers(response)
    if response.status_code >= 400:
        assert_error(response, response.status_code)


FUZZ = settings(
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FUZZ
@given(template=st.sampled_from(GET_TEMPLATES), a=SEGMENTS, b=SEGMENTS)
def test_odd_path_segments_never_break_the_node(
    http: httpx.Client, template: str, a: str, b: str
) -> None:
    path = template.format(a=quote(a, safe=""), b=quote(b, safe=""))
    assert_answered(http.get(path))


@FUZZ
@given(
    path=st.sampled_from(QUERY_PATHS),
    query=st.dictionaries(st.sampled_from(QUERY_KEYS), SEGMENTS, max_size=3),
)
def test_odd_query_values_never_break_the_node(
    http: httpx.Client, path: str, query: dict[str, str]
) -> None:
    assert_answered(http.get(path, params=query))


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20), ODD, NUMBERS),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                ["function", "type_arguments", "arguments", "key_type", "value_type", "key",
                 "sender", "sequence_number", "payload", "signature", "type"]
            ),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=12,
)  # fmt: skip


@FUZZ
@given(path=st.sampled_from(POSTS), body=JSON_VALUES)
def test_odd_json_bodies_never_break_the_node(http: httpx.Client, path: str, body: Any) -> None:
    response = http.post(path, json=body)
    assert_answered(response)
    assert response.status_code != 202, "nothing random is a valid signed transaction"


@pytest.mark.parametrize(
    "path",
    [
        f"/accounts/0x1/events/{2**63}",
        f"/accounts/0x1/events/2?start={2**63}",
        f"/accounts/0x1/events/0x1::block::BlockResource/new_block_events?start={2**64 - 1}",
        f"/accounts/0x1/transactions?start={2**63}",
        f"/accounts/{2**64 - 1:x}/events/{2**64 - 1}?start={2**64 - 1}&limit=65535",
    ],
)
def test_largest_u64_values_are_answered(http: httpx.Client, path: str) -> None:
    """Past SQLite's signed 64-bit integers, still a plain (empty) answer."""
    assert ok(http.get(path)) == []
