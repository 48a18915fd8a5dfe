"""The TypeScript SDK's tutorials against ``ledgerkit node`` started with no flags, as their
readers run them: ``new Aptos(new AptosConfig({ network: Network.LOCAL }))`` reaches the node
API on 127.0.0.1:8080, the faucet on :8081 and the indexer on :8090 unchanged.

``ts/tutorials.mjs`` runs one flow per ``node`` process, with accounts it generates and
funds; each flow runs under @aptos-labs/ts-sdk 6.3 and 7.3 (the ``ts`` fixture). What the SDK
reports is checked against the node's own REST answers, read here with httpx: balances in
octas after the amounts the flow moved and the fee the node charged, sequence numbers,
signatures, and the indexer's answers against the ledger they index.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from cli_node import CliNode
from ts_sdks import TsRunner, value

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

#: Bound on one flow (the script stops itself after 120 s).
FLOW_TIMEOUT: Final = 180
APT: Final = "0x1::aptos_coin::AptosCoin"


@pytest.fixture(scope="module")
def http(default_node: CliNode) -> Iterator[httpx.Client]:
    """The node API of ``ledgerkit node`` with no flags, read without the SDK."""
    with httpx.Client(base_url=default_node.node_url, timeout=30.0) as client:
        yield client


def flow(ts: TsRunner, name: str) -> dict[str, Any]:
    results = ts.run("tutorials.mjs", name, timeout=FLOW_TIMEOUT)
    assert value(results, "sdk") == {"package": ts.sdk.package, "network": "local"}
    return results


def raw(http: httpx.Client, path: str, **params: Any) -> Any:
    answer = http.get(path, params=params)
    assert answer.status_code == 200, (path, answer.text)
    return answer.json()


def balance(http: httpx.Client, address: str) -> int:
    return int(raw(http, f"/accounts/{address}/balance/{APT}"))


def committed(http: httpx.Client, done: dict[str, Any]) -> dict[str, Any]:
    """The node's record of a transaction the SDK waited for, checked to be the same one."""
    txn: dict[str, Any] = raw(http, f"/transactions/by_hash/{done['hash']}")
    assert txn["type"] == "user_transaction"
    assert (txn["version"], txn["success"], txn["vm_status"]) == (
        done["version"],
        True,
        "Executed successfully",
    )
    assert done["success"] is True
    return txn


def fee(txn: dict[str, Any]) -> int:
    return int(txn["gas_used"]) * int(txn["gas_unit_price"])


def funding(http: httpx.Client, results: dict[str, Any], name: str, amount: int) -> None:
    """``fundAccount`` committed the faucet's transfer of ``amount`` to account ``name``."""
    txn = committed(http, value(results, f"fund_{name}"))
    address = value(results, "accounts")[name]
    assert txn["payload"]["function"] == "0x1::aptos_account::transfer"
    assert txn["payload"]["arguments"] == [address, str(amount)]


def test_the_installed_releases(ts: TsRunner) -> None:
    """What package-lock.json pins: 6.3.1, and 7.3.0, the newest 7.3 on the registry."""
    assert ts.sdk.installed_version() == {"6.3": "6.3.1", "7.3": "7.3.0"}[ts.sdk.line]


def test_fund_account(ts: TsRunner, http: httpx.Client) -> None:
    results = flow(ts, "fund")
    alice = value(results, "accounts")["alice"]
    funding(http, results, "alice", 100_000_000)
    assert balance(http, alice) == 100_000_000
    assert value(results, "apt_amount") == 100_000_000
    assert raw(http, f"/accounts/{alice}")["sequence_number"] == "0"


def test_transfer_coin_transaction(ts: TsRunner, http: httpx.Client) -> None:
    """transfer_coin.ts: Alice, given 10 APT, sends Bob (no account yet) 0.01 APT."""
    results = flow(ts, "transfer")
    accounts = value(results, "accounts")
    alice, bob = accounts["alice"], accounts["bob"]
    funding(http, results, "alice", 1_000_000_000)
    txn = committed(http, value(results, "transfer"))
    assert txn["sender"] == alice
    assert txn["payload"]["function"] == "0x1::aptos_account::transfer_coins"
    assert txn["payload"]["type_arguments"] == [APT]
    assert txn["payload"]["arguments"] == [bob, "1000000"]
    expected = {"alice": 1_000_000_000 - 1_000_000 - fee(txn), "bob": 1_000_000}
    assert {"alice": balance(http, alice), "bob": balance(http, bob)} == expected
    assert value(results, "apt_amounts") == expected
    assert raw(http, f"/accounts/{alice}")["sequence_number"] == "1"


