"""Code objects over HTTP: the assembler's counter published to an object with
``0x1::object_code_deployment::publish``, then upgraded and frozen by the object's owner
(``upgrade``, ``freeze_code_object``), each refusal with the abort aptos-framework's
object_code_deployment.move and code.move give (``std::error`` category << 16 | reason).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any, Final

from assembler.examples import EXAMPLES, counter
from run_kit import Node, call, events_of, node_fixture, resource, view

from ledgerkit.localnet.vm.move import write_module
from ledgerkit.types import Address

DEPLOY: Final = "0x1::object_code_deployment"
REGISTRY: Final = "0x1::code::PackageRegistry"


node = node_fixture(34)


def next_code_object(node: Node, account: Any) -> str:
    """The object ``publish`` makes next for ``account``: SHA3-256(publisher ‖ seed ‖
    0xFE), the seed the BCS of b"aptos_framework::object_code_deployment" then of the
    u64 sequence number + 1."""
    sequence = int(node.http.get(f"/accounts/{account.address}").json()["sequence_number"])
    domain = b"aptos_framework::object_code_deployment"
    seed = bytes([len(domain)]) + domain + (sequence + 1).to_bytes(8, "little")
    return Address(hashlib.sha3_256(bytes(account.address) + seed + b"\xfe").digest()).standard


def metadata(address: str) -> bytes:
    """The counter example's package (``Counter``, compatible), its source at ``address``."""
    return EXAMPLES["counter"].package_metadata(address)


def publish_counter(node: Node, account: Any) -> str:
    """The counter example published to a new code object of ``account``; its address."""
    obj = next_code_object(node, account)
    args = [
        ("vector<u8>", metadata(obj)),
        ("vector<vector<u8>>", [counter(obj).to_bytes()]),
    ]
    txn = call(node, account, f"{DEPLOY}::publish", args)
    assert txn["success"], txn["vm_status"]
    return obj


def upgrade(node: Node, account: Any, obj: str, code: bytes) -> dict[str, Any]:
    args = [("vector<u8>", metadata(obj)), ("vector<vector<u8>>", [code]), ("address", obj)]
    return call(node, account, f"{DEPLOY}::upgrade", args)


def with_version(obj: str) -> bytes:
    """The counter with a new view: ``#[view] public fun version(): u64 { 2 }``."""
    builder = counter(obj)
    builder.function(
        "version", visibility="public", view=True, returns=["u64"], code=[("LdU64", 2), "Ret"]
    )
    return builder.to_bytes()


def abort(module: str, name: str, code: int, description: str) -> str:
    return f"Move abort in 0x1::{module}: {name}({code:#x}): {description}"


def test_the_owner_upgrades_and_the_new_function_is_callable(node: Node) -> None:
    alice = node.accounts[0]
    obj = publish_counter(node, alice)
    assert call(node, alice, f"{obj}::counter::increment")["success"]
    assert view(node, f"{obj}::counter::version", []).status_code == 400

    txn = upgrade(node, alice, obj, with_version(obj))
    assert txn["success"], txn["vm_status"]
    assert events_of(txn, "0x1::code::PublishPackage") == [
        {"code_address": obj, "is_upgrade": True}
    ]
    assert events_of(txn, f"{DEPLOY}::Upgrade") == [{"object_address": obj}]
    (package,) = resource(node, obj, REGISTRY)["data"]["packages"]
    assert (package["name"], package["upgrade_policy"], package["upgrade_number"]) == (
        "Counter",
        {"policy": 1},
        "1",
    )
    assert view(node, f"{obj}::counter::version", []).json() == ["2"]
    # The counter stored before the upgrade reads on through the new code.
    assert view(node, f"{obj}::counter::get", [alice.address.standard]).json() == ["1"]
    served = node.http.get(f"/accounts/{obj}/module/counter").json()
    assert "version" in [f["name"] for f in served["abi"]["exposed_functions"]]


def test_an_incompatible_upgrade_is_refused(node: Node) -> None:
    bob = node.accounts[1]
    obj = publish_counter(node, bob)
    module = counter(obj).build()
    # `get` made private: a public function other modules may call is gone.
    increment, get = module.function_defs
    hidden = replace(module, function_defs=(increment, replace(get, visibility=0)))
    txn = upgrade(node, bob, obj, write_module(hidden))
    assert (txn["success"], txn["vm_status"]) == (False, "BACKWARD_INCOMPATIBLE_MODULE_UPDATE")
    (package,) = resource(node, obj, REGISTRY)["data"]["packages"]
    assert package["upgrade_number"] == "0"
    assert view(node, f"{obj}::counter::get", [bob.address.standard]).json() == ["0"]


def test_only_the_owner_upgrades(node: Node) -> None:
    carol, dave = node.accounts[2], node.accounts[3]
    obj = publish_counter(node, carol)
    refused = upgrade(node, dave, obj, with_version(obj))
    assert refused["vm_status"] == abort(
        "object_code_deployment",
        "ENOT_CODE_OBJECT_OWNER",
        0x50002,
        "The signer does not own the code object",
    )
    # An address that is no object: the argument cannot be an Object<PackageRegistry>.
    nowhere = upgrade(node, dave, dave.address.standard, with_version(obj))
    assert nowhere["vm_status"].startswith(
        "Move abort in 0x1::object: EOBJECT_DOES_NOT_EXIST(0x60002)"
    )
    assert resource(node, obj, REGISTRY)["data"]["packages"][0]["upgrade_number"] == "0"


def test_a_frozen_code_object_is_never_upgraded(node: Node) -> None:
    erin, frank = node.accounts[4], node.accounts[5]
    obj = publish_counter(node, erin)
    refused = call(node, frank, f"{DEPLOY}::freeze_code_object", [("address", obj)])
    assert refused["vm_status"] == abort(
        "code", "ENOT_PACKAGE_OWNER", 0x50009, "The signer does not own the code object"
    )

    frozen = call(node, erin, f"{DEPLOY}::freeze_code_object", [("address", obj)])
    assert frozen["success"], frozen["vm_status"]
    assert events_of(frozen, f"{DEPLOY}::Freeze") == [{"object_address": obj}]
    (package,) = resource(node, obj, REGISTRY)["data"]["packages"]
    assert (package["upgrade_policy"], package["upgrade_number"]) == ({"policy": 2}, "0")

    again = upgrade(node, erin, obj, with_version(obj))
    assert again["vm_status"] == abort(
        "code", "EUPGRADE_IMMUTABLE", 0x10002, "The package is immutable: it cannot be upgraded"
    )
    # The code object's functions run on.
    assert call(node, erin, f"{obj}::counter::increment")["success"]
