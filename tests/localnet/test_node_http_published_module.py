"""A package published on the node fits the reference OpenAPI document: the module
endpoints' answers (bytecode and the ABI derived from it), the ``PackageRegistry``
resource and the publishing transaction with its ``write_module`` change.

The module is written with the node's binary format writer::

    module <publisher>::vault {
        struct Vault<phantom T0: store> has key { amount: u64, owner: address }
        public entry fun open(s: &signer, amount: u64) { ... }
        public fun amount<T0: store>(v: &Vault<T0>): u64 { ... }
    }
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from node_http_helpers import run
from test_node_reference_schemas import check, load_reference

from ledgerkit.bcs import Serializer
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.vm.move import (
    ABILITY_KEY,
    ABILITY_STORE,
    VISIBILITY_PUBLIC,
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
    StructTypeParameter,
    write_module,
)

RET = CodeUnit(0, (Instruction(Op.RET),))


def vault_module(address: bytes) -> bytes:
    return write_module(
        CompiledModule(
            version=7,
            self_handle=0,
            module_handles=(ModuleHandle(0, 0),),
            struct_handles=(
                StructHandle(0, 1, ABILITY_KEY, (StructTypeParameter(ABILITY_STORE, True),)),
            ),
            function_handles=(
                FunctionHandle(0, 4, 1, 0),
                FunctionHandle(0, 5, 2, 3, (ABILITY_STORE,)),
            ),
            signatures=(
                (),
                (("ref", ("signer",)), ("u64",)),
                (("ref", ("struct_inst", 0, (("tparam", 0),))),),
                (("u64",),),
            ),
            identifiers=("vault", "Vault", "amount_", "owner", "open", "amount"),
            address_identifiers=(address,),
            struct_defs=(
                StructDefinition(
                    0, (FieldDefinition(2, ("u64",)), FieldDefinition(3, ("address",)))
                ),
            ),
            function_defs=(
                FunctionDefinition(0, VISIBILITY_PUBLIC, True, (), RET),
                FunctionDefinition(1, VISIBILITY_PUBLIC, False, (), RET),
            ),
        )
    )


def vault_package() -> bytes:
    """The BCS of ``PackageMetadata``: package Vault (compatible), module vault."""
    s = Serializer()
    s.string("Vault")
    s.u8(1)
    s.u64(0)
    s.string("")
    s.var_bytes(b"")
    s.uleb128(1)
    s.string("vault")
    s.var_bytes(b"")
    s.var_bytes(b"")
    s.u8(0)
    s.uleb128(0)
    s.u8(0)
    return s.output()


@pytest.fixture(scope="module")
def published(make_node: Any) -> Any:
    node: LocalNode = make_node(seed=31, blocks=2, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        owner = node.dev_accounts[0]
        args = [
            ("vector<u8>", vault_package()),
            ("vector<vector<u8>>", [vault_module(bytes(owner.address))]),
        ]
        txn = run(http, owner, "0x1::code::publish_package_txn", args)
        yield http, owner.address, txn


def test_the_published_package_fits_the_reference(published: Any) -> None:
    http, address, txn = published
    assert txn["success"], txn["vm_status"]
    reference = load_reference()
    answers = [
        ("/accounts/{address}/modules", http.get(f"/accounts/{address}/modules")),
        ("/accounts/{address}/module/{module_name}", http.get(f"/accounts/{address}/module/vault")),
        (
            "/accounts/{address}/resource/{resource_type}",
            http.get(f"/accounts/{address}/resource/0x1::code::PackageRegistry"),
        ),
        ("/transactions/by_hash/{txn_hash}", http.get(f"/transactions/by_hash/{txn['hash']}")),
    ]
    problems = [p for path, answer in answers for p in check(reference, path, "get", answer)]
    assert problems == []
    abi = answers[1][1].json()["abi"]
    assert abi["structs"][0]["generic_type_params"] == [{"constraints": ["store"]}]
    assert abi["exposed_functions"][1]["params"] == [f"&{address.standard}::vault::Vault<T0>"]
