"""The interpreter's integer and boolean instructions: results worked out by hand, and
``ARITHMETIC_ERROR`` where a node gives it (overflow, underflow, division by zero, shift
by the width, cast out of range)."""

from __future__ import annotations

import pytest
from interp_kit import BOOL, U8, U64, Mod, Op, code, run

from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError
from ledgerkit.localnet.vm.move._values import (
    I8Value,
    I64Value,
    U8Value,
    U16Value,
    U64Value,
    U128Value,
    U256Value,
    VectorValue,
)


def binary(
    op: int, ty: tuple[str, ...], result: tuple[str, ...] | None, rhs: tuple[str, ...]
) -> Mod:
    m = Mod("arith")
    m.fn("f", [ty, rhs], [result or ty], code((Op.COPY_LOC, 0), (Op.COPY_LOC, 1), op, Op.RET))
    return m


def calc(op: int, a: object, b: object, ty: tuple[str, ...], result=None, rhs=None) -> object:  # type: ignore[no-untyped-def]
    (value,) = run(binary(op, ty, result, rhs or ty).build(), "f", [a, b])
    return value


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        (Op.ADD, 2, 3, 5),
        (Op.SUB, 10, 3, 7),
        (Op.MUL, 6, 7, 42),
        (Op.DIV, 7, 2, 3),
        (Op.MOD, 7, 2, 1),
        (Op.BIT_OR, 0b1100, 0b1010, 0b1110),
        (Op.BIT_AND, 0b1100, 0b1010, 0b1000),
        (Op.XOR, 0b1100, 0b1010, 0b0110),
        (Op.ADD, 2**64 - 2, 1, 2**64 - 1),
    ],
)
def test_u64_arithmetic(op: int, a: int, b: int, expected: int) -> None:
    value = calc(op, U64Value(a), U64Value(b), U64)
    assert type(value) is U64Value
    assert value == expected


@pytest.mark.parametrize(
    ("op", "a", "b"),
    [
        (Op.ADD, 2**64 - 1, 1),  # overflow
        (Op.SUB, 0, 1),  # underflow
        (Op.MUL, 2**32, 2**32),  # 2^64 overflows
        (Op.DIV, 1, 0),
        (Op.MOD, 1, 0),
    ],
)
def test_u64_arithmetic_errors(op: int, a: int, b: int) -> None:
    with pytest.raises(MoveExecutionError) as caught:
        calc(op, U64Value(a), U64Value(b), U64)
    assert caught.value.status == "ARITHMETIC_ERROR"
    assert caught.value.location == (bytes(30) + b"\xca\xfe", "arith")
    assert caught.value.function == "f"
    assert caught.value.offset == 2


def test_widths_overflow_at_their_own_bounds() -> None:
    assert calc(Op.ADD, U8Value(200), U8Value(55), U8) == 255
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        calc(Op.ADD, U8Value(200), U8Value(56), U8)
    assert calc(Op.ADD, U16Value(65534), U16Value(1), ("u16",)) == 65535
    assert calc(Op.MUL, U128Value(2**64), U128Value(2**63), ("u128",)) == 2**127
    big = U256Value(2**256 - 1)
    assert calc(Op.SUB, big, U256Value(0), ("u256",)) == 2**256 - 1
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        calc(Op.ADD, big, U256Value(1), ("u256",))


def test_mixed_widths_are_what_a_verifier_refuses() -> None:
    with pytest.raises(MoveExecutionError) as caught:
        calc(Op.ADD, U64Value(1), U8Value(1), U64, rhs=U8)
    assert caught.value.status == "UNKNOWN_INVARIANT_VIOLATION_ERROR"
    with pytest.raises(MoveExecutionError) as caught:
        calc(Op.ADD, U64Value(1), U8Value(1), U64)  # the entry's arguments are checked
    assert caught.value.status == "TYPE_MISMATCH"


def test_shifts() -> None:
    assert calc(Op.SHL, U8Value(0b1011_0001), U8Value(4), U8) == 0b0001_0000  # high bits dropped
    assert calc(Op.SHR, U64Value(1024), U8Value(3), U64, rhs=U8) == 128
    assert calc(Op.SHL, U64Value(1), U8Value(63), U64, rhs=U8) == 2**63
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        calc(Op.SHL, U64Value(1), U8Value(64), U64, rhs=U8)
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        calc(Op.SHR, U8Value(1), U8Value(8), U8)


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [(Op.LT, 1, 2, True), (Op.GT, 1, 2, False), (Op.LE, 2, 2, True), (Op.GE, 1, 2, False)],
)
def test_comparisons(op: int, a: int, b: int, expected: bool) -> None:
    assert calc(op, U64Value(a), U64Value(b), U64, BOOL) is expected


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [(Op.AND, True, False, False), (Op.OR, True, False, True), (Op.EQ, True, True, True)],
)
def test_booleans(op: int, a: bool, b: bool, expected: bool) -> None:
    assert calc(op, a, b, BOOL) is expected


