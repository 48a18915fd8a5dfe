"""Python values checked against an ABI and encoded, without a node.

Every Move type kind is encoded from its Python spellings and compared with the bytes the
official Python SDK (aptos-sdk) serializes for the same value, or with bytes written out
by hand where the SDK has no serializer (options, signed integers). Bad input raises
``ArgumentError`` naming the argument, its parameter position, the Move type and the value.
"""

from __future__ import annotations

import pickle
from typing import Any, Final

import pytest
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.bcs import Serializer as SdkSerializer
from aptos_sdk.transactions import EntryFunction as SdkEntryFunction
from aptos_sdk.transactions import TransactionArgument
from aptos_sdk.type_tag import StructTag as SdkStructTag
from aptos_sdk.type_tag import TypeTag

from ledgerkit import Address, ArgumentError, InputError
from ledgerkit.bcs import EntryFunction, MoveValueCodec
from ledgerkit.models import (
    AbiCache,
    MoveFunction,
    MoveGenericTypeParam,
    MoveModule,
    MoveStruct,
    MoveStructField,
)
from ledgerkit.tx import (
    encode_call,
    from_json_form,
    parameter_types,
    type_arguments_of,
)
from ledgerkit.types import ModuleId, MoveType

FUNCTION: Final = "0x42::demo::everything"
METADATA: Final = "0x1::fungible_asset::Metadata"
POINT: Final = "0x42::geo::Point"

PARAMS: Final = [
    "&signer",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "u256",
    "bool",
    "address",
    "vector<u8>",
    "vector<vector<u8>>",
    "vector<u64>",
    "0x1::string::String",
    "0x1::option::Option<u64>",
    "0x1::option::Option<0x1::string::String>",
    "0x1::object::Object<T0>",
    "T1",
    "vector<0x42::geo::Point>",
    "0x42::geo::Pair<u16, 0x1::option::Option<T1>>",
]


def _struct(name: str, fields: list[tuple[str, str]], generics: int = 0) -> MoveStruct:
    return MoveStruct(
        name=name,
        is_native=False,
        abilities=["copy", "drop"],
        generic_type_params=[MoveGenericTypeParam(constraints=[]) for _ in range(generics)],
        fields=[MoveStructField(name=n, type=t) for n, t in fields],
    )


GEO: Final = MoveModule(
    address="0x42",
    name="geo",
    friends=[],
    exposed_functions=[],
    structs=[
        _struct("Point", [("x", "u64"), ("y", "u64")]),
        _struct("Pair", [("first", "T0"), ("second", "T1")], generics=2),
    ],
)


def _function(params: list[str], generics: int = 2) -> MoveFunction:
    return MoveFunction(
        name="everything",
        visibility="public",
        is_entry=True,
        generic_type_params=[MoveGenericTypeParam(constraints=[]) for _ in range(generics)],
        params=params,
        return_=[],
    )


def encode(
    arguments: list[Any],
    type_arguments: list[str] = [METADATA, POINT],  # noqa: B006 - never mutated
    params: list[str] = PARAMS,
    generics: int | None = None,
) -> EntryFunction:
    count = len(type_arguments) if generics is None else generics
    abi = _function(params, generics=count)
    type_args = type_arguments_of(FUNCTION, abi, type_arguments)
    codec = MoveValueCodec(AbiCache([GEO]))
    params_given = parameter_types(FUNCTION, abi, type_args)
    return encode_call(FUNCTION, type_args, params_given, arguments, codec)


U256_MAX: Final = 2**256 - 1
OWNER: Final = "0x" + "ab" * 32

#: One Python value per parameter after the signer, in its most usual spelling.
VALUES: Final[list[Any]] = [
    255,
    65_535,
    2**32 - 1,
    2**64 - 1,
    2**128 - 1,
    U256_MAX,
    True,
    Address.parse(OWNER),
    b"\x00\x01\xff",
    [b"", b"\x07"],
    [0, 2**53 + 1],
    "héllo",
    None,
    "set",
    "0xa",
    {"x": 1, "y": 2},
    [{"x": 3, "y": 4}],
    {"first": 9, "second": {"x": 5, "y": 6}},
]


def _sdk_bytes(encoder: Any, value: Any) -> bytes:
    s = SdkSerializer()
    encoder(s, value)
    return s.output()


def _u64s(*values: int) -> bytes:
    return b"".join(v.to_bytes(8, "little") for v in values)


