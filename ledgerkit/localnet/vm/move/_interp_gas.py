"""Gas of the Move interpreter: the cost of each instruction, and the meter.

The figures are aptos-core's instruction gas parameters
(``aptos-move/aptos-gas-schedule/src/gas_schedule/instr.rs``, the version whose newest
gated parameters are the closure ones of ``RELEASE_V1_33``) times 10, the multiplier the
node's schedule applies to every gas literal (see ``_gas_schedule``): internal gas units,
10^6 to a gas unit, charged to the one :class:`GasMeter` of an execution. Where the
table has a base and a per-unit part (calls per argument and local, packs per field,
vector packs per element, constants per byte, copies/reads/equality per abstract value
unit) both are charged. Signed-integer instructions (bytecode v9), which that table
predates, cost what their unsigned twins cost, and ``NEGATE`` what ``SUB`` does.

What is not metered as on a node: storage reads and writes (the host charges them as
the node's schedule does), type substitution (``subst_ty_per_node``), native functions
beyond a flat base plus a per-byte part for hashing and serialization, and the
framework functions served by the host, which charge through the meter themselves.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.move._format import Op
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError

__all__ = ["INSTRUCTION_GAS", "GasMeter"]

_SCALE: Final = 10
_BASE: Final[dict[int, int]] = {
    Op.NOP: 36, Op.RET: 220, Op.ABORT: 220, Op.ABORT_MSG: 220,
    Op.BR_TRUE: 441, Op.BR_FALSE: 441, Op.BRANCH: 294, Op.POP: 147,
    Op.LD_U8: 220, Op.LD_U16: 220, Op.LD_U32: 220, Op.LD_U64: 220,
    Op.LD_U128: 294, Op.LD_U256: 294, Op.LD_TRUE: 220, Op.LD_FALSE: 220,
    Op.LD_I8: 220, Op.LD_I16: 220, Op.LD_I32: 220, Op.LD_I64: 220,
    Op.LD_I128: 294, Op.LD_I256: 294, Op.LD_CONST: 2389,
    Op.IMM_BORROW_LOC: 220, Op.MUT_BORROW_LOC: 220,
    Op.IMM_BORROW_FIELD: 735, Op.MUT_BORROW_FIELD: 735,
    Op.IMM_BORROW_FIELD_GENERIC: 735, Op.MUT_BORROW_FIELD_GENERIC: 735,
    Op.IMM_BORROW_VARIANT_FIELD: 835, Op.MUT_BORROW_VARIANT_FIELD: 835,
    Op.IMM_BORROW_VARIANT_FIELD_GENERIC: 835, Op.MUT_BORROW_VARIANT_FIELD_GENERIC: 835,
    Op.TEST_VARIANT: 535, Op.TEST_VARIANT_GENERIC: 535,
    Op.COPY_LOC: 294, Op.MOVE_LOC: 441, Op.ST_LOC: 441,
    Op.CALL: 3676, Op.CALL_GENERIC: 3676, Op.CALL_CLOSURE: 3676,
    Op.PACK: 808, Op.PACK_GENERIC: 808, Op.UNPACK: 808, Op.UNPACK_GENERIC: 808,
    Op.PACK_VARIANT: 808, Op.PACK_VARIANT_GENERIC: 808,
    Op.UNPACK_VARIANT: 808, Op.UNPACK_VARIANT_GENERIC: 808,
    Op.PACK_CLOSURE: 908, Op.PACK_CLOSURE_GENERIC: 908,
    Op.READ_REF: 735, Op.WRITE_REF: 735, Op.FREEZE_REF: 36,
    Op.CAST_U8: 441, Op.CAST_U16: 441, Op.CAST_U32: 441, Op.CAST_U64: 441,
    Op.CAST_U128: 441, Op.CAST_U256: 441, Op.CAST_I8: 441, Op.CAST_I16: 441,
    Op.CAST_I32: 441, Op.CAST_I64: 441, Op.CAST_I128: 441, Op.CAST_I256: 441,
    Op.ADD: 588, Op.SUB: 588, Op.MUL: 588, Op.MOD: 588, Op.DIV: 588, Op.NEGATE: 588,
    Op.BIT_OR: 588, Op.BIT_AND: 588, Op.XOR: 588, Op.SHL: 588, Op.SHR: 588,
    Op.OR: 588, Op.AND: 588, Op.NOT: 588,
    Op.LT: 588, Op.GT: 588, Op.LE: 588, Op.GE: 588, Op.EQ: 367, Op.NEQ: 367,
    Op.IMM_BORROW_GLOBAL: 1838, Op.IMM_BORROW_GLOBAL_GENERIC: 1838,
    Op.MUT_BORROW_GLOBAL: 1838, Op.MUT_BORROW_GLOBAL_GENERIC: 1838,
    Op.EXISTS: 919, Op.EXISTS_GENERIC: 919,
    Op.MOVE_FROM: 1286, Op.MOVE_FROM_GENERIC: 1286,
    Op.MOVE_TO: 1838, Op.MOVE_TO_GENERIC: 1838,
    Op.VEC_LEN: 808, Op.VEC_IMM_BORROW: 1213, Op.VEC_MUT_BORROW: 1213,
    Op.VEC_PUSH_BACK: 1396, Op.VEC_POP_BACK: 955, Op.VEC_SWAP: 1102,
    Op.VEC_PACK: 2205, Op.VEC_UNPACK: 1838,
}  # fmt: skip

#: Base cost of each opcode, internal gas units.
INSTRUCTION_GAS: Final[dict[int, int]] = {int(op): c * _SCALE for op, c in _BASE.items()}

LD_CONST_PER_BYTE: Final = 128 * _SCALE
PER_ABSTRACT_VALUE_UNIT: Final = 14 * _SCALE  # copy_loc, read_ref, eq, neq
CALL_PER_ARG: Final = 367 * _SCALE
CALL_PER_LOCAL: Final = 367 * _SCALE
CALL_GENERIC_PER_TY_ARG: Final = 367 * _SCALE
PACK_PER_FIELD: Final = 147 * _SCALE  # also unpack, vec_pack/vec_unpack per element
NATIVE_BASE: Final = 735 * _SCALE
NATIVE_PER_BYTE: Final = 18 * _SCALE


class GasMeter:
    """The execution's gas: ``used`` internal units out of ``budget``.

    One meter serves the whole execution, the interpreter's instructions and whatever
    the host charges for framework calls and storage; past the budget, ``OUT_OF_GAS``.
    """

    __slots__ = ("budget", "used")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0

    @property
    def remaining(self) -> int:
        return max(0, self.budget - self.used)

    def charge(self, amount: int) -> None:
        """Charge ``amount`` internal units (``OUT_OF_GAS`` past the budget)."""
        self.used += amount
        if self.used > self.budget:
            self.used = self.budget
            raise MoveExecutionError("OUT_OF_GAS", f"budget of {self.budget} exhausted")
