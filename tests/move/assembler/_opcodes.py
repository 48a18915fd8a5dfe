"""The instructions by their names in aptos-core's ``Bytecode`` enum, with the opcode
byte of ``file_format_common.rs`` and the kind of operand each takes."""

from __future__ import annotations

from collections.abc import Mapping

# Operand kinds.
NONE = "none"
LOCAL = "local"
LABEL = "label"
CONST = "const"
FUNCTION = "function"
STRUCT = "struct"
FIELD = "field"
VECTOR = "vector"  # the element type of a vector instruction
VECTOR_COUNT = "vector_count"  # element type and element count
RAW = "raw"  # an index written as a number (enum variants, closures)

#: Literal loads: name -> (opcode, kind "u8"... "i256").
LITERALS: Mapping[str, tuple[int, str]] = {
    "LdU8": (0x31, "u8"),
    "LdU16": (0x48, "u16"),
    "LdU32": (0x49, "u32"),
    "LdU64": (0x06, "u64"),
    "LdU128": (0x32, "u128"),
    "LdU256": (0x4A, "u256"),
    "LdI8": (0x5B, "i8"),
    "LdI16": (0x5C, "i16"),
    "LdI32": (0x5D, "i32"),
    "LdI64": (0x5E, "i64"),
    "LdI128": (0x5F, "i128"),
    "LdI256": (0x60, "i256"),
}

#: Every other instruction: name -> (opcode, operand kind).
INSTRUCTIONS: Mapping[str, tuple[int, str]] = {
    "Pop": (0x01, NONE),
    "Ret": (0x02, NONE),
    "BrTrue": (0x03, LABEL),
    "BrFalse": (0x04, LABEL),
    "Branch": (0x05, LABEL),
    "LdConst": (0x07, CONST),
    "LdTrue": (0x08, NONE),
    "LdFalse": (0x09, NONE),
    "CopyLoc": (0x0A, LOCAL),
    "MoveLoc": (0x0B, LOCAL),
    "StLoc": (0x0C, LOCAL),
    "MutBorrowLoc": (0x0D, LOCAL),
    "ImmBorrowLoc": (0x0E, LOCAL),
    "MutBorrowField": (0x0F, FIELD),
    "ImmBorrowField": (0x10, FIELD),
    "Call": (0x11, FUNCTION),
    "Pack": (0x12, STRUCT),
    "Unpack": (0x13, STRUCT),
    "ReadRef": (0x14, NONE),
    "WriteRef": (0x15, NONE),
    "Add": (0x16, NONE),
    "Sub": (0x17, NONE),
    "Mul": (0x18, NONE),
    "Mod": (0x19, NONE),
    "Div": (0x1A, NONE),
    "BitOr": (0x1B, NONE),
    "BitAnd": (0x1C, NONE),
    "Xor": (0x1D, NONE),
    "Or": (0x1E, NONE),
    "And": (0x1F, NONE),
    "Not": (0x20, NONE),
    "Eq": (0x21, NONE),
    "Neq": (0x22, NONE),
    "Lt": (0x23, NONE),
    "Gt": (0x24, NONE),
    "Le": (0x25, NONE),
    "Ge": (0x26, NONE),
    "Abort": (0x27, NONE),
    "Nop": (0x28, NONE),
    "Exists": (0x29, STRUCT),
    "MutBorrowGlobal": (0x2A, STRUCT),
    "ImmBorrowGlobal": (0x2B, STRUCT),
    "MoveFrom": (0x2C, STRUCT),
    "MoveTo": (0x2D, STRUCT),
    "FreezeRef": (0x2E, NONE),
    "Shl": (0x2F, NONE),
    "Shr": (0x30, NONE),
    "CastU8": (0x33, NONE),
    "CastU64": (0x34, NONE),
    "CastU128": (0x35, NONE),
    "MutBorrowFieldGeneric": (0x36, FIELD),
    "ImmBorrowFieldGeneric": (0x37, FIELD),
    "CallGeneric": (0x38, FUNCTION),
    "PackGeneric": (0x39, STRUCT),
    "UnpackGeneric": (0x3A, STRUCT),
    "ExistsGeneric": (0x3B, STRUCT),
    "MutBorrowGlobalGeneric": (0x3C, STRUCT),
    "ImmBorrowGlobalGeneric": (0x3D, STRUCT),
    "MoveFromGeneric": (0x3E, STRUCT),
    "MoveToGeneric": (0x3F, STRUCT),
    "VecPack": (0x40, VECTOR_COUNT),
    "VecLen": (0x41, VECTOR),
    "VecImmBorrow": (0x42, VECTOR),
    "VecMutBorrow": (0x43, VECTOR),
    "VecPushBack": (0x44, VECTOR),
    "VecPopBack": (0x45, VECTOR),
    "VecUnpack": (0x46, VECTOR_COUNT),
    "VecSwap": (0x47, VECTOR),
    "CastU16": (0x4B, NONE),
    "CastU32": (0x4C, NONE),
    "CastU256": (0x4D, NONE),
    "ImmBorrowVariantField": (0x4E, RAW),
    "MutBorrowVariantField": (0x4F, RAW),
    "ImmBorrowVariantFieldGeneric": (0x50, RAW),
    "MutBorrowVariantFieldGeneric": (0x51, RAW),
    "PackVariant": (0x52, RAW),
    "PackVariantGeneric": (0x53, RAW),
    "UnpackVariant": (0x54, RAW),
    "UnpackVariantGeneric": (0x55, RAW),
    "TestVariant": (0x56, RAW),
    "TestVariantGeneric": (0x57, RAW),
    "PackClosure": (0x58, RAW),
    "PackClosureGeneric": (0x59, RAW),
    "CallClosure": (0x5A, RAW),
    "CastI8": (0x61, NONE),
    "CastI16": (0x62, NONE),
    "CastI32": (0x63, NONE),
    "CastI64": (0x64, NONE),
    "CastI128": (0x65, NONE),
    "CastI256": (0x66, NONE),
    "Negate": (0x67, NONE),
    "AbortMsg": (0x68, NONE),
}

#: The generic twin of each instruction that names a struct, a field or a function: the
#: assembler picks it when the operand carries type arguments.
GENERIC_TWIN: Mapping[str, str] = {
    "Call": "CallGeneric",
    "Pack": "PackGeneric",
    "Unpack": "UnpackGeneric",
    "Exists": "ExistsGeneric",
    "MutBorrowGlobal": "MutBorrowGlobalGeneric",
    "ImmBorrowGlobal": "ImmBorrowGlobalGeneric",
    "MoveFrom": "MoveFromGeneric",
    "MoveTo": "MoveToGeneric",
    "MutBorrowField": "MutBorrowFieldGeneric",
    "ImmBorrowField": "ImmBorrowFieldGeneric",
}
GENERIC_NAMES = frozenset(GENERIC_TWIN.values())
