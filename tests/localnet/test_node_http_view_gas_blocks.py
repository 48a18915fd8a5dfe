"""The node over HTTP: view functions (JSON and BCS, pinned versions, refusals), the gas
price estimate, and blocks by height and by version."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from node_http_helpers import (
    APT,
    BCS,
    VIEW_BCS,
    Account,
    apt_balance,
    assert_error,
    assert_headers,
    is_hash,
    is_u64,
    ledger_version,
    ok,
    ok_bcs,
    run,
)

from ledgerkit.bcs import Deserializer, EntryFunction
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address


@pytest.fixture(scope="module")
def holder(node: LocalNode) -> Account:
    account: Account = node.dev_accounts[7]
    return account


def view(
    http: httpx.Client,
    function: str,
    arguments: list[Any] | None = None,
    type_arguments: list[str] | None = None,
    **params: Any,
) -> httpx.Response:
    body = {
        "function": function,
        "type_arguments": type_arguments or [],
        "arguments": arguments or [],
    }
    return http.post("/view", json=body, params=params)


# -- view --------------------------------------------------------------------------------------


def test_view_coin_balance_equals_the_balance_endpoint(http: httpx.Client, holder: Account) -> None:
    response = view(http, "0x1::coin::balance", [holder.address.standard], [APT])
    values = ok(response)
    assert values == [str(apt_balance(http, holder.address))]
    gas = response.headers["X-NODE-GAS-USED"]
    assert gas.isdigit()


def test_view_now_microseconds_is_the_ledger_time(http: httpx.Client) -> None:
    response = view(http, "0x1::timestamp::now_microseconds")
    assert ok(response) == [str(assert_headers(response)["X-NODE-LEDGER-TIMESTAMPUSEC"])]


def test_view_values_keep_their_json_forms(http: httpx.Client, holder: Account) -> None:
    assert ok(view(http, "0x1::chain_id::get")) == [ok(http.get("/"))["chain_id"]]  # u8
    assert ok(view(http, "0x1::coin::symbol", type_arguments=[APT])) == ["APT"]  # String
    assert ok(view(http, "0x1::coin::decimals", type_arguments=[APT])) == [8]
    exists = ok(view(http, "0x1::account::exists_at", [holder.address.standard]))
    assert exists == [True]
    key = ok(view(http, "0x1::account::get_authentication_key", [holder.address.standard]))
    assert key == [holder.address.long]  # vector<u8> as hex
    supply = ok(view(http, "0x1::coin::supply", type_arguments=[APT]))
    assert set(supply[0]) == {"vec"}  # Option is {"vec": [...]}


def test_view_answers_in_bcs(http: httpx.Client, holder: Account) -> None:
    balance = apt_balance(http, holder.address)
    response = http.post(
        "/view",
        json={
            "function": "0x1::coin::balance",
            "type_arguments": [APT],
            "arguments": [holder.address.standard],
        },
        headers={"Accept": BCS},
    )
    d = Deserializer(ok_bcs(response))
    assert d.uleb128() == 1
    assert d.u64() == balance
    assert d.remaining == 0
    assert response.headers["X-NODE-GAS-USED"].isdigit()
    name = http.post(
        "/view",
        json={"function": "0x1::coin::name", "type_arguments": [APT], "arguments": []},
        headers={"Accept": BCS},
    )
    d = Deserializer(ok_bcs(name))
    assert d.uleb128() == 1
    assert d.string() == "Aptos Coin"


def test_view_takes_a_bcs_request(http: httpx.Client, holder: Account) -> None:
    payload = EntryFunction.build("0x1::coin::balance", [APT], [("address", holder.address)])
    response = http.post("/view", content=payload.to_bcs(), headers={"Content-Type": VIEW_BCS})
    assert ok(response) == [str(apt_balance(http, holder.address))]
    both = http.post(
        "/view", content=payload.to_bcs(), headers={"Content-Type": VIEW_BCS, "Accept": BCS}
    )
    d = Deserializer(ok_bcs(both))
    assert d.uleb128() == 1
    assert d.u64() == apt_balance(http, holder.address)


def test_view_pinned_to_a_version(http: httpx.Client, holder: Account) -> None:
    before = ledger_version(http)
    balance = apt_balance(http, holder.address)
    committed = run(
        http,
        holder,
        "0x1::aptos_account::transfer",
        [("address", Address.parse("0x" + "d1" * 32)), ("u64", 5_000)],
    )
    args = [holder.address.standard]
    old = ok(view(http, "0x1::coin::balance", args, [APT], ledger_version=before))
    new = ok(view(http, "0x1::coin::balance", args, [APT]))
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert old == [str(balance)]
    assert new == [str(balance - 5_000 - fee)]
    first_block = ok(http.get("/blocks/by_height/1"))
    at_block_one = view(http, "0x1::timestamp::now_microseconds", ledger_version=1)
    assert ok(at_block_one) == [first_block["block_timestamp"]]


def test_view_beyond_the_latest_version_is_404(http: httpx.Client) -> None:
    beyond = ledger_version(http) + 50
    response = view(http, "0x1::timestamp::now_microseconds", ledger_version=beyond)
    assert_error(response, 404, "version_not_found")


@pytest.mark.parametrize(
    ("function", "arguments", "type_arguments", "says"),
    [
        ("0x1::nope::nope", [], [], "nope"),
        ("0x1::coin::nope", [], [], "nope"),
        ("0x1::aptos_account::transfer", ["0x1", "1"], [], "view"),
        ("0x1::coin::balance", ["0x1"], [], "type argument"),
        ("0x1::coin::balance", [], [APT], "argument"),
        ("0x1::coin::balance", ["0xzz"], [APT], ""),
        ("0x1::account::get_authentication_key", ["0x" + "ab" * 32], [], "abort"),
        ("0x1::coin::name", [], ["0x1::nope::Nope"], "abort"),
    ],
)
def test_view_refusals_are_400(
    http: httpx.Client, function: str, arguments: list[Any], type_arguments: list[str], says: str
) -> None:
    body = assert_error(view(http, function, arguments, type_arguments), 400, "invalid_input")
    assert says.lower() in body["message"].lower()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"function": "0x1::chain_id::get"},
        {"function": "not a function", "type_arguments": [], "arguments": []},
        {"function": "0x1::chain_id::get", "type_arguments": "x", "arguments": []},
        {"function": "0x1::chain_id::get", "type_arguments": ["bad type"], "arguments": []},
        [],
        "0x1::chain_id::get",
    ],
)
def test_malformed_view_requests_are_400(http: httpx.Client, body: Any) -> None:
    assert_error(http.post("/view", json=body), 400, "invalid_input", "web_framework_error")


def test_malformed_bcs_view_request_is_400(http: httpx.Client) -> None:
    response = http.post("/view", content=b"\x01\x02", headers={"Content-Type": VIEW_BCS})
    assert_error(response, 400, "invalid_input")


# -- gas ----------------------------------------------------------------------------------------


def test_gas_estimate_is_integers_in_order(http: httpx.Client) -> None:
    estimate = ok(http.get("/estimate_gas_price"))
    assert set(estimate) >= {"gas_estimate"}
    for name in ("deprioritized_gas_estimate", "gas_estimate", "prioritized_gas_estimate"):
        value = estimate[name]
        assert isinstance(value, int)
        assert not isinstance(value, bool)
        assert value > 0
    assert (
        estimate["deprioritized_gas_estimate"]
        <= estimate["gas_estimate"]
        <= estimate["prioritized_gas_estimate"]
    )


def test_gas_estimate_in_bcs_is_the_regular_estimate(http: httpx.Client) -> None:
    estimate = ok(http.get("/estimate_gas_price"))
    data = ok_bcs(http.get("/estimate_gas_price", headers={"Accept": BCS}))
    assert len(data) == 8
    assert int.from_bytes(data, "little") == estimate["gas_estimate"]


# -- blocks --------------------------------------------------------------------------------------

BLOCK_FIELDS = {"block_height", "block_hash", "block_timestamp", "first_version", "last_version"}


def test_block_0_is_genesis(http: httpx.Client) -> None:
    block = ok(http.get("/blocks/by_height/0"))
    assert set(block) >= BLOCK_FIELDS
    assert block["block_height"] == "0"
    assert block["first_version"] == block["last_version"] == "0"
    assert not block.get("transactions")
    full = ok(http.get("/blocks/by_height/0", params={"with_transactions": "true"}))
    assert [t["type"] for t in full["transactions"]] == ["genesis_transaction"]
    assert full["transactions"][0] == ok(http.get("/transactions/by_version/0"))


def test_block_fields_are_u64_strings(http: httpx.Client) -> None:
    block = ok(http.get("/blocks/by_height/3"))
    for name in ("block_height", "block_timestamp", "first_version", "last_version"):
        assert is_u64(block[name]), name
    assert is_hash(block["block_hash"])


@pytest.mark.parametrize("height", [1, 5, 20])
def test_block_with_transactions_lists_them_in_order(http: httpx.Client, height: int) -> None:
    block = ok(http.get(f"/blocks/by_height/{height}", params={"with_transactions": "true"}))
    first, last = int(block["first_version"]), int(block["last_version"])
    txns = block["transactions"]
    assert [int(t["version"]) for t in txns] == list(range(first, last + 1))
    assert txns[0]["type"] == "block_metadata_transaction"
    assert txns[0]["id"] == block["block_hash"]
    listed = ok(http.get("/transactions", params={"start": first, "limit": last - first + 1}))
    assert txns == listed
    plain = ok(http.get(f"/blocks/by_height/{height}", params={"with_transactions": "false"}))
    assert not plain.get("transactions")
    assert {k: v for k, v in block.items() if k != "transactions"} == {
        k: v for k, v in plain.items() if k != "transactions"
    }


def test_blocks_follow_each_other(http: httpx.Client) -> None:
    previous = ok(http.get("/blocks/by_height/0"))
    for height in range(1, 15):
        block = ok(http.get(f"/blocks/by_height/{height}"))
        assert int(block["first_version"]) == int(previous["last_version"]) + 1
        assert int(block["block_timestamp"]) >= int(previous["block_timestamp"])
        previous = block


def test_block_by_version_maps_each_version_to_its_block(http: httpx.Client) -> None:
    block = ok(http.get("/blocks/by_height/6"))
    for version in range(int(block["first_version"]), int(block["last_version"]) + 1):
        assert ok(http.get(f"/blocks/by_version/{version}")) == block
    with_txns = ok(
        http.get(f"/blocks/by_version/{block['last_version']}", params={"with_transactions": "1"})
    )
    assert (
        len(with_txns["transactions"])
        == int(block["last_version"]) - int(block["first_version"]) + 1
    )


def test_latest_block_is_the_ledger_head(http: httpx.Client) -> None:
    response = http.get("/")
    info = ok(response)
    block = ok(http.get(f"/blocks/by_height/{info['block_height']}"))
    assert block["last_version"] == info["ledger_version"]
    assert ok(http.get(f"/blocks/by_version/{info['ledger_version']}")) == block


def test_unknown_block_is_404(http: httpx.Client) -> None:
    info = ok(http.get("/"))
    beyond = int(info["block_height"]) + 1
    assert_error(http.get(f"/blocks/by_height/{beyond}"), 404, "block_not_found")
    assert_error(http.get(f"/blocks/by_height/{2**64 - 1}"), 404, "block_not_found")
    after = int(info["ledger_version"]) + 1
    assert_error(http.get(f"/blocks/by_version/{after}"), 404, "block_not_found")


@pytest.mark.parametrize(
    "path",
    [
        "/blocks/by_height/abc",
        "/blocks/by_height/-1",
        f"/blocks/by_height/{2**64}",
        "/blocks/by_version/abc",
        "/blocks/by_height/1?with_transactions=maybe",
    ],
)
def test_malformed_block_requests_are_400(http: httpx.Client, path: str) -> None:
    assert_error(http.get(path), 400, "invalid_input", "web_framework_error")
