"""The official Python SDK's token v1 client (``aptos_sdk.aptos_tokenv1_client``) against the
embedded node, in the flow of the SDK's ``simple_nft.py`` example: two new accounts funded by
the faucet, a collection and a token made, the token offered and claimed, sent back with two
signers, and its collection, data and balances read through table items.

What the SDK reads back is compared with values written out here and with plain HTTP reads of
the node, never with the SDK's own answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from aptos_sdk.account import Account
from aptos_sdk.aptos_tokenv1_client import AptosTokenV1Client
from aptos_sdk.async_client import FaucetClient, RestClient

from ledgerkit.localnet import FaucetSettings, LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(900)]

COLLECTION: Final = "Alice's"
TOKEN: Final = "Alice's first token"
U64_MAX: Final = 2**64 - 1
ZERO_GUID: Final = {"creation_number": "0", "account_address": "0x0"}


@pytest.fixture(scope="module")
def token_node() -> Iterator[LocalNode]:
    node = LocalNode(seed=29, blocks=2, faucet=FaucetSettings.local()).start()
    try:
        yield node
    finally:
        node.stop()


def events(http: httpx.Client, txn_hash: str) -> list[str]:
    answer = http.get(f"/transactions/by_hash/{txn_hash}")
    assert answer.status_code == 200, answer.text
    txn = answer.json()
    assert txn["success"], txn["vm_status"]
    assert all(e["guid"] == ZERO_GUID for e in txn["events"])
    return [e["type"] for e in txn["events"] if e["type"].startswith("0x3::")]


async def flow(node: LocalNode) -> dict[str, Any]:
    """The example's steps; what each read answered."""
    rest = RestClient(node.url)
    assert node.faucet_url is not None
    faucet = FaucetClient(node.faucet_url, rest)
    tokens = AptosTokenV1Client(rest)
    alice, bob = Account.generate(), Account.generate()
    seen: dict[str, Any] = {"alice": alice.address(), "bob": bob.address(), "hashes": {}}
    try:
        await asyncio.gather(
            faucet.fund_account(alice.address(), 1_000_000_000),
            faucet.fund_account(bob.address(), 1_000_000_000),
        )
        steps = seen["hashes"]
        steps["collection"] = await tokens.create_collection(
            alice, COLLECTION, "Alice's simple collection", "https://aptos.dev"
        )
        await rest.wait_for_transaction(steps["collection"])
        steps["token"] = await tokens.create_token(
            alice,
            COLLECTION,
            TOKEN,
            "Alice's simple token",
            1,
            "https://aptos.dev/img/nyan.jpeg",
            0,
        )
        await rest.wait_for_transaction(steps["token"])
        seen["collection"] = await tokens.get_collection(alice.address(), COLLECTION)
        seen["token_data"] = await tokens.get_token_data(alice.address(), COLLECTION, TOKEN, 0)
        seen["minted"] = await tokens.get_token_balance(
            alice.address(), alice.address(), COLLECTION, TOKEN, 0
        )
        steps["offer"] = await tokens.offer_token(
            alice, bob.address(), alice.address(), COLLECTION, TOKEN, 0, 1
        )
        await rest.wait_for_transaction(steps["offer"])
        steps["claim"] = await tokens.claim_token(
            bob, alice.address(), alice.address(), COLLECTION, TOKEN, 0
        )
        await rest.wait_for_transaction(steps["claim"])
        seen["claimed"] = await asyncio.gather(
            tokens.get_token_balance(alice.address(), alice.address(), COLLECTION, TOKEN, 0),
            tokens.get_token_balance(bob.address(), alice.address(), COLLECTION, TOKEN, 0),
        )
        steps["direct"] = await tokens.direct_transfer_token(
            bob, alice, alice.address(), COLLECTION, TOKEN, 0, 1
        )
        await rest.wait_for_transaction(steps["direct"])
        seen["returned"] = await asyncio.gather(
            tokens.get_token_balance(alice.address(), alice.address(), COLLECTION, TOKEN, 0),
            tokens.get_token_balance(bob.address(), alice.address(), COLLECTION, TOKEN, 0),
        )
        return seen
    finally:
        await rest.close()


@pytest.fixture(scope="module")
def seen(token_node: LocalNode) -> dict[str, Any]:
    return asyncio.run(asyncio.wait_for(flow(token_node), timeout=300))


@pytest.fixture(scope="module")
def http(token_node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=token_node.url, timeout=30.0) as client:
        yield client


def test_the_collection_as_the_sdk_reads_it(seen: dict[str, Any]) -> None:
    # The SDK asks for no maximum (u64::MAX) and nothing mutable.
    assert seen["collection"] == {
        "description": "Alice's simple collection",
        "name": COLLECTION,
        "uri": "https://aptos.dev",
        "supply": "1",
        "maximum": str(U64_MAX),
        "mutability_config": {"description": False, "uri": False, "maximum": False},
    }


def test_the_token_data_as_the_sdk_reads_it(seen: dict[str, Any]) -> None:
    assert seen["token_data"] == {
        "maximum": "1",
        "largest_property_version": "0",
        "supply": "1",
        "uri": "https://aptos.dev/img/nyan.jpeg",
        "royalty": {
            "royalty_points_numerator": "0",
            "royalty_points_denominator": "1000000",
            "payee_address": str(seen["alice"]),
        },
        "name": TOKEN,
        "description": "Alice's simple token",
        "default_properties": {"map": {"data": []}},
        "mutability_config": {
            "maximum": False,
            "uri": False,
            "royalty": False,
            "description": False,
            "properties": False,
        },
    }


def test_balances_through_offer_claim_and_direct_transfer(seen: dict[str, Any]) -> None:
    assert seen["minted"] == "1"
    # Bob claimed the one token; the SDK reads Alice's missing table item as "0".
    assert seen["claimed"] == ["0", "1"]
    assert seen["returned"] == ["1", "0"]


def test_each_step_emits_the_frameworks_module_events(
    seen: dict[str, Any], http: httpx.Client
) -> None:
    steps = {name: events(http, txn_hash) for name, txn_hash in seen["hashes"].items()}
    assert steps == {
        "collection": ["0x3::token::CreateCollection"],
        "token": [
            "0x3::token::TokenDataCreation",
            "0x3::token::Mint",
            "0x3::token::TokenDeposit",
        ],
        "offer": ["0x3::token::TokenWithdraw", "0x3::token_transfers::Offer"],
        "claim": ["0x3::token::TokenDeposit", "0x3::token_transfers::Claim"],
        "direct": ["0x3::token::TokenWithdraw", "0x3::token::TokenDeposit"],
    }


def test_new_accounts_got_their_account_resource_and_stores(
    seen: dict[str, Any], http: httpx.Client
) -> None:
    for who, resources in (
        (
            "alice",
            {
                "0x3::token::Collections",
                "0x3::token::TokenStore",
                "0x3::token_transfers::PendingClaims",
            },
        ),
        ("bob", {"0x3::token::TokenStore"}),
    ):
        answer = http.get(f"/accounts/{seen[who]}/resources")
        assert answer.status_code == 200, answer.text
        types = {r["type"] for r in answer.json()}
        assert "0x1::account::Account" in types
        assert resources <= types
