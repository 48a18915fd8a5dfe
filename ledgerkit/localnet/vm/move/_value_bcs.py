"""BCS of the Move interpreter's values: :func:`encode_bcs` (``0x1::bcs::to_bytes``, event
and resource bytes) and :func:`decode_bcs` (constants, arguments).

A value carries what its BCS needs (integer widths in their classes, a vector's element
type), so encoding takes no layout; decoding a struct takes the struct's field types
from a layout the caller gives (``0x1::string::String`` and ``0x1::option::Option`` are
known without one). Our own codec rather than ``ledgerkit.bcs``'s Move value codec,
which works on JSON-shaped values and type tags, not on these runtime values.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError, invariant
from ledgerkit.localnet.vm.move._runtime_types import RuntimeType, StructType, VectorType
from ledgerkit.localnet.vm.move._values import (
    INT_CLASSES,
    MAX_VALUE_DEPTH,
    AddressValue,
    MoveInt,
    SignerValue,
    StructValue,
    Value,
    VectorValue,
)

__all__ = ["StructLayout", "decode_bcs", "encode_bcs"]


def _uleb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def encode_bcs(value: Value) -> bytes:
    """The BCS of a value (signers as their address)."""
    out = bytearray()
    _encode(value, out)
    return bytes(out)


def _encode(value: Value, out: bytearray) -> None:
    if isinstance(value, bool):
        out.append(1 if value else 0)
    elif isinstance(value, MoveInt):
        out += int(value).to_bytes(value.BITS // 8, "little", signed=value.SIGNED)
    elif isinstance(value, AddressValue):
        out += value
    elif isinstance(value, SignerValue):
        out += value.address
    elif isinstance(value, VectorValue):
        if value.elem_type == "u8":
            out += _uleb(len(value.elems)) + bytes(value.elems)
        else:
            out += _uleb(len(value.elems))
            for v in value.elems:
                _encode(v, out)
    elif isinstance(value, StructValue):
        if value.variant is not None:
            out += _uleb(value.variant)
        for v in value.fields:
            _encode(v, out)
    else:
        raise invariant(f"cannot serialize {type(value).__name__}")


#: The field types of a struct type, or None if unknown (see :func:`decode_bcs`).
StructLayout = Callable[[StructType], Sequence[RuntimeType] | None]


def decode_bcs(ty: RuntimeType, data: bytes, layout: StructLayout | None = None) -> Value:
    """The value of type ``ty`` whose BCS is ``data`` (``DATA_FORMAT_ERROR`` if it is not
    exactly that). Struct fields come from ``layout``; without one, only
    ``0x1::string::String`` and ``0x1::option::Option<T>`` are known."""
    value, end = _decode(ty, data, 0, 0, layout)
    if end != len(data):
        raise MoveExecutionError("DATA_FORMAT_ERROR", "trailing bytes")
    return value


def _read_uleb(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 28:
            raise MoveExecutionError("DATA_FORMAT_ERROR", "bad ULEB128 length")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


_STD: Final = bytes(31) + b"\x01"


def _struct_fields(ty: StructType, layout: StructLayout | None) -> Sequence[RuntimeType]:
    if ty.address == _STD and (ty.module, ty.name) == ("string", "String"):
        return (VectorType("u8"),)
    if ty.address == _STD and (ty.module, ty.name) == ("option", "Option"):
        return (VectorType(ty.type_args[0]),)
    fields = None if layout is None else layout(ty)
    if fields is None:
        raise MoveExecutionError("DATA_FORMAT_ERROR", f"no layout for {ty}")
    return fields


def _decode(
    ty: RuntimeType, data: bytes, pos: int, depth: int, layout: StructLayout | None
) -> tuple[Value, int]:
    if depth > MAX_VALUE_DEPTH:
        raise MoveExecutionError("VM_MAX_VALUE_DEPTH_REACHED", "value too deep")
    if isinstance(ty, VectorType):
        count, pos = _read_uleb(data, pos)
        if count > len(data) - pos:
            raise MoveExecutionError("DATA_FORMAT_ERROR", "vector longer than its bytes")
        elems = []
        for _ in range(count):
            elem, pos = _decode(ty.elem, data, pos, depth + 1, layout)
            elems.append(elem)
        return VectorValue(ty.elem, elems), pos
    if isinstance(ty, StructType):
        fields = []
        for field_type in _struct_fields(ty, layout):
            field, pos = _decode(field_type, data, pos, depth + 1, layout)
            fields.append(field)
        if ty.name == "Option" and ty.address == _STD and len(fields[0].elems) > 1:
            raise MoveExecutionError("DATA_FORMAT_ERROR", "an Option holds one value at most")
        return StructValue(ty, fields), pos
    if ty == "bool":
        if pos >= len(data) or data[pos] > 1:
            raise MoveExecutionError("DATA_FORMAT_ERROR", "bad bool")
        return data[pos] == 1, pos + 1
    if ty in ("address", "signer"):
        if pos + 32 > len(data):
            raise MoveExecutionError("DATA_FORMAT_ERROR", "short address")
        address = AddressValue(data[pos : pos + 32])
        return (SignerValue(address) if ty == "signer" else address), pos + 32
    if isinstance(ty, str) and ty in INT_CLASSES:
        cls = INT_CLASSES[ty]
        size = cls.BITS // 8
        if pos + size > len(data):
            raise MoveExecutionError("DATA_FORMAT_ERROR", f"short {ty}")
        raw = int.from_bytes(data[pos : pos + size], "little", signed=cls.SIGNED)
        return cls(raw), pos + size
    raise MoveExecutionError("DATA_FORMAT_ERROR", f"cannot read a {ty} from BCS")