def expected_arguments() -> list[bytes]:
    """Each argument as aptos-sdk serializes it (options and structs composed by hand
    from its serializers: an option is a vector of at most one, a struct its fields)."""
    s = SdkSerializer
    return [
        _sdk_bytes(s.u8, 255),
        _sdk_bytes(s.u16, 65_535),
        _sdk_bytes(s.u32, 2**32 - 1),
        _sdk_bytes(s.u64, 2**64 - 1),
        _sdk_bytes(s.u128, 2**128 - 1),
        _sdk_bytes(s.u256, U256_MAX),
        _sdk_bytes(s.bool, True),
        _sdk_bytes(s.struct, AccountAddress.from_str(OWNER)),
        _sdk_bytes(s.to_bytes, b"\x00\x01\xff"),
        _sdk_bytes(s.sequence_serializer(s.to_bytes), [b"", b"\x07"]),
        _sdk_bytes(s.sequence_serializer(s.u64), [0, 2**53 + 1]),
        _sdk_bytes(s.str, "héllo"),
        b"\x00",
        b"\x01" + _sdk_bytes(s.str, "set"),
        _sdk_bytes(s.struct, AccountAddress.from_str("0xa")),
        _u64s(1, 2),
        b"\x01" + _u64s(3, 4),
        _sdk_bytes(s.u16, 9) + b"\x01" + _u64s(5, 6),
    ]


def test_every_kind_encodes_as_the_official_sdk_does() -> None:
    ours = encode(VALUES)
    # The SDK takes only special addresses (0x0-0xf) in short form.
    long_0x42 = "0x" + "00" * 31 + "42"
    point = POINT.replace("0x42", long_0x42)
    type_args = [TypeTag(SdkStructTag.from_str(t)) for t in (METADATA, point)]
    arguments = [
        TransactionArgument(raw, SdkSerializer.fixed_bytes) for raw in expected_arguments()
    ]
    theirs = SdkEntryFunction.natural(f"{long_0x42}::demo", "everything", type_args, arguments)
    assert list(ours.args) == expected_arguments()
    assert ours.to_bcs() == _sdk_bytes(SdkSerializer.struct, theirs)


def test_a_transfer_encodes_as_the_official_sdk_does() -> None:
    abi = _function(["&signer", "address", "u64"], generics=0)
    recipient = "0x" + "cd" * 32
    ef = encode_call(
        "0x1::aptos_account::transfer",
        (),
        parameter_types("0x1::aptos_account::transfer", abi, ()),
        [recipient, 1_000],
        MoveValueCodec(),
    )
    theirs = SdkEntryFunction.natural(
        "0x1::aptos_account",
        "transfer",
        [],
        [
            TransactionArgument(AccountAddress.from_str(recipient), SdkSerializer.struct),
            TransactionArgument(1_000, SdkSerializer.u64),
        ],
    )
    assert ef.to_bcs() == _sdk_bytes(SdkSerializer.struct, theirs)


@pytest.mark.parametrize(
    ("index", "spelling"),
    [
        (3, "18446744073709551615"),  # u64 as a decimal string
        (7, OWNER),  # address as long hex text
        (7, OWNER[2:]),  # without 0x
        (7, bytes.fromhex(OWNER[2:])),  # as 32 bytes
        (8, "0x0001ff"),  # vector<u8> as hex
        (8, [0, 1, 255]),  # vector<u8> as a list of small ints
        (8, bytearray(b"\x00\x01\xff")),
        (9, ([], [7])),  # nested vectors as tuples of int lists
        (12, {"vec": []}),  # an option in the node's JSON form
        (13, {"vec": ["set"]}),
        (14, Address.parse("0xa")),  # an object as an Address
        (14, "a"),  # ... as a short bare address
        (14, {"inner": "0xa"}),  # ... in the node's JSON form
    ],
)
def test_other_spellings_of_a_value_give_the_same_bytes(index: int, spelling: Any) -> None:
    values = list(VALUES)
    values[index] = spelling
    assert list(encode(values).args) == expected_arguments()


