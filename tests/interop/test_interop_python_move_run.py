"""The official Python SDK runs published Move code on the embedded node: its
``PackagePublisher`` publishes the assembler's message board, its client calls
``set_message`` in a signed entry function transaction, reads the ``MessageHolder``
resource and calls the ``get_message`` view, in JSON and with BCS arguments.

    module <publisher>::message_board {
        struct MessageHolder has key { message: String }
        public entry fun set_message(account: &signer, message: String) { ... }
        #[view] public fun get_message(addr: address): String { ... }
    }
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ClientConfig, RestClient
from aptos_sdk.bcs import Serializer
from aptos_sdk.package_publisher import PackagePublisher
from aptos_sdk.transactions import EntryFunction, TransactionArgument, TransactionPayload

from ledgerkit.localnet import LocalNode

# The assembler is the Move tests' tool; its examples are read from there.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "move"))
from assembler.examples import EXAMPLES

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def board_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of this module's own: its publisher's account is spent by nobody else."""
    return make_node(seed=33, blocks=2, services=False)


def test_the_sdk_calls_a_published_entry_function_and_its_view(board_node: LocalNode) -> None:
    dev = board_node.dev_accounts[0]
    key = ed25519.PrivateKey.from_str(dev.private_key.secret_hex())
    account = Account(AccountAddress.from_key(key.public_key()), key)
    me = dev.address.standard
    example = EXAMPLES["message_board"]
    module = f"{me}::message_board"

    async def scenario() -> tuple[Any, ...]:
        rest = RestClient(board_node.url, ClientConfig())
        try:
            published = await PackagePublisher(rest).publish_package(
                account, example.package_metadata(me), [example.bytecode(me)]
            )
            await rest.wait_for_transaction(published)
            payload = EntryFunction.natural(
                module, "set_message", [], [TransactionArgument("gm", Serializer.str)]
            )
            signed = await rest.create_bcs_signed_transaction(account, TransactionPayload(payload))
            called = await rest.submit_bcs_transaction(signed)
            await rest.wait_for_transaction(called)
            txn = await rest.transaction_by_hash(called)
            holder = await rest.account_resource(account.address(), f"{module}::MessageHolder")
            as_json = await rest.view(f"{module}::get_message", [], [me])
            with_bcs = await rest.view_bcs_payload(
                module,
                "get_message",
                [],
                [TransactionArgument(account.address(), Serializer.struct)],
            )
            return txn, holder, as_json, with_bcs
        finally:
            await rest.close()

    txn, holder, as_json, with_bcs = asyncio.run(scenario())
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    assert txn["payload"]["function"] == f"{module}::set_message"
    assert holder == {"type": f"{module}::MessageHolder", "data": {"message": "gm"}}
    assert json.loads(as_json) == ["gm"]
    assert with_bcs == ["gm"]
