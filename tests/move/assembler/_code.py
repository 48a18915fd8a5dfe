"""Function bodies: instructions written by name with readable operands, labels for
branch targets, assembled into the model's instructions against a unit's pools.

An instruction is a tuple ``(name, *operands)`` (or a bare name for one without operand):
``("MoveLoc", 0)``, ``("LdU64", 7)``, ``("Call", "0x1::signer::address_of")``,
``("Call", "0x1::coin::transfer<CoinType>")`` (type arguments pick ``CallGeneric``),
``("Pack", "MessageHolder")``, ``("MoveTo", "Box<T>")``, ``("ImmBorrowField",
"MessageHolder.message")``, ``("VecPack", "u8", 0)``, ``("VecLen", "T")``,
``("LdConst", "vector<u8>", b"hello")`` or ``("LdConst", "NAME")`` for a named constant,
``("BrFalse", "else")`` with ``("Label", "else")`` marking the target. A local is its
index, or its name when the function declared it ``"name: type"`` (``("MoveLoc",
"account")``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledgerkit.localnet.vm.move._format import Instruction, Op

from . import _opcodes as ops
from ._declarations import FunctionDecl, QualifiedName, TypeParam
from ._metadata import encode_value
from ._pools import Pools
from ._types import AssemblyError, TypeText, parse_type

#: The longest function body of the binary format (BYTECODE_COUNT_MAX).
MAX_CODE = 65535
#: Local indices are one byte.
MAX_LOCAL = 255

CodeItem = str | tuple[object, ...]


@dataclass(frozen=True, slots=True)
class NamedConstant:
    """A constant declared by name: its type and value."""

    type_: TypeText
    value: object


class CodeAssembler:
    """Assembles the bodies of one unit: it knows the unit's pools, its own functions
    (by plain name) and its named constants."""

    def __init__(
        self,
        pools: Pools,
        local_functions: Mapping[str, FunctionDecl],
        constants: Mapping[str, NamedConstant],
    ) -> None:
        self.pools = pools
        self.local_functions = local_functions
        self.constants = constants
        self._local_names: dict[str, int] = {}

    def assemble(
        self,
        code: Sequence[CodeItem],
        scope: Sequence[TypeParam],
        local_names: Mapping[str, int] | None = None,
    ) -> tuple[Instruction, ...]:
        """The instructions of ``code``; ``local_names`` lets a local be named by the
        name its parameter or local was declared with."""
        self._local_names = dict(local_names or {})
        items = [(item,) if isinstance(item, str) else tuple(item) for item in code]
        labels: dict[str, int] = {}
        count = 0
        for item in items:
            if item and item[0] == "Label":
                if len(item) != 2 or not isinstance(item[1], str) or item[1] in labels:
                    raise AssemblyError(f"bad or repeated label: {item!r}")
                labels[item[1]] = count
            else:
                count += 1
        if count > MAX_CODE:
            raise AssemblyError(f"more than {MAX_CODE} instructions")
        out = []
        for item in items:
            if item[0] == "Label":
                continue
            try:
                out.append(self.instruction(item, labels, scope))
            except AssemblyError as exc:
                raise AssemblyError(f"{item!r}: {exc}") from None
        return tuple(out)

    def instruction(
        self, item: tuple[object, ...], labels: Mapping[str, int], scope: Sequence[TypeParam]
    ) -> Instruction:
        name, operands = item[0], item[1:]
        if not isinstance(name, str):
            raise AssemblyError("an instruction starts with its name")
        if name in ops.LITERALS:
            opcode, kind = ops.LITERALS[name]
            (value,) = _operands(operands, 1)
            return Instruction(Op(opcode), _literal(kind, value))
        if name not in ops.INSTRUCTIONS:
            raise AssemblyError(f"unknown instruction {name!r}")
        opcode, kind = ops.INSTRUCTIONS[name]
        if kind == ops.NONE:
            _operands(operands, 0)
            return Instruction(Op(opcode), None)
        if kind == ops.LOCAL:
            (local,) = _operands(operands, 1)
            if isinstance(local, str):
                if local not in self._local_names:
                    raise AssemblyError(f"no local named {local!r}")
                local = self._local_names[local]
            return Instruction(Op(opcode), _bounded(local, MAX_LOCAL, "local"))
        if kind == ops.LABEL:
            (target,) = _operands(operands, 1)
            if isinstance(target, str):
                if target not in labels:
                    raise AssemblyError(f"no label {target!r}")
                return Instruction(Op(opcode), labels[target])
            return Instruction(Op(opcode), _bounded(target, MAX_CODE, "offset"))
        if kind == ops.RAW:
            (raw,) = _operands(operands, 1)
            return Instruction(Op(opcode), raw)
        return self._indexed(name, kind, operands, scope)

    def _indexed(
        self, name: str, kind: str, operands: tuple[object, ...], scope: Sequence[TypeParam]
    ) -> Instruction:
        if kind == ops.CONST:
            return Instruction(Op(ops.INSTRUCTIONS[name][0]), self._constant(operands))
        if kind in (ops.VECTOR, ops.VECTOR_COUNT):
            type_text = _text(operands[0] if operands else None)
            sig = self.pools.signature([self.pools.token(parse_type(type_text), scope)])
            opcode = ops.INSTRUCTIONS[name][0]
            if kind == ops.VECTOR:
                _operands(operands, 1)
                return Instruction(Op(opcode), sig)
            _, count = _operands(operands, 2)
            return Instruction(Op(opcode), (sig, _bounded(count, (1 << 64) - 1, "count")))
        (operand,) = _operands(operands, 1)
        text = _text(operand)
        if kind == ops.FUNCTION:
            return self._call(name, text, scope)
        if kind == ops.STRUCT:
            return self._struct_op(name, text, scope)
        return self._field_op(name, text, scope)

    def _generic(self, name: str, type_args: tuple[TypeText, ...]) -> str:
        if name in ops.GENERIC_NAMES:
            if not type_args:
                raise AssemblyError(f"{name} needs type arguments")
            return name
        return ops.GENERIC_TWIN[name] if type_args else name

    def _type_args(self, args: tuple[TypeText, ...], scope: Sequence[TypeParam]) -> int:
        return self.pools.types_signature(args, scope)

    def _call(self, name: str, text: str, scope: Sequence[TypeParam]) -> Instruction:
        target = parse_type(text)
        if target.kind != "name":
            raise AssemblyError(f"not a function: {text!r}")
        decl = self._function(target)
        if len(target.args) != len(decl.type_params):
            raise AssemblyError(
                f"{text} takes {len(decl.type_params)} type arguments, got {len(target.args)}"
            )
        op = self._generic(name, target.args)
        handle = self.pools.function_handle(decl)
        if op == name and name == "Call":
            return Instruction(Op(ops.INSTRUCTIONS[op][0]), handle)
        inst = self.pools.function_instantiation(handle, self._type_args(target.args, scope))
        return Instruction(Op(ops.INSTRUCTIONS[op][0]), inst)

    def _function(self, target: TypeText) -> FunctionDecl:
        if target.address is None:
            local = self.local_functions.get(target.name)
            if local is None:
                raise AssemblyError(f"no function {target.name!r} in this module")
            return local
        assert target.module is not None
        qname = QualifiedName(target.address, target.module, target.name)
        decl = self.pools.functions.get(qname)
        if decl is None:
            raise AssemblyError(f"undeclared function {target.name!r}: declare_function() it")
        return decl

    def _local_struct(self, text: str) -> tuple[int, tuple[TypeText, ...]]:
        target = parse_type(text)
        if target.kind != "name":
            raise AssemblyError(f"not a struct: {text!r}")
        local = self.pools.local_structs.get(target.name)
        foreign = target.address is not None and (
            (target.address, target.module) != self.pools.self_module
        )
        if local is None or foreign:
            raise AssemblyError(f"no struct {target.name!r} defined in this module")
        if len(target.args) != len(local.decl.type_params):
            raise AssemblyError(f"{text}: wrong number of type arguments")
        # The handle is interned where the code names the struct, as the compiler does.
        self.pools.struct_handle(local.decl.name, local.decl)
        return local.index, target.args

    def _struct_op(self, name: str, text: str, scope: Sequence[TypeParam]) -> Instruction:
        def_index, args = self._local_struct(text)
        op = self._generic(name, args)
        if op == name and name in ops.GENERIC_TWIN:
            return Instruction(Op(ops.INSTRUCTIONS[op][0]), def_index)
        inst = self.pools.struct_def_instantiation(def_index, self._type_args(args, scope))
        return Instruction(Op(ops.INSTRUCTIONS[op][0]), inst)

    def _field_op(self, name: str, text: str, scope: Sequence[TypeParam]) -> Instruction:
        struct_text, dot, field_name = text.rpartition(".")
        if not dot:
            raise AssemblyError(f"a field is written Struct.field, not {text!r}")
        def_index, args = self._local_struct(struct_text)
        local = next(s for s in self.pools.local_structs.values() if s.index == def_index)
        names = [f for f, _ in local.fields or ()]
        if field_name not in names:
            raise AssemblyError(f"{struct_text} has no field {field_name!r}")
        handle = self.pools.field_handle(def_index, names.index(field_name))
        op = self._generic(name, args)
        if op == name and name in ops.GENERIC_TWIN:
            return Instruction(Op(ops.INSTRUCTIONS[op][0]), handle)
        inst = self.pools.field_instantiation(handle, self._type_args(args, scope))
        return Instruction(Op(ops.INSTRUCTIONS[op][0]), inst)

    def _constant(self, operands: tuple[object, ...]) -> int:
        if len(operands) == 1 and isinstance(operands[0], str):
            named = self.constants.get(operands[0])
            if named is None:
                raise AssemblyError(f"no constant {operands[0]!r}")
            type_, value = named.type_, named.value
        else:
            type_text, value = _operands(operands, 2)
            type_ = parse_type(_text(type_text))
        token = self.pools.token(type_, ())
        return self.pools.constant(token, encode_value(type_, value))


def _operands(operands: tuple[object, ...], count: int) -> tuple[object, ...]:
    if len(operands) != count:
        raise AssemblyError(f"takes {count} operand(s), got {len(operands)}")
    return operands


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise AssemblyError(f"expected a name or a type, got {value!r}")
    return value


def _bounded(value: object, limit: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise AssemblyError(f"not a {what}: {value!r}")
    return value


def _literal(kind: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AssemblyError(f"not an integer: {value!r}")
    bits = int(kind[1:])
    low, high = (0, 1 << bits) if kind[0] == "u" else (-(1 << (bits - 1)), 1 << (bits - 1))
    if not low <= value < high:
        raise AssemblyError(f"{value} does not fit {kind}")
    return value
