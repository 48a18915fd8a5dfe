"""The assembler's fungible asset issuer (``fa_coin``) published on the node over HTTP:
``init_module`` makes the asset's metadata object, named after its symbol, with a primary
store; the admin mints, moves, burns and freezes through the refs kept on that object;
users move the asset with ``0x1::primary_fungible_store::transfer``; anyone else is
refused with the module's named error.

Expected values are worked out by hand: the metadata object is the publisher's named
object ``SHA3-256(publisher ‖ "FA" ‖ 0xFE)``, a primary store ``SHA3-256(owner ‖
metadata ‖ 0xFC)``; ``error::permission_denied(ENOT_OWNER)`` is ``0x50001``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from run_kit import Node, call, events_of, publish_example, resource, view

from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

META = "0x1::fungible_asset::Metadata"


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> Iterator[Node]:
    running = make_node(seed=35, blocks=2, services=False)
    with httpx.Client(base_url=running.url, timeout=60.0) as http:
        chain_id = int(http.get("/").json()["chain_id"])
        yield Node(http, list(running.dev_accounts), chain_id)


def _named(creator: Address, seed: bytes) -> str:
    return Address(hashlib.sha3_256(bytes(creator) + seed + b"\xfe").digest()).standard


def _store(owner: Address, metadata: str) -> str:
    digest = hashlib.sha3_256(bytes(owner) + bytes(Address.parse(metadata)) + b"\xfc").digest()
    return Address(digest).standard


def _balance(node: Node, owner: Address, metadata: str) -> int:
    response = view(
        node, "0x1::primary_fungible_store::balance", [owner.standard, metadata], [META]
    )
    assert response.status_code == 200, response.text
    return int(response.json()[0])


@pytest.fixture(scope="module")
def issued(node: Node) -> dict[str, Any]:
    """``fa_coin`` published by the first dev account; the metadata object's address."""
    admin = node.accounts[0]
    published = publish_example(node, admin, "fa_coin")
    assert (published["success"], published["vm_status"]) == (True, "Executed successfully")
    return {"admin": admin, "metadata": _named(admin.address, b"FA"), "publish": published}


def test_init_module_makes_the_asset_at_the_publishers_named_object(
    node: Node, issued: dict[str, Any]
) -> None:
    admin, metadata = issued["admin"], issued["metadata"]
    me = admin.address.standard
    assert view(node, f"{me}::fa_coin::get_metadata", []).json() == [{"inner": metadata}]
    data = resource(node, metadata, "0x1::fungible_asset::Metadata")["data"]
    assert (data["name"], data["symbol"], data["decimals"]) == ("FA Coin", "FA", 8)
    assert data["project_uri"] == "https://example.org/fa"
    assert resource(node, metadata, "0x1::object::ObjectCore")["data"]["owner"] == me
    refs = resource(node, metadata, f"{me}::fa_coin::ManagedFungibleAsset")["data"]
    assert refs == {
        "mint_ref": {"metadata": {"inner": metadata}},
        "transfer_ref": {"metadata": {"inner": metadata}},
        "burn_ref": {"metadata": {"inner": metadata}},
    }
    pod = resource(node, metadata, "0x1::primary_fungible_store::DeriveRefPod")["data"]
    assert pod == {"metadata_derive_ref": {"self": metadata}}
    created = events_of(issued["publish"], "::fungible_asset::Creation")
    assert [(e["name"], e["symbol"], e["decimals"]) for e in created] == [("FA Coin", "FA", 8)]


def test_mint_transfer_burn_and_a_users_own_transfer(node: Node, issued: dict[str, Any]) -> None:
    admin, metadata = issued["admin"], issued["metadata"]
    bob, carol = node.accounts[1], node.accounts[2]
    me = admin.address.standard
    minted = call(node, admin, f"{me}::fa_coin::mint", [("address", bob.address), ("u64", 1_000)])
    assert minted["success"], minted["vm_status"]
    assert events_of(minted, "::fungible_asset::Deposit") == [
        {"store": _store(bob.address, metadata), "amount": "1000"}
    ]
    moved = call(
        node,
        admin,
        f"{me}::fa_coin::transfer",
        [("address", bob.address), ("address", carol.address), ("u64", 300)],
    )
    assert moved["success"], moved["vm_status"]
    # A user moves his own: primary_fungible_store::transfer<Metadata>(metadata, to, amount).
    sent = call(
        node,
        bob,
        "0x1::primary_fungible_store::transfer",
        [("address", metadata), ("address", carol.address), ("u64", 50)],
        [META],
    )
    assert sent["success"], sent["vm_status"]
    assert events_of(sent, "::fungible_asset::Withdraw") == [
        {"store": _store(bob.address, metadata), "amount": "50"}
    ]
    burnt = call(node, admin, f"{me}::fa_coin::burn", [("address", carol.address), ("u64", 100)])
    assert burnt["success"], burnt["vm_status"]
    assert (_balance(node, bob.address, metadata), _balance(node, carol.address, metadata)) == (
        650,
        250,
    )
    assert events_of(burnt, "::fungible_asset::Withdraw") == [
        {"store": _store(carol.address, metadata), "amount": "100"}
    ]


def test_a_frozen_account_cannot_send_until_unfrozen(node: Node, issued: dict[str, Any]) -> None:
    admin, metadata = issued["admin"], issued["metadata"]
    dave, erin = node.accounts[3], node.accounts[4]
    me = admin.address.standard
    assert call(node, admin, f"{me}::fa_coin::mint", [("address", dave.address), ("u64", 10)])[
        "success"
    ]
    frozen = call(node, admin, f"{me}::fa_coin::freeze_account", [("address", dave.address)])
    assert events_of(frozen, "::fungible_asset::Frozen") == [
        {"store": _store(dave.address, metadata), "frozen": True}
    ]
    args = [("address", metadata), ("address", erin.address), ("u64", 4)]
    refused = call(node, dave, "0x1::primary_fungible_store::transfer", args, [META])
    # fungible_asset.move: ESTORE_IS_FROZEN = 3, error::permission_denied -> 0x50003
    assert refused["success"] is False
    assert refused["vm_status"].startswith(
        "Move abort in 0x1::fungible_asset: ESTORE_IS_FROZEN(0x50003)"
    )
    assert call(node, admin, f"{me}::fa_coin::unfreeze_account", [("address", dave.address)])[
        "success"
    ]
    assert call(node, dave, "0x1::primary_fungible_store::transfer", args, [META])["success"]
    assert _balance(node, erin.address, metadata) == 4


def test_only_the_assets_owner_may_mint(node: Node, issued: dict[str, Any]) -> None:
    me = issued["admin"].address.standard
    intruder = node.accounts[1]
    refused = call(
        node, intruder, f"{me}::fa_coin::mint", [("address", intruder.address), ("u64", 5)]
    )
    assert refused["success"] is False
    assert refused["vm_status"] == (
        f"Move abort in {me}::fa_coin: ENOT_OWNER(0x50001): Only the owner of the asset's "
        "metadata object may mint, move, burn or freeze."
    )
