"""Small Move modules for the interpreter's tests, built straight into the data model,
and a host over dicts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledgerkit.localnet.vm.move._entry import execute_function
from ledgerkit.localnet.vm.move._format import (
    VISIBILITY_PUBLIC,
    CodeUnit,
    CompiledModule,
    Constant,
    FieldDefinition,
    FieldHandle,
    FieldInstantiation,
    FunctionDefinition,
    FunctionHandle,
    FunctionInstantiation,
    Instruction,
    ModuleHandle,
    Op,
    StructDefinition,
    StructDefInstantiation,
    StructHandle,
    StructTypeParameter,
    StructVariantHandle,
    VariantDefinition,
    VariantFieldHandle,
)
from ledgerkit.localnet.vm.move._interp_gas import GasMeter
from ledgerkit.localnet.vm.move._runtime_types import StructType

U64 = ("u64",)
U8 = ("u8",)
BOOL = ("bool",)
ADDRESS = ("address",)
SIGNER = ("signer",)
ALL = 0x7  # copy, drop, store
KEY = 0x8


def addr(n: int) -> bytes:
    return n.to_bytes(32, "big")


def code(*instrs: Any) -> tuple[Instruction, ...]:
    """Instructions from ``Op`` or ``(Op, arg)`` items."""
    return tuple(
        Instruction(i[0], i[1]) if isinstance(i, tuple) else Instruction(i, None) for i in instrs
    )


class Mod:
    """A module under construction at ``address`` named ``name``."""

    def __init__(self, name: str, address: int = 0xCAFE) -> None:
        self.identifiers: list[str] = []
        self.addresses: list[bytes] = []
        self.module_handles: list[ModuleHandle] = []
        self.struct_handles: list[StructHandle] = []
        self.struct_defs: list[StructDefinition] = []
        self.function_handles: list[FunctionHandle] = []
        self.function_defs: list[FunctionDefinition] = []
        self.signatures: list[tuple[Any, ...]] = []
        self.field_handles: list[FieldHandle] = []
        self.field_insts: list[FieldInstantiation] = []
        self.struct_insts: list[StructDefInstantiation] = []
        self.fn_insts: list[FunctionInstantiation] = []
        self.constants: list[Constant] = []
        self.variant_handles: list[StructVariantHandle] = []
        self.variant_field_handles: list[VariantFieldHandle] = []
        self.self_handle = self.module_handle(address, name)

    def ident(self, text: str) -> int:
        if text not in self.identifiers:
            self.identifiers.append(text)
        return self.identifiers.index(text)

    def module_handle(self, address: int, name: str) -> int:
        raw = addr(address)
        if raw not in self.addresses:
            self.addresses.append(raw)
        handle = ModuleHandle(self.addresses.index(raw), self.ident(name))
        if handle not in self.module_handles:
            self.module_handles.append(handle)
        return self.module_handles.index(handle)

    def sig(self, *tokens: Any) -> int:
        if tokens not in self.signatures:
            self.signatures.append(tokens)
        return self.signatures.index(tokens)

    def struct(
        self,
        name: str,
        fields: Sequence[tuple[str, Any]] | None,
        abilities: int = ALL,
        tparams: Sequence[bool] = (),
        variants: Sequence[tuple[str, Sequence[tuple[str, Any]]]] | None = None,
    ) -> tuple[int, int]:
        """(handle, definition) of a struct (or, with ``variants``, an enum) defined
        here; ``tparams`` lists each type parameter's phantom flag."""
        params = tuple(StructTypeParameter(0, phantom) for phantom in tparams)
        self.struct_handles.append(
            StructHandle(self.self_handle, self.ident(name), abilities, params)
        )
        handle = len(self.struct_handles) - 1
        defs = None if fields is None else self._fields(fields)
        vdefs = None
        if variants is not None:
            vdefs = tuple(VariantDefinition(self.ident(v), self._fields(fs)) for v, fs in variants)
        self.struct_defs.append(StructDefinition(handle, defs, vdefs))
        return handle, len(self.struct_defs) - 1

    def _fields(self, fields: Sequence[tuple[str, Any]]) -> tuple[FieldDefinition, ...]:
        return tuple(FieldDefinition(self.ident(n), t) for n, t in fields)

    def ext_struct(self, address: int, module: str, name: str, abilities: int = ALL) -> int:
        mh = self.module_handle(address, module)
        self.struct_handles.append(StructHandle(mh, self.ident(name), abilities, ()))
        return len(self.struct_handles) - 1

    def field(self, def_index: int, field: int) -> int:
        self.field_handles.append(FieldHandle(def_index, field))
        return len(self.field_handles) - 1

    def field_inst(self, def_index: int, field: int, *types: Any) -> int:
        self.field_insts.append(FieldInstantiation(self.field(def_index, field), self.sig(*types)))
        return len(self.field_insts) - 1

    def struct_inst(self, def_index: int, *types: Any) -> int:
        self.struct_insts.append(StructDefInstantiation(def_index, self.sig(*types)))
        return len(self.struct_insts) - 1

    def variant(self, def_index: int, variant: int) -> int:
        self.variant_handles.append(StructVariantHandle(def_index, variant))
        return len(self.variant_handles) - 1

    def variant_field(self, def_index: int, variants: tuple[int, ...], field: int) -> int:
        self.variant_field_handles.append(VariantFieldHandle(def_index, variants, field))
        return len(self.variant_field_handles) - 1

    def const(self, token: Any, data: bytes) -> int:
        self.constants.append(Constant(token, data))
        return len(self.constants) - 1

    def handle(
        self,
        module: int,
        name: str,
        params: Sequence[Any] = (),
        returns: Sequence[Any] = (),
        tparams: int = 0,
    ) -> int:
        """A function handle of module handle ``module``."""
        self.function_handles.append(
            FunctionHandle(
                module, self.ident(name), self.sig(*params), self.sig(*returns), (0,) * tparams
            )
        )
        return len(self.function_handles) - 1

    def ext_fn(
        self,
        address: int,
        module: str,
        name: str,
        params: Sequence[Any] = (),
        returns: Sequence[Any] = (),
        tparams: int = 0,
    ) -> int:
        return self.handle(self.module_handle(address, module), name, params, returns, tparams)

    def fn_inst(self, handle: int, *types: Any) -> int:
        self.fn_insts.append(FunctionInstantiation(handle, self.sig(*types)))
        return len(self.fn_insts) - 1

    def declare(
        self, name: str, params: Sequence[Any] = (), returns: Sequence[Any] = (), tparams: int = 0
    ) -> int:
        return self.handle(self.self_handle, name, params, returns, tparams)

    def define(
        self,
        handle: int,
        instrs: tuple[Instruction, ...] | None,
        locals_: Sequence[Any] = (),
        visibility: int = VISIBILITY_PUBLIC,
    ) -> None:
        body = None if instrs is None else CodeUnit(self.sig(*locals_), instrs)
        self.function_defs.append(FunctionDefinition(handle, visibility, False, (), body))

    def fn(
        self,
        name: str,
        params: Sequence[Any],
        returns: Sequence[Any],
        instrs: tuple[Instruction, ...],
        locals_: Sequence[Any] = (),
        tparams: int = 0,
        visibility: int = VISIBILITY_PUBLIC,
    ) -> int:
        handle = self.declare(name, params, returns, tparams)
        self.define(handle, instrs, locals_, visibility)
        return handle

    def build(self) -> CompiledModule:
        return CompiledModule(
            version=7,
            self_handle=self.self_handle,
            module_handles=tuple(self.module_handles),
            struct_handles=tuple(self.struct_handles),
            function_handles=tuple(self.function_handles),
            field_handles=tuple(self.field_handles),
            struct_def_instantiations=tuple(self.struct_insts),
            function_instantiations=tuple(self.fn_insts),
            field_instantiations=tuple(self.field_insts),
            signatures=tuple(self.signatures),
            identifiers=tuple(self.identifiers),
            address_identifiers=tuple(self.addresses),
            constant_pool=tuple(self.constants),
            struct_defs=tuple(self.struct_defs),
            function_defs=tuple(self.function_defs),
            struct_variant_handles=tuple(self.variant_handles),
            variant_field_handles=tuple(self.variant_field_handles),
        )


