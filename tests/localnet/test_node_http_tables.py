"""The node over HTTP, tables: items by typed JSON key (primitive, String and struct keys)
and by raw BCS key, at the latest or a pinned version."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from node_http_helpers import BCS, Account, assert_error, ledger_version, ok, ok_bcs, run

from ledgerkit.bcs import Serializer
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

BOARD = "0x1::ledger_demo::Board"
PROFILE = "0x1::ledger_demo::Profile"
POINT = "0x1::ledger_demo::Point"
STRING = "0x1::string::String"
PLAYER = Address.parse("0x" + "0b" * 32)


class Board:
    """A dev account's board, written by the tests: its table handles and versions."""

    def __init__(self, owner: Account, handles: dict[str, str], before: int, scored: int) -> None:
        self.owner = owner
        self.handles = handles
        self.before = before  # a version before the first score
        self.scored = scored  # the version at which the score was 42


@pytest.fixture(scope="module")
def board(node: LocalNode, http: httpx.Client) -> Board:
    owner: Account = node.dev_accounts[5]
    before = ledger_version(http)
    scored = run(http, owner, "0x1::ledger_demo::set_score", [("address", PLAYER), ("u64", 42)])
    profile = run(
        http,
        owner,
        "0x1::ledger_demo::set_profile",
        [(STRING, "alice"), ("u8", 7), (f"vector<{STRING}>", ["move", "python"])],
    )
    cell = run(http, owner, "0x1::ledger_demo::set_cell", [("u64", 3), ("u64", 4), ("u64", 99)])
    assert [t["success"] for t in (scored, profile, cell)] == [True, True, True]
    data = ok(http.get(f"/accounts/{owner.address}/resource/{BOARD}"))["data"]
    handles = {name: data[name]["handle"] for name in ("scores", "names", "cells")}
    return Board(owner, handles, before, int(scored["version"]))


def item(
    http: httpx.Client, handle: str, key_type: str, value_type: str, key: Any, **params: Any
) -> httpx.Response:
    body = {"key_type": key_type, "value_type": value_type, "key": key}
    return http.post(f"/tables/{handle}/item", json=body, params=params)


def raw_item(http: httpx.Client, handle: str, key: bytes, **params: Any) -> httpx.Response:
    return http.post(
        f"/tables/{handle}/raw_item",
        json={"key": "0x" + key.hex()},
        params=params,
        headers={"Accept": BCS},
    )


# -- by JSON key ----------------------------------------------------------------------------------


def test_item_by_address_key(http: httpx.Client, board: Board) -> None:
    scores = board.handles["scores"]
    assert ok(item(http, scores, "address", "u64", PLAYER.standard)) == "42"
    assert ok(item(http, scores, "address", "u64", PLAYER.long)) == "42"


def test_item_by_string_key_with_a_struct_value(http: httpx.Client, board: Board) -> None:
    value = ok(item(http, board.handles["names"], STRING, PROFILE, "alice"))
    assert value == {"name": "alice", "level": 7, "tags": ["move", "python"]}


def test_item_by_struct_key(http: httpx.Client, board: Board) -> None:
    value = ok(item(http, board.handles["cells"], POINT, "u64", {"x": "3", "y": "4"}))
    assert value == "99"


def test_handle_in_any_address_form(http: httpx.Client, board: Board) -> None:
    handle = Address.parse(board.handles["scores"])
    for form in (handle.long, handle.long[2:], handle.short):
        assert ok(item(http, form, "address", "u64", PLAYER.standard)) == "42"


def test_item_in_bcs(http: httpx.Client, board: Board) -> None:
    response = http.post(
        f"/tables/{board.handles['scores']}/item",
        json={"key_type": "address", "value_type": "u64", "key": PLAYER.standard},
        headers={"Accept": BCS},
    )
    assert ok_bcs(response) == (42).to_bytes(8, "little")


# -- by raw BCS key --------------------------------------------------------------------------------


def test_raw_item_by_address_key(http: httpx.Client, board: Board) -> None:
    data = ok_bcs(raw_item(http, board.handles["scores"], bytes(PLAYER)))
    assert data == (42).to_bytes(8, "little")


def test_raw_item_by_string_key(http: httpx.Client, board: Board) -> None:
    s = Serializer()
    s.string("alice")
    data = ok_bcs(raw_item(http, board.handles["names"], s.output()))
    expected = Serializer()
    expected.string("alice")
    expected.u8(7)
    expected.sequence(["move", "python"], expected.string)
    assert data == expected.output()


def test_raw_item_by_struct_key(http: httpx.Client, board: Board) -> None:
    s = Serializer()
    s.u64(3)
    s.u64(4)
    data = ok_bcs(raw_item(http, board.handles["cells"], s.output()))
    assert data == (99).to_bytes(8, "little")


