"""The node over HTTP bounds what one request may ask of it: every bad input a clean
400 or 413 that names the limit, never a 500; heavy work off the event loop, so one
request never holds up the others; error messages that quote a little, not all."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from node_http_helpers import JSON, assert_error, ok

from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.app._request_limits import MAX_JSON_DEPTH, MAX_JSON_ELEMENTS

#: The seven endpoints that take a page size.
LIMITED = [
    ("/accounts/0x1/resources", {}),
    ("/accounts/0x1/modules", {}),
    ("/accounts/0x1/transactions", {}),
    ("/accounts/0x1/events/2", {}),
    ("/accounts/0x1/events/0x1::block::BlockResource/new_block_events", {}),
    ("/transactions", {}),
    ("/transactions/auxiliary_info", {"start_version": "0"}),
]
SENDER = "0x" + "ab" * 32


def user_request(arguments: list[Any], **extra: Any) -> dict[str, Any]:
    """A JSON transaction calling ``0x1::aptos_account::transfer`` with ``arguments``."""
    return {
        "sender": SENDER,
        "sequence_number": "0",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "99999999999",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": arguments,
        },
        **extra,
    }


SIGNATURE = {
    "type": "ed25519_signature",
    "public_key": "0x" + "00" * 32,
    "signature": "0x" + "00" * 64,
}


def nested(depth: int) -> Any:
    """An array ``depth`` levels deep (built without recursion)."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


DEEP = "__deep__"


def deep_bodies() -> list[tuple[str, dict[str, Any]]]:
    """Bodies with one value to be replaced by deeply nested JSON text."""
    return [
        ("/view", {"function": "0x1::account::exists_at", "type_arguments": [],
                   "arguments": [DEEP]}),
        ("/tables/0x1/item", {"key_type": "u64", "value_type": "u64", "key": DEEP}),
        ("/tables/0x1/item", {"key_type": "vector<vector<u8>>", "value_type": "u8", "key": DEEP}),
        ("/transactions/encode_submission", user_request(["0x1", DEEP])),
        ("/transactions", user_request(["0x1", DEEP], signature=SIGNATURE)),
        ("/transactions/simulate", user_request([DEEP, "1"], signature=SIGNATURE)),
    ]  # fmt: skip


def with_depth(body: dict[str, Any], depth: int) -> bytes:
    """``body`` as JSON, nested ``depth`` levels in all (Python's json module would recurse)."""
    text = json.dumps(body)
    inner = depth - 4  # the body's own levels above the value: at most four
    return text.replace(f'"{DEEP}"', "[" * inner + "]" * inner).encode()


# -- item: integers and nesting that Python cannot take -------------------------------------------


@pytest.mark.parametrize(("path", "params"), LIMITED, ids=[p for p, _ in LIMITED])
@pytest.mark.parametrize("digits", [4_301, 5_000, 20_000])
def test_limit_of_thousands_of_digits_is_invalid_input(
    http: httpx.Client, path: str, params: dict[str, str], digits: int
) -> None:
    response = http.get(path, params={**params, "limit": "9" * digits})
    body = assert_error(response, 400, "invalid_input")
    assert "65535" in body["message"]
    assert len(body["message"]) < 500


@pytest.mark.parametrize(("path", "params"), LIMITED, ids=[p for p, _ in LIMITED])
def test_limit_with_leading_zeros_is_still_a_limit(
    http: httpx.Client, path: str, params: dict[str, str]
) -> None:
    ok(http.get(path, params={**params, "limit": "0" * 5_000 + "2"}))


@pytest.mark.parametrize("depth", [970, 1_000, 1_022])
def test_json_nested_near_the_parsers_limit_is_invalid_input(
    http: httpx.Client, depth: int
) -> None:
    for path, body in deep_bodies():
        content = with_depth(body, depth)
        response = http.post(path, content=content, headers={"Content-Type": JSON})
        answer = assert_error(response, 400, "invalid_input")
        assert str(MAX_JSON_DEPTH) in answer["message"], (path, answer)


def test_json_just_within_the_nesting_limit_is_read(http: httpx.Client) -> None:
    """At the limit the body is read; the argument is then refused for what it is."""
    body = {"key_type": "u64", "value_type": "u64", "key": nested(MAX_JSON_DEPTH - 1)}
    answer = assert_error(http.post("/tables/0x1/item", json=body), 400, "invalid_input")
    assert "nested" not in answer["message"]


# -- item: bounded work ---------------------------------------------------------------------