@pytest.mark.parametrize(
    ("move_type", "value", "hand_bytes"),
    [
        ("i8", -1, "ff"),
        ("i8", -128, "80"),
        ("i16", -2, "feff"),
        ("i64", -(2**63), "0000000000000080"),
        ("i64", "-5", "fbffffffffffffff"),
        ("i128", 2**127 - 1, "ff" * 15 + "7f"),
        ("i256", -(2**255), "00" * 31 + "80"),
        ("0x1::option::Option<u8>", 5, "0105"),
        ("0x1::option::Option<vector<u8>>", b"\xaa", "0101aa"),
        ("0x1::option::Option<0x1::option::Option<bool>>", {"vec": [None]}, "0100"),
        ("vector<0x1::option::Option<u16>>", [None, 258], "0200010201"),
        ("vector<vector<vector<bool>>>", [[[True]], []], "02010101" + "00"),
    ],
)
def test_hand_computed_bytes(move_type: str, value: Any, hand_bytes: str) -> None:
    ef = encode([value], [], ["&signer", move_type])
    assert ef.args[0].hex() == hand_bytes


def test_signers_are_skipped_and_generics_resolved() -> None:
    abi = _function(["&signer", "signer", "T0", "vector<T0>"], generics=1)
    params = parameter_types(FUNCTION, abi, (MoveType.parse("u16"),))
    assert [(position, str(t)) for position, t in params] == [(2, "u16"), (3, "vector<u16>")]


# -- bad input -------------------------------------------------------------------------------

SIMPLE: Final = ["&signer", "u8", "u64", "address", "0x1::string::String", "vector<u8>"]
GOOD: Final[list[Any]] = [1, 2, "0x1", "s", b""]


def _bad(index: int, value: Any) -> list[Any]:
    values = list(GOOD)
    values[index] = value
    return values


@pytest.mark.parametrize(
    ("arguments", "index", "position", "move_type", "shown"),
    [
        (_bad(0, 256), 0, 1, "u8", "256"),
        (_bad(0, -1), 0, 1, "u8", "-1"),
        (_bad(0, True), 0, 1, "u8", "True"),
        (_bad(1, 2**64), 1, 2, "u64", "18446744073709551616"),
        (_bad(1, 1.5), 1, 2, "u64", "1.5"),
        (_bad(1, "12a"), 1, 2, "u64", "'12a'"),
        (_bad(2, "0xzz"), 2, 3, "address", "'0xzz'"),
        (_bad(2, "0x" + "1" * 65), 2, 3, "address", "'0x111"),
        (_bad(2, 7), 2, 3, "address", "7"),
        (_bad(3, b"s"), 3, 4, "0x1::string::String", "b's'"),
        (_bad(3, None), 3, 4, "0x1::string::String", "None"),
        (_bad(4, "0x1"), 4, 5, "vector<u8>", "'0x1'"),
        (_bad(4, [1, 256]), 4, 5, "vector<u8>", "[1, 256]"),
        (_bad(4, "x" * 500), 4, 5, "vector<u8>", "'xxxx"),
    ],
)
def test_a_bad_value_names_its_argument_type_and_value(
    arguments: list[Any], index: int, position: int, move_type: str, shown: str
) -> None:
    with pytest.raises(ArgumentError) as info:
        encode(arguments, [], SIMPLE)
    error = info.value
    assert (error.index, error.position, error.move_type) == (index, position, move_type)
    assert error.value is not None
    assert error.value.startswith(shown)
    assert len(error.value) <= 80
    message = str(error)
    assert f"argument {index} (parameter {position}) expects {move_type}" in message
    assert shown in message
    assert FUNCTION in message
    assert isinstance(error, InputError)
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    ("arguments", "type_arguments", "params", "fragment"),
    [
        (GOOD[:-1], [], SIMPLE, "takes 5 argument(s)"),
        ([*GOOD, 1], [], SIMPLE, "got 6"),
        ("12", [], SIMPLE, "arguments must be a list"),
        ({"a": 1}, [], SIMPLE, "arguments must be a list"),
        ([], ["0x1::coin"], ["&signer"], "type argument 0 is not a Move type"),
        ([], "u8", ["&signer"], "type_arguments must be a list"),
        ([{"x": 1}], [], ["0x42::geo::Point"], "missing ['y']"),
        ([{"x": 1, "y": 2, "z": 3}], [], ["0x42::geo::Point"], "unknown ['z']"),
        ([[1, 2]], [], ["0x42::geo::Point"], "an object with the fields"),
        ([5], [], ["0x42::geo::Nowhere"], "no field layout known"),
        ([{"vec": [1, 2]}], [], ["0x1::option::Option<u8>"], "expects 0x1::option::Option<u8>"),
        ([-129], [], ["i8"], "i8 out of range"),
        ([5], [], ["&signer", "signer"], "takes 0 argument(s)"),
    ],
)
def test_bad_counts_types_and_structs(
    arguments: Any, type_arguments: Any, params: list[str], fragment: str
) -> None:
    with pytest.raises(ArgumentError) as info:
        encode(arguments, type_arguments, params)
    assert fragment in str(info.value)
    assert FUNCTION in str(info.value)


