"""The tables of a compiled unit, filled by interning: each thing gets the index of its
first use, and asking again returns the same index, as the Move compiler's generator
builds them (the self module handle first, then the structs and functions in
declaration order, each function's code interning what it names as it goes)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ledgerkit.localnet.vm.move._format import (
    Constant,
    FieldHandle,
    FieldInstantiation,
    FunctionHandle,
    FunctionInstantiation,
    ModuleHandle,
    StructDefInstantiation,
    StructHandle,
    StructTypeParameter,
)

from ._declarations import FunctionDecl, QualifiedName, StructDecl, TypeParam
from ._types import AssemblyError, TypeText

#: Every table index of the binary format is below this (TABLE_INDEX_MAX + 1).
TABLE_LIMIT = 65536
#: Longest identifier of the binary format (IDENTIFIER_SIZE_MAX).
IDENTIFIER_LIMIT = 255

Token = tuple[object, ...]
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class LocalStruct:
    """A struct defined by the module being built."""

    index: int  # struct definition index
    decl: StructDecl
    fields: tuple[tuple[str, TypeText], ...] | None  # None: native


class _Table(Generic[V]):
    """One table: its items in order and the index of each (by a key naming the item)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.items: list[V] = []
        self.index: dict[Hashable, int] = {}

    def intern(self, key: Hashable, make: Callable[[], V]) -> int:
        found = self.index.get(key)
        if found is not None:
            return found
        item = make()
        # ``make`` may have interned this very key on the way (a struct in its own fields).
        found = self.index.get(key)
        if found is not None:
            return found
        if len(self.items) >= TABLE_LIMIT:
            raise AssemblyError(f"more than {TABLE_LIMIT} entries in the {self.name} table")
        self.items.append(item)
        self.index[key] = len(self.items) - 1
        return len(self.items) - 1


