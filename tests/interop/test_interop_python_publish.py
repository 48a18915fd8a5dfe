"""The official Python SDK's ``PackagePublisher`` publishes a Move package to the embedded
node (``0x1::code::publish_package_txn``), and its client reads the module back with its
ABI and the package registry. The module is written with the node's binary format writer:

    module <publisher>::hello {
        struct Note has key { value: u64 }
        entry fun set(s: &signer, value: u64) { ... }
    }
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ClientConfig, RestClient
from aptos_sdk.package_publisher import PackagePublisher

from ledgerkit.bcs import Serializer
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.vm.move import (
    ABILITY_KEY,
    VISIBILITY_PRIVATE,
    CodeUnit,
    CompiledModule,
    FieldDefinition,
    FunctionDefinition,
    FunctionHandle,
    Instruction,
    ModuleHandle,
    Op,
    StructDefinition,
    StructHandle,
    write_module,
)

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def publish_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of this module's own: its publisher's account is spent by nobody else."""
    return make_node(seed=30, blocks=2, services=False)


def hello_module(address: bytes) -> bytes:
    module = CompiledModule(
        version=6,
        self_handle=0,
        module_handles=(ModuleHandle(0, 0),),
        struct_handles=(StructHandle(0, 1, ABILITY_KEY),),
        function_handles=(FunctionHandle(0, 3, 1, 0),),
        signatures=((), (("ref", ("signer",)), ("u64",))),
        identifiers=("hello", "Note", "value", "set"),
        address_identifiers=(address,),
        struct_defs=(StructDefinition(0, (FieldDefinition(2, ("u64",)),)),),
        function_defs=(
            FunctionDefinition(
                0, VISIBILITY_PRIVATE, True, (), CodeUnit(0, (Instruction(Op.RET),))
            ),
        ),
    )
    return write_module(module)


def package_metadata() -> bytes:
    """The BCS of ``0x1::code::PackageMetadata``: package Hello, compatible, module hello."""
    s = Serializer()
    s.string("Hello")
    s.u8(1)
    s.u64(0)
    s.string("")
    s.var_bytes(b"")
    s.uleb128(1)
    s.string("hello")
    s.var_bytes(b"")
    s.var_bytes(b"")
    s.u8(0)
    s.uleb128(0)  # no dependencies
    s.u8(0)
    return s.output()


def test_the_sdk_publishes_a_package(publish_node: LocalNode) -> None:
    dev = publish_node.dev_accounts[0]
    key = ed25519.PrivateKey.from_str(dev.private_key.secret_hex())
    account = Account(AccountAddress.from_key(key.public_key()), key)
    code = hello_module(bytes(dev.address))

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        rest = RestClient(publish_node.url, ClientConfig())
        try:
            txn_hash = await PackagePublisher(rest).publish_package(
                account, package_metadata(), [code]
            )
            await rest.wait_for_transaction(txn_hash)
            txn = await rest.transaction_by_hash(txn_hash)
            module = await rest.account_module(account.address(), "hello")
            registry = await rest.account_resource(account.address(), "0x1::code::PackageRegistry")
            return txn, module, registry
        finally:
            await rest.close()

    txn, module, registry = asyncio.run(scenario())
    assert txn["success"], txn["vm_status"]
    assert module["bytecode"] == "0x" + code.hex()
    me = dev.address.standard
    assert module["abi"] == {
        "address": me,
        "name": "hello",
        "friends": [],
        "exposed_functions": [
            {
                "name": "set",
                "visibility": "private",
                "is_entry": True,
                "is_view": False,
                "generic_type_params": [],
                "params": ["&signer", "u64"],
                "return": [],
            }
        ],
        "structs": [
            {
                "name": "Note",
                "is_native": False,
                "is_event": False,
                "is_enum": False,
                "abilities": ["key"],
                "generic_type_params": [],
                "fields": [{"name": "value", "type": "u64"}],
                "variants": [],
            }
        ],
    }
    (package,) = registry["data"]["packages"]
    assert (package["name"], package["upgrade_policy"], package["upgrade_number"]) == (
        "Hello",
        {"policy": 1},
        "0",
    )
    assert [m["name"] for m in package["modules"]] == ["hello"]
