"""The indexer's GraphQL API against the node API, for the same facts: balances,
activities, transaction counts, objects and events, on the generated chain and after
live transfers (``processor_status`` advancing), asked with the TypeScript SDK's own
queries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from indexer_helpers import (
    GET_ACCOUNT_COINS_COUNT,
    GET_ACCOUNT_COINS_DATA,
    GET_ACCOUNT_OWNED_TOKENS,
    GET_ACCOUNT_TRANSACTIONS_COUNT,
    GET_EVENTS,
    GET_FUNGIBLE_ASSET_ACTIVITIES,
    GET_FUNGIBLE_ASSET_METADATA,
    GET_OBJECT_DATA,
    GET_PROCESSOR_STATUS,
    endpoint,
    graphql,
    wait_for_indexer,
)
from node_http_helpers import apt_balance, ledger_version, ok, submit, transfer, wait

from ledgerkit import NodeStoppedError
from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode

APT = "0x1::aptos_coin::AptosCoin"
#: The processors the indexer reports (aptos-ts-sdk, ProcessorType), sorted.
PROCESSORS = [
    "account_transactions_processor",
    "default_processor",
    "events_processor",
    "fungible_asset_processor",
    "objects_processor",
    "token_v2_processor",
    "user_transaction_processor",
]


@pytest.fixture(scope="module")
def indexed(make_node: Any) -> LocalNode:
    node: LocalNode = make_node(seed=7, blocks=40)
    return node


@pytest.fixture(scope="module")
def http(indexed: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=indexed.url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="module")
def gql(indexed: LocalNode) -> Iterator[httpx.Client]:
    assert indexed.indexer_url is not None
    with httpx.Client(base_url=indexed.indexer_url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="module")
def live(indexed: LocalNode, http: httpx.Client, gql: httpx.Client) -> dict[str, Any]:
    """A new account made by a transfer of 50,000,000 octas from dev account 3, which
    then sends 1,000 and 2,000 octas back; the three committed transactions."""
    funder = indexed.dev_accounts[3]
    fresh = Account.generate()
    made = [
        wait(
            http,
            submit(
                http, transfer(http, funder, fresh.address, 50_000_000).sign(funder.private_key)
            )["hash"],
        )
    ]
    for amount in (1_000, 2_000):
        signed = transfer(http, fresh, funder.address, amount).sign(fresh.private_key)
        made.append(wait(http, submit(http, signed)["hash"]))
    wait_for_indexer(gql, int(made[-1]["version"]), "fungible_asset_processor")
    return {"account": fresh, "funder": funder, "transactions": made}


def test_the_indexer_url_is_its_own_port_at_v1_graphql(indexed: LocalNode) -> None:
    assert indexed.indexer_url is not None
    assert indexed.indexer_url.startswith("http://127.0.0.1:")
    assert indexed.indexer_url.endswith("/v1/graphql")
    assert indexed.indexer_url.split(":")[2] != indexed.url.split(":")[2]


def test_processor_status_names_every_processor_at_the_ledger_version(
    http: httpx.Client, gql: httpx.Client
) -> None:
    version = ledger_version(http)
    wait_for_indexer(gql, version, "default_processor")
    rows = graphql(gql, GET_PROCESSOR_STATUS)["processor_status"]
    assert sorted(row["processor"] for row in rows) == PROCESSORS
    for row in rows:
        assert row["last_success_version"] >= version
        assert isinstance(row["last_success_version"], int)
        assert "T" in row["last_updated"]
        assert "+" not in row["last_updated"]


def test_processor_status_advances_with_live_transfers(
    live: dict[str, Any], gql: httpx.Client
) -> None:
    last = int(live["transactions"][-1]["version"])
    for processor in PROCESSORS:
        assert wait_for_indexer(gql, last, processor) >= last


def test_processor_status_moves_past_a_new_transfer(
    indexed: LocalNode, http: httpx.Client, gql: httpx.Client
) -> None:
    before = wait_for_indexer(gql, ledger_version(http), "account_transactions_processor")
    sender = indexed.dev_accounts[4]
    signed = transfer(http, sender, indexed.dev_accounts[5].address, 1).sign(sender.private_key)
    committed = int(wait(http, submit(http, signed)["hash"])["version"])
    assert committed > before
    after = wait_for_indexer(gql, committed, "account_transactions_processor")
    assert after >= committed
    where = {"account_address": {"_eq": sender.address.long}}
    versions = graphql(
        gql,
        "query ($w: account_transactions_bool_exp) { account_transactions(where: $w, "
        "order_by: {transaction_version: desc}, limit: 1) { transaction_version } }",
        {"w": where},
    )["account_transactions"]
    assert versions == [{"transaction_version": committed}]


def test_balances_of_every_dev_account_are_the_node_apis(
    indexed: LocalNode, http: httpx.Client, gql: httpx.Client
) -> None:
    wait_for_indexer(gql, ledger_version(http), "fungible_asset_processor")
    for account in indexed.dev_accounts:
        where = {"owner_address": {"_eq": account.address.long}, "asset_type": {"_eq": APT}}
        rows = graphql(gql, GET_ACCOUNT_COINS_DATA, {"where_condition": where})[
            "current_fungible_asset_balances"
        ]
        assert [row["amount"] for row in rows] == [apt_balance(http, account.address)]
        assert rows[0]["is_primary"] is True
        assert rows[0]["metadata"]["symbol"] == "APT"
        assert rows[0]["metadata"]["decimals"] == 8


def test_a_new_accounts_balance_count_and_activities(
    live: dict[str, Any], http: httpx.Client, gql: httpx.Client
) -> None:
    fresh = live["account"].address
    funding, first, second = live["transactions"]
    where = {"owner_address": {"_eq": fresh.long}}
    rows = graphql(gql, GET_ACCOUNT_COINS_DATA, {"where_condition": where})[
        "current_fungible_asset_balances"
    ]
    assert [(row["asset_type"], row["amount"]) for row in rows] == [(APT, apt_balance(http, fresh))]
    assert rows[0]["last_transaction_version"] == int(second["version"])
    count = graphql(gql, GET_ACCOUNT_COINS_COUNT, {"address": fresh.long})
    assert count["current_fungible_asset_balances_aggregate"]["aggregate"]["count"] == 1
    # Made by the funding transfer, then two of its own: sequence number 2, three transactions.
    assert int(ok(http.get(f"/accounts/{fresh}"))["sequence_number"]) == 2
    counted = graphql(gql, GET_ACCOUNT_TRANSACTIONS_COUNT, {"address": fresh.long})
    assert counted["account_transactions_aggregate"]["aggregate"]["count"] == 3
    activities = graphql(
        gql,
        GET_FUNGIBLE_ASSET_ACTIVITIES,
        {"where_condition": {"owner_address": {"_eq": fresh.long}}},
    )["fungible_asset_activities"]

    def fee(txn: dict[str, Any]) -> int:
        return int(txn["gas_used"]) * int(txn["gas_unit_price"])

    seen = sorted(
        (a["transaction_version"], a["event_index"], a["type"], a["amount"], a["is_gas_fee"])
        for a in activities
    )
    deposit = "0x1::fungible_asset::Deposit"
    withdraw = "0x1::fungible_asset::Withdraw"
    gas = "0x1::aptos_coin::GasFeeEvent"
    deposit_index = [e["type"] for e in funding["events"]].index(deposit)
    expected = [(int(funding["version"]), deposit_index, deposit, 50_000_000, False)]
    for txn, amount in ((first, 1_000), (second, 2_000)):
        index = [e["type"] for e in txn["events"]].index(withdraw)
        expected += [
            (int(txn["version"]), -1, gas, fee(txn), True),
            (int(txn["version"]), index, withdraw, amount, False),
        ]
    assert seen == sorted(expected)
    for activity in activities:
        assert activity["asset_type"] == APT
        assert activity["is_transaction_success"] is True
        assert activity["entry_function_id_str"] == "0x1::aptos_account::transfer"
    # The balance the node reports is what the activities add up to.
    spent = sum(a["amount"] for a in activities if a["type"] != deposit)
    assert apt_balance(http, fresh) == 50_000_000 - spent


def test_a_new_accounts_user_transactions_and_events(
    live: dict[str, Any], gql: httpx.Client
) -> None:
    fresh = live["account"].address
    _, first, second = live["transactions"]
    query = """query ($sender: String) {
      user_transactions(where: {sender: {_eq: $sender}}, order_by: {version: asc}) {
        version sequence_number entry_function_id_str gas_unit_price max_gas_amount
        entry_function_module_name parent_signature_type timestamp
      }
    }"""
    rows = graphql(gql, query, {"sender": fresh.long})["user_transactions"]
    assert [(r["version"], r["sequence_number"]) for r in rows] == [
        (int(first["version"]), 0),
        (int(second["version"]), 1),
    ]
    for row, txn in zip(rows, (first, second), strict=True):
        assert row["entry_function_id_str"] == "0x1::aptos_account::transfer"
        assert row["entry_function_module_name"] == "aptos_account"
        assert row["gas_unit_price"] == int(txn["gas_unit_price"])
        assert row["max_gas_amount"] == int(txn["max_gas_amount"])
        assert row["parent_signature_type"] == txn["signature"]["type"]
    where = {"transaction_version": {"_eq": int(second["version"])}}
    events = graphql(
        gql, GET_EVENTS, {"where_condition": where, "order_by": [{"event_index": "asc"}]}
    )["events"]
    assert [(e["type"], e["data"], e["sequence_number"]) for e in events] == [
        (e["type"], e["data"], int(e["sequence_number"])) for e in second["events"]
    ]


def test_a_new_accounts_objects_are_the_node_apis(
    live: dict[str, Any], http: httpx.Client, gql: httpx.Client
) -> None:
    fresh = live["account"].address
    where = {"owner_address": {"_eq": fresh.long}}
    rows = graphql(gql, GET_OBJECT_DATA, {"where_condition": where})["current_objects"]
    assert len(rows) == 1  # its primary APT store
    store = rows[0]["object_address"]
    core = ok(http.get(f"/accounts/{store}/resource/0x1::object::ObjectCore"))["data"]
    assert core["owner"] in (str(fresh), fresh.long)
    assert rows[0]["allow_ungated_transfer"] is core["allow_ungated_transfer"]
    assert rows[0]["last_guid_creation_num"] == int(core["guid_creation_num"])
    assert rows[0]["is_deleted"] is False
    balance = ok(http.get(f"/accounts/{store}/resource/0x1::fungible_asset::FungibleStore"))
    coins = graphql(gql, GET_ACCOUNT_COINS_DATA, {"where_condition": where})
    assert coins["current_fungible_asset_balances"][0]["storage_id"] == store
    assert coins["current_fungible_asset_balances"][0]["amount"] == int(balance["data"]["balance"])


def test_fungible_asset_metadata_is_the_chains(http: httpx.Client, gql: httpx.Client) -> None:
    where = {"asset_type": {"_in": [APT, "0x" + "0" * 63 + "a"]}}
    rows = graphql(gql, GET_FUNGIBLE_ASSET_METADATA, {"where_condition": where})[
        "fungible_asset_metadata"
    ]
    metadata = ok(http.get("/accounts/0xa/resource/0x1::fungible_asset::Metadata"))["data"]
    assert sorted((r["asset_type"], r["token_standard"]) for r in rows) == [
        ("0x000000000000000000000000000000000000000000000000000000000000000a", "v2"),
        (APT, "v1"),
    ]
    for row in rows:
        assert (row["name"], row["symbol"], row["decimals"]) == (
            metadata["name"],
            metadata["symbol"],
            metadata["decimals"],
        )


def test_digital_asset_tables_exist_and_are_empty(gql: httpx.Client) -> None:
    where = {"owner_address": {"_eq": "0x" + "1" * 64}}
    found = graphql(gql, GET_ACCOUNT_OWNED_TOKENS, {"where_condition": where})
    assert found == {"current_token_ownerships_v2": []}
    for table in ("current_token_datas_v2", "current_collections_v2", "token_activities_v2"):
        counted = graphql(gql, f"{{ {table}_aggregate {{ aggregate {{ count }} }} }}")
        assert counted == {f"{table}_aggregate": {"aggregate": {"count": 0}}}


def test_where_order_by_limit_offset_and_distinct_on(http: httpx.Client, gql: httpx.Client) -> None:
    version = ledger_version(http)
    wait_for_indexer(gql, version, "user_transaction_processor")
    txns = ok(http.get("/transactions", params={"start": 0, "limit": 100}))
    users = [int(t["version"]) for t in txns if t["type"] == "user_transaction"]
    query = """query ($hi: bigint) {
      user_transactions(where: {_and: [{version: {_lte: $hi}}, {_not: {version: {_lt: 0}}}]},
                        order_by: [{version: desc}], limit: 3, offset: 1) { version }
    }"""
    rows = graphql(gql, query, {"hi": str(users[-1])})["user_transactions"]
    assert [r["version"] for r in rows] == sorted(users, reverse=True)[1:4]
    distinct = """{ fungible_asset_activities(distinct_on: [is_gas_fee],
        order_by: [{is_gas_fee: asc}, {transaction_version: asc}]) { is_gas_fee } }"""
    rows = graphql(gql, distinct)["fungible_asset_activities"]
    assert [r["is_gas_fee"] for r in rows] == [False, True]
    like = """{ events(where: {type: {_like: "%::fungible_asset::Dep_sit"}}, limit: 1) { type } }"""
    assert graphql(gql, like)["events"] == [{"type": "0x1::fungible_asset::Deposit"}]
    case = """{ events(where: {type: {_like: "%::FUNGIBLE_asset::Deposit"}}, limit: 1) { type } }"""
    assert graphql(gql, case)["events"] == []
    ilike = (
        """{ events(where: {type: {_ilike: "%::FUNGIBLE_asset::Deposit"}}, limit: 1) { type } }"""
    )
    assert graphql(gql, ilike)["events"] == [{"type": "0x1::fungible_asset::Deposit"}]


def test_get_answers_as_post(gql: httpx.Client) -> None:
    query = "{ ledger_infos { chain_id } }"
    got = gql.get(endpoint(gql), params={"query": query})
    assert got.status_code == 200
    assert got.json() == gql.post(endpoint(gql), json={"query": query}).json()
    assert isinstance(got.json()["data"]["ledger_infos"][0]["chain_id"], int)


def test_by_pk_aggregates_and_relationship_filters(
    live: dict[str, Any], http: httpx.Client, gql: httpx.Client
) -> None:
    fresh = live["account"].address
    _, first, second = live["transactions"]
    by_pk = graphql(
        gql,
        "query ($v: bigint!) { user_transactions_by_pk(version: $v) { sender sequence_number } }",
        {"v": int(first["version"])},
    )
    assert by_pk == {"user_transactions_by_pk": {"sender": fresh.long, "sequence_number": 0}}
    missing = graphql(gql, "{ user_transactions_by_pk(version: 0) { sender } }")
    assert missing == {"user_transactions_by_pk": None}
    query = """query ($a: String) {
      fungible_asset_activities_aggregate(
          where: {owner_address: {_eq: $a}, is_gas_fee: {_eq: true}}) {
        aggregate { count sum { amount } max { transaction_version } min { transaction_version } }
        nodes { transaction_version }
      }
    }"""
    found = graphql(gql, query, {"a": fresh.long})["fungible_asset_activities_aggregate"]
    fees = [int(t["gas_used"]) * int(t["gas_unit_price"]) for t in (first, second)]
    assert found["aggregate"] == {
        "count": 2,
        "sum": {"amount": sum(fees)},
        "max": {"transaction_version": int(second["version"])},
        "min": {"transaction_version": int(first["version"])},
    }
    assert sorted(n["transaction_version"] for n in found["nodes"]) == [
        int(first["version"]),
        int(second["version"]),
    ]
    # Balances whose metadata's symbol is APT: through the relationship.
    where = {"owner_address": {"_eq": fresh.long}, "metadata": {"symbol": {"_eq": "APT"}}}
    rows = graphql(gql, GET_ACCOUNT_COINS_DATA, {"where_condition": where})
    assert [r["amount"] for r in rows["current_fungible_asset_balances"]] == [
        apt_balance(http, fresh)
    ]
    where["metadata"] = {"symbol": {"_eq": "LDT"}}
    rows = graphql(gql, GET_ACCOUNT_COINS_DATA, {"where_condition": where})
    assert rows == {"current_fungible_asset_balances": []}


def test_numbers_past_64_bits_are_json_numbers(gql: httpx.Client) -> None:
    """APT's concurrent supply has no maximum but u128's largest value, and says so."""
    where = {"asset_type": {"_eq": "0x" + "0" * 63 + "a"}}
    rows = graphql(gql, GET_FUNGIBLE_ASSET_METADATA, {"where_condition": where})
    assert rows["fungible_asset_metadata"][0]["maximum_v2"] == 2**128 - 1


def test_a_u128_variable_sent_as_a_json_number_matches_exactly(gql: httpx.Client) -> None:
    """2**128 - 1 as a JSON number (not text) in the body, and in GET's variables."""
    query = (
        "query q($m: numeric) { fungible_asset_metadata(where: {maximum_v2: {_eq: $m}}) "
        "{ asset_type } }"
    )
    body = '{"query": "%s", "variables": {"m": 340282366920938463463374607431768211455}}'
    response = gql.post(
        endpoint(gql), content=body % query, headers={"content-type": "application/json"}
    )
    apt = {"fungible_asset_metadata": [{"asset_type": "0x" + "0" * 63 + "a"}]}
    assert response.json() == {"data": apt}
    params = {"query": query, "variables": '{"m": 340282366920938463463374607431768211455}'}
    assert gql.get(endpoint(gql), params=params).json() == {"data": apt}
    # One more than u128's largest: a number no row has (not the float both round to).
    params["variables"] = '{"m": 340282366920938463463374607431768211456}'
    assert gql.get(endpoint(gql), params=params).json() == {"data": {"fungible_asset_metadata": []}}


