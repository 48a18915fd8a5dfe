"""The node's scalar schemas: numbers, addresses, bytes, hashes and Move names as strings.

Their patterns describe what the node reads: decimal strings up to a bound, hex with or
without leading zeros, and Move identifiers, types and struct tags nested a few levels.
"""

from __future__ import annotations

import copy
from typing import Final

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet.app.openapi._notation import Schema, _enum

_HEX: Final = "[0-9a-fA-F]"
_IDENT: Final = "[A-Za-z_][A-Za-z0-9_]*"


def _at_most(limit: int) -> str:
    """A regular expression of the decimal numbers from 0 to ``limit``, leading zeros
    allowed (as the node reads them): shorter numbers, then, digit by digit, those of
    the same length that stay below ``limit``."""
    digits = str(limit)
    options = [f"[0-9]{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    for i, digit in enumerate(digits):
        if digit != "0":
            low = "0" if i or len(digits) == 1 else "1"
            rest = len(digits) - i - 1
            tail = f"[0-9]{{{rest}}}" if rest else ""
            top = int(digit) - 1
            if top >= int(low):
                options.append(f"{digits[:i]}[{low}-{top}]{tail}")
    options.append(digits)
    return f"0*({'|'.join(options)})"


def _move_type(depth: int) -> str:
    """A Move type as the node reads it, nested at most ``depth`` levels in type arguments
    (a regular expression cannot count brackets; real types are a few levels deep)."""
    primitive = "bool|u8|u16|u32|u64|u128|u256|i8|i16|i32|i64|i128|i256|address|signer"
    struct = f"0x{_HEX}{{1,64}}::{_IDENT}::{_IDENT}"
    if depth == 0:
        return f"(?:{primitive}|{struct})"
    inner = _move_type(depth - 1)
    return f"(?:{primitive}|vector<{inner}>|{struct}(?:<{inner}(?:, ?{inner})*>)?)"


def _struct_tag(depth: int) -> str:
    inner = _move_type(depth - 1)
    return f"0x{_HEX}{{1,64}}::{_IDENT}::{_IDENT}(?:<{inner}(?:, ?{inner})*>)?"


#: Nesting of type arguments the document's patterns describe.
_TYPE_DEPTH: Final = 3

_SCALARS: Final[dict[str, Schema]] = {
    "U64": {
        "type": "string",
        "format": "uint64",
        "pattern": f"^{_at_most(2**64 - 1)}$",
        "description": "An unsigned 64-bit integer written as a decimal string.",
        "example": "32425224034",
    },
    "Address": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{1,64}}$",
        "description": "A 32-byte account address: `0x` and hex; leading zeros may be dropped.",
        "example": "0x1",
    },
    "HexBytes": {
        "type": "string",
        "pattern": f"^0x({_HEX}{{2}})*$",
        "description": "Bytes as `0x` and two hex digits per byte; zeros are kept.",
        "example": "0x0102ff",
    },
    "HashValue": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{64}}$",
        "description": "A 32-byte hash: `0x` and 64 hex digits.",
    },
    "MoveType": {
        "type": "string",
        "pattern": f"^{_move_type(_TYPE_DEPTH)}$",
        "description": "A Move type: a primitive, `vector<T>` or a struct tag (spaces ignored).",
        "example": "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    },
    "MoveAbiType": {
        "type": "string",
        "description": "A Move type as an ABI writes it; may also be a reference (`&signer`, "
        "`&mut T`) or a generic parameter (`T0`).",
    },
    "MoveStructTag": {
        "type": "string",
        "pattern": f"^{_struct_tag(_TYPE_DEPTH)}$",
        "description": "`address::module::Struct`, with any type arguments in angle brackets.",
        "example": "0x1::account::Account",
    },
    "MoveModuleId": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{1,64}}::{_IDENT}$",
        "description": "`address::module`.",
        "example": "0x1::coin",
    },
    "EntryFunctionId": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{1,64}}::{_IDENT}::{_IDENT}$",
        "description": "`address::module::function`; names are case-sensitive.",
        "example": "0x1::aptos_account::transfer",
    },
    "Identifier": {
        "type": "string",
        "pattern": f"^{_IDENT}$",
        "description": "A Move identifier: a module, function, struct or field name.",
    },
    "MoveAbility": _enum("copy", "drop", "store", "key"),
    "MoveValue": {
        "description": "A Move value as JSON: bool a boolean; u8, u16, u32 numbers; u64, u128, "
        "u256 decimal strings; address and `vector<u8>` hex strings; other vectors arrays; "
        "`0x1::string::String` a string; a struct an object of its fields.",
    },
    "ErrorCode": {
        **_enum(*(code.value for code in ErrorCode)),
        "description": "What went wrong, for programs.",
    },
}


def _scalar_schemas() -> dict[str, Schema]:
    """The scalar schemas, as fresh copies."""
    return {name: copy.deepcopy(schema) for name, schema in _SCALARS.items()}
