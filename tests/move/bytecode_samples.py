"""Modules and scripts built by hand for the binary-format tests: one module holding every
table kind, every signature token and every opcode (each operand kind at its extremes),
and one script with type parameters, access specifiers and code."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from ledgerkit.localnet.vm.move import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_KEY,
    ABILITY_STORE,
    ACCESS_READ,
    ACCESS_WRITE,
    ATTRIBUTE_MODULE_LOCK,
    ATTRIBUTE_PERSISTENT,
    VISIBILITY_FRIEND,
    VISIBILITY_PRIVATE,
    VISIBILITY_PUBLIC,
    AccessSpecifier,
    CodeUnit,
    CompiledModule,
    CompiledScript,
    Constant,
    FieldDefinition,
    FieldHandle,
    FieldInstantiation,
    FunctionDefinition,
    FunctionHandle,
    FunctionInstantiation,
    Instruction,
    Metadata,
    ModuleHandle,
    Op,
    StructDefinition,
    StructDefInstantiation,
    StructHandle,
    StructTypeParameter,
    StructVariantHandle,
    StructVariantInstantiation,
    VariantDefinition,
    VariantFieldHandle,
    VariantFieldInstantiation,
)

DATA: Final = Path(__file__).parent / "data"
ALL: Final = ABILITY_COPY | ABILITY_DROP | ABILITY_STORE | ABILITY_KEY
ONE: Final = bytes(31) + b"\x01"
CAFE: Final = bytes(30) + b"\xca\xfe"

U64: Final = ("u64",)
#: Every kind of signature token (struct 0 has no type parameters, struct 1 has two).
EVERY_TOKEN: Final = (
    ("bool",),
    ("u8",),
    ("u16",),
    ("u32",),
    ("u64",),
    ("u128",),
    ("u256",),
    ("i8",),
    ("i16",),
    ("i32",),
    ("i64",),
    ("i128",),
    ("i256",),
    ("address",),
    ("signer",),
    ("vector", ("vector", ("u8",))),
    ("struct", 0),
    ("struct_inst", 1, (("u64",), ("vector", ("tparam", 0)))),
    ("ref", ("u64",)),
    ("mut_ref", ("struct", 0)),
    ("tparam", 0),
    ("function", (("u64",), ("ref", ("u8",))), (("bool",),), ABILITY_DROP | ABILITY_COPY),
    ("function", (), (), 0),
)

FIXED_VALUES: Final = {
    Op.LD_U8: 0xFF,
    Op.LD_U16: 0xFFFF,
    Op.LD_U32: 0xFFFF_FFFF,
    Op.LD_U64: 2**64 - 1,
    Op.LD_U128: 2**128 - 1,
    Op.LD_U256: 2**256 - 1,
    Op.LD_I8: -128,
    Op.LD_I16: -(2**15),
    Op.LD_I32: 2**31 - 1,
    Op.LD_I64: -(2**63),
    Op.LD_I128: 2**127 - 1,
    Op.LD_I256: -(2**255),
}
BRANCHES: Final = {Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH}
LOCALS: Final = {Op.COPY_LOC, Op.MOVE_LOC, Op.ST_LOC, Op.MUT_BORROW_LOC, Op.IMM_BORROW_LOC}


def every_instruction(*, up_to: int = 9) -> tuple[Instruction, ...]:
    """Every opcode of bytecode version 9 (and 10's ``ABORT_MSG`` if ``up_to`` is 10),
    each with an operand in range of :func:`full_module`'s tables."""
    code = []
    for op in Op:
        if op == Op.ABORT_MSG and up_to < 10:
            continue
        arg: Any = None
        if op in FIXED_VALUES:
            arg = FIXED_VALUES[op]
        elif op in BRANCHES:
            arg = 1
        elif op in LOCALS:
            arg = 2
        elif op in (Op.VEC_PACK, Op.VEC_UNPACK):
            arg = (1, 2**64 - 1)
        elif op in (Op.PACK_CLOSURE, Op.PACK_CLOSURE_GENERIC):
            arg = (1 if op == Op.PACK_CLOSURE else 0, 2**64 - 1)
        elif op in _INDEXED:
            arg = _INDEXED[op]
        code.append(Instruction(op, arg))
    return tuple(code)


#: The index each indexed opcode uses (all in range of full_module's tables; the
#: signatures used by instructions hold no type parameter).
_INDEXED: Final = {
    **dict.fromkeys((Op.LD_CONST,), 1),
    **dict.fromkeys((Op.MUT_BORROW_FIELD, Op.IMM_BORROW_FIELD), 1),
    **dict.fromkeys((Op.MUT_BORROW_FIELD_GENERIC, Op.IMM_BORROW_FIELD_GENERIC), 0),
    **dict.fromkeys((Op.MUT_BORROW_VARIANT_FIELD, Op.IMM_BORROW_VARIANT_FIELD), 1),
    **dict.fromkeys((Op.MUT_BORROW_VARIANT_FIELD_GENERIC, Op.IMM_BORROW_VARIANT_FIELD_GENERIC), 0),
    **dict.fromkeys((Op.CALL,), 2),
    **dict.fromkeys((Op.CALL_GENERIC,), 0),
    **dict.fromkeys((Op.CALL_CLOSURE,), 1),
    **dict.fromkeys(
        (
            Op.PACK,
            Op.UNPACK,
            Op.EXISTS,
            Op.MUT_BORROW_GLOBAL,
            Op.IMM_BORROW_GLOBAL,
            Op.MOVE_FROM,
            Op.MOVE_TO,
        ),
        0,
    ),
    **dict.fromkeys(
        (
            Op.PACK_GENERIC,
            Op.UNPACK_GENERIC,
            Op.EXISTS_GENERIC,
            Op.MUT_BORROW_GLOBAL_GENERIC,
            Op.IMM_BORROW_GLOBAL_GENERIC,
            Op.MOVE_FROM_GENERIC,
            Op.MOVE_TO_GENERIC,
        ),
        0,
    ),
    **dict.fromkeys((Op.PACK_VARIANT, Op.UNPACK_VARIANT, Op.TEST_VARIANT), 1),
    **dict.fromkeys(
        (Op.PACK_VARIANT_GENERIC, Op.UNPACK_VARIANT_GENERIC, Op.TEST_VARIANT_GENERIC), 0
    ),
    **dict.fromkeys(
        (
            Op.VEC_LEN,
            Op.VEC_IMM_BORROW,
            Op.VEC_MUT_BORROW,
            Op.VEC_PUSH_BACK,
            Op.VEC_POP_BACK,
            Op.VEC_SWAP,
        ),
        1,
    ),
}

SPECIFIERS: Final = (
    AccessSpecifier(ACCESS_READ, False, ("any",), ("any",)),
    AccessSpecifier(ACCESS_WRITE, True, ("at_address", 1), ("literal", 0)),
    AccessSpecifier(ACCESS_READ, False, ("in_module", 1), ("parameter", 0, None)),
    AccessSpecifier(ACCESS_WRITE, False, ("resource", 0), ("parameter", 0, 0)),
    AccessSpecifier(ACCESS_READ, True, ("resource_inst", 1, 2), ("any",)),
)


def full_module(version: int = 9) -> CompiledModule:
    """A module with an entry in every table kind, every token and every opcode."""
    fields = (FieldDefinition(5, U64), FieldDefinition(6, ("vector", ("u8",))))
    return CompiledModule(
        version=version,
        self_handle=0,
        module_handles=(ModuleHandle(1, 0), ModuleHandle(0, 1)),
        struct_handles=(
            StructHandle(0, 2, ALL),
            StructHandle(
                0,
                3,
                ABILITY_DROP,
                (StructTypeParameter(ABILITY_COPY, False), StructTypeParameter(0, True)),
            ),
            StructHandle(0, 4, ABILITY_DROP | ABILITY_COPY),
            StructHandle(0, 9, ABILITY_DROP, (StructTypeParameter(ABILITY_DROP, False),)),
            StructHandle(1, 10, ABILITY_STORE),
        ),
        function_handles=(
            FunctionHandle(
                0, 11, 3, 3, (), SPECIFIERS, (ATTRIBUTE_PERSISTENT, ATTRIBUTE_MODULE_LOCK)
            ),
            FunctionHandle(0, 12, 4, 0, (ABILITY_COPY, ALL), None, ()),
            FunctionHandle(1, 13, 1, 1, (), (), ()),
        ),
        field_handles=(FieldHandle(0, 1), FieldHandle(0, 0), FieldHandle(1, 0)),
        friend_decls=(ModuleHandle(0, 14),),
        struct_def_instantiations=(StructDefInstantiation(1, 2),),
        function_instantiations=(FunctionInstantiation(1, 2),),
        field_instantiations=(FieldInstantiation(2, 2),),
        signatures=(
            (),
            (U64,),
            (U64, ("bool",)),
            (U64, ("address",), ("vector", ("u8",))),
            EVERY_TOKEN,
        ),
        identifiers=(
            "M",
            "other",
            "S",
            "G",
            "E",
            "x",
            "y",
            "A",
            "B",
            "GE",
            "Ext",
            "f",
            "g",
            "h",
            "friend",
            "_under",
            "<SELF>",
        ),
        address_identifiers=(ONE, CAFE),
        constant_pool=(
            Constant(U64, (2**64 - 1).to_bytes(8, "little")),
            Constant(("vector", ("u8",)), b"\x02hi"),
        ),
        metadata=(Metadata(b"aptos::metadata_v1", b"\x00\x00\x00\x00"), Metadata(b"", b"")),
        struct_defs=(
            StructDefinition(0, fields),
            StructDefinition(1, (FieldDefinition(5, ("tparam", 0)),)),
            StructDefinition(2, None, (VariantDefinition(7, fields), VariantDefinition(8, ()))),
            StructDefinition(
                3, None, (VariantDefinition(7, (FieldDefinition(5, ("tparam", 0)),)),)
            ),
            StructDefinition(4, None, None),
        ),
        function_defs=(
            FunctionDefinition(
                0, VISIBILITY_PUBLIC, True, (0, 2), CodeUnit(3, every_instruction(up_to=version))
            ),
            FunctionDefinition(1, VISIBILITY_FRIEND, False, (), None),
            FunctionDefinition(
                2, VISIBILITY_PRIVATE, False, (), CodeUnit(0, (Instruction(Op.RET),))
            ),
        ),
        struct_variant_handles=(StructVariantHandle(2, 1), StructVariantHandle(3, 0)),
        struct_variant_instantiations=(StructVariantInstantiation(1, 1),),
        variant_field_handles=(VariantFieldHandle(2, (0,), 1), VariantFieldHandle(3, (0,), 0)),
        variant_field_instantiations=(VariantFieldInstantiation(1, 1),),
    )


def full_script(version: int = 9) -> CompiledScript:
    """A script with type parameters, access specifiers and calls into a module."""
    return CompiledScript(
        version=version,
        module_handles=(ModuleHandle(0, 0),),
        struct_handles=(StructHandle(0, 1, ABILITY_KEY | ABILITY_STORE),),
        function_handles=(FunctionHandle(0, 2, 1, 0, (ABILITY_DROP,), None, ()),),
        function_instantiations=(FunctionInstantiation(0, 2),),
        signatures=((), (("ref", ("signer",)), U64), (("tparam", 0),)),
        identifiers=("coin", "Coin", "transfer", "<SELF>_0"),
        address_identifiers=(ONE,),
        constant_pool=(Constant(("address",), ONE),),
        metadata=(),
        code=CodeUnit(
            2,
            (
                Instruction(Op.MOVE_LOC, 0),
                Instruction(Op.COPY_LOC, 1),
                Instruction(Op.CALL_GENERIC, 0),
                Instruction(Op.LD_CONST, 0),
                Instruction(Op.POP),
                Instruction(Op.BRANCH, 6),
                Instruction(Op.RET),
            ),
        ),
        type_parameters=(ABILITY_DROP,),
        parameters=1,
        access_specifiers=(
            AccessSpecifier(ACCESS_READ, False, ("resource", 0), ("parameter", 1, 0)),
        ),
    )


def small_module(version: int) -> CompiledModule:
    """A module any version from 5 reads: a struct, a constant, a function."""
    return CompiledModule(
        version=version,
        self_handle=0,
        module_handles=(ModuleHandle(0, 0),),
        struct_handles=(StructHandle(0, 1, ABILITY_KEY),),
        function_handles=(FunctionHandle(0, 2, 1, 0),),
        signatures=((), (("signer",),)),
        identifiers=("small", "Box", "put", "value"),
        address_identifiers=(CAFE,),
        constant_pool=(Constant(U64, bytes(8)),),
        struct_defs=(StructDefinition(0, (FieldDefinition(3, U64),)),),
        function_defs=(
            FunctionDefinition(
                0,
                VISIBILITY_PUBLIC,
                True,
                (0,),
                CodeUnit(
                    0,
                    (
                        Instruction(Op.MOVE_LOC, 0),
                        Instruction(Op.LD_CONST, 0),
                        Instruction(Op.PACK, 0),
                        Instruction(Op.MOVE_TO, 0),
                        Instruction(Op.RET),
                    ),
                ),
            ),
        ),
    )


def uleb(value: int) -> str:
    """``value`` as ULEB128, in hex."""
    out = ""
    while True:
        byte, value = value & 0x7F, value >> 7
        out += f"{byte | (0x80 if value else 0):02x}"
        if not value:
            return out


def layout(version: str, tables: list[tuple[int, str]], tail: str = "00") -> bytes:
    """A binary (magic, ``version`` word in hex) with ``tables`` (kind, contents in hex)
    laid out one after the other, then ``tail`` (a module's self handle by default)."""
    header = uleb(len(tables))
    contents = ""
    for kind, body in tables:
        header += f"{kind:02x}" + uleb(len(contents) // 2) + uleb(len(body) // 2)
        contents += body
    return bytes.fromhex("a11ceb0b" + version + header + contents + tail)
