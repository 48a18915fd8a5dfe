"""Publishing Move packages on the node over HTTP, through signed
``0x1::code::publish_package_txn`` transactions: the modules served with their ABI, the
``PackageRegistry``, upgrades, and each refusal with the status a node gives (abort codes
from aptos-framework's code.move: ``std::error`` category << 16 | reason).

Module bytes are written with the binary format's writer from the modules of
publish_modules.py, placed at the publisher's address; the package metadata's BCS is
written out field by field here.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Final

import httpx
import pytest
from publish_modules import CAFE, at, counter_module, named, using

from ledgerkit.bcs import EntryFunction, RawTransaction, Serializer
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.vm.move import CompiledModule, write_module
from ledgerkit.types import Address

PUBLISH: Final = "0x1::code::publish_package_txn"
REGISTRY: Final = "0x1::code::PackageRegistry"
FRAMEWORK_DEP: Final = (Address.from_int(1), "AptosFramework")
NO_EXTENSION: Final = {"vec": []}


@dataclass
class Node:
    http: httpx.Client
    accounts: list[Any]
    chain_id: int


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> Iterator[Node]:
    running = make_node(seed=30, blocks=2, services=False)
    with httpx.Client(base_url=running.url, timeout=30.0) as http:
        chain_id = int(http.get("/").json()["chain_id"])
        yield Node(http, list(running.dev_accounts), chain_id)


# -- building and sending -------------------------------------------------------------------


def package_metadata(
    name: str,
    modules: list[str],
    *,
    policy: int = 1,
    deps: tuple[tuple[Address, str], ...] = (FRAMEWORK_DEP,),
    extension: tuple[str, bytes] | None = None,
) -> bytes:
    """The BCS of ``0x1::code::PackageMetadata`` (``extension``: a ``copyable_any::Any``'s
    type name and data)."""
    s = Serializer()
    s.string(name)
    s.u8(policy)  # UpgradePolicy { policy }
    s.u64(0)  # upgrade_number (assigned on chain)
    s.string("ABCD")  # source_digest
    s.var_bytes(b"\x1f\x8b")  # manifest
    s.uleb128(len(modules))
    for module in modules:
        s.string(module)
        s.var_bytes(b"")  # source
        s.var_bytes(b"")  # source_map
        s.u8(0)  # extension: none
    s.uleb128(len(deps))
    for account, package in deps:
        s.address(account)
        s.string(package)
    if extension is None:
        s.u8(0)
    else:
        s.u8(1)
        s.string(extension[0])
        s.var_bytes(extension[1])
    return s.output()


def module_at(account: Any, name: str, base: CompiledModule | None = None) -> CompiledModule:
    """The counter module (no friends) at ``account``'s address, named ``name``."""
    module = replace(base or counter_module(), friend_decls=())
    return named(at(module, bytes(account.address)), name)


def send(node: Node, account: Any, function: str, args: list[tuple[str, Any]]) -> dict[str, Any]:
    """Sign, submit (BCS) and wait for a call; the committed transaction's JSON."""
    http = node.http
    sequence = int(http.get(f"/accounts/{account.address}").json()["sequence_number"])
    payload = EntryFunction.build(function, [], args)
    expiry = int(time.time()) + 600  # blocks are made on the wall clock once users submit
    raw = RawTransaction(account.address, sequence, payload, 200_000, 100, expiry, node.chain_id)
    signed = raw.sign(account.private_key)
    response = http.post(
        "/transactions",
        content=signed.to_bcs(),
        headers={"Content-Type": "application/x.aptos.signed_transaction+bcs"},
    )
    assert response.status_code == 202, response.text
    txn_hash = response.json()["hash"]
    for _ in range(30):
        found: dict[str, Any] = http.get(f"/transactions/wait_by_hash/{txn_hash}").json()
        if found["type"] != "pending_transaction":
            return found
    raise AssertionError(f"{txn_hash} was not committed")


def publish(node: Node, account: Any, metadata: bytes, code: list[bytes]) -> dict[str, Any]:
    return send(node, account, PUBLISH, [("vector<u8>", metadata), ("vector<vector<u8>>", code)])