def test_an_account_funded_by_the_faucet_reads_as_the_sdks_tests_expect(
    indexed: LocalNode, http: httpx.Client, gql: httpx.Client
) -> None:
    """The TypeScript SDK's own checks after ``fundAccount`` (tests/e2e/api/account):
    one transaction, one coin, the amount funded, under ``0x1::aptos_coin::AptosCoin``."""
    fresh = Account.generate()
    token = indexed.sign_in("indexer@example.com")
    funded = httpx.post(
        f"{indexed.faucet_url}/fund",
        json={"address": str(fresh.address), "amount": 12_345_678},
        headers={"Authorization": f"Bearer {token}", "x-is-jwt": "true"},
        timeout=30,
    )
    assert funded.status_code == 200, funded.text
    (txn_hash,) = funded.json()["txn_hashes"]
    version = int(wait(http, "0x" + txn_hash.removeprefix("0x"))["version"])
    wait_for_indexer(gql, version, "fungible_asset_processor")
    address = fresh.address.long
    counted = graphql(gql, GET_ACCOUNT_TRANSACTIONS_COUNT, {"address": address})
    assert counted["account_transactions_aggregate"]["aggregate"]["count"] == 1
    coins = graphql(gql, GET_ACCOUNT_COINS_COUNT, {"address": address})
    assert coins["current_fungible_asset_balances_aggregate"]["aggregate"]["count"] == 1
    where = {"owner_address": {"_eq": address}}
    data = graphql(gql, GET_ACCOUNT_COINS_DATA, {"where_condition": where})
    (coin,) = data["current_fungible_asset_balances"]
    assert coin["amount"] == 12_345_678
    assert coin["asset_type"] == APT
    assert coin["amount"] == apt_balance(http, fresh.address)


