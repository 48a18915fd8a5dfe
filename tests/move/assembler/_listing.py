"""A compiled module or script as text, names resolved: what a test prints when bytecode
does not do what it should, and what a reader compares with the Move source."""

from __future__ import annotations

from ledgerkit.localnet.vm.move._format import (
    CodeUnit,
    CompiledModule,
    CompiledScript,
    Instruction,
    Op,
)

from . import _opcodes as ops

_NAMES = {opcode: name for name, (opcode, _) in {**ops.INSTRUCTIONS, **ops.LITERALS}.items()}
_ABILITY_NAMES = ((0x1, "copy"), (0x2, "drop"), (0x4, "store"), (0x8, "key"))
_VISIBILITY = {0x0: "", 0x1: "public ", 0x3: "friend "}

Unit = CompiledModule | CompiledScript


def _abilities(bits: int) -> str:
    return ", ".join(name for bit, name in _ABILITY_NAMES if bits & bit)


def _address(raw: bytes) -> str:
    return "0x" + (raw.hex().lstrip("0") or "0")


def _struct(unit: Unit, handle: int) -> str:
    sh = unit.struct_handles[handle]
    mh = unit.module_handles[sh.module]
    module = f"{_address(unit.address_identifiers[mh.address])}::{unit.identifiers[mh.name]}"
    return f"{module}::{unit.identifiers[sh.name]}"


def type_text(unit: Unit, tok: tuple[object, ...]) -> str:
    """A signature token as Move type text (structs fully qualified)."""
    kind = tok[0]
    if kind == "vector":
        return f"vector<{type_text(unit, tok[1])}>"  # type: ignore[arg-type]
    if kind == "ref":
        return "&" + type_text(unit, tok[1])  # type: ignore[arg-type]
    if kind == "mut_ref":
        return "&mut " + type_text(unit, tok[1])  # type: ignore[arg-type]
    if kind == "tparam":
        return f"T{tok[1]}"
    if kind == "struct":
        return _struct(unit, int(tok[1]))  # type: ignore[call-overload]
    if kind == "struct_inst":
        args = ", ".join(type_text(unit, a) for a in tok[2])  # type: ignore[attr-defined]
        return f"{_struct(unit, int(tok[1]))}<{args}>"  # type: ignore[call-overload]
    return str(kind)


def _types(unit: Unit, sig: int) -> str:
    return ", ".join(type_text(unit, t) for t in unit.signatures[sig])


def _function(unit: Unit, handle: int) -> str:
    fh = unit.function_handles[handle]
    mh = unit.module_handles[fh.module]
    module = f"{_address(unit.address_identifiers[mh.address])}::{unit.identifiers[mh.name]}"
    return f"{module}::{unit.identifiers[fh.name]}"


def _operand(unit: Unit, ins: Instruction) -> str:
    op, arg = ins.op, ins.arg
    if arg is None:
        return ""
    if op in (Op.CALL,):
        return _function(unit, arg)
    if op == Op.CALL_GENERIC:
        fi = unit.function_instantiations[arg]
        return f"{_function(unit, fi.handle)}<{_types(unit, fi.type_parameters)}>"
    if op in (Op.VEC_PACK, Op.VEC_UNPACK):
        return f"{_types(unit, arg[0])}, {arg[1]}"
    if op in (Op.VEC_LEN, Op.VEC_IMM_BORROW, Op.VEC_MUT_BORROW, Op.VEC_PUSH_BACK):
        return _types(unit, arg)
    if op in (Op.VEC_POP_BACK, Op.VEC_SWAP):
        return _types(unit, arg)
    if op == Op.LD_CONST:
        c = unit.constant_pool[arg]
        return f"{type_text(unit, c.type_)} 0x{c.data.hex()}"
    if isinstance(unit, CompiledModule):
        return _module_operand(unit, ins)
    return str(arg)


def _module_operand(unit: CompiledModule, ins: Instruction) -> str:
    op, arg = ins.op, ins.arg
    name = _NAMES[op]
    if name.removesuffix("Generic") in ("ImmBorrowField", "MutBorrowField"):
        handle = arg if not name.endswith("Generic") else unit.field_instantiations[arg].handle
        fh = unit.field_handles[handle]
        sd = unit.struct_defs[fh.owner]
        field = unit.identifiers[(sd.fields or ())[fh.field].name]
        return f"{unit.identifiers[unit.struct_handles[sd.struct_handle].name]}.{field}"
    struct_ops = {"Pack", "Unpack", "Exists", "MoveFrom", "MoveTo"}
    struct_ops |= {"MutBorrowGlobal", "ImmBorrowGlobal"}
    if name in struct_ops:
        sh = unit.struct_handles[unit.struct_defs[int(arg)].struct_handle]
        return unit.identifiers[sh.name]
    if name.removesuffix("Generic") in struct_ops:
        si = unit.struct_def_instantiations[arg]
        sh = unit.struct_handles[unit.struct_defs[si.def_].struct_handle]
        return f"{unit.identifiers[sh.name]}<{_types(unit, si.type_parameters)}>"
    return str(arg)


def _code(unit: Unit, code: CodeUnit, indent: str) -> list[str]:
    lines = []
    if unit.signatures[code.locals]:
        lines.append(f"{indent}locals: {_types(unit, code.locals)}")
    for pc, ins in enumerate(code.code):
        operand = _operand(unit, ins)
        lines.append(f"{indent}{pc:3d} {_NAMES[ins.op]}{' ' + operand if operand else ''}")
    return lines


def listing(unit: Unit) -> str:
    """``unit`` as text: header, structs, then each function's signature and code."""
    if isinstance(unit, CompiledScript):
        lines = [f"script main({_types(unit, unit.parameters)})"]
        return "\n".join([*lines, *_code(unit, unit.code, "  ")]) + "\n"
    lines = [f"module {_address(unit.address)}::{unit.name}"]
    for sd in unit.struct_defs:
        sh = unit.struct_handles[sd.struct_handle]
        fields = ", ".join(
            f"{unit.identifiers[f.name]}: {type_text(unit, f.signature)}" for f in sd.fields or ()
        )
        body = " native" if sd.fields is None else f" {{ {fields} }}"
        has = f" has {_abilities(sh.abilities)}" if sh.abilities else ""
        lines.append(f"  struct {unit.identifiers[sh.name]}{has}{body}")
    for fd in unit.function_defs:
        fh = unit.function_handles[fd.function]
        entry = "entry " if fd.is_entry else ""
        returns = f": ({_types(unit, fh.return_)})" if unit.signatures[fh.return_] else ""
        head = f"{_VISIBILITY.get(fd.visibility, '')}{entry}fun {unit.identifiers[fh.name]}"
        lines.append(f"  {head}({_types(unit, fh.parameters)}){returns}")
        if fd.code is not None:
            lines.extend(_code(unit, fd.code, "    "))
    return "\n".join(lines) + "\n"