def registry(node: Node, address: Address) -> Any:
    response = node.http.get(f"/accounts/{address}/resource/{REGISTRY}")
    return response.json() if response.status_code == 200 else None


def package_json(name: str, modules: list[str], *, policy: int = 1, number: int = 0) -> Any:
    return {
        "name": name,
        "upgrade_policy": {"policy": policy},
        "upgrade_number": str(number),
        "source_digest": "ABCD",
        "manifest": "0x1f8b",
        "modules": [
            {"name": m, "source": "0x", "source_map": "0x", "extension": NO_EXTENSION}
            for m in modules
        ],
        "deps": [{"account": "0x1", "package_name": "AptosFramework"}],
        "extension": NO_EXTENSION,
    }


def code_abort(name: str, code: int, description: str) -> str:
    return f"Move abort in 0x1::code: {name}({code:#x}): {description}"


# -- publishing -----------------------------------------------------------------------------


def test_a_published_module_is_served_with_its_abi(node: Node) -> None:
    alice = node.accounts[0]
    module = module_at(alice, "counter")
    code = write_module(module)
    txn = publish(node, alice, package_metadata("Counter", ["counter"]), [code])
    assert txn["success"], txn["vm_status"]
    me = alice.address.standard

    events = [e for e in txn["events"] if e["type"] == "0x1::code::PublishPackage"]
    assert [e["data"] for e in events] == [{"code_address": me, "is_upgrade": False}]
    written = [c for c in txn["changes"] if c["type"] == "write_module"]
    assert [c["address"] for c in written] == [me]

    served = node.http.get(f"/accounts/{me}/module/counter").json()
    assert served["bytecode"] == "0x" + code.hex()
    assert written[0]["data"] == served
    abi = served["abi"]
    assert (abi["address"], abi["name"], abi["friends"]) == (me, "counter", [])
    assert [
        (f["name"], f["visibility"], f["is_entry"], f["is_view"], f["params"], f["return"])
        for f in abi["exposed_functions"]
    ] == [
        ("bump", "private", True, False, ["&signer", "u64"], []),
        ("get", "public", False, True, ["address"], ["u64"]),
        ("adjust", "friend", False, False, [f"&mut {me}::counter::Counter"], []),
        ("peek", "private", False, True, ["vector<T0>"], ["T0"]),
    ]
    assert abi["structs"][1] == {
        "name": "Box",
        "is_native": False,
        "is_event": False,
        "is_enum": False,
        "abilities": ["copy", "drop", "store"],
        "generic_type_params": [{"constraints": ["store"]}, {"constraints": ["copy", "drop"]}],
        "fields": [
            {"name": "item", "type": "T1"},
            {"name": "tags", "type": "vector<0x1::string::String>"},
        ],
        "variants": [],
    }
    # The account's modules, and the module in BCS: its bytecode.
    listed = node.http.get(f"/accounts/{me}/modules").json()
    assert served in listed
    as_bcs = node.http.get(
        f"/accounts/{me}/module/counter", headers={"Accept": "application/x-bcs"}
    )
    assert as_bcs.content == code
    packages = registry(node, alice.address)["data"]["packages"]
    assert [p for p in packages if p["name"] == "Counter"] == [package_json("Counter", ["counter"])]


def test_a_compatible_upgrade_counts_up_and_an_incompatible_one_fails(node: Node) -> None:
    bob = node.accounts[1]
    module = module_at(bob, "tally")
    metadata = package_metadata("Tally", ["tally"])
    assert publish(node, bob, metadata, [write_module(module)])["success"]
    again = publish(node, bob, metadata, [write_module(module)])
    assert again["success"], again["vm_status"]
    events = [e["data"] for e in again["events"] if e["type"] == "0x1::code::PublishPackage"]
    assert events == [{"code_address": bob.address.standard, "is_upgrade": True}]
    assert registry(node, bob.address)["data"]["packages"] == [
        package_json("Tally", ["tally"], number=1)
    ]
    # Without its entry function `bump`: refused, the registry unchanged.
    smaller = replace(module, function_defs=module.function_defs[1:])
    failed = publish(node, bob, metadata, [write_module(smaller)])
    assert not failed["success"]
    assert failed["vm_status"] == "BACKWARD_INCOMPATIBLE_MODULE_UPDATE"
    assert registry(node, bob.address)["data"]["packages"][0]["upgrade_number"] == "1"
    served = node.http.get(f"/accounts/{bob.address}/module/tally").json()
    assert served["bytecode"] == "0x" + write_module(module).hex()


