"""Token v1 (``0x3::token``) through the TypeScript SDK, under @aptos-labs/ts-sdk 6.3 and
7.3: a collection and a token made with entry function calls the SDK builds from the
node's ABIs, then its indexer reads ``getOwnedDigitalAssets``, ``getDigitalAssetData``,
``getCollectionData`` (token standard v1) and ``getDigitalAssetActivity`` against the
embedded node's indexer.

Ids are hashed here by hand, as aptos-indexer-processors derives them: the token data's
``"0x" + SHA-256("<creator>::<collection>::<name>")``, the collection's
``"0x" + SHA-256("<creator>::<collection>")``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Final

import pytest
from ts_sdks import TsRunner, value

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

RUN_TIMEOUT: Final = 180
NAME: Final = "Shields"


@pytest.fixture(scope="module")
def v1_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    return make_node(seed=35, blocks=3)


def sha256(text: str) -> str:
    return "0x" + hashlib.sha256(text.encode()).hexdigest()


def test_the_sdk_reads_a_token_v1_from_the_indexer(ts: TsRunner, v1_node: LocalNode) -> None:
    assert v1_node.indexer_url is not None
    # One creator per release: a collection's name is unique per creator.
    account = v1_node.dev_accounts[{"6.3": 0, "7.3": 1}[ts.sdk.line]]
    alice = account.address.long
    token = sha256(f"{alice}::{NAME}::Shield")
    collection = sha256(f"{alice}::{NAME}")
    results = ts.run(
        "token_v1_reads.mjs",
        v1_node.url,
        v1_node.indexer_url,
        NAME,
        token,
        timeout=RUN_TIMEOUT,
        key=account.private_key.secret_hex(),
    )
    assert value(results, "alice") == alice
    made, minted = value(results, "create_collection"), value(results, "create_token")
    assert made["success"], made["vm_status"]
    assert minted["success"], minted["vm_status"]
    version = int(minted["version"])
    # Minting wrote the collection's supply: the collection row is of that transaction.
    expected_collection = {
        "collection_id": collection,
        "collection_name": NAME,
        "creator_address": alice,
        "current_supply": 1,
        "description": "A v1 collection",
        "max_supply": 5,
        "mutable_description": False,
        "mutable_uri": False,
        "token_standard": "v1",
        "total_minted_v2": None,
        "uri": "https://aptos.dev",
        "last_transaction_version": version,
    }
    found = value(results, "collection")
    assert {key: found[key] for key in expected_collection} == expected_collection
    asset = value(results, "asset")
    expected_asset = {
        "token_data_id": token,
        "collection_id": collection,
        "token_name": "Shield",
        "description": "A shield",
        "token_uri": "https://aptos.dev/img/shield.png",
        "token_properties": {"level": "7"},
        # maximum 0 is unlimited: such a token data counts no supply
        "maximum": 0,
        "supply": 0,
        "largest_property_version_v1": 0,
        "token_standard": "v1",
        "is_fungible_v2": None,
        "last_transaction_version": version,
    }
    assert {key: asset[key] for key in expected_asset} == expected_asset
    assert asset["current_collection"]["collection_id"] == collection
    owned = value(results, "owned")
    assert [
        (o["token_data_id"], o["owner_address"], o["amount"], o["token_standard"]) for o in owned
    ] == [(token, alice, 2, "v1")]
    assert owned[0]["table_type_v1"] == "0x3::token::TokenStore"
    assert owned[0]["current_token_data"]["token_name"] == "Shield"
    activity = value(results, "activity")
    assert [
        (a["type"], a["from_address"], a["to_address"], a["token_amount"], a["transaction_version"])
        for a in activity
    ] == [
        ("0x3::token::Mint", alice, None, 2, version),
        ("0x3::token::TokenDeposit", None, alice, 2, version),
    ]
