"""Published code calling the framework's public functions, over HTTP: the assembler's
managed coin (``managed_coin::initialize`` / ``register`` / ``mint`` on a coin type of
its own) and objects example (``object::create_named_object``, ``generate_signer``, a
resource moved to the object, ``object_from_constructor_ref`` and ``object::transfer``),
each reaching the framework's Python bodies through the node's bridge; addresses
derived by hand.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator

import httpx
import pytest
from assembler import ModuleBuilder
from run_kit import Node, call, publish_example, publish_module, resource, view

from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> Iterator[Node]:
    running = make_node(seed=34, blocks=2, services=False)
    with httpx.Client(base_url=running.url, timeout=60.0) as http:
        chain_id = int(http.get("/").json()["chain_id"])
        yield Node(http, list(running.dev_accounts), chain_id)


def test_a_published_coin_is_launched_through_managed_coin(node: Node) -> None:
    alice = node.accounts[0]
    me = alice.address.standard
    assert publish_example(node, alice, "moon_coin")["success"]
    launched = call(node, alice, f"{me}::moon_coin::launch", [("u64", 5_000)])
    assert (launched["success"], launched["vm_status"]) == (True, "Executed successfully")
    moon = f"{me}::moon_coin::MoonCoin"
    info = resource(node, me, f"0x1::coin::CoinInfo<{moon}>")["data"]
    assert (info["name"], info["symbol"], info["decimals"]) == ("Moon Coin", "MOON", 6)
    assert view(node, "0x1::coin::balance", [me], [moon]).json() == ["5000"]


def test_a_note_is_made_as_a_named_object_and_given_away(node: Node) -> None:
    alice, bob = node.accounts[1], node.accounts[2]
    me = alice.address.standard
    assert publish_example(node, alice, "notes")["success"]
    made = call(
        node,
        alice,
        f"{me}::notes::create_note",
        [("vector<u8>", b"n1"), ("0x1::string::String", "hi"), ("address", bob.address.standard)],
    )
    assert (made["success"], made["vm_status"]) == (True, "Executed successfully")
    # A named object's address: SHA3-256(creator ‖ seed ‖ 0xFE).
    digest = hashlib.sha3_256(bytes(alice.address) + b"n1" + b"\xfe").digest()
    note = Address(digest).standard
    assert view(node, f"{me}::notes::note_address", [me, "0x" + b"n1".hex()]).json() == [note]
    assert resource(node, note, f"{me}::notes::Note")["data"] == {"text": "hi"}
    assert resource(node, note, "0x1::object::ObjectCore")["data"]["owner"] == (
        bob.address.standard
    )


def registry(address: str) -> ModuleBuilder:
    """``module registry { use aptos_std::table::{Self, Table};
    struct Names has key { by_id: Table<u64, String> }
    public entry fun init(account: &signer) { move_to(account, Names { by_id: table::new() }) }
    public entry fun add(account: &signer, id: u64, name: String) acquires Names {
        table::add(&mut borrow_global_mut<Names>(signer::address_of(account)).by_id, id, name)
    }
    #[view] public fun name_of(owner: address, id: u64): String acquires Names {
        *table::borrow(&borrow_global<Names>(owner).by_id, id)
    } }``"""
    table = "0x1::table::Table"
    m = ModuleBuilder(address, "registry")
    m.declare_struct(f"{table}<phantom K: copy + drop, phantom V> has store")
    m.declare_function(f"0x1::table::new<K: copy + drop, V: store>(): {table}<K, V>")
    m.declare_function(f"0x1::table::add<K: copy + drop, V>(&mut {table}<K, V>, K, V)")
    m.declare_function(f"0x1::table::borrow<K: copy + drop, V>(&{table}<K, V>, K): &V")
    names = f"{table}<u64, 0x1::string::String>"
    m.struct("Names", "key", [("by_id", names)])
    m.function(
        "init",
        visibility="public",
        entry=True,
        params=["account: &signer"],
        code=[
            ("MoveLoc", "account"),
            ("Call", "0x1::table::new<u64, 0x1::string::String>"),
            ("Pack", "Names"),
            ("MoveTo", "Names"),
            "Ret",
        ],
    )
    m.function(
        "add",
        visibility="public",
        entry=True,
        params=["account: &signer", "id: u64", "name: 0x1::string::String"],
        acquires=["Names"],
        code=[
            ("MoveLoc", "account"),
            ("Call", "0x1::signer::address_of"),
            ("MutBorrowGlobal", "Names"),
            ("MutBorrowField", "Names.by_id"),
            ("MoveLoc", "id"),
            ("MoveLoc", "name"),
            ("Call", "0x1::table::add<u64, 0x1::string::String>"),
            "Ret",
        ],
    )
    m.function(
        "name_of",
        visibility="public",
        view=True,
        params=["owner: address", "id: u64"],
        returns=["0x1::string::String"],
        acquires=["Names"],
        code=[
            ("MoveLoc", "owner"),
            ("ImmBorrowGlobal", "Names"),
            ("ImmBorrowField", "Names.by_id"),
            ("MoveLoc", "id"),
            ("Call", "0x1::table::borrow<u64, 0x1::string::String>"),
            "ReadRef",
            "Ret",
        ],
    )
    return m


def test_a_table_keeps_items_by_key(node: Node) -> None:
    carol = node.accounts[3]
    me = carol.address.standard
    published = publish_module(node, carol, registry(me), "Registry")
    assert published["success"], published["vm_status"]
    made = call(node, carol, f"{me}::registry::init")
    assert made["success"], made["vm_status"]
    # The table's handle: SHA3-256(transaction hash ‖ u32 big-endian count of tables made).
    handle = hashlib.sha3_256(bytes.fromhex(made["hash"][2:]) + bytes(4)).digest()
    names = resource(node, me, f"{me}::registry::Names")["data"]
    assert names == {"by_id": {"handle": Address(handle).standard}}
    for id_, name in ((7, "seven"), (8, "eight")):
        added = call(
            node, carol, f"{me}::registry::add", [("u64", id_), ("0x1::string::String", name)]
        )
        assert added["success"], added["vm_status"]
    [item] = [c for c in added["changes"] if c["type"] == "write_table_item"]
    # key: the u64 8 in BCS; value: the String "eight" (length 5, its bytes).
    assert (item["handle"], item["key"], item["value"]) == (
        Address(handle).standard,
        "0x" + (8).to_bytes(8, "little").hex(),
        "0x05" + b"eight".hex(),
    )
    assert item["data"] == {
        "key": "8",
        "key_type": "u64",
        "value": "eight",
        "value_type": "0x1::string::String",
    }
    assert view(node, f"{me}::registry::name_of", [me, "7"]).json() == ["seven"]
    again = call(node, carol, f"{me}::registry::add", [("u64", 7), ("0x1::string::String", "x")])
    # table::add of a key present: the table natives' ALREADY_EXISTS, (100 << 8) + 7.
    assert (again["success"], again["vm_status"]) == (False, "Move abort in 0x1::table: 0x6407")
    table_item = node.http.post(
        f"/tables/{Address(handle).standard}/item",
        json={"key_type": "u64", "value_type": "0x1::string::String", "key": "8"},
    )
    assert (table_item.status_code, table_item.json()) == (200, "eight")


def looker(address: str) -> ModuleBuilder:
    """``module looker { public entry fun look(_a: &signer, _o: Object<ObjectCore>) {} }``"""
    m = ModuleBuilder(address, "looker")
    m.function(
        "look",
        visibility="public",
        entry=True,
        params=["account: &signer", "o: 0x1::object::Object<0x1::object::ObjectCore>"],
        code=["Ret"],
    )
    return m


def test_an_object_argument_must_be_an_object(node: Node) -> None:
    erin = node.accounts[4]
    me = erin.address.standard
    assert publish_module(node, erin, looker(me), "Looker")["success"]
    assert publish_example(node, erin, "notes")["success"]
    made = call(
        node,
        erin,
        f"{me}::notes::create_note",
        [("vector<u8>", b"n2"), ("0x1::string::String", "x"), ("address", me)],
    )
    assert made["success"], made["vm_status"]
    note = Address(hashlib.sha3_256(bytes(erin.address) + b"n2" + b"\xfe").digest())
    look = f"{me}::looker::look"
    core = "0x1::object::Object<0x1::object::ObjectCore>"
    fine = call(node, erin, look, [(core, note.standard)])
    assert (fine["success"], fine["vm_status"]) == (True, "Executed successfully")
    # An account is no object: address_to_object's not_found(EOBJECT_DOES_NOT_EXIST = 2).
    refused = call(node, erin, look, [(core, me)])
    assert refused["success"] is False
    assert refused["vm_status"].startswith(
        "Move abort in 0x1::object: EOBJECT_DOES_NOT_EXIST(0x60002)"
    )
