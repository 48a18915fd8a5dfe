"""The TypeScript SDK's multisig account flow (``examples/typescript/multisig_v2.ts``) against
``ledgerkit node`` started with no flags, under @aptos-labs/ts-sdk 6.3 and 7.3.

``ts/multisig.mjs`` makes a 2-of-3 multisig account and runs calls through it with the
SDK's own builders (``generateTransactionPayload({ multisigAddress })``,
``transaction.build.simple`` with ``multisigAddress``, ``TransactionPayloadMultiSig``). What
it reports is checked against the node's REST answers, read here with httpx, and against
values written out from the framework's Move source: the account's address is
``SHA3-256(creator ‖ "aptos_framework::multisig_account" ‖ u64_le(0) ‖ 0xFF)`` for a
creator's first transaction, computed here with hashlib.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from cli_node import CliNode
from ts_sdks import TsRunner, value

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

FLOW_TIMEOUT: Final = 180
#: Half-second rounds of waiting for the indexer to reach a version.
INDEX_ROUNDS: Final = 60
MS: Final = "0x1::multisig_account::"


@pytest.fixture(scope="module")
def http(default_node: CliNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=default_node.node_url, timeout=30.0) as client:
        yield client


def committed(http: httpx.Client, done: dict[str, Any]) -> dict[str, Any]:
    answer = http.get(f"/transactions/by_hash/{done['hash']}")
    assert answer.status_code == 200, answer.text
    txn: dict[str, Any] = answer.json()
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    assert done["success"] is True
    return txn


def indexed_function(default_node: CliNode, version: int) -> Any:
    """``entry_function_id_str`` of ``user_transactions`` at ``version``, once indexed."""
    query = (
        "query($v: bigint) { user_transactions(where: {version: {_eq: $v}}) "
        "{ entry_function_id_str } }"
    )
    rows: list[Any] = []
    for _ in range(INDEX_ROUNDS):
        answer = httpx.post(
            default_node.indexer_url,
            json={"query": query, "variables": {"v": version}},
            timeout=30.0,
        )
        assert answer.status_code == 200, answer.text
        rows = answer.json()["data"]["user_transactions"]
        if rows:
            return rows[0]["entry_function_id_str"]
        time.sleep(0.5)
    pytest.fail(f"version {version} was not indexed")


def kinds(txn: dict[str, Any]) -> list[str]:
    """The framework's events of ``txn``: all but the VM's FeeStatement, checked last."""
    *emitted, fee = [e["type"] for e in txn["events"]]
    assert fee == "0x1::transaction_fee::FeeStatement"
    return emitted


def test_the_multisig_v2_flow(ts: TsRunner, http: httpx.Client, default_node: CliNode) -> None:
    results = ts.run("multisig.mjs", timeout=FLOW_TIMEOUT)
    accounts = value(results, "accounts")
    o1, o2, o3, o4 = (accounts[n] for n in ("owner1", "owner2", "owner3", "owner4"))
    seed = b"aptos_framework::multisig_account" + (0).to_bytes(8, "little")
    address = "0x" + hashlib.sha3_256(bytes.fromhex(o1[2:]) + seed + b"\xff").hexdigest()
    assert value(results, "multisig_address") == address

    committed(http, value(results, "create"))
    assert value(results, "created") == {"owners": [o2, o3, o1], "num_signatures_required": "2"}
    assert value(results, "simulate_as_multisig") == {
        "success": True,
        "vm_status": "Executed successfully",
    }

    created = committed(http, value(results, "create_transfer"))
    assert kinds(created) == [MS + "CreateTransaction"]
    stored = created["events"][0]["data"]["transaction"]["payload"]["vec"][0]
    assert value(results, "can_be_executed_1") == [True]
    executed = committed(http, value(results, "execute_transfer"))
    assert executed["sender"] == o2
    assert executed["payload"]["type"] == "multisig_payload"
    assert executed["payload"]["multisig_address"] == address
    assert executed["payload"]["transaction_payload"]["function"] == "0x1::aptos_account::transfer"
    assert kinds(executed) == [
        "0x1::fungible_asset::Withdraw",
        "0x1::fungible_asset::Deposit",
        MS + "TransactionExecutionSucceeded",
    ]
    succeeded = executed["events"][-2]["data"]  # the last before the FeeStatement
    assert succeeded["num_approvals"] == "2"
    assert succeeded["transaction_payload"] == stored
    assert value(results, "recipient_balance_1") == 1_000_000
    # the indexer files it under the call it carries, as aptos' processors do
    version = int(executed["version"])
    assert indexed_function(default_node, version) == "0x1::aptos_account::transfer"

    by_hash = committed(http, value(results, "create_transfer_hash"))
    digest = by_hash["events"][0]["data"]["transaction"]["payload_hash"]["vec"][0]
    assert digest == "0x" + hashlib.sha3_256(bytes.fromhex(stored[2:])).hexdigest()
    committed(http, value(results, "execute_transfer_hash"))
    assert value(results, "recipient_balance_2") == 2_000_000

    added = committed(http, value(results, "execute_add_owner"))
    assert added["payload"] == {"multisig_address": address, "type": "multisig_payload"}
    assert indexed_function(default_node, int(added["version"])) == ""  # stored on chain
    assert kinds(added) == [MS + "AddOwners", MS + "TransactionExecutionSucceeded"]
    assert value(results, "after_add_owner")["owners"] == [o2, o3, o1, o4]
    committed(http, value(results, "execute_remove_owner"))
    assert value(results, "after_remove_owner")["owners"] == [o2, o3, o1]
    committed(http, value(results, "execute_threshold"))
    assert value(results, "after_threshold")["num_signatures_required"] == "3"

    # two of the three rejections now required; owner 1 adds its own when it resolves
    assert value(results, "can_be_rejected") == {"alone": [False], "by_owner1": [True]}
    rejected = committed(http, value(results, "execute_rejected"))
    assert kinds(rejected) == [MS + "Vote", MS + "ExecuteRejectedTransaction"]
    assert rejected["events"][1]["data"]["num_rejections"] == "3"
    assert value(results, "views") == {
        "owners": [[o2, o3, o1]],
        "num_signatures_required": ["3"],
        "last_resolved_sequence_number": ["6"],
        "next_sequence_number": ["7"],
    }
