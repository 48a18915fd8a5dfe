"""The interpreter's scalar instructions: constants, locals, integer and boolean
arithmetic, comparisons, casts, branches, ``POP``, ``RET``, ``ABORT``.

Integer instructions take two values of one width (a verifier guarantees it; here a mix
is ``UNKNOWN_INVARIANT_VIOLATION_ERROR``) and fail with ``ARITHMETIC_ERROR`` on
overflow, underflow, division by zero, a shift by the width or more, and a cast out of
range, as a node does. Signed division truncates toward zero and the remainder takes
the dividend's sign (Rust's ``/`` and ``%``); bit operations and shifts are unsigned only.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ledgerkit.localnet.vm.move._format import ABILITY_COPY, ABILITY_DROP, Op
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError, invariant
from ledgerkit.localnet.vm.move._interp_gas import LD_CONST_PER_BYTE
from ledgerkit.localnet.vm.move._runtime_types import instantiate
from ledgerkit.localnet.vm.move._value_bcs import decode_bcs
from ledgerkit.localnet.vm.move._values import (
    INT_CLASSES,
    INVALID,
    MoveInt,
    Reference,
    U8Value,
    VectorValue,
    abstract_size,
    copy_value,
    value_abilities,
    values_equal,
)

if TYPE_CHECKING:
    from ledgerkit.localnet.vm.move._interpreter import Frame, Handler, Interpreter

__all__ = ["SCALAR_HANDLERS"]


def _arith_error(what: str) -> MoveExecutionError:
    return MoveExecutionError("ARITHMETIC_ERROR", what)


def _pair(it: Interpreter, frame: Frame) -> tuple[MoveInt, MoveInt, type[MoveInt]]:
    b = it.pop_int(frame)
    a = it.pop_int(frame)
    cls = type(a)
    if cls is not type(b):
        raise invariant(f"{a!r} and {b!r} are not of one type")
    return a, b, cls


def _div(a: int, b: int, signed: bool) -> int:
    if b == 0:
        raise _arith_error("division by zero")
    if not signed:
        return a // b
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _mod(a: int, b: int, signed: bool) -> int:
    if b == 0:
        raise _arith_error("modulo by zero")
    return a - b * _div(a, b, signed) if signed else a % b


_ARITH: dict[int, Callable[[int, int, bool], int]] = {
    Op.ADD: lambda a, b, s: a + b,
    Op.SUB: lambda a, b, s: a - b,
    Op.MUL: lambda a, b, s: a * b,
    Op.DIV: _div,
    Op.MOD: _mod,
}
_BITS: dict[int, Callable[[int, int], int]] = {
    Op.BIT_OR: lambda a, b: a | b,
    Op.BIT_AND: lambda a, b: a & b,
    Op.XOR: lambda a, b: a ^ b,
}
_COMPARE: dict[int, Callable[[int, int], bool]] = {
    Op.LT: lambda a, b: a < b,
    Op.GT: lambda a, b: a > b,
    Op.LE: lambda a, b: a <= b,
    Op.GE: lambda a, b: a >= b,
}


def _arith(op: int) -> Handler:
    fn = _ARITH[op]

    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        a, b, cls = _pair(it, frame)
        result = fn(int(a), int(b), cls.SIGNED)
        if not cls.MIN <= result <= cls.MAX:
            raise _arith_error(f"{Op(op).name} overflows {cls.TYPE}")
        it.stack.append(cls(result))

    return handler


def _bitwise(op: int) -> Handler:
    fn = _BITS[op]

    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        a, b, cls = _pair(it, frame)
        if cls.SIGNED:
            raise invariant("bit operations take unsigned integers")
        it.stack.append(cls(fn(int(a), int(b))))

    return handler


def _compare(op: int) -> Handler:
    fn = _COMPARE[op]

    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        a, b, _ = _pair(it, frame)
        it.stack.append(fn(int(a), int(b)))

    return handler


def _shift(left: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        by = it.pop_int(frame)
        value = it.pop_int(frame)
        cls = type(value)
        if type(by) is not U8Value or cls.SIGNED:
            raise invariant("shifts take an unsigned integer and a u8")
        if by >= cls.BITS:
            raise _arith_error(f"shift of a {cls.TYPE} by {int(by)}")
        result = (int(value) << by) & cls.MAX if left else int(value) >> by
        it.stack.append(cls(result))

    return handler


def _cast(target: str) -> Handler:
    cls = INT_CLASSES[target]

    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        value = int(it.pop_int(frame))
        if not cls.MIN <= value <= cls.MAX:
            raise _arith_error(f"{value} does not fit a {target}")
        it.stack.append(cls(value))

    return handler


def _load(target: str) -> Handler:
    cls = INT_CLASSES[target]

    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        if not isinstance(arg, int) or not cls.MIN <= arg <= cls.MAX:
            raise invariant(f"{arg!r} is not a {target} literal")
        it.stack.append(cls(arg))

    return handler


def _negate(it: Interpreter, frame: Frame, arg: Any) -> None:
    value = it.pop_int(frame)
    cls = type(value)
    if not cls.SIGNED:
        raise invariant("negation takes a signed integer")
    if -int(value) > cls.MAX:
        raise _arith_error(f"-({int(value)}) overflows {cls.TYPE}")
    it.stack.append(cls(-int(value)))


def _bools(fn: Callable[[bool, bool], bool]) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        b = it.pop_bool(frame)
        a = it.pop_bool(frame)
        it.stack.append(fn(a, b))

    return handler


def _not(it: Interpreter, frame: Frame, arg: Any) -> None:
    it.stack.append(not it.pop_bool(frame))


def _equality(negate: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        b = it.pop(frame)
        a = it.pop(frame)
        size = abstract_size(a.read() if isinstance(a, Reference) else a)
        size += abstract_size(b.read() if isinstance(b, Reference) else b)
        it.charge_size(size)
        it.stack.append(values_equal(a, b) != negate)

    return handler


def _local(frame: Frame, index: Any) -> Any:
    if not isinstance(index, int) or not 0 <= index < len(frame.locals):
        raise invariant(f"local {index!r} out of range")
    value = frame.locals[index]
    if value is INVALID:
        raise invariant(f"local {index} holds no value")
    return value


def _copy_loc(it: Interpreter, frame: Frame, arg: Any) -> None:
    value = _local(frame, arg)
    if not value_abilities(value) & ABILITY_COPY:
        raise invariant("copy of a value without copy")
    it.charge_size(abstract_size(value))
    it.stack.append(copy_value(value))


def _move_loc(it: Interpreter, frame: Frame, arg: Any) -> None:
    it.stack.append(_local(frame, arg))
    frame.locals[arg] = INVALID


def _st_loc(it: Interpreter, frame: Frame, arg: Any) -> None:
    value = it.pop(frame)
    if not isinstance(arg, int) or not 0 <= arg < len(frame.locals):
        raise invariant(f"local {arg!r} out of range")
    old = frame.locals[arg]
    if old is not INVALID and not value_abilities(old) & ABILITY_DROP:
        raise invariant("overwriting a value without drop")
    frame.locals[arg] = value


def _pop(it: Interpreter, frame: Frame, arg: Any) -> None:
    if not value_abilities(it.pop(frame)) & ABILITY_DROP:
        raise invariant("popping a value without drop")


def _ld_const(it: Interpreter, frame: Frame, arg: Any) -> None:
    constant = frame.module.constant_pool[arg]
    it.meter.charge(LD_CONST_PER_BYTE * len(constant.data))
    ty = instantiate(frame.module, constant.type_, ())
    it.stack.append(decode_bcs(ty, constant.data))


def _branch(it: Interpreter, frame: Frame, arg: Any) -> None:
    frame.pc = arg


def _br_true(it: Interpreter, frame: Frame, arg: Any) -> None:
    if it.pop_bool(frame):
        frame.pc = arg


def _br_false(it: Interpreter, frame: Frame, arg: Any) -> None:
    if not it.pop_bool(frame):
        frame.pc = arg


def _abort(it: Interpreter, frame: Frame, arg: Any) -> None:
    code = it.pop_u64(frame)
    raise MoveExecutionError("ABORTED", f"abort {code:#x}", abort_code=code)


def _abort_msg(it: Interpreter, frame: Frame, arg: Any) -> None:
    message = it.pop(frame)
    code = it.pop_u64(frame)
    if not isinstance(message, VectorValue) or message.elem_type != "u8":
        raise invariant("abort message is not a vector<u8>")
    text = bytes(message.elems).decode("utf-8", "replace")
    raise MoveExecutionError("ABORTED", text, abort_code=code)


def _nop(it: Interpreter, frame: Frame, arg: Any) -> None:
    return None


def _ret(it: Interpreter, frame: Frame, arg: Any) -> None:
    it.ret(frame)


def _push(value: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        it.stack.append(value)

    return handler


def _call(it: Interpreter, frame: Frame, arg: Any) -> None:
    it.call(frame, arg, ())


def _call_generic(it: Interpreter, frame: Frame, arg: Any) -> None:
    inst = frame.module.function_instantiations[arg]
    tokens = frame.module.signature(inst.type_parameters)
    type_args = tuple(instantiate(frame.module, t, frame.type_args) for t in tokens)
    it.call(frame, inst.handle, type_args)


_WIDTHS = ("u8", "u16", "u32", "u64", "u128", "u256", "i8", "i16", "i32", "i64", "i128", "i256")
SCALAR_HANDLERS: dict[int, Handler] = {
    **{op: _arith(op) for op in _ARITH},
    **{op: _bitwise(op) for op in _BITS},
    **{op: _compare(op) for op in _COMPARE},
    **{Op["LD_" + w.upper()]: _load(w) for w in _WIDTHS},
    **{Op["CAST_" + w.upper()]: _cast(w) for w in _WIDTHS},
    Op.SHL: _shift(True),
    Op.SHR: _shift(False),
    Op.NEGATE: _negate,
    Op.OR: _bools(lambda a, b: a or b),
    Op.AND: _bools(lambda a, b: a and b),
    Op.NOT: _not,
    Op.EQ: _equality(False),
    Op.NEQ: _equality(True),
    Op.COPY_LOC: _copy_loc,
    Op.MOVE_LOC: _move_loc,
    Op.ST_LOC: _st_loc,
    Op.POP: _pop,
    Op.LD_CONST: _ld_const,
    Op.LD_TRUE: _push(True),
    Op.LD_FALSE: _push(False),
    Op.BRANCH: _branch,
    Op.BR_TRUE: _br_true,
    Op.BR_FALSE: _br_false,
    Op.ABORT: _abort,
    Op.ABORT_MSG: _abort_msg,
    Op.NOP: _nop,
    Op.RET: _ret,
    Op.CALL: _call,
    Op.CALL_GENERIC: _call_generic,
}
