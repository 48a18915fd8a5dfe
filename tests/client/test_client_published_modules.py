"""The client reads published Move modules as it reads the framework's: the assembler's
message board and vault, published at a dev account, read as ABIs, called with arguments
encoded from the on-chain ABI, simulated, explained, framed, and their aborts named.

    module <publisher>::message_board {
        const E_NO_MESSAGE: u64 = 1;
        struct MessageHolder has key { message: String }
        #[event] struct MessageChange has drop, store {
            account: address, from_message: String, to_message: String }
        public entry fun set_message(account: &signer, message: String) { ... }
        #[view] public fun get_message(addr: address): String { ... }
    }
    module <publisher>::vault { ... const E_NO_VAULT: u64 = 3; ... }

Expected values are read off these sources by hand.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import ledgerkit
from ledgerkit import (
    ArgumentError,
    InvalidInputError,
    LedgerError,
    MoveModuleNotFoundError,
)
from ledgerkit.client import Client
from ledgerkit.frames import (
    balance_changes_to_frame,
    events_to_frame,
    expand_event_data,
    functions_to_frame,
    modules_to_frame,
    structs_to_frame,
    transactions_to_frame,
)
from ledgerkit.localnet import LocalNode
from ledgerkit.tx import sign_transaction
from ledgerkit.types import Address

# The publishing helpers are the Move tests' own.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "move"))
from assembler import PackageModule, package_metadata
from assembler.examples import EXAMPLES, message_board
from run_kit import PUBLISH, Node, call, publish_example

STRING = "0x1::string::String"


@pytest.fixture(scope="module")
def chain(make_node: Callable[..., LocalNode]) -> Iterator[tuple[LocalNode, Node]]:
    """A node of this module's own, the message board and the vault published at its first
    dev account."""
    running = make_node(seed=37, blocks=2, services=False)
    with httpx.Client(base_url=running.url, timeout=60.0) as http:
        node = Node(http, list(running.dev_accounts), int(http.get("/").json()["chain_id"]))
        for name in ("message_board", "vault"):
            published = publish_example(node, node.accounts[0], name)
            assert published["success"], (name, published["vm_status"])
        yield running, node


@pytest.fixture(scope="module")
def client(chain: tuple[LocalNode, Node]) -> Iterator[Client]:
    with Client(chain[0].url) as opened:
        yield opened


@pytest.fixture(scope="module")
def publisher(chain: tuple[LocalNode, Node]) -> Any:
    return chain[1].accounts[0]


def test_the_published_abi_reads_as_declared(client: Client, publisher: Any) -> None:
    me = publisher.address.standard
    module = client.account_module(me, "message_board").value
    assert module.abi is not None
    abi = module.abi
    assert (abi.address, abi.name, abi.friends) == (me, "message_board", [])
    functions = {
        f.name: (f.visibility, f.is_entry, f.is_view, f.params, f.return_)
        for f in abi.exposed_functions
    }
    assert functions == {
        "set_message": ("public", True, False, ["&signer", STRING], []),
        "get_message": ("public", False, True, ["address"], [STRING]),
    }
    structs = {s.name: (s.abilities, [(f.name, f.type) for f in s.fields]) for s in abi.structs}
    assert structs == {
        "MessageHolder": (["key"], [("message", STRING)]),
        "MessageChange": (
            ["drop", "store"],
            [("account", "address"), ("from_message", STRING), ("to_message", STRING)],
        ),
    }
    # The bytecode the node serves is the module published: it opens with Move's magic.
    assert bytes.fromhex(module.bytecode.removeprefix("0x"))[:4] == bytes.fromhex("a11ceb0b")


def test_the_module_frames_list_its_functions_and_structs(client: Client, publisher: Any) -> None:
    me = publisher.address.standard
    modules = client.account_modules(me).value
    names = sorted(modules_to_frame(modules)["name"])
    assert names == ["message_board", "vault"]
    board = [m for m in modules if m.abi is not None and m.abi.name == "message_board"]
    functions = functions_to_frame(board).set_index("name")
    assert functions.loc["get_message", "is_view"]
    assert functions.loc["get_message", "params"] == '["address"]'
    assert functions.loc["get_message", "returns"] == f'["{STRING}"]'
    assert functions.loc["set_message", "params"] == f'["&signer","{STRING}"]'
    structs = structs_to_frame(board).set_index("name")
    assert sorted(structs.index) == ["MessageChange", "MessageHolder"]


def test_a_string_argument_is_encoded_from_the_published_abi(
    client: Client, publisher: Any
) -> None:
    me = publisher.address.standard
    raw = client.build_transaction(publisher, f"{me}::message_board::set_message", ["hello"])
    # A String is its UTF-8 bytes after a ULEB128 length: 5, "hello".
    assert raw.payload.args == (b"\x05hello",)
    assert (str(raw.payload.module), raw.payload.function) == (
        f"{me}::message_board",
        "set_message",
    )
    with pytest.raises(ArgumentError):
        client.build_transaction(publisher, f"{me}::message_board::set_message", [5])
    with pytest.raises(LedgerError):
        client.build_transaction(publisher, f"{me}::message_board::no_such_function", [])


def test_a_simulated_published_call_is_foretold_and_explained(
    client: Client, chain: tuple[LocalNode, Node]
) -> None:
    me = chain[1].accounts[0].address.standard
    bob = chain[1].accounts[1]
    raw = client.build_transaction(bob, f"{me}::message_board::set_message", ["draft"])
    sim = client.simulate(raw, signer=bob)
    assert (sim.success, sim.vm_status, sim.abort) == (True, "Executed successfully", None)
    assert sim.gas_used > 0
    assert sim.fee == sim.gas_used * sim.gas_unit_price
    changes = sim.changes
    holder = changes[changes["resource"] == f"{me}::message_board::MessageHolder"]
    assert list(holder["address"]) == [bob.address.standard]
    # The payer's APT goes down by the fee, nothing else moves.
    balances = sim.balance_changes
    assert list(balances["delta"]) == [-sim.fee]
    # The explanation names the argument by the ABI's type.
    explained = str(client.explain(raw))
    assert 'arg[0] = 0x1::string::String "draft"' in explained
    assert 'module_name = "message_board"' in explained


def test_an_abort_in_a_published_module_is_named(
    client: Client, chain: tuple[LocalNode, Node]
) -> None:
    me = chain[1].accounts[0].address.standard
    dave = chain[1].accounts[3]
    raw = client.build_transaction(dave, f"{me}::vault::withdraw", [me, 1], max_gas_amount=100_000)
    sim = client.simulate(raw, signer=dave)
    assert sim.success is False
    abort = sim.abort
    assert abort is not None
    # error::not_found(E_NO_VAULT): category 6 (NOT_FOUND), reason 3.
    assert (abort.name, abort.code, abort.category_name, abort.reason) == (
        "E_NO_VAULT",
        0x60003,
        "NOT_FOUND",
        3,
    )
    assert abort.description == "There is no vault at this address."
    # The module as the node's status writes it: the address without leading zeros.
    assert abort.module == f"{Address.parse(me).short}::vault"
    # Committed, the failed transaction reads the same.
    committed = client.submit_and_wait(sign_transaction(raw, dave)).value
    assert committed.success is False
    assert committed.vm_status == sim.vm_status


def test_the_view_of_a_published_module_and_its_abort(
    client: Client, chain: tuple[LocalNode, Node]
) -> None:
    node = chain[1]
    alice, carol = node.accounts[0], node.accounts[2]
    me = alice.address.standard
    raw = client.build_transaction(carol, f"{me}::message_board::set_message", ["hi"])
    done = client.submit_and_wait(sign_transaction(raw, carol)).value
    assert done.success, done.vm_status
    answer = client.view(f"{me}::message_board::get_message", [carol.address.standard])
    assert answer.value == ["hi"]
    # The committed call explained from its BCS: the argument typed by the published ABI.
    explained = str(ledgerkit.explain(done.version, client=client))
    assert 'arg[0] = 0x1::string::String "hi"' in explained
    nobody = node.accounts[4].address.standard
    # As a framework view's abort: the node's 400 invalid_input, the abort named in it.
    with pytest.raises(InvalidInputError) as refused:
        client.view(f"{me}::message_board::get_message", [nobody])
    assert "E_NO_MESSAGE(0x60001): There is no message at this address." in str(refused.value)


def test_published_events_are_typed_columns(client: Client, chain: tuple[LocalNode, Node]) -> None:
    node = chain[1]
    alice, eve = node.accounts[0], node.accounts[5]
    me = alice.address.standard
    function = f"{me}::message_board::set_message"
    for text in ("one", "two"):
        raw = client.build_transaction(eve, function, [text])
        done = client.submit_and_wait(sign_transaction(raw, eve)).value
        assert done.success, done.vm_status
    event_type = f"{me}::message_board::MessageChange"
    # The transaction's frames: the call, and the sender paying the fee in APT.
    assert list(transactions_to_frame([done])["function"]) == [function]
    paid = balance_changes_to_frame([done])
    assert list(zip(paid["address"], paid["coin_type"], paid["delta"], strict=True)) == [
        (eve.address.standard, "0x1::aptos_coin::AptosCoin", -done.gas_used * done.gas_unit_price)
    ]
    frame = events_to_frame(done.events)
    typed = expand_event_data(frame, event_type, modules=client.load_abis(event_type))
    row = typed.iloc[0]
    assert (row["account"], row["from_message"], row["to_message"]) == (
        eve.address.standard,
        "one",
        "two",
    )


def test_a_module_read_before_it_is_published_then_upgraded(
    client: Client, chain: tuple[LocalNode, Node]
) -> None:
    """A user in a notebook: calls the board before publishing it (a typed error), publishes
    it, calls it, then publishes an upgrade adding ``public entry fun clear(account:
    &signer)`` and calls that, all with one client."""
    node = chain[1]
    frank = node.accounts[6]
    mine = frank.address.standard
    board = f"{mine}::message_board"
    with pytest.raises(MoveModuleNotFoundError):
        client.build_transaction(frank, f"{board}::set_message", ["early"])
    with pytest.raises(MoveModuleNotFoundError):
        client.view(f"{board}::get_message", [mine])
    published = publish_example(node, frank, "message_board")
    assert published["success"], published["vm_status"]
    raw = client.build_transaction(frank, f"{board}::set_message", ["now"])
    assert raw.payload.args == (b"\x03now",)

    upgraded = message_board(mine)
    upgraded.function(
        "clear", visibility="public", entry=True, params=["account: &signer"], code=["Ret"]
    )
    example = EXAMPLES["message_board"]
    package = package_metadata(
        example.package, [PackageModule("message_board", example.source_at(mine))]
    )
    args = [("vector<u8>", package), ("vector<vector<u8>>", [upgraded.to_bytes()])]
    done = call(node, frank, PUBLISH, args)
    assert done["success"], done["vm_status"]
    cleared = client.build_transaction(frank, f"{board}::clear", [])
    assert (cleared.payload.function, cleared.payload.args) == ("clear", ())
