"""MoveType, StructTag, ModuleId and EntryFunctionId: parsing, canonical printing, errors."""

from __future__ import annotations

import itertools
import pickle
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledgerkit import (
    Address,
    EntryFunctionId,
    InputError,
    ModuleId,
    MoveStructTag,
    MoveType,
    MoveTypeSyntaxError,
    StructTag,
)
from ledgerkit.types import GenericTypeParam, PrimitiveType, ReferenceType, VectorType

PRIMITIVES = [
    "bool",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "u256",
    "address",
    "signer",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "i256",
]
ONE = Address.parse("0x1")
APT = StructTag(ONE, "aptos_coin", "AptosCoin")


# -- parsing -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRIMITIVES)
def test_primitives(name: str) -> None:
    parsed = MoveType.parse(name)
    assert parsed == PrimitiveType(name)
    assert str(parsed) == name
    assert not parsed.has_generics


def test_vectors() -> None:
    assert MoveType.parse("vector<u8>") == VectorType(PrimitiveType("u8"))
    assert MoveType.parse("vector<vector<address>>") == VectorType(
        VectorType(PrimitiveType("address"))
    )
    assert str(MoveType.parse("vector<vector<address>>")) == "vector<vector<address>>"


def test_struct_with_a_struct_argument() -> None:
    parsed = MoveType.parse("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>")
    assert parsed == StructTag(ONE, "coin", "CoinStore", (APT,))
    assert isinstance(parsed, StructTag)
    assert parsed.address == ONE
    assert parsed.module == "coin"
    assert parsed.name == "CoinStore"
    assert parsed.type_args == (APT,)


def test_nested_struct_generics() -> None:
    text = "0x1::table::Table<0x1::string::String, vector<0x1::option::Option<u64>>>"
    parsed = MoveType.parse(text)
    assert parsed == StructTag(
        ONE,
        "table",
        "Table",
        (
            StructTag(ONE, "string", "String"),
            VectorType(StructTag(ONE, "option", "Option", (PrimitiveType("u64"),))),
        ),
    )
    assert str(parsed) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("T0", GenericTypeParam(0)),
        ("T1", GenericTypeParam(1)),
        ("T12", GenericTypeParam(12)),
        ("&signer", ReferenceType(PrimitiveType("signer"))),
        ("&mut 0x1::acl::ACL", ReferenceType(StructTag(ONE, "acl", "ACL"), mutable=True)),
        ("vector<T1>", VectorType(GenericTypeParam(1))),
        ("&vector<T0>", ReferenceType(VectorType(GenericTypeParam(0)))),
        ("&mut vector<u8>", ReferenceType(VectorType(PrimitiveType("u8")), mutable=True)),
    ],
)
def test_abi_forms(text: str, expected: MoveType) -> None:
    parsed = MoveType.parse(text)
    assert parsed == expected
    assert str(parsed) == text


def test_names_that_look_like_keywords_are_fine_inside_a_path() -> None:
    parsed = MoveType.parse("0x1::vector::u8<T0>")
    assert parsed == StructTag(ONE, "vector", "u8", (GenericTypeParam(0),))


