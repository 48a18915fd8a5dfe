"""Bounds of an execution: gas (figures worked out from aptos-core's instruction table
times 10), instruction count, call depth, operand stack depth, value depth, closures
and malformed bytecode reported with a VM status, never a Python exception."""

from __future__ import annotations

import pytest
from interp_kit import U8, U64, Mod, Op, code, run

from ledgerkit.localnet.vm.move._entry import execute_function
from ledgerkit.localnet.vm.move._format import Instruction
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError
from ledgerkit.localnet.vm.move._interp_gas import GasMeter
from ledgerkit.localnet.vm.move._values import U64Value


def test_gas_of_a_small_function_is_the_table_times_ten() -> None:
    m = Mod("g")
    m.fn("f", [U64, U64], [U64], code((Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), Op.ADD, Op.RET))
    from interp_kit import DictHost

    meter = GasMeter(10**9)
    module = m.build()
    execute_function(DictHost(module), module, "f", [], [U64Value(1), U64Value(2)], meter=meter)
    # call.per_arg 367 x 2 args, 0 locals; move_loc 441 x 2; add 588; ret 220 (x 10)
    assert meter.used == (367 * 2 + 441 * 2 + 588 + 220) * 10 == 24240


def infinite_loop() -> Mod:
    m = Mod("spin")
    m.fn("f", [], [], code(Op.NOP, (Op.BRANCH, 0)))
    return m


def test_hostile_loop_runs_out_of_gas() -> None:
    meter = GasMeter(1_000_000)
    module = infinite_loop().build()
    from interp_kit import DictHost

    with pytest.raises(MoveExecutionError) as caught:
        execute_function(DictHost(module), module, "f", [], [], meter=meter)
    assert caught.value.status == "OUT_OF_GAS"
    # nop 360 + branch 2940 per round: 303 rounds fit in 10^6, the 304th's nop does not
    assert meter.used == 1_000_000


def test_hostile_loop_with_a_huge_budget_stops_at_the_instruction_bound() -> None:
    with pytest.raises(MoveExecutionError) as caught:
        run(infinite_loop().build(), "f", budget=10**15, max_steps=10_000)
    assert caught.value.status == "EXECUTION_LIMIT_REACHED"


def test_unbounded_recursion_overflows_the_call_stack() -> None:
    m = Mod("deep")
    f = m.declare("f", [], [])
    m.define(f, code((Op.CALL, f), Op.RET))
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f")
    assert caught.value.status == "CALL_STACK_OVERFLOW"


def test_operand_stack_is_bounded() -> None:
    m = Mod("push")
    m.fn("f", [], [], code((Op.LD_U8, 1), (Op.BRANCH, 0)))
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f")
    assert caught.value.status == "EXECUTION_STACK_OVERFLOW"


def test_value_depth_is_bounded() -> None:
    # wrap a vector in a vector 200 times: vector<vector<...<u8>>>, past depth 128
    m = Mod("nest")
    tok: tuple[object, ...] = U8
    instrs: list[Instruction] = [Instruction(Op.LD_U8, 0)]
    for _ in range(200):
        instrs.append(Instruction(Op.VEC_PACK, (m.sig(tok), 1)))
        tok = ("vector", tok)
    m.fn("f", [], [], code(*instrs, Op.POP, Op.RET))
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f")
    # the element types pass the type depth bound of 20 first
    assert caught.value.status == "VM_MAX_TYPE_DEPTH_REACHED"


def test_vector_length_is_bounded() -> None:
    m = Mod("long")
    s = m.sig(U8)
    m.fn(
        "f",
        [],
        [],
        code(
            (Op.VEC_PACK, (s, 0)),
            (Op.ST_LOC, 0),
            (Op.MUT_BORROW_LOC, 0),
            (Op.LD_U8, 1),
            (Op.VEC_PUSH_BACK, s),
            (Op.BRANCH, 2),
        ),
        locals_=[("vector", U8)],
    )
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f", max_vector_length=100)
    assert caught.value.status == "MEMORY_LIMIT_EXCEEDED"