def test_cross_origin_requests_are_granted(gql: httpx.Client) -> None:
    origin = "http://localhost:5173"
    preflight = gql.options(
        endpoint(gql),
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == origin
    answer = gql.post(
        endpoint(gql), json={"query": "{ ledger_infos { chain_id } }"}, headers={"Origin": origin}
    )
    assert answer.headers["access-control-allow-origin"] == origin


def test_aggregates_read_through_fragments_and_aliases(
    live: dict[str, Any], gql: httpx.Client
) -> None:
    fresh = live["account"].address
    _, first, second = live["transactions"]
    query = """query ($a: String) {
      gas: fungible_asset_activities_aggregate(
          where: {owner_address: {_eq: $a}, is_gas_fee: {_eq: true}}) { ...Folded }
    }
    fragment Folded on fungible_asset_activities_aggregate {
      aggregate {
        n: count
        total: sum { fee: amount }
        ... on fungible_asset_activities_aggregate_fields { max { transaction_version } }
      }
      rows: nodes { ... on fungible_asset_activities { transaction_version } }
    }"""
    found = graphql(gql, query, {"a": fresh.long})["gas"]
    fees = sum(int(t["gas_used"]) * int(t["gas_unit_price"]) for t in (first, second))
    assert found["aggregate"] == {
        "n": 2,
        "total": {"fee": fees},
        "max": {"transaction_version": int(second["version"])},
    }
    assert sorted(r["transaction_version"] for r in found["rows"]) == [
        int(first["version"]),
        int(second["version"]),
    ]


def test_indexer_url_is_known_once_started_and_none_without_services() -> None:
    node = LocalNode(seed=7, blocks=2)
    with pytest.raises(NodeStoppedError):
        _ = node.indexer_url
    assert LocalNode(seed=7, blocks=2, services=False).indexer_url is None