def test_batch_for_single_account(ts: TsRunner, http: httpx.Client) -> None:
    """batch_funds.ts: the transaction worker sends ten transfers of 1 octa, five to each
    recipient, numbering them 0 to 9 itself."""
    results = flow(ts, "batch")
    accounts = value(results, "accounts")
    sender, first, second = accounts["sender"], accounts["first"], accounts["second"]
    funding(http, results, "sender", 10_000_000_000)
    batch = value(results, "batch")
    assert batch["failed"] == []
    sent = raw(http, f"/accounts/{sender}/transactions", limit=100)
    assert [t["sequence_number"] for t in sent] == [str(n) for n in range(10)]
    assert sorted(t["hash"] for t in sent) == sorted(batch["executed"])
    assert all(t["success"] for t in sent)
    assert sorted(t["payload"]["arguments"][0] for t in sent) == sorted([first] * 5 + [second] * 5)
    assert {t["payload"]["arguments"][1] for t in sent} == {"1"}
    assert (balance(http, first), balance(http, second)) == (5, 5)
    assert balance(http, sender) == 10_000_000_000 - 10 - sum(fee(t) for t in sent)
    assert value(results, "sender_info")["sequence_number"] == "10"
    assert raw(http, f"/accounts/{sender}")["sequence_number"] == "10"


def test_sponsored_transaction(ts: TsRunner, http: httpx.Client) -> None:
    """simple_sponsored_transaction.ts: Alice sends Bob 10 octas, the sponsor pays the fee."""
    results = flow(ts, "sponsored")
    accounts = value(results, "accounts")
    alice, bob, sponsor = accounts["alice"], accounts["bob"], accounts["sponsor"]
    funding(http, results, "alice", 1_000_000_000)
    funding(http, results, "sponsor", 1_000_000_000)
    txn = committed(http, value(results, "sponsored"))
    assert txn["sender"] == alice
    assert txn["signature"]["type"] == "fee_payer_signature"
    assert txn["signature"]["fee_payer_address"] == sponsor
    assert txn["payload"]["arguments"] == [bob, "10"]
    expected = {"alice": 999_999_990, "bob": 10, "sponsor": 1_000_000_000 - fee(txn)}
    assert {name: balance(http, accounts[name]) for name in expected} == expected
    # The indexer's coin balances (getAccountCoinsData), before and after.
    assert value(results, "coins_before") == {
        "alice": [{"asset_type": APT, "amount": 1_000_000_000}],
        "sponsor": [{"asset_type": APT, "amount": 1_000_000_000}],
    }
    assert value(results, "coins_after") == {
        name: [{"asset_type": APT, "amount": amount}] for name, amount in expected.items()
    }


def test_multi_agent_entry_function(ts: TsRunner, http: httpx.Client) -> None:
    """A multi-agent transaction, Bob signing beside Alice, calling
    0x1::aptos_account::create_account for Carol: the sender pays, the second signer pays
    nothing, and Carol's account exists."""
    results = flow(ts, "multi_agent")
    accounts = value(results, "accounts")
    alice, bob, carol = accounts["alice"], accounts["bob"], accounts["carol"]
    funding(http, results, "alice", 1_000_000_000)
    funding(http, results, "bob", 1_000_000_000)
    txn = committed(http, value(results, "multi_agent"))
    assert txn["sender"] == alice
    assert txn["signature"]["type"] == "multi_agent_signature"
    assert txn["signature"]["secondary_signer_addresses"] == [bob]
    assert txn["payload"]["function"] == "0x1::aptos_account::create_account"
    assert txn["payload"]["arguments"] == [carol]
    assert balance(http, alice) == 1_000_000_000 - fee(txn)
    assert balance(http, bob) == 1_000_000_000
    assert raw(http, f"/accounts/{alice}")["sequence_number"] == "1"
    assert raw(http, f"/accounts/{bob}")["sequence_number"] == "0"
    expected = {"sequence_number": "0", "authentication_key": carol}
    assert raw(http, f"/accounts/{carol}") == expected
    assert value(results, "carol_info") == expected