def test_not_and_neq() -> None:
    m = Mod("b")
    m.fn("f", [BOOL], [BOOL], code((Op.MOVE_LOC, 0), Op.NOT, Op.RET))
    assert run(m.build(), "f", [True]) == [False]
    assert calc(Op.NEQ, U64Value(3), U64Value(4), U64, BOOL) is True


def cast(op: int, value: object, source: tuple[str, ...], target: tuple[str, ...]) -> object:
    m = Mod("c")
    m.fn("f", [source], [target], code((Op.MOVE_LOC, 0), op, Op.RET))
    return run(m.build(), "f", [value])[0]


def test_casts() -> None:
    assert cast(Op.CAST_U8, U64Value(255), U64, U8) == 255
    assert type(cast(Op.CAST_U8, U64Value(255), U64, U8)) is U8Value
    assert cast(Op.CAST_U128, U64Value(2**64 - 1), U64, ("u128",)) == 2**64 - 1
    assert cast(Op.CAST_U64, U256Value(2**64 - 1), ("u256",), U64) == 2**64 - 1
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        cast(Op.CAST_U8, U64Value(256), U64, U8)
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        cast(Op.CAST_U64, U256Value(2**64), ("u256",), U64)


def test_signed_integers() -> None:
    i64 = ("i64",)
    assert calc(Op.DIV, I64Value(-7), I64Value(2), i64) == -3  # truncates toward zero
    assert calc(Op.MOD, I64Value(-7), I64Value(2), i64) == -1  # takes the dividend's sign
    assert calc(Op.SUB, I64Value(-5), I64Value(10), i64) == -15
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        calc(Op.SUB, I8Value(-128), I8Value(1), ("i8",))
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        calc(Op.DIV, I8Value(-128), I8Value(-1), ("i8",))
    m = Mod("neg")
    m.fn("f", [("i8",)], [("i8",)], code((Op.MOVE_LOC, 0), Op.NEGATE, Op.RET))
    assert run(m.build(), "f", [I8Value(5)]) == [-5]
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        run(m.build(), "f", [I8Value(-128)])
    assert cast(Op.CAST_I8, U64Value(127), U64, ("i8",)) == 127
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        cast(Op.CAST_U8, I8Value(-1), ("i8",), U8)


def test_literals_and_constants() -> None:
    m = Mod("lit")
    c = m.const(("vector", U8), b"\x03abc")
    a = m.const(U64, (2**64 - 1).to_bytes(8, "little"))
    m.fn(
        "f",
        [],
        [("u128",), ("vector", U8), U64, ("i16",)],
        code((Op.LD_U128, 2**127), (Op.LD_CONST, c), (Op.LD_CONST, a), (Op.LD_I16, -300), Op.RET),
    )
    big, text, top, small = run(m.build(), "f")
    assert (big, type(big)) == (2**127, U128Value)
    assert isinstance(text, VectorValue)
    assert bytes(text.elems) == b"abc"
    assert top == 2**64 - 1
    assert small == -300


def test_branches_loop_sums_one_to_ten() -> None:
    # sum = 0; i = 1; while (i <= 10) { sum = sum + i; i = i + 1 }; sum
    m = Mod("loop")
    body = code(
        (Op.LD_U64, 0), (Op.ST_LOC, 0),  # 0, 1
        (Op.LD_U64, 1), (Op.ST_LOC, 1),  # 2, 3
        (Op.COPY_LOC, 1), (Op.LD_U64, 10), Op.LE, (Op.BR_FALSE, 17),  # 4..7
        (Op.MOVE_LOC, 0), (Op.COPY_LOC, 1), Op.ADD, (Op.ST_LOC, 0),  # 8..11
        (Op.MOVE_LOC, 1), (Op.LD_U64, 1), Op.ADD, (Op.ST_LOC, 1),  # 12..15
        (Op.BRANCH, 4),  # 16
        (Op.MOVE_LOC, 0), Op.RET,  # 17, 18
    )  # fmt: skip
    m.fn("f", [], [U64], body, locals_=[U64, U64])
    assert run(m.build(), "f") == [55]
