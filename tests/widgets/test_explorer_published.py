"""The explorers read a published module as they read the framework's: the assembler's
message board and vault, published at a dev account, shown in its Modules tab (functions
with their signatures, structs, a view called from the form), its Resources tab (the
``MessageHolder`` a call stored) and the inspector of a call and of a failed one.

    module <publisher>::message_board {
        struct MessageHolder has key { message: String }
        #[event] struct MessageChange has drop, store {
            account: address, from_message: String, to_message: String }
        public entry fun set_message(account: &signer, message: String) { ... }
        #[view] public fun get_message(addr: address): String { ... }
    }
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from explorer_shown import grid_titled, shortened
from recorded_chain import call_view, view_form

from ledgerkit.client import Client
from ledgerkit.localnet import LocalNode
from ledgerkit.tx import sign_transaction
from ledgerkit.types import Address
from ledgerkit.widgets import AccountExplorer, TransactionInspector

# The publishing helpers are the Move tests' own.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "move"))
from run_kit import Node, publish_example


@pytest.fixture(scope="module")
def chain(make_node: Callable[..., LocalNode]) -> Iterator[dict[str, Any]]:
    """A node of this module's own: the message board and the vault published at the first
    dev account, which then sets its message to "hi", then "hello", and fails a withdrawal."""
    running = make_node(seed=39, blocks=2, services=False)
    with (
        httpx.Client(base_url=running.url, timeout=60.0) as http,
        Client(running.url) as client,
    ):
        node = Node(http, list(running.dev_accounts), int(http.get("/").json()["chain_id"]))
        alice = node.accounts[0]
        me = alice.address.standard
        for name in ("message_board", "vault"):
            published = publish_example(node, alice, name)
            assert published["success"], (name, published["vm_status"])
        for message in ("hi", "hello"):
            setting = client.build_transaction(
                alice, f"{me}::message_board::set_message", [message]
            )
            done = client.submit_and_wait(sign_transaction(setting, alice)).value
            assert done.success, done.vm_status
        failing = client.build_transaction(
            alice, f"{me}::vault::withdraw", [me, 1], max_gas_amount=100_000
        )
        failed = client.submit_and_wait(sign_transaction(failing, alice)).value
        assert not failed.success
        yield {"client": client, "me": me, "set": done.version, "failed": failed.version}


def test_the_modules_tab_lists_the_published_module(chain: dict[str, Any]) -> None:
    explorer = AccountExplorer(chain["client"], chain["me"])
    assert explorer.view is not None
    explorer.view.show("Modules")
    modules = grid_titled(explorer, "Modules")
    names = [row["name"] for row in modules.rows]
    assert sorted(names) == ["message_board", "vault"]
    modules.selected_index = names.index("message_board")
    functions = {r["name"]: r["signature"] for r in grid_titled(explorer, "Functions").rows}
    assert functions == {
        "set_message": "public entry fun set_message(&signer, 0x1::string::String)",
        "get_message": "#[view] public fun get_message(address): 0x1::string::String",
    }
    structs = {r["name"]: r["signature"] for r in grid_titled(explorer, "Structs").rows}
    assert structs["MessageHolder"] == (
        "struct MessageHolder has key { message: 0x1::string::String }"
    )


def test_the_view_form_calls_the_published_view(chain: dict[str, Any]) -> None:
    form = view_form(AccountExplorer(chain["client"], chain["me"]), "message_board", "get_message")
    call_view(form, [], [chain["me"]])
    assert (form.error, form.values) == ("", ["hello"])
    # An address with no message: the module's own error, named.
    call_view(form, [], ["0xb0b"])
    assert "E_NO_MESSAGE(0x60001): There is no message at this address." in form.error, form.error
    assert form.values == []


def test_the_resources_tab_shows_the_stored_message(chain: dict[str, Any]) -> None:
    explorer = AccountExplorer(chain["client"], chain["me"])
    assert explorer.view is not None
    explorer.view.show("Resources")
    resources = grid_titled(explorer, "Resources")
    # A type names its address as the node's struct tags do: without leading zeros.
    tag = f"{Address.parse(chain['me']).short}::message_board::MessageHolder"
    types = [row["type"] for row in resources.rows]
    assert tag in types
    resources.selected_index = types.index(tag)
    value = grid_titled(explorer, "MessageHolder")
    assert [(r["path"], r["value"]) for r in value.rows] == [("message", "hello")]


def test_the_inspector_types_a_published_call(chain: dict[str, Any]) -> None:
    inspector = TransactionInspector(chain["client"], chain["set"])
    assert inspector.view is not None
    status = inspector.view.tabs.children[0].children[0].children[0]
    assert "✓ Success: Executed successfully" in status.value
    inspector.view.show("Payload")
    payload = grid_titled(inspector, "message_board::set_message")
    assert [r["type"] for r in payload.rows] == ["0x1::string::String"]
    # The module's event, its fields typed by the published ABI.
    inspector.view.show("Events")
    events = grid_titled(inspector, " event")
    me = chain["me"]
    change, fee = events.rows
    assert (change["type"], change["fields"]) == (
        f"{Address.parse(me).short}::message_board::MessageChange",
        f"account: {shortened(me)} · from_message: hi · to_message: hello",
    )
    assert fee["type"] == "0x1::transaction_fee::FeeStatement"


def test_the_inspector_shows_a_published_calls_argument_decoded(chain: dict[str, Any]) -> None:
    inspector = TransactionInspector(chain["client"], chain["set"])
    assert inspector.view is not None
    inspector.view.show("Payload")
    payload = grid_titled(inspector, "message_board::set_message")
    assert [r["value"] for r in payload.rows] == ["hello"]


def test_the_inspector_names_a_published_abort(chain: dict[str, Any]) -> None:
    inspector = TransactionInspector(chain["client"], chain["failed"])
    assert inspector.view is not None
    status = inspector.view.tabs.children[0].children[0].children[0].value
    where = f"{Address.parse(chain['me']).short}::vault"
    assert f"<code class='lk-abort-module'>{where}</code>" in status
    assert "<b class='lk-abort-name'>E_NO_VAULT</b> (code 0x60003, NOT_FOUND)" in status
    assert "There is no vault at this address." in status