def test_orderless_transfer(ts: TsRunner, http: httpx.Client) -> None:
    """simple_orderless_transfer.ts: replay protection nonce 12345 instead of a sequence
    number, which stays 0."""
    results = flow(ts, "orderless")
    accounts = value(results, "accounts")
    alice, bob = accounts["alice"], accounts["bob"]
    funding(http, results, "alice", 1_000_000_000)
    funding(http, results, "bob", 100)
    txn = committed(http, value(results, "orderless"))
    assert txn["sender"] == alice
    assert txn["replay_protection_nonce"] == "12345"
    assert txn["payload"]["function"] == "0x1::coin::transfer"
    assert txn["payload"]["arguments"] == [bob, "100"]
    expected = {"alice": 1_000_000_000 - 100 - fee(txn), "bob": 200}
    assert {"alice": balance(http, alice), "bob": balance(http, bob)} == expected
    assert value(results, "balances") == {name: str(amount) for name, amount in expected.items()}
    assert raw(http, f"/accounts/{alice}")["sequence_number"] == "0"
    assert value(results, "alice_info")["sequence_number"] == "0"


def primary_store(http: httpx.Client, owner: str) -> str:
    """``owner``'s primary fungible store of APT (0xa), as the node's view function says."""
    answer = http.post(
        "/view",
        json={
            "function": "0x1::primary_fungible_store::primary_store_address",
            "type_arguments": ["0x1::fungible_asset::Metadata"],
            "arguments": [owner, "0xa"],
        },
    )
    assert answer.status_code == 200, answer.text
    store: str = answer.json()[0]
    return store


def store_events(txn: dict[str, Any], store: str) -> list[tuple[int, str, int, bool]]:
    """``(version, type, amount, is_gas_fee)`` of the fungible-asset events of ``txn`` on
    ``store``."""
    return [
        (int(txn["version"]), event["type"], int(event["data"]["amount"]), False)
        for event in txn["events"]
        if event["type"] in {"0x1::fungible_asset::Deposit", "0x1::fungible_asset::Withdraw"}
        and event["data"]["store"] == store
    ]


def test_indexer_reads(ts: TsRunner, http: httpx.Client) -> None:
    """getAccountCoinsData, getAccountTransactionsCount, getFungibleAssetActivities and
    getAccountOwnedObjects after Alice's funding and a transfer of 1,000 octas to Bob, each
    against what the node API says of the same account."""
    results = flow(ts, "indexer")
    accounts = value(results, "accounts")
    alice = accounts["alice"]
    funding(http, results, "alice", 1_000_000_000)
    funded = committed(http, value(results, "fund_alice"))
    sent = committed(http, value(results, "transfer"))
    paid = fee(sent)
    assert balance(http, alice) == 1_000_000_000 - 1_000 - paid
    store = primary_store(http, alice)

    coins = value(results, "coins")
    assert [(c["asset_type"], c["amount"], c["owner_address"]) for c in coins] == [
        (APT, balance(http, alice), alice)
    ]
    assert coins[0]["storage_id"] == store
    assert coins[0]["last_transaction_version"] == int(sent["version"])
    assert coins[0]["metadata"]["symbol"] == "APT"
    assert coins[0]["metadata"]["decimals"] == 8

    # The faucet's transfer to Alice and her own: the two transactions that touched her.
    assert value(results, "transactions_count") == 2

    expected = [
        *store_events(funded, store),
        (int(sent["version"]), "0x1::aptos_coin::GasFeeEvent", paid, True),
        *store_events(sent, store),
    ]
    assert [entry[1:] for entry in expected] == [
        ("0x1::fungible_asset::Deposit", 1_000_000_000, False),
        ("0x1::aptos_coin::GasFeeEvent", paid, True),
        ("0x1::fungible_asset::Withdraw", 1_000, False),
    ]
    activities = value(results, "activities")
    assert sorted(
        (a["transaction_version"], a["type"], a["amount"], a["is_gas_fee"]) for a in activities
    ) == sorted(expected)
    assert {(a["owner_address"], a["asset_type"], a["storage_id"]) for a in activities} == {
        (alice, APT, store)
    }

    core = raw(http, f"/accounts/{store}/resource/0x1::object::ObjectCore")["data"]
    owned = value(results, "owned_objects")
    assert [
        (o["object_address"], o["owner_address"], o["allow_ungated_transfer"], o["is_deleted"])
        for o in owned
    ] == [(store, core["owner"], core["allow_ungated_transfer"], False)]
    assert core["owner"] == alice