def test_an_immutable_package_is_never_upgraded(node: Node) -> None:
    carol = node.accounts[2]
    code = [write_module(module_at(carol, "frozen"))]
    metadata = package_metadata("Frozen", ["frozen"], policy=2)
    assert publish(node, carol, metadata, code)["success"]
    failed = publish(node, carol, metadata, code)
    assert failed["vm_status"] == code_abort(
        "EUPGRADE_IMMUTABLE", 0x10002, "The package is immutable: it cannot be upgraded"
    )


def test_a_package_extension_is_kept_as_an_option_of_any(node: Node) -> None:
    henry = node.accounts[7]
    code = [write_module(module_at(henry, "extended"))]
    metadata = package_metadata("Extended", ["extended"], extension=("0x1::x::Y", b"\x01\x02"))
    assert publish(node, henry, metadata, code)["success"]
    (package,) = [
        p for p in registry(node, henry.address)["data"]["packages"] if p["name"] == "Extended"
    ]
    assert package["extension"] == {"vec": [{"type_name": "0x1::x::Y", "data": "0x0102"}]}


def test_the_arbitrary_policy_is_refused(node: Node) -> None:
    dave = node.accounts[3]
    code = [write_module(module_at(dave, "loose"))]
    failed = publish(node, dave, package_metadata("Loose", ["loose"], policy=0), code)
    assert failed["vm_status"] == code_abort(
        "EINCOMPATIBLE_POLICY_DISABLED", 0x10008, "The arbitrary upgrade policy cannot be used"
    )
    assert registry(node, dave.address) is None


def test_module_names_and_upgrades_keep_to_their_packages(node: Node) -> None:
    erin = node.accounts[4]
    first = [write_module(module_at(erin, "shared"))]
    assert publish(node, erin, package_metadata("First", ["shared"]), first)["success"]
    clash = publish(node, erin, package_metadata("Second", ["shared"]), first)
    assert clash["vm_status"] == code_abort(
        "EMODULE_NAME_CLASH",
        0x80001,
        "A module of the package is published by another package here",
    )
    # An upgrade of First that drops its module `shared`.
    other = [write_module(module_at(erin, "other"))]
    missing = publish(node, erin, package_metadata("First", ["other"]), other)
    assert missing["vm_status"] == code_abort(
        "EMODULE_MISSING", 0x4, "An upgrade must keep every module of the package"
    )


def test_dependencies_must_be_published_packages_of_a_policy_as_strong(node: Node) -> None:
    frank, grace = node.accounts[5], node.accounts[6]
    code = [write_module(module_at(frank, "needs"))]
    nowhere = package_metadata("Needs", ["needs"], deps=(FRAMEWORK_DEP, (grace.address, "Lib")))
    assert publish(node, frank, nowhere, code)["vm_status"] == code_abort(
        "EPACKAGE_DEP_MISSING", 0x60005, "A dependency is not a package published at its address"
    )
    lib = [write_module(module_at(grace, "lib"))]
    assert publish(node, grace, package_metadata("Lib", ["lib"]), lib)["success"]
    stronger = package_metadata(
        "Needs", ["needs"], policy=2, deps=(FRAMEWORK_DEP, (grace.address, "Lib"))
    )
    assert publish(node, frank, stronger, code)["vm_status"] == code_abort(
        "EDEP_WEAKER_POLICY", 0x10006, "A dependency's upgrade policy is weaker than the package's"
    )
    # A module using grace's `lib` links once its package is a dependency.
    user = using(module_at(frank, "user"), bytes(grace.address), "lib")
    undeclared = publish(node, frank, package_metadata("User", ["user"]), [write_module(user)])
    assert undeclared["vm_status"] == "CONSTRAINT_NOT_SATISFIED"
    declared = package_metadata("User", ["user"], deps=(FRAMEWORK_DEP, (grace.address, "Lib")))
    assert publish(node, frank, declared, [write_module(user)])["success"]


