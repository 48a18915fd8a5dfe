"""What follows each opcode in the binary format, and the bytecode version it needs.

Shared by the reader, the writer and the bounds checker: one table, so the three agree.
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.move._format import Op

__all__ = ["FIXED_WIDTH", "MIN_VERSION", "OPERAND", "TABLE_OF"]

# Operand kinds.
NONE: Final = 0
OFFSET: Final = 1  # a code offset (ULEB128, at most 65535)
LOCAL: Final = 2  # a local index (ULEB128, at most 255)
INDEX: Final = 3  # a table index (ULEB128, at most 65535)
FIXED: Final = 4  # a little-endian integer of FIXED_WIDTH[op] bytes
VEC: Final = 5  # a signature index, then a u64 element count
CLOSURE: Final = 6  # a function (instantiation) index, then a ULEB128 capture mask

#: The operand kind of every opcode.
OPERAND: dict[int, int] = dict.fromkeys(Op, NONE)

#: For FIXED operands: (width in bytes, signed).
FIXED_WIDTH: dict[int, tuple[int, bool]] = {
    Op.LD_U8: (1, False),
    Op.LD_U16: (2, False),
    Op.LD_U32: (4, False),
    Op.LD_U64: (8, False),
    Op.LD_U128: (16, False),
    Op.LD_U256: (32, False),
    Op.LD_I8: (1, True),
    Op.LD_I16: (2, True),
    Op.LD_I32: (4, True),
    Op.LD_I64: (8, True),
    Op.LD_I128: (16, True),
    Op.LD_I256: (32, True),
}

#: For INDEX, VEC and CLOSURE operands: the table the index points into.
TABLE_OF: dict[int, str] = {
    Op.LD_CONST: "constant_pool",
    Op.MUT_BORROW_FIELD: "field_handles",
    Op.IMM_BORROW_FIELD: "field_handles",
    Op.MUT_BORROW_FIELD_GENERIC: "field_instantiations",
    Op.IMM_BORROW_FIELD_GENERIC: "field_instantiations",
    Op.MUT_BORROW_VARIANT_FIELD: "variant_field_handles",
    Op.IMM_BORROW_VARIANT_FIELD: "variant_field_handles",
    Op.MUT_BORROW_VARIANT_FIELD_GENERIC: "variant_field_instantiations",
    Op.IMM_BORROW_VARIANT_FIELD_GENERIC: "variant_field_instantiations",
    Op.CALL: "function_handles",
    Op.CALL_GENERIC: "function_instantiations",
    Op.PACK_CLOSURE: "function_handles",
    Op.PACK_CLOSURE_GENERIC: "function_instantiations",
    Op.CALL_CLOSURE: "signatures",
    Op.PACK_VARIANT: "struct_variant_handles",
    Op.UNPACK_VARIANT: "struct_variant_handles",
    Op.TEST_VARIANT: "struct_variant_handles",
    Op.PACK_VARIANT_GENERIC: "struct_variant_instantiations",
    Op.UNPACK_VARIANT_GENERIC: "struct_variant_instantiations",
    Op.TEST_VARIANT_GENERIC: "struct_variant_instantiations",
}
for _op in (
    Op.PACK,
    Op.UNPACK,
    Op.EXISTS,
    Op.MUT_BORROW_GLOBAL,
    Op.IMM_BORROW_GLOBAL,
    Op.MOVE_FROM,
    Op.MOVE_TO,
):
    TABLE_OF[_op] = "struct_defs"
for _op in (
    Op.PACK_GENERIC,
    Op.UNPACK_GENERIC,
    Op.EXISTS_GENERIC,
    Op.MUT_BORROW_GLOBAL_GENERIC,
    Op.IMM_BORROW_GLOBAL_GENERIC,
    Op.MOVE_FROM_GENERIC,
    Op.MOVE_TO_GENERIC,
):
    TABLE_OF[_op] = "struct_def_instantiations"
for _op in (
    Op.VEC_PACK,
    Op.VEC_LEN,
    Op.VEC_IMM_BORROW,
    Op.VEC_MUT_BORROW,
    Op.VEC_PUSH_BACK,
    Op.VEC_POP_BACK,
    Op.VEC_UNPACK,
    Op.VEC_SWAP,
):
    TABLE_OF[_op] = "signatures"

for _indexed in TABLE_OF:
    OPERAND[_indexed] = INDEX
OPERAND[Op.VEC_PACK] = OPERAND[Op.VEC_UNPACK] = VEC
OPERAND[Op.PACK_CLOSURE] = OPERAND[Op.PACK_CLOSURE_GENERIC] = CLOSURE
for _branch in (Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH):
    OPERAND[_branch] = OFFSET
for _local in (Op.COPY_LOC, Op.MOVE_LOC, Op.ST_LOC, Op.MUT_BORROW_LOC, Op.IMM_BORROW_LOC):
    OPERAND[_local] = LOCAL
for _fixed in FIXED_WIDTH:
    OPERAND[_fixed] = FIXED

#: The first bytecode version an opcode may appear in (aptos-core's deserializer checks
#: these; the unpacking of variants is, as there, not gated on its own).
MIN_VERSION: dict[int, int] = dict.fromkeys(Op, 0)
for _op in (Op.LD_U16, Op.LD_U32, Op.LD_U256, Op.CAST_U16, Op.CAST_U32, Op.CAST_U256):
    MIN_VERSION[_op] = 6
for _op in (
    Op.TEST_VARIANT,
    Op.TEST_VARIANT_GENERIC,
    Op.PACK_VARIANT,
    Op.PACK_VARIANT_GENERIC,
    Op.IMM_BORROW_VARIANT_FIELD,
    Op.IMM_BORROW_VARIANT_FIELD_GENERIC,
    Op.MUT_BORROW_VARIANT_FIELD,
    Op.MUT_BORROW_VARIANT_FIELD_GENERIC,
):
    MIN_VERSION[_op] = 7
for _op in (Op.PACK_CLOSURE, Op.PACK_CLOSURE_GENERIC, Op.CALL_CLOSURE):
    MIN_VERSION[_op] = 8
for _signed in range(Op.LD_I8, Op.NEGATE + 1):
    MIN_VERSION[_signed] = 9
MIN_VERSION[Op.ABORT_MSG] = 10
