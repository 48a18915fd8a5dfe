"""HexBytes: the API's ``0x`` + two digits a byte form, zeros never trimmed."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledgerkit import HexBytes, InputError, InvalidHexError


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("0x00ff", b"\x00\xff"),
        ("00ff", b"\x00\xff"),
        ("0X00FF", b"\x00\xff"),
        ("0xAbCd", b"\xab\xcd"),
        ("0x", b""),
        ("", b""),
    ],
)
def test_parse_with_and_without_0x(text: str, raw: bytes) -> None:
    parsed = HexBytes.parse(text)
    assert parsed == raw
    assert isinstance(parsed, HexBytes)
    assert isinstance(parsed, bytes)


@pytest.mark.parametrize(("text", "size"), [("0x00", 1), ("0x0000", 2), ("0x" + "00" * 32, 32)])
def test_zeros_are_never_trimmed(text: str, size: int) -> None:
    parsed = HexBytes.parse(text)
    assert len(parsed) == size
    assert str(parsed) == text


def test_str_is_lowercase_0x_hex() -> None:
    assert str(HexBytes(b"\x00\x01\xab")) == "0x0001ab"
    assert str(HexBytes.parse("0XABCD")) == "0xabcd"
    assert str(HexBytes(b"")) == "0x"
    fifteen = HexBytes(b"\x0f")
    assert f"{fifteen}" == "0x0f"


def test_repr_shows_the_hex_and_clips_long_values() -> None:
    assert repr(HexBytes(b"\x00\xff")) == "HexBytes('0x00ff')"
    long = HexBytes(bytes(1000))
    shown = repr(long)
    assert shown.startswith("HexBytes('0x0000")
    assert "2002 chars" in shown
    assert len(shown) < 150


def test_bytes_pass_through() -> None:
    assert HexBytes.parse(b"\x01\x02") == b"\x01\x02"
    assert HexBytes.parse(bytearray(b"\x01")) == b"\x01"
    assert HexBytes.parse(memoryview(b"\x02")) == b"\x02"
    assert str(HexBytes.parse(b"\x00")) == "0x00"


@pytest.mark.parametrize(
    "text",
    [
        "0x0",
        "0",
        "0x000",
        "0xg0",
        "0xzz",
        "0x 00",
        "0x00 ",
        " 0x00",
        "0x0 0",
        "0x00\n",
        "0x0x00",
        "0x-1",
        "0x\u0661\u0662",  # Arabic-Indic digits: digits, not hex
        "0x\uff10\uff10",  # fullwidth zeros
    ],
)
def test_odd_length_non_hex_and_whitespace_raise_invalid_hex(text: str) -> None:
    with pytest.raises(InvalidHexError) as info:
        HexBytes.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, InputError)
    assert isinstance(info.value, ValueError)


def test_odd_length_message_says_so() -> None:
    with pytest.raises(InvalidHexError, match="odd"):
        HexBytes.parse("0x123")


def test_bad_character_is_named() -> None:
    with pytest.raises(InvalidHexError, match="'g'"):
        HexBytes.parse("0x00g0")


@pytest.mark.parametrize("value", [None, 5, 1.5, ["00"]])
def test_non_text_is_refused(value: object) -> None:
    with pytest.raises(InvalidHexError, match=type(value).__name__):
        HexBytes.parse(value)  # type: ignore[arg-type]


def test_huge_bad_input_gives_a_short_message() -> None:
    with pytest.raises(InvalidHexError) as info:
        HexBytes.parse("0x" + "0" * 100_001)
    assert len(str(info.value)) < 200


def test_pickle_keeps_the_type() -> None:
    value = HexBytes.parse("0x0001")
    copy = pickle.loads(pickle.dumps(value))
    assert type(copy) is HexBytes
    assert str(copy) == "0x0001"


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=80), upper=st.booleans(), prefix=st.sampled_from(["0x", "0X", ""]))
def test_any_bytes_round_trip_through_their_text(raw: bytes, upper: bool, prefix: str) -> None:
    digits = raw.hex().upper() if upper else raw.hex()
    parsed = HexBytes.parse(prefix + digits)
    assert parsed == raw
    assert str(parsed) == "0x" + raw.hex()
    assert HexBytes.parse(str(parsed)) == parsed