def test_too_many_json_values_are_refused_naming_the_limit(http: httpx.Client) -> None:
    addresses = ["0x1"] * MAX_JSON_ELEMENTS
    batch = user_request([addresses, ["1"] * 10])
    batch["payload"]["function"] = "0x1::aptos_account::batch_transfer"
    view = {"function": "0x1::account::exists_at", "type_arguments": [], "arguments": addresses}
    for path, body in [
        ("/transactions/encode_submission", batch),
        ("/transactions/simulate", {**batch, "signature": SIGNATURE}),
        ("/view", view),
        ("/tables/0x1/item", {"key_type": "vector<address>", "value_type": "u8", "key": addresses}),
    ]:
        answer = assert_error(http.post(path, json=body), 400, "invalid_input")
        assert str(MAX_JSON_ELEMENTS) in answer["message"], (path, answer)


def test_a_body_past_the_size_limit_is_413_naming_it(http: httpx.Client, node: LocalNode) -> None:
    limit = node.config.max_body_bytes
    content = b'{"key": "0x' + b"00" * (limit // 2) + b'"}'
    for path in ("/tables/0x1/raw_item", "/view", "/transactions/simulate"):
        response = http.post(path, content=content, headers={"Content-Type": JSON})
        answer = assert_error(response, 413, "web_framework_error")
        assert str(limit) in answer["message"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/tables/0x1/item", {"key_type": "u64", "value_type": "u64", "key": "x" * 7_000_000}),
        (
            "/tables/0x1/item",
            {"key_type": "0x1::string::String", "value_type": "u64", "key": "a" * 7_000_000},
        ),
        ("/tables/0x1/raw_item", {"key": "0x" + "ab" * 3_000_000}),
        ("/tables/0x1/raw_item", {"key": "0x" + "z" * 6_000_000}),
        ("/view", {"function": "0x1::a::" + "b" * 7_000_000, "type_arguments": [],
                   "arguments": []}),
        ("/view", {"function": "0x1::account::exists_at", "type_arguments": [],
                   "arguments": ["0x" + "1" * 7_000_000]}),
        ("/transactions/encode_submission", user_request(["0x1", "9" * 7_000_000])),
        ("/transactions/simulate", user_request(["q" * 7_000_000, "1"], signature=SIGNATURE)),
    ],
)  # fmt: skip
def test_error_messages_quote_a_little_of_a_huge_value(
    http: httpx.Client, path: str, body: dict[str, Any]
) -> None:
    response = http.post(path, json=body)
    assert 400 <= response.status_code < 500
    answer = assert_error(response, response.status_code)
    assert len(response.content) < 2_000
    assert len(answer["message"]) <= 1_100


def test_odd_path_values_are_quoted_briefly(http: httpx.Client) -> None:
    for path in ("/accounts/" + "z" * 60_000, "/accounts/0x1/resource/" + "q" * 60_000):
        answer = assert_error(http.get(path), 400, "invalid_input")
        assert len(answer["message"]) <= 1_100


# -- item: heavy work runs off the event loop ------------------------------------------------


@pytest.fixture
def held_node() -> Iterator[LocalNode]:
    with LocalNode(seed=21, blocks=2) as running:
        yield running


HEAVY: list[tuple[str, str, dict[str, Any]]] = [
    ("reads.table_item", "/tables/0x1/item", {"key_type": "u64", "value_type": "u64", "key": "1"}),
    ("reads.raw_table_item", "/tables/0x1/raw_item", {"key": "0x01"}),
    ("views.view_function", "/view",
     {"function": "0x1::chain_id::get", "type_arguments": [], "arguments": []}),
    ("encode_submission", "/transactions/encode_submission", user_request(["0x1", "1"])),
    ("signed_from_json", "/transactions/simulate", user_request(["0x1", "1"], signature=SIGNATURE)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "path", "body"), HEAVY, ids=[m.rpartition(".")[2] for m, _, _ in HEAVY]
)
def test_a_request_in_progress_does_not_hold_up_others(
    held_node: LocalNode, method: str, path: str, body: dict[str, Any], monkeypatch: Any
) -> None:
    """While one request's ledger work is held, the node still answers another.

    The held work waits for the second answer; were it on the event loop, no second
    answer could come, and the wait would give up (bounded) and fail the test.
    """
    ledger = held_node.ledger
    assert ledger is not None
    answered = threading.Event()
    entered = threading.Event()
    part, _, name = method.rpartition(".")  # the ledger's own method, or one of its part's
    owner = getattr(ledger, part) if part else ledger
    real = getattr(owner, name)

    def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        released = answered.wait(timeout=20)
        assert released, "the node answered nothing while this request worked"
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, held)
    results: list[httpx.Response] = []
    with httpx.Client(base_url=held_node.url, timeout=60) as client:
        worker = threading.Thread(target=lambda: results.append(client.post(path, json=body)))
        worker.start()
        try:
            assert entered.wait(timeout=30), "the held request never reached the ledger"
            with httpx.Client(base_url=held_node.url, timeout=30) as other:
                ok(other.get("/"))
            answered.set()
        finally:
            answered.set()
            worker.join(timeout=60)
    assert len(results) == 1
    assert results[0].status_code < 500, results[0].text[:300]