@pytest.mark.parametrize(
    "text",
    [
        "0x1::coin::CoinStore< 0x01::aptos_coin::AptosCoin >",
        "0x1 :: coin :: CoinStore<0x1::aptos_coin::AptosCoin>",
        " 0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin> ",
        "\t0x1::coin::CoinStore\n<\n0x1::aptos_coin::AptosCoin\n>\n",
        "0x" + "0" * 63 + "1::coin::CoinStore<0x0001::aptos_coin::AptosCoin>",
        "0X1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    ],
)
def test_whitespace_and_address_form_do_not_change_the_type(text: str) -> None:
    canonical = "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"
    assert MoveType.parse(text) == MoveType.parse(canonical)
    assert hash(MoveType.parse(text)) == hash(MoveType.parse(canonical))
    assert str(MoveType.parse(text)) == canonical


def test_identifiers_are_case_sensitive() -> None:
    assert MoveType.parse("0x1::coin::Coin") != MoveType.parse("0x1::Coin::Coin")
    assert MoveType.parse("0x1::coin::Coin") != MoveType.parse("0x1::coin::coin")


def test_canonical_printing_uses_short_addresses_and_comma_space() -> None:
    text = "0x0000000000000000000000000000000000000000000000000000000000000abc::m::S<u8,u64,bool>"
    assert str(MoveType.parse(text)) == "0xabc::m::S<u8, u64, bool>"
    assert str(MoveType.parse("vector< u8 >")) == "vector<u8>"
    assert str(MoveType.parse("&  mut  u8")) == "&mut u8"


def test_long_address_input_prints_short() -> None:
    long = "0xb4881b2745e177b3748d6aa9a21d510259124cc4fc93c51ed61d5319a59073ed"
    assert str(MoveType.parse(f"{long}::m::S")) == f"{long}::m::S"  # nothing to trim
    padded = "0x" + "0" * 60 + "cafe"
    assert str(MoveType.parse(f"{padded}::m::S<{padded}::n::T>")) == "0xcafe::m::S<0xcafe::n::T>"


def test_parse_passes_a_parsed_type_through() -> None:
    parsed = MoveType.parse("vector<u8>")
    assert MoveType.parse(parsed) is parsed


# -- url segments ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
        "0x1::table::Table<0x1::string::String, vector<0x1::option::Option<u64>>>",
        "vector<u8>",
        "&mut 0x1::acl::ACL",
        "u64",
    ],
)
def test_url_segment_percent_encodes_and_unquotes_to_the_canonical_text(text: str) -> None:
    parsed = MoveType.parse(text)
    segment = parsed.url_segment
    assert not set(segment) & set(":<>, &/")
    assert unquote(segment) == str(parsed)
    assert MoveType.parse(unquote(segment)) == parsed


def test_url_segment_exact() -> None:
    parsed = MoveType.parse("0x1::a::B<u8, 0x2::c::D>")
    assert parsed.url_segment == "0x1%3A%3Aa%3A%3AB%3Cu8%2C%200x2%3A%3Ac%3A%3AD%3E"


def test_url_segment_of_a_spaced_spelling_is_the_canonical_one() -> None:
    assert (
        MoveType.parse("0x01::coin::CoinStore< 0x1::aptos_coin::AptosCoin >").url_segment
        == MoveType.parse("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>").url_segment
    )


# -- struct tags -------------------------------------------------------------------------


def test_struct_tag_parse_and_helpers() -> None:
    tag = StructTag.parse("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>")
    assert MoveStructTag is StructTag
    assert tag.module_id == ModuleId(ONE, "coin")
    assert tag.base == StructTag(ONE, "coin", "CoinStore")
    assert str(tag.base) == "0x1::coin::CoinStore"
    assert tag.is_struct("0x1", "coin", "CoinStore")
    assert tag.is_struct(ONE, "coin", "CoinStore")
    assert not tag.is_struct("0x2", "coin", "CoinStore")
    assert not tag.is_struct("0x1", "coin", "coinstore")


@pytest.mark.parametrize("text", ["u8", "vector<0x1::a::B>", "T0", "&0x1::a::B", "address"])
def test_struct_tag_parse_refuses_non_structs(text: str) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="struct") as info:
        StructTag.parse(text)
    assert info.value.text == text


def test_struct_tag_parse_refuses_malformed_text() -> None:
    with pytest.raises(MoveTypeSyntaxError):
        StructTag.parse("0x1::a")


# -- module and function ids -------------------------------------------------------------


@pytest.mark.parametrize("text", ["0x1::coin", "0x01::coin", "1::coin", " 0x1 :: coin "])
def test_module_id_parse(text: str) -> None:
    module = ModuleId.parse(text)
    assert module == ModuleId(ONE, "coin")
    assert str(module) == "0x1::coin"
    assert module.url_segment == "0x1%3A%3Acoin"
    assert ModuleId.parse(module) is module


def test_module_names_are_case_sensitive() -> None:
    assert ModuleId.parse("0x1::Coin") != ModuleId.parse("0x1::coin")
    assert str(ModuleId.parse("0x1::Coin")) == "0x1::Coin"


@pytest.mark.parametrize(
    "text", ["0x1::aptos_account::transfer", "0x0001::aptos_account::transfer"]
)
def test_entry_function_id_parse(text: str) -> None:
    function = EntryFunctionId.parse(text)
    assert function == EntryFunctionId(ModuleId(ONE, "aptos_account"), "transfer")
    assert function.address == ONE
    assert function.module.name == "aptos_account"
    assert function.name == "transfer"
    assert str(function) == "0x1::aptos_account::transfer"
    assert function.url_segment == "0x1%3A%3Aaptos_account%3A%3Atransfer"
    assert unquote(function.url_segment) == str(function)
    assert EntryFunctionId.parse(function) is function
    assert {function: 1}[EntryFunctionId.parse("0x1::aptos_account::transfer")] == 1


