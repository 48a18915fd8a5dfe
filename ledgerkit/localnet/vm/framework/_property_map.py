"""``0x4::property_map``: a token's typed properties, kept as a simple map of name to
``{type, value}`` (the type as a one-byte code, the value as the BCS of the typed value).

The checks, their order and their aborts follow the framework module: input lists are
read from the back (so a minted map holds them in reverse), a removal moves the last
entry into the removed one's place, and malformed value bytes abort in ``0x1::from_bcs``.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.bcs import PROPERTY_TYPES, property_value_text
from ledgerkit.localnet.vm.framework._context import Context
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.types import Address, MoveType

__all__ = ["PROPERTY_MAP", "add", "prepare_input", "remove", "typed_value", "update"]

PROPERTY_MAP: Final = "0x4::property_map::PropertyMap"
_MODULE: Final = "0x4::property_map"
#: External type name -> internal code, in code order.
TYPE_CODES: Final = {name: code for code, name in enumerate(PROPERTY_TYPES)}
_STRING: Final = TYPE_CODES["0x1::string::String"]
_MAX_SIZE: Final = 1000
_MAX_NAME: Final = 128


def _type_code(ctx: Context, name: str) -> int:
    code = TYPE_CODES.get(name)
    if code is None:
        raise ctx.abort(_MODULE, 0x10007, "ETYPE_INVALID")
    return code


def _validate(ctx: Context, code: int, value: bytes) -> None:
    """``from_bcs::to_<type>`` of ``value``: exactly one value of that type."""
    if property_value_text(code, value) is not None:
        return
    if code == _STRING and property_value_text(TYPE_CODES["vector<u8>"], value) is not None:
        raise ctx.abort("0x1::from_bcs", 1, "EINVALID_UTF8")  # well formed, but not UTF-8
    raise ctx.abort("0x1::from_bcs", 0x10001, "EINVALID_UTF8")


def _hex(value: str) -> bytes:
    return bytes.fromhex(value[2:])


def prepare_input(ctx: Context, keys: list[str], types: list[str], values: list[str]) -> Any:
    """The ``PropertyMap`` of the three parallel input lists (values as ``0x`` hex)."""
    if len(keys) > _MAX_SIZE:
        raise ctx.abort(_MODULE, 0x10003, "ETOO_MANY_PROPERTIES")
    if len(keys) != len(values):
        raise ctx.abort(_MODULE, 0x10004, "EKEY_VALUE_COUNT_MISMATCH")
    if len(keys) != len(types):
        raise ctx.abort(_MODULE, 0x10005, "EKEY_TYPE_COUNT_MISMATCH")
    data: list[dict[str, Any]] = []
    for key, type_name, value in zip(
        reversed(keys), reversed(types), reversed(values), strict=True
    ):
        if len(key.encode()) > _MAX_NAME:
            raise ctx.abort(_MODULE, 0x10008, "EPROPERTY_MAP_KEY_TOO_LONG")
        code = _type_code(ctx, type_name)
        _validate(ctx, code, _hex(value))
        if any(entry["key"] == key for entry in data):
            raise ctx.abort("0x1::simple_map", 0x10001, "EKEY_ALREADY_EXISTS")
        data.append({"key": key, "value": {"type": code, "value": value}})
    return {"inner": {"data": data}}


def typed_value(ctx: Context, value_type: MoveType, value: Any) -> tuple[int, str]:
    """The ``(code, 0x-hex BCS)`` of a typed property value of ``value_type``."""
    code = _type_code(ctx, render_type(value_type))
    return code, "0x" + ctx.codec.encode(value_type, value).hex()


def checked(ctx: Context, type_name: str, value: str) -> tuple[int, str]:
    """The ``(code, value)`` of an untyped input, validated."""
    code = _type_code(ctx, type_name)
    _validate(ctx, code, _hex(value))
    return code, value


def _entries(ctx: Context, token: Address) -> tuple[Any, list[dict[str, Any]]]:
    properties = ctx.resource(token, PROPERTY_MAP)
    if properties is None:
        raise ctx.abort(_MODULE, 0x60001, "EPROPERTY_MAP_DOES_NOT_EXIST")
    return properties, properties["inner"]["data"]


def _find(ctx: Context, data: list[dict[str, Any]], key: str) -> int:
    for i, entry in enumerate(data):
        if entry["key"] == key:
            return i
    raise ctx.abort("0x1::simple_map", 0x10002, "EKEY_NOT_FOUND")


def add(ctx: Context, token: Address, key: str, code: int, value: str) -> None:
    properties, data = _entries(ctx, token)
    if any(entry["key"] == key for entry in data):
        raise ctx.abort("0x1::simple_map", 0x10001, "EKEY_ALREADY_EXISTS")
    data.append({"key": key, "value": {"type": code, "value": value}})
    ctx.put(token, PROPERTY_MAP, properties)


def update(ctx: Context, token: Address, key: str, code: int, value: str) -> None:
    properties, data = _entries(ctx, token)
    data[_find(ctx, data, key)]["value"] = {"type": code, "value": value}
    ctx.put(token, PROPERTY_MAP, properties)


def remove(ctx: Context, token: Address, key: str) -> None:
    properties, data = _entries(ctx, token)
    index = _find(ctx, data, key)
    last = data.pop()
    if index < len(data):
        data[index] = last
    ctx.put(token, PROPERTY_MAP, properties)
