"""Move values of the interpreter in the API's JSON form, and back, per runtime type.

The node keeps every resource and table item as the API renders it (JSON) next to its
BCS; the framework's Python bodies work on that JSON too. Published Move code works on
the interpreter's values (``vm.move._values``). These pure converters cross between
the two, as a node's API renders a Move value: ``u64``/``u128``/``u256`` (and the wide
signed integers) as decimal text, the narrow integers as numbers, addresses in the
standard form, ``vector<u8>`` as ``0x``-hex, ``0x1::string::String`` as its text,
``0x1::option::Option<T>`` as ``{"vec": [...]}``, ``0x1::object::Object<T>`` as
``{"inner": address}``, other structs as their fields in declaration order (the executor
sorts them by name, as the API lists them, when it writes). A signer
is not a storable value; where a framework body takes one, it is its address.

A struct's fields come from a :data:`Fields` function the caller gives (the node host
reads them from published modules and the framework's declarations).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from ledgerkit._errors import InputError
from ledgerkit.localnet.vm.framework import FRAMEWORK, VMStatusError
from ledgerkit.localnet.vm.move import (
    INT_CLASSES,
    AddressValue,
    CompiledModule,
    ReferenceType,
    RuntimeType,
    SignerValue,
    StructType,
    StructValue,
    VectorType,
    VectorValue,
    stored_module,
    type_text,
)
from ledgerkit.localnet.vm.move import Value as MoveValue
from ledgerkit.types import Address, MoveType, StructTag

__all__ = ["ChainLayouts", "Fields", "from_json", "to_json"]

#: The fields (name, type) of a struct type, or None when it is not known.
Fields = Callable[[StructType], Sequence[tuple[str, RuntimeType]] | None]

_ONE: Final = bytes(31) + b"\x01"
_NUMBERS: Final = frozenset(("u8", "u16", "u32", "i8", "i16", "i32"))
_MAX_DEPTH: Final = 128


def _special(ty: StructType) -> str | None:
    if ty.address != _ONE:
        return None
    return {
        ("string", "String"): "string",
        ("option", "Option"): "option",
        ("object", "Object"): "object",
    }.get((ty.module, ty.name))


def _fields(ty: StructType, fields: Fields) -> Sequence[tuple[str, RuntimeType]]:
    found = fields(ty)
    if found is None:
        raise VMStatusError("UNKNOWN_INVARIANT_VIOLATION_ERROR", f"no layout for {ty}")
    return found


def to_json(value: MoveValue, ty: RuntimeType, fields: Fields, depth: int = 0) -> Any:
    """``value`` (of type ``ty``) as the API's JSON."""
    if depth > _MAX_DEPTH:
        raise VMStatusError("VM_MAX_VALUE_DEPTH_REACHED", "value too deep")
    if isinstance(ty, ReferenceType):
        return to_json(value.read(), ty.inner, fields, depth)
    if isinstance(ty, str):
        if ty == "bool":
            return bool(value)
        if ty == "address":
            return Address(bytes(value)).standard
        if ty == "signer":
            return Address(bytes(value.address)).standard
        return int(value) if ty in _NUMBERS else str(int(value))
    if isinstance(ty, VectorType):
        if ty.elem == "u8":
            return "0x" + bytes(value.elems).hex()
        return [to_json(v, ty.elem, fields, depth + 1) for v in value.elems]
    if isinstance(ty, StructType):
        special = _special(ty)
        if special == "string":
            return bytes(value.fields[0].elems).decode("utf-8")
        if special == "option":
            inner = ty.type_args[0]
            return {"vec": [to_json(v, inner, fields, depth + 1) for v in value.fields[0].elems]}
        if special == "object":
            return {"inner": Address(bytes(value.fields[0])).standard}
        return {
            name: to_json(v, t, fields, depth + 1)
            for (name, t), v in zip(_fields(ty, fields), value.fields, strict=True)
        }
    raise VMStatusError("UNKNOWN_INVARIANT_VIOLATION_ERROR", f"{ty} has no JSON form")


def _bad(ty: RuntimeType, data: Any) -> VMStatusError:
    text = repr(data)
    text = text if len(text) <= 80 else text[:77] + "..."
    return VMStatusError("FAILED_TO_DESERIALIZE_ARGUMENT", f"not a {ty}: {text}")


def _address(data: Any, ty: RuntimeType) -> AddressValue:
    if not isinstance(data, str):
        raise _bad(ty, data)
    try:
        return AddressValue(bytes(Address.parse(data)))
    except InputError:
        raise _bad(ty, data) from None


