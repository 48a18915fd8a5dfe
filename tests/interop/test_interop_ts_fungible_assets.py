"""A fungible asset issued by a published module, through the TypeScript SDK (6.3 and 7.3)
alone, against ``ledgerkit node`` started with no flags (``Network.LOCAL``): the flow of the
SDK's ``your_fungible_asset.ts`` example.

The issuer is a fresh account, funded by the faucet as the SDK funds (``fundAccount``), that
publishes the assembler's ``fa_coin`` (``tests/move/assembler/examples.py``: "FA Coin", FA,
8 decimals) written for its address. Then: 5,000 minted to Alice; Alice sends Bob 1,200
(``transferFungibleAsset``); the issuer freezes Bob, whose send of 200 is refused by the
framework; unfreezes him, and the send goes through; burns 300 of Bob's. Alice ends with
4,000, Bob with 700, the supply at 4,700.

Expected values are worked out by hand: the asset's metadata object is the issuer's named
object ``SHA3-256(issuer ‖ "FA" ‖ 0xFE)``, a primary store ``SHA3-256(owner ‖ metadata ‖
0xFC)``; ``fungible_asset``'s ``ESTORE_IS_FROZEN`` is 3, ``error::permission_denied`` makes
it ``0x50003``. The activities are the framework's module events as the indexer's
fungible asset processor names them, one row per event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from cli_node import CliNode
from move_examples import bytecode, package_metadata
from ts_sdks import TsRunner, value

from ledgerkit.keys import Account

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

#: Bound on one run of the script (it stops itself after 150 s).
RUN_TIMEOUT: Final = 210
FA: Final = "0x1::fungible_asset::"
#: The supply's ceiling when the issuer gives none: an unbounded aggregator's u128 maximum,
#: which reaches JavaScript as a JSON number, so a double.
UNBOUNDED: Final = float(2**128 - 1)


def hex_of(digest: bytes) -> str:
    return "0x" + digest.hex()


def named_object(creator: str, seed: bytes) -> str:
    return hex_of(hashlib.sha3_256(bytes.fromhex(creator[2:]) + seed + b"\xfe").digest())


def primary_store(owner: str, metadata: str) -> str:
    data = bytes.fromhex(owner[2:]) + bytes.fromhex(metadata[2:]) + b"\xfc"
    return hex_of(hashlib.sha3_256(data).digest())


@pytest.fixture(scope="module")
def http(default_node: CliNode) -> Iterator[httpx.Client]:
    """The node API of ``ledgerkit node`` with no flags, read without the SDK."""
    with httpx.Client(base_url=default_node.node_url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="module")
def flow(ts: TsRunner, default_node: CliNode) -> dict[str, Any]:
    """One run of ``fungible_assets.mjs`` per release, each with an issuer of its own."""
    issuer = Account.generate()
    me = issuer.address.long
    results = ts.run(
        "fungible_assets.mjs",
        package_metadata("fa_coin", me).hex(),
        bytecode("fa_coin", me).hex(),
        timeout=RUN_TIMEOUT,
        key=issuer.private_key.secret_hex(),
    )
    assert value(results, "accounts")["issuer"] == me
    return results


def node_txn(http: httpx.Client, done: dict[str, Any]) -> dict[str, Any]:
    answer = http.get(f"/transactions/by_hash/{done['hash']}")
    assert answer.status_code == 200, answer.text
    txn: dict[str, Any] = answer.json()
    assert txn["version"] == done["version"]
    return txn


def committed(http: httpx.Client, results: dict[str, Any], step: str) -> dict[str, Any]:
    """The node's record of the transaction the SDK waited for at ``step``: a success."""
    txn = node_txn(http, value(results, step))
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    return txn


def test_the_issuer_publishes_and_the_view_names_the_asset(
    flow: dict[str, Any], http: httpx.Client
) -> None:
    accounts = value(flow, "accounts")
    me = accounts["issuer"]
    for name in ("issuer", "alice", "bob"):
        funded = committed(http, flow, f"fund_{name}")
        assert funded["payload"]["arguments"] == [accounts[name], "1000000000"]
    published = committed(http, flow, "publish")
    assert published["sender"] == me
    assert published["payload"]["function"] == "0x1::code::publish_package_txn"
    assert value(flow, "get_metadata") == [{"inner": named_object(me, b"FA")}]


def test_mint_send_freeze_unfreeze_and_burn(flow: dict[str, Any], http: httpx.Client) -> None:
    accounts = value(flow, "accounts")
    me, alice, bob = accounts["issuer"], accounts["alice"], accounts["bob"]
    asset = named_object(me, b"FA")
    calls = {
        step: committed(http, flow, step)["payload"]
        for step in ("mint", "freeze_bob", "unfreeze_bob", "burn")
    }
    assert {step: (p["function"], p["arguments"]) for step, p in calls.items()} == {
        "mint": (f"{me}::fa_coin::mint", [alice, "5000"]),
        "freeze_bob": (f"{me}::fa_coin::freeze_account", [bob]),
        "unfreeze_bob": (f"{me}::fa_coin::unfreeze_account", [bob]),
        "burn": (f"{me}::fa_coin::burn", [bob, "300"]),
    }
    # transferFungibleAsset: primary_fungible_store::transfer<Metadata>(asset, to, amount).
    for step, sender, recipient, amount in (
        ("alice_to_bob", alice, bob, "1200"),
        ("bob_to_alice", bob, alice, "200"),
    ):
        txn = committed(http, flow, step)
        assert txn["sender"] == sender
        assert txn["payload"]["function"] == "0x1::primary_fungible_store::transfer"
        assert txn["payload"]["type_arguments"] == [FA + "Metadata"]
        assert txn["payload"]["arguments"] == [{"inner": asset}, recipient, amount]

    # Frozen, Bob's send is committed as a failure; the SDK's wait throws, the failed
    # transaction attached.
    refused = value(flow, "bob_frozen_send")
    status = (
        "Move abort in 0x1::fungible_asset: ESTORE_IS_FROZEN(0x50003): The store is frozen: "
        "it can neither send nor receive this asset"
    )
    assert (refused["success"], refused["vm_status"]) == (False, status)
    assert refused["thrown"] == f"Transaction {refused['hash']} failed with an error: {status}"
    txn = node_txn(http, refused)
    assert (txn["success"], txn["sender"]) == (False, bob)
    assert [e["type"] for e in txn["events"]] == ["0x1::transaction_fee::FeeStatement"]


