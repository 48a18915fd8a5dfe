"""Checks of a compiled module or script written independently of the assembler: every
index points into its table, and every body keeps its stack balanced (one height per
instruction, the function's results at ``Ret``, the code at ``Abort``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ledgerkit.localnet.vm.move._format import (
    CodeUnit,
    CompiledModule,
    CompiledScript,
    Instruction,
    Op,
)

# -- every index resolves (an independent walk over the tables) --------------------------


def _tokens(tok: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    yield tok
    if tok[0] in ("vector", "ref", "mut_ref"):
        yield from _tokens(tok[1])
    elif tok[0] == "struct_inst":
        for arg in tok[2]:
            yield from _tokens(arg)


def _check_signature_tokens(unit: CompiledModule | CompiledScript) -> None:
    for sig in unit.signatures:
        for top in sig:
            for tok in _tokens(top):
                if tok[0] in ("struct", "struct_inst"):
                    assert tok[1] < len(unit.struct_handles)


def _check_common(unit: CompiledModule | CompiledScript) -> None:
    n_id, n_addr = len(unit.identifiers), len(unit.address_identifiers)
    n_sig, n_mod = len(unit.signatures), len(unit.module_handles)
    assert all(len(a) == 32 for a in unit.address_identifiers)
    for mh in unit.module_handles:
        assert mh.address < n_addr
        assert mh.name < n_id
    for sh in unit.struct_handles:
        assert sh.module < n_mod
        assert sh.name < n_id
    for fh in unit.function_handles:
        assert fh.module < n_mod
        assert fh.name < n_id
        assert fh.parameters < n_sig
        assert fh.return_ < n_sig
    for fi in unit.function_instantiations:
        assert fi.handle < len(unit.function_handles)
        assert fi.type_parameters < n_sig
    _check_signature_tokens(unit)


def _check_code(unit: CompiledModule | CompiledScript, code: CodeUnit, n_locals: int) -> None:
    limits = {
        Op.CALL: len(unit.function_handles),
        Op.CALL_GENERIC: len(unit.function_instantiations),
        Op.LD_CONST: len(unit.constant_pool),
    }
    if isinstance(unit, CompiledModule):
        n_defs = len(unit.struct_defs)
        limits |= dict.fromkeys((Op.PACK, Op.UNPACK, Op.EXISTS, Op.MOVE_TO, Op.MOVE_FROM), n_defs)
        limits |= {Op.MUT_BORROW_GLOBAL: n_defs, Op.IMM_BORROW_GLOBAL: n_defs}
        n_inst = len(unit.struct_def_instantiations)
        for op in (Op.PACK_GENERIC, Op.EXISTS_GENERIC, Op.MOVE_TO_GENERIC):
            limits[op] = n_inst
        limits |= {Op.MUT_BORROW_GLOBAL_GENERIC: n_inst, Op.IMM_BORROW_GLOBAL_GENERIC: n_inst}
        limits |= {Op.IMM_BORROW_FIELD: len(unit.field_handles)}
        limits |= {Op.MUT_BORROW_FIELD: len(unit.field_handles)}
        limits |= {Op.IMM_BORROW_FIELD_GENERIC: len(unit.field_instantiations)}
        limits |= {Op.MUT_BORROW_FIELD_GENERIC: len(unit.field_instantiations)}
    assert code.locals < len(unit.signatures)
    for ins in code.code:
        if ins.op in limits:
            assert ins.arg < limits[ins.op], ins
        elif ins.op in (Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH):
            assert ins.arg < len(code.code)
        elif ins.op in (Op.COPY_LOC, Op.MOVE_LOC, Op.ST_LOC, Op.IMM_BORROW_LOC):
            assert ins.arg < n_locals
        elif ins.op in (Op.VEC_PACK, Op.VEC_UNPACK):
            assert ins.arg[0] < len(unit.signatures)
        elif ins.op in (Op.VEC_LEN, Op.VEC_PUSH_BACK, Op.VEC_POP_BACK, Op.VEC_MUT_BORROW):
            assert ins.arg < len(unit.signatures)


def check_indices(unit: CompiledModule | CompiledScript) -> None:
    """Every index of ``unit`` points into its table."""
    _check_common(unit)
    if isinstance(unit, CompiledScript):
        assert unit.parameters < len(unit.signatures)
        n_locals = len(unit.signatures[unit.parameters]) + len(unit.signatures[unit.code.locals])
        _check_code(unit, unit.code, n_locals)
        return
    assert unit.self_handle < len(unit.module_handles)
    for sd in unit.struct_defs:
        assert sd.struct_handle < len(unit.struct_handles)
        for fd in sd.fields or ():
            assert fd.name < len(unit.identifiers)
    for fh in unit.field_handles:
        assert fh.owner < len(unit.struct_defs)
        assert fh.field < len(unit.struct_defs[fh.owner].fields or ())
    for si in unit.struct_def_instantiations:
        assert si.def_ < len(unit.struct_defs)
        assert si.type_parameters < len(unit.signatures)
    for fi in unit.field_instantiations:
        assert fi.handle < len(unit.field_handles)
    for fd in unit.function_defs:
        assert fd.function < len(unit.function_handles)
        assert all(a < len(unit.struct_defs) for a in fd.acquires)
        if fd.code is not None:
            params = unit.signatures[unit.function_handles[fd.function].parameters]
            _check_code(unit, fd.code, len(params) + len(unit.signatures[fd.code.locals]))


# -- every body keeps its stack balanced (what the bytecode verifier checks first) ----------

_PUSH_ONE = {Op.LD_U8, Op.LD_U16, Op.LD_U32, Op.LD_U64, Op.LD_U128, Op.LD_U256, Op.LD_CONST}
_PUSH_ONE |= {Op.LD_TRUE, Op.LD_FALSE, Op.COPY_LOC, Op.MOVE_LOC, Op.MUT_BORROW_LOC}
_PUSH_ONE |= {Op.IMM_BORROW_LOC, Op.LD_I8, Op.LD_I16, Op.LD_I32, Op.LD_I64, Op.LD_I128}
_PUSH_ONE |= {Op.LD_I256}
_POP_ONE = {Op.POP, Op.ST_LOC, Op.BR_TRUE, Op.BR_FALSE, Op.VEC_IMM_BORROW, Op.VEC_MUT_BORROW}
_POP_ONE |= {Op.ADD, Op.SUB, Op.MUL, Op.MOD, Op.DIV, Op.BIT_OR, Op.BIT_AND, Op.XOR, Op.OR}
_POP_ONE |= {Op.AND, Op.EQ, Op.NEQ, Op.LT, Op.GT, Op.LE, Op.GE, Op.SHL, Op.SHR}
_POP_TWO = {Op.WRITE_REF, Op.MOVE_TO, Op.MOVE_TO_GENERIC, Op.VEC_PUSH_BACK}


def _stack_effect(unit: CompiledModule | CompiledScript, ins: Instruction) -> int:
    if ins.op in _PUSH_ONE:
        return 1
    if ins.op in _POP_ONE:
        return -1
    if ins.op in _POP_TWO:
        return -2
    if ins.op in (Op.CALL, Op.CALL_GENERIC):
        handle = ins.arg if ins.op == Op.CALL else unit.function_instantiations[ins.arg].handle
        fh = unit.function_handles[handle]
        return len(unit.signatures[fh.return_]) - len(unit.signatures[fh.parameters])
    if ins.op in (Op.PACK, Op.PACK_GENERIC):
        assert isinstance(unit, CompiledModule)
        def_ = ins.arg if ins.op == Op.PACK else unit.struct_def_instantiations[ins.arg].def_
        return 1 - len(unit.struct_defs[def_].fields or ())
    if ins.op in (Op.UNPACK, Op.UNPACK_GENERIC):
        assert isinstance(unit, CompiledModule)
        def_ = ins.arg if ins.op == Op.UNPACK else unit.struct_def_instantiations[ins.arg].def_
        return len(unit.struct_defs[def_].fields or ()) - 1
    if ins.op == Op.VEC_PACK:
        return 1 - int(ins.arg[1])
    if ins.op == Op.VEC_UNPACK:
        return int(ins.arg[1]) - 1
    if ins.op == Op.VEC_SWAP:
        return -3
    return 0  # field and global borrows, reads, casts, FreezeRef, Branch...


def check_stack(unit: CompiledModule | CompiledScript, code: CodeUnit, returns: int) -> None:
    """Each instruction is reached at one stack height, never below what it pops; Ret
    leaves the function's results, Abort its code."""
    heights: dict[int, int] = {0: 0}
    todo = [0]
    while todo:
        pc = todo.pop()
        ins = code.code[pc]
        height = heights[pc] + _stack_effect(unit, ins)
        assert height >= 0, (pc, ins)
        if ins.op == Op.RET:
            assert heights[pc] == returns, (pc, heights[pc])
            continue
        if ins.op == Op.ABORT:
            assert heights[pc] == 1, pc
            continue
        successors = [] if ins.op == Op.BRANCH else [pc + 1]
        if ins.op in (Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH):
            successors.append(ins.arg)
        for nxt in successors:
            if nxt in heights:
                assert heights[nxt] == height, (pc, nxt)
            else:
                heights[nxt] = height
                todo.append(nxt)
    assert len(heights) == len(code.code)  # no unreachable instruction
