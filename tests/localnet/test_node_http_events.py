"""The node over HTTP, events: streams by creation number and by the struct field that
holds the handle, newest-page defaults and forward paging."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from node_http_helpers import (
    Account,
    assert_error,
    is_address,
    is_u64,
    ok,
    raw_transaction,
    submit,
    wait,
)

from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

BOARD = "0x1::ledger_demo::Board"
SCORES = 6
PLAYER = Address.parse("0x" + "7a" * 32)


@pytest.fixture(scope="module")
def board_owner(node: LocalNode, http: httpx.Client) -> Account:
    """A dev account whose Board got ``SCORES`` score changes (events 0 .. SCORES-1)."""
    owner: Account = node.dev_accounts[4]
    first = int(ok(http.get(f"/accounts/{owner.address}"))["sequence_number"])
    hashes = []
    for i in range(SCORES):
        raw = raw_transaction(
            http,
            owner,
            "0x1::ledger_demo::set_score",
            [("address", PLAYER), ("u64", 100 + i)],
            sequence=first + i,
        )
        hashes.append(submit(http, raw.sign(owner.private_key))["hash"])
    for txn_hash in hashes:
        assert wait(http, txn_hash)["success"] is True
    return owner


def handle_of(http: httpx.Client, owner: Account) -> dict[str, Any]:
    board = ok(http.get(f"/accounts/{owner.address}/resource/{BOARD}"))
    handle: dict[str, Any] = board["data"]["score_events"]
    assert set(handle) == {"counter", "guid"}
    return handle


def assert_event(event: dict[str, Any]) -> None:
    assert set(event) == {"version", "guid", "sequence_number", "type", "data"}
    assert is_u64(event["version"])
    assert set(event["guid"]) == {"creation_number", "account_address"}
    assert is_u64(event["guid"]["creation_number"])
    assert is_address(event["guid"]["account_address"])
    assert is_u64(event["sequence_number"])
    assert isinstance(event["type"], str)


# -- by handle ------------------------------------------------------------------------------------


def test_events_by_handle(http: httpx.Client, board_owner: Account) -> None:
    address = board_owner.address
    events = ok(http.get(f"/accounts/{address}/events/{BOARD}/score_events"))
    assert len(events) == SCORES
    for i, event in enumerate(events):
        assert_event(event)
        assert event["type"] == "0x1::ledger_demo::ScoreChanged"
        assert event["sequence_number"] == str(i)
        assert event["data"]["player"] == PLAYER.standard
        assert event["data"]["new"] == str(100 + i)
        assert event["data"]["old"] == ("0" if i == 0 else str(100 + i - 1))
    versions = [int(e["version"]) for e in events]
    assert versions == sorted(versions)
    handle = handle_of(http, board_owner)
    assert handle["counter"] == str(SCORES)
    creation = handle["guid"]["id"]["creation_num"]
    assert {e["guid"]["creation_number"] for e in events} == {creation}
    assert {Address.parse(e["guid"]["account_address"]) for e in events} == {address}


def test_events_by_creation_number_are_the_same_stream(
    http: httpx.Client, board_owner: Account
) -> None:
    address = board_owner.address
    creation = handle_of(http, board_owner)["guid"]["id"]["creation_num"]
    by_number = ok(http.get(f"/accounts/{address}/events/{creation}"))
    by_handle = ok(http.get(f"/accounts/{address}/events/{BOARD}/score_events"))
    assert by_number == by_handle
    bare = ok(http.get(f"/accounts/{address.long[2:]}/events/{creation}"))
    assert bare == by_number


def test_each_event_is_in_its_transaction(http: httpx.Client, board_owner: Account) -> None:
    events = ok(http.get(f"/accounts/{board_owner.address}/events/{BOARD}/score_events"))
    for event in events:
        txn = ok(http.get(f"/transactions/by_version/{event['version']}"))
        assert txn["type"] == "user_transaction"
        assert txn["payload"]["function"] == "0x1::ledger_demo::set_score"
        inside = [{k: v for k, v in e.items() if k != "version"} for e in txn["events"]]
        assert {k: v for k, v in event.items() if k != "version"} in inside


def test_a_discovered_event_handle_on_0x1(http: httpx.Client) -> None:
    """Find the handles in 0x1's resources and read each stream by its field."""
    seen = 0
    for resource in ok(http.get("/accounts/0x1/resources")):
        for field, value in resource["data"].items():
            if isinstance(value, dict) and set(value) == {"counter", "guid"}:
                events = ok(
                    http.get(
                        f"/accounts/0x1/events/{resource['type']}/{field}",
                        params={"limit": "100"},
                    )
                )
                assert len(events) == min(int(value["counter"]), 100)
                seen += 1
    assert seen >= 1


