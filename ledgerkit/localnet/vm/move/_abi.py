"""A published module's ABI, derived from its bytecode as a node's REST API derives it.

The API answers ``GET /accounts/{a}/module/{name}`` with ``{bytecode, abi}``, the ABI
(``MoveModule``) made from the compiled module and its Aptos metadata: the module's
address and name, its friends (``0x1::name``), the functions it exposes (public and
friend ones, entry functions, and view functions whatever their visibility) and every
struct it defines. No Move VM can be installed here, so the node derives it itself
(facts from aptos-core's ``api/types``: the JSON shape, type text, ability names).

Types are written as the API writes them: ``u64``, ``vector<u8>``, ``&signer``,
``&mut 0x1::coin::Coin<T0>``, ``0x1::string::String`` (an address in its short form
for ``0x0``..``0xa``, in 64 hex digits otherwise).
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.move._format import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_KEY,
    ABILITY_STORE,
    VISIBILITY_FRIEND,
    VISIBILITY_PRIVATE,
    VISIBILITY_PUBLIC,
    CompiledModule,
    CompiledScript,
    FieldDefinition,
    FunctionDefinition,
    SignatureToken,
    StructDefinition,
)
from ledgerkit.localnet.vm.move._metadata import RuntimeMetadata, runtime_metadata
from ledgerkit.types import Address

__all__ = ["abilities_text", "module_abi", "script_abi", "type_text"]

#: Ability names in the API's order.
_ABILITIES: Final = (
    (ABILITY_COPY, "copy"),
    (ABILITY_DROP, "drop"),
    (ABILITY_STORE, "store"),
    (ABILITY_KEY, "key"),
)
_VISIBILITY: Final = {
    VISIBILITY_PRIVATE: "private",
    VISIBILITY_PUBLIC: "public",
    VISIBILITY_FRIEND: "friend",
}
_PRIMITIVES: Final = frozenset(
    {"bool", "u8", "u16", "u32", "u64", "u128", "u256", "address", "signer"}
    | {"i8", "i16", "i32", "i64", "i128", "i256"}
)


def abilities_text(abilities: int) -> list[str]:
    """``0b1011`` -> ``["copy", "drop", "key"]``."""
    return [name for bit, name in _ABILITIES if abilities & bit]


def _address_text(raw: bytes) -> str:
    return Address(raw).standard


def type_text(module: CompiledModule | CompiledScript, token: SignatureToken) -> str:
    """A signature token as the API writes a type (``T0`` for type parameter 0)."""
    kind = token[0]
    if kind in _PRIMITIVES:
        return str(kind)
    if kind == "vector":
        return f"vector<{type_text(module, token[1])}>"
    if kind == "ref":
        return f"&{type_text(module, token[1])}"
    if kind == "mut_ref":
        return f"&mut {type_text(module, token[1])}"
    if kind == "tparam":
        return f"T{token[1]}"
    if kind in ("struct", "struct_inst"):
        handle = module.struct_handles[token[1]]
        address, name = module.module_id(handle.module)
        text = f"{_address_text(address)}::{name}::{module.identifier(handle.name)}"
        if kind == "struct_inst":
            text += "<" + ", ".join(type_text(module, t) for t in token[2]) + ">"
        return text
    if kind == "function":
        args = ", ".join(type_text(module, t) for t in token[1])
        results = ", ".join(type_text(module, t) for t in token[2])
        abilities = abilities_text(token[3])
        suffix = f" has {' + '.join(abilities)}" if abilities else ""
        return f"|{args}|{results}{suffix}"
    raise ValueError(f"not a signature token: {token!r}")


def _field(module: CompiledModule, f: FieldDefinition) -> dict[str, Any]:
    return {"name": module.identifier(f.name), "type": type_text(module, f.signature)}


def _struct(
    module: CompiledModule, sdef: StructDefinition, meta: RuntimeMetadata
) -> dict[str, Any]:
    handle = module.struct_handles[sdef.struct_handle]
    name = module.identifier(handle.name)
    variants = sdef.variants or ()
    return {
        "name": name,
        "is_native": sdef.fields is None and sdef.variants is None,
        "is_event": meta.is_event(name),
        "is_enum": sdef.variants is not None,
        "abilities": abilities_text(handle.abilities),
        "generic_type_params": [
            {"constraints": abilities_text(p.constraints)} for p in handle.type_parameters
        ],
        "fields": [_field(module, f) for f in sdef.fields or ()],
        "variants": [
            {"name": module.identifier(v.name), "fields": [_field(module, f) for f in v.fields]}
            for v in variants
        ],
    }


def _function(
    module: CompiledModule, fdef: FunctionDefinition, meta: RuntimeMetadata
) -> dict[str, Any]:
    handle = module.function_handles[fdef.function]
    name = module.identifier(handle.name)
    return {
        "name": name,
        "visibility": _VISIBILITY.get(fdef.visibility, "private"),
        "is_entry": fdef.is_entry,
        "is_view": meta.is_view(name),
        "generic_type_params": [{"constraints": abilities_text(c)} for c in handle.type_parameters],
        "params": [type_text(module, t) for t in module.signature(handle.parameters)],
        "return": [type_text(module, t) for t in module.signature(handle.return_)],
    }


def module_abi(module: CompiledModule) -> dict[str, Any]:
    """The module's ABI (``MoveModule``) in the API's JSON shape.

    Functions appear in definition order when they are exposed: public or friend,
    an entry function, or a view function (named so by the module's metadata),
    private ones included. Structs appear in definition order, all of them.
    """
    meta = runtime_metadata(module.metadata, module.version) or RuntimeMetadata()
    exposed = [
        _function(module, fdef, meta)
        for fdef in module.function_defs
        if fdef.visibility != VISIBILITY_PRIVATE
        or fdef.is_entry
        or meta.is_view(module.function_name(fdef.function))
    ]
    friends = []
    for friend in module.friend_decls:
        address = module.address_identifiers[friend.address]
        friends.append(f"{_address_text(address)}::{module.identifier(friend.name)}")
    return {
        "address": _address_text(module.address),
        "name": module.name,
        "friends": friends,
        "exposed_functions": exposed,
        "structs": [_struct(module, sdef, meta) for sdef in module.struct_defs],
    }


def script_abi(script: CompiledScript) -> dict[str, Any]:
    """A script's ABI (a ``MoveFunction`` named ``main``, public entry), as a node serves
    it beside a script payload's bytecode."""
    return {
        "name": "main",
        "visibility": "public",
        "is_entry": True,
        "is_view": False,
        "generic_type_params": [{"constraints": abilities_text(c)} for c in script.type_parameters],
        "params": [type_text(script, t) for t in script.signature(script.parameters)],
        "return": [],
    }
