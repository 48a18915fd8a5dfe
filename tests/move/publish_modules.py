"""Small compiled modules for the publishing tests, built as data with the binary format's
model, and the Aptos metadata they carry (its BCS written out field by field here).

``counter_module()`` is, in Move::

    module 0xcafe::m {
        use std::string::String;
        friend 0xcafe::pal;

        struct Counter has key { value: u64, owner: address }
        struct Box<phantom T0: store, T1: copy + drop> has copy, drop, store {
            item: T1, tags: vector<String>
        }
        #[event] struct Bumped has drop, store { by: u64 }

        const ENOT_OWNER: u64 = 1;   // "Only the owner may bump"

        entry fun bump(s: &signer, by: u64) { ... }
        #[view] public fun get(a: address): u64 { ... }
        public(friend) fun adjust(c: &mut Counter) { ... }
        #[view] fun peek<T0: copy + drop>(v: vector<T0>): T0 { ... }
        fun secret() { ... }
    }
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ledgerkit.bcs import Serializer
from ledgerkit.localnet.vm.move import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_KEY,
    ABILITY_STORE,
    VISIBILITY_FRIEND,
    VISIBILITY_PRIVATE,
    VISIBILITY_PUBLIC,
    CodeUnit,
    CompiledModule,
    FieldDefinition,
    FunctionDefinition,
    FunctionHandle,
    FunctionInstantiation,
    Instruction,
    Metadata,
    ModuleHandle,
    Op,
    StructDefinition,
    StructHandle,
    StructTypeParameter,
)

CAFE: Final = bytes(30) + b"\xca\xfe"
BEEF: Final = bytes(30) + b"\xbe\xef"
ONE: Final = bytes(31) + b"\x01"
CAFE_TEXT: Final = "0x" + "0" * 60 + "cafe"
RET: Final = CodeUnit(0, (Instruction(Op.RET),))

IDENTIFIERS: Final = (
    "m",  # 0
    "string",  # 1
    "String",  # 2
    "Counter",  # 3
    "value",  # 4
    "owner",  # 5
    "Box",  # 6
    "item",  # 7
    "tags",  # 8
    "Bumped",  # 9
    "by",  # 10
    "bump",  # 11
    "get",  # 12
    "adjust",  # 13
    "peek",  # 14
    "secret",  # 15
    "pal",  # 16
)


def metadata_v1(
    errors: dict[int, tuple[str, str]],
    structs: dict[str, list[int]],
    functions: dict[str, list[int]],
) -> Metadata:
    """``aptos::metadata_v1``: error map, then struct and function attributes (kinds)."""
    s = Serializer()
    s.uleb128(len(errors))
    for code in sorted(errors):
        s.u64(code)
        s.string(errors[code][0])
        s.string(errors[code][1])
    for table in (structs, functions):
        s.uleb128(len(table))
        for name in sorted(table):
            s.string(name)
            s.uleb128(len(table[name]))
            for kind in table[name]:
                s.u8(kind)
                s.uleb128(0)  # no args
    return Metadata(b"aptos::metadata_v1", s.output())


METADATA: Final = metadata_v1(
    {1: ("ENOT_OWNER", "Only the owner may bump")},
    {"Bumped": [4]},
    {"get": [1], "peek": [1]},
)


def _fn(handle: int, visibility: int, *, entry: bool = False) -> FunctionDefinition:
    return FunctionDefinition(handle, visibility, entry, (), RET)


def counter_module() -> CompiledModule:
    """``0xcafe::m`` (see the module docstring)."""
    cds = ABILITY_COPY | ABILITY_DROP | ABILITY_STORE
    return CompiledModule(
        version=7,
        self_handle=0,
        module_handles=(ModuleHandle(0, 0), ModuleHandle(1, 1)),
        struct_handles=(
            StructHandle(0, 3, ABILITY_KEY),
            StructHandle(1, 2, cds),
            StructHandle(
                0,
                6,
                cds,
                (
                    StructTypeParameter(ABILITY_STORE, True),
                    StructTypeParameter(ABILITY_COPY | ABILITY_DROP, False),
                ),
            ),
            StructHandle(0, 9, ABILITY_DROP | ABILITY_STORE),
        ),
        function_handles=(
            FunctionHandle(0, 11, 1, 0),  # bump(&signer, u64)
            FunctionHandle(0, 12, 2, 3),  # get(address): u64
            FunctionHandle(0, 13, 4, 0),  # adjust(&mut Counter)
            FunctionHandle(0, 14, 5, 6, (ABILITY_COPY | ABILITY_DROP,)),  # peek
            FunctionHandle(0, 15, 0, 0),  # secret()
        ),
        friend_decls=(ModuleHandle(0, 16),),
        signatures=(
            (),
            (("ref", ("signer",)), ("u64",)),
            (("address",),),
            (("u64",),),
            (("mut_ref", ("struct", 0)),),
            (("vector", ("tparam", 0)),),
            (("tparam", 0),),
        ),
        identifiers=IDENTIFIERS,
        address_identifiers=(CAFE, ONE),
        metadata=(METADATA,),
        struct_defs=(
            StructDefinition(0, (FieldDefinition(4, ("u64",)), FieldDefinition(5, ("address",)))),
            StructDefinition(
                2,
                (
                    FieldDefinition(7, ("tparam", 1)),
                    FieldDefinition(8, ("vector", ("struct", 1))),
                ),
            ),
            StructDefinition(3, (FieldDefinition(10, ("u64",)),)),
        ),
        function_defs=(
            _fn(0, VISIBILITY_PRIVATE, entry=True),
            _fn(1, VISIBILITY_PUBLIC),
            _fn(2, VISIBILITY_FRIEND),
            _fn(3, VISIBILITY_PRIVATE),
            _fn(4, VISIBILITY_PRIVATE),
        ),
    )


def at(module: CompiledModule, address: bytes) -> CompiledModule:
    """``module`` declared at ``address`` (its own address identifier replaced)."""
    addresses = list(module.address_identifiers)
    addresses[module.module_handles[module.self_handle].address] = address
    return replace(module, address_identifiers=tuple(addresses))


def named(module: CompiledModule, name: str) -> CompiledModule:
    """``module`` renamed (its own name identifier replaced)."""
    identifiers = list(module.identifiers)
    identifiers[module.module_handles[module.self_handle].name] = name
    return replace(module, identifiers=tuple(identifiers))


def using(module: CompiledModule, address: bytes, name: str) -> CompiledModule:
    """``module`` with one more module handle: it uses ``address::name``."""
    return replace(
        module,
        module_handles=(
            *module.module_handles,
            ModuleHandle(len(module.address_identifiers), len(module.identifiers)),
        ),
        identifiers=(*module.identifiers, name),
        address_identifiers=(*module.address_identifiers, address),
    )


def emitting(module: CompiledModule, struct_handle: int) -> CompiledModule:
    """``module`` with one more function, ``emits()``, calling
    ``0x1::event::emit<S>`` for the struct of handle ``struct_handle``."""
    identifiers = (*module.identifiers, "event", "emit", "emits")
    base = len(module.identifiers)
    signatures = (*module.signatures, (("struct", struct_handle),), (("tparam", 0),))
    event_module = len(module.module_handles)
    emit = len(module.function_handles)
    code = CodeUnit(0, (Instruction(Op.CALL_GENERIC, 0), Instruction(Op.RET)))
    return replace(
        module,
        identifiers=identifiers,
        module_handles=(*module.module_handles, ModuleHandle(1, base)),
        function_handles=(
            *module.function_handles,
            FunctionHandle(
                event_module, base + 1, len(signatures) - 1, 0, (ABILITY_DROP | ABILITY_STORE,)
            ),
            FunctionHandle(0, base + 2, 0, 0),
        ),
        function_instantiations=(FunctionInstantiation(emit, len(signatures) - 2),),
        signatures=signatures,
        function_defs=(
            *module.function_defs,
            FunctionDefinition(emit + 1, VISIBILITY_PRIVATE, False, (), code),
        ),
    )