@pytest.mark.parametrize(
    ("instrs", "status"),
    [
        ((Op.POP, Op.RET), "EMPTY_VALUE_STACK"),
        (((Op.LD_U64, 1),), "PC_OVERFLOW"),  # runs off the end
        (((Op.BRANCH, 99),), "PC_OVERFLOW"),
        (((Op.COPY_LOC, 5), Op.RET), "UNKNOWN_INVARIANT_VIOLATION_ERROR"),
        (((Op.LD_U64, 1), Op.RET), "UNKNOWN_INVARIANT_VIOLATION_ERROR"),  # returns 1, declares 0
        (((Op.LD_CONST, 3), Op.RET), "UNKNOWN_INVARIANT_VIOLATION_ERROR"),  # no such constant
        (((Op.CALL, 42), Op.RET), "UNKNOWN_INVARIANT_VIOLATION_ERROR"),  # no such handle
        (((Op.LD_U8, 300), Op.RET), "UNKNOWN_INVARIANT_VIOLATION_ERROR"),
        (((Op.BR_TRUE, 0), Op.RET), "EMPTY_VALUE_STACK"),
        (((Op.LD_U64, 1), (Op.BR_TRUE, 0)), "UNKNOWN_INVARIANT_VIOLATION_ERROR"),
        (
            ((Op.PACK_CLOSURE, (0, 1)), Op.RET),
            "UNKNOWN_INVARIANT_VIOLATION_ERROR",
        ),  # f has 0 params
        (((Op.CALL_CLOSURE, 0), Op.RET), "EMPTY_VALUE_STACK"),
        (((Op.LD_U64, 1), (Op.CALL_CLOSURE, 0), Op.RET), "UNKNOWN_INVARIANT_VIOLATION_ERROR"),
        ((Instruction(0xEE), Op.RET), "UNKNOWN_OPCODE"),
    ],
)
def test_malformed_bytecode_gets_a_status(instrs: tuple[object, ...], status: str) -> None:
    m = Mod("bad")
    m.fn("f", [], [], code(*instrs))
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f")
    assert caught.value.status == status


def nested_structs(levels: int) -> Mod:
    """S0 { x: u64 }, S1 { inner: S0 }, ... and ``f`` packing the deepest one."""
    m = Mod("chain")
    m.struct("S0", [("x", U64)])
    for i in range(1, levels):
        m.struct(f"S{i}", [("inner", ("struct", i - 1))])
    instrs = [Instruction(Op.LD_U64, 7)] + [Instruction(Op.PACK, i) for i in range(levels)]
    m.fn("f", [], [], code(*instrs, Op.POP, Op.RET))
    return m


def test_value_depth_128_is_allowed_129_is_not() -> None:
    assert run(nested_structs(128).build(), "f") == []
    with pytest.raises(MoveExecutionError) as caught:
        run(nested_structs(129).build(), "f")
    assert caught.value.status == "VM_MAX_VALUE_DEPTH_REACHED"


def test_abort_with_a_message() -> None:
    m = Mod("msg")
    s = m.sig(U8)
    m.fn(
        "f",
        [],
        [],
        code(
            (Op.LD_U64, 9), (Op.LD_U8, 0x6F), (Op.LD_U8, 0x6B), (Op.VEC_PACK, (s, 2)), Op.ABORT_MSG
        ),
    )
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f")
    assert (caught.value.status, caught.value.abort_code, caught.value.message) == (
        "ABORTED",
        9,
        "ok",
    )


def test_copying_a_large_value_counts_against_the_instruction_bound() -> None:
    # a vector<u64> of 10,000 elements (abstract size 40 + 8 x 10,000) copied in a loop:
    # each copy counts 1,250 instructions more: after 2 + 7 x 1,253 = 8,773 the eighth
    # copy brings the count to 10,024, and the instruction after it (POP) stops
    m = Mod("copies")
    data = b"\x90\x4e" + bytes(8 * 10_000)  # ULEB128 10,000 then the zeros
    big = m.const(("vector", U64), data)
    m.fn(
        "f",
        [],
        [],
        code((Op.LD_CONST, big), (Op.ST_LOC, 0), (Op.COPY_LOC, 0), Op.POP, (Op.BRANCH, 2)),
        locals_=[("vector", U64)],
    )
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f", budget=10**15, max_steps=10_000)
    assert caught.value.status == "EXECUTION_LIMIT_REACHED"
    assert caught.value.offset == 3
