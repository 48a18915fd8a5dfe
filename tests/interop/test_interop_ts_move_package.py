"""A Move package published and used through the TypeScript SDK (6.3 and 7.3) on the
embedded node, as a dapp tutorial does once ``aptos move compile --save-metadata`` has run:
``publishPackageTransaction`` with the metadata and bytecode, ``getAccountModule``, an entry
function built from the module's ABI by ``build.simple``, ``getAccountResource``,
``aptos.view``, and a script payload signed by two accounts (``build.multiAgent``).

The package is the assembler's message board (``tests/move/assembler/examples.py``: its
Move source is there), written for the publisher's address; the script is its
``two_signer_transfer``. What the SDK reads back and what the node committed are checked
against values written out here from those sources.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pytest
from move_examples import bytecode, package_metadata
from ts_sdks import TsRunner, value

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

RUN_TIMEOUT: Final = 180
APT: Final = "0x1::aptos_coin::AptosCoin"
STRING: Final = "0x1::string::String"


@pytest.fixture(scope="module")
def move_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    return make_node(seed=31, blocks=2, services=False)


@pytest.fixture(scope="module")
def http(move_node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=move_node.url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="module")
def flow(ts: TsRunner, move_node: LocalNode) -> dict[str, Any]:
    """One run of ``move_package.mjs`` per release, each publishing under an account of its
    own (dev account 0 for 6.3, 1 for 7.3)."""
    alice = move_node.dev_accounts[{"6.3": 0, "7.3": 1}[ts.sdk.line]]
    me = alice.address.long
    results = ts.run(
        "move_package.mjs",
        move_node.url,
        package_metadata("message_board", me).hex(),
        bytecode("message_board", me).hex(),
        bytecode("two_signer_transfer", me).hex(),
        timeout=RUN_TIMEOUT,
        key=alice.private_key.secret_hex(),
    )
    assert value(results, "accounts")["alice"] == me
    return results


def committed(http: httpx.Client, results: dict[str, Any], step: str) -> dict[str, Any]:
    """The node's record of the transaction the SDK waited for at ``step``: a success."""
    done = value(results, step)
    answer = http.get(f"/transactions/by_hash/{done['hash']}")
    assert answer.status_code == 200, answer.text
    txn: dict[str, Any] = answer.json()
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    assert (done["success"], done["version"]) == (True, txn["version"])
    return txn


def test_publish_and_read_the_module_back(flow: dict[str, Any], http: httpx.Client) -> None:
    me = value(flow, "accounts")["alice"]
    txn = committed(http, flow, "publish")
    assert txn["payload"]["function"] == "0x1::code::publish_package_txn"
    module = value(flow, "module")
    assert module["bytecode"] == "0x" + bytecode("message_board", me).hex()
    assert module["abi"] == {
        "address": me,
        "name": "message_board",
        "friends": [],
        "exposed_functions": [
            {
                "name": "set_message",
                "visibility": "public",
                "is_entry": True,
                "is_view": False,
                "generic_type_params": [],
                "params": ["&signer", STRING],
                "return": [],
            },
            {
                "name": "get_message",
                "visibility": "public",
                "is_entry": False,
                "is_view": True,
                "generic_type_params": [],
                "params": ["address"],
                "return": [STRING],
            },
        ],
        "structs": [
            {
                "name": "MessageHolder",
                "is_native": False,
                "is_event": False,
                "is_enum": False,
                "abilities": ["key"],
                "generic_type_params": [],
                "fields": [{"name": "message", "type": STRING}],
                "variants": [],
            },
            {
                "name": "MessageChange",
                "is_native": False,
                "is_event": True,
                "is_enum": False,
                "abilities": ["drop", "store"],
                "generic_type_params": [],
                "fields": [
                    {"name": "account", "type": "address"},
                    {"name": "from_message", "type": STRING},
                    {"name": "to_message", "type": STRING},
                ],
                "variants": [],
            },
        ],
    }


def test_entry_function_resource_and_view(flow: dict[str, Any], http: httpx.Client) -> None:
    """set_message("hello, world") stores the holder; set_message("hello again") changes it
    and emits MessageChange; the view answers the latest."""
    me = value(flow, "accounts")["alice"]
    first = committed(http, flow, "set_first")
    assert first["payload"]["function"] == f"{me}::message_board::set_message"
    # The SDK encoded the String by the ABI it fetched: the resource holds the text.
    assert value(flow, "resource_first") == {"message": "hello, world"}
    second = committed(http, flow, "set_second")
    assert [(e["type"], e["data"]) for e in second["events"] if e["type"].startswith(me)] == [
        (
            f"{me}::message_board::MessageChange",
            {"account": me, "from_message": "hello, world", "to_message": "hello again"},
        )
    ]
    assert value(flow, "resource_second") == {"message": "hello again"}
    assert value(flow, "view") == ["hello again"]


def test_script_signed_by_two_accounts(flow: dict[str, Any], http: httpx.Client) -> None:
    """two_signer_transfer<AptosCoin>(alice, bob, 2500): Bob, given 1,000 octas first,
    holds 3,500."""
    accounts = value(flow, "accounts")
    committed(http, flow, "fund_bob")
    txn = committed(http, flow, "script")
    assert txn["sender"] == accounts["alice"]
    assert txn["signature"]["type"] == "multi_agent_signature"
    assert txn["signature"]["secondary_signer_addresses"] == [accounts["bob"]]
    payload = txn["payload"]
    assert payload["type"] == "script_payload"
    assert payload["code"]["bytecode"] == "0x" + bytecode("two_signer_transfer", "0x1").hex()
    assert (payload["type_arguments"], payload["arguments"]) == ([APT], ["2500"])
    assert value(flow, "bob_balance") == 3_500
