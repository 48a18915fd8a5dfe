"""The bounds checker run after reading, after aptos-core's ``check_bounds.rs`` (facts).

Every index points into its table, every field and variant offset into its struct,
every local below the function's parameter and local count (at most 255 together),
every branch inside its code, every type parameter below its function's or struct's
count, and struct types carry as many type arguments as their handle declares.
Statuses: ``NO_MODULE_HANDLES``, ``INDEX_OUT_OF_BOUNDS``, ``TOO_MANY_LOCALS``,
``NUMBER_OF_TYPE_ARGUMENTS_MISMATCH``, ``ZERO_VARIANTS_ERROR``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from ledgerkit.localnet.vm.move._format import (
    AccessSpecifier,
    BytecodeError,
    CodeUnit,
    CompiledModule,
    CompiledScript,
    FunctionHandle,
    SignatureToken,
    StructDefinition,
)
from ledgerkit.localnet.vm.move._operands import (
    CLOSURE,
    INDEX,
    LOCAL,
    OFFSET,
    OPERAND,
    TABLE_OF,
    VEC,
)

__all__ = ["check_module", "check_script"]

LOCALS_MAX: Final = 255
#: Tables whose entries carry a signature of type arguments (checked against the
#: function's type parameters where an instruction uses them).
_INSTANTIATIONS: Final = frozenset(
    {
        "field_instantiations",
        "variant_field_instantiations",
        "function_instantiations",
        "struct_def_instantiations",
        "struct_variant_instantiations",
    }
)


def _oob(what: str, index: int, length: int) -> BytecodeError:
    return BytecodeError("INDEX_OUT_OF_BOUNDS", f"{what} index {index} of {length}")


def _in(table: Sequence[Any], index: int, what: str) -> None:
    if index >= len(table):
        raise _oob(what, index, len(table))


def walk(tok: SignatureToken) -> Iterator[SignatureToken]:
    """Every node of ``tok``, parents first."""
    stack = [tok]
    while stack:
        node = stack.pop()
        yield node
        kind = node[0]
        if kind in ("vector", "ref", "mut_ref"):
            stack.append(node[1])
        elif kind == "struct_inst":
            stack.extend(reversed(node[2]))
        elif kind == "function":
            stack.extend(reversed((*node[1], *node[2])))


class _Checker:
    def __init__(self, unit: CompiledModule | CompiledScript) -> None:
        self.u = unit
        self.max_tparam: dict[int, int] = {}

    def type_(self, tok: SignatureToken) -> None:
        handles = self.u.struct_handles
        for node in walk(tok):
            kind = node[0]
            if kind == "struct" or kind == "struct_inst":
                _in(handles, node[1], "struct handle")
                want = len(handles[node[1]].type_parameters)
                got = len(node[2]) if kind == "struct_inst" else 0
                if want != got:
                    raise BytecodeError(
                        "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH",
                        f"expected {want} type arguments got {got}",
                    )

    def tparams_in_type(self, tok: SignatureToken, count: int) -> None:
        for node in walk(tok):
            if node[0] == "tparam" and node[1] >= count:
                raise _oob("type parameter", node[1], count)

    def tparams_in_signature(self, index: int, count: int) -> None:
        top = self.max_tparam.get(index)
        if top is None:
            _in(self.u.signatures, index, "signature")
            top = -1
            for tok in self.u.signatures[index]:
                for node in walk(tok):
                    if node[0] == "tparam" and node[1] > top:
                        top = node[1]
            self.max_tparam[index] = top
        if top >= count:
            raise _oob("type parameter", top, count)

    def common(self) -> None:
        u = self.u
        for signature in u.signatures:
            for tok in signature:
                self.type_(tok)
        for constant in u.constant_pool:
            self.type_(constant.type_)
        for mh in u.module_handles:
            _in(u.address_identifiers, mh.address, "address")
            _in(u.identifiers, mh.name, "identifier")
        if isinstance(u, CompiledModule):
            _in(u.module_handles, u.self_handle, "module handle")
        for sh in u.struct_handles:
            _in(u.module_handles, sh.module, "module handle")
            _in(u.identifiers, sh.name, "identifier")
        for fh in u.function_handles:
            self.function_handle(fh)

    def function_handle(self, fh: FunctionHandle) -> None:
        u = self.u
        _in(u.module_handles, fh.module, "module handle")
        _in(u.identifiers, fh.name, "identifier")
        _in(u.signatures, fh.parameters, "signature")
        _in(u.signatures, fh.return_, "signature")
        count = len(fh.type_parameters)
        self.tparams_in_signature(fh.parameters, count)
        self.tparams_in_signature(fh.return_, count)
        self.access(fh.access_specifiers, len(u.signatures[fh.parameters]), count)

    def access(self, specs: tuple[AccessSpecifier, ...] | None, params: int, count: int) -> None:
        u = self.u
        for spec in specs or ():
            kind, *rest = spec.resource
            if kind == "at_address":
                _in(u.address_identifiers, rest[0], "address")
            elif kind == "in_module":
                _in(u.module_handles, rest[0], "module handle")
            elif kind in ("resource", "resource_inst"):
                _in(u.struct_handles, rest[0], "struct handle")
            if kind == "resource_inst":
                _in(u.signatures, rest[1], "signature")
                self.tparams_in_signature(rest[1], count)
            if spec.address[0] == "literal":
                _in(u.address_identifiers, spec.address[1], "address")
            elif spec.address[0] == "parameter":
                if spec.address[1] >= params:
                    raise _oob("parameter", spec.address[1], params)
                if spec.address[2] is not None:
                    _in(u.function_instantiations, spec.address[2], "function instantiation")

    def code(self, unit: CodeUnit, tparams: int, params: int) -> None:
        u = self.u
        _in(u.signatures, unit.locals, "signature")
        locals_count = len(u.signatures[unit.locals]) + params
        if locals_count > LOCALS_MAX:
            raise BytecodeError("TOO_MANY_LOCALS", f"{locals_count} locals")
        self.tparams_in_signature(unit.locals, tparams)
        code = unit.code
        for op, arg in code:
            kind = OPERAND[op]
            if kind == OFFSET:
                if arg >= len(code):
                    raise _oob("code offset", arg, len(code))
            elif kind == LOCAL:
                if arg >= locals_count:
                    raise _oob("local", arg, locals_count)
            elif kind in (INDEX, VEC, CLOSURE):
                index = arg if kind == INDEX else arg[0]
                table_name = TABLE_OF[op]
                table = getattr(u, table_name, ())
                _in(table, index, table_name)
                if table_name == "signatures":
                    self.tparams_in_signature(index, tparams)
                elif table_name in _INSTANTIATIONS:
                    self.tparams_in_signature(table[index].type_parameters, tparams)


def _field_count(sdef: StructDefinition, variant: int | None) -> int:
    if variant is None:
        return len(sdef.fields) if sdef.fields is not None else 0
    if sdef.variants is not None and variant < len(sdef.variants):
        return len(sdef.variants[variant].fields)
    return 0


def _variant_in(sdef: StructDefinition, variant: int) -> None:
    count = len(sdef.variants) if sdef.variants is not None else 0
    if variant >= count:
        raise _oob("variant", variant, count)


def _module_tables(ck: _Checker, m: CompiledModule) -> None:
    for fh in m.field_handles:
        _in(m.struct_defs, fh.owner, "struct definition")
        count = _field_count(m.struct_defs[fh.owner], None)
        if fh.field >= count:
            raise _oob("field", fh.field, count)
    for friend in m.friend_decls:
        _in(m.address_identifiers, friend.address, "address")
        _in(m.identifiers, friend.name, "identifier")
    for si in m.struct_def_instantiations:
        _in(m.struct_defs, si.def_, "struct definition")
        _in(m.signatures, si.type_parameters, "signature")
    for fi in m.function_instantiations:
        _in(m.function_handles, fi.handle, "function handle")
        _in(m.signatures, fi.type_parameters, "signature")
    for inst in m.field_instantiations:
        _in(m.field_handles, inst.handle, "field handle")
        _in(m.signatures, inst.type_parameters, "signature")
    for index, sdef in enumerate(m.struct_defs):
        _struct_def(ck, m, index, sdef)
    for fdef in m.function_defs:
        _in(m.function_handles, fdef.function, "function handle")
        for acquired in fdef.acquires:
            _in(m.struct_defs, acquired, "struct definition")
        if fdef.code is not None:
            handle = m.function_handles[fdef.function]
            params = len(m.signatures[handle.parameters])
            ck.code(fdef.code, len(handle.type_parameters), params)
    _variant_tables(m)


def _struct_def(ck: _Checker, m: CompiledModule, index: int, sdef: StructDefinition) -> None:
    _in(m.struct_handles, sdef.struct_handle, "struct handle")
    count = len(m.struct_handles[sdef.struct_handle].type_parameters)
    fields = list(sdef.fields or ())
    for variant in sdef.variants or ():
        _in(m.identifiers, variant.name, "identifier")
        fields.extend(variant.fields)
    for field in fields:
        _in(m.identifiers, field.name, "identifier")
        ck.type_(field.signature)
        ck.tparams_in_type(field.signature, count)
    if sdef.variants is not None and not sdef.variants:
        raise BytecodeError("ZERO_VARIANTS_ERROR", f"struct definition {index} has no variants")


def _variant_tables(m: CompiledModule) -> None:
    for vfh in m.variant_field_handles:
        _in(m.struct_defs, vfh.struct_index, "struct definition")
        sdef = m.struct_defs[vfh.struct_index]
        for variant in vfh.variants:
            _variant_in(sdef, variant)
            count = _field_count(sdef, variant)
            if vfh.field >= count:
                raise _oob("field", vfh.field, count)
    for svh in m.struct_variant_handles:
        _in(m.struct_defs, svh.struct_index, "struct definition")
        _variant_in(m.struct_defs[svh.struct_index], svh.variant)
    for vfi in m.variant_field_instantiations:
        _in(m.variant_field_handles, vfi.handle, "variant field handle")
        _in(m.signatures, vfi.type_parameters, "signature")
    for svi in m.struct_variant_instantiations:
        _in(m.struct_variant_handles, svi.handle, "struct variant handle")
        _in(m.signatures, svi.type_parameters, "signature")


def check_module(m: CompiledModule) -> None:
    """Raise :class:`BytecodeError` at the first index of ``m`` out of bounds."""
    if not m.module_handles:
        raise BytecodeError("NO_MODULE_HANDLES", "a module needs its own handle")
    ck = _Checker(m)
    ck.common()
    _module_tables(ck, m)


def check_script(s: CompiledScript) -> None:
    """Raise :class:`BytecodeError` at the first index of ``s`` out of bounds."""
    ck = _Checker(s)
    ck.common()
    for fi in s.function_instantiations:
        _in(s.function_handles, fi.handle, "function handle")
        _in(s.signatures, fi.type_parameters, "signature")
    _in(s.signatures, s.parameters, "signature")
    ck.tparams_in_signature(s.parameters, len(s.type_parameters))
    params = len(s.signatures[s.parameters])
    ck.access(s.access_specifiers, params, len(s.type_parameters))
    ck.code(s.code, len(s.type_parameters), params)