# -- paging -----------------------------------------------------------------------------------


def test_default_is_the_newest_page(http: httpx.Client) -> None:
    handle = ok(http.get("/accounts/0x1/resource/0x1::block::BlockResource"))["data"]
    counter = int(handle["new_block_events"]["counter"])
    creation = handle["new_block_events"]["guid"]["id"]["creation_num"]
    assert counter > 25, "the generated chain has more blocks than a page"
    events = ok(http.get(f"/accounts/0x1/events/{creation}"))
    assert [int(e["sequence_number"]) for e in events] == list(range(counter - 25, counter))
    newest = ok(http.get(f"/accounts/0x1/events/{creation}", params={"limit": "3"}))
    assert [int(e["sequence_number"]) for e in newest] == list(range(counter - 3, counter))


def test_start_and_limit_page_forward(http: httpx.Client) -> None:
    path = "/accounts/0x1/events/0x1::block::BlockResource/new_block_events"
    handle = ok(http.get("/accounts/0x1/resource/0x1::block::BlockResource"))["data"]
    counter = int(handle["new_block_events"]["counter"])
    collected: list[dict[str, Any]] = []
    start = 0
    while start < counter:
        page = ok(http.get(path, params={"start": str(start), "limit": "7"}))
        assert page, f"no events from {start}"
        assert int(page[0]["sequence_number"]) == start
        collected.extend(page)
        start += len(page)
    assert [int(e["sequence_number"]) for e in collected] == list(range(counter))
    versions = [int(e["version"]) for e in collected]
    assert versions == sorted(versions)
    heights = [int(e["data"]["height"]) for e in collected]
    assert heights == list(range(1, counter + 1))
    past_end = ok(http.get(path, params={"start": str(counter), "limit": "5"}))
    assert past_end == []


def test_limit_above_the_maximum_is_clamped(http: httpx.Client) -> None:
    events = ok(http.get("/accounts/0x1/events/2", params={"start": "0", "limit": "1000"}))
    assert 0 < len(events) <= 100


def test_unknown_stream_is_empty(http: httpx.Client) -> None:
    assert ok(http.get("/accounts/0x1/events/9999")) == []


# -- errors -----------------------------------------------------------------------------------


def test_unknown_handle_struct_is_404(http: httpx.Client, board_owner: Account) -> None:
    response = http.get(f"/accounts/{board_owner.address}/events/0x1::ledger_demo::Nope/x")
    assert_error(response, 404, "resource_not_found", "struct_field_not_found")
    elsewhere = http.get(f"/accounts/0x{'ab' * 32}/events/{BOARD}/score_events")
    assert_error(elsewhere, 404, "resource_not_found", "account_not_found")


@pytest.mark.parametrize("field", ["nope", "scores"])
def test_a_field_that_holds_no_handle_is_404(
    http: httpx.Client, board_owner: Account, field: str
) -> None:
    response = http.get(f"/accounts/{board_owner.address}/events/{BOARD}/{field}")
    assert_error(response, 404, "struct_field_not_found")


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/0x1/events/abc",
        "/accounts/0x1/events/-1",
        "/accounts/0xzz/events/2",
        "/accounts/0x1/events/notatag/field",
        "/accounts/0x1/events/0x1::block::BlockResource/bad-field",
    ],
)
def test_malformed_event_paths_are_400(http: httpx.Client, path: str) -> None:
    assert_error(http.get(path), 400, "invalid_input")


@pytest.mark.parametrize(
    ("params", "codes"),
    [
        ({"limit": "0"}, ("invalid_input",)),
        ({"limit": "abc"}, ("invalid_input", "web_framework_error")),
        ({"limit": "70000"}, ("invalid_input", "web_framework_error")),
        ({"start": "abc"}, ("invalid_input", "web_framework_error")),
        ({"start": "-5"}, ("invalid_input", "web_framework_error")),
    ],
)
def test_malformed_event_queries_are_400(
    http: httpx.Client, params: dict[str, str], codes: tuple[str, ...]
) -> None:
    assert_error(http.get("/accounts/0x1/events/2", params=params), 400, *codes)
    by_handle = http.get(
        "/accounts/0x1/events/0x1::block::BlockResource/new_block_events", params=params
    )
    assert_error(by_handle, 400, *codes)
