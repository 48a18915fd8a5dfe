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
from run_kit import Node, call, publish_example, resource, view

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
