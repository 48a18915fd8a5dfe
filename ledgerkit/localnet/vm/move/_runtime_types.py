"""Runtime types of the Move interpreter: signature tokens with their type parameters
substituted, struct types named by (address, module, name, type arguments), abilities.

A runtime type is a primitive's name (``"u64"``, ``"address"``, ``"signer"``...), a
:class:`VectorType`, a :class:`StructType` or a :class:`ReferenceType`. All are hashable
and compare by value, so ``Box<u64>`` made in two frames is one type. A struct type's
abilities are computed when it is built, as the Move type system does: the declared
abilities, less ``copy``/``drop``/``store`` when a non-phantom argument lacks it, less
``key`` when a non-phantom argument lacks ``store``.

Types are bounded as a node bounds them (``max_ty_size`` 128 nodes, ``max_ty_depth`` 20):
past that, ``VM_MAX_TYPE_NODES_REACHED`` / ``VM_MAX_TYPE_DEPTH_REACHED``, which also ends
a generic function that instantiates itself with ever larger types.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, Union

from ledgerkit.localnet.vm.move._format import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_KEY,
    ABILITY_STORE,
    SignatureToken,
    StructHandle,
    StructTypeParameter,
)
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError, invariant

__all__ = [
    "INTEGER_TYPES",
    "PRIMITIVE_TYPES",
    "FunctionType",
    "ReferenceType",
    "RuntimeType",
    "StructType",
    "VectorType",
    "abilities_of",
    "instantiate",
    "struct_abilities",
    "struct_field_types",
    "type_name",
]

MAX_TYPE_NODES: Final = 128
MAX_TYPE_DEPTH: Final = 20
_ALL = ABILITY_COPY | ABILITY_DROP | ABILITY_STORE

INTEGER_TYPES: Final = frozenset(
    ("u8", "u16", "u32", "u64", "u128", "u256", "i8", "i16", "i32", "i64", "i128", "i256")
)
PRIMITIVE_TYPES: Final = INTEGER_TYPES | {"bool", "address", "signer"}


@dataclass(frozen=True, slots=True)
class VectorType:
    elem: RuntimeType


@dataclass(frozen=True, slots=True)
class StructType:
    """A struct (or enum) type; ``abilities`` are those of this instantiation."""

    address: bytes
    module: str
    name: str
    type_args: tuple[RuntimeType, ...] = ()
    abilities: int = 0

    def __str__(self) -> str:
        return type_name(self)


@dataclass(frozen=True, slots=True)
class FunctionType:
    """A function value's type: its parameters, results and abilities."""

    params: tuple[RuntimeType, ...]
    results: tuple[RuntimeType, ...]
    abilities: int


@dataclass(frozen=True, slots=True)
class ReferenceType:
    inner: RuntimeType
    mutable: bool


RuntimeType = Union[str, VectorType, StructType, ReferenceType, FunctionType]  # noqa: UP007


class ModuleTables(Protocol):
    """What :func:`instantiate` reads of a module or script."""

    @property
    def struct_handles(self) -> tuple[StructHandle, ...]: ...

    def module_id(self, handle: int) -> tuple[bytes, str]: ...

    def struct_name(self, handle: int) -> str: ...


def abilities_of(ty: RuntimeType) -> int:
    """The abilities of a runtime type."""
    if isinstance(ty, str):
        return ABILITY_DROP if ty == "signer" else _ALL
    if isinstance(ty, VectorType):
        return abilities_of(ty.elem) & _ALL
    if isinstance(ty, StructType | FunctionType):
        return ty.abilities
    return ABILITY_COPY | ABILITY_DROP


def struct_abilities(
    declared: int, params: Sequence[StructTypeParameter], args: Sequence[RuntimeType]
) -> int:
    """The abilities of a struct declared with ``declared`` instantiated with ``args``."""
    result = declared
    for param, arg in zip(params, args, strict=False):
        if param.is_phantom:
            continue
        have = abilities_of(arg)
        result &= (have & _ALL) | (ABILITY_KEY if have & ABILITY_STORE else 0)
    return result


def _short(address: bytes) -> str:
    return "0x" + (address.hex().lstrip("0") or "0")


