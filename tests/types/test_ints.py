"""U8..U256: exact parsing from ints and the API's decimal strings, printing, JSON form."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledgerkit import U8, U16, U32, U64, U128, U256, InputError, InvalidIntegerError
from ledgerkit.types import U64_MAX, U128_MAX, U256_MAX, parse_u64, parse_uint

WIDTHS: list[tuple[Any, int]] = [
    (U8, 8),
    (U16, 16),
    (U32, 32),
    (U64, 64),
    (U128, 128),
    (U256, 256),
]
WIDTH_IDS = [cls.__name__ for cls, _ in WIDTHS]


@pytest.mark.parametrize(("cls", "bits"), WIDTHS, ids=WIDTH_IDS)
def test_boundaries_from_int_and_text(cls: Any, bits: int) -> None:
    top = (1 << bits) - 1
    for value in (0, 1, top - 1, top):
        assert cls(value) == value
        assert cls(str(value)) == value
        assert str(cls(str(value))) == str(value)
    assert top == cls.MAX


@pytest.mark.parametrize(("cls", "bits"), WIDTHS, ids=WIDTH_IDS)
@pytest.mark.parametrize("offset", [1, 2, 1 << 70])
def test_just_past_the_top_is_out_of_range(cls: Any, bits: int, offset: int) -> None:
    too_big = (1 << bits) - 1 + offset
    with pytest.raises(InvalidIntegerError, match="out of range"):
        cls(too_big)
    with pytest.raises(InvalidIntegerError, match="out of range"):
        cls(str(too_big))


@pytest.mark.parametrize(("cls", "bits"), WIDTHS, ids=WIDTH_IDS)
def test_negative_numbers_are_refused(cls: Any, bits: int) -> None:
    with pytest.raises(InvalidIntegerError):
        cls(-1)
    with pytest.raises(InvalidIntegerError):
        cls("-1")
    with pytest.raises(InvalidIntegerError):
        cls(-(1 << bits))


def test_named_maxima() -> None:
    assert U64_MAX == 2**64 - 1
    assert U128_MAX == 2**128 - 1
    assert U256_MAX == 2**256 - 1
    assert U64.MAX == U64_MAX
    assert U256.MAX == U256_MAX


@pytest.mark.parametrize("cls", [cls for cls, _ in WIDTHS], ids=WIDTH_IDS)
@pytest.mark.parametrize(
    "value",
    [
        1.0,
        0.0,
        1.5,
        float("inf"),
        float("nan"),
        True,
        False,
        "1.0",
        "1e3",
        " 1",
        "1 ",
        "+1",
        "-0",
        "1_000",
        "",
        "0x10",
        "\u0661",  # ARABIC-INDIC DIGIT ONE
        "\uff11",  # FULLWIDTH DIGIT ONE
        "\u00b2",  # SUPERSCRIPT TWO
        b"1",
        None,
        [1],
    ],
)
def test_refuses_what_is_not_an_exact_unsigned_integer(cls: Any, value: object) -> None:
    with pytest.raises(InvalidIntegerError) as info:
        cls(value)
    assert repr(value) in str(info.value)
    assert cls.__name__ in str(info.value)


def test_float_refusal_says_why() -> None:
    with pytest.raises(InvalidIntegerError, match="float"):
        U64(1.0)


@pytest.mark.parametrize("cls", [cls for cls, _ in WIDTHS], ids=WIDTH_IDS)
def test_a_5000_digit_string_is_an_invalid_integer_not_a_python_value_error(
    cls: Any,
) -> None:
    # int() of more than 4300 digits raises Python's own ValueError; ledgerkit must answer first.
    with pytest.raises(InvalidIntegerError) as info:
        cls("9" * 5000)
    assert "5000 digits" in str(info.value)
    assert len(str(info.value)) < 300


def test_invalid_integer_is_an_input_error_and_a_value_error() -> None:
    with pytest.raises(InvalidIntegerError) as info:
        U64("x")
    assert isinstance(info.value, InputError)
    assert isinstance(info.value, ValueError)


def test_leading_zeros_are_read_as_decimal_not_octal() -> None:
    assert U64("010") == 10
    assert U8("000255") == 255


def test_numpy_integers_are_accepted_exactly() -> None:
    import numpy  # pandas brings it; ledgerkit itself must not need it

    assert U64(numpy.uint64(U64_MAX)) == U64_MAX
    with pytest.raises(InvalidIntegerError):
        U8(numpy.int64(-1))
    with pytest.raises(InvalidIntegerError):
        U64(numpy.float64(1.0))


@pytest.mark.parametrize(
    "value",
    [2**53 + 1, 2**64 - 1, 2**128 - 1, 2**256 - 1],
    ids=["2^53+1", "2^64-1", "2^128-1", "2^256-1"],
)
def test_exact_at_the_float_breaking_points(value: int) -> None:
    text = str(value)
    cls = U64 if value < 2**64 else U128 if value < 2**128 else U256
    parsed = cls(text)
    assert parsed == value
    assert str(parsed) == text
    assert parsed.to_json() == text
    assert json.loads(json.dumps({"v": parsed.to_json()}))["v"] == text
    assert U256(text) == value
    assert str(U256(text)) == text


def test_2_to_the_53_plus_1_never_goes_through_float() -> None:
    parsed = U64("9007199254740993")
    assert parsed == 9007199254740993
    assert parsed != 9007199254740992  # what float(…) would have made of it
    assert str(parsed) == "9007199254740993"
    assert parse_u64("9007199254740993") == 9007199254740993


def test_str_is_plain_decimal_and_repr_names_the_width() -> None:
    assert str(U64(1500000000)) == "1500000000"
    assert repr(U64(1500000000)) == "U64(1500000000)"
    assert repr(U8(0)) == "U8(0)"
    assert repr(U256(U256_MAX)) == f"U256({U256_MAX})"
    assert f"{U64(7)}" == "7"
    assert "%d" % U64(7) == "7"  # noqa: UP031


@pytest.mark.parametrize(("cls", "bits"), WIDTHS, ids=WIDTH_IDS)
def test_to_json_is_a_number_up_to_u32_and_a_string_from_u64(cls: Any, bits: int) -> None:
    top = cls((1 << bits) - 1)
    if bits <= 32:
        assert top.to_json() == (1 << bits) - 1
        assert type(top.to_json()) is int
    else:
        assert top.to_json() == str((1 << bits) - 1)
    assert json.dumps(cls(5).to_json()) == ("5" if bits <= 32 else '"5"')


def test_values_behave_as_ints() -> None:
    assert U64(5) + 1 == 6
    assert type(U64(5) + 1) is int
    assert {U64(5): "five"}[5] == "five"
    assert U64(U8(200)) == 200
    assert U64() == 0


def test_pickle_keeps_width_and_value() -> None:
    value = U128(U128_MAX)
    copy = pickle.loads(pickle.dumps(value))
    assert type(copy) is U128
    assert copy == U128_MAX


def test_parse_uint_names_the_field_when_asked() -> None:
    assert parse_uint("255", 8) == 255
    with pytest.raises(InvalidIntegerError, match="gas_unit_price"):
        parse_uint("-1", 64, what="gas_unit_price")


@settings(max_examples=200, deadline=None)
@given(data=st.data(), which=st.sampled_from(WIDTHS))
def test_any_in_range_int_round_trips_through_its_decimal_string(
    data: st.DataObject, which: tuple[Any, int]
) -> None:
    cls, bits = which
    value = data.draw(st.integers(min_value=0, max_value=(1 << bits) - 1))
    parsed = cls(str(value))
    assert parsed == value
    assert str(parsed) == str(value)
    assert cls(value) == parsed
    assert parse_uint(str(value), bits) == value


@settings(max_examples=200, deadline=None)
@given(data=st.data(), which=st.sampled_from(WIDTHS))
def test_any_out_of_range_int_is_refused(data: st.DataObject, which: tuple[Any, int]) -> None:
    cls, bits = which
    value = data.draw(
        st.integers(max_value=-1) | st.integers(min_value=1 << bits, max_value=1 << (bits + 64))
    )
    with pytest.raises(InvalidIntegerError):
        cls(value)
    with pytest.raises(InvalidIntegerError):
        cls(str(value))


def test_the_package_defines_one_u64_and_one_u64_max() -> None:
    """Every module takes the ground floor's ``U64`` and ``U64_MAX`` (frames name their
    dtype ``UINT64``, models their field type ``U64Int``), so they cannot drift apart."""
    import ast
    from pathlib import Path

    import ledgerkit

    root = Path(ledgerkit.__file__).parent
    found: dict[str, list[str]] = {"U64": [], "U64_MAX": [], "_U64_MAX": []}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            else:
                continue
            for name in names:
                if name in found:
                    found[name].append(str(path.relative_to(root.parent)))
    assert found == {
        "U64": ["ledgerkit/types/_ints.py"],
        "U64_MAX": ["ledgerkit/types/_ints.py"],
        "_U64_MAX": [],
    }
