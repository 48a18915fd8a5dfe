"""A call of a published entry function in the transaction's JSON: its arguments read by
the module's ABI, as a node shows them (a ``String`` as its text, a ``u64`` as a decimal
string), wherever a transaction is shown: by hash, by version, among the account's
transactions, in its block, while pending, and in a simulation's answer. Expected values
are the examples' Move sources' arguments, written out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Final

import httpx
from run_kit import (
    BCS_TXN,
    Node,
    call,
    node_fixture,
    publish_example,
    publisher_fixture,
    raw_call,
    submit,
)

from ledgerkit.bcs import Ed25519Authenticator, EntryFunction, SignedTransaction
from ledgerkit.localnet import LocalNode

PUBLISHED: Final = ("message_board", "container")


node = node_fixture(32)
publisher = publisher_fixture(PUBLISHED)


def _shown(txn: dict[str, Any]) -> tuple[str, list[Any], list[Any]]:
    payload = txn["payload"]
    return payload["function"], payload["type_arguments"], payload["arguments"]


def test_a_committed_call_shows_its_arguments_by_the_abi_everywhere(
    node: Node, publisher: Any
) -> None:
    me = publisher.address.standard
    bob = node.accounts[1]
    function = f"{me}::message_board::set_message"
    txn = call(node, bob, function, [("0x1::string::String", "hello")])
    assert txn["success"], txn["vm_status"]
    expected = (function, [], ["hello"])
    assert _shown(txn) == expected

    by_hash = node.http.get(f"/transactions/by_hash/{txn['hash']}").json()
    by_version = node.http.get(f"/transactions/by_version/{txn['version']}").json()
    assert _shown(by_hash) == expected
    assert _shown(by_version) == expected

    mine = node.http.get(f"/accounts/{bob.address}/transactions").json()
    [listed] = [t for t in mine if t["hash"] == txn["hash"]]
    assert _shown(listed) == expected
    listing = node.http.get("/transactions", params={"start": txn["version"], "limit": 1}).json()
    assert [_shown(t) for t in listing] == [expected]

    block = node.http.get(
        f"/blocks/by_version/{txn['version']}", params={"with_transactions": "true"}
    ).json()
    [in_block] = [t for t in block["transactions"] if t.get("hash") == txn["hash"]]
    assert _shown(in_block) == expected

    # The BCS form still rebuilds: the String as BCS, length 5 then its bytes.
    as_bcs = node.http.get(
        f"/transactions/by_hash/{txn['hash']}", headers={"Accept": "application/x-bcs"}
    )
    assert as_bcs.status_code == 200, as_bcs.text
    assert b"\x01\x06\x05hello" in as_bcs.content  # one argument: 6 bytes, "\x05hello"


def test_a_u64_argument_reads_as_a_decimal_string(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    carol = node.accounts[2]
    function = f"{me}::container::put_number"
    txn = call(node, carol, function, [("u64", 7)])
    assert txn["success"], txn["vm_status"]
    assert _shown(txn) == (function, [], ["7"])
    by_hash = node.http.get(f"/transactions/by_hash/{txn['hash']}").json()
    assert _shown(by_hash) == (function, [], ["7"])


def test_a_simulated_call_shows_its_arguments_by_the_abi(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    dave = node.accounts[3]
    function = f"{me}::message_board::set_message"
    payload = EntryFunction.build(function, [], [("0x1::string::String", "draft")])
    raw = raw_call(node, dave, payload)
    unsigned = Ed25519Authenticator(dave.private_key.public_key_bytes, bytes(64))
    response = node.http.post(
        "/transactions/simulate",
        content=SignedTransaction(raw, unsigned).to_bcs(),
        headers=BCS_TXN,
    )
    assert response.status_code == 200, response.text
    [simulated] = response.json()
    assert simulated["success"], simulated["vm_status"]
    assert _shown(simulated) == (function, [], ["draft"])


def test_a_pending_call_shows_its_arguments_by_the_abi(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    erin = node.accounts[4]
    function = f"{me}::message_board::set_message"
    payload = EntryFunction.build(function, [], [("0x1::string::String", "later")])
    now = raw_call(node, erin, payload)
    # One sequence number ahead: it waits in the mempool until the gap is filled.
    ahead = dataclasses.replace(now, sequence_number=now.sequence_number + 1)
    sent = node.http.post(
        "/transactions", content=ahead.sign(erin.private_key).to_bcs(), headers=BCS_TXN
    )
    assert sent.status_code == 202, sent.text
    assert _shown(sent.json()) == (function, [], ["later"])
    waiting = node.http.get(f"/transactions/by_hash/{sent.json()['hash']}").json()
    assert waiting["type"] == "pending_transaction"
    assert _shown(waiting) == (function, [], ["later"])

    first = submit(node, now.sign(erin.private_key))
    assert _shown(first) == (function, [], ["later"])
    txn = node.http.get(f"/transactions/wait_by_hash/{sent.json()['hash']}").json()
    assert txn["type"] == "user_transaction"
    assert _shown(txn) == (function, [], ["later"])


def test_a_pending_call_reads_by_the_abi_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    with LocalNode(seed=33, blocks=2, db=db) as first, httpx.Client(base_url=first.url) as http:
        chain_id = int(http.get("/").json()["chain_id"])
        running = Node(http, list(first.dev_accounts), chain_id)
        alice = running.accounts[0]
        assert publish_example(running, alice, "message_board")["success"]
        function = f"{alice.address.standard}::message_board::set_message"
        payload = EntryFunction.build(function, [], [("0x1::string::String", "kept")])
        now = raw_call(running, alice, payload)
        ahead = dataclasses.replace(now, sequence_number=now.sequence_number + 1)
        sent = http.post(
            "/transactions", content=ahead.sign(alice.private_key).to_bcs(), headers=BCS_TXN
        )
        assert sent.status_code == 202, sent.text
    with LocalNode(seed=33, blocks=2, db=db) as second, httpx.Client(base_url=second.url) as http:
        waiting = http.get(f"/transactions/by_hash/{sent.json()['hash']}").json()
        assert waiting["type"] == "pending_transaction"
        assert _shown(waiting) == (function, [], ["kept"])
