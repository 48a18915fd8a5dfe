"""Runtime values of the Move interpreter.

Integers are ``int`` subclasses, one per width (:class:`U8Value` ... :class:`U256Value`,
:class:`I8Value` ... :class:`I256Value`), so a value knows its type and the interpreter can check
ranges and refuse mixed widths without a verifier; ``bool`` is Python's bool; an address
is an :class:`AddressValue` (32 bytes), a signer a :class:`SignerValue`. Vectors and
structs are mutable containers (:class:`VectorValue`, :class:`StructValue`, the latter
also an enum's variant): Move values are never aliased (copies are deep, moves hand the
object over), so a :class:`Reference` can point *into* one: it is a cell (a frame's
locals, a struct's field list, a vector's element list, or a one-slot cell holding a
global resource) and an index in it. Writing through a reference to a struct or vector
replaces its contents in place, so a resource the host handed out sees the change.

Values know their own BCS (``_value_bcs``): widths come from the integer classes and a
vector carries its element type.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from ledgerkit.localnet.vm.move._format import ABILITY_COPY, ABILITY_DROP, ABILITY_STORE
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError, invariant
from ledgerkit.localnet.vm.move._runtime_types import (
    ReferenceType,
    RuntimeType,
    StructType,
    VectorType,
    abilities_of,
)

__all__ = [
    "INT_CLASSES",
    "AddressValue",
    "ClosureValue",
    "I8Value",
    "I16Value",
    "I32Value",
    "I64Value",
    "I128Value",
    "I256Value",
    "MoveInt",
    "Reference",
    "SignerValue",
    "StructValue",
    "U8Value",
    "U16Value",
    "U32Value",
    "U64Value",
    "U128Value",
    "U256Value",
    "Value",
    "VectorValue",
    "abstract_size",
    "copy_value",
    "value_abilities",
    "value_has_type",
    "values_equal",
]

#: Deepest nesting of vectors and structs (a node's ``max_value_nest_depth``).
MAX_VALUE_DEPTH: Final = 128
Value = Any


class MoveInt(int):
    """An integer of one Move width; arithmetic on it yields plain ``int``."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    BITS: ClassVar[int] = 0
    SIGNED: ClassVar[bool] = False
    MIN: ClassVar[int] = 0
    MAX: ClassVar[int] = 0

    def __repr__(self) -> str:
        return f"{int(self)}{self.TYPE}"


def _int_class(name: str, bits: int, signed: bool) -> type[MoveInt]:
    low = -(1 << (bits - 1)) if signed else 0
    high = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    attrs = {"__slots__": (), "TYPE": name, "BITS": bits, "SIGNED": signed, "MIN": low}
    attrs["MAX"] = high
    return type(f"{name.upper()}Value", (MoveInt,), attrs)


U8Value = _int_class("u8", 8, False)
U16Value = _int_class("u16", 16, False)
U32Value = _int_class("u32", 32, False)
U64Value = _int_class("u64", 64, False)
U128Value = _int_class("u128", 128, False)
U256Value = _int_class("u256", 256, False)
I8Value = _int_class("i8", 8, True)
I16Value = _int_class("i16", 16, True)
I32Value = _int_class("i32", 32, True)
I64Value = _int_class("i64", 64, True)
I128Value = _int_class("i128", 128, True)
I256Value = _int_class("i256", 256, True)
INT_CLASSES: Final[dict[str, type[MoveInt]]] = {
    c.TYPE: c
    for c in (
        U8Value,
        U16Value,
        U32Value,
        U64Value,
        U128Value,
        U256Value,
        I8Value,
        I16Value,
        I32Value,
        I64Value,
        I128Value,
        I256Value,
    )
}


