"""The node over HTTP, digital assets at ``0x4``: collections and tokens as objects, their
resources, events, views and aborts, with addresses derived here by hand
(collection ``SHA3-256(creator ‖ name ‖ 0xFE)``, token ``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)``)
and the expected JSON written out from the framework's Move sources."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from node_http_helpers import Account, run
from test_node_reference_schemas import check, load_reference
from token_object_helpers import (
    COLLECTION,
    OBJECT_START,
    TOKEN,
    S,
    aborted,
    call,
    collection_address,
    create_collection,
    handle,
    mint,
    module_events,
    resources,
    view,
)

from ledgerkit.localnet import LocalNode


class World:
    def __init__(self, http: httpx.Client, creator: Account, other: Account) -> None:
        self.http, self.creator, self.other = http, creator, other
        self.created = create_collection(http, creator, "Trees")
        self.collection = collection_address(creator, "Trees")


@pytest.fixture(scope="module")
def world(make_node: Any) -> Iterator[World]:
    node: LocalNode = make_node(seed=29, blocks=3, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        yield World(http, node.dev_accounts[0], node.dev_accounts[1])


def test_a_collection_is_a_named_object_holding_five_resources(world: World) -> None:
    assert world.created["success"], world.created["vm_status"]
    address, creator = world.collection, world.creator.address.standard
    assert module_events(world.created) == []
    # As the creation left it (other tests mint into it).
    assert resources(world.http, address, world.created["version"]) == {
        "0x1::object::ObjectCore": {
            "guid_creation_num": str(OBJECT_START + 2),
            "owner": creator,
            "allow_ungated_transfer": False,
            "transfer_events": handle(address, OBJECT_START),
        },
        "0x4::collection::Collection": {
            "creator": creator,
            "description": "About Trees",
            "name": "Trees",
            "uri": "https://ex.org/c",
            "mutation_events": handle(address, OBJECT_START + 1),
        },
        "0x4::collection::ConcurrentSupply": {
            "current_supply": {"value": "0", "max_value": "10"},
            "total_minted": {"value": "0", "max_value": "18446744073709551615"},
        },
        "0x4::royalty::Royalty": {"numerator": "5", "denominator": "100", "payee_address": creator},
        "0x4::aptos_token::AptosCollection": {
            "mutator_ref": {"vec": [{"self": address}]},
            "royalty_mutator_ref": {"vec": [{"inner": {"self": address}}]},
            "mutable_description": True,
            "mutable_uri": False,
            "mutable_token_description": True,
            "mutable_token_name": True,
            "mutable_token_properties": True,
            "mutable_token_uri": False,
            "tokens_burnable_by_creator": True,
            "tokens_freezable_by_creator": True,
        },
    }


def test_a_minted_token_is_an_object_of_the_transaction_with_its_properties(
    world: World,
) -> None:
    created = create_collection(world.http, world.creator, "Oaks")
    collection = collection_address(world.creator, "Oaks")
    properties = (["age", "kind"], ["u64", S], [(10).to_bytes(8, "little"), b"\x04tree"])
    txn, token = mint(world.http, world.creator, "Oaks", "Oak", properties)
    assert created["success"]
    assert txn["success"], txn["vm_status"]
    assert module_events(txn) == [
        (
            "0x4::collection::Mint",
            {"collection": collection, "index": {"value": "1"}, "token": token},
        )
    ]
    creator = world.creator.address.standard
    assert resources(world.http, token) == {
        "0x1::object::ObjectCore": {
            "guid_creation_num": str(OBJECT_START + 2),
            "owner": creator,
            "allow_ungated_transfer": True,
            "transfer_events": handle(token, OBJECT_START),
        },
        "0x4::token::TokenIdentifiers": {
            "index": {"value": "1"},
            # "Oak" takes 4 bytes of BCS: 17 bytes of padding make the snapshot 22.
            "name": {"value": "Oak", "padding": "0x" + "00" * 17},
        },
        "0x4::token::Token": {
            "collection": {"inner": collection},
            "index": "0",
            "description": "A Oak",
            "name": "",
            "uri": "https://ex.org/Oak",
            "mutation_events": handle(token, OBJECT_START + 1),
        },
        "0x4::aptos_token::AptosToken": {
            "burn_ref": {"vec": [{"inner": {"vec": [{"self": token}]}, "self": {"vec": []}}]},
            "transfer_ref": {"vec": [{"self": token}]},
            "mutator_ref": {"vec": [{"self": token}]},
            "property_mutator_ref": {"self": token},
        },
        "0x4::property_map::PropertyMap": {
            "inner": {
                "data": [  # read from the back of the input lists
                    {"key": "kind", "value": {"type": 9, "value": "0x0474726565"}},
                    {"key": "age", "value": {"type": 4, "value": "0x0a00000000000000"}},
                ]
            }
        },
    }
    count = view(world.http, "0x4::collection::count", collection, types=(COLLECTION,))
    assert count == [{"vec": ["1"]}]


def test_views_read_the_token_and_its_collection(world: World) -> None:
    _, token = mint(world.http, world.creator, "Trees", "Elm")
    creator = world.creator.address.standard
    http = world.http
    assert view(http, "0x4::token::name", token) == ["Elm"]
    assert view(http, "0x4::token::description", token) == ["A Elm"]
    assert view(http, "0x4::token::uri", token) == ["https://ex.org/Elm"]
    assert view(http, "0x4::token::creator", token) == [creator]
    assert view(http, "0x4::token::collection_name", token) == ["Trees"]
    assert view(http, "0x4::token::collection_object", token) == [{"inner": world.collection}]
    royalty = {"numerator": "5", "denominator": "100", "payee_address": creator}
    assert view(http, "0x4::token::royalty", token) == [{"vec": [royalty]}]
    for name, expected in (
        ("is_burnable", True),
        ("is_freezable_by_creator", True),
        ("is_mutable_description", True),
        ("is_mutable_name", True),
        ("is_mutable_uri", False),
        ("are_properties_mutable", True),
    ):
        assert view(http, f"0x4::aptos_token::{name}", token) == [expected], name
    assert view(http, "0x1::object::owner", token) == [creator]
    assert view(http, "0x1::object::is_owner", token, creator) == [True]
    assert view(http, "0x1::object::is_owner", token, world.other.address.standard) == [False]
    is_object = {"function": "0x1::object::is_object", "type_arguments": [], "arguments": [token]}
    refused = http.post("/view", json=is_object)
    assert refused.status_code == 400
    assert "is not marked as a view function" in refused.json()["message"]
    collection_type = (COLLECTION,)
    assert view(http, "0x4::collection::name", world.collection, types=collection_type) == ["Trees"]
    assert view(http, "0x4::collection::creator", world.collection, types=collection_type) == [
        creator
    ]
    # Object<T> arguments are checked as the VM builds them: T must be at the address.
    response = http.post(
        "/view",
        json={
            "function": "0x4::token::name",
            "type_arguments": [TOKEN],
            "arguments": [world.collection],
        },
    )
    assert response.status_code == 400
    assert "ERESOURCE_DOES_NOT_EXIST(0x60007)" in response.json()["message"]


def test_transfers_follow_ownership_and_freezing(world: World) -> None:
    http, creator, other = world.http, world.creator, world.other
    _, token = mint(http, creator, "Trees", "Ash")
    moved = run(
        http,
        creator,
        "0x1::object::transfer_call",
        [("address", token), ("address", other.address)],
    )
    assert moved["success"], moved["vm_status"]
    transfer = {"object": token, "from": creator.address.standard, "to": other.address.standard}
    assert module_events(moved) == [("0x1::object::Transfer", transfer)]
    # The token's resources are one group, one state item: all of it is written again.
    written = [c["data"]["type"] for c in moved["changes"] if c.get("address") == token]
    assert written == [  # in struct tag order: 0x1 before 0x4, then by module and name
        "0x1::object::ObjectCore",
        "0x4::aptos_token::AptosToken",
        "0x4::property_map::PropertyMap",
        "0x4::token::Token",
        "0x4::token::TokenIdentifiers",
    ]
    assert view(http, "0x1::object::owner", token) == [other.address.standard]
    again = run(
        http,
        creator,
        "0x1::object::transfer_call",
        [("address", token), ("address", creator.address)],
    )
    assert aborted(again, "0x1::object", "ENOT_OBJECT_OWNER", 0x50004)
    frozen = call(http, creator, "0x4::aptos_token::freeze_transfer", token)
    assert frozen["success"]
    assert module_events(frozen) == []
    back = run(
        http,
        other,
        "0x1::object::transfer",
        [("address", token), ("address", creator.address)],
        type_args=[TOKEN],
    )
    assert aborted(back, "0x1::object", "ENO_UNGATED_TRANSFERS", 0x50003)
    assert call(http, other, "0x4::aptos_token::unfreeze_transfer", token)["vm_status"].startswith(
        "Move abort in 0x4::aptos_token: ENOT_CREATOR(0x50003)"
    )
    assert call(http, creator, "0x4::aptos_token::unfreeze_transfer", token)["success"]
    back = run(
        http,
        other,
        "0x1::object::transfer",
        [("address", token), ("address", creator.address)],
        type_args=[TOKEN],
    )
    assert back["success"], back["vm_status"]
    assert view(http, "0x1::object::owner", token) == [creator.address.standard]
    # To the owner it already has: no event.
    same = run(
        http,
        creator,
        "0x1::object::transfer_call",
        [("address", token), ("address", creator.address)],
    )
    assert same["success"]
    assert module_events(same) == []


def test_a_soul_bound_token_goes_to_its_holder_and_stays(world: World) -> None:
    http, creator, other = world.http, world.creator, world.other
    txn, token = mint(http, creator, "Trees", "Yew", soul_bound_to=other)
    assert txn["success"], txn["vm_status"]
    assert [kind for kind, _ in module_events(txn)] == [
        "0x4::collection::Mint",
        "0x1::object::Transfer",
    ]
    assert module_events(txn)[1][1] == {
        "object": token,
        "from": creator.address.standard,
        "to": other.address.standard,
    }
    data = resources(http, token)
    assert data["0x1::object::ObjectCore"]["owner"] == other.address.standard
    assert data["0x1::object::ObjectCore"]["allow_ungated_transfer"] is False
    assert data["0x4::aptos_token::AptosToken"]["transfer_ref"] == {"vec": []}
    moved = run(
        http,
        other,
        "0x1::object::transfer_call",
        [("address", token), ("address", creator.address)],
    )
    assert aborted(moved, "0x1::object", "ENO_UNGATED_TRANSFERS", 0x50003)
    # No transfer ref was kept: the creator cannot unfreeze it either.
    unfrozen = call(http, creator, "0x4::aptos_token::unfreeze_transfer", token)
    assert aborted(unfrozen, "0x4::aptos_token", "EFIELD_NOT_MUTABLE", 0x50004)


def test_objects_own_objects_and_are_burnt_softly(world: World) -> None:
    http, creator, other = world.http, world.creator, world.other
    _, box = mint(http, creator, "Trees", "Box")
    _, seed = mint(http, creator, "Trees", "Seed")
    nested = run(
        http,
        creator,
        "0x1::object::transfer_to_object",
        [("address", seed), ("address", box)],
        type_args=[TOKEN, TOKEN],
    )
    assert nested["success"], nested["vm_status"]
    owner = creator.address.standard
    assert view(http, "0x1::object::owner", seed) == [box]
    assert view(http, "0x1::object::owns", seed, owner) == [True]
    assert view(http, "0x1::object::owns", seed, other.address.standard) == [False]
    assert view(http, "0x1::object::root_owner", seed) == [owner]
    # The root owner still moves it: every object between is ungated.
    back = run(http, creator, "0x1::object::transfer_call", [("address", seed), ("address", owner)])
    assert back["success"], back["vm_status"]
    burnt = run(http, creator, "0x1::object::burn", [("address", box)], type_args=[TOKEN])
    assert burnt["success"], burnt["vm_status"]
    assert resources(http, box)["0x1::object::TombStone"] == {"original_owner": owner}
    assert view(http, "0x1::object::is_burnt", box) == [True]
    assert view(http, "0x1::object::owner", box) == [owner]  # a soft burn keeps the owner
    again = run(http, creator, "0x1::object::burn", [("address", box)], type_args=[TOKEN])
    assert aborted(again, "0x1::object", "EOBJECT_ALREADY_BURNT", 10)
    unburnt = run(http, creator, "0x1::object::unburn", [("address", box)], type_args=[TOKEN])
    assert unburnt["success"], unburnt["vm_status"]
    # The TombStone leaves a group that stays: the group is written without it, and
    # nothing at the object is listed as deleted.
    at_box = [c for c in unburnt["changes"] if c.get("address") == box]
    assert at_box
    assert {c["type"] for c in at_box} == {"write_resource"}
    assert "0x1::object::TombStone" not in {c["data"]["type"] for c in at_box}
    assert len({c["state_key_hash"] for c in at_box}) == 1
    assert view(http, "0x1::object::is_burnt", box) == [False]
    assert view(http, "0x1::object::is_untransferable", box) == [False]


def test_the_answers_fit_the_reference_schemas(world: World) -> None:
    reference = load_reference()
    txn, token = mint(world.http, world.creator, "Trees", "Fir", (["k"], ["bool"], [b"\x01"]))
    answers = [
        ("/transactions/by_hash/{txn_hash}", f"/transactions/by_hash/{txn['hash']}"),
        ("/accounts/{address}/resources", f"/accounts/{token}/resources"),
        ("/accounts/{address}/resources", f"/accounts/{world.collection}/resources"),
        ("/accounts/{address}/module/{module_name}", "/accounts/0x4/module/aptos_token"),
        ("/accounts/{address}/module/{module_name}", "/accounts/0x1/module/object"),
    ]
    problems = [
        problem
        for path, url in answers
        for problem in check(reference, path, "get", world.http.get(url))
    ]
    assert problems == []
