"""The public functions Move code calls into the framework: each declared one has a body
and each body a declaration, and the node's module ABIs list them as aptos-core's Move
sources declare them (public, not entry, not view; parameter and return types)."""

from __future__ import annotations

import httpx
import pytest
from node_http_helpers import ok

from ledgerkit.localnet.vm.framework import FRAMEWORK
from ledgerkit.localnet.vm.framework._context import NATIVES
from ledgerkit.types import Address

CTOR = "&0x1::object::ConstructorRef"
OBJ = "0x1::object::Object<T0>"
KEY = [{"constraints": ["key"]}]
EV = [{"constraints": ["drop", "store"]}]
ANY = [{"constraints": []}]
HANDLE = "0x1::event::EventHandle<T0>"

#: name -> (params, return, generic parameters), read off the Move sources.
OBJECT = {
    "address_from_constructor_ref": ([CTOR], ["address"], []),
    "address_from_delete_ref": (["&0x1::object::DeleteRef"], ["address"], []),
    "address_from_extend_ref": (["&0x1::object::ExtendRef"], ["address"], []),
    "address_to_object": (["address"], [OBJ], KEY),
    "can_generate_delete_ref": ([CTOR], ["bool"], []),
    "convert": ([OBJ], ["0x1::object::Object<T1>"], KEY + KEY),
    "create_guid": (["&signer"], ["0x1::guid::GUID"], []),
    "create_guid_object_address": (["address", "u64"], ["address"], []),
    "create_named_object": (["&signer", "vector<u8>"], ["0x1::object::ConstructorRef"], []),
    "create_object": (["address"], ["0x1::object::ConstructorRef"], []),
    "create_object_address": (["&address", "vector<u8>"], ["address"], []),
    "create_object_from_account": (["&signer"], ["0x1::object::ConstructorRef"], []),
    "create_object_from_object": (["&signer"], ["0x1::object::ConstructorRef"], []),
    "create_sticky_object": (["address"], ["0x1::object::ConstructorRef"], []),
    "create_user_derived_object_address": (["address", "address"], ["address"], []),
    "delete": (["0x1::object::DeleteRef"], [], []),
    "disable_ungated_transfer": (["&0x1::object::TransferRef"], [], []),
    "enable_ungated_transfer": (["&0x1::object::TransferRef"], [], []),
    "generate_delete_ref": ([CTOR], ["0x1::object::DeleteRef"], []),
    "generate_derive_ref": ([CTOR], ["0x1::object::DeriveRef"], []),
    "generate_extend_ref": ([CTOR], ["0x1::object::ExtendRef"], []),
    "generate_linear_transfer_ref": (
        ["&0x1::object::TransferRef"],
        ["0x1::object::LinearTransferRef"],
        [],
    ),
    "generate_signer": ([CTOR], ["signer"], []),
    "generate_signer_for_extending": (["&0x1::object::ExtendRef"], ["signer"], []),
    "generate_transfer_ref": ([CTOR], ["0x1::object::TransferRef"], []),
    "is_object": (["address"], ["bool"], []),
    "new_event_handle": (["&signer"], [HANDLE], EV),
    "object_address": (["&" + OBJ], ["address"], KEY),
    "object_exists": (["address"], ["bool"], KEY),
    "object_from_constructor_ref": ([CTOR], [OBJ], KEY),
    "object_from_delete_ref": (["&0x1::object::DeleteRef"], [OBJ], KEY),
    "set_untransferable": ([CTOR], [], []),
    "transfer_raw": (["&signer", "address", "address"], [], []),
    "transfer_with_constructor_ref": ([CTOR, "address"], [], []),
    "transfer_with_ref": (["0x1::object::LinearTransferRef", "address"], [], []),
    "ungated_transfer_allowed": ([OBJ], ["bool"], KEY),
}
ACCOUNT = {
    "create_guid": (["&signer"], ["0x1::guid::GUID"], []),
    "create_resource_account": (
        ["&signer", "vector<u8>"],
        ["signer", "0x1::account::SignerCapability"],
        [],
    ),
    "create_resource_address": (["&address", "vector<u8>"], ["address"], []),
    "create_signer_with_capability": (["&0x1::account::SignerCapability"], ["signer"], []),
    "get_signer_capability_address": (["&0x1::account::SignerCapability"], ["address"], []),
    "new_event_handle": (["&signer"], [HANDLE], EV),
}
EVENT = {
    "counter": (["&" + HANDLE], ["u64"], EV),
    "emit_event": (["&mut " + HANDLE, "T0"], [], EV),
    "guid": (["&" + HANDLE], ["&0x1::guid::GUID"], EV),
}
GUID = {
    "create_id": (["address", "u64"], ["0x1::guid::ID"], []),
    "creation_num": (["&0x1::guid::GUID"], ["u64"], []),
    "creator_address": (["&0x1::guid::GUID"], ["address"], []),
    "eq_id": (["&0x1::guid::GUID", "&0x1::guid::ID"], ["bool"], []),
    "id": (["&0x1::guid::GUID"], ["0x1::guid::ID"], []),
    "id_creation_num": (["&0x1::guid::ID"], ["u64"], []),
    "id_creator_address": (["&0x1::guid::ID"], ["address"], []),
}
TYPE_INFO = {
    "account_address": (["&0x1::type_info::TypeInfo"], ["address"], []),
    "chain_id": ([], ["u8"], []),
    "module_name": (["&0x1::type_info::TypeInfo"], ["vector<u8>"], []),
    "struct_name": (["&0x1::type_info::TypeInfo"], ["vector<u8>"], []),
    "type_name": ([], ["0x1::string::String"], ANY),
    "type_of": ([], ["0x1::type_info::TypeInfo"], ANY),
}
TRANSACTION_CONTEXT = {
    "auid_address": (["&0x1::transaction_context::AUID"], ["address"], []),
    "chain_id": ([], ["u8"], []),
    "generate_auid": ([], ["0x1::transaction_context::AUID"], []),
    "generate_auid_address": ([], ["address"], []),
    "get_transaction_hash": ([], ["vector<u8>"], []),
    "is_orderless_txn": ([], ["bool"], []),
    "secondary_signers": ([], ["vector<address>"], []),
    "sender": ([], ["address"], []),
}
MODULES = {
    "object": OBJECT,
    "account": ACCOUNT,
    "event": EVENT,
    "guid": GUID,
    "type_info": TYPE_INFO,
    "transaction_context": TRANSACTION_CONTEXT,
}


