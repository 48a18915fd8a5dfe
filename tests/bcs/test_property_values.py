"""Property map values read back as text: one value of the type code's type, or nothing."""

from __future__ import annotations

from typing import Any

import pytest

from ledgerkit import InputError
from ledgerkit.bcs import PROPERTY_TYPES, property_value_text

ADDRESS = bytes(range(32))


def test_the_codes_are_the_framework_s_order() -> None:
    # 0x4::property_map's type constants: BOOL = 0 ... STRING = 9.
    assert PROPERTY_TYPES[0] == "bool"
    assert PROPERTY_TYPES[7] == "address"
    assert PROPERTY_TYPES[9] == "0x1::string::String"
    assert len(PROPERTY_TYPES) == 10


@pytest.mark.parametrize(
    ("code", "raw", "text"),
    [
        (0, b"\x01", "true"),
        (0, b"\x00", "false"),
        (1, b"\xff", "255"),
        (2, b"\x00\x01", "256"),
        (3, b"\x01\x00\x00\x00", "1"),
        (4, b"\x2c\x01\x00\x00\x00\x00\x00\x00", "300"),
        (5, b"\xff" * 16, "340282366920938463463374607431768211455"),
        (6, b"\x00" * 31 + b"\x80", str(2**255)),
        (7, ADDRESS, "0x" + ADDRESS.hex()),
        (8, b"\x02\xca\xfe", "0xcafe"),
        (8, b"\x00", "0x"),
        (9, b"\x05caf\xc3\xa9", "café"),
    ],
)
def test_one_value_of_the_type_reads_as_text(code: int, raw: bytes, text: str) -> None:
    assert property_value_text(code, raw) == text


@pytest.mark.parametrize(
    ("code", "raw"),
    [
        (0, b"\x02"),  # no bool
        (4, b"\x2c\x01"),  # too short for a u64
        (1, b"\x01\x02"),  # two bytes for one u8
        (7, b"\x01" * 31),
        (8, b"\x05\x01"),  # the prefix does not span the rest
        (8, b"\x01\x01\x02"),
        (9, b"\x01\xe9"),  # not UTF-8
        (9, b""),
        (10, b"\x00"),  # no such type
        (-1, b"\x00"),
    ],
)
def test_anything_else_is_none(code: int, raw: bytes) -> None:
    assert property_value_text(code, raw) is None


@pytest.mark.parametrize(
    ("code", "raw", "message"),
    [
        (9, "red", "a property value is bytes, not str"),
        (4, 7, "a property value is bytes, not int"),
        (4, None, "a property value is bytes, not NoneType"),
        ("4", (7).to_bytes(8, "little"), "a property type code is an int, not str"),
        (4.0, (7).to_bytes(8, "little"), "a property type code is an int, not float"),
        (True, b"\x01", "a property type code is an int, not bool"),
        (None, b"\x01", "a property type code is an int, not NoneType"),
        ([9], b"\x03red", "a property type code is an int, not list"),
    ],
)
def test_a_value_or_code_of_the_wrong_type_is_an_input_error(
    code: Any, raw: Any, message: str
) -> None:
    with pytest.raises(InputError, match=f"^{message}$"):
        property_value_text(code, raw)


def test_any_bytes_like_value_reads_as_bytes() -> None:
    assert property_value_text(9, bytearray(b"\x03red")) == "red"
    assert property_value_text(4, memoryview((7).to_bytes(8, "little"))) == "7"
