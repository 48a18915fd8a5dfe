"""The node over HTTP, digital assets changed after minting: properties (typed and
untyped), the token and collection mutators and their ``Mutation`` events, burning, and
the aborts of each, with codes read from the framework's Move sources."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from node_http_helpers import Account, ok, run
from token_object_helpers import (
    COLLECTION,
    TOKEN,
    S,
    aborted,
    call,
    collection_address,
    create_collection,
    mint,
    module_events,
    resources,
    view,
)

from ledgerkit.localnet import LocalNode

PROPERTY_MAP = "0x4::property_map::PropertyMap"


class World:
    def __init__(self, http: httpx.Client, creator: Account, other: Account) -> None:
        self.http, self.creator, self.other = http, creator, other
        assert create_collection(http, creator, "Birds")["success"]
        self.collection = collection_address(creator, "Birds")


@pytest.fixture(scope="module")
def world(make_node: Any) -> Iterator[World]:
    node: LocalNode = make_node(seed=29, blocks=3, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        yield World(http, node.dev_accounts[2], node.dev_accounts[3])


def entries(http: httpx.Client, token: str) -> list[tuple[str, int, str]]:
    data = resources(http, token)[PROPERTY_MAP]["inner"]["data"]
    return [(e["key"], e["value"]["type"], e["value"]["value"]) for e in data]


def test_properties_are_added_updated_and_removed(world: World) -> None:
    http, creator = world.http, world.creator
    keys = (["a", "b", "c"], ["bool", "u8", "address"], [b"\x01", b"\x07", b"\x00" * 31 + b"\x05"])
    _, token = mint(http, creator, "Birds", "Robin", keys)
    assert entries(http, token) == [
        ("c", 7, "0x" + "00" * 31 + "05"),
        ("b", 1, "0x07"),
        ("a", 0, "0x01"),
    ]
    prop = "0x4::aptos_token::add_property"
    added = call(http, creator, prop, token, (S, "d"), (S, "u16"), ("vector<u8>", b"\x01\x02"))
    assert added["success"], added["vm_status"]
    assert module_events(added) == []
    typed = run(
        http,
        creator,
        "0x4::aptos_token::add_typed_property",
        [("address", token), (S, "e"), (S, "wren")],
        type_args=[TOKEN, S],
    )
    assert typed["success"], typed["vm_status"]
    updated = call(
        http,
        creator,
        "0x4::aptos_token::update_property",
        token,
        (S, "b"),
        (S, "u64"),
        ("vector<u8>", (300).to_bytes(8, "little")),
    )
    assert updated["success"], updated["vm_status"]
    typed_update = run(
        http,
        creator,
        "0x4::aptos_token::update_typed_property",
        [("address", token), (S, "a"), ("bool", False)],
        type_args=[TOKEN, "bool"],
    )
    assert typed_update["success"], typed_update["vm_status"]
    # Removing "c" moves the last entry ("e") into its place.
    removed = call(http, creator, "0x4::aptos_token::remove_property", token, (S, "c"))
    assert removed["success"], removed["vm_status"]
    assert entries(http, token) == [
        ("e", 9, "0x047772656e"),
        ("b", 4, "0x2c01000000000000"),
        ("a", 0, "0x00"),
        ("d", 2, "0x0102"),
    ]


def test_property_changes_abort_with_the_framework_codes(world: World) -> None:
    http, creator = world.http, world.creator
    _, token = mint(http, creator, "Birds", "Crow", (["k"], ["u8"], [b"\x01"]))
    prop = "0x4::aptos_token::add_property"
    again = call(http, creator, prop, token, (S, "k"), (S, "u8"), ("vector<u8>", b"\x02"))
    assert aborted(again, "0x1::simple_map", "EKEY_ALREADY_EXISTS", 0x10001)
    bad_type = call(http, creator, prop, token, (S, "x"), (S, "u7"), ("vector<u8>", b"\x02"))
    assert aborted(bad_type, "0x4::property_map", "ETYPE_INVALID", 0x10007)
    short = call(http, creator, prop, token, (S, "x"), (S, "u64"), ("vector<u8>", b"\x02"))
    assert aborted(short, "0x1::from_bcs", "EINVALID_UTF8", 0x10001)
    # from_bcs::to_bytes: a length prefix of 5 over 1 byte is no vector<u8>.
    bad_bytes = ("vector<u8>", b"\x05\x01")
    unspanned = call(http, creator, prop, token, (S, "x"), (S, "vector<u8>"), bad_bytes)
    assert aborted(unspanned, "0x1::from_bcs", "EINVALID_UTF8", 0x10001)
    # from_bcs::to_string: well formed bytes, but not UTF-8.
    latin = call(
        http,
        creator,
        prop,
        token,
        (S, "x"),
        (S, "0x1::string::String"),
        ("vector<u8>", b"\x01\xe9"),
    )
    assert aborted(latin, "0x1::from_bcs", "EINVALID_UTF8", 0x1)
    missing = call(
        http,
        creator,
        "0x4::aptos_token::update_property",
        token,
        (S, "nope"),
        (S, "u8"),
        ("vector<u8>", b"\x02"),
    )
    assert aborted(missing, "0x1::simple_map", "EKEY_NOT_FOUND", 0x10002)
    stranger = call(http, world.other, prop, token, (S, "x"), (S, "u8"), ("vector<u8>", b"\x02"))
    assert aborted(stranger, "0x4::aptos_token", "ENOT_CREATOR", 0x50003)
    mismatch = mint(http, creator, "Birds", "Jay", (["k", "j"], ["u8"], [b"\x01", b"\x02"]))[0]
    assert aborted(mismatch, "0x4::property_map", "EKEY_TYPE_COUNT_MISMATCH", 0x10005)
    assert entries(http, token) == [("k", 1, "0x01")]


def test_token_mutators_emit_mutation_events(world: World) -> None:
    http, creator = world.http, world.creator
    _, token = mint(http, creator, "Birds", "Finch")
    described = call(http, creator, "0x4::aptos_token::set_description", token, (S, "Small"))
    assert module_events(described) == [
        (
            "0x4::token::Mutation",
            {
                "token_address": token,
                "mutated_field_name": "description",
                "old_value": "A Finch",
                "new_value": "Small",
            },
        )
    ]
    renamed = call(http, creator, "0x4::aptos_token::set_name", token, (S, "Goldfinch"))
    assert module_events(renamed)[0][1]["old_value"] == "Finch"
    data = resources(http, token)
    assert data["0x4::token::TokenIdentifiers"]["name"] == {
        "value": "Goldfinch",
        "padding": "0x" + "00" * 11,  # 10 bytes of BCS, padded to 22
    }
    assert data["0x4::token::Token"]["name"] == ""
    assert data["0x4::token::Token"]["description"] == "Small"
    assert view(http, "0x4::token::name", token) == ["Goldfinch"]
    uri = call(http, creator, "0x4::aptos_token::set_uri", token, (S, "https://x"))
    assert aborted(uri, "0x4::aptos_token", "EFIELD_NOT_MUTABLE", 0x50004)
    stranger = call(http, world.other, "0x4::aptos_token::set_name", token, (S, "Mine"))
    assert aborted(stranger, "0x4::aptos_token", "ENOT_CREATOR", 0x50003)


def test_collection_mutators(world: World) -> None:
    http, creator = world.http, world.creator
    assert create_collection(http, creator, "Fish")["success"]
    fish = collection_address(creator, "Fish")
    described = run(
        http,
        creator,
        "0x4::aptos_token::set_collection_description",
        [("address", fish), (S, "Wet")],
        type_args=[COLLECTION],
    )
    assert module_events(described) == [
        (
            "0x4::collection::Mutation",
            {
                "mutated_field_name": "description",
                "collection": {"inner": fish},
                "old_value": "About Fish",
                "new_value": "Wet",
            },
        )
    ]
    uri = run(
        http,
        creator,
        "0x4::aptos_token::set_collection_uri",
        [("address", fish), (S, "https://x")],
        type_args=[COLLECTION],
    )
    assert aborted(uri, "0x4::aptos_token", "EFIELD_NOT_MUTABLE", 0x50004)
    other = world.other.address
    royalties = run(
        http,
        creator,
        "0x4::aptos_token::set_collection_royalties_call",
        [("address", fish), ("u64", 1), ("u64", 10), ("address", other)],
        type_args=[COLLECTION],
    )
    assert royalties["success"], royalties["vm_status"]
    assert resources(http, fish)["0x4::royalty::Royalty"] == {
        "numerator": "1",
        "denominator": "10",
        "payee_address": other.standard,
    }
    too_much = run(
        http,
        creator,
        "0x4::aptos_token::set_collection_royalties_call",
        [("address", fish), ("u64", 11), ("u64", 10), ("address", other)],
        type_args=[COLLECTION],
    )
    assert aborted(too_much, "0x4::royalty", "EROYALTY_EXCEEDS_MAXIMUM", 0x20002)


def test_burning_deletes_the_token_and_emits_burn(world: World) -> None:
    http, creator, other = world.http, world.creator, world.other
    _, token = mint(http, creator, "Birds", "Dodo")
    moved = run(
        http,
        creator,
        "0x1::object::transfer_call",
        [("address", token), ("address", other.address)],
    )
    assert moved["success"]
    burned = call(http, creator, "0x4::aptos_token::burn", token)
    assert burned["success"], burned["vm_status"]
    index = resources(http, token, str(int(burned["version"]) - 1))
    number = index["0x4::token::TokenIdentifiers"]["index"]["value"]
    assert module_events(burned) == [
        (
            "0x4::collection::Burn",
            {
                "collection": world.collection,
                "index": number,
                "token": token,
                "previous_owner": other.address.standard,
            },
        )
    ]
    # The token's group is left without members: one deletion of the group, as a node
    # lists it, and nothing else at the token's address.
    at_token = [c for c in burned["changes"] if c.get("address") == token]
    assert [(c["type"], c["resource"]) for c in at_token] == [
        ("delete_resource", "0x1::object::ObjectGroup")
    ]
    response = http.get(f"/accounts/{token}/resource/0x4::token::Token")
    assert response.status_code == 404
    again = call(http, creator, "0x4::aptos_token::burn", token)
    assert aborted(again, "0x1::object", "EOBJECT_DOES_NOT_EXIST", 0x60002)


def test_creation_and_minting_abort_with_the_framework_codes(world: World) -> None:
    http, creator = world.http, world.creator
    twice = create_collection(http, creator, "Birds")
    assert aborted(twice, "0x1::object", "EOBJECT_EXISTS", 0x80001)
    zero = create_collection(http, creator, "Zero", royalty=(0, 0))
    assert aborted(zero, "0x4::royalty", "EROYALTY_DENOMINATOR_IS_ZERO", 0x20003)
    none = create_collection(http, creator, "None", max_supply=0)
    assert aborted(none, "0x4::collection", "EMAX_SUPPLY_CANNOT_BE_ZERO", 0x10006)
    stranger = mint(http, world.other, "Birds", "Stolen")[0]
    assert aborted(stranger, "0x1::object", "EOBJECT_DOES_NOT_EXIST", 0x60002)
    fixed = (False,) * 7 + (False, False)
    assert create_collection(http, creator, "One", max_supply=1, flags=fixed)["success"]
    first, token = mint(http, creator, "One", "Only")
    assert first["success"], first["vm_status"]
    second = mint(http, creator, "One", "Extra")[0]
    assert aborted(second, "0x4::collection", "ECOLLECTION_SUPPLY_EXCEEDED", 0x20002)
    burn = call(http, creator, "0x4::aptos_token::burn", token)
    assert aborted(burn, "0x4::aptos_token", "ETOKEN_NOT_BURNABLE", 0x50005)
    freeze = call(http, creator, "0x4::aptos_token::freeze_transfer", token)
    assert aborted(freeze, "0x4::aptos_token", "EFIELD_NOT_MUTABLE", 0x50004)
    prop = call(http, creator, "0x4::aptos_token::remove_property", token, (S, "k"))
    assert aborted(prop, "0x4::aptos_token", "EPROPERTIES_NOT_MUTABLE", 0x50006)
    # T of Object<T> must have `key`: a String does not, so the call is refused unrun.
    untyped = run(http, creator, "0x4::aptos_token::burn", [("address", token)], type_args=[S])
    assert (untyped["success"], untyped["vm_status"]) == (False, "CONSTRAINT_NOT_SATISFIED")
    one = collection_address(creator, "One")
    count = ok(
        http.post(
            "/view",
            json={
                "function": "0x4::collection::count",
                "type_arguments": [COLLECTION],
                "arguments": [one],
            },
        )
    )
    assert count == [{"vec": ["1"]}]
    assert view(http, "0x4::aptos_token::is_burnable", token) == [False]
    assert resources(http, token)["0x4::aptos_token::AptosToken"] == {
        "burn_ref": {"vec": []},
        "transfer_ref": {"vec": []},
        "mutator_ref": {"vec": []},
        "property_mutator_ref": {"self": token},
    }