@pytest.mark.parametrize("module", [*MODULES, "timestamp"])
def test_every_declared_function_has_a_body_and_every_body_a_declaration(module: str) -> None:
    spec = FRAMEWORK.module(module)
    assert spec is not None
    declared = {f.name for f in spec.functions}
    bodies = {name for (at, mod, name) in NATIVES if at == Address.from_int(1) and mod == module}
    assert declared == bodies


@pytest.mark.parametrize("module", MODULES)
def test_the_abi_lists_them_public_and_not_entry(http: httpx.Client, module: str) -> None:
    abi = ok(http.get(f"/accounts/0x1/module/{module}"))["abi"]
    served = {f["name"]: f for f in abi["exposed_functions"]}
    for name, (params, returns, generics) in MODULES[module].items():
        assert served[name] == {
            "name": name,
            "visibility": "public",
            "is_entry": False,
            "is_view": False,
            "generic_type_params": generics,
            "params": params,
            "return": returns,
        }
    names = [f["name"] for f in abi["exposed_functions"]]
    assert names == sorted(names)


def test_create_user_derived_object_is_a_friend_function(http: httpx.Client) -> None:
    abi = ok(http.get("/accounts/0x1/module/object"))["abi"]
    (function,) = [f for f in abi["exposed_functions"] if f["name"] == "create_user_derived_object"]
    assert function["visibility"] == "friend"
    assert function["params"] == ["address", "&0x1::object::DeriveRef"]
    assert function["return"] == ["0x1::object::ConstructorRef"]


def test_the_transaction_context_module_declares_auid(http: httpx.Client) -> None:
    abi = ok(http.get("/accounts/0x1/module/transaction_context"))["abi"]
    assert abi["structs"] == [
        {
            "name": "AUID",
            "is_native": False,
            "is_event": False,
            "is_enum": False,
            "abilities": ["drop", "store"],
            "generic_type_params": [],
            "fields": [{"name": "unique_address", "type": "address"}],
            "variants": [],
        }
    ]