def test_the_vm_refuses_bundles_that_do_not_fit(node: Node) -> None:
    henry = node.accounts[7]
    mine = write_module(module_at(henry, "mine"))
    metadata = package_metadata("Mine", ["mine"])
    statuses = {
        "bytes": publish(node, henry, metadata, [b"\xa1\x1c\xeb\x0b\x07"])["vm_status"],
        "address": publish(
            node, henry, metadata, [write_module(at(module_at(henry, "mine"), CAFE))]
        )["vm_status"],
        "linker": publish(
            node, henry, metadata, [write_module(using(module_at(henry, "mine"), CAFE, "gone"))]
        )["vm_status"],
        "names": publish(node, henry, package_metadata("Mine", ["yours"]), [mine])["vm_status"],
        "metadata": publish(node, henry, b"\x01", [mine])["vm_status"],
    }
    assert statuses == {
        "bytes": "CODE_DESERIALIZATION_ERROR",
        "address": "MODULE_ADDRESS_DOES_NOT_MATCH_SENDER",
        "linker": "LINKER_ERROR",
        "names": "CONSTRAINT_NOT_SATISFIED",
        "metadata": "Move abort in 0x1::util: 0x1c5",
    }
    found = registry(node, henry.address)
    assert found is None or "Mine" not in [p["name"] for p in found["data"]["packages"]]


def test_published_code_runs_as_soon_as_it_is_published(node: Node) -> None:
    alice = node.accounts[0]
    module = module_at(alice, "runs")
    assert publish(node, alice, package_metadata("Runs", ["runs"]), [write_module(module)])[
        "success"
    ]
    # bump's body returns at once; secret is neither entry nor public.
    called = send(node, alice, f"{alice.address}::runs::bump", [("u64", 1)])
    assert (called["success"], called["vm_status"]) == (True, "Executed successfully")
    secret = send(node, alice, f"{alice.address}::runs::secret", [])
    assert secret["vm_status"] == "EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION"


def test_a_package_published_to_a_new_code_object(node: Node) -> None:
    grace = node.accounts[6]
    sequence = int(node.http.get(f"/accounts/{grace.address}").json()["sequence_number"])
    # The object's address: SHA3-256(publisher ‖ seed ‖ 0xFE), the seed being the BCS of
    # b"aptos_framework::object_code_deployment" then the BCS of u64 sequence + 1.
    domain = b"aptos_framework::object_code_deployment"
    seed = bytes([len(domain)]) + domain + (sequence + 1).to_bytes(8, "little")
    digest = hashlib.sha3_256(bytes(grace.address) + seed + b"\xfe").digest()
    obj = Address(digest)
    module = named(at(replace(counter_module(), friend_decls=()), digest), "objmod")
    txn = send(
        node,
        grace,
        "0x1::object_code_deployment::publish",
        [
            ("vector<u8>", package_metadata("InObject", ["objmod"])),
            ("vector<vector<u8>>", [write_module(module)]),
        ],
    )
    assert txn["success"], txn["vm_status"]
    assert [e["data"] for e in txn["events"] if "object_code_deployment" in e["type"]] == [
        {"object_address": obj.standard}
    ]
    resources = {r["type"]: r["data"] for r in node.http.get(f"/accounts/{obj}/resources").json()}
    assert resources["0x1::object::ObjectCore"]["owner"] == grace.address.standard
    assert resources["0x1::object_code_deployment::ManagingRefs"] == {
        "extend_ref": {"self": obj.standard}
    }
    assert resources[REGISTRY]["packages"] == [package_json("InObject", ["objmod"])]
    served = node.http.get(f"/accounts/{obj}/module/objmod").json()
    assert served["abi"]["address"] == obj.standard