def type_name(ty: RuntimeType) -> str:
    """The type's canonical text, as ``0x1::type_info::type_name`` gives it."""
    if isinstance(ty, str):
        return ty
    if isinstance(ty, VectorType):
        return f"vector<{type_name(ty.elem)}>"
    if isinstance(ty, ReferenceType):
        return ("&mut " if ty.mutable else "&") + type_name(ty.inner)
    if isinstance(ty, FunctionType):
        params = ", ".join(type_name(t) for t in ty.params)
        return f"|{params}|" + ", ".join(type_name(t) for t in ty.results)
    text = f"{_short(ty.address)}::{ty.module}::{ty.name}"
    if ty.type_args:
        text += "<" + ", ".join(type_name(a) for a in ty.type_args) + ">"
    return text


def _size(ty: RuntimeType) -> tuple[int, int]:
    """(nodes, depth) of a type."""
    if isinstance(ty, str):
        return 1, 1
    if isinstance(ty, VectorType | ReferenceType):
        nodes, depth = _size(ty.elem if isinstance(ty, VectorType) else ty.inner)
        return nodes + 1, depth + 1
    nodes, depth = 1, 1
    parts = ty.type_args if isinstance(ty, StructType) else ty.params + ty.results
    for arg in parts:
        n, d = _size(arg)
        nodes += n
        depth = max(depth, d + 1)
    return nodes, depth


def check_type_size(ty: RuntimeType) -> RuntimeType:
    """``ty`` if within the node's type bounds, else the VM's error."""
    nodes, depth = _size(ty)
    if nodes > MAX_TYPE_NODES:
        raise MoveExecutionError("VM_MAX_TYPE_NODES_REACHED", f"{nodes} type nodes")
    if depth > MAX_TYPE_DEPTH:
        raise MoveExecutionError("VM_MAX_TYPE_DEPTH_REACHED", f"type depth {depth}")
    return ty


def struct_type(
    tables: ModuleTables, handle_index: int, type_args: tuple[RuntimeType, ...]
) -> StructType:
    """The struct type of handle ``handle_index`` instantiated with ``type_args``."""
    if not 0 <= handle_index < len(tables.struct_handles):
        raise invariant(f"struct handle {handle_index} out of range")
    handle = tables.struct_handles[handle_index]
    if len(type_args) != len(handle.type_parameters):
        raise MoveExecutionError(
            "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH",
            f"{tables.struct_name(handle_index)} takes {len(handle.type_parameters)}",
        )
    address, module = tables.module_id(handle.module)
    abilities = struct_abilities(handle.abilities, handle.type_parameters, type_args)
    name = tables.struct_name(handle_index)
    return StructType(address, module, name, type_args, abilities)


def instantiate(
    tables: ModuleTables, token: SignatureToken, type_args: Sequence[RuntimeType]
) -> RuntimeType:
    """The runtime type of signature token ``token`` with ``type_args`` substituted."""
    return check_type_size(_build(tables, token, type_args))


def _build(
    tables: ModuleTables, token: SignatureToken, type_args: Sequence[RuntimeType]
) -> RuntimeType:
    kind = token[0]
    if kind in PRIMITIVE_TYPES:
        return str(kind)
    if kind == "vector":
        return VectorType(_build(tables, token[1], type_args))
    if kind == "struct":
        return struct_type(tables, token[1], ())
    if kind == "struct_inst":
        args = tuple(_build(tables, t, type_args) for t in token[2])
        return struct_type(tables, token[1], args)
    if kind == "tparam":
        if not 0 <= token[1] < len(type_args):
            raise invariant(f"type parameter {token[1]} out of range")
        return type_args[token[1]]
    if kind in ("ref", "mut_ref"):
        return ReferenceType(_build(tables, token[1], type_args), kind == "mut_ref")
    if kind == "function":
        params = tuple(_build(tables, t, type_args) for t in token[1])
        results = tuple(_build(tables, t, type_args) for t in token[2])
        return FunctionType(params, results, token[3])
    raise invariant(f"unknown signature token {kind!r}")


def struct_field_types(
    module: Any, name: str, type_args: tuple[RuntimeType, ...]
) -> list[tuple[str, RuntimeType]] | None:
    """The fields (name, type) of struct ``name`` of ``module`` (a compiled module)
    instantiated with ``type_args``; None when it declares no such struct with fields
    (an enum, a native struct, another arity)."""
    sdef = module.find_struct_def(name)
    if sdef is None or sdef.fields is None:
        return None
    handle = module.struct_handles[sdef.struct_handle]
    if len(handle.type_parameters) != len(type_args):
        return None
    return [
        (module.identifier(f.name), instantiate(module, f.signature, type_args))
        for f in sdef.fields
    ]