def test_raw_item_agrees_with_item_in_bcs(http: httpx.Client, board: Board) -> None:
    by_json = http.post(
        f"/tables/{board.handles['names']}/item",
        json={"key_type": STRING, "value_type": PROFILE, "key": "alice"},
        headers={"Accept": BCS},
    )
    s = Serializer()
    s.string("alice")
    assert ok_bcs(by_json) == ok_bcs(raw_item(http, board.handles["names"], s.output()))


# -- missing and malformed ---------------------------------------------------------------------


def test_missing_key_is_404(http: httpx.Client, board: Board) -> None:
    missing = item(http, board.handles["scores"], "address", "u64", "0x" + "99" * 32)
    assert_error(missing, 404, "table_item_not_found")
    cell = item(http, board.handles["cells"], POINT, "u64", {"x": "4", "y": "3"})
    assert_error(cell, 404, "table_item_not_found")
    assert_error(raw_item(http, board.handles["scores"], bytes(32)), 404, "table_item_not_found")
    unknown_table = item(http, "0x" + "ab" * 32, "u64", "u64", "1")
    assert_error(unknown_table, 404, "table_item_not_found")


@pytest.mark.parametrize(
    "body",
    [
        {"key_type": "not a type", "value_type": "u64", "key": "1"},
        {"key_type": "u64", "value_type": "vector<", "key": "1"},
        {"key_type": 5, "value_type": "u64", "key": "1"},
        {"key_type": "u64", "value_type": "u64", "key": "x"},
        {"key_type": "u64", "value_type": "u64", "key": "-1"},
        {"key_type": "address", "value_type": "u64", "key": "0xzz"},
        {"key_type": POINT, "value_type": "u64", "key": {"x": "1"}},
        {"key_type": POINT, "value_type": "u64", "key": [1, 2]},
        {"key_type": "u64", "value_type": "u64"},
        {"value_type": "u64", "key": "1"},
        {},
        [],
    ],
)
def test_malformed_item_requests_are_400(
    http: httpx.Client, board: Board, body: dict[str, Any] | list[Any]
) -> None:
    response = http.post(f"/tables/{board.handles['scores']}/item", json=body)
    assert_error(response, 400, "invalid_input", "web_framework_error")


@pytest.mark.parametrize("body", [{"key": "zz"}, {"key": 5}, {}, {"nokey": "0x01"}, []])
def test_malformed_raw_item_requests_are_400(
    http: httpx.Client, board: Board, body: dict[str, Any] | list[Any]
) -> None:
    response = http.post(f"/tables/{board.handles['scores']}/raw_item", json=body)
    assert_error(response, 400, "invalid_input", "web_framework_error")


@pytest.mark.parametrize("handle", ["0xzz", "0x" + "1" * 65, "table"])
def test_malformed_handle_is_400(http: httpx.Client, handle: str) -> None:
    assert_error(item(http, handle, "u64", "u64", "1"), 400, "invalid_input")
    assert_error(raw_item(http, handle, b"\x01"), 400, "invalid_input")


# -- ledger_version ------------------------------------------------------------------------------


def test_items_pinned_to_a_version(http: httpx.Client, board: Board) -> None:
    scores = board.handles["scores"]
    before = item(http, scores, "address", "u64", PLAYER.standard, ledger_version=board.before)
    assert_error(before, 404, "table_item_not_found")
    raw_before = raw_item(http, scores, bytes(PLAYER), ledger_version=board.before)
    assert_error(raw_before, 404, "table_item_not_found")
    run(http, board.owner, "0x1::ledger_demo::set_score", [("address", PLAYER), ("u64", 43)])
    assert ok(item(http, scores, "address", "u64", PLAYER.standard)) == "43"
    at_score = item(http, scores, "address", "u64", PLAYER.standard, ledger_version=board.scored)
    assert ok(at_score) == "42"
    raw_at_score = raw_item(http, scores, bytes(PLAYER), ledger_version=board.scored)
    assert ok_bcs(raw_at_score) == (42).to_bytes(8, "little")
    # Put it back for the other tests.
    run(http, board.owner, "0x1::ledger_demo::set_score", [("address", PLAYER), ("u64", 42)])


def test_a_version_beyond_the_latest_is_404(http: httpx.Client, board: Board) -> None:
    beyond = ledger_version(http) + 100
    scores = board.handles["scores"]
    response = item(http, scores, "address", "u64", PLAYER.standard, ledger_version=beyond)
    assert_error(response, 404, "version_not_found")
    raw = raw_item(http, scores, bytes(PLAYER), ledger_version=beyond)
    assert_error(raw, 404, "version_not_found")
