"""What the tests of published code running on the node share: a node reached over HTTP,
signing and sending calls and scripts, publishing an example, reading views.

Transactions are signed with the dev accounts' keys and submitted as BCS; the committed
transaction's JSON is what a test reads.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

import httpx
import pytest
from assembler import ModuleBuilder, package_metadata
from assembler.examples import EXAMPLES

from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    MultiAgentRawTransaction,
    RawTransaction,
    Script,
    SignedTransaction,
)
from ledgerkit.localnet import LocalNode
from ledgerkit.types import ModuleId, MoveType

PUBLISH: Final = "0x1::code::publish_package_txn"
BCS_TXN: Final = {"Content-Type": "application/x.aptos.signed_transaction+bcs"}
APT: Final = "0x1::aptos_coin::AptosCoin"


@dataclass
class Node:
    http: httpx.Client
    accounts: list[Any]
    chain_id: int


def raw_call(
    node: Node,
    account: Any,
    payload: EntryFunction | Script,
    *,
    max_gas: int = 200_000,
) -> RawTransaction:
    sequence = int(node.http.get(f"/accounts/{account.address}").json()["sequence_number"])
    expiry = int(time.time()) + 600  # blocks are made on the wall clock once users submit
    return RawTransaction(account.address, sequence, payload, max_gas, 100, expiry, node.chain_id)


def submit(node: Node, signed: SignedTransaction) -> dict[str, Any]:
    """Submit (BCS) and wait; the committed transaction's JSON."""
    response = node.http.post("/transactions", content=signed.to_bcs(), headers=BCS_TXN)
    assert response.status_code == 202, response.text
    txn_hash = response.json()["hash"]
    for _ in range(30):
        found: dict[str, Any] = node.http.get(f"/transactions/wait_by_hash/{txn_hash}").json()
        if found["type"] != "pending_transaction":
            return found
    raise AssertionError(f"{txn_hash} was not committed")


def call(
    node: Node,
    account: Any,
    function: str,
    args: Sequence[tuple[str, Any]] = (),
    type_args: Sequence[str] = (),
    *,
    max_gas: int = 200_000,
) -> dict[str, Any]:
    """Sign, submit and wait for an entry function call."""
    payload = EntryFunction.build(function, list(type_args), list(args))
    raw = raw_call(node, account, payload, max_gas=max_gas)
    return submit(node, raw.sign(account.private_key))


def call_raw(
    node: Node, account: Any, function: str, args: Sequence[bytes], type_args: Sequence[str] = ()
) -> dict[str, Any]:
    """A call with arguments given as raw BCS (wrong ones included)."""
    module, name = function.rsplit("::", 1)
    types = tuple(MoveType.parse(t) for t in type_args)
    payload = EntryFunction(ModuleId.parse(module), name, types, tuple(args))
    raw = raw_call(node, account, payload)
    return submit(node, raw.sign(account.private_key))


def run_script(node: Node, sender: Any, others: Sequence[Any], script: Script) -> dict[str, Any]:
    """A script signed by ``sender`` and, as secondary signers, ``others``."""
    raw = raw_call(node, sender, script)
    if not others:
        return submit(node, raw.sign(sender.private_key))
    multi = MultiAgentRawTransaction(raw, tuple(a.address for a in others))
    message = multi.signing_message()

    def auth(account: Any) -> Ed25519Authenticator:
        key = account.private_key
        return Ed25519Authenticator(key.public_key_bytes, key.sign(message))

    return submit(node, multi.authenticate(auth(sender), [auth(a) for a in others]))


def publish_example(node: Node, account: Any, name: str) -> dict[str, Any]:
    """Publish the assembler's example ``name`` at ``account``'s address."""
    example = EXAMPLES[name]
    me = account.address.standard
    args = [
        ("vector<u8>", example.package_metadata(me)),
        ("vector<vector<u8>>", [example.bytecode(me)]),
    ]
    return call(node, account, PUBLISH, args)


def publish_module(
    node: Node, account: Any, builder: ModuleBuilder, package: str, *, max_gas: int = 200_000
) -> dict[str, Any]:
    """Publish one module built here, in a package of its own."""
    args = [
        ("vector<u8>", package_metadata(package, [builder.name])),
        ("vector<vector<u8>>", [builder.to_bytes()]),
    ]
    return call(node, account, PUBLISH, args, max_gas=max_gas)


def view(
    node: Node, function: str, args: Sequence[Any], type_args: Sequence[str] = ()
) -> httpx.Response:
    body = {"function": function, "type_arguments": list(type_args), "arguments": list(args)}
    return node.http.post("/view", json=body)


def resource(node: Node, address: str, tag: str) -> Any:
    response = node.http.get(f"/accounts/{address}/resource/{tag}")
    return response.json() if response.status_code == 200 else None


def apt_balance(node: Node, address: str) -> int:
    response = view(node, "0x1::coin::balance", [address], [APT])
    assert response.status_code == 200, response.text
    return int(response.json()[0])


def events_of(txn: dict[str, Any], suffix: str) -> list[Any]:
    return [e["data"] for e in txn["events"] if e["type"].endswith(suffix)]


# -- fixtures a test module takes by assigning them to its own names -------------------------


def node_fixture(seed: int) -> Any:
    """A module-scoped ``node`` fixture: a node of the generator's ``seed`` (two blocks, no
    services) reached over HTTP. Use: ``node = node_fixture(31)`` in a test module."""

    @pytest.fixture(scope="module", name="node")
    def node(make_node: Callable[..., LocalNode]) -> Iterator[Node]:
        running = make_node(seed=seed, blocks=2, services=False)
        with httpx.Client(base_url=running.url, timeout=60.0) as http:
            chain_id = int(http.get("/").json()["chain_id"])
            yield Node(http, list(running.dev_accounts), chain_id)

    return node


def publisher_fixture(examples: Sequence[str]) -> Any:
    """A module-scoped ``publisher`` fixture: the first dev account, with the assembler's
    ``examples`` published at its address. Use: ``publisher = publisher_fixture(("counter",))``."""

    @pytest.fixture(scope="module", name="publisher")
    def publisher(node: Node) -> Any:
        alice = node.accounts[0]
        for name in examples:
            txn = publish_example(node, alice, name)
            assert txn["success"], (name, txn["vm_status"])
        return alice

    return publisher
