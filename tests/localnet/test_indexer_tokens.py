"""The indexer's token v2 tables after digital asset transactions: collections, token
data, ownerships (the owner's row at 1, the previous owner's at 0, a burnt token's last
owner at 0) and activities, as aptos-indexer-processors' token v2 processor records them,
with addresses derived here by hand and rows written out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from indexer_helpers import graphql, wait_for_indexer
from node_http_helpers import Account, run
from token_object_helpers import S, call, collection_address, create_collection, mint

from ledgerkit.localnet import LocalNode

ZERO = "0x" + "0" * 64


class Minted:
    def __init__(self, node: LocalNode, http: httpx.Client, indexer: httpx.Client) -> None:
        self.creator: Account = node.dev_accounts[4]
        self.holder: Account = node.dev_accounts[5]
        self.indexer = indexer
        assert create_collection(http, self.creator, "Shells")["success"]
        self.collection = collection_address(self.creator, "Shells")
        props = (["size", "name"], ["u64", S], [(3).to_bytes(8, "little"), b"\x05conch"])
        self.minted, self.kept = mint(http, self.creator, "Shells", "Conch", props)
        self.moved = run(
            http,
            self.creator,
            "0x1::object::transfer_call",
            [("address", self.kept), ("address", self.holder.address)],
        )
        self.second, self.burnt = mint(http, self.creator, "Shells", "Cowrie")
        self.described = call(
            http, self.creator, "0x4::aptos_token::set_description", self.burnt, (S, "Gone")
        )
        self.burn = call(http, self.creator, "0x4::aptos_token::burn", self.burnt)
        assert self.burn["success"], self.burn["vm_status"]
        wait_for_indexer(indexer, int(self.burn["version"]), "token_v2_processor")


@pytest.fixture(scope="module")
def minted(make_node: Any) -> Iterator[Minted]:
    node: LocalNode = make_node(seed=29, blocks=3)
    assert node.indexer_url is not None
    with (
        httpx.Client(base_url=node.url, timeout=30.0) as http,
        httpx.Client(base_url=node.indexer_url, timeout=30.0) as indexer,
    ):
        yield Minted(node, http, indexer)


def rows(minted: Minted, table: str, columns: str, where: dict[str, Any]) -> list[dict[str, Any]]:
    query = f"query q($w: {table}_bool_exp) {{ {table}(where: $w) {{ {columns} }} }}"
    found: list[dict[str, Any]] = graphql(minted.indexer, query, {"w": where})[table]
    return found


def version(txn: dict[str, Any]) -> int:
    return int(txn["version"])


def test_the_collection_row_follows_its_supply(minted: Minted) -> None:
    found = rows(
        minted,
        "current_collections_v2",
        "collection_id creator_address collection_name description uri current_supply "
        "max_supply total_minted_v2 mutable_description mutable_uri table_handle_v1 "
        "token_standard last_transaction_version collection_properties",
        {"collection_id": {"_eq": minted.collection}},
    )
    assert found == [
        {
            "collection_id": minted.collection,
            "creator_address": minted.creator.address.long,
            "collection_name": "Shells",
            "description": "About Shells",
            "uri": "https://ex.org/c",
            "current_supply": 1,  # two minted, one burnt
            "max_supply": 10,
            "total_minted_v2": 2,
            "mutable_description": True,
            "mutable_uri": False,
            "table_handle_v1": None,
            "token_standard": "v2",
            "last_transaction_version": version(minted.burn),
            "collection_properties": None,
        }
    ]


def test_token_data_rows_and_the_burnt_token(minted: Minted) -> None:
    columns = (
        "token_data_id collection_id token_name token_uri description token_properties "
        "token_standard is_fungible_v2 is_deleted_v2 last_transaction_version"
    )
    kept = rows(minted, "current_token_datas_v2", columns, {"token_data_id": {"_eq": minted.kept}})
    assert kept == [
        {
            "token_data_id": minted.kept,
            "collection_id": minted.collection,
            "token_name": "Conch",
            "token_uri": "https://ex.org/Conch",
            "description": "A Conch",
            # Read from the back of the input lists; values as text.
            "token_properties": {"name": "conch", "size": "3"},
            "token_standard": "v2",
            "is_fungible_v2": False,
            "is_deleted_v2": False,
            "last_transaction_version": version(minted.moved),
        }
    ]
    burnt = rows(
        minted, "current_token_datas_v2", columns, {"token_data_id": {"_eq": minted.burnt}}
    )
    assert burnt[0]["is_deleted_v2"] is True
    # A burn changes the deleted flag and the version only.
    assert (burnt[0]["token_name"], burnt[0]["description"]) == ("Cowrie", "Gone")
    assert burnt[0]["last_transaction_version"] == version(minted.burn)


def test_ownership_rows(minted: Minted) -> None:
    columns = (
        "token_data_id owner_address storage_id amount is_soulbound_v2 last_transaction_version"
    )
    found = rows(
        minted,
        "current_token_ownerships_v2",
        columns,
        {"token_data_id": {"_in": [minted.kept, minted.burnt]}},
    )
    creator, holder = minted.creator.address.long, minted.holder.address.long
    expected = [
        (minted.kept, holder, 1, False, version(minted.moved)),
        (minted.kept, creator, 0, False, version(minted.moved)),
        (minted.burnt, creator, 0, False, version(minted.burn)),
    ]
    assert sorted(
        (r["token_data_id"], r["owner_address"], r["amount"], r["is_soulbound_v2"],
         r["last_transaction_version"])
        for r in found
    ) == sorted(expected)  # fmt: skip
    assert all(r["storage_id"] == r["token_data_id"] for r in found)


def test_activities(minted: Minted) -> None:
    columns = (
        "transaction_version event_index event_account_address token_data_id type "
        "from_address to_address token_amount before_value after_value entry_function_id_str"
    )
    found = rows(
        minted,
        "token_activities_v2",
        columns,
        {"transaction_version": {"_gte": version(minted.minted)}},
    )
    creator, holder = minted.creator.address.long, minted.holder.address.long

    def activity(
        txn: dict[str, Any], token: str, kind: str, source: str | None, to: str | None, amount: int
    ) -> dict[str, Any]:
        return {
            "transaction_version": version(txn),
            "event_index": 0,
            "event_account_address": ZERO,
            "token_data_id": token,
            "type": kind,
            "from_address": source,
            "to_address": to,
            "token_amount": amount,
            "before_value": None,
            "after_value": None,
            "entry_function_id_str": txn["payload"]["function"],
        }

    found.sort(key=lambda r: (r["transaction_version"], r["event_index"]))
    assert found == [
        activity(minted.minted, minted.kept, "0x4::collection::MintEvent", creator, None, 1),
        activity(minted.moved, minted.kept, "0x1::object::Transfer", creator, holder, 1),
        activity(minted.second, minted.burnt, "0x4::collection::MintEvent", creator, None, 1),
        # A module event's account is 0x0: the processor keys a Mutation by it.
        activity(minted.described, ZERO, "0x4::token::Mutation", None, None, 1),
        # The token is gone from the burn's changes: its type as emitted, its last owner.
        activity(minted.burn, minted.burnt, "0x4::collection::Burn", creator, None, 1),
    ]
