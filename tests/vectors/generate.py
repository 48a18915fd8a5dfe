"""Golden BCS test vectors produced by the independent implementation ``aptos-sdk``.

Every byte string in the JSON files next to this script comes from aptos-sdk's own classes
and its ``Serializer``.  Where aptos-sdk has no class for a construct (vector type tags,
generic Move structs, ``Option``, the multisig payload, ...) the bytes are composed from
aptos-sdk's ``Serializer`` primitives and a comment at that spot says so.

Usage::

    python tests/vectors/generate.py      # (re)writes the *.json files next to this file

The module is importable by path (no package needed): ``build_all()`` returns
``{filename: document}`` and ``render(document)`` returns the exact text written to disk.
Everything is deterministic: fixed private keys, fixed values, no clocks, no randomness.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from aptos_sdk import asymmetric_crypto_wrapper, ed25519, secp256k1_ecdsa
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.authenticator import (
    AccountAuthenticator,
    Authenticator,
    Ed25519Authenticator,
    FeePayerAuthenticator,
    MultiAgentAuthenticator,
    MultiEd25519Authenticator,
    MultiKeyAuthenticator,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
)
from aptos_sdk.bcs import Deserializer, Serializer, encoder
from aptos_sdk.transactions import (
    EntryFunction,
    FeePayerRawTransaction,
    ModuleId,
    MultiAgentRawTransaction,
    RawTransaction,
    Script,
    ScriptArgument,
    SignedTransaction,
    TransactionArgument,
    TransactionPayload,
)
from aptos_sdk.type_tag import StructTag, TypeTag

HERE = Path(__file__).resolve().parent
GENERATOR = f"aptos-sdk {importlib.metadata.version('aptos-sdk')}"

Layouts = dict[str, list[tuple[str, str]]]


def hx(data: bytes) -> str:
    """Lowercase hex with a ``0x`` prefix."""
    return "0x" + bytes(data).hex()


def unhex(text: str) -> bytes:
    if not text.startswith("0x"):
        raise ValueError(f"hex string without 0x prefix: {text!r}")
    return bytes.fromhex(text[2:])


def short_address(address: AccountAddress) -> str:
    """``0x`` + hex with leading zeros trimmed (``0x0`` for zero), as the REST API prints it."""
    return "0x" + (address.address.hex().lstrip("0") or "0")


def long_address(address: AccountAddress) -> str:
    return hx(address.address)


def document(description: str, cases: list[dict[str, Any]]) -> dict[str, Any]:
    return {"generator": GENERATOR, "description": description, "cases": cases}


# --------------------------------------------------------------------------------------
# Move types: a small parser for MoveType strings and their TypeTag BCS via aptos-sdk.
# --------------------------------------------------------------------------------------

PRIMITIVE_VARIANTS = {
    "bool": TypeTag.BOOL,
    "u8": TypeTag.U8,
    "u16": TypeTag.U16,
    "u32": TypeTag.U32,
    "u64": TypeTag.U64,
    "u128": TypeTag.U128,
    "u256": TypeTag.U256,
    "address": TypeTag.ACCOUNT_ADDRESS,
    "signer": TypeTag.SIGNER,
}


class MoveType(NamedTuple):
    """A parsed MoveType: a primitive, ``vector<T>``, a struct, or a type parameter ``Tn``."""

    kind: str  # a primitive name, "vector", "struct" or "param"
    args: tuple[MoveType, ...] = ()
    address: str = ""  # struct only, short form
    module: str = ""
    name: str = ""  # struct name, or "T0", "T1", ... for a type parameter

    @property
    def base(self) -> str:
        """The generic-free struct tag, e.g. ``0x42::demo::Pair``."""
        return f"{self.address}::{self.module}::{self.name}"

    def __str__(self) -> str:
        if self.kind == "vector":
            return f"vector<{self.args[0]}>"
        if self.kind == "param":
            return self.name
        if self.kind == "struct":
            if not self.args:
                return self.base
            return f"{self.base}<{', '.join(str(a) for a in self.args)}>"
        return self.kind


_TOKEN = re.compile(r"\s*(<|>|,|[^<>,\s]+)")


def parse_type(text: str) -> MoveType:
    tokens = _TOKEN.findall(text)
    parsed, position = _parse_type_at(tokens, 0)
    if position != len(tokens):
        raise ValueError(f"trailing tokens in MoveType {text!r}")
    return parsed


def _parse_type_at(tokens: list[str], position: int) -> tuple[MoveType, int]:
    head = tokens[position]
    position += 1
    args: list[MoveType] = []
    if position < len(tokens) and tokens[position] == "<":
        position += 1
        while True:
            arg, position = _parse_type_at(tokens, position)
            args.append(arg)
            separator = tokens[position]
            position += 1
            if separator == ">":
                break
            if separator != ",":
                raise ValueError(f"unexpected token {separator!r}")
    if head == "vector":
        if len(args) != 1:
            raise ValueError("vector takes exactly one type argument")
        return MoveType("vector", tuple(args)), position
    if head in PRIMITIVE_VARIANTS or re.fullmatch(r"T\d+", head):
        if args:
            raise ValueError(f"{head} takes no type arguments")
        if head in PRIMITIVE_VARIANTS:
            return MoveType(head), position
        return MoveType("param", name=head), position
    address, module, name = head.split("::")
    short = short_address(AccountAddress.from_str_relaxed(address))
    return MoveType("struct", tuple(args), short, module, name), position


def substitute(move_type: MoveType, type_args: tuple[MoveType, ...]) -> MoveType:
    if move_type.kind == "param":
        return type_args[int(move_type.name[1:])]
    if not move_type.args:
        return move_type
    return MoveType(
        move_type.kind,
        tuple(substitute(a, type_args) for a in move_type.args),
        move_type.address,
        move_type.module,
        move_type.name,
    )


class _VariantOnlyTag:
    """A primitive type tag for aptos-sdk's ``TypeTag`` wrapper.

    aptos-sdk's ``BoolTag``/``U8Tag``/``U64Tag``/... carry a *value* and serialize it after
    the variant index (``TypeTag(U64Tag(0))`` gives ``02`` + 8 zero bytes), so they cannot
    encode a type.  A primitive TypeTag is the bare ULEB128 variant index: aptos-sdk's
    ``TypeTag.serialize`` writes that index from ``variant()`` and this stand-in adds nothing.
    """

    def __init__(self, variant: int) -> None:
        self._variant = variant

    def variant(self) -> int:
        return self._variant

    def serialize(self, serializer: Serializer) -> None:
        del serializer  # nothing follows the variant index


class _VectorTag:
    """``vector<T>``: aptos-sdk has no vector TypeTag.  Composed as variant 6 (written by
    aptos-sdk's ``TypeTag.serialize``) followed by the element's TypeTag."""

    def __init__(self, element: TypeTag) -> None:
        self.element = element

    def variant(self) -> int:
        return TypeTag.VECTOR

    def serialize(self, serializer: Serializer) -> None:
        serializer.struct(self.element)


def type_tag(move_type: MoveType) -> TypeTag:
    """An aptos-sdk ``TypeTag`` for a MoveType (structs use aptos-sdk's ``StructTag``)."""
    if move_type.kind == "vector":
        return TypeTag(_VectorTag(type_tag(move_type.args[0])))
    if move_type.kind == "struct":
        return TypeTag(
            StructTag(
                AccountAddress.from_str_relaxed(move_type.address),
                move_type.module,
                move_type.name,
                [type_tag(a) for a in move_type.args],
            )
        )
    if move_type.kind == "param":
        raise ValueError(f"unsubstituted type parameter {move_type.name}")
    return TypeTag(_VariantOnlyTag(PRIMITIVE_VARIANTS[move_type.kind]))


def _struct_only(move_type: MoveType) -> bool:
    return move_type.kind == "struct" and all(_struct_only(a) for a in move_type.args)


# --------------------------------------------------------------------------------------
# Move values in the REST API's JSON form -> BCS, written with aptos-sdk's Serializer.
# --------------------------------------------------------------------------------------

STRING = "0x1::string::String"
OPTION = "0x1::option::Option"
OBJECT = "0x1::object::Object"


def encode_value(ser: Serializer, move_type: MoveType, value: Any, layouts: Layouts) -> None:
    kind = move_type.kind
    if kind == "bool":
        if not isinstance(value, bool):
            raise TypeError(f"bool wants a JSON bool, got {value!r}")
        ser.bool(value)
    elif kind in ("u8", "u16", "u32"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{kind} wants a JSON number, got {value!r}")
        getattr(ser, kind)(value)
    elif kind in ("u64", "u128", "u256"):
        if not isinstance(value, str) or not value.isdigit():
            raise TypeError(f"{kind} wants a decimal string, got {value!r}")
        getattr(ser, kind)(int(value))
    elif kind == "address":
        ser.struct(AccountAddress.from_str_relaxed(value))
    elif kind == "vector":
        element = move_type.args[0]
        if element.kind == "u8":
            ser.to_bytes(unhex(value))  # vector<u8> is a 0x hex string in the API
        else:
            ser.sequence(value, lambda s, item: encode_value(s, element, item, layouts))
    elif kind == "struct":
        base = move_type.base
        if base == STRING:
            ser.str(value)  # the one struct whose JSON form is a plain string
        elif base == OPTION:
            # Option<T> is the ordinary struct {vec: vector<T>} with 0 or 1 elements.  aptos-sdk
            # has no Option: encoded as that field with aptos-sdk's Serializer (same bytes as
            # the BCS option tag 00 / 01 + value).
            if list(value) != ["vec"] or len(value["vec"]) > 1:
                raise ValueError(f"bad Option value {value!r}")
            encode_value(ser, MoveType("vector", move_type.args), value["vec"], layouts)
        elif base == OBJECT:
            # Object<T> is the ordinary struct {inner: address}: 32 bytes.
            if list(value) != ["inner"]:
                raise ValueError(f"bad Object value {value!r}")
            ser.struct(AccountAddress.from_str_relaxed(value["inner"]))
        else:
            # Any other struct: aptos-sdk has no generic Move struct, so its fields are
            # written one after another in layout order with aptos-sdk's Serializer.
            fields = layouts[base]
            if list(value) != [field for field, _ in fields]:
                raise ValueError(f"{base} wants fields {fields}, got {list(value)}")
            for field, field_type in fields:
                concrete = substitute(parse_type(field_type), move_type.args)
                encode_value(ser, concrete, value[field], layouts)
    else:
        raise TypeError(f"cannot encode a value of type {move_type}")


def value_bcs(type_text: str, value: Any, layouts: Layouts | None = None) -> bytes:
    move_type = parse_type(type_text)
    argument = TransactionArgument(
        value, lambda ser, v: encode_value(ser, move_type, v, layouts or {})
    )
    return argument.encode()


# --------------------------------------------------------------------------------------
# integers.json
# --------------------------------------------------------------------------------------


def build_integers() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []
    for type_name, bits in (
        ("u8", 8),
        ("u16", 16),
        ("u32", 32),
        ("u64", 64),
        ("u128", 128),
        ("u256", 256),
    ):
        top = 2**bits - 1
        labelled = [
            ("zero", 0),
            ("one", 1),
            (f"2pow{bits - 1}", 2 ** (bits - 1)),
            ("max_minus_1", top - 1),
            ("max", top),
        ]
        if bits >= 64:
            labelled += [("2pow53_plus_1", 2**53 + 1), ("2pow64_minus_1", 2**64 - 1)]
        seen: set[int] = set()
        for label, value in sorted(labelled, key=lambda item: item[1]):
            if value in seen:
                continue
            seen.add(value)
            cases.append(
                {
                    "name": f"{type_name}_{label}",
                    "type": type_name,
                    "value": str(value),
                    "bcs": hx(encoder(value, getattr(Serializer, type_name))),
                }
            )
    for value in (
        0,
        1,
        127,
        128,
        255,
        16383,
        16384,
        2**21 - 1,
        2**21,
        2**28 - 1,
        2**28,
        2**31,
        2**32 - 1,
    ):
        cases.append(
            {
                "name": f"uleb128_{value}",
                "type": "uleb128",
                "value": str(value),
                "bcs": hx(encoder(value, Serializer.uleb128)),
            }
        )
    return document(
        "Fixed-width little-endian unsigned integers and ULEB128 (the BCS length/variant "
        "prefix). 'value' is a decimal string for every type. aptos-sdk's Serializer.uleb128 "
        "refuses values above 2^32-1, so that is the largest ULEB128 case.",
        cases,
    )


# --------------------------------------------------------------------------------------
# primitives.json
# --------------------------------------------------------------------------------------


def _pattern(length: int) -> bytes:
    return bytes((7 * i + 3) % 256 for i in range(length))


def _option_u64(ser: Serializer, value: int | None) -> None:
    # aptos-sdk's Serializer has no option method.  A BCS Option is a 0/1 tag byte followed by
    # the value, which is byte-for-byte a sequence of 0 or 1 elements (Move's Option is
    # vector-backed), so it is written with Serializer.sequence.
    ser.sequence([] if value is None else [value], Serializer.u64)


def build_primitives() -> dict[str, Any]:
    cases: list[dict[str, Any]] = []

    def add(name: str, kind: str, value: Any, bcs: bytes) -> None:
        cases.append({"name": name, "kind": kind, "value": value, "bcs": hx(bcs)})

    for flag in (False, True):
        add(f"bool_{str(flag).lower()}", "bool", flag, encoder(flag, Serializer.bool))
    for length in (0, 1, 127, 128, 300):
        data = _pattern(length)
        add(f"bytes_len_{length}", "bytes", hx(data), encoder(data, Serializer.to_bytes))
    for length in (1, 4, 32):
        data = _pattern(length)
        add(
            f"fixed_bytes_len_{length}",
            "fixed_bytes",
            hx(data),
            encoder(data, Serializer.fixed_bytes),
        )
    for name, text in (
        ("str_empty", ""),
        ("str_ascii", "ledgerkit"),
        ("str_unicode", "h\u00e9llo \u2713 \U0001d518"),
        ("str_64_chars_128_bytes", "é" * 64),
        ("str_nul_and_newline", "a\u0000b\nc"),
    ):
        add(name, "str", text, encoder(text, Serializer.str))
    u64_seq = Serializer.sequence_serializer(Serializer.u64)
    for name, numbers in (
        ("sequence_u64_empty", []),
        ("sequence_u64_one", [1]),
        ("sequence_u64_several", [0, 1, 2**53 + 1, 2**63, 2**64 - 1]),
    ):
        add(name, "sequence_u64", [str(n) for n in numbers], encoder(numbers, u64_seq))
    for name, option in (
        ("option_u64_none", None),
        ("option_u64_some_zero", 0),
        ("option_u64_some_max", 2**64 - 1),
    ):
        add(
            name,
            "option_u64",
            None if option is None else str(option),
            encoder(option, _option_u64),
        )

    def str_u64_map(ser: Serializer, mapping: dict[str, int]) -> None:
        ser.map(mapping, Serializer.str, Serializer.u64)

    # Serializer.map sorts entries by the BCS bytes of the key (length prefix first), so
    # "b" (01 62) sorts before "aa" (02 61 61): not plain string order.
    for name, mapping in (
        ("map_str_u64_empty", {}),
        ("map_str_u64_one", {"key": 1}),
        ("map_str_u64_sorted_by_encoded_key", {"aa": 3, "b": 2, "": 0, "a": 1}),
        ("map_str_u64_long_key_prefix", {"k" * 129: 129, "k" * 128: 128, "z": 2**64 - 1}),
    ):
        add(
            name,
            "map_str_u64",
            {k: str(v) for k, v in mapping.items()},
            encoder(mapping, str_u64_map),
        )
    return document(
        "BCS primitives. kinds: bool (value JSON bool); bytes (value hex, BCS is ULEB128 "
        "length + bytes); fixed_bytes (value hex, BCS is the bytes alone); str (value a "
        "string, BCS is ULEB128 UTF-8 byte length + UTF-8); sequence_u64 (value list of "
        "decimal strings); option_u64 (value null or decimal string; BCS 00 or 01 + u64, "
        "composed from Serializer.sequence because aptos-sdk has no option); map_str_u64 "
        "(value object in insertion order with decimal-string values; BCS entries are sorted "
        "by the encoded key bytes, i.e. by length prefix first, as aptos-sdk's Serializer.map "
        "does).",
        cases,
    )


# --------------------------------------------------------------------------------------
# addresses.json
# --------------------------------------------------------------------------------------


def _strict_ok(text: str) -> bool:
    try:
        AccountAddress.from_str(text)
    except RuntimeError:
        return False
    return True


def build_addresses() -> dict[str, Any]:
    derived = AccountAddress.from_key(ed_key(1).public_key())
    inputs = [
        ("one_prefixed", "0x1"),
        ("one_bare", "1"),
        ("one_padded", "0x01"),
        ("ten_special", "0xa"),
        ("zero", "0x0"),
        ("one_long_with_leading_zeros", "0x" + "0" * 63 + "1"),
        ("uppercase_digits", "0xA550C18ABCDEF"),
        ("derived_full", long_address(derived)),
        ("derived_full_bare_uppercase", derived.address.hex().upper()),
        ("core_resources", "0xa550c18"),
        ("sixteen_not_special", "0x10"),
        ("sixty_three_digits", "0x" + ("0123456789abcdef" * 4)[1:]),
        ("all_ff", "0x" + "f" * 64),
    ]
    cases = []
    for name, text in inputs:
        address = AccountAddress.from_str_relaxed(text)
        cases.append(
            {
                "name": name,
                "input": text,
                "long": long_address(address),
                "short": short_address(address),
                "aip40": str(address),
                "strict_ok": _strict_ok(text),
                "bcs": hx(encoder(address, Serializer.struct)),
            }
        )
    return document(
        "AccountAddress.from_str_relaxed(input): 1 to 64 hex digits, optional lowercase "
        "'0x' prefix, left-padded with zeros to 32 bytes; hex digits may be upper case. "
        "'long' is 0x + 64 hex, 'short' trims leading zeros (0x0 for zero; the REST API "
        "output form). 'aip40' is aptos-sdk's str(): short only for 0x0..0xf, long otherwise. "
        "'strict_ok' says whether the strict AccountAddress.from_str accepts the input "
        "(needs '0x' and either 64 digits or exactly one digit 0-f). BCS is the 32 bytes.",
        cases,
    )


# --------------------------------------------------------------------------------------
# type_tags.json
# --------------------------------------------------------------------------------------

TYPE_TAG_CASES = [
    ("bool", "bool"),
    ("u8", "u8"),
    ("u16", "u16"),
    ("u32", "u32"),
    ("u64", "u64"),
    ("u128", "u128"),
    ("u256", "u256"),
    ("address", "address"),
    ("signer", "signer"),
    ("vector_u8", "vector<u8>"),
    ("vector_vector_u64", "vector<vector<u64>>"),
    ("vector_address", "vector<address>"),
    ("string", "0x1::string::String"),
    ("aptos_coin", "0x1::aptos_coin::AptosCoin"),
    ("coin_store", "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"),
    ("object_metadata", "0x1::object::Object<0x1::fungible_asset::Metadata>"),
    (
        "table_two_generic_params",
        "0x1::table::Table<0x1::string::String, vector<0x1::option::Option<u64>>>",
    ),
    ("struct_only_nested", "0x1::a::A<0x2::b::B<0x3::c::C>, 0x1::d::D>"),
    (
        "non_special_address",
        "0xcafe::pool::LiquidityPool<0x1::aptos_coin::AptosCoin, 0xcafe::usd::USD>",
    ),
    ("vector_of_option_string", "vector<0x1::option::Option<0x1::string::String>>"),
    (
        "deeply_nested",
        "0x1::option::Option<vector<0x1::table::Table<address, vector<vector<"
        "0x1::coin::CoinStore<0x42::demo::Pair<u8, 0x1::object::Object<"
        "0x1::fungible_asset::Metadata>>>>>>>>",
    ),
]


def build_type_tags() -> dict[str, Any]:
    cases = []
    for name, text in TYPE_TAG_CASES:
        move_type = parse_type(text)
        if str(move_type) != text:
            raise AssertionError(f"{text!r} is not canonical: {move_type}")
        bcs = type_tag(move_type).to_bytes()
        # aptos-sdk's own parser only handles structs all the way down; cross-check there.
        if _struct_only(move_type) and TypeTag(StructTag.from_str(text)).to_bytes() != bcs:
            raise AssertionError(f"StructTag.from_str disagrees for {text}")
        cases.append({"name": name, "type": text, "bcs": hx(bcs)})
    return document(
        "TypeTag BCS: ULEB128 variant (0 bool, 1 u8, 2 u64, 3 u128, 4 address, 5 signer, "
        "6 vector, 7 struct, 8 u16, 9 u32, 10 u256); vector is followed by the element tag; "
        "struct by address (32 bytes), module and name (BCS strings) and a ULEB128-counted "
        "list of type-argument tags. Structs use aptos-sdk's StructTag; primitive and vector "
        "tags are composed on aptos-sdk's TypeTag wrapper because its BoolTag/U8Tag/... "
        "classes serialize a value after the variant and StructTag.from_str parses only "
        "struct types.",
        cases,
    )


# --------------------------------------------------------------------------------------
# entry_functions.json
# --------------------------------------------------------------------------------------

POINT_LAYOUT: Layouts = {"0x42::demo::Point": [("x", "u64"), ("y", "u64")]}
POLYGON_LAYOUT: Layouts = {
    "0x42::demo::Polygon": [
        ("label", "0x1::string::String"),
        ("vertices", "vector<0x42::demo::Point>"),
        ("closed", "bool"),
    ],
    **POINT_LAYOUT,
}
PAIR_LAYOUT: Layouts = {"0x42::demo::Pair": [("first", "T0"), ("second", "T1")]}

ADDR_BOB = "0xb0b"
ADDR_FULL = "0x" + hashlib.sha3_256(b"ledgerkit golden vectors").hexdigest()


class EntryCall(NamedTuple):
    name: str
    function: str
    type_arguments: list[str]
    arguments: list[tuple[str, Any]]
    layouts: Layouts

    def entry_function(self) -> EntryFunction:
        address, module, function = self.function.split("::")
        # ModuleId.from_str (and so EntryFunction.natural) uses the strict address parser,
        # which rejects a short non-special address such as 0x42; build the ModuleId directly.
        module_id = ModuleId(AccountAddress.from_str_relaxed(address), module)
        return EntryFunction(
            module_id,
            function,
            [type_tag(parse_type(t)) for t in self.type_arguments],
            [value_bcs(t, v, self.layouts) for t, v in self.arguments],
        )

    def arguments_json(self) -> list[dict[str, Any]]:
        return [
            {"type": t, "value": v, "bcs": hx(value_bcs(t, v, self.layouts))}
            for t, v in self.arguments
        ]


ENTRY_CALLS = [
    EntryCall(
        "aptos_account_transfer",
        "0x1::aptos_account::transfer",
        [],
        [("address", ADDR_BOB), ("u64", "100000000")],
        {},
    ),
    EntryCall(
        "coin_transfer_with_type_argument",
        "0x1::coin::transfer",
        ["0x1::aptos_coin::AptosCoin"],
        [("address", ADDR_FULL), ("u64", "1")],
        {},
    ),
    EntryCall(
        "primitives_at_max",
        "0x42::demo::all_max",
        [],
        [
            ("bool", True),
            ("u8", 2**8 - 1),
            ("u16", 2**16 - 1),
            ("u32", 2**32 - 1),
            ("u64", str(2**64 - 1)),
            ("u128", str(2**128 - 1)),
            ("u256", str(2**256 - 1)),
            ("address", "0x" + "f" * 64),
        ],
        {},
    ),
    EntryCall(
        "primitives_at_zero",
        "0x42::demo::all_zero",
        [],
        [
            ("bool", False),
            ("u8", 0),
            ("u16", 0),
            ("u32", 0),
            ("u64", "0"),
            ("u128", "0"),
            ("u256", "0"),
            ("address", "0x0"),
        ],
        {},
    ),
    EntryCall(
        "vector_u8",
        "0x42::demo::bytes",
        [],
        [("vector<u8>", "0xdeadbeef"), ("vector<u8>", "0x"), ("vector<u8>", hx(_pattern(200)))],
        {},
    ),
    EntryCall(
        "vector_vector_u8",
        "0x42::demo::chunks",
        [],
        [("vector<vector<u8>>", ["0x", "0x00", "0x0102ff"])],
        {},
    ),
    EntryCall(
        "vector_vector_u64",
        "0x42::demo::matrix",
        [],
        [("vector<vector<u64>>", [[], ["1", "2"], [str(2**64 - 1)]])],
        {},
    ),
    EntryCall(
        "vector_address",
        "0x1::aptos_account::batch_transfer",
        [],
        [("vector<address>", ["0x1", ADDR_BOB, ADDR_FULL]), ("vector<u64>", ["1", "2", "3"])],
        {},
    ),
    EntryCall(
        "vector_of_small_ints_and_bool",
        "0x42::demo::small",
        [],
        [
            ("vector<u16>", [0, 65535]),
            ("vector<u32>", [1, 4294967295]),
            ("vector<bool>", [True, False]),
        ],
        {},
    ),
    EntryCall(
        "string_and_vector_string",
        "0x42::demo::names",
        [],
        [
            ("0x1::string::String", "h\u00e9llo \u2713 \U0001d518"),
            ("vector<0x1::string::String>", ["", "a", "ledgerkit"]),
        ],
        {},
    ),
    EntryCall(
        "option_u64_some",
        "0x42::demo::maybe",
        [],
        [("0x1::option::Option<u64>", {"vec": ["42"]})],
        {},
    ),
    EntryCall(
        "option_u64_none",
        "0x42::demo::maybe",
        [],
        [("0x1::option::Option<u64>", {"vec": []})],
        {},
    ),
    EntryCall(
        "option_string",
        "0x42::demo::maybe_name",
        [],
        [
            ("0x1::option::Option<0x1::string::String>", {"vec": ["ledgerkit"]}),
            ("0x1::option::Option<0x1::string::String>", {"vec": []}),
        ],
        {},
    ),
    EntryCall(
        "object_argument",
        "0x1::primary_fungible_store::transfer",
        ["0x1::fungible_asset::Metadata"],
        [
            ("0x1::object::Object<0x1::fungible_asset::Metadata>", {"inner": "0xa"}),
            ("address", ADDR_BOB),
            ("u64", "250"),
        ],
        {},
    ),
    EntryCall(
        "user_struct_point",
        "0x42::demo::move_to",
        [],
        [("0x42::demo::Point", {"x": "3", "y": "18446744073709551615"})],
        POINT_LAYOUT,
    ),
    EntryCall(
        "struct_with_vector_of_structs_and_string",
        "0x42::demo::draw",
        [],
        [
            (
                "0x42::demo::Polygon",
                {
                    "label": "triangle △",
                    "vertices": [{"x": "0", "y": "0"}, {"x": "4", "y": "0"}, {"x": "0", "y": "3"}],
                    "closed": True,
                },
            )
        ],
        POLYGON_LAYOUT,
    ),
    EntryCall(
        "option_of_struct",
        "0x42::demo::maybe_point",
        [],
        [("0x1::option::Option<0x42::demo::Point>", {"vec": [{"x": "1", "y": "2"}]})],
        POINT_LAYOUT,
    ),
    EntryCall(
        "generic_struct_pair",
        "0x42::demo::pair",
        ["u8", "0x1::string::String"],
        [("0x42::demo::Pair<u8, 0x1::string::String>", {"first": 7, "second": "seven"})],
        PAIR_LAYOUT,
    ),
    EntryCall(
        "vector_of_generic_structs",
        "0x42::demo::pairs",
        ["u64", "vector<u8>"],
        [
            (
                "vector<0x42::demo::Pair<u64, vector<u8>>>",
                [{"first": "1", "second": "0x01"}, {"first": "2", "second": "0x"}],
            )
        ],
        PAIR_LAYOUT,
    ),
]


def entry_payload_json(call: EntryCall) -> dict[str, Any]:
    return {
        "type": "entry_function_payload",
        "function": call.function,
        "type_arguments": call.type_arguments,
        "arguments": call.arguments_json(),
    }


def build_entry_functions() -> dict[str, Any]:
    cases = []
    for call in ENTRY_CALLS:
        for text in [*call.type_arguments, *(t for t, _ in call.arguments)]:
            if str(parse_type(text)) != text:
                raise AssertionError(f"{text!r} is not canonical")
        cases.append(
            {
                "name": call.name,
                "function": call.function,
                "type_arguments": call.type_arguments,
                "arguments": call.arguments_json(),
                "layouts": {
                    tag: [[field, field_type] for field, field_type in fields]
                    for tag, fields in call.layouts.items()
                },
                "bcs": hx(encoder(call.entry_function(), Serializer.struct)),
            }
        )
    return document(
        "EntryFunction BCS: ModuleId (address 32 bytes, module name), function name, "
        "ULEB128-counted TypeTags, then a ULEB128-counted list of arguments, each argument's "
        "own BCS prefixed with its ULEB128 length. 'arguments[].value' is the REST API JSON "
        "form: bool -> JSON bool; u8/u16/u32 -> numbers; u64/u128/u256 -> decimal strings; "
        "address -> 0x hex (short form allowed); vector<u8> -> 0x hex string; other vectors "
        "-> arrays; 0x1::string::String -> plain string; 0x1::option::Option<T> -> "
        '{"vec": [] or [v]} (the struct {vec: vector<T>}, so BCS is a 0- or 1-element '
        'vector); 0x1::object::Object<T> -> {"inner": "0x..."} (BCS: 32-byte address); any '
        "other struct -> object of its fields in layout order (BCS: the fields concatenated). "
        "'layouts' maps a generic-free struct tag (e.g. 0x42::demo::Pair) to [field, MoveType] "
        "pairs where T0, T1, ... stand for the struct's type parameters. 'arguments[].bcs' is "
        "the argument's own BCS without the outer length prefix; 'bcs' is the whole "
        "EntryFunction (not wrapped in a TransactionPayload). aptos-sdk builds the "
        "EntryFunction, ModuleId, StructTag and TransactionArgument; values and non-struct "
        "TypeTags are composed from its Serializer.",
        cases,
    )


# --------------------------------------------------------------------------------------
# transactions.json
# --------------------------------------------------------------------------------------

TRANSACTION_PREFIX = hashlib.sha3_256(b"APTOS::Transaction").digest()


def ed_key(seed: int) -> ed25519.PrivateKey:
    return ed25519.PrivateKey.from_hex(bytes([seed]) * 32)


def k1_key(seed: int) -> secp256k1_ecdsa.PrivateKey:
    return secp256k1_ecdsa.PrivateKey.from_hex(bytes([seed]) * 32)


AnyKey = ed25519.PrivateKey | secp256k1_ecdsa.PrivateKey


def _scheme(key: AnyKey) -> str:
    return "ed25519" if isinstance(key, ed25519.PrivateKey) else "secp256k1_ecdsa"


def _private_bytes(key: AnyKey) -> bytes:
    return unhex(key.hex())


def _public_bytes(key: AnyKey) -> bytes:
    # Raw key bytes without BCS framing: 32 bytes for Ed25519, 65 bytes 04 || X || Y for
    # secp256k1 (aptos-sdk's to_crypto_bytes()).
    return key.public_key().to_crypto_bytes()


def _sign(key: AnyKey, message: bytes) -> Any:
    signature = key.sign(message)
    if isinstance(key, secp256k1_ecdsa.PrivateKey) and key.sign(message) != signature:
        raise AssertionError("secp256k1 signing is not deterministic")
    return signature


class _MultisigPayload:
    """TransactionPayload variant 3, Multisig.  aptos-sdk 0.11.0's TransactionPayload knows
    only Script (0), ModuleBundle (1) and EntryFunction (2), so this is composed with its
    Serializer: ULEB128 3 · multisig_address (32 bytes) · Option<MultisigTransactionPayload>
    (tag byte 00/01) whose variant 0 is EntryFunction (serialized by aptos-sdk).
    RawTransaction only calls ``payload.serialize``, so it accepts this object."""

    def __init__(self, multisig_address: AccountAddress, entry: EntryFunction | None) -> None:
        self.multisig_address = multisig_address
        self.entry = entry

    def serialize(self, serializer: Serializer) -> None:
        serializer.uleb128(3)
        serializer.struct(self.multisig_address)
        if self.entry is None:
            serializer.u8(0)
        else:
            serializer.u8(1)
            serializer.uleb128(0)  # MultisigTransactionPayload::EntryFunction
            serializer.struct(self.entry)


def _script_argument(variant: int, value: Any) -> ScriptArgument:
    # ScriptArgument.__init__ in aptos-sdk 0.11.0 rejects variants above 5 (U16, U32, U256)
    # although its serialize() handles them; set the fields after construction so that
    # aptos-sdk's own serialize() writes the bytes.
    argument = ScriptArgument(ScriptArgument.U8, 0)
    argument.variant = variant
    argument.value = value
    return argument


SCRIPT_ARGUMENT_TAGS = {
    "u8": ScriptArgument.U8,
    "u64": ScriptArgument.U64,
    "u128": ScriptArgument.U128,
    "address": ScriptArgument.ADDRESS,
    "u8_vector": ScriptArgument.U8_VECTOR,
    "bool": ScriptArgument.BOOL,
    "u16": ScriptArgument.U16,
    "u32": ScriptArgument.U32,
    "u256": ScriptArgument.U256,
}


def _script_value(tag: str, value: Any) -> Any:
    if tag in ("u64", "u128", "u256"):
        return int(value)
    if tag == "address":
        return AccountAddress.from_str_relaxed(value)
    if tag == "u8_vector":
        return unhex(value)
    return value


class Payload(NamedTuple):
    json: dict[str, Any]
    sdk: Any  # an aptos-sdk TransactionPayload or _MultisigPayload


def entry_payload(call: EntryCall) -> Payload:
    sdk = TransactionPayload(call.entry_function())
    return Payload({**entry_payload_json(call), "bcs": hx(encoder(sdk, Serializer.struct))}, sdk)


def script_payload(
    code: bytes, type_arguments: list[str], arguments: list[tuple[str, Any]]
) -> Payload:
    script_arguments = [
        _script_argument(SCRIPT_ARGUMENT_TAGS[t], _script_value(t, v)) for t, v in arguments
    ]
    script = Script(code, [type_tag(parse_type(t)) for t in type_arguments], script_arguments)
    sdk = TransactionPayload(script)
    body = {
        "type": "script_payload",
        "code": hx(code),
        "type_arguments": type_arguments,
        "arguments": [
            {"tag": t, "value": v, "bcs": hx(encoder(a, Serializer.struct))}
            for (t, v), a in zip(arguments, script_arguments, strict=True)
        ],
        "bcs": hx(encoder(sdk, Serializer.struct)),
    }
    return Payload(body, sdk)


def multisig_payload(multisig_address: str, call: EntryCall | None) -> Payload:
    address = AccountAddress.from_str_relaxed(multisig_address)
    sdk = _MultisigPayload(address, None if call is None else call.entry_function())
    inner = None if call is None else entry_payload_json(call)
    body = {
        "type": "multisig_payload",
        "multisig_address": long_address(address),
        "transaction_payload": inner,
        "bcs": hx(encoder(sdk, Serializer.struct)),
    }
    return Payload(body, sdk)


class Raw(NamedTuple):
    sequence_number: int = 0
    max_gas_amount: int = 200_000
    gas_unit_price: int = 100
    expiration_timestamp_secs: int = 1_767_225_600
    chain_id: int = 4

    def build(
        self, sender: AccountAddress, payload: Payload
    ) -> tuple[RawTransaction, dict[str, Any]]:
        raw = RawTransaction(
            sender,
            self.sequence_number,
            payload.sdk,
            self.max_gas_amount,
            self.gas_unit_price,
            self.expiration_timestamp_secs,
            self.chain_id,
        )
        body = {
            "sender": long_address(sender),
            "sequence_number": str(self.sequence_number),
            "max_gas_amount": str(self.max_gas_amount),
            "gas_unit_price": str(self.gas_unit_price),
            "expiration_timestamp_secs": str(self.expiration_timestamp_secs),
            "chain_id": self.chain_id,
            "payload": payload.json,
        }
        return raw, body


def single_address(key: AnyKey, *, single_key: bool) -> AccountAddress:
    public_key = key.public_key()
    if single_key:
        return AccountAddress.from_key(asymmetric_crypto_wrapper.PublicKey(public_key))
    return AccountAddress.from_key(public_key)


class Party:
    """One account that signs: its address, the AccountAuthenticator it yields, and JSON."""

    address: AccountAddress

    def sign(self, message: bytes) -> tuple[AccountAuthenticator, dict[str, Any]]:
        raise NotImplementedError


class SingleParty(Party):
    """An Ed25519 account (legacy Ed25519 authenticator) or a SingleKey account."""

    def __init__(self, key: AnyKey, *, single_key: bool) -> None:
        if isinstance(key, secp256k1_ecdsa.PrivateKey) and not single_key:
            raise ValueError("secp256k1 accounts always use SingleKey")
        self.key = key
        self.single_key = single_key
        self.address = single_address(key, single_key=single_key)

    def sign(self, message: bytes) -> tuple[AccountAuthenticator, dict[str, Any]]:
        signature = _sign(self.key, message)
        if not self.key.public_key().verify(message, signature):
            raise AssertionError("signature does not verify")
        if self.single_key:
            authenticator = AccountAuthenticator(
                SingleKeyAuthenticator(self.key.public_key(), signature)
            )
        else:
            # the same authenticator aptos-sdk's RawTransactionInternal.sign builds for Ed25519
            authenticator = AccountAuthenticator(
                Ed25519Authenticator(self.key.public_key(), signature)
            )
        body: dict[str, Any] = {
            "scheme": _scheme(self.key),
            "account_authenticator": "single_key" if self.single_key else "ed25519",
            "private_key": hx(_private_bytes(self.key)),
            "public_key": hx(_public_bytes(self.key)),
            "address": long_address(self.address),
            "signature": hx(signature.data()),
        }
        if isinstance(self.key, secp256k1_ecdsa.PrivateKey):
            body["deterministic"] = True
        return authenticator, body


class MultiEd25519Party(Party):
    def __init__(self, keys: list[ed25519.PrivateKey], threshold: int, signers: list[int]) -> None:
        self.keys = keys
        self.signers = signers
        self.public_key = ed25519.MultiPublicKey([k.public_key() for k in keys], threshold)
        self.threshold = threshold
        self.address = AccountAddress.from_key(self.public_key)

    def multi_signature(self, message: bytes) -> ed25519.MultiSignature:
        return ed25519.MultiSignature([(i, _sign(self.keys[i], message)) for i in self.signers])

    def sign(self, message: bytes) -> tuple[AccountAuthenticator, dict[str, Any]]:
        signature = self.multi_signature(message)
        if not self.public_key.verify(message, signature):
            raise AssertionError("multi-ed25519 signature does not verify")
        authenticator = AccountAuthenticator(MultiEd25519Authenticator(self.public_key, signature))
        # ed25519.MultiSignature serializes as BCS bytes of (signatures || 4-byte bitmap);
        # the raw signature is those bytes without the ULEB128 length.
        raw_signature = Deserializer(encoder(signature, Serializer.struct)).to_bytes()
        body = {
            "scheme": "multi_ed25519",
            "account_authenticator": "multi_ed25519",
            "threshold": self.threshold,
            "signer_indices": self.signers,
            "private_key": [hx(_private_bytes(k)) for k in self.keys],
            "public_keys": [hx(_public_bytes(k)) for k in self.keys],
            "public_key": hx(self.public_key.to_crypto_bytes()),
            "address": long_address(self.address),
            "signatures": [hx(sig.data()) for _, sig in signature.signatures],
            "bitmap": hx(raw_signature[-4:]),
            "signature": hx(raw_signature),
        }
        return authenticator, body


class MultiKeyParty(Party):
    def __init__(self, keys: list[AnyKey], threshold: int, signers: list[int]) -> None:
        self.keys = keys
        self.signers = signers
        self.threshold = threshold
        self.public_key = asymmetric_crypto_wrapper.MultiPublicKey(
            [k.public_key() for k in keys], threshold
        )
        self.address = AccountAddress.from_key(self.public_key)

    def sign(self, message: bytes) -> tuple[AccountAuthenticator, dict[str, Any]]:
        signatures = [(i, _sign(self.keys[i], message)) for i in self.signers]
        multi_signature = asymmetric_crypto_wrapper.MultiSignature(signatures)
        if not self.public_key.verify(message, multi_signature):
            raise AssertionError("multi-key signature does not verify")
        authenticator = AccountAuthenticator(
            MultiKeyAuthenticator(self.public_key, multi_signature)
        )
        bitmap = asymmetric_crypto_wrapper.index_to_bitmap_value
        mask = 0
        for i in self.signers:
            mask |= bitmap(i)
        body = {
            "scheme": "multi_key",
            "account_authenticator": "multi_key",
            "threshold": self.threshold,
            "signer_indices": self.signers,
            "key_schemes": [_scheme(k) for k in self.keys],
            "private_key": [hx(_private_bytes(k)) for k in self.keys],
            "public_keys": [hx(_public_bytes(k)) for k in self.keys],
            "public_key": hx(self.public_key.to_crypto_bytes()),
            "address": long_address(self.address),
            "signatures": [hx(sig.data()) for _, sig in signatures],
            "bitmap": hx(mask.to_bytes(1 if mask < 256 else 2, "little")),
            "signature": hx(encoder(multi_signature, Serializer.struct)),
        }
        return authenticator, body


def _transaction_authenticator(authenticator: AccountAuthenticator) -> Authenticator:
    # SignedTransaction(raw, AccountAuthenticator) in aptos-sdk 0.11.0 compares the object
    # (not its variant) with MULTI_ED25519 and would wrap a MultiEd25519 account in
    # SingleSender; build the TransactionAuthenticator explicitly instead.
    if authenticator.variant in (AccountAuthenticator.ED25519, AccountAuthenticator.MULTI_ED25519):
        return Authenticator(authenticator.authenticator)
    return Authenticator(SingleSenderAuthenticator(authenticator))


class TxnSpec(NamedTuple):
    name: str
    kind: str
    sender: Party
    payload: Payload
    raw: Raw
    secondaries: list[Party] | None = None  # multi-agent / fee-payer secondary signers
    fee_payer: Party | None = None


def build_transaction(spec: TxnSpec) -> dict[str, Any]:
    raw, raw_json = spec.raw.build(spec.sender.address, spec.payload)
    secondaries = spec.secondaries or []
    secondary_addresses = [p.address for p in secondaries]
    if spec.fee_payer is not None:
        with_data: Any = FeePayerRawTransaction(raw, secondary_addresses, spec.fee_payer.address)
    elif spec.secondaries is not None:
        with_data = MultiAgentRawTransaction(raw, secondary_addresses)
    else:
        with_data = None
    message = raw.keyed() if with_data is None else with_data.keyed()

    signers: dict[str, Any] = {}
    sender_auth, signers["sender"] = spec.sender.sign(message)
    secondary_auths = []
    for index, party in enumerate(secondaries):
        auth, signers[f"secondary_{index}"] = party.sign(message)
        secondary_auths.append((party.address, auth))
    if spec.fee_payer is not None:
        fee_auth, signers["fee_payer"] = spec.fee_payer.sign(message)
        authenticator = Authenticator(
            FeePayerAuthenticator(sender_auth, secondary_auths, (spec.fee_payer.address, fee_auth))
        )
    elif spec.secondaries is not None:
        authenticator = Authenticator(MultiAgentAuthenticator(sender_auth, secondary_auths))
    else:
        authenticator = _transaction_authenticator(sender_auth)

    signed = SignedTransaction(raw, authenticator)
    raw_bcs = encoder(raw, Serializer.struct)
    authenticator_bcs = encoder(authenticator, Serializer.struct)
    signed_bcs = signed.bytes()
    if signed_bcs != raw_bcs + authenticator_bcs:
        raise AssertionError("SignedTransaction is not raw || authenticator")
    # Every party checks its own signature above.  SignedTransaction.verify() can only be
    # used when every account is a legacy Ed25519 one: aptos-sdk 0.11.0's
    # MultiEd25519Authenticator.verify raises NotImplementedError and its
    # SingleKeyAuthenticator.verify unwraps the signature twice and always returns False.
    parties = [spec.sender, *secondaries, *([spec.fee_payer] if spec.fee_payer else [])]
    legacy = all(isinstance(p, SingleParty) and not p.single_key for p in parties)
    if legacy and not signed.verify():
        raise AssertionError(f"{spec.name}: aptos-sdk cannot verify its own signature")
    # aptos-sdk 0.11.0 has no SignedTransaction hash: SHA3-256 of the
    # SHA3-256(b"APTOS::Transaction") prefix, 0x00 (UserTransaction) and the signed BCS.
    txn_hash = hashlib.sha3_256(TRANSACTION_PREFIX + b"\x00" + signed_bcs).digest()

    return {
        "name": spec.name,
        "kind": spec.kind,
        "raw": raw_json,
        "signers": signers,
        "secondary_signer_addresses": [long_address(a) for a in secondary_addresses],
        "fee_payer_address": None
        if spec.fee_payer is None
        else long_address(spec.fee_payer.address),
        "raw_bcs": hx(raw_bcs),
        "raw_with_data_bcs": None
        if with_data is None
        else hx(encoder(with_data, Serializer.struct)),
        "signing_message": hx(message),
        "authenticator_bcs": hx(authenticator_bcs),
        "signed_bcs": hx(signed_bcs),
        "hash": hx(txn_hash),
    }


def transaction_specs() -> list[TxnSpec]:
    calls = {call.name: call for call in ENTRY_CALLS}
    transfer = entry_payload(calls["aptos_account_transfer"])
    coin = entry_payload(calls["coin_transfer_with_type_argument"])
    alice = SingleParty(ed_key(1), single_key=False)
    bob = SingleParty(ed_key(2), single_key=False)
    carol = SingleParty(ed_key(3), single_key=False)
    sponsor = SingleParty(ed_key(4), single_key=False)
    dave_k1 = SingleParty(k1_key(0x21), single_key=True)
    erin_single_ed = SingleParty(ed_key(5), single_key=True)
    multi_ed = MultiEd25519Party([ed_key(6), ed_key(7), ed_key(8)], 2, [0, 2])
    multi_key = MultiKeyParty([ed_key(9), k1_key(0x22), ed_key(10)], 2, [0, 1])
    wide_multi_key = MultiKeyParty(
        [ed_key(11 + i) if i % 3 else k1_key(0x23 + i) for i in range(10)], 2, [1, 9]
    )
    code = bytes.fromhex("a11ceb0b0600000001000203") + _pattern(20)
    script = script_payload(
        code,
        ["0x1::aptos_coin::AptosCoin", "u64"],
        [
            ("u8", 255),
            ("u16", 65535),
            ("u32", 4294967295),
            ("u64", str(2**64 - 1)),
            ("u128", str(2**128 - 1)),
            ("u256", str(2**256 - 1)),
            ("address", ADDR_BOB),
            ("u8_vector", "0x00ff10"),
            ("bool", True),
        ],
    )
    multisig_account = AccountAddress.for_resource_account(alice.address, b"multisig")
    return [
        TxnSpec("ed25519_transfer", "ed25519", alice, transfer, Raw(sequence_number=7)),
        TxnSpec(
            "ed25519_coin_transfer_chain_1",
            "ed25519",
            alice,
            coin,
            Raw(sequence_number=2**32, max_gas_amount=1500, gas_unit_price=150, chain_id=1),
        ),
        TxnSpec(
            "ed25519_struct_arguments",
            "ed25519",
            bob,
            entry_payload(calls["struct_with_vector_of_structs_and_string"]),
            Raw(sequence_number=1),
        ),
        TxnSpec(
            "multi_ed25519_2_of_3", "multi_ed25519", multi_ed, transfer, Raw(sequence_number=3)
        ),
        TxnSpec(
            "multi_agent_one_secondary",
            "multi_agent",
            alice,
            entry_payload(calls["user_struct_point"]),
            Raw(sequence_number=8),
            secondaries=[bob],
        ),
        TxnSpec(
            "multi_agent_two_secondaries_mixed",
            "multi_agent",
            alice,
            entry_payload(calls["generic_struct_pair"]),
            Raw(sequence_number=9),
            secondaries=[dave_k1, carol],
        ),
        TxnSpec(
            "fee_payer_no_secondary",
            "fee_payer",
            carol,
            transfer,
            Raw(sequence_number=0, gas_unit_price=101),
            secondaries=[],
            fee_payer=sponsor,
        ),
        TxnSpec(
            "fee_payer_with_secondary",
            "fee_payer",
            alice,
            entry_payload(calls["object_argument"]),
            Raw(sequence_number=10),
            secondaries=[bob],
            fee_payer=dave_k1,
        ),
        TxnSpec(
            "single_sender_single_key_ed25519",
            "single_sender_single_key_ed25519",
            erin_single_ed,
            transfer,
            Raw(sequence_number=4),
        ),
        TxnSpec(
            "single_sender_single_key_secp256k1",
            "single_sender_single_key_secp256k1",
            dave_k1,
            coin,
            Raw(sequence_number=5),
        ),
        TxnSpec(
            "single_sender_multi_key_2_of_3",
            "single_sender_multi_key",
            multi_key,
            transfer,
            Raw(sequence_number=6),
        ),
        TxnSpec(
            "single_sender_multi_key_2_of_10_wide_bitmap",
            "single_sender_multi_key",
            wide_multi_key,
            transfer,
            Raw(sequence_number=11),
        ),
        TxnSpec("script_payload_ed25519", "script", alice, script, Raw(sequence_number=12)),
        TxnSpec(
            "multisig_payload_ed25519",
            "multisig",
            alice,
            multisig_payload(long_address(multisig_account), calls["aptos_account_transfer"]),
            Raw(sequence_number=13),
        ),
        TxnSpec(
            "multisig_payload_without_inner_ed25519",
            "multisig",
            bob,
            multisig_payload(long_address(multisig_account), None),
            Raw(sequence_number=14),
        ),
    ]


def build_transactions() -> dict[str, Any]:
    return document(
        "Signed transactions. raw: RawTransaction fields (u64 as decimal strings, chain_id a "
        "number) and payload (entry_function_payload like entry_functions.json; "
        "script_payload with TransactionArgument tags u8 0, u64 1, u128 2, address 3, "
        "u8_vector 4, bool 5, u16 6, u32 7, u256 8; multisig_payload with an optional inner "
        "entry function). payload.bcs is the TransactionPayload BCS (variant 0 Script, 2 "
        "EntryFunction, 3 Multisig). raw_bcs = BCS(RawTransaction). signing_message is what "
        "every signer signs: SHA3-256(b'APTOS::RawTransaction') || raw_bcs for single-signer "
        "kinds, SHA3-256(b'APTOS::RawTransactionWithData') || raw_with_data_bcs for "
        "multi_agent (RawTransactionWithData variant 0: raw, secondary addresses) and "
        "fee_payer (variant 1: raw, secondary addresses, fee payer address). signers maps a "
        "role (sender, secondary_<i>, fee_payer) to scheme, account_authenticator "
        "(ed25519 | single_key | multi_ed25519 | multi_key), raw private/public key bytes "
        "(secp256k1 public keys are 65 bytes 04||X||Y), the derived account address and the "
        "raw signature. multi_ed25519: public_key = keys || threshold byte, signature = "
        "signatures || 4-byte bitmap (bit 31-i of a big-endian u32 marks key i). multi_key: "
        "public_key = BCS(MultiKey) = ULEB128 count, AnyPublicKey each (variant 0 Ed25519, 1 "
        "Secp256k1), threshold u8; signature = BCS(MultiSignature) = ULEB128 count, "
        "AnySignature each, then the bitmap as BCS bytes (byte i//8 has bit 0x80>>(i%8) for "
        "key i, aptos-sdk writes 1 byte unless a key index >= 8 is set, then 2). secp256k1 "
        "signatures are deterministic in aptos-sdk (RFC 6979 with SHA3-256 as the HMAC hash, "
        "then low-s normalised). authenticator_bcs = BCS(TransactionAuthenticator) (0 "
        "Ed25519, 1 MultiEd25519, 2 MultiAgent, 3 FeePayer, 4 SingleSender), signed_bcs = "
        "raw_bcs || authenticator_bcs, hash = SHA3-256(SHA3-256(b'APTOS::Transaction') || "
        "00 || signed_bcs). Private keys are bytes([n]) * 32.",
        [build_transaction(spec) for spec in transaction_specs()],
    )


# --------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------

BUILDERS: dict[str, Callable[[], dict[str, Any]]] = {
    "integers.json": build_integers,
    "primitives.json": build_primitives,
    "addresses.json": build_addresses,
    "type_tags.json": build_type_tags,
    "entry_functions.json": build_entry_functions,
    "transactions.json": build_transactions,
}


def build_all() -> dict[str, dict[str, Any]]:
    return {filename: builder() for filename, builder in BUILDERS.items()}


def render(doc: dict[str, Any]) -> str:
    """The exact text of a vector file: insertion order, indent=1, UTF-8, final newline."""
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    total = 0
    for filename, doc in build_all().items():
        (HERE / filename).write_text(render(doc), encoding="utf-8")
        total += len(doc["cases"])
        print(f"{filename}: {len(doc['cases'])} cases")
    print(f"total: {total} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