@dataclass
class Pools:
    """The interned tables of one module or script."""

    self_module: tuple[bytes, str] | None
    local_structs: Mapping[str, LocalStruct]
    structs: Mapping[QualifiedName, StructDecl]
    functions: Mapping[QualifiedName, FunctionDecl]
    identifiers: _Table[str] = field(default_factory=lambda: _Table("identifier"))
    addresses: _Table[bytes] = field(default_factory=lambda: _Table("address"))
    module_handles: _Table[ModuleHandle] = field(default_factory=lambda: _Table("module handle"))
    struct_handles: _Table[StructHandle] = field(default_factory=lambda: _Table("struct handle"))
    function_handles: _Table[FunctionHandle] = field(
        default_factory=lambda: _Table("function handle")
    )
    signatures: _Table[tuple[Token, ...]] = field(default_factory=lambda: _Table("signature"))
    constants: _Table[Constant] = field(default_factory=lambda: _Table("constant"))
    function_instantiations: _Table[FunctionInstantiation] = field(
        default_factory=lambda: _Table("function inst")
    )
    struct_def_instantiations: _Table[StructDefInstantiation] = field(
        default_factory=lambda: _Table("struct inst")
    )
    field_handles: _Table[FieldHandle] = field(default_factory=lambda: _Table("field handle"))
    field_instantiations: _Table[FieldInstantiation] = field(
        default_factory=lambda: _Table("field inst")
    )

    # -- names ------------------------------------------------------------------------

    def identifier(self, name: str) -> int:
        if not name or len(name.encode()) > IDENTIFIER_LIMIT or not _is_identifier(name):
            raise AssemblyError(f"not a Move identifier: {name!r}")
        return self.identifiers.intern(name, lambda: name)

    def address(self, raw: bytes) -> int:
        return self.addresses.intern(raw, lambda: raw)

    def module_handle(self, address: bytes, name: str) -> int:
        return self.module_handles.intern(
            (address, name), lambda: ModuleHandle(self.address(address), self.identifier(name))
        )

    # -- types ------------------------------------------------------------------------

    def struct_decl(self, text: TypeText) -> tuple[QualifiedName, StructDecl]:
        """The struct a name in type text refers to: one of this module's, or declared."""
        if text.address is None or self._is_self(text.address, text.module):
            local = self.local_structs.get(text.name)
            if local is None or self.self_module is None:
                raise AssemblyError(f"no struct {text.name!r} in this module")
            return local.decl.name, local.decl
        assert text.module is not None
        name = QualifiedName(text.address, text.module, text.name)
        decl = self.structs.get(name)
        if decl is None:
            raise AssemblyError(f"undeclared struct {_show(name)}: declare_struct() it")
        return name, decl

    def _is_self(self, address: bytes, module: str | None) -> bool:
        return self.self_module is not None and (address, module) == self.self_module

    def struct_handle(self, name: QualifiedName, decl: StructDecl) -> int:
        def make() -> StructHandle:
            module = self.module_handle(name.address, name.module)
            ident = self.identifier(name.name)
            params = tuple(StructTypeParameter(p.constraints, p.phantom) for p in decl.type_params)
            return StructHandle(module, ident, decl.abilities, params)

        return self.struct_handles.intern(name, make)

    def token(self, text: TypeText, scope: Sequence[TypeParam]) -> Token:
        """The signature token of ``text``; names in ``scope`` are type parameters."""
        if text.kind == "prim":
            return (text.name,)
        if text.kind == "vector":
            return ("vector", self.token(text.args[0], scope))
        if text.kind in ("ref", "mut_ref"):
            return (text.kind, self.token(text.args[0], scope))
        names = [p.name for p in scope]
        if text.address is None and text.name in names:
            if text.args:
                raise AssemblyError(f"type parameter {text.name} takes no type arguments")
            return ("tparam", names.index(text.name))
        name, decl = self.struct_decl(text)
        if len(text.args) != len(decl.type_params):
            raise AssemblyError(
                f"{_show(name)} takes {len(decl.type_params)} type arguments, got {len(text.args)}"
            )
        handle = self.struct_handle(name, decl)
        if not text.args:
            return ("struct", handle)
        return ("struct_inst", handle, tuple(self.token(a, scope) for a in text.args))

    def signature(self, tokens: Sequence[Token]) -> int:
        sig = tuple(tokens)
        if len(sig) > 255:
            raise AssemblyError("a signature holds at most 255 types")
        return self.signatures.intern(sig, lambda: sig)

    def types_signature(self, texts: Sequence[TypeText], scope: Sequence[TypeParam]) -> int:
        return self.signature([self.token(t, scope) for t in texts])

    # -- functions, instantiations, fields, constants ---------------------------------

    def function_handle(self, decl: FunctionDecl) -> int:
        def make() -> FunctionHandle:
            module = self.module_handle(decl.name.address, decl.name.module)
            ident = self.identifier(decl.name.name)
            params = self.types_signature(decl.params, decl.type_params)
            returns = self.types_signature(decl.returns, decl.type_params)
            constraints = tuple(p.constraints for p in decl.type_params)
            return FunctionHandle(module, ident, params, returns, constraints, None, ())

        return self.function_handles.intern(decl.name, make)

    def function_instantiation(self, handle: int, type_args: int) -> int:
        return self.function_instantiations.intern(
            (handle, type_args), lambda: FunctionInstantiation(handle, type_args)
        )

    def struct_def_instantiation(self, def_: int, type_args: int) -> int:
        return self.struct_def_instantiations.intern(
            (def_, type_args), lambda: StructDefInstantiation(def_, type_args)
        )

    def field_handle(self, owner: int, offset: int) -> int:
        return self.field_handles.intern((owner, offset), lambda: FieldHandle(owner, offset))

    def field_instantiation(self, handle: int, type_args: int) -> int:
        return self.field_instantiations.intern(
            (handle, type_args), lambda: FieldInstantiation(handle, type_args)
        )

    def constant(self, token: Token, data: bytes) -> int:
        if len(data) > 65535:
            raise AssemblyError("a constant is at most 65,535 bytes")
        return self.constants.intern((token, data), lambda: Constant(token, data))


def _is_identifier(name: str) -> bool:
    # Move identifiers: a letter (or ``_`` followed by more), then letters, digits, ``_``
    # and, since version 9, ``$``.
    if not name.isascii():
        return False
    head, rest = name[0], name[1:]
    if not (head.isalpha() or (head == "_" and rest)):
        return False
    return all(c.isalnum() or c in "_$" for c in rest)


def _show(name: QualifiedName) -> str:
    return f"0x{name.address.hex().lstrip('0') or '0'}::{name.module}::{name.name}"