@pytest.mark.parametrize(
    "text", ["", "0x1", "0x1::coin::transfer", "0x1::a::b::c", "0x1::coin::CoinStore<u8>"]
)
def test_module_id_refuses_wrong_part_counts(text: str) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="2 parts") as info:
        ModuleId.parse(text)
    assert info.value.text == text


@pytest.mark.parametrize("text", ["", "0x1", "0x1::coin", "0x1::a::b::c"])
def test_entry_function_id_refuses_wrong_part_counts(text: str) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="3 parts"):
        EntryFunctionId.parse(text)


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("0x1::", 5),
        ("0x1::1coin", 5),
        ("0x1::co in", 5),
        ("0x1::co-in", 5),
        ("0x1::\u00e9t\u00e9", 5),
    ],
)
def test_module_id_refuses_bad_identifiers(text: str, position: int) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="identifier") as info:
        ModuleId.parse(text)
    assert info.value.position == position


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("0x1::a::1b", 8),
        ("0x1::a::b<u8>", 8),
        ("0x1::1a::b", 5),
        ("0x1::a::", 8),
    ],
)
def test_entry_function_id_refuses_bad_identifiers(text: str, position: int) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="identifier") as info:
        EntryFunctionId.parse(text)
    assert info.value.position == position


@pytest.mark.parametrize("text", ["0xg::coin", "::coin", "0x" + "1" * 65 + "::coin"])
def test_module_id_refuses_bad_addresses(text: str) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="address") as info:
        ModuleId.parse(text)
    assert info.value.position == 0


@pytest.mark.parametrize("value", [None, 1, b"0x1::coin"])
def test_ids_refuse_non_text(value: object) -> None:
    with pytest.raises(MoveTypeSyntaxError):
        ModuleId.parse(value)  # type: ignore[arg-type]
    with pytest.raises(MoveTypeSyntaxError):
        EntryFunctionId.parse(value)  # type: ignore[arg-type]


# -- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("", 0),
        ("   ", 0),
        ("vector<u8", 9),
        ("vector<>", 7),
        ("vector", 6),
        ("0x1::a", 6),
        ("0x1::a::", 8),
        ("0x1::a::B<>", 10),
        ("0x1::a::B<u8,>", 13),
        ("0x1::a::B<,u8>", 10),
        ("0x1::a::B<u8", 12),
        ("0x1::a::B<u8 u8>", 13),
        ("0x1::a::B>", 9),
        ("0x1::a::B::C", 9),
        ("u8 u8", 3),
        ("u8<u8>", 2),
        ("foo", 0),
        ("Vector<u8>", 0),
        ("U64", 0),
        ("T", 0),
        ("T01", 0),
        ("0x1::1a::B", 5),
        ("0x1: :a::B", 3),
        ("0x1::a::B<u8>>", 13),
        ("&", 1),
        ("&mut", 4),
        ("mut u8", 0),
        ("vector<u8> ,", 11),
    ],
)
def test_malformed_types_point_at_the_fault(text: str, position: int) -> None:
    with pytest.raises(MoveTypeSyntaxError) as info:
        MoveType.parse(text)
    assert info.value.text == text
    assert info.value.position == position


@pytest.mark.parametrize(
    "text", ["0xzz::a::B", "0x::a::B", "1::a::B", "0x" + "1" * 65 + "::a::B", "\u00fc8"]
)
def test_bad_addresses_and_characters_point_at_the_start(text: str) -> None:
    with pytest.raises(MoveTypeSyntaxError) as info:
        MoveType.parse(text)
    assert info.value.text == text
    assert info.value.position <= 2


def test_the_message_draws_a_caret_under_the_fault() -> None:
    with pytest.raises(MoveTypeSyntaxError) as info:
        MoveType.parse("0x1::a::B<u8,>")
    lines = str(info.value).splitlines()
    assert "position 13" in lines[0]
    assert lines[1] == "  0x1::a::B<u8,>"
    assert lines[2] == "  " + " " * 13 + "^"
    assert lines[1][lines[2].index("^")] == ">"