class DictHost:
    """A host over dicts: published modules, resources, events, bridge functions."""

    def __init__(self, *modules: CompiledModule) -> None:
        self.modules = {(m.address, m.name): m for m in modules}
        self.resources: dict[tuple[bytes, StructType], Any] = {}
        self.events: list[tuple[StructType, Any]] = []
        self.bridge: dict[tuple[str, str], Any] = {}
        self.bridge_calls: list[tuple[str, str]] = []

    def load_module(self, address: bytes, name: str) -> CompiledModule | None:
        return self.modules.get((address, name))

    def call_framework(self, address, module, function, type_args, args, meter):  # type: ignore[no-untyped-def]
        self.bridge_calls.append((module, function))
        body = self.bridge.get((module, function))
        return None if body is None else body(type_args, args, meter)

    def resource_exists(self, address: bytes, ty: StructType) -> bool:
        return (address, ty) in self.resources

    def borrow_resource(self, address: bytes, ty: StructType, mutable: bool) -> Any:
        return self.resources.get((address, ty))

    def move_resource_to(self, address: bytes, ty: StructType, value: Any) -> bool:
        if (address, ty) in self.resources:
            return False
        self.resources[(address, ty)] = value
        return True

    def move_resource_from(self, address: bytes, ty: StructType) -> Any:
        return self.resources.pop((address, ty), None)

    def emit_event(self, ty: StructType, value: Any) -> None:
        self.events.append((ty, value))


def run(
    module: CompiledModule,
    name: str,
    args: Sequence[Any] = (),
    type_args: Sequence[Any] = (),
    *,
    host: DictHost | None = None,
    budget: int = 10**9,
    **limits: Any,
) -> list[Any]:
    """Run ``module::name``; its results."""
    from ledgerkit.localnet.vm.move._host import Limits

    host = host or DictHost(module)
    return execute_function(
        host, module, name, type_args, args, meter=GasMeter(budget), limits=Limits(**limits)
    )


__all__ = [
    "ADDRESS", "ALL", "BOOL", "KEY", "SIGNER", "U8", "U64",
    "DictHost", "Mod", "Op", "addr", "code", "run",
]  # fmt: skip
