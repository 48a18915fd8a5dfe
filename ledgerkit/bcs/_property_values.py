"""The typed values of the token packages' property maps (``0x4::property_map`` and
``0x3::property_map``): each is a one-byte type code and the BCS of one value of that
type. The node checks them as ``0x1::from_bcs`` does; readers show them as text.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit._errors import InputError
from ledgerkit.bcs._codec import uleb128_prefix
from ledgerkit.types import Address

__all__ = ["PROPERTY_TYPES", "property_value_text"]

#: The property types by code: ``PROPERTY_TYPES[code]`` is the type's name.
PROPERTY_TYPES: Final = (
    "bool",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "u256",
    "address",
    "vector<u8>",
    "0x1::string::String",
)
_BOOL, _ADDRESS, _BYTES, _STRING = 0, 7, 8, 9
#: Bytes of each unsigned integer's code.
_WIDTHS: Final = {1: 1, 2: 2, 3: 4, 4: 8, 5: 16, 6: 32}


def property_value_text(code: int, raw: bytes) -> str | None:
    """The value ``raw`` holds as text, or ``None`` when ``raw`` is not exactly one value
    of type ``code`` (an unknown code, a wrong width, a length prefix that does not span
    the rest, a string that is not UTF-8).

    Text as the API shows such values: ``true``, decimal integers, a long address, ``0x``
    hex for bytes, the string itself.

    Raises
    ------
    InputError
        ``code`` is not an ``int`` (a ``bool`` is not one here) or ``raw`` is not bytes
        (``bytes``, ``bytearray`` or ``memoryview``; a ``str`` is refused, not encoded).

    Examples
    --------
    >>> property_value_text(4, (7).to_bytes(8, "little"))
    '7'
    >>> property_value_text(9, b"\\x03red")
    'red'
    >>> property_value_text(9, b"\\x04red") is None
    True
    """
    code, raw = _checked(code, raw)
    if code == _BOOL:
        return {b"\x00": "false", b"\x01": "true"}.get(raw)
    if code in _WIDTHS:
        return str(int.from_bytes(raw, "little")) if len(raw) == _WIDTHS[code] else None
    if code == _ADDRESS:
        return Address(raw).long if len(raw) == 32 else None
    if code not in (_BYTES, _STRING):
        return None
    prefix = uleb128_prefix(raw, 5)
    if prefix is None or sum(prefix) != len(raw):
        return None
    body = raw[prefix[1] :]
    if code == _BYTES:
        return "0x" + body.hex()
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _checked(code: Any, raw: Any) -> tuple[int, bytes]:
    if isinstance(code, bool) or not isinstance(code, int):
        raise InputError(f"a property type code is an int, not {type(code).__name__}")
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise InputError(f"a property value is bytes, not {type(raw).__name__}")
    return code, bytes(raw)