def test_syntax_errors_are_input_errors() -> None:
    with pytest.raises(MoveTypeSyntaxError) as info:
        MoveType.parse("foo")
    assert isinstance(info.value, InputError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "vector<" * 100 + "u8" + ">" * 100,
        "0x1::a::B<" * 100 + "u8" + ">" * 100,
        "vector<" * 5000 + "u8" + ">" * 5000,
    ],
    ids=["vector", "struct", "vector-5000"],
)
def test_deep_nesting_is_a_syntax_error_not_a_recursion_error(text: str) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="nested") as info:
        MoveType.parse(text)
    assert 0 < info.value.position < len(text)


@pytest.mark.parametrize(
    ("text", "position"),
    [("&&u8", 1), ("&" * 100 + "u8", 1), ("vector<&u8>", 7), ("0x1::a::B<&mut u8>", 10)],
)
def test_references_only_at_the_outermost_level(text: str, position: int) -> None:
    with pytest.raises(MoveTypeSyntaxError, match="outermost") as info:
        MoveType.parse(text)
    assert info.value.position == position


def test_moderate_nesting_parses() -> None:
    text = "vector<" * 32 + "u8" + ">" * 32
    assert str(MoveType.parse(text)) == text


@pytest.mark.parametrize("value", [None, 8, b"u8"])
def test_non_text_is_a_syntax_error(value: object) -> None:
    with pytest.raises(MoveTypeSyntaxError):
        MoveType.parse(value)  # type: ignore[arg-type]


def test_syntax_error_pickles() -> None:
    with pytest.raises(MoveTypeSyntaxError) as info:
        MoveType.parse("vector<u8")
    copy = pickle.loads(pickle.dumps(info.value))
    assert type(copy) is MoveTypeSyntaxError
    assert (copy.text, copy.position) == ("vector<u8", 9)
    assert str(copy) == str(info.value)


# -- generics ----------------------------------------------------------------------------


def test_substitute_replaces_type_parameters() -> None:
    layout = MoveType.parse("0x1::a::Pair<T0, vector<T1>>")
    filled = layout.substitute((MoveType.parse("u8"), APT))
    assert str(filled) == "0x1::a::Pair<u8, vector<0x1::aptos_coin::AptosCoin>>"
    assert not filled.has_generics
    assert str(MoveType.parse("&mut T1").substitute((APT, MoveType.parse("u64")))) == "&mut u64"
    assert MoveType.parse("T0").substitute((APT,)) == APT


def test_substitute_leaves_concrete_types_alone() -> None:
    concrete = MoveType.parse("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>")
    assert concrete.substitute(()) == concrete
    assert MoveType.parse("vector<u8>").substitute(()) == MoveType.parse("vector<u8>")


def test_substitute_with_too_few_arguments_is_an_error() -> None:
    with pytest.raises(MoveTypeSyntaxError, match="T1"):
        MoveType.parse("vector<T1>").substitute((APT,))


@pytest.mark.parametrize(
    ("text", "generic"),
    [
        ("T0", True),
        ("vector<T3>", True),
        ("&mut T0", True),
        ("0x1::a::B<u8, vector<T1>>", True),
        ("0x1::a::B<u8, vector<u8>>", False),
        ("u8", False),
        ("&signer", False),
    ],
)
def test_has_generics(text: str, generic: bool) -> None:
    assert MoveType.parse(text).has_generics is generic


def test_trees_are_immutable_and_pickle() -> None:
    parsed = MoveType.parse("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>")
    assert isinstance(parsed, StructTag)
    with pytest.raises(AttributeError):
        parsed.name = "Other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(parsed)) == parsed


# -- properties --------------------------------------------------------------------------

identifiers = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,11}", fullmatch=True)
addresses = st.one_of(
    st.integers(min_value=0, max_value=0x20).map(Address.from_int),
    st.binary(min_size=32, max_size=32).map(Address),
)
leaves = st.one_of(
    st.sampled_from(PRIMITIVES).map(PrimitiveType),
    st.integers(min_value=0, max_value=30).map(GenericTypeParam),
    st.builds(StructTag, addresses, identifiers, identifiers),
)


def _extend(children: st.SearchStrategy[MoveType]) -> st.SearchStrategy[MoveType]:
    return st.one_of(
        children.map(VectorType),
        st.builds(
            StructTag,
            addresses,
            identifiers,
            identifiers,
            st.lists(children, min_size=1, max_size=4).map(tuple),
        ),
    )


