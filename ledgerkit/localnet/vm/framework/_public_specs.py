"""Public non-entry functions of ``object``, ``account``, ``event``, ``guid``,
``type_info`` and ``transaction_context``, declared: what published Move code calls into
the framework.

Signatures are those of the Aptos framework's Move sources (parameter and return types
as the API renders them, ``T0`` for the first generic); the bodies are in
:mod:`._object_refs` and :mod:`._account_public`. Each module's function list is merged
into its declaration with :func:`merged`, which keeps the ABI in name order as a node's
normalized module lists it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec

__all__ = [
    "ACCOUNT_PUBLIC",
    "EVENT_PUBLIC",
    "GUID_PUBLIC",
    "OBJECT_PUBLIC",
    "TRANSACTION_CONTEXT",
    "TYPE_INFO_PUBLIC",
    "merged",
]

_KEYED: Final = (("key",),)
_EVENT_T: Final = (("drop", "store"),)
_CTOR: Final = "&0x1::object::ConstructorRef"
_OBJECT: Final = "0x1::object::Object<T0>"
_HANDLE: Final = "0x1::event::EventHandle<T0>"


def _f(
    name: str,
    params: tuple[str, ...],
    returns: tuple[str, ...] = (),
    generics: tuple[tuple[str, ...], ...] = (),
    visibility: str = "public",
) -> FunctionSpec:
    return FunctionSpec(name, params, returns, generics, visibility=visibility)


def merged(extra: Iterable[FunctionSpec], *base: FunctionSpec) -> tuple[FunctionSpec, ...]:
    """``base`` and ``extra`` in name order (a name declared twice is a mistake here)."""
    functions = (*base, *extra)
    names = [f.name for f in functions]
    if len(set(names)) != len(names):
        raise ValueError(f"a function is declared twice: {sorted(names)}")
    return tuple(sorted(functions, key=lambda f: f.name))


OBJECT_PUBLIC: Final = (
    _f("address_from_constructor_ref", (_CTOR,), ("address",)),
    _f("address_from_delete_ref", ("&0x1::object::DeleteRef",), ("address",)),
    _f("address_from_extend_ref", ("&0x1::object::ExtendRef",), ("address",)),
    _f("address_to_object", ("address",), (_OBJECT,), _KEYED),
    _f("can_generate_delete_ref", (_CTOR,), ("bool",)),
    _f("convert", (_OBJECT,), ("0x1::object::Object<T1>",), (("key",), ("key",))),
    _f("create_guid", ("&signer",), ("0x1::guid::GUID",)),
    _f("create_guid_object_address", ("address", "u64"), ("address",)),
    _f("create_named_object", ("&signer", "vector<u8>"), ("0x1::object::ConstructorRef",)),
    _f("create_object", ("address",), ("0x1::object::ConstructorRef",)),
    _f("create_object_address", ("&address", "vector<u8>"), ("address",)),
    _f("create_object_from_account", ("&signer",), ("0x1::object::ConstructorRef",)),
    _f("create_object_from_object", ("&signer",), ("0x1::object::ConstructorRef",)),
    _f("create_sticky_object", ("address",), ("0x1::object::ConstructorRef",)),
    _f(
        "create_user_derived_object",
        ("address", "&0x1::object::DeriveRef"),
        ("0x1::object::ConstructorRef",),
        visibility="friend",
    ),
    _f("create_user_derived_object_address", ("address", "address"), ("address",)),
    _f("delete", ("0x1::object::DeleteRef",)),
    _f("disable_ungated_transfer", ("&0x1::object::TransferRef",)),
    _f("enable_ungated_transfer", ("&0x1::object::TransferRef",)),
    _f("generate_delete_ref", (_CTOR,), ("0x1::object::DeleteRef",)),
    _f("generate_derive_ref", (_CTOR,), ("0x1::object::DeriveRef",)),
    _f("generate_extend_ref", (_CTOR,), ("0x1::object::ExtendRef",)),
    _f(
        "generate_linear_transfer_ref",
        ("&0x1::object::TransferRef",),
        ("0x1::object::LinearTransferRef",),
    ),
    _f("generate_signer", (_CTOR,), ("signer",)),
    _f("generate_signer_for_extending", ("&0x1::object::ExtendRef",), ("signer",)),
    _f("generate_transfer_ref", (_CTOR,), ("0x1::object::TransferRef",)),
    _f("new_event_handle", ("&signer",), (_HANDLE,), _EVENT_T),
    _f("object_address", ("&" + _OBJECT,), ("address",), _KEYED),
    _f("object_exists", ("address",), ("bool",), _KEYED),
    _f("object_from_constructor_ref", (_CTOR,), (_OBJECT,), _KEYED),
    _f("object_from_delete_ref", ("&0x1::object::DeleteRef",), (_OBJECT,), _KEYED),
    _f("set_untransferable", (_CTOR,)),
    _f("transfer_raw", ("&signer", "address", "address")),
    _f("transfer_with_constructor_ref", (_CTOR, "address")),
    _f("transfer_with_ref", ("0x1::object::LinearTransferRef", "address")),
    _f("ungated_transfer_allowed", (_OBJECT,), ("bool",), _KEYED),
)

ACCOUNT_PUBLIC: Final = (
    _f("create_guid", ("&signer",), ("0x1::guid::GUID",)),
    _f(
        "create_resource_account",
        ("&signer", "vector<u8>"),
        ("signer", "0x1::account::SignerCapability"),
    ),
    _f("create_resource_address", ("&address", "vector<u8>"), ("address",)),
    _f("create_signer_with_capability", ("&0x1::account::SignerCapability",), ("signer",)),
    _f("get_signer_capability_address", ("&0x1::account::SignerCapability",), ("address",)),
    _f("new_event_handle", ("&signer",), (_HANDLE,), _EVENT_T),
)

EVENT_PUBLIC: Final = (
    _f("emit_event", ("&mut " + _HANDLE, "T0"), (), _EVENT_T),
    _f("guid", ("&" + _HANDLE,), ("&0x1::guid::GUID",), _EVENT_T),
)

_GUID: Final = "&0x1::guid::GUID"
_ID: Final = "&0x1::guid::ID"
GUID_PUBLIC: Final = (
    _f("create_id", ("address", "u64"), ("0x1::guid::ID",)),
    _f("creator_address", (_GUID,), ("address",)),
    _f("eq_id", (_GUID, _ID), ("bool",)),
    _f("id", (_GUID,), ("0x1::guid::ID",)),
    _f("id_creation_num", (_ID,), ("u64",)),
    _f("id_creator_address", (_ID,), ("address",)),
)

TYPE_INFO_PUBLIC: Final = (
    _f("account_address", ("&0x1::type_info::TypeInfo",), ("address",)),
    _f("chain_id", (), ("u8",)),
    _f("module_name", ("&0x1::type_info::TypeInfo",), ("vector<u8>",)),
    _f("struct_name", ("&0x1::type_info::TypeInfo",), ("vector<u8>",)),
    _f("type_name", (), ("0x1::string::String",), ((),)),
    _f("type_of", (), ("0x1::type_info::TypeInfo",), ((),)),
)

TRANSACTION_CONTEXT: Final = ModuleSpec(
    "transaction_context",
    structs=(StructSpec("AUID", ("drop", "store"), (("unique_address", "address"),)),),
    functions=(
        _f("auid_address", ("&0x1::transaction_context::AUID",), ("address",)),
        _f("chain_id", (), ("u8",)),
        _f("generate_auid", (), ("0x1::transaction_context::AUID",)),
        _f("generate_auid_address", (), ("address",)),
        _f("get_transaction_hash", (), ("vector<u8>",)),
        _f("is_orderless_txn", (), ("bool",)),
        _f("secondary_signers", (), ("vector<address>",)),
        _f("sender", (), ("address",)),
    ),
)
