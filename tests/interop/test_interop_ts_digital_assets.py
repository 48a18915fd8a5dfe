"""The TypeScript SDK's digital asset flow (its ``simple_digital_asset.ts`` example) against
the embedded node, under @aptos-labs/ts-sdk 6.3 and 7.3: ``createCollectionTransaction``,
``mintDigitalAssetTransaction``, ``transferDigitalAssetTransaction``, and the indexer reads
``getCollectionData``, ``getOwnedDigitalAssets`` and ``getDigitalAssetData``.

The transactions are read back over plain HTTP; addresses are derived here by hand
(collection ``SHA3-256(creator ‖ name ‖ 0xFE)``, token ``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Final

import httpx
import pytest
from ts_sdks import TsRunner, value

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

RUN_TIMEOUT: Final = 180
NAME: Final = "Example Collection"


@pytest.fixture(scope="module")
def asset_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    return make_node(seed=33, blocks=3)


def test_the_digital_asset_example(ts: TsRunner, asset_node: LocalNode) -> None:
    assert asset_node.indexer_url is not None
    # One creator per release: a collection's name is unique per creator.
    alice = asset_node.dev_accounts[{"6.3": 0, "7.3": 1}[ts.sdk.line]]
    results = ts.run(
        "digital_assets.mjs",
        asset_node.url,
        asset_node.indexer_url,
        timeout=RUN_TIMEOUT,
        key=alice.private_key.secret_hex(),
    )
    accounts = value(results, "accounts")
    assert accounts["alice"] == alice.address.long
    collection = "0x" + hashlib.sha3_256(bytes(alice.address) + NAME.encode() + b"\xfe").hexdigest()
    with httpx.Client(base_url=asset_node.url, timeout=30.0) as http:
        txns = {
            name: http.get(f"/transactions/by_hash/{value(results, name)['hash']}").json()
            for name in ("create_collection", "mint", "transfer")
        }
    assert all(t["success"] for t in txns.values()), [t["vm_status"] for t in txns.values()]
    assert txns["create_collection"]["payload"]["function"] == "0x4::aptos_token::create_collection"
    assert txns["transfer"]["payload"]["function"] == "0x1::object::transfer"
    token = (
        "0x"
        + hashlib.sha3_256(
            bytes.fromhex(txns["mint"]["hash"][2:]) + (1).to_bytes(8, "little") + b"\xfb"
        ).hexdigest()
    )

    found = value(results, "collection")
    assert {k: found[k] for k in ("collection_id", "collection_name", "creator_address")} == {
        "collection_id": collection,
        "collection_name": NAME,
        "creator_address": alice.address.long,
    }
    assert found["current_supply"] == 0
    assert found["token_standard"] == "v2"

    owned = value(results, "owned_by_alice")
    assert [(o["token_data_id"], o["owner_address"], o["amount"]) for o in owned] == [
        (token, alice.address.long, 1)
    ]
    data = owned[0]["current_token_data"]
    assert (data["token_name"], data["description"], data["token_uri"]) == (
        "Example Asset",
        "Example asset description.",
        "aptos.dev/asset",
    )
    assert data["token_properties"] == {"level": "7"}
    assert data["current_collection"]["collection_id"] == collection

    asset = value(results, "asset")
    assert (asset["token_data_id"], asset["collection_id"]) == (token, collection)
    assert asset["current_collection"]["current_supply"] == 1

    after = value(results, "owned_after")
    assert after["alice"] == []
    assert [(o["token_data_id"], o["owner_address"]) for o in after["bob"]] == [
        (token, accounts["bob"])
    ]
