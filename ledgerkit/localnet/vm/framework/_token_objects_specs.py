"""The digital asset modules at ``0x4`` (``aptos_token``, ``collection``, ``token``,
``royalty``, ``property_map``), declared: structs in their framework shapes and field
order, and the functions the node executes, with their ABIs.

Every ``key`` struct here is a member of the ``0x1::object::ObjectGroup`` resource
group: it lives at an object's address beside ``0x1::object::ObjectCore``.
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec
from ledgerkit.types import Address

__all__ = ["TOKEN_OBJECT_MODULES"]

_AT4: Final = Address.from_int(4)
_KEY: Final = ("key",)
_DROP_STORE: Final = ("drop", "store")
_COPY_DROP_STORE: Final = ("copy", "drop", "store")
_KEYED: Final = (("key",),)
_KEYED_DROP: Final = (("key",), ("drop",))
_OBJ: Final = "0x1::object::Object<T0>"
_STRING: Final = "0x1::string::String"
S = StructSpec


def _handle(event: str) -> str:
    return f"0x1::event::EventHandle<{event}>"


def _entry(
    name: str, *params: str, generics: tuple[tuple[str, ...], ...] = (), public: bool = True
) -> FunctionSpec:
    return FunctionSpec(
        name, params, (), generics, entry=True, visibility="public" if public else "private"
    )


def _view(name: str, params: tuple[str, ...], returns: str, keyed: bool = True) -> FunctionSpec:
    return FunctionSpec(name, params, (returns,), _KEYED if keyed else (), view=True)


def _event(name: str, *fields: tuple[str, str]) -> StructSpec:
    return S(name, _DROP_STORE, fields, is_event=True)


_MUTABILITY: Final = (
    "mutable_description",
    "mutable_uri",
    "mutable_token_description",
    "mutable_token_name",
    "mutable_token_properties",
    "mutable_token_uri",
    "tokens_burnable_by_creator",
    "tokens_freezable_by_creator",
)
_MINT_PARAMS: Final = (
    "&signer",
    _STRING,
    _STRING,
    _STRING,
    _STRING,
    "vector<0x1::string::String>",
    "vector<0x1::string::String>",
    "vector<vector<u8>>",
)

APTOS_TOKEN: Final = ModuleSpec(
    "aptos_token",
    address=_AT4,
    structs=(
        S(
            "AptosCollection",
            _KEY,
            (
                ("mutator_ref", "0x1::option::Option<0x4::collection::MutatorRef>"),
                ("royalty_mutator_ref", "0x1::option::Option<0x4::royalty::MutatorRef>"),
                *((name, "bool") for name in _MUTABILITY),
            ),
        ),
        S(
            "AptosToken",
            _KEY,
            (
                ("burn_ref", "0x1::option::Option<0x4::token::BurnRef>"),
                ("transfer_ref", "0x1::option::Option<0x1::object::TransferRef>"),
                ("mutator_ref", "0x1::option::Option<0x4::token::MutatorRef>"),
                ("property_mutator_ref", "0x4::property_map::MutatorRef"),
            ),
        ),
    ),
    functions=(
        _entry("add_property", "&signer", _OBJ, _STRING, _STRING, "vector<u8>", generics=_KEYED),
        _entry("add_typed_property", "&signer", _OBJ, _STRING, "T1", generics=_KEYED_DROP),
        _view("are_properties_mutable", (_OBJ,), "bool"),
        _entry("burn", "&signer", _OBJ, generics=_KEYED),
        _entry(
            "create_collection",
            "&signer",
            _STRING,
            "u64",
            _STRING,
            _STRING,
            "bool",
            "bool",
            "bool",
            "bool",
            "bool",
            "bool",
            "bool",
            "bool",
            "bool",
            "u64",
            "u64",
        ),
        _entry("freeze_transfer", "&signer", _OBJ, generics=_KEYED),
        _view("is_burnable", (_OBJ,), "bool"),
        _view("is_freezable_by_creator", (_OBJ,), "bool"),
        _view("is_mutable_description", (_OBJ,), "bool"),
        _view("is_mutable_name", (_OBJ,), "bool"),
        _view("is_mutable_uri", (_OBJ,), "bool"),
        _entry("mint", *_MINT_PARAMS),
        _entry("mint_soul_bound", *_MINT_PARAMS, "address"),
        _entry("remove_property", "&signer", _OBJ, _STRING, generics=_KEYED),
        _entry("set_collection_description", "&signer", _OBJ, _STRING, generics=_KEYED),
        _entry(
            "set_collection_royalties_call",
            "&signer",
            _OBJ,
            "u64",
            "u64",
            "address",
            generics=_KEYED,
            public=False,
        ),
        _entry("set_collection_uri", "&signer", _OBJ, _STRING, generics=_KEYED),
        _entry("set_description", "&signer", _OBJ, _STRING, generics=_KEYED),
        _entry("set_name", "&signer", _OBJ, _STRING, generics=_KEYED),
        _entry("set_uri", "&signer", _OBJ, _STRING, generics=_KEYED),
        _entry("unfreeze_transfer", "&signer", _OBJ, generics=_KEYED),
        _entry("update_property", "&signer", _OBJ, _STRING, _STRING, "vector<u8>", generics=_KEYED),
        _entry("update_typed_property", "&signer", _OBJ, _STRING, "T1", generics=_KEYED_DROP),
    ),
)

_SUPPLY_EVENTS: Final = (
    ("burn_events", _handle("0x4::collection::BurnEvent")),
    ("mint_events", _handle("0x4::collection::MintEvent")),
)

COLLECTION: Final = ModuleSpec(
    "collection",
    address=_AT4,
    friends=("0x4::token",),
    structs=(
        _event(
            "Burn",
            ("collection", "address"),
            ("index", "u64"),
            ("token", "address"),
            ("previous_owner", "address"),
        ),
        S("BurnEvent", _DROP_STORE, (("index", "u64"), ("token", "address"))),
        S(
            "Collection",
            _KEY,
            (
                ("creator", "address"),
                ("description", _STRING),
                ("name", _STRING),
                ("uri", _STRING),
                ("mutation_events", _handle("0x4::collection::MutationEvent")),
            ),
        ),
        S(
            "ConcurrentSupply",
            _KEY,
            (
                ("current_supply", "0x1::aggregator_v2::Aggregator<u64>"),
                ("total_minted", "0x1::aggregator_v2::Aggregator<u64>"),
            ),
        ),
        S(
            "FixedSupply",
            _KEY,
            (
                ("current_supply", "u64"),
                ("max_supply", "u64"),
                ("total_minted", "u64"),
                *_SUPPLY_EVENTS,
            ),
        ),
        _event(
            "Mint",
            ("collection", "address"),
            ("index", "0x1::aggregator_v2::AggregatorSnapshot<u64>"),
            ("token", "address"),
        ),
        S("MintEvent", _DROP_STORE, (("index", "u64"), ("token", "address"))),
        _event(
            "Mutation",
            ("mutated_field_name", _STRING),
            ("collection", "0x1::object::Object<0x4::collection::Collection>"),
            ("old_value", _STRING),
            ("new_value", _STRING),
        ),
        S("MutationEvent", _DROP_STORE, (("mutated_field_name", _STRING),)),
        S("MutatorRef", _DROP_STORE, (("self", "address"),)),
        _event(
            "SetMaxSupply",
            ("collection", "0x1::object::Object<0x4::collection::Collection>"),
            ("old_max_supply", "u64"),
            ("new_max_supply", "u64"),
        ),
        S(
            "UnlimitedSupply",
            _KEY,
            (("current_supply", "u64"), ("total_minted", "u64"), *_SUPPLY_EVENTS),
        ),
    ),
    functions=(
        _view("count", (_OBJ,), "0x1::option::Option<u64>"),
        _view("creator", (_OBJ,), "address"),
        _view("description", (_OBJ,), _STRING),
        _view("name", (_OBJ,), _STRING),
        _view("uri", (_OBJ,), _STRING),
    ),
)

TOKEN: Final = ModuleSpec(
    "token",
    address=_AT4,
    structs=(
        S(
            "BurnRef",
            _DROP_STORE,
            (
                ("inner", "0x1::option::Option<0x1::object::DeleteRef>"),
                ("self", "0x1::option::Option<address>"),
            ),
        ),
        _event(
            "Mutation",
            ("token_address", "address"),
            ("mutated_field_name", _STRING),
            ("old_value", _STRING),
            ("new_value", _STRING),
        ),
        S(
            "MutationEvent",
            _DROP_STORE,
            (("mutated_field_name", _STRING), ("old_value", _STRING), ("new_value", _STRING)),
        ),
        S("MutatorRef", _DROP_STORE, (("self", "address"),)),
        S(
            "Token",
            _KEY,
            (
                ("collection", "0x1::object::Object<0x4::collection::Collection>"),
                ("index", "u64"),
                ("description", _STRING),
                ("name", _STRING),
                ("uri", _STRING),
                ("mutation_events", _handle("0x4::token::MutationEvent")),
            ),
        ),
        S(
            "TokenIdentifiers",
            _KEY,
            (
                ("index", "0x1::aggregator_v2::AggregatorSnapshot<u64>"),
                ("name", "0x1::aggregator_v2::DerivedStringSnapshot"),
            ),
        ),
    ),
    functions=(
        _view("collection_name", (_OBJ,), _STRING),
        _view("collection_object", (_OBJ,), "0x1::object::Object<0x4::collection::Collection>"),
        _view(
            "create_token_address_with_seed",
            ("address", _STRING, _STRING, _STRING),
            "address",
            keyed=False,
        ),
        _view("creator", (_OBJ,), "address"),
        _view("description", (_OBJ,), _STRING),
        _view("index", (_OBJ,), "u64"),
        _view("name", (_OBJ,), _STRING),
        _view("royalty", (_OBJ,), "0x1::option::Option<0x4::royalty::Royalty>"),
        _view("uri", (_OBJ,), _STRING),
    ),
)

ROYALTY: Final = ModuleSpec(
    "royalty",
    address=_AT4,
    structs=(
        S("MutatorRef", _DROP_STORE, (("inner", "0x1::object::ExtendRef"),)),
        S(
            "Royalty",
            ("copy", "drop", "key"),
            (("numerator", "u64"), ("denominator", "u64"), ("payee_address", "address")),
        ),
    ),
)

PROPERTY_MAP: Final = ModuleSpec(
    "property_map",
    address=_AT4,
    structs=(
        S("MutatorRef", _DROP_STORE, (("self", "address"),)),
        S(
            "PropertyMap",
            ("drop", "key"),
            (
                (
                    "inner",
                    "0x1::simple_map::SimpleMap<0x1::string::String, "
                    "0x4::property_map::PropertyValue>",
                ),
            ),
        ),
        S("PropertyValue", _DROP_STORE, (("type", "u8"), ("value", "vector<u8>"))),
    ),
)

#: The ``0x4`` package, in genesis order.
TOKEN_OBJECT_MODULES: Final = (APTOS_TOKEN, COLLECTION, PROPERTY_MAP, ROYALTY, TOKEN)
