"""The embedded node's Move interpreter: instructions per second on a counting loop,
beside the same loop in plain Python.

The Move function sums 1..N with locals, a comparison, two additions and a branch (13
instructions a round, as the Move compiler lays out a ``while`` loop); the plain Python
loop does the same sum with the same range checks a u64 needs. The ratio says how many
times slower a Move instruction is than a line of Python, and the rate bounds how long
the interpreter's instruction limit (``Limits.max_steps``) can keep a request busy.
Run with ``.venv/bin/python bench/bench_move_interpreter.py [N]``.
"""

from __future__ import annotations

import sys
import time

from ledgerkit.localnet.vm.move import (
    CodeUnit,
    CompiledModule,
    FunctionDefinition,
    FunctionHandle,
    GasMeter,
    Instruction,
    ModuleHandle,
    Op,
    execute_function,
)

ROUND = 13


def loop_module(n: int) -> CompiledModule:
    code = [
        (Op.LD_U64, 0), (Op.ST_LOC, 0), (Op.LD_U64, 1), (Op.ST_LOC, 1),
        (Op.COPY_LOC, 1), (Op.LD_U64, n), (Op.LE, None), (Op.BR_FALSE, 17),
        (Op.MOVE_LOC, 0), (Op.COPY_LOC, 1), (Op.ADD, None), (Op.ST_LOC, 0),
        (Op.MOVE_LOC, 1), (Op.LD_U64, 1), (Op.ADD, None), (Op.ST_LOC, 1),
        (Op.BRANCH, 4), (Op.MOVE_LOC, 0), (Op.RET, None),
    ]  # fmt: skip
    return CompiledModule(
        version=6,
        self_handle=0,
        module_handles=(ModuleHandle(0, 0),),
        function_handles=(FunctionHandle(0, 1, 0, 1),),
        signatures=((), (("u64",),), (("u64",), ("u64",))),
        identifiers=("bench", "sum"),
        address_identifiers=(bytes(32),),
        function_defs=(
            FunctionDefinition(
                0, 1, False, (), CodeUnit(2, tuple(Instruction(op, arg) for op, arg in code))
            ),
        ),
    )


class NoHost:
    """The loop touches no storage and calls nothing."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(name)


def python_sum(n: int) -> int:
    total, i = 0, 1
    while i <= n:
        total += i
        if total > 2**64 - 1:
            raise OverflowError
        i += 1
    return total


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    module = loop_module(n)
    start = time.perf_counter()
    (result,) = execute_function(NoHost(), module, "sum", [], [], meter=GasMeter(10**15))  # type: ignore[arg-type]
    move_seconds = time.perf_counter() - start
    start = time.perf_counter()
    expected = python_sum(n)
    python_seconds = time.perf_counter() - start
    assert result == expected == n * (n + 1) // 2
    rate = ROUND * n / move_seconds
    print(f"Move loop of {n} rounds: {move_seconds:.2f} s, {rate:,.0f} instructions/s")
    ratio = move_seconds / python_seconds
    print(f"plain Python loop: {python_seconds:.3f} s; Move / Python per round: {ratio:.0f}x")


if __name__ == "__main__":
    main()
