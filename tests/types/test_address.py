"""Address: parsing every form the API and users write, printing, equality, errors."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledgerkit import Address, InputError, InvalidAddressError, LedgerError

ONE_LONG = "0x" + "0" * 63 + "1"
SAMPLE = "0xb4881b2745e177b3748d6aa9a21d510259124cc4fc93c51ed61d5319a59073ed"


@pytest.mark.parametrize(
    "text",
    ["0x1", "1", "0x01", "0X1", ONE_LONG, ONE_LONG[2:], ONE_LONG.upper().replace("0X", "0x")],
)
def test_every_spelling_of_address_one_is_the_same_address(text: str) -> None:
    address = Address.parse(text)
    assert address == Address.from_int(1)
    assert address.long == ONE_LONG
    assert address.short == "0x1"
    assert bytes(address) == bytes(31) + b"\x01"


def test_long_form_is_canonical_lowercase_and_is_str() -> None:
    address = Address.parse(SAMPLE.upper().replace("0X", "0x"))
    assert address.long == SAMPLE
    assert str(address) == SAMPLE  # not special: str is the long form
    assert f"{address}" == SAMPLE
    assert Address.parse("0x1").long == ONE_LONG


def test_short_form_trims_leading_zeros_only() -> None:
    assert Address.parse("0x00a0").short == "0xa0"
    assert Address.parse("0x" + "0" * 61 + "100").short == "0x100"
    assert Address.parse(SAMPLE).short == SAMPLE


@pytest.mark.parametrize("text", ["0x0", "0", "0x" + "0" * 64, "0x00"])
def test_zero_address_prints_0x0_short(text: str) -> None:
    address = Address.parse(text)
    assert address.short == "0x0"
    assert address.long == "0x" + "0" * 64


def test_repr_names_the_address() -> None:
    assert repr(Address.parse("0x1")) == "Address('0x1')"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # AIP-40: the special addresses 0x0 ... 0xf are shown short ...
        ("0x0", "0x0"),
        ("0x1", "0x1"),
        ("0x" + "0" * 63 + "f", "0xf"),
        # ... every other address long, 64 hex digits, no leading zero ever dropped.
        ("0x10", "0x0000000000000000000000000000000000000000000000000000000000000010"),
        ("0xa0", "0x00000000000000000000000000000000000000000000000000000000000000a0"),
        (
            "0x0a91fd4ee5bc4a6d6c9dc2a2d0ae8c3c6d2a6ec7e7dc0e4b36e23d40a0e3b4c1",
            "0x0a91fd4ee5bc4a6d6c9dc2a2d0ae8c3c6d2a6ec7e7dc0e4b36e23d40a0e3b4c1",
        ),
        (
            "a91fd4ee5bc4a6d6c9dc2a2d0ae8c3c6d2a6ec7e7dc0e4b36e23d40a0e3b4c1",
            "0x0a91fd4ee5bc4a6d6c9dc2a2d0ae8c3c6d2a6ec7e7dc0e4b36e23d40a0e3b4c1",
        ),
    ],
)
def test_str_and_repr_follow_aip_40(text: str, shown: str) -> None:
    address = Address.parse(text)
    assert str(address) == shown
    assert f"{address}" == shown
    assert repr(address) == f"Address({shown!r})"
    assert len(shown) in (3, 66)


def test_equal_and_hashable_by_value_across_forms() -> None:
    forms = ["0x1", "1", ONE_LONG, ONE_LONG[2:], "0X01"]
    assert len({Address.parse(f) for f in forms}) == 1
    balances = {Address.parse("0x1"): 10}
    assert balances[Address.parse(ONE_LONG)] == 10
    assert Address.parse("0x1") != Address.parse("0x2")


def test_address_is_not_equal_to_its_text() -> None:
    assert Address.parse("0x1") != "0x1"
    assert Address.parse("0x1") != ONE_LONG


def test_parse_passes_addresses_and_32_bytes_through() -> None:
    address = Address.parse("0x1")
    assert Address.parse(address) is address
    assert Address.parse(bytes(31) + b"\x01") == address
    assert Address.parse(bytearray(bytes(31) + b"\x01")) == address
    assert Address(memoryview(bytes(31) + b"\x01")) == address


def test_ordering_is_by_value() -> None:
    a1, a2, big = Address.parse("0x1"), Address.parse("0x2"), Address.parse("0x" + "f" * 64)
    assert sorted([big, a2, a1]) == [a1, a2, big]
    assert a1 < a2 < big
    assert big > a2 > a1
    assert a1 <= Address.parse(ONE_LONG) <= a2
    assert big >= a2
    assert min(big, a1, a2) == a1
    assert max(big, a1, a2) == big


def test_ordering_against_text_is_refused() -> None:
    with pytest.raises(TypeError):
        _ = Address.parse("0x1") < "0x2"  # type: ignore[operator]


def test_from_int() -> None:
    assert Address.from_int(0).short == "0x0"
    assert Address.from_int(0xA).short == "0xa"
    assert Address.from_int((1 << 256) - 1).long == "0x" + "f" * 64
    assert Address.from_int(int(SAMPLE, 16)).long == SAMPLE


@pytest.mark.parametrize("value", [-1, 1 << 256, True, 1.0, "1", None])
def test_from_int_refuses_what_is_not_a_256_bit_number(value: object) -> None:
    with pytest.raises(InvalidAddressError):
        Address.from_int(value)  # type: ignore[arg-type]


def test_is_special_marks_0x0_to_0xf() -> None:
    assert Address.parse("0x1").is_special
    assert Address.parse("0xf").is_special
    assert not Address.parse("0x10").is_special
    assert not Address.parse(SAMPLE).is_special


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0x",
        "0X",
        "0x" + "1" * 65,
        "1" * 65,
        "0x" + "0" * 65,
        "0x" + "f" * 128,
        "0xg1",
        "0x 1",
        " 0x1",
        "0x1 ",
        "0x1\n",
        "0x-1",
        "-0x1",
        "0x1_0",
        "0x\u0661",  # ARABIC-INDIC DIGIT ONE: a digit, but not hex
        "0x\uff11",  # FULLWIDTH DIGIT ONE
        "0x0x1",
        "x1",
    ],
)
def test_bad_text_raises_invalid_address_naming_the_input(text: str) -> None:
    with pytest.raises(InvalidAddressError) as info:
        Address.parse(text)
    assert repr(text) in str(info.value)


def test_overlong_input_message_gives_the_digit_count() -> None:
    with pytest.raises(InvalidAddressError, match="65"):
        Address.parse("0x" + "1" * 65)


@pytest.mark.parametrize("length", [0, 1, 31, 33, 64])
def test_raw_bytes_of_the_wrong_length_are_refused(length: int) -> None:
    with pytest.raises(InvalidAddressError, match=f"got {length}"):
        Address.parse(bytes(length))
    with pytest.raises(InvalidAddressError):
        Address(bytes(length))


@pytest.mark.parametrize("value", [None, 1, 1.0, ["0x1"], object()])
def test_non_text_inputs_raise_invalid_address_naming_the_input(value: object) -> None:
    with pytest.raises(InvalidAddressError) as info:
        Address.parse(value)  # type: ignore[arg-type]
    assert type(value).__name__ in str(info.value)
    assert repr(value) in str(info.value)


def test_invalid_address_is_an_input_error_and_a_value_error() -> None:
    with pytest.raises(InvalidAddressError) as info:
        Address.parse("0xzz")
    assert isinstance(info.value, InputError)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, LedgerError)


def test_addresses_are_immutable() -> None:
    # A fresh instance, not one parse() may share, so a regression breaks only this test.
    address = Address(bytes(31) + b"\x01")
    with pytest.raises(AttributeError):
        address._bytes = bytes(32)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        address.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        del address._bytes
    assert address.long == ONE_LONG
    assert hash(address) == hash(Address.parse("0x1"))


def test_pickle_and_copy_keep_the_value() -> None:
    address = Address.parse(SAMPLE)
    assert pickle.loads(pickle.dumps(address)) == address
    assert copy.copy(address) == address
    assert copy.deepcopy(address) == address


address_bytes = st.binary(min_size=32, max_size=32)


@settings(max_examples=200, deadline=None)
@given(raw=address_bytes)
def test_every_address_round_trips_through_long_short_and_bare(raw: bytes) -> None:
    address = Address(raw)
    assert address.long == "0x" + raw.hex()
    assert Address.parse(address.long) == address
    assert Address.parse(address.short) == address
    assert Address.parse(address.long[2:]) == address
    assert Address.parse(address.short[2:]) == address
    assert Address.parse(str(address)) == address
    assert int(address.short, 16) == int.from_bytes(raw, "big")
    assert Address.from_int(int.from_bytes(raw, "big")) == address
    assert hash(Address.parse(address.short)) == hash(address)


@settings(max_examples=200, deadline=None)
@given(raw=address_bytes, data=st.data())
def test_random_case_hex_parses_to_the_same_address(raw: bytes, data: st.DataObject) -> None:
    digits = raw.hex()
    flips = data.draw(st.lists(st.booleans(), min_size=64, max_size=64))
    mixed = "".join(c.upper() if flip else c for c, flip in zip(digits, flips, strict=True))
    prefix = data.draw(st.sampled_from(["0x", "0X", ""]))
    address = Address.parse(prefix + mixed)
    assert address == Address(raw)
    assert address.long == "0x" + digits


@settings(max_examples=200, deadline=None)
@given(a=address_bytes, b=address_bytes)
def test_ordering_matches_the_numeric_value(a: bytes, b: bytes) -> None:
    left, right = Address(a), Address(b)
    assert (left < right) == (int.from_bytes(a, "big") < int.from_bytes(b, "big"))
    assert (left == right) == (a == b)


@pytest.mark.parametrize(
    ("text", "standard"),
    [("0x1", "0x1"), ("0xf", "0xf"), ("0x0", "0x0"), ("0x10", "0x" + "0" * 62 + "10")],
)
def test_standard_form_is_short_only_for_special_addresses(text: str, standard: str) -> None:
    assert Address.parse(text).standard == standard
