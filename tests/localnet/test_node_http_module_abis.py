"""Module ABIs as nodes serve them: the ``FeeStatement`` event struct of
``0x1::transaction_fee``, the struct fields of the reference schema (``is_event``,
``is_enum``, ``variants``), and which functions a node exposes."""

from __future__ import annotations

import json

import httpx
from node_http_helpers import ok

from ledgerkit.localnet.vm.framework import FunctionSpec, ModuleSpec, StructSpec
from ledgerkit.models import decode_module

#: MoveStruct's required fields in the reference schema, MoveFunction's likewise.
STRUCT_KEYS = [
    "name",
    "is_native",
    "is_event",
    "is_enum",
    "abilities",
    "generic_type_params",
    "fields",
    "variants",
]
FUNCTION_KEYS = [
    "name",
    "visibility",
    "is_entry",
    "is_view",
    "generic_type_params",
    "params",
    "return",
]


def test_transaction_fee_declares_the_fee_statement_event(http: httpx.Client) -> None:
    module = ok(http.get("/accounts/0x1/module/transaction_fee"))["abi"]
    structs = {s["name"]: s for s in module["structs"]}
    assert structs["FeeStatement"] == {
        "name": "FeeStatement",
        "is_native": False,
        "is_event": True,
        "is_enum": False,
        "abilities": ["drop", "store"],
        "generic_type_params": [],
        "fields": [
            {"name": "total_charge_gas_units", "type": "u64"},
            {"name": "execution_gas_units", "type": "u64"},
            {"name": "io_gas_units", "type": "u64"},
            {"name": "storage_fee_octas", "type": "u64"},
            {"name": "storage_fee_refund_octas", "type": "u64"},
        ],
        "variants": [],
    }


def test_every_struct_and_function_has_the_reference_schemas_fields(http: httpx.Client) -> None:
    for name in ("transaction_fee", "fungible_asset", "account", "object"):
        module = ok(http.get(f"/accounts/0x1/module/{name}"))["abi"]
        assert all(list(s) == STRUCT_KEYS for s in module["structs"]), name
        assert all(list(f) == FUNCTION_KEYS for f in module["exposed_functions"]), name


def test_a_node_exposes_public_friend_and_entry_functions_only() -> None:
    # As aptos-core's own API test (pack_abi): a private entry function is exposed, a
    # private function that is not an entry is not, even marked #[view].
    spec = ModuleSpec(
        "exposure",
        functions=(
            FunctionSpec("public_function", ("u64",)),
            FunctionSpec("friend_function", visibility="friend"),
            FunctionSpec("private_entry_function", ("&signer",), entry=True, visibility="private"),
            FunctionSpec("private_view", (), ("u64",), view=True, visibility="private"),
            FunctionSpec("private_function", visibility="private"),
        ),
        structs=(StructSpec("State", ("key",), (("value", "u64"),)),),
    )
    names = [f["name"] for f in spec.abi()["exposed_functions"]]
    assert names == ["public_function", "friend_function", "private_entry_function"]


def test_the_client_reads_abis_with_and_without_the_newer_struct_fields() -> None:
    newer = {
        "address": "0x1",
        "name": "m",
        "friends": [],
        "exposed_functions": [],
        "structs": [
            {
                "name": "E",
                "is_native": False,
                "is_event": False,
                "is_enum": True,
                "abilities": ["drop"],
                "generic_type_params": [],
                "fields": [],
                "variants": [{"name": "V1", "fields": [{"name": "x", "type": "u64"}]}],
            }
        ],
    }
    older = {
        **newer,
        "structs": [
            {"name": "S", "is_native": False, "abilities": [], "generic_type_params": [],
             "fields": [{"name": "x", "type": "u64"}]}
        ],
    }  # fmt: skip
    (enum,) = decode_module(json.dumps({"bytecode": "0x00", "abi": newer}).encode()).abi.structs
    assert (enum.is_enum, [v.name for v in enum.variants]) == (True, ["V1"])
    (plain,) = decode_module(json.dumps({"bytecode": "0x00", "abi": older}).encode()).abi.structs
    assert (plain.is_event, plain.is_enum, plain.variants) == (False, False, [])
