"""The node over HTTP, accounts: the account, its resources and modules (with cursor
paging), balances, and reads pinned to a ``ledger_version``."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
import pytest
from node_http_helpers import (
    APT,
    BCS,
    Account,
    apt_balance,
    assert_error,
    assert_headers,
    is_hex_bytes,
    is_u64,
    ledger_version,
    ok,
    ok_bcs,
    run,
)

from ledgerkit.bcs import Deserializer
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

UNKNOWN = "0x" + "ab" * 32
LONG_ONE = "0x" + "0" * 63 + "1"
COIN_INFO = "0x1::coin::CoinInfo<0x1::aptos_coin::AptosCoin>"


@pytest.fixture(scope="module")
def owner(node: LocalNode) -> Account:
    account: Account = node.dev_accounts[3]
    return account


def walk(http: httpx.Client, path: str, limit: int) -> tuple[list[Any], int]:
    """Follow X-NODE-CURSOR from the first page to the last; (items, pages)."""
    items: list[Any] = []
    params = {"limit": str(limit)}
    for pages in range(1, 1000):
        response = http.get(path, params=params)
        page = ok(response)
        assert len(page) <= limit
        items.extend(page)
        cursor = response.headers.get("X-NODE-CURSOR")
        if cursor is None:
            return items, pages
        assert len(page) == limit, "a page with a next cursor is full"
        params = {"limit": str(limit), "start": cursor}
    raise AssertionError("the cursor never ended")


# -- the account -------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["1", "0x1", LONG_ONE, LONG_ONE[2:], "0X1"])
def test_account_address_in_any_form(http: httpx.Client, form: str) -> None:
    account = ok(http.get(f"/accounts/{form}"))
    assert account == ok(http.get("/accounts/0x1"))
    assert is_u64(account["sequence_number"])
    assert account["authentication_key"] == LONG_ONE


def test_dev_account_long_and_bare_forms(http: httpx.Client, owner: Account) -> None:
    long = owner.address.long
    with_prefix = ok(http.get(f"/accounts/{long}"))
    bare = ok(http.get(f"/accounts/{long[2:]}"))
    upper = ok(http.get(f"/accounts/0x{long[2:].upper()}"))
    assert with_prefix == bare == upper
    assert is_hex_bytes(with_prefix["authentication_key"])
    assert len(with_prefix["authentication_key"]) == 66


def test_unknown_account_is_404(http: httpx.Client) -> None:
    assert_error(http.get(f"/accounts/{UNKNOWN}"), 404, "account_not_found")


@pytest.mark.parametrize("bad", ["0xzz", "0x" + "1" * 65, "0x", "hello", "0x1g"])
def test_malformed_address_is_400(http: httpx.Client, bad: str) -> None:
    body = assert_error(http.get(f"/accounts/{bad}"), 400, "invalid_input")
    assert "address" in body["message"]
    assert_error(http.get(f"/accounts/{bad}/resources"), 400, "invalid_input")
    assert_error(http.get(f"/accounts/{bad}/modules"), 400, "invalid_input")
    assert_error(http.get(f"/accounts/{bad}/balance/0xa"), 400, "invalid_input")


# -- resources -----------------------------------------------------------------------------------


def test_resources_are_move_resources(http: httpx.Client) -> None:
    resources = ok(http.get("/accounts/0x1/resources"))
    types = [r["type"] for r in resources]
    assert "0x1::account::Account" in types
    assert COIN_INFO in types
    assert len(set(types)) == len(types)
    for resource in resources:
        assert set(resource) == {"type", "data"}
        assert isinstance(resource["data"], dict)
    account = next(r for r in resources if r["type"] == "0x1::account::Account")["data"]
    assert is_u64(account["sequence_number"])
    chain = next(r for r in resources if r["type"] == "0x1::chain_id::ChainId")["data"]
    assert chain["id"] == ok(http.get("/"))["chain_id"]  # u8 is a JSON number


def test_resources_limit_one_gives_a_cursor(http: httpx.Client) -> None:
    response = http.get("/accounts/0x1/resources", params={"limit": "1"})
    assert len(ok(response)) == 1
    cursor = response.headers.get("X-NODE-CURSOR")
    assert cursor
    assert all(c in "0123456789abcdefx" for c in cursor.lower())


@pytest.mark.parametrize("limit", [1, 2, 4])
def test_following_resource_cursors_yields_the_full_listing(http: httpx.Client, limit: int) -> None:
    full = ok(http.get("/accounts/0x1/resources"))
    walked, pages = walk(http, "/accounts/0x1/resources", limit)
    assert walked == full
    assert len({r["type"] for r in walked}) == len(walked)
    assert pages == -(-len(full) // limit)


def test_last_page_has_no_cursor(http: httpx.Client) -> None:
    response = http.get("/accounts/0x1/resources")
    ok(response)
    assert "X-NODE-CURSOR" not in response.headers


@pytest.mark.parametrize(
    ("limit", "code"),
    [("0", "invalid_input"), ("abc", None), ("99999", None), ("-1", None), ("1.5", None)],
)
def test_bad_limits_are_400(http: httpx.Client, limit: str, code: str | None) -> None:
    for path in ("/accounts/0x1/resources", "/accounts/0x1/modules"):
        response = http.get(path, params={"limit": limit})
        if code is None:
            assert_error(response, 400, "invalid_input", "web_framework_error")
        else:
            assert_error(response, 400, code)


def test_huge_but_valid_limit_is_clamped(http: httpx.Client) -> None:
    full = ok(http.get("/accounts/0x1/resources"))
    response = http.get("/accounts/0x1/resources", params={"limit": "65535"})
    assert ok(response) == full
    assert "X-NODE-CURSOR" not in response.headers


@pytest.mark.parametrize("start", ["zz", "00", "0x", "deadbeef"])
def test_a_cursor_not_from_the_node_is_400(http: httpx.Client, start: str) -> None:
    response = http.get("/accounts/0x1/resources", params={"start": start})
    assert_error(response, 400, "invalid_input")


def test_a_cursor_of_another_account_is_refused(http: httpx.Client, owner: Account) -> None:
    response = http.get("/accounts/0x1/resources", params={"limit": "1"})
    ok(response)
    cursor = response.headers["X-NODE-CURSOR"]
    other = http.get(f"/accounts/{owner.address}/resources", params={"start": cursor})
    assert_error(other, 400, "invalid_input")


def test_resources_of_an_unknown_account_are_empty(http: httpx.Client) -> None:
    assert ok(http.get(f"/accounts/{UNKNOWN}/resources")) == []


def test_resources_in_bcs_are_a_map_of_struct_tags_to_bytes(http: httpx.Client) -> None:
    full = ok(http.get("/accounts/0x1/resources"))
    data = ok_bcs(http.get("/accounts/0x1/resources", headers={"Accept": BCS}))
    d = Deserializer(data)
    count = d.uleb128()
    assert count == len(full)


# -- one resource -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tag",
    [
        COIN_INFO,
        quote(COIN_INFO, safe=""),
        f"{LONG_ONE}::coin::CoinInfo<{LONG_ONE}::aptos_coin::AptosCoin>",
        quote("0x1::coin::CoinInfo< 0x1::aptos_coin::AptosCoin >", safe=""),
    ],
)
def test_resource_by_struct_tag_in_any_spelling(http: httpx.Client, tag: str) -> None:
    resource = ok(http.get(f"/accounts/0x1/resource/{tag}"))
    assert resource["type"] == COIN_INFO
    assert resource["data"]["symbol"] == "APT"
    assert resource["data"]["decimals"] == 8


def test_resource_matches_its_entry_in_the_listing(http: httpx.Client) -> None:
    listing = ok(http.get("/accounts/0x1/resources"))
    for item in listing:
        one = ok(http.get(f"/accounts/0x1/resource/{quote(item['type'], safe='')}"))
        assert one == item


def test_resource_in_bcs(http: httpx.Client) -> None:
    data = ok_bcs(
        http.get("/accounts/0x1/resource/0x1::chain_id::ChainId", headers={"Accept": BCS})
    )
    assert data == bytes([ok(http.get("/"))["chain_id"]])


def test_missing_resource_is_404(http: httpx.Client) -> None:
    assert_error(http.get("/accounts/0x1/resource/0x1::account::Nope"), 404, "resource_not_found")
    # On an account that does not exist the node may name either.
    assert_error(
        http.get(f"/accounts/{UNKNOWN}/resource/0x1::account::Account"),
        404,
        "resource_not_found",
        "account_not_found",
    )


@pytest.mark.parametrize(
    "tag", ["notatag", "0x1::coin", "0x1::coin::CoinInfo%3C", "0x1::coin::CoinInfo%3C%3E", "::a::B"]
)
def test_malformed_resource_type_is_400(http: httpx.Client, tag: str) -> None:
    assert_error(http.get(f"/accounts/0x1/resource/{tag}"), 400, "invalid_input")


# -- modules -------------------------------------------------------------------------------------


def test_modules_at_0x1_have_bytecode_and_abi(http: httpx.Client) -> None:
    modules = ok(http.get("/accounts/0x1/modules"))
    names = [m["abi"]["name"] for m in modules]
    assert {"coin", "account", "aptos_account", "ledger_demo"} <= set(names)
    for module in modules:
        assert is_hex_bytes(module["bytecode"])
        assert len(module["bytecode"]) > 2
        assert module["abi"]["address"] == "0x1"


@pytest.mark.parametrize("limit", [1, 4, 7])
def test_following_module_cursors_yields_the_full_listing(http: httpx.Client, limit: int) -> None:
    full = ok(http.get("/accounts/0x1/modules"))
    walked, _ = walk(http, "/accounts/0x1/modules", limit)
    assert [m["abi"]["name"] for m in walked] == [m["abi"]["name"] for m in full]
    assert walked == full


def test_modules_in_bcs_are_the_bytecodes(http: httpx.Client) -> None:
    full = ok(http.get("/accounts/0x1/modules"))
    d = Deserializer(ok_bcs(http.get("/accounts/0x1/modules", headers={"Accept": BCS})))
    codes = d.sequence(d.var_bytes)
    assert codes == [bytes.fromhex(m["bytecode"][2:]) for m in full]


def test_coin_module_abi(http: httpx.Client) -> None:
    module = ok(http.get("/accounts/0x1/module/coin"))
    abi = module["abi"]
    assert abi["name"] == "coin"
    assert abi["address"] == "0x1"
    functions = {f["name"]: f for f in abi["exposed_functions"]}
    assert functions, "coin exposes functions"
    balance = functions["balance"]
    assert balance["visibility"] == "public"
    assert balance["is_view"] is True
    assert balance["is_entry"] is False
    assert balance["params"] == ["address"]
    assert balance["return"] == ["u64"]
    assert balance["generic_type_params"] == [{"constraints": []}]
    transfer = functions["transfer"]
    assert transfer["is_entry"] is True
    assert transfer["params"][0] == "&signer"
    for function in abi["exposed_functions"]:
        assert function["visibility"] in ("private", "public", "friend")
        assert isinstance(function["generic_type_params"], list)
    for struct in abi["structs"]:
        assert {"name", "is_native", "abilities", "generic_type_params", "fields"} <= set(struct)
        for field in struct["fields"]:
            assert set(field) == {"name", "type"}


def test_module_in_bcs_is_its_bytecode(http: httpx.Client) -> None:
    module = ok(http.get("/accounts/0x1/module/coin"))
    data = ok_bcs(http.get("/accounts/0x1/module/coin", headers={"Accept": BCS}))
    assert data == bytes.fromhex(module["bytecode"][2:])


def test_missing_module_is_404(http: httpx.Client) -> None:
    assert_error(http.get("/accounts/0x1/module/nope"), 404, "module_not_found")
    assert_error(http.get("/accounts/0x1/module/Coin"), 404, "module_not_found")  # case matters
    assert_error(http.get(f"/accounts/{UNKNOWN}/module/coin"), 404)


@pytest.mark.parametrize("name", ["bad-name", "1coin", quote("co in", safe="")])
def test_malformed_module_name_is_400(http: httpx.Client, name: str) -> None:
    assert_error(http.get(f"/accounts/0x1/module/{name}"), 400, "invalid_input")


# -- balances -----------------------------------------------------------------------------------


def test_balance_is_a_json_integer_and_coin_and_fa_agree(
    http: httpx.Client, owner: Account
) -> None:
    by_coin = ok(http.get(f"/accounts/{owner.address}/balance/{APT}"))
    by_metadata = ok(http.get(f"/accounts/{owner.address}/balance/0xa"))
    by_long_metadata = ok(http.get(f"/accounts/{owner.address}/balance/{'0' * 63}a"))
    assert isinstance(by_coin, int)
    assert not isinstance(by_coin, bool)
    assert by_coin > 0, "dev accounts are funded"
    assert by_coin == by_metadata == by_long_metadata
    view = ok(
        http.post(
            "/view",
            json={
                "function": "0x1::coin::balance",
                "type_arguments": [APT],
                "arguments": [str(owner.address)],
            },
        )
    )
    assert view == [str(by_coin)]


def test_balance_in_bcs_is_a_u64(http: httpx.Client, owner: Account) -> None:
    value = ok(http.get(f"/accounts/{owner.address}/balance/{APT}"))
    data = ok_bcs(http.get(f"/accounts/{owner.address}/balance/{APT}", headers={"Accept": BCS}))
    assert len(data) == 8
    assert int.from_bytes(data, "little") == value


def test_balance_of_an_unknown_coin_is_404(http: httpx.Client, owner: Account) -> None:
    response = http.get(f"/accounts/{owner.address}/balance/0x1::nope::Nope")
    assert_error(response, 404)


@pytest.mark.parametrize(
    "asset", ["zz", "0x1::coin", quote("0x1::a::B<", safe=""), "0x" + "1" * 65]
)
def test_malformed_asset_type_is_400(http: httpx.Client, owner: Account, asset: str) -> None:
    assert_error(http.get(f"/accounts/{owner.address}/balance/{asset}"), 400, "invalid_input")


# -- ledger_version ------------------------------------------------------------------------------


def test_reads_pinned_to_an_old_version_see_the_old_state(
    http: httpx.Client, owner: Account
) -> None:
    before_version = ledger_version(http)
    before_balance = apt_balance(http, owner.address)
    before_account = ok(http.get(f"/accounts/{owner.address}"))
    amount = 123_456
    committed = run(
        http,
        owner,
        "0x1::aptos_account::transfer",
        [("address", Address.parse("0x" + "5e" * 32)), ("u64", amount)],
    )
    assert committed["success"] is True
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])

    assert apt_balance(http, owner.address, before_version) == before_balance
    assert apt_balance(http, owner.address) == before_balance - amount - fee
    pinned = {"ledger_version": str(before_version)}
    assert ok(http.get(f"/accounts/{owner.address}", params=pinned)) == before_account
    after_account = ok(http.get(f"/accounts/{owner.address}"))
    assert int(after_account["sequence_number"]) == int(before_account["sequence_number"]) + 1
    old_resource = ok(
        http.get(f"/accounts/{owner.address}/resource/0x1::account::Account", params=pinned)
    )
    assert old_resource["data"]["sequence_number"] == before_account["sequence_number"]
    old_listing = ok(http.get(f"/accounts/{owner.address}/resources", params=pinned))
    account_entry = next(r for r in old_listing if r["type"] == "0x1::account::Account")
    assert account_entry == old_resource
    # The pinned answer still carries the latest position in its headers.
    response = http.get(f"/accounts/{owner.address}", params=pinned)
    assert assert_headers(response)["X-NODE-LEDGER-VERSION"] >= int(committed["version"])


def test_account_did_not_exist_before_it_was_created(http: httpx.Client, owner: Account) -> None:
    fresh = Address.parse("0x" + "6f" * 32)
    before = ledger_version(http)
    assert_error(http.get(f"/accounts/{fresh}"), 404, "account_not_found")
    run(http, owner, "0x1::aptos_account::transfer", [("address", fresh), ("u64", 1000)])
    assert ok(http.get(f"/accounts/{fresh}"))["sequence_number"] == "0"
    old = http.get(f"/accounts/{fresh}", params={"ledger_version": str(before)})
    assert_error(old, 404, "account_not_found")
    assert apt_balance(http, fresh) == 1000
    assert apt_balance(http, fresh, before) == 0


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/0x1",
        "/accounts/0x1/resources",
        "/accounts/0x1/resource/0x1::chain_id::ChainId",
        "/accounts/0x1/modules",
        "/accounts/0x1/module/coin",
        "/accounts/0x1/balance/0xa",
    ],
)
def test_a_version_beyond_the_latest_is_404(http: httpx.Client, path: str) -> None:
    beyond = ledger_version(http) + 1000
    response = http.get(path, params={"ledger_version": str(beyond)})
    assert_error(response, 404, "version_not_found")


@pytest.mark.parametrize("value", ["abc", "-1", str(2**64), "1e3"])
def test_a_malformed_ledger_version_is_400(http: httpx.Client, value: str) -> None:
    response = http.get("/accounts/0x1", params={"ledger_version": value})
    assert_error(response, 400, "invalid_input", "web_framework_error")


def test_genesis_version_is_readable(http: httpx.Client) -> None:
    account = ok(http.get("/accounts/0x1", params={"ledger_version": "0"}))
    assert account["sequence_number"] == "0"
    path = "/accounts/0x1/resource/0x1::chain_id::ChainId"
    assert ok(http.get(path, params={"ledger_version": "0"})) == ok(http.get(path))
