"""Hostile bytecode never breaks the interpreter: every opcode after assorted stack
contents, and instructions with random operands, end in success or a
:class:`MoveExecutionError` with a VM status, never a bare Python exception."""

from __future__ import annotations

import dataclasses
import random

import pytest
from bytecode_samples import every_instruction, full_module
from interp_kit import DictHost, run

from ledgerkit.localnet.vm.move import (
    AddressValue,
    CodeUnit,
    CompiledModule,
    Instruction,
    MoveExecutionError,
    Op,
    U8Value,
    U64Value,
    VectorValue,
)

PREFIXES = (
    (),
    (Instruction(Op.LD_U64, 1),),
    (Instruction(Op.LD_U64, 1), Instruction(Op.LD_U64, 0)),
    (Instruction(Op.LD_TRUE), Instruction(Op.LD_U8, 7)),
    (Instruction(Op.IMM_BORROW_LOC, 2), Instruction(Op.LD_U64, 0)),
    (Instruction(Op.MUT_BORROW_LOC, 2), Instruction(Op.LD_U8, 9)),
    (Instruction(Op.COPY_LOC, 1), Instruction(Op.MOVE_LOC, 0)),
)


def with_body(module: CompiledModule, body: tuple[Instruction, ...]) -> CompiledModule:
    first = module.function_defs[0]
    assert first.code is not None
    code = CodeUnit(first.code.locals, body)
    defs = (dataclasses.replace(first, code=code), *module.function_defs[1:])
    return dataclasses.replace(module, function_defs=defs)


def args() -> list[object]:
    return [
        U64Value(1),
        AddressValue(bytes(31) + b"\x01"),
        VectorValue("u8", [U8Value(1), U8Value(2)]),
    ]


def outcome(module: CompiledModule) -> str:
    try:
        run(module, "f", args(), host=DictHost(module), max_steps=10_000)
    except MoveExecutionError as error:
        return error.status
    return "EXECUTED"


@pytest.mark.parametrize("prefix", PREFIXES, ids=range(len(PREFIXES)))
def test_every_opcode_after_assorted_stacks(prefix: tuple[Instruction, ...]) -> None:
    base = full_module(9)
    statuses = set()
    for instruction in every_instruction(up_to=10):
        body = (*prefix, instruction, Instruction(Op.RET))
        statuses.add(outcome(with_body(base, body)))
    assert "UNKNOWN_INVARIANT_VIOLATION_ERROR" in statuses


def test_random_operands() -> None:
    rng = random.Random(20261129)
    base = full_module(9)
    ops = [i.op for i in every_instruction(up_to=10)]
    operands = (None, 0, 1, 2, 5, 255, 2**64 - 1, -1, (0, 0), (1, 3), (2, 2**64 - 1), "x")
    for _ in range(400):
        body = tuple(
            Instruction(rng.choice(ops), rng.choice(operands)) for _ in range(rng.randint(1, 8))
        )
        assert outcome(with_body(base, body))  # a status, never a Python exception