def test_balances_by_indexer_view_and_rest(flow: dict[str, Any]) -> None:
    accounts = value(flow, "accounts")
    me, alice, bob = accounts["issuer"], accounts["alice"], accounts["bob"]
    asset = named_object(me, b"FA")
    balances = sorted(value(flow, "balances"), key=lambda row: row["amount"], reverse=True)
    assert [
        {k: row[k] for k in ("owner_address", "storage_id", "amount", "asset_type")}
        for row in balances
    ] == [
        {
            "owner_address": alice,
            "storage_id": primary_store(alice, asset),
            "amount": 4_000,
            "asset_type": asset,
        },
        {
            "owner_address": bob,
            "storage_id": primary_store(bob, asset),
            "amount": 700,
            "asset_type": asset,
        },
    ]
    assert [(r["is_primary"], r["is_frozen"], r["token_standard"]) for r in balances] == [
        (True, False, "v2")
    ] * 2
    # Alice's store last changed with Bob's send back to her, Bob's with the burn.
    assert [r["last_transaction_version"] for r in balances] == [
        int(value(flow, "bob_to_alice")["version"]),
        int(value(flow, "burn")["version"]),
    ]
    for name, amount in (("alice", 4_000), ("bob", 700)):
        assert value(flow, f"view_balance_{name}") == [str(amount)]
        assert value(flow, f"coin_amount_{name}") == amount
        assert value(flow, f"get_balance_{name}") == amount


def test_metadata_from_the_indexer(flow: dict[str, Any]) -> None:
    me = value(flow, "accounts")["issuer"]
    asset = named_object(me, b"FA")
    expected = {
        "asset_type": asset,
        "creator_address": me,
        "name": "FA Coin",
        "symbol": "FA",
        "decimals": 8,
        "icon_uri": "https://example.org/fa/icon.png",
        "project_uri": "https://example.org/fa",
        "token_standard": "v2",
        "supply_v2": 4_700,
        "maximum_v2": UNBOUNDED,
        "supply_aggregator_table_handle_v1": None,
        "supply_aggregator_table_key_v1": None,
    }
    found = value(flow, "metadata")
    assert [{k: row[k] for k in expected} for row in found] == [expected]
    by_type = value(flow, "metadata_by_asset_type")
    assert {k: by_type[k] for k in expected} == expected
    # Bob's coins (getAccountCoinsData): APT and FA, each with its metadata.
    coins = {row["asset_type"]: row for row in value(flow, "coins_data")}
    assert sorted(coins) == ["0x1::aptos_coin::AptosCoin", asset]
    assert coins[asset]["amount"] == 700
    assert {k: coins[asset]["metadata"][k] for k in ("name", "symbol", "decimals")} == {
        "name": "FA Coin",
        "symbol": "FA",
        "decimals": 8,
    }
    assert coins[asset]["metadata"]["creator_address"] == me


def test_activities_from_the_indexer(flow: dict[str, Any]) -> None:
    accounts = value(flow, "accounts")
    me, alice, bob = accounts["issuer"], accounts["alice"], accounts["bob"]
    asset = named_object(me, b"FA")
    alice_store, bob_store = primary_store(alice, asset), primary_store(bob, asset)
    steps = ("mint", "alice_to_bob", "freeze_bob", "unfreeze_bob", "bob_to_alice", "burn")
    version = {step: int(value(flow, step)["version"]) for step in steps}
    rows = sorted(
        value(flow, "activities"), key=lambda r: (r["transaction_version"], r["event_index"])
    )
    mine = f"{me}::fa_coin::"
    transfer = "0x1::primary_fungible_store::transfer"
    assert [
        (
            r["transaction_version"],
            r["event_index"],
            r["type"],
            r["owner_address"],
            r["storage_id"],
            r["amount"],
            r["is_frozen"],
            r["entry_function_id_str"],
        )
        for r in rows
    ] == [
        (version["mint"], 0, FA + "Deposit", alice, alice_store, 5_000, None, mine + "mint"),
        (version["alice_to_bob"], 0, FA + "Withdraw", alice, alice_store, 1_200, None, transfer),
        (version["alice_to_bob"], 1, FA + "Deposit", bob, bob_store, 1_200, None, transfer),
        (
            version["freeze_bob"],
            0,
            FA + "Frozen",
            bob,
            bob_store,
            None,
            True,
            mine + "freeze_account",
        ),
        (
            version["unfreeze_bob"],
            0,
            FA + "Frozen",
            bob,
            bob_store,
            None,
            False,
            mine + "unfreeze_account",
        ),
        (version["bob_to_alice"], 0, FA + "Withdraw", bob, bob_store, 200, None, transfer),
        (version["bob_to_alice"], 1, FA + "Deposit", alice, alice_store, 200, None, transfer),
        (version["burn"], 0, FA + "Withdraw", bob, bob_store, 300, None, mine + "burn"),
    ]
    assert {(r["asset_type"], r["token_standard"], r["is_gas_fee"]) for r in rows} == {
        (asset, "v2", False)
    }
    assert all(r["is_transaction_success"] for r in rows)
