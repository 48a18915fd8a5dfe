"""Plain Python values <-> the JSON form of Move values that the codec reads and writes.

The codec (:class:`~ledgerkit.bcs.MoveValueCodec`) speaks the node's JSON form. Users
speak Python: ``None`` or a value for an ``Option``, a list of small ints or ``bytes``
for a ``vector<u8>``, exact ints for every width. :func:`to_json_form` turns the Python
spelling into the JSON form (anything already in the JSON form passes through, so the
codec names what does not fit; an account given for an address stands for its address);
:func:`from_json_form` turns a decoded JSON value into
plain Python: ints for every integer width, ``None`` or the value for an ``Option``,
dicts for structs, lists for vectors, ``str`` for ``String``, ``bytes`` for
``vector<u8>`` and :class:`~ledgerkit.types.Address` for addresses and objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ledgerkit._errors import MoveValueError
from ledgerkit.bcs import LayoutSource
from ledgerkit.types import Address, MoveType, PrimitiveType, StructTag, VectorType

__all__ = ["from_json_form", "to_json_form"]

_U8: Final = PrimitiveType("u8")
_ONE: Final = Address.from_int(1)
_MAX_DEPTH: Final = 64
_WIDE_INTS: Final = frozenset({"u64", "u128", "u256", "i64", "i128", "i256"})


def _is(tag: StructTag, module: str, name: str) -> bool:
    return tag.address == _ONE and tag.module == module and tag.name == name


def _account_address(value: Any) -> Any:
    """An account (anything with an ``address``) stands for its address."""
    if isinstance(value, str | bytes | bytearray | Address | Mapping):
        return value
    address = getattr(value, "address", None)
    if address is None:
        return value
    return address() if callable(address) else address


def to_json_form(t: MoveType, value: Any, layouts: LayoutSource, depth: int = 0) -> Any:
    """``value`` (Python) in the JSON form of ``t``; what cannot be read passes unchanged."""
    if depth > _MAX_DEPTH:
        return value
    if isinstance(t, PrimitiveType):
        return _account_address(value) if t.name == "address" else value
    if isinstance(t, VectorType):
        if t.element == _U8:
            if isinstance(value, list | tuple) and all(
                type(b) is int and 0 <= b <= 255 for b in value
            ):
                return bytes(value)
            return value
        if isinstance(value, list | tuple):
            return [to_json_form(t.element, item, layouts, depth + 1) for item in value]
        return value
    if not isinstance(t, StructTag) or _is(t, "string", "String"):
        return value
    if _is(t, "option", "Option"):
        if len(t.type_args) != 1:
            return value
        inner = t.type_args[0]
        if value is None:
            return {"vec": []}
        if (
            isinstance(value, Mapping)
            and set(value) == {"vec"}
            and isinstance(value["vec"], list | tuple)
            and len(value["vec"]) <= 1
        ):
            items = [to_json_form(inner, v, layouts, depth + 1) for v in value["vec"]]
        elif isinstance(value, Mapping) and set(value) == {"vec"} and inner == _U8:
            return value  # Option<u8> in the JSON form: its vector written as hex
        else:
            items = [to_json_form(inner, value, layouts, depth + 1)]
        if inner == _U8:
            # The codec writes an Option<u8> as the vector<u8> it is: bytes.
            return {"vec": to_json_form(VectorType(_U8), items, layouts, depth + 1)}
        return {"vec": items}
    if _is(t, "object", "Object"):
        return _account_address(value)
    if not isinstance(value, Mapping):
        return value
    try:
        fields = dict(layouts.struct_fields(t) or ())
    except MoveValueError:
        fields = {}
    return {
        name: to_json_form(fields[name], item, layouts, depth + 1) if name in fields else item
        for name, item in value.items()
    }


def from_json_form(t: MoveType, value: Any, layouts: LayoutSource, depth: int = 0) -> Any:
    """The plain Python value of a JSON-form ``value`` of type ``t`` (as the codec decodes)."""
    if depth > _MAX_DEPTH:
        raise MoveValueError(f"value nested deeper than {_MAX_DEPTH} levels: {t}")
    if isinstance(t, PrimitiveType):
        if t.name in ("address", "signer"):
            return Address.parse(value)
        if t.name in _WIDE_INTS:
            return int(value)
        return value
    if isinstance(t, VectorType):
        if t.element == _U8:
            return bytes.fromhex(value[2:])
        return [from_json_form(t.element, item, layouts, depth + 1) for item in value]
    if not isinstance(t, StructTag):
        raise MoveValueError(f"{t} is not a concrete value type")
    if _is(t, "string", "String"):
        return value
    if _is(t, "option", "Option"):
        items = value["vec"]
        if not items:
            return None
        if isinstance(items, str):  # Option<u8>: the codec writes its vector as hex
            return bytes.fromhex(items[2:])[0]
        return from_json_form(t.type_args[0], items[0], layouts, depth + 1)
    if _is(t, "object", "Object"):
        return Address.parse(value["inner"])
    fields = layouts.struct_fields(t)
    if fields is None:
        raise MoveValueError(f"no field layout known for struct {t}")
    return {name: from_json_form(ft, value[name], layouts, depth + 1) for name, ft in fields}