values = st.recursive(leaves, _extend, max_leaves=12)
# References only appear at the top of ABI parameter types.
move_types = st.one_of(values, st.builds(ReferenceType, values, st.booleans()))

_TOKENS = re.compile(r"0x[0-9a-f]+|[A-Za-z_][A-Za-z0-9_]*|::|[<>,&]")
_WORD = re.compile(r"[0-9A-Za-z_]")


def _respace(text: str, data: st.DataObject) -> str:
    """The same tokens with random whitespace between them (at least a space between words)."""
    tokens = _TOKENS.findall(text)
    assert "".join(tokens) == text.replace(" ", "")
    out = [data.draw(st.sampled_from(["", " ", "\t", "\n "]))]
    for before, after in itertools.pairwise(tokens):
        out.append(before)
        needed = 1 if _WORD.match(before[-1]) and _WORD.match(after[0]) else 0
        out.append(data.draw(st.text(alphabet=" \t\n", min_size=needed, max_size=3)))
    out.append(tokens[-1])
    out.append(data.draw(st.sampled_from(["", " ", "\n"])))
    return "".join(out)


@settings(max_examples=200, deadline=None)
@given(tree=move_types)
def test_printing_then_parsing_gives_the_same_tree(tree: MoveType) -> None:
    text = str(tree)
    assert MoveType.parse(text) == tree
    assert str(MoveType.parse(text)) == text
    assert MoveType.parse(unquote(tree.url_segment)) == tree


@settings(max_examples=200, deadline=None)
@given(tree=move_types, data=st.data())
def test_extra_whitespace_between_tokens_does_not_change_the_tree(
    tree: MoveType, data: st.DataObject
) -> None:
    spaced = _respace(str(tree), data)
    assert MoveType.parse(spaced) == tree
    assert str(MoveType.parse(spaced)) == str(tree)


@settings(max_examples=200, deadline=None)
@given(tree=move_types)
def test_long_addresses_parse_to_the_same_tree(tree: MoveType) -> None:
    text = str(tree)
    lengthened = re.sub(r"(?<!\w)0x([0-9a-f]+)", lambda m: "0x" + m.group(1).rjust(64, "0"), text)
    assert MoveType.parse(lengthened) == tree
    assert str(MoveType.parse(lengthened)) == text


@settings(max_examples=200, deadline=None)
@given(tree=move_types, data=st.data())
def test_parse_print_parse_is_a_fixed_point(tree: MoveType, data: st.DataObject) -> None:
    once = MoveType.parse(_respace(str(tree), data))
    twice = MoveType.parse(str(once))
    assert once == twice
    assert str(once) == str(twice)


@settings(max_examples=200, deadline=None)
@given(address=addresses, module=identifiers, name=identifiers)
def test_function_ids_round_trip(address: Address, module: str, name: str) -> None:
    function = EntryFunctionId(ModuleId(address, module), name)
    assert EntryFunctionId.parse(str(function)) == function
    assert EntryFunctionId.parse(f"{address.long}::{module}::{name}") == function
    assert EntryFunctionId.parse(unquote(function.url_segment)) == function
    assert ModuleId.parse(str(function.module)) == function.module


def test_struct_tag_and_module_id_accept_address_text() -> None:
    assert StructTag("0x1", "coin", "Coin") == MoveType.parse("0x1::coin::Coin")
    assert ModuleId("1", "coin") == ModuleId.parse("0x1::coin")
    with pytest.raises(MoveTypeSyntaxError):
        ModuleId("0xzz", "coin")


@pytest.mark.parametrize(
    ("parse", "value", "message"),
    [
        (MoveType.parse, 8, "a Move type is text, got int"),
        (StructTag.parse, None, "a Move type is text, got NoneType"),
        (ModuleId.parse, b"0x1::coin", "a module id is text, got bytes"),
        (EntryFunctionId.parse, ["0x1::coin::transfer"], "a function id is text, got list"),
    ],
)
def test_a_value_that_is_not_text_is_a_syntax_error_naming_its_type(
    parse: Callable[[Any], object], value: object, message: str
) -> None:
    with pytest.raises(MoveTypeSyntaxError, match=re.escape(message)) as info:
        parse(value)
    assert info.value.text == repr(value)
