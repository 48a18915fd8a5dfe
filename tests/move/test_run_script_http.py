"""Scripts, gas and ``init_module`` on the node, over HTTP: the assembler's two-signer
script moving APT through the framework's ``coin::transfer`` (the bridge to its Python
body), a module that loops forever (out of gas, all of ``max_gas_amount`` used), and a
module whose ``init_module`` runs on its first publish and not on an upgrade.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pytest
from assembler import ModuleBuilder
from assembler.examples import EXAMPLES
from run_kit import (
    APT,
    Node,
    apt_balance,
    call,
    publish_module,
    raw_call,
    resource,
    run_script,
)

from ledgerkit.bcs import Ed25519Authenticator, MultiAgentRawTransaction, Script, ScriptArgument
from ledgerkit.localnet import LocalNode
from ledgerkit.types import MoveType

AMOUNT: Final = 1_234


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> Iterator[Node]:
    running = make_node(seed=32, blocks=2, services=False)
    with httpx.Client(base_url=running.url, timeout=60.0) as http:
        chain_id = int(http.get("/").json()["chain_id"])
        yield Node(http, list(running.dev_accounts), chain_id)


def transfer_script(type_args: tuple[str, ...] = (APT,), amount: int = AMOUNT) -> Script:
    code = EXAMPLES["two_signer_transfer"].bytecode()
    types = tuple(MoveType.parse(t) for t in type_args)
    return Script(code, types, (ScriptArgument("u64", amount),))


def test_the_two_signer_script_moves_apt_from_the_first_signer_to_the_second(
    node: Node,
) -> None:
    alice, bob = node.accounts[0], node.accounts[1]
    a, b = alice.address.standard, bob.address.standard
    before = apt_balance(node, a), apt_balance(node, b)
    txn = run_script(node, alice, [bob], transfer_script())
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    assert txn["payload"]["type"] == "script_payload"
    fee = int(txn["gas_used"]) * int(txn["gas_unit_price"])
    # coin::transfer<AptosCoin>(a, address_of(b), 1234): a pays 1234 and the fee.
    assert apt_balance(node, a) == before[0] - AMOUNT - fee
    assert apt_balance(node, b) == before[1] + AMOUNT
    # The payload shows the script's ABI read from its bytecode, and the transaction
    # reads back in BCS.
    assert txn["payload"]["code"]["abi"]["params"] == ["&signer", "&signer", "u64"]
    as_bcs = node.http.get(
        f"/transactions/by_hash/{txn['hash']}", headers={"Accept": "application/x-bcs"}
    )
    assert as_bcs.status_code == 200, as_bcs.text
    assert EXAMPLES["two_signer_transfer"].bytecode() in as_bcs.content


def test_a_script_is_refused_as_a_node_refuses_it(node: Node) -> None:
    alice, bob = node.accounts[0], node.accounts[1]
    one_signer = run_script(node, alice, [], transfer_script())
    assert (one_signer["success"], one_signer["vm_status"]) == (
        False,
        "NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH",
    )
    no_type = run_script(node, alice, [bob], transfer_script(()))
    assert no_type["vm_status"] == "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH"
    # The framework's own abort keeps the framework's name: more than bob holds
    # (fungible_asset's EINSUFFICIENT_BALANCE, invalid_argument(4)).
    too_much = run_script(node, bob, [alice], transfer_script(amount=10**18))
    assert too_much["success"] is False
    assert too_much["vm_status"].startswith(
        "Move abort in 0x1::fungible_asset: EINSUFFICIENT_BALANCE(0x10004): "
    )


def spin(address: str) -> ModuleBuilder:
    """``module spin { public entry fun forever(_a: &signer) { loop {} } }``"""
    m = ModuleBuilder(address, "spin")
    m.function(
        "forever",
        visibility="public",
        entry=True,
        params=["account: &signer"],
        code=[("Label", "top"), ("Branch", "top")],
    )
    return m


def test_a_loop_runs_out_of_gas_and_pays_all_it_was_allowed(node: Node) -> None:
    carol = node.accounts[2]
    me = carol.address.standard
    published = publish_module(node, carol, spin(me), "Spin")
    assert published["success"], published["vm_status"]
    before = apt_balance(node, me)
    txn = call(node, carol, f"{me}::spin::forever", max_gas=500)
    assert (txn["success"], txn["vm_status"], txn["gas_used"]) == (False, "Out of gas", "500")
    assert apt_balance(node, me) == before - 500 * 100
    assert int(resource(node, me, "0x1::account::Account")["data"]["sequence_number"]) == 2


def greeter(address: str, *, upgraded: bool = False) -> ModuleBuilder:
    """``module greeter { struct Greeting has key { count: u64 }
    fun init_module(account: &signer) { move_to(account, Greeting { count: 7 }) }
    public entry fun greet(account: &signer) { ... count + 1 ... } }`` (an upgrade adds
    ``public fun version(): u64 { 2 }``)."""
    m = ModuleBuilder(address, "greeter")
    m.struct("Greeting", "key", [("count", "u64")])
    m.function(
        "init_module",
        params=["account: &signer"],
        code=[
            ("MoveLoc", "account"),
            ("LdU64", 7),
            ("Pack", "Greeting"),
            ("MoveTo", "Greeting"),
            "Ret",
        ],
    )
    if upgraded:
        m.function("version", visibility="public", returns=["u64"], code=[("LdU64", 2), "Ret"])
    return m


def test_init_module_runs_on_the_first_publish_only(node: Node) -> None:
    dave = node.accounts[3]
    me = dave.address.standard
    tag = f"{me}::greeter::Greeting"
    first = publish_module(node, dave, greeter(me), "Greeter")
    assert first["success"], first["vm_status"]
    written = [
        c["data"]["data"]
        for c in first["changes"]
        if c["type"] == "write_resource" and c["data"]["type"] == tag
    ]
    assert written == [{"count": "7"}]
    assert resource(node, me, tag)["data"] == {"count": "7"}
    # Run again, init_module would find its Greeting there and fail the upgrade.
    upgrade = publish_module(node, dave, greeter(me, upgraded=True), "Greeter")
    assert (upgrade["success"], upgrade["vm_status"]) == (True, "Executed successfully")
    assert resource(node, me, tag)["data"] == {"count": "7"}


def test_a_simulated_script_moves_nothing(node: Node) -> None:
    alice, bob = node.accounts[4], node.accounts[5]
    a, b = alice.address.standard, bob.address.standard
    before = apt_balance(node, a), apt_balance(node, b)
    raw = raw_call(node, alice, transfer_script())
    multi = MultiAgentRawTransaction(raw, (bob.address,))

    def unsigned(account: Any) -> Ed25519Authenticator:
        return Ed25519Authenticator(account.private_key.public_key_bytes, bytes(64))

    signed = multi.authenticate(unsigned(alice), [unsigned(bob)])
    response = node.http.post(
        "/transactions/simulate",
        content=signed.to_bcs(),
        headers={"Content-Type": "application/x.aptos.signed_transaction+bcs"},
    )
    assert response.status_code == 200, response.text
    [simulated] = response.json()
    assert (simulated["success"], simulated["vm_status"]) == (True, "Executed successfully")
    assert int(simulated["gas_used"]) > 0
    assert (apt_balance(node, a), apt_balance(node, b)) == before


def test_a_loop_past_the_instruction_bound_stops_with_the_limit_and_pays_what_it_used(
    node: Node,
) -> None:
    dave = node.accounts[3]
    me = dave.address.standard
    published = publish_module(node, dave, spin(me), "Spin")
    assert published["success"], published["vm_status"]
    # 20,000 units would pay for 6.8 million branches (2,940 internal units each): the
    # node's bound of 2,000,000 instructions stops the loop first, at 5,880 units of
    # branches, plus the transaction's and the call's own charges (under 100 units).
    txn = call(node, dave, f"{me}::spin::forever", max_gas=20_000)
    assert (txn["success"], txn["vm_status"]) == (False, "EXECUTION_LIMIT_REACHED")
    assert 5_880 < int(txn["gas_used"]) < 5_880 + 100