class AddressValue(bytes):
    """A 32-byte account address."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "@0x" + (self.hex().lstrip("0") or "0")


class SignerValue:
    """A signer: the address it signs for."""

    __slots__ = ("address",)

    def __init__(self, address: bytes) -> None:
        self.address = AddressValue(address)

    def __repr__(self) -> str:
        return f"signer({self.address!r})"


class VectorValue:
    """A vector: its element type and its elements."""

    __slots__ = ("elem_type", "elems")

    def __init__(self, elem_type: RuntimeType, elems: list[Value]) -> None:
        self.elem_type = elem_type
        self.elems = elems

    def __repr__(self) -> str:
        return f"vector{self.elems!r}"


class StructValue:
    """A struct (``variant`` None) or an enum value of variant ``variant``."""

    __slots__ = ("fields", "ty", "variant")

    def __init__(self, ty: StructType, fields: list[Value], variant: int | None = None) -> None:
        self.ty = ty
        self.fields = fields
        self.variant = variant

    def __repr__(self) -> str:
        tag = "" if self.variant is None else f"#{self.variant}"
        return f"{self.ty.name}{tag}{self.fields!r}"


class Reference:
    """A reference to slot ``index`` of ``cell`` (locals, fields, elements, a resource)."""

    __slots__ = ("cell", "index", "mutable")

    def __init__(self, cell: list[Value], index: int, mutable: bool) -> None:
        self.cell = cell
        self.index = index
        self.mutable = mutable

    def read(self) -> Value:
        value = self.cell[self.index]
        if value is INVALID:
            raise invariant("reference to a moved value")
        return value

    def write(self, value: Value) -> None:
        old = self.cell[self.index]
        if isinstance(old, StructValue) and isinstance(value, StructValue):
            if old.ty != value.ty:
                raise invariant(f"writing a {value.ty} over a {old.ty}")
            old.fields[:] = value.fields
            old.variant = value.variant
        elif isinstance(old, VectorValue) and isinstance(value, VectorValue):
            old.elems[:] = value.elems
        else:
            self.cell[self.index] = value


class ClosureValue:
    """A function value: function handle ``handle`` of ``tables`` (the module that packed
    it) instantiated with ``type_args``, with ``captured`` values for the parameters whose
    bit is set in ``mask`` (bit 0: the first parameter)."""

    __slots__ = ("abilities", "captured", "handle", "mask", "tables", "type_args")

    def __init__(
        self,
        tables: Any,
        handle: int,
        type_args: tuple[RuntimeType, ...],
        mask: int,
        captured: list[Value],
        abilities: int,
    ) -> None:
        self.tables = tables
        self.handle = handle
        self.type_args = type_args
        self.mask = mask
        self.captured = captured
        self.abilities = abilities

    def identity(self) -> tuple[bytes, str, str, tuple[RuntimeType, ...], int]:
        """The function it calls: (address, module, name, type arguments, mask)."""
        handle = self.tables.function_handles[self.handle]
        address, module = self.tables.module_id(handle.module)
        return address, module, self.tables.function_name(self.handle), self.type_args, self.mask


class _Invalid:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<invalid>"


#: The content of a local that holds nothing (never set, or moved out).
INVALID: Final = _Invalid()


def copy_value(value: Value) -> Value:
    """A deep copy (references are copied as references)."""
    if isinstance(value, VectorValue):
        return VectorValue(value.elem_type, [copy_value(v) for v in value.elems])
    if isinstance(value, StructValue):
        return StructValue(value.ty, [copy_value(v) for v in value.fields], value.variant)
    if isinstance(value, ClosureValue):
        captured = [copy_value(v) for v in value.captured]
        return ClosureValue(
            value.tables, value.handle, value.type_args, value.mask, captured, value.abilities
        )
    return value


def values_equal(a: Value, b: Value) -> bool:
    """Move equality: same type, same contents (references compare what they point to)."""
    if isinstance(a, Reference) and isinstance(b, Reference):
        return values_equal(a.read(), b.read())
    if type(a) is not type(b):
        raise invariant(f"comparing {type(a).__name__} with {type(b).__name__}")
    if isinstance(a, VectorValue):
        return len(a.elems) == len(b.elems) and all(
            values_equal(x, y) for x, y in zip(a.elems, b.elems, strict=True)
        )
    if isinstance(a, StructValue):
        return (
            a.ty == b.ty
            and a.variant == b.variant
            and all(values_equal(x, y) for x, y in zip(a.fields, b.fields, strict=True))
        )
    if isinstance(a, SignerValue):
        return bool(a.address == b.address)
    if isinstance(a, ClosureValue):
        return a.identity() == b.identity() and all(
            values_equal(x, y) for x, y in zip(a.captured, b.captured, strict=True)
        )
    return bool(a == b)


def value_abilities(value: Value) -> int:
    """The abilities of a value's type (references: copy and drop)."""
    if isinstance(value, StructValue):
        return value.ty.abilities
    if isinstance(value, VectorValue):
        return abilities_of(VectorType(value.elem_type))
    if isinstance(value, SignerValue):
        return ABILITY_DROP
    if isinstance(value, ClosureValue):
        return value.abilities
    return ABILITY_COPY | ABILITY_DROP | (0 if isinstance(value, Reference) else ABILITY_STORE)


def value_has_type(value: Value, ty: RuntimeType) -> bool:
    """Whether ``value`` is of type ``ty`` (its outer shape: a vector's element type, a
    struct's full type, a reference's kind; not what a reference points to)."""
    if isinstance(ty, str):
        if ty in INT_CLASSES:
            return type(value) is INT_CLASSES[ty]
        kinds = {"bool": bool, "address": AddressValue, "signer": SignerValue}
        return type(value) is kinds.get(ty)
    if isinstance(ty, VectorType):
        return isinstance(value, VectorValue) and value.elem_type == ty.elem
    if isinstance(ty, StructType):
        return isinstance(value, StructValue) and value.ty == ty
    if isinstance(ty, ReferenceType):
        return isinstance(value, Reference) and (value.mutable or not ty.mutable)
    return isinstance(value, ClosureValue)


def check_depth(value: Value, depth: int = 1) -> None:
    """``VM_MAX_VALUE_DEPTH_REACHED`` if ``value`` nests deeper than the node allows."""
    if depth > MAX_VALUE_DEPTH:
        raise MoveExecutionError("VM_MAX_VALUE_DEPTH_REACHED", f"value depth > {MAX_VALUE_DEPTH}")
    if isinstance(value, VectorValue):
        for v in value.elems:
            if isinstance(v, VectorValue | StructValue):
                check_depth(v, depth + 1)
    elif isinstance(value, StructValue):
        for v in value.fields:
            if isinstance(v, VectorValue | StructValue):
                check_depth(v, depth + 1)


_PACKED: Final = {"bool": 1, "address": 32, "u8": 1, "u16": 2, "u32": 4, "u64": 8}
_PACKED_WIDE: Final = {"u128": 16, "u256": 32, "i8": 1, "i16": 2, "i32": 4, "i64": 8}


def abstract_size(value: Value) -> int:
    """The value's abstract size in gas units (aptos-core ``misc.rs`` abs_val figures:
    40 per leaf, struct, vector or reference; vectors of primitives count their packed
    bytes instead of 40 per element)."""
    if isinstance(value, VectorValue):
        elem = value.elem_type
        if isinstance(elem, str):
            width = _PACKED.get(elem) or _PACKED_WIDE.get(elem) or 16
            return 40 + width * len(value.elems)
        return 40 + sum(abstract_size(v) for v in value.elems)
    if isinstance(value, StructValue):
        return 40 + sum(abstract_size(v) for v in value.fields)
    return 40
