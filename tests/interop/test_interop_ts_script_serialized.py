"""A script's ``String`` argument sent by the TypeScript SDK (6.3 and 7.3) in both forms
it has: a ``MoveString`` (which the SDK writes as a ``u8_vector`` script argument, the
UTF-8 bytes) and a ``Serialized`` argument (``TransactionArgument`` variant 9, the
String's BCS). The embedded node reads each from its BCS by the script's parameter type,
as a node does, and the script stores it through the message board's ``set_message``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

import httpx
import pytest
from move_examples import bytecode, examples_module, package_metadata
from ts_sdks import TsRunner, value

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

RUN_TIMEOUT: Final = 180
FIRST: Final = "sent as a vector<u8>"
SECOND: Final = "sent as a serialized argument"


@pytest.fixture(scope="module")
def serialized_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    return make_node(seed=39, blocks=2, services=False)


def set_message_script(board: str) -> bytes:
    """The message board's ``set_message`` as a script (the assembler's example)."""
    examples_module()  # puts the assembler on the import path
    examples = importlib.import_module("assembler.examples")
    data: bytes = examples.set_message_script(board).to_bytes()
    return data


def test_the_sdk_sends_a_string_to_a_script_as_bytes_and_as_a_serialized_argument(
    ts: TsRunner, serialized_node: LocalNode
) -> None:
    dev = serialized_node.dev_accounts[{"6.3": 0, "7.3": 1}[ts.sdk.line]]
    me = dev.address.long
    results = ts.run(
        "script_serialized.mjs",
        serialized_node.url,
        package_metadata("message_board", me).hex(),
        bytecode("message_board", me).hex(),
        set_message_script(me).hex(),
        FIRST,
        SECOND,
        timeout=RUN_TIMEOUT,
        key=dev.private_key.secret_hex(),
    )
    assert value(results, "publish")["success"]
    with httpx.Client(base_url=serialized_node.url, timeout=30.0) as http:
        for step, message, shown in (
            ("as_string", FIRST, "0x" + FIRST.encode().hex()),
            # The serialized argument as the node shows it: its bytes (the String's BCS).
            ("as_serialized", SECOND, "0x" + (bytes([len(SECOND)]) + SECOND.encode()).hex()),
        ):
            done = value(results, step)
            assert (done["success"], done["vm_status"]) == (True, "Executed successfully")
            txn: dict[str, Any] = http.get(f"/transactions/by_hash/{done['hash']}").json()
            assert txn["payload"]["arguments"] == [shown]
            # What the script stored: the MessageHolder the transaction wrote.
            written = [
                c["data"]["data"]
                for c in txn["changes"]
                if c["address"] == me
                and c.get("data", {}).get("type", "").endswith("::message_board::MessageHolder")
            ]
            assert written == [{"message": message}]