def _integer(data: Any, ty: str) -> MoveValue:
    cls = INT_CLASSES[ty]
    if isinstance(data, bool) or not isinstance(data, int | str):
        raise _bad(ty, data)
    if isinstance(data, str) and not (data.isdigit() or (data[:1] == "-" and data[1:].isdigit())):
        raise _bad(ty, data)
    if isinstance(data, str) and len(data) > 80:
        raise _bad(ty, data)
    number = int(data)
    if not cls.MIN <= number <= cls.MAX:
        raise _bad(ty, data)
    return cls(number)


def _bytes(data: Any, ty: RuntimeType) -> bytes:
    if not isinstance(data, str) or not data.startswith("0x"):
        raise _bad(ty, data)
    try:
        return bytes.fromhex(data[2:])
    except ValueError:
        raise _bad(ty, data) from None


def from_json(data: Any, ty: RuntimeType, fields: Fields, depth: int = 0) -> MoveValue:
    """The value of type ``ty`` whose JSON is ``data`` (``FAILED_TO_DESERIALIZE_ARGUMENT``
    when it is not one)."""
    if depth > _MAX_DEPTH:
        raise VMStatusError("VM_MAX_VALUE_DEPTH_REACHED", "value too deep")
    if isinstance(ty, str):
        if ty == "bool":
            if not isinstance(data, bool):
                raise _bad(ty, data)
            return data
        if ty == "address":
            return _address(data, ty)
        if ty == "signer":
            return SignerValue(_address(data, ty))
        if ty in INT_CLASSES:
            return _integer(data, ty)
        raise _bad(ty, data)
    if isinstance(ty, VectorType):
        if ty.elem == "u8":
            if isinstance(data, list):  # bytes as a list of numbers, as some clients send
                return VectorValue("u8", [_integer(v, "u8") for v in data])
            return VectorValue("u8", [INT_CLASSES["u8"](b) for b in _bytes(data, ty)])
        if not isinstance(data, list):
            raise _bad(ty, data)
        return VectorValue(ty.elem, [from_json(v, ty.elem, fields, depth + 1) for v in data])
    if isinstance(ty, StructType):
        return _struct_from_json(data, ty, fields, depth)
    raise _bad(ty, data)


def _struct_from_json(data: Any, ty: StructType, fields: Fields, depth: int) -> StructValue:
    special = _special(ty)
    if special == "string":
        if not isinstance(data, str):
            raise _bad(ty, data)
        raw = data.encode("utf-8")
        return StructValue(ty, [VectorValue("u8", [INT_CLASSES["u8"](b) for b in raw])])
    if special == "option":
        inner = ty.type_args[0]
        if not isinstance(data, dict) or not isinstance(data.get("vec"), list):
            raise _bad(ty, data)
        if len(data["vec"]) > 1:
            raise _bad(ty, data)
        elems = [from_json(v, inner, fields, depth + 1) for v in data["vec"]]
        return StructValue(ty, [VectorValue(inner, elems)])
    if special == "object":
        inner_address = data.get("inner") if isinstance(data, dict) else data
        return StructValue(ty, [_address(inner_address, ty)])
    layout = _fields(ty, fields)
    if not isinstance(data, dict):
        raise _bad(ty, data)
    try:
        values = [from_json(data[name], t, fields, depth + 1) for name, t in layout]
    except KeyError:
        raise _bad(ty, data) from None
    return StructValue(ty, values)


class ChainLayouts:
    """A codec :class:`~ledgerkit.bcs.LayoutSource` knowing the framework's structs and
    those of modules published on chain (read with ``module_code(address, name)``, the
    stored bytecode or None), so that values of published types (a module event's data)
    encode as the framework's do."""

    generation = 0

    def __init__(self, module_code: Callable[[Address, str], bytes | None]) -> None:
        self._code = module_code
        self._modules: dict[tuple[Address, str], CompiledModule | None] = {}

    def _module(self, address: Address, name: str) -> CompiledModule | None:
        key = (address, name)
        if key not in self._modules:
            self._modules[key] = stored_module(self._code(address, name))
        return self._modules[key]

    def struct_fields(self, tag: StructTag) -> Sequence[tuple[str, MoveType]] | None:
        found = FRAMEWORK.layouts.struct_fields(tag)
        if found is not None:
            return found
        module = self._module(tag.address, tag.module)
        sdef = None if module is None else module.find_struct_def(tag.name)
        if module is None or sdef is None or sdef.fields is None:
            return None
        handle = module.struct_handles[sdef.struct_handle]
        if len(handle.type_parameters) != len(tag.type_args):
            return None
        return tuple(
            (
                module.identifier(f.name),
                MoveType.parse(type_text(module, f.signature)).substitute(tag.type_args),
            )
            for f in sdef.fields
        )
