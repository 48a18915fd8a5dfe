"""A published module's ABI as the API renders it, derived from the compiled module; its
error map naming aborts. Expected JSON written out from the module's Move declaration
(publish_modules.py) and aptos-core's API types."""

from __future__ import annotations

from dataclasses import replace

from publish_modules import CAFE, CAFE_TEXT, counter_module

from ledgerkit.localnet.vm.move import (
    FieldDefinition,
    Metadata,
    VariantDefinition,
    abilities_text,
    module_abi,
    module_abort,
    runtime_metadata,
    stored_module_abort,
    write_module,
)

BOX_PARAMS = [{"constraints": ["store"]}, {"constraints": ["copy", "drop"]}]


def test_the_abi_of_a_module_lists_what_it_exposes_and_every_struct() -> None:
    assert module_abi(counter_module()) == {
        "address": CAFE_TEXT,
        "name": "m",
        "friends": [f"{CAFE_TEXT}::pal"],
        "exposed_functions": [
            {
                "name": "bump",
                "visibility": "private",
                "is_entry": True,
                "is_view": False,
                "generic_type_params": [],
                "params": ["&signer", "u64"],
                "return": [],
            },
            {
                "name": "get",
                "visibility": "public",
                "is_entry": False,
                "is_view": True,
                "generic_type_params": [],
                "params": ["address"],
                "return": ["u64"],
            },
            {
                "name": "adjust",
                "visibility": "friend",
                "is_entry": False,
                "is_view": False,
                "generic_type_params": [],
                "params": [f"&mut {CAFE_TEXT}::m::Counter"],
                "return": [],
            },
            {  # private, but a view
                "name": "peek",
                "visibility": "private",
                "is_entry": False,
                "is_view": True,
                "generic_type_params": [{"constraints": ["copy", "drop"]}],
                "params": ["vector<T0>"],
                "return": ["T0"],
            },
        ],
        "structs": [
            {
                "name": "Counter",
                "is_native": False,
                "is_event": False,
                "is_enum": False,
                "abilities": ["key"],
                "generic_type_params": [],
                "fields": [{"name": "value", "type": "u64"}, {"name": "owner", "type": "address"}],
                "variants": [],
            },
            {
                "name": "Box",
                "is_native": False,
                "is_event": False,
                "is_enum": False,
                "abilities": ["copy", "drop", "store"],
                "generic_type_params": BOX_PARAMS,
                "fields": [
                    {"name": "item", "type": "T1"},
                    {"name": "tags", "type": "vector<0x1::string::String>"},
                ],
                "variants": [],
            },
            {
                "name": "Bumped",
                "is_native": False,
                "is_event": True,
                "is_enum": False,
                "abilities": ["drop", "store"],
                "generic_type_params": [],
                "fields": [{"name": "by", "type": "u64"}],
                "variants": [],
            },
        ],
    }


def test_without_metadata_nothing_is_a_view_or_an_event() -> None:
    abi = module_abi(replace(counter_module(), metadata=()))
    assert [f["name"] for f in abi["exposed_functions"]] == ["bump", "get", "adjust"]
    assert not any(f["is_view"] for f in abi["exposed_functions"])
    assert not any(s["is_event"] for s in abi["structs"])


def test_metadata_that_does_not_decode_counts_as_none() -> None:
    broken = (Metadata(b"aptos::metadata_v1", b"\x05\x01"),)
    assert runtime_metadata(broken) is None
    assert [
        f["name"]
        for f in module_abi(replace(counter_module(), metadata=broken))["exposed_functions"]
    ] == ["bump", "get", "adjust"]


def test_abilities_are_named_in_the_api_order() -> None:
    assert abilities_text(0xF) == ["copy", "drop", "store", "key"]
    assert abilities_text(0x8 | 0x2) == ["drop", "key"]
    assert abilities_text(0) == []


def test_an_abort_of_a_published_module_is_named_from_its_error_map() -> None:
    module = counter_module()
    # invalid_argument(ENOT_OWNER) = 0x10001: found by its low 12 bits.
    abort = module_abort(module, 0x10001)
    assert (abort.name, abort.description) == ("ENOT_OWNER", "Only the owner may bump")
    assert (
        abort.vm_status == "Move abort in 0xcafe::m: ENOT_OWNER(0x10001): Only the owner may bump"
    )
    unnamed = module_abort(module, 0x10002)
    assert unnamed.name is None
    assert unnamed.vm_status == "Move abort in 0xcafe::m: 0x10002"


def test_an_abort_is_named_from_the_module_the_state_holds() -> None:
    stored = write_module(counter_module())
    assert stored_module_abort(CAFE, "m", stored, 0x10001).name == "ENOT_OWNER"
    # No bytecode, bytes that do not read, or bytes of another module: unnamed.
    for bytecode in (None, b"\xa1\x1c\xeb\x0b", stored):
        name = "other" if bytecode == stored else "m"
        abort = stored_module_abort(CAFE, name, bytecode, 0x10001)
        assert abort.name is None
        assert abort.vm_status == f"Move abort in 0xcafe::{name}: 0x10001"


def test_an_enum_lists_its_variants_and_no_fields() -> None:
    module = counter_module()
    # enum Counter has key { Empty, Full { by: u64 } }: identifiers 4 and 5 become the
    # variant names.
    names = list(module.identifiers)
    names[4], names[5] = "Empty", "Full"
    full = VariantDefinition(5, (FieldDefinition(10, ("u64",)),))
    enum = replace(module.struct_defs[0], fields=None, variants=(VariantDefinition(4, ()), full))
    changed = replace(module, identifiers=tuple(names), struct_defs=(enum, *module.struct_defs[1:]))
    (counter, *_) = module_abi(changed)["structs"]
    assert counter == {
        "name": "Counter",
        "is_native": False,
        "is_event": False,
        "is_enum": True,
        "abilities": ["key"],
        "generic_type_params": [],
        "fields": [],
        "variants": [
            {"name": "Empty", "fields": []},
            {"name": "Full", "fields": [{"name": "by", "type": "u64"}]},
        ],
    }
