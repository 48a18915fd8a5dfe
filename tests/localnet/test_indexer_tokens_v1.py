"""The indexer's token tables after token v1 transactions (``0x3::token``): a collection
and a token made, offered to one account and claimed, offered again (pending), offered to
a third and cancelled, the claimed one burnt by its owner, and one of the creator's
given properties of its own (property version 1); read with the TypeScript
SDK's queries (getCollectionData, getTokenData, getAccountOwnedTokens, getTokenActivity)
and the pending claims table, and listed by ``Client.account_assets``.

Ids are hashed here by hand, as aptos-indexer-processors derives them: a token data's
``"0x" + SHA-256("<creator>::<collection>::<name>")``, a collection's
``"0x" + SHA-256("<creator>::<collection>")``; table handles by the node's documented rule
``SHA3-256("ledgerkit::" ‖ module ‖ "::" ‖ field ‖ owner)``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from indexer_helpers import (
    GET_ACCOUNT_OWNED_TOKENS,
    GET_COLLECTION_DATA,
    GET_TOKEN_ACTIVITY,
    GET_TOKEN_DATA,
    graphql,
    wait_for_indexer,
)
from node_http_helpers import Account, run

from ledgerkit.client import Client
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

S = "0x1::string::String"
COLLECTION = "Alice's"
TOKEN = "Sword"
ZERO = "0x" + "0" * 64
TOKEN_STORE = "0x3::token::TokenStore"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def handle(module: str, field: str, owner: Address) -> str:
    seed = f"ledgerkit::{module}::{field}".encode()
    return "0x" + hashlib.sha3_256(seed + bytes(owner)).hexdigest()


def stamp(txn: dict[str, Any]) -> str:
    """A transaction's time as Hasura renders a Postgres timestamp: UTC, the fraction of
    a second without its trailing zeros (none when whole)."""
    usec = int(txn["timestamp"])
    moment = datetime.fromtimestamp(usec // 1_000_000, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    fraction = f"{usec % 1_000_000:06d}".rstrip("0")
    return f"{moment}.{fraction}" if fraction else moment


def id_args(creator: Address) -> list[tuple[str, Any]]:
    return [("address", creator), (S, COLLECTION), (S, TOKEN), ("u64", 0)]


def token_args(creator: Address) -> list[tuple[str, Any]]:
    """A token of 4 ``Sword``s (maximum 10) in ``COLLECTION``, its properties mutable."""
    return [
        (S, COLLECTION),
        (S, TOKEN),
        (S, "A sword"),
        ("u64", 4),
        ("u64", 10),
        (S, "https://aptos.dev/img/sword.png"),
        ("address", creator),
        ("u64", 1_000_000),
        ("u64", 25_000),
        ("vector<bool>", [False, False, False, False, True]),
        (f"vector<{S}>", ["level", "TOKEN_BURNABLE_BY_OWNER", "owner"]),
        ("vector<vector<u8>>", [bytes.fromhex("0500000000000000"), b"\x01", bytes(32)]),
        (f"vector<{S}>", ["u64", "bool", "address"]),
    ]


class Story:
    def __init__(self, node: LocalNode, http: httpx.Client, indexer: httpx.Client) -> None:
        self.alice: Account = node.dev_accounts[0]
        self.bob: Account = node.dev_accounts[1]
        self.carol: Account = node.dev_accounts[2]
        self.indexer = indexer
        alice = self.alice.address
        self.token_id = "0x" + sha256(f"{alice.long}::{COLLECTION}::{TOKEN}")
        self.collection_id = "0x" + sha256(f"{alice.long}::{COLLECTION}")
        self.txns: dict[str, dict[str, Any]] = {}
        self.txns["collection"] = run(
            http,
            self.alice,
            "0x3::token::create_collection_script",
            [
                (S, COLLECTION),
                (S, "Alice's simple collection"),
                (S, "https://aptos.dev"),
                ("u64", 2),
                ("vector<bool>", [False, True, False]),
            ],
        )
        self.txns["token"] = run(
            http, self.alice, "0x3::token::create_token_script", token_args(alice)
        )

        def offer(to: Account) -> dict[str, Any]:
            args = [("address", to.address), *id_args(alice), ("u64", 1)]
            return run(http, self.alice, "0x3::token_transfers::offer_script", args)

        self.txns["offer"] = offer(self.bob)
        self.txns["claim"] = run(
            http,
            self.bob,
            "0x3::token_transfers::claim_script",
            [("address", alice), *id_args(alice)],
        )
        self.txns["again"] = offer(self.bob)
        self.txns["offer_carol"] = offer(self.carol)
        self.txns["cancel"] = run(
            http,
            self.alice,
            "0x3::token_transfers::cancel_offer_script",
            [("address", self.carol.address), *id_args(alice)],
        )
        self.txns["burn"] = run(http, self.bob, "0x3::token::burn", [*id_args(alice), ("u64", 1)])
        self.txns["mutate"] = run(
            http,
            self.alice,
            "0x3::token::mutate_token_properties",
            [
                ("address", alice),
                *id_args(alice),
                ("u64", 1),
                (f"vector<{S}>", ["level"]),
                ("vector<vector<u8>>", [bytes.fromhex("0600000000000000")]),
                (f"vector<{S}>", ["u64"]),
            ],
        )
        for name, txn in self.txns.items():
            assert txn["success"], (name, txn["vm_status"])
        wait_for_indexer(indexer, self.version("mutate"), "token_v2_processor")

    def version(self, name: str) -> int:
        return int(self.txns[name]["version"])


@pytest.fixture(scope="module")
def v1_node(make_node: Any) -> LocalNode:
    made: LocalNode = make_node(seed=29, blocks=3)
    return made


@pytest.fixture(scope="module")
def story(v1_node: LocalNode) -> Iterator[Story]:
    assert v1_node.indexer_url is not None
    with (
        httpx.Client(base_url=v1_node.url, timeout=30.0) as http,
        httpx.Client(base_url=v1_node.indexer_url, timeout=30.0) as indexer,
    ):
        yield Story(v1_node, http, indexer)


def collection_row(story: Story) -> dict[str, Any]:
    return {
        "collection_id": story.collection_id,
        "collection_name": COLLECTION,
        "creator_address": story.alice.address.long,
        "current_supply": 1,  # one token data made
        "description": "Alice's simple collection",
        # the token data made in "token" wrote the collection's supply
        "last_transaction_timestamp": stamp(story.txns["token"]),
        "last_transaction_version": story.version("token"),
        "max_supply": 2,
        "mutable_description": False,
        "mutable_uri": True,
        "table_handle_v1": handle("token", "collection_data", story.alice.address),
        "token_standard": "v1",
        "total_minted_v2": None,
        "uri": "https://aptos.dev",
    }


def test_get_collection_data_finds_the_v1_collection_by_its_hashed_id(story: Story) -> None:
    where = {"collection_id": {"_eq": story.collection_id}}
    found = graphql(story.indexer, GET_COLLECTION_DATA, {"where_condition": where})
    assert found["current_collections_v2"] == [collection_row(story)]
    # as the SDK asks by creator and name too
    where = {
        "creator_address": {"_eq": story.alice.address.long},
        "collection_name": {"_eq": COLLECTION},
        "token_standard": {"_eq": "v1"},
    }
    found = graphql(story.indexer, GET_COLLECTION_DATA, {"where_condition": where})
    assert [row["collection_id"] for row in found["current_collections_v2"]] == [
        story.collection_id
    ]


def token_data_row(story: Story) -> dict[str, Any]:
    return {
        "collection_id": story.collection_id,
        "description": "A sword",
        "is_fungible_v2": None,
        # the mutation made property version 1 (the burn before it wrote the supply: a
        # token with a maximum counts it)
        "largest_property_version_v1": 1,
        "last_transaction_timestamp": stamp(story.txns["mutate"]),
        "last_transaction_version": story.version("mutate"),
        "maximum": 10,
        "supply": 3,
        "token_data_id": story.token_id,
        "token_name": TOKEN,
        # an address property is read as a BCS string, as the processor does: 32 zero
        # bytes are an empty string after a length byte 0 and 31 bytes more, so no
        # string, and the hex stays
        "token_properties": {
            "level": "5",
            "TOKEN_BURNABLE_BY_OWNER": "true",
            "owner": "0x" + "00" * 32,
        },
        "token_standard": "v1",
        "token_uri": "https://aptos.dev/img/sword.png",
        "decimals": None,
        "current_collection": collection_row(story),
    }


def test_get_token_data_gives_the_v1_token_data_and_its_collection(story: Story) -> None:
    where = {"token_data_id": {"_eq": story.token_id}}
    found = graphql(story.indexer, GET_TOKEN_DATA, {"where_condition": where})
    assert found["current_token_datas_v2"] == [token_data_row(story)]


def ownership(
    story: Story,
    owner: Address,
    amount: int,
    last: str,
    version: int = 0,
    properties: dict[str, str] | None = None,
) -> dict[str, Any]:
    return {
        "token_standard": "v1",
        # a minted token carries no properties of its own
        "token_properties_mutated_v1": properties or {},
        "token_data_id": story.token_id,
        "table_type_v1": TOKEN_STORE,
        "storage_id": handle("token", "tokens", owner),
        "property_version_v1": version,
        "owner_address": owner.long,
        "last_transaction_version": story.version(last),
        "last_transaction_timestamp": stamp(story.txns[last]),
        "is_soulbound_v2": None,
        "is_fungible_v2": None,
        "amount": amount,
        "current_token_data": token_data_row(story),
    }


def owned(story: Story, owner: Address, *, held: bool = True) -> list[dict[str, Any]]:
    where: dict[str, Any] = {"owner_address": {"_eq": owner.long}}
    if held:
        where["amount"] = {"_gt": 0}
    order = [{"property_version_v1": "asc"}]
    variables = {"where_condition": where, "offset": 0, "limit": 100, "order_by": order}
    found: list[dict[str, Any]] = graphql(story.indexer, GET_ACCOUNT_OWNED_TOKENS, variables)[
        "current_token_ownerships_v2"
    ]
    return found


def test_get_account_owned_tokens_lists_each_holders_v1_tokens(story: Story) -> None:
    # Bob claimed one and burnt it; two more are offered out of Alice's store (one to
    # Bob, pending; one to Carol, cancelled and back): 4 - 1 - 1 - 1 + 1 = 2 left with
    # Alice, one of which she then mutated into property version 1.
    assert owned(story, story.bob.address) == []
    # Bob's row stays at amount 0: only the amount and the version change at a burn, the
    # properties stay those of his last write
    burnt = ownership(story, story.bob.address, 0, "burn")
    assert owned(story, story.bob.address, held=False) == [burnt]
    mutated = {"level": "6", "TOKEN_BURNABLE_BY_OWNER": "true", "owner": "0x" + "00" * 32}
    assert owned(story, story.alice.address) == [
        ownership(story, story.alice.address, 1, "mutate"),
        ownership(story, story.alice.address, 1, "mutate", 1, mutated),
    ]
    assert owned(story, story.carol.address) == []


def test_get_token_activity_lists_the_v1_events(story: Story) -> None:
    where = {"token_data_id": {"_eq": story.token_id}}
    order = [{"transaction_version": "asc"}, {"event_index": "asc"}]
    variables = {"where_condition": where, "order_by": order}
    found = graphql(story.indexer, GET_TOKEN_ACTIVITY, variables)["token_activities_v2"]
    alice, bob, carol = (a.address.long for a in (story.alice, story.bob, story.carol))
    withdraw, deposit = "0x3::token::TokenWithdraw", "0x3::token::TokenDeposit"
    offer = "0x3::token_transfers::Offer"
    # (transaction, event index, type, from, to, amount[, property version if not 0]):
    # the module events' own type
    # names; a withdraw names its account as sender, a deposit as receiver
    expected = [
        ("token", 1, "0x3::token::Mint", alice, None, 4),
        ("token", 2, deposit, None, alice, 4),
        ("offer", 0, withdraw, alice, None, 1),
        ("offer", 1, offer, alice, bob, 1),
        ("claim", 0, deposit, None, bob, 1),
        ("claim", 1, "0x3::token_transfers::Claim", alice, bob, 1),
        ("again", 0, withdraw, alice, None, 1),
        ("again", 1, offer, alice, bob, 1),
        ("offer_carol", 0, withdraw, alice, None, 1),
        ("offer_carol", 1, offer, alice, carol, 1),
        ("cancel", 0, deposit, None, alice, 1),
        ("cancel", 1, "0x3::token_transfers::CancelOffer", alice, carol, 1),
        ("burn", 0, withdraw, bob, None, 1),
        ("burn", 1, "0x3::token::Burn", bob, None, 1),
        # one of version 0 taken out, one of version 1 put in, its map changed (amount 0)
        ("mutate", 0, withdraw, alice, None, 1),
        ("mutate", 1, deposit, None, alice, 1, 1),
        ("mutate", 2, "0x3::token::MutatePropertyMap", alice, None, 0, 1),
    ]
    functions = {
        "token": "0x3::token::create_token_script",
        "claim": "0x3::token_transfers::claim_script",
        "cancel": "0x3::token_transfers::cancel_offer_script",
        "burn": "0x3::token::burn",
        "mutate": "0x3::token::mutate_token_properties",
    }
    assert found == [
        {
            "after_value": None,
            "before_value": None,
            "entry_function_id_str": functions.get(txn, "0x3::token_transfers::offer_script"),
            "event_account_address": ZERO,  # module events
            "event_index": index,
            "from_address": source,
            "is_fungible_v2": None,
            "property_version_v1": version[0] if version else 0,
            "to_address": to,
            "token_amount": amount,
            "token_data_id": story.token_id,
            "token_standard": "v1",
            "transaction_timestamp": stamp(story.txns[txn]),
            "transaction_version": story.version(txn),
            "type": kind,
        }
        for txn, index, kind, source, to, amount, *version in expected
    ]


def test_pending_claims_follow_offers_claims_and_cancels(story: Story) -> None:
    query = """query ($w: current_token_pending_claims_bool_exp) {
      current_token_pending_claims(where: $w, order_by: {to_address: asc}) {
        token_data_id_hash property_version from_address to_address collection_data_id_hash
        creator_address collection_name name amount table_handle last_transaction_version
        last_transaction_timestamp token_data_id collection_id
        current_token_data_v2 { token_name }
        current_collection_v2 { collection_name }
      }
    }"""
    where = {"from_address": {"_eq": story.alice.address.long}}
    found = graphql(story.indexer, query, {"w": where})["current_token_pending_claims"]
    alice = story.alice.address

    def claim(to: Account, amount: int, last: str) -> dict[str, Any]:
        return {
            "token_data_id_hash": story.token_id[2:],
            "property_version": 0,
            "from_address": alice.long,
            "to_address": to.address.long,
            "collection_data_id_hash": story.collection_id[2:],
            "creator_address": alice.long,
            "collection_name": COLLECTION,
            "name": TOKEN,
            "amount": amount,
            "table_handle": handle("token_transfers", "pending_claims", alice),
            "last_transaction_version": story.version(last),
            "last_transaction_timestamp": stamp(story.txns[last]),
            "token_data_id": story.token_id,
            "collection_id": story.collection_id,
            "current_token_data_v2": {"token_name": TOKEN},
            "current_collection_v2": {"collection_name": COLLECTION},
        }

    # Bob's offer was claimed, then made again (pending); Carol's cancelled (amount 0).
    expected = [claim(story.bob, 1, "again"), claim(story.carol, 0, "cancel")]
    assert found == sorted(expected, key=lambda row: row["to_address"])


def test_account_assets_lists_the_v1_token_with_its_standard(
    story: Story, v1_node: LocalNode
) -> None:
    with Client(v1_node.url, indexer_url=v1_node.indexer_url, cache=False) as client:
        held = [h for h in client.account_assets(story.alice.address) if h.kind == "token"]
        burnt = [h for h in client.account_assets(story.bob.address) if h.kind == "token"]
    assert burnt == []
    defaults = {"level": "5", "TOKEN_BURNABLE_BY_OWNER": "true", "owner": "0x" + "00" * 32}
    # one of each property version; version 1 with the properties changed for it
    assert [(h.asset, h.token_standard, h.balance, h.property_version) for h in held] == [
        (story.token_id, "v1", 1, 0),
        (story.token_id, "v1", 1, 1),
    ]
    assert [h.properties for h in held] == [defaults, defaults | {"level": "6"}]
    for token in held:
        assert (token.name, token.collection, token.collection_id) == (
            TOKEN,
            COLLECTION,
            story.collection_id,
        )
        assert token.uri == "https://aptos.dev/img/sword.png"


def test_a_store_written_before_a_restart_still_names_its_owner(tmp_path: Path) -> None:
    # An offer writes the sender's store table, not its TokenStore resource: the owner
    # comes from the transaction that wrote the resource, indexed before the restart.
    db = tmp_path / "ledger.db"
    with LocalNode(seed=31, blocks=2, db=db) as first:
        alice, bob = first.dev_accounts[0], first.dev_accounts[1]
        with httpx.Client(base_url=first.url, timeout=30.0) as http:
            run(
                http,
                alice,
                "0x3::token::create_collection_script",
                [(S, COLLECTION), (S, ""), (S, ""), ("u64", 0), ("vector<bool>", [False] * 3)],
            )
            minted = run(http, alice, "0x3::token::create_token_script", token_args(alice.address))
            assert minted["success"], minted["vm_status"]
        assert first.indexer_url is not None
        with httpx.Client(base_url=first.indexer_url, timeout=30.0) as indexer:
            wait_for_indexer(indexer, int(minted["version"]), "token_v2_processor")
    with LocalNode(seed=31, blocks=2, db=db) as second:
        with httpx.Client(base_url=second.url, timeout=30.0) as http:
            args = [("address", bob.address), *id_args(alice.address), ("u64", 1)]
            offered = run(http, alice, "0x3::token_transfers::offer_script", args)
            assert offered["success"], offered["vm_status"]
        assert second.indexer_url is not None
        with httpx.Client(base_url=second.indexer_url, timeout=30.0) as indexer:
            wait_for_indexer(indexer, int(offered["version"]), "token_v2_processor")
            where = {"owner_address": {"_eq": alice.address.long}}
            variables = {"where_condition": where}
            rows = graphql(indexer, GET_ACCOUNT_OWNED_TOKENS, variables)
    found = rows["current_token_ownerships_v2"]
    assert [(r["amount"], r["last_transaction_version"], r["storage_id"]) for r in found] == [
        (3, int(offered["version"]), handle("token", "tokens", alice.address))
    ]