def test_a_wrong_number_of_type_arguments() -> None:
    with pytest.raises(ArgumentError, match=r"takes 0 type argument\(s\), got 1"):
        encode([], [METADATA], ["&signer"], generics=0)
    with pytest.raises(ArgumentError, match=r"takes 2 type argument\(s\), got 0"):
        encode([], [], ["&signer"], generics=2)


def test_the_error_survives_pickling() -> None:
    with pytest.raises(ArgumentError) as info:
        encode(_bad(0, 256), [], SIMPLE)
    copy = pickle.loads(pickle.dumps(info.value))
    assert type(copy) is ArgumentError
    assert (copy.index, copy.position, copy.move_type, copy.value) == (0, 1, "u8", "256")
    assert str(copy) == str(info.value)


# -- layouts and decoding --------------------------------------------------------------------


def test_layouts_name_the_modules_still_needed() -> None:
    layouts = AbiCache()
    wanted = [MoveType.parse("vector<0x42::geo::Pair<0x43::m::S, u8>>")]
    assert layouts.missing_modules(wanted, bcs=True) == [ModuleId.parse("0x42::geo")]
    layouts.add(GEO)
    assert layouts.missing_modules(wanted, bcs=True) == [ModuleId.parse("0x43::m")]
    builtin = [MoveType.parse("0x1::option::Option<0x1::object::Object<0x44::x::Y>>")]
    assert layouts.missing_modules(builtin, bcs=True) == []
    assert layouts.missing_modules([MoveType.parse("0x42::geo::Gone")], bcs=True) == [
        ModuleId.parse("0x42::geo")
    ]


def test_the_deprecated_holders_still_read_as_they_did() -> None:
    with pytest.warns(DeprecationWarning, match="use ledgerkit.AbiCache"):
        from ledgerkit.tx import AbiLayouts, ModuleAbis
    # AbiLayouts: a layout source whose missing_modules is a set, for BCS values.
    layouts = AbiLayouts([GEO])
    point = MoveValueCodec(layouts).encode(POINT, {"x": 1, "y": 2})
    assert point.hex() == "0100000000000000" + "0200000000000000"
    assert layouts.knows(ModuleId.parse("0x42::geo"))
    assert not layouts.knows(ModuleId.parse("0x43::m"))
    wanted = [MoveType.parse("vector<0x42::geo::Pair<0x43::m::S, u8>>")]
    assert layouts.missing_modules(wanted) == {ModuleId.parse("0x43::m")}
    # ModuleAbis: add(module_id, module or None) and parameter_types(entry function).
    demo = MoveModule(
        address="0x42",
        name="demo",
        friends=[],
        exposed_functions=[_function(["&signer", "u64"], generics=0)],
        structs=[],
    )
    abis = ModuleAbis()
    abis.add(ModuleId.parse("0x9::gone"), None)
    assert "0x9::gone" in abis
    abis.add(demo.module_id, demo)
    call = EntryFunction.build(FUNCTION, [], [("u64", 5)], codec=MoveValueCodec())
    assert abis.parameter_types(call) == [MoveType.parse("u64")]


@pytest.mark.parametrize(
    ("move_type", "json_value", "python"),
    [
        ("u8", 7, 7),
        ("u64", "18446744073709551615", 2**64 - 1),
        ("u256", str(U256_MAX), U256_MAX),
        ("i64", "-9007199254740993", -(2**53) - 1),
        ("bool", False, False),
        ("address", "0xa", Address.parse("0xa")),
        ("vector<u8>", "0x00ff", b"\x00\xff"),
        ("vector<u128>", ["1", "2"], [1, 2]),
        ("0x1::string::String", "hé", "hé"),
        ("0x1::option::Option<u64>", {"vec": []}, None),
        ("0x1::option::Option<u64>", {"vec": ["3"]}, 3),
        ("0x1::option::Option<u8>", {"vec": "0x05"}, 5),
        (f"0x1::object::Object<{METADATA}>", {"inner": "0xa"}, Address.parse("0xa")),
        (POINT, {"x": "1", "y": "2"}, {"x": 1, "y": 2}),
    ],
)
def test_json_form_becomes_plain_python(move_type: str, json_value: Any, python: Any) -> None:
    assert from_json_form(MoveType.parse(move_type), json_value, AbiCache([GEO])) == python
