"""Function values (bytecode v8): captured parameters placed by the mask, generic
functions, abilities from the captured values, equality."""

from __future__ import annotations

import pytest
from interp_kit import BOOL, U64, Mod, Op, code, run

from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError
from ledgerkit.localnet.vm.move._values import ClosureValue, U64Value

FN = ("function", (U64,), (U64,), 0x7)


def closures() -> Mod:
    m = Mod("fv")
    sub = m.fn("sub", [U64, U64], [U64], code((Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), Op.SUB, Op.RET))
    fn_sig = m.sig(FN)
    # |y| sub(x, y): x captured as the first parameter (mask 0b01)
    m.fn("minus_from", [U64], [FN], code((Op.MOVE_LOC, 0), (Op.PACK_CLOSURE, (sub, 0b01)), Op.RET))
    # |a| sub(a, y): y captured as the second parameter (mask 0b10)
    m.fn("minus", [U64], [FN], code((Op.MOVE_LOC, 0), (Op.PACK_CLOSURE, (sub, 0b10)), Op.RET))
    m.fn(
        "apply",
        [FN, U64],
        [U64],
        code((Op.MOVE_LOC, 1), (Op.MOVE_LOC, 0), (Op.CALL_CLOSURE, fn_sig), Op.RET),
    )
    ident = m.fn(
        "ident", [("tparam", 0)], [("tparam", 0)], code((Op.MOVE_LOC, 0), Op.RET), tparams=1
    )
    ident_bool = m.fn_inst(ident, BOOL)
    bool_fn = ("function", (BOOL,), (BOOL,), 0x7)
    m.fn(
        "generic",
        [],
        [BOOL],
        code(
            (Op.PACK_CLOSURE_GENERIC, (ident_bool, 0)), (Op.ST_LOC, 0),
            Op.LD_TRUE, (Op.MOVE_LOC, 0), (Op.CALL_CLOSURE, m.sig(bool_fn)), Op.RET,
        ),
        locals_=[bool_fn],
    )  # fmt: skip
    m.fn(
        "same",
        [],
        [BOOL, BOOL],
        code(
            (Op.LD_U64, 1), (Op.PACK_CLOSURE, (sub, 1)),
            (Op.LD_U64, 1), (Op.PACK_CLOSURE, (sub, 1)), Op.EQ,
            (Op.LD_U64, 1), (Op.PACK_CLOSURE, (sub, 1)),
            (Op.LD_U64, 2), (Op.PACK_CLOSURE, (sub, 1)), Op.EQ, Op.RET,
        ),
    )  # fmt: skip
    return m


def test_captured_values_take_their_parameter_slots() -> None:
    module = closures().build()
    (from_ten,) = run(module, "minus_from", [U64Value(10)])
    (less_three,) = run(module, "minus", [U64Value(3)])
    assert isinstance(from_ten, ClosureValue)
    assert from_ten.identity()[2:] == ("sub", (), 0b01)
    assert run(module, "apply", [from_ten, U64Value(4)]) == [6]  # sub(10, 4)
    assert run(module, "apply", [less_three, U64Value(10)]) == [7]  # sub(10, 3)
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        run(module, "apply", [less_three, U64Value(2)])  # sub(2, 3)


def test_generic_function_value_and_equality() -> None:
    module = closures().build()
    assert run(module, "generic") == [True]
    assert run(module, "same") == [True, False]


def test_closure_without_copy_cannot_be_copied() -> None:
    m = Mod("nocopy")
    _, token = m.struct("Token", [("n", U64)], abilities=0x2)  # drop only
    take = m.fn(
        "take", [("struct", 0)], [], code((Op.MOVE_LOC, 0), (Op.UNPACK, token), Op.POP, Op.RET)
    )
    fn = ("function", (), (), 0x2)
    m.fn(
        "f",
        [],
        [],
        code(
            (Op.LD_U64, 1), (Op.PACK, token), (Op.PACK_CLOSURE, (take, 1)), (Op.ST_LOC, 0),
            (Op.COPY_LOC, 0), Op.POP, Op.RET,
        ),
        locals_=[fn],
    )  # fmt: skip
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f")
    assert caught.value.status == "UNKNOWN_INVARIANT_VIOLATION_ERROR"
    assert caught.value.offset == 4
