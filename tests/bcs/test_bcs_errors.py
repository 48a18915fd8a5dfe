"""Bad bytes and bad values fail cleanly, with errors that say what and where.

Decoding raises :class:`BCSDecodeError` carrying the byte ``offset``; encoding raises
:class:`BCSEncodeError`; the Move value codec raises :class:`MoveValueError` naming the
place inside the value. All of them are :class:`ledgerkit.LedgerError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ledgerkit import LedgerError
from ledgerkit._errors import BCSDecodeError, BCSEncodeError, MoveValueError
from ledgerkit.bcs import (
    AnyPublicKey,
    AnySignature,
    Deserializer,
    DictLayouts,
    Ed25519Authenticator,
    EntryFunction,
    MoveValueCodec,
    MultiEd25519Authenticator,
    MultiKeyAuthenticator,
    RawTransaction,
    Script,
    ScriptArgument,
    Serializer,
    SignedTransaction,
    deserialize_account_authenticator,
    deserialize_payload,
    deserialize_transaction_authenticator,
    deserialize_type_tag,
    type_tag_bytes,
)
from ledgerkit.types import Address

VECTORS = Path(__file__).resolve().parent.parent / "vectors"


def _transactions() -> list[dict[str, Any]]:
    with (VECTORS / "transactions.json").open(encoding="utf-8") as handle:
        cases: list[dict[str, Any]] = json.load(handle)["cases"]
    return cases


TRANSACTIONS = _transactions()


def _signed(name: str = "ed25519_transfer") -> bytes:
    case = next(c for c in TRANSACTIONS if c["name"] == name)
    return bytes.fromhex(case["signed_bcs"][2:])


def _decode_error(read: Callable[[], object], *, offset: int | None = None) -> BCSDecodeError:
    with pytest.raises(BCSDecodeError) as info:
        read()
    error = info.value
    assert isinstance(error, LedgerError)
    assert isinstance(error.offset, int)
    if offset is not None:
        assert error.offset == offset
        assert f"at byte {offset}" in str(error)
    return error


def _d(hex_text: str) -> Deserializer:
    return Deserializer(bytes.fromhex(hex_text))


# -- truncation -------------------------------------------------------------------------------


@pytest.mark.parametrize("case", [pytest.param(c, id=c["name"]) for c in TRANSACTIONS])
def test_truncated_signed_transaction_fails_at_every_cut(case: dict[str, Any]) -> None:
    data = bytes.fromhex(case["signed_bcs"][2:])
    assert SignedTransaction.from_bcs(data).to_bcs() == data
    for cut in range(len(data)):
        error = _decode_error(lambda c=cut: SignedTransaction.from_bcs(data[:c]))
        assert error.offset is not None
        assert 0 <= error.offset <= cut, (cut, str(error))


def test_truncation_message_says_how_much_is_missing() -> None:
    data = _signed()
    error = _decode_error(lambda: SignedTransaction.from_bcs(data[:20]), offset=0)
    assert "truncated" in str(error)
    assert "needed 32 byte(s), 20 left" in str(error)


def test_empty_input() -> None:
    _decode_error(lambda: SignedTransaction.from_bcs(b""), offset=0)
    _decode_error(lambda: _d("").u8(), offset=0)
    _decode_error(lambda: _d("0100").u64(), offset=0)


# -- uleb128 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hex_text", "message"),
    [
        ("8000", "non-canonical"),
        ("818000", "non-canonical"),
        ("8080808000", "non-canonical"),
        ("8080808010", "above u32"),
        ("ffffffff1f", "above u32"),
        ("808080808001", "longer than 5 bytes"),
        ("80", "truncated"),
    ],
)
def test_bad_uleb128(hex_text: str, message: str) -> None:
    error = _decode_error(lambda: _d(hex_text).uleb128())
    assert message in str(error)
    assert error.offset in (0, len(hex_text) // 2)


def test_bad_uleb128_inside_a_transaction_points_at_it() -> None:
    # Re-encode the type-argument count of the entry function (1 byte, 0x00) as 80 00.
    data = _signed()
    offset = 32 + 8 + 1 + 32 + 14 + 9  # sender, sequence, variant, address, module, function
    assert data[offset] == 0x00
    bad = data[:offset] + b"\x80\x00" + data[offset + 1 :]
    error = _decode_error(lambda: SignedTransaction.from_bcs(bad), offset=offset)
    assert "non-canonical" in str(error)


# -- scalars and composites -------------------------------------------------------------------


def test_bool_byte_two() -> None:
    error = _decode_error(lambda: _d("02").boolean(), offset=0)
    assert "bool" in str(error)
    _decode_error(
        lambda: MoveValueCodec().decode("vector<bool>", bytes.fromhex("030100ff")), offset=3
    )


def test_option_tag_two() -> None:
    error = _decode_error(lambda: _d("0201").option(lambda: 1), offset=0)
    assert "option tag" in str(error)
    # In a multisig payload the inner entry function is an Option.
    data = bytearray(_signed("multisig_payload_without_inner_ed25519"))
    tag_offset = 32 + 8 + 1 + 32
    assert data[tag_offset] == 0
    data[tag_offset] = 2
    _decode_error(lambda: SignedTransaction.from_bcs(bytes(data)), offset=tag_offset)


def test_move_option_with_two_values_is_refused_when_decoding() -> None:
    codec = MoveValueCodec()
    two = bytes.fromhex("02" + "01" * 8 + "02" * 8)
    error = _decode_error(lambda: codec.decode("0x1::option::Option<u64>", two), offset=0)
    assert "0 or 1" in str(error)
    _decode_error(lambda: codec.decode("0x1::option::Option<u8>", bytes.fromhex("020102")))


@pytest.mark.parametrize("hex_text", ["02c328", "01ff", "03eda080", "02c0af", "04f4908080"])
def test_invalid_utf8(hex_text: str) -> None:
    error = _decode_error(lambda: _d(hex_text).string(), offset=0)
    assert "UTF-8" in str(error)
    _decode_error(lambda: MoveValueCodec().decode("0x1::string::String", bytes.fromhex(hex_text)))


def _map_bytes(entries: list[tuple[str, int]]) -> bytes:
    s = Serializer()
    s.uleb128(len(entries))
    for key, value in entries:
        s.string(key)
        s.u64(value)
    return s.output()


def test_map_keys_out_of_order_or_duplicated() -> None:
    good = _map_bytes([("a", 1), ("b", 2)])
    d = Deserializer(good)
    assert d.map(d.string, d.u64) == {"a": 1, "b": 2}

    swapped = _map_bytes([("b", 2), ("a", 1)])
    d = Deserializer(swapped)
    error = _decode_error(lambda: d.map(d.string, d.u64), offset=1 + 2 + 8)
    assert "order" in str(error)

    # Canonical order is by encoded bytes, so the longer key "aa" sorts after "b".
    by_text = _map_bytes([("aa", 1), ("b", 2)])
    d = Deserializer(by_text)
    _decode_error(lambda: d.map(d.string, d.u64), offset=1 + 3 + 8)

    duplicated = _map_bytes([("a", 1), ("a", 2)])
    d = Deserializer(duplicated)
    _decode_error(lambda: d.map(d.string, d.u64), offset=1 + 2 + 8)


def test_trailing_bytes_are_refused() -> None:
    data = _signed()
    error = _decode_error(lambda: SignedTransaction.from_bcs(data + b"\x00"), offset=len(data))
    assert "trailing" in str(error)
    raw_len = len(bytes.fromhex(TRANSACTIONS[0]["raw_bcs"][2:]))
    # A signed transaction is a raw transaction followed by more bytes.
    _decode_error(lambda: RawTransaction.from_bcs(data), offset=raw_len)
    _decode_error(lambda: MoveValueCodec().decode("u8", b"\x01\x02"), offset=1)
    ef = EntryFunction.build("0x1::m::f", [], [("u8", 1)])
    _decode_error(lambda: EntryFunction.from_bcs(ef.to_bcs() + b"\xff"), offset=len(ef.to_bcs()))
    d = _d("0102")
    d.u8()
    _decode_error(d.finish, offset=1)


# -- unknown enum variants --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "message"), [(1, "module bundle"), (5, "unknown"), (0x7F, "unknown")]
)
def test_unknown_payload_variant(variant: int, message: str) -> None:
    data = bytearray(_signed())
    data[40] = variant
    error = _decode_error(lambda: SignedTransaction.from_bcs(bytes(data)), offset=40)
    assert message in str(error)
    _decode_error(lambda: deserialize_payload(Deserializer(bytes(data[40:]))), offset=0)


@pytest.mark.parametrize(
    ("hex_text", "what"),
    [
        ("0401", "inner payload"),  # TransactionPayloadInner has only V1 (0)
        ("040003", "executable"),  # Script 0, EntryFunction 1, Empty 2
        ("04000201", "extra config"),  # TransactionExtraConfig has only V1 (0)
    ],
)
def test_unknown_inner_payload_variants(hex_text: str, what: str) -> None:
    error = _decode_error(lambda: deserialize_payload(_d(hex_text)))
    assert what in str(error)


@pytest.mark.parametrize("variant", [5, 6, 100])
def test_unknown_transaction_authenticator_variant(variant: int) -> None:
    data = bytearray(_signed())
    raw_len = len(bytes.fromhex(TRANSACTIONS[0]["raw_bcs"][2:]))
    data[raw_len] = variant
    error = _decode_error(lambda: SignedTransaction.from_bcs(bytes(data)), offset=raw_len)
    assert "transaction authenticator" in str(error)
    _decode_error(
        lambda: deserialize_transaction_authenticator(Deserializer(bytes(data[raw_len:]))),
        offset=0,
    )


def test_unknown_account_authenticator_and_key_variants() -> None:
    _decode_error(lambda: deserialize_account_authenticator(_d("06")), offset=0)
    error = _decode_error(lambda: AnyPublicKey.from_bcs(bytes.fromhex("0700")), offset=0)
    assert "public key scheme" in str(error)
    error = _decode_error(lambda: AnySignature.from_bcs(bytes.fromhex("0900")), offset=0)
    assert "signature scheme" in str(error)
    # Tag 16: past aptos-core's TransactionArgument variants (9 is Serialized, 10-15 the
    # signed integers).
    error = _decode_error(lambda: ScriptArgument.from_bcs(bytes.fromhex("1000")), offset=0)
    assert "script argument" in str(error)


@pytest.mark.parametrize("variant", [11, 18, 0x7F])
def test_unknown_type_tag_variant(variant: int) -> None:
    """11 is the chain's function type tag, which the toolkit does not read; 18 and up are
    no variant at all."""
    error = _decode_error(lambda: deserialize_type_tag(Deserializer(bytes([variant]))), offset=0)
    assert "TypeTag" in str(error)
    # Inside a vector tag, the offset points at the bad inner variant.
    _decode_error(lambda: deserialize_type_tag(Deserializer(bytes([6, 6, variant]))), offset=2)


def test_type_tag_nesting_is_bounded() -> None:
    error = _decode_error(lambda: deserialize_type_tag(Deserializer(bytes([6] * 500) + b"\x00")))
    assert "too deep" in str(error)


# -- lengths larger than the input ------------------------------------------------------------

HUGE = "ffffffff07"  # 2^31 - 1


def test_sequence_length_larger_than_the_input() -> None:
    error = _decode_error(lambda: _d(HUGE).sequence(lambda: 0), offset=5)
    assert "2147483647" in str(error)
    _decode_error(lambda: _d(HUGE).var_bytes(), offset=5)
    _decode_error(lambda: _d(HUGE).string(), offset=5)
    d = _d(HUGE + "01")
    _decode_error(lambda: d.map(d.string, d.u64))
    codec = MoveValueCodec()
    for type_text in ("vector<u64>", "vector<u8>", "vector<vector<bool>>", "0x1::string::String"):
        _decode_error(lambda t=type_text: codec.decode(t, bytes.fromhex(HUGE)), offset=5)


def test_sequence_length_above_the_bcs_limit() -> None:
    error = _decode_error(lambda: _d("ffffffff0f").sequence(lambda: 0), offset=0)
    assert "2^31-1" in str(error)


def test_huge_argument_count_inside_an_entry_function() -> None:
    ef = EntryFunction.build("0x1::m::f").to_bcs()
    assert ef.endswith(b"\x00\x00")  # no type arguments, no arguments
    bad = ef[:-1] + bytes.fromhex(HUGE)
    _decode_error(lambda: EntryFunction.from_bcs(bad), offset=len(bad))
    bad_types = ef[:-2] + bytes.fromhex(HUGE) + b"\x00"
    _decode_error(lambda: EntryFunction.from_bcs(bad_types), offset=len(ef) - 2 + 5)


# -- malformed authenticators -----------------------------------------------------------------


def test_authenticator_with_wrong_key_length_fails_to_decode() -> None:
    s = Serializer()
    s.var_bytes(bytes(31))
    s.var_bytes(bytes(64))
    error = _decode_error(lambda: Ed25519Authenticator.from_bcs(s.output()), offset=0)
    assert "32 bytes" in str(error)


def test_multi_ed25519_bitmap_must_match_the_signatures() -> None:
    s = Serializer()
    s.var_bytes(bytes(32) * 2 + b"\x01")
    s.var_bytes(bytes(64) + bytes.fromhex("c0000000"))  # two bits set, one signature
    _decode_error(lambda: MultiEd25519Authenticator.from_bcs(s.output()), offset=0)


# -- encoding ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "value"),
    [
        ("u8", -1),
        ("u8", 256),
        ("u8", True),
        ("u16", 1 << 16),
        ("u16", 1.5),
        ("u32", -1),
        ("u64", -1),
        ("u64", 1 << 64),
        ("u64", True),
        ("u64", False),
        ("u64", "1"),
        ("u64", 1.0),
        ("u128", 1 << 128),
        ("u128", -1),
        ("u256", 1 << 256),
        ("u256", True),
        ("uleb128", -1),
        ("uleb128", 1 << 32),
        ("uleb128", True),
        ("boolean", 1),
        ("boolean", None),
        ("string", b"bytes"),
        ("string", "lone surrogate \ud800"),
        ("var_bytes", "text"),
        ("address", "0x1"),
    ],
)
def test_serializer_refuses_values_that_do_not_fit(method: str, value: Any) -> None:
    s = Serializer()
    with pytest.raises(BCSEncodeError) as info:
        getattr(s, method)(value)
    assert isinstance(info.value, LedgerError)
    assert isinstance(info.value, ValueError)
    assert s.output() == b""  # nothing half-written


def test_fixed_bytes_checks_the_length() -> None:
    with pytest.raises(BCSEncodeError, match="expected 3 bytes, got 2"):
        Serializer().fixed_bytes(b"ab", 3)


def test_map_keys_that_encode_alike_are_refused() -> None:
    with pytest.raises(BCSEncodeError, match="same bytes"):
        Serializer().map({"a": 1, "A": 2}, lambda s, k: s.string(k.lower()), lambda s, v: s.u8(v))


def test_structs_refuse_out_of_range_fields() -> None:
    ef = EntryFunction.build("0x1::m::f")
    fields: dict[str, Any] = {
        "sender": Address.from_int(1),
        "sequence_number": 0,
        "payload": ef,
        "max_gas_amount": 1,
        "gas_unit_price": 1,
        "expiration_timestamp_secs": 1,
        "chain_id": 1,
    }
    assert RawTransaction(**fields).to_bcs()
    for name, bad in [
        ("chain_id", 256),
        ("sequence_number", -1),
        ("max_gas_amount", 1 << 64),
        ("gas_unit_price", True),
    ]:
        with pytest.raises(BCSEncodeError):
            RawTransaction(**{**fields, name: bad}).to_bcs()
    with pytest.raises(BCSEncodeError):
        RawTransaction(**{**fields, "payload": "not a payload"}).to_bcs()
    with pytest.raises(BCSEncodeError, match="32 bytes"):
        Ed25519Authenticator(bytes(31), bytes(64))
    with pytest.raises(BCSEncodeError, match="64 bytes"):
        Ed25519Authenticator(bytes(32), bytes(63))
    with pytest.raises(BCSEncodeError, match="one bit set per signature"):
        MultiEd25519Authenticator((bytes(32),), 1, (bytes(64),), bytes(4))
    with pytest.raises(BCSEncodeError, match="threshold"):
        MultiEd25519Authenticator((bytes(32),), 2, (bytes(64),), bytes.fromhex("80000000"))
    with pytest.raises(BCSEncodeError, match="signatures_required"):
        MultiKeyAuthenticator((AnyPublicKey("ed25519", bytes(32)),), 0, (), b"\x00")
    with pytest.raises(BCSEncodeError, match="scheme"):
        AnyPublicKey("rsa", bytes(32))
    with pytest.raises(BCSEncodeError, match="script argument kind"):
        ScriptArgument("u7", 1)
    with pytest.raises(BCSEncodeError):
        Script(b"", (), (ScriptArgument("u8", 256),)).to_bcs()


def test_type_tags_refuse_non_concrete_types() -> None:
    for text in ("T0", "&u64", "vector<T1>", "0x1::m::S<T0>", "&i256"):
        with pytest.raises(BCSEncodeError) as info:
            type_tag_bytes(text)
        assert isinstance(info.value, LedgerError)


# -- the Move value codec ---------------------------------------------------------------------

CODEC = MoveValueCodec(
    {
        "0x42::demo::Point": [("x", "u64"), ("y", "u64")],
        "0x42::demo::Polygon": [
            ("label", "0x1::string::String"),
            ("vertices", "vector<0x42::demo::Point>"),
        ],
        "0x42::demo::Pair": [("first", "T0"), ("second", "T1")],
    }
)
POLYGON = "0x42::demo::Polygon"


def _polygon(**changes: Any) -> dict[str, Any]:
    value: dict[str, Any] = {
        "label": "tri",
        "vertices": [{"x": "0", "y": "0"}, {"x": "4", "y": "0"}, {"x": "0", "y": "3"}],
    }
    value.update(changes)
    return value


def _value_error(move_type: str, value: Any, *where: str) -> MoveValueError:
    with pytest.raises(MoveValueError) as info:
        CODEC.encode(move_type, value)
    error = info.value
    assert isinstance(error, LedgerError)
    for text in where:
        assert text in str(error), str(error)
    return error


def test_codec_accepts_the_good_polygon() -> None:
    assert CODEC.decode(POLYGON, CODEC.encode(POLYGON, _polygon())) == _polygon()


@pytest.mark.parametrize(
    ("move_type", "value", "where"),
    [
        ("u64", 1.0, ["value", "float"]),
        ("u64", 2.5e18, ["value", "float"]),
        ("u8", "1.0", ["value"]),
        ("u64", True, ["value", "bool"]),
        ("u64", -1, ["value", "out of range"]),
        ("u64", str(1 << 64), ["value", "out of range"]),
        ("u64", " 1", ["value"]),
        ("u64", None, ["value"]),
        ("u8", 256, ["value", "out of range"]),
        ("u128", [1], ["value"]),
        ("bool", "true", ["value", "true or false"]),
        ("bool", 1, ["value"]),
        ("address", 1, ["value"]),
        ("address", "0xzz", ["value"]),
        ("address", "0x" + "1" * 65, ["value"]),
        ("vector<u8>", [1, 2], ["value", "hex"]),
        ("vector<u8>", "0x123", ["value", "hex"]),
        ("vector<u64>", "0x01", ["value", "array"]),
        ("vector<u64>", {"0": "1"}, ["value", "array"]),
        ("0x1::string::String", 5, ["value", "string"]),
        ("0x1::string::String", "\ud800", ["value", "UTF-8"]),
        ("0x1::option::Option<u64>", ["1"], ["value", "option"]),
        ("0x1::option::Option<u64>", {"vec": ["1", "2"]}, ["value", "at most one"]),
        ("0x1::option::Option<u64>", {"vec": [], "extra": 1}, ["value", "option"]),
        ("0x1::option::Option<u64>", {"vec": [1.5]}, ["value.vec[0]", "float"]),
        ("0x1::option::Option<u8>", {"vec": "0x0102"}, ["value", "at most one"]),
        ("0x1::object::Object<0x1::m::T>", {"inner": "nope"}, ["value.inner"]),
        ("0x1::object::Object<0x1::m::T>", {"inner": "0x1", "x": 1}, ["value"]),
        ("signer", "0x1", ["value", "signer"]),
        ("vector<signer>", ["0x1"], ["value[0]", "signer"]),
        ("0x42::demo::Pair<u8, bool>", {"first": 1, "second": 1}, ["value.second"]),
        ("0x42::demo::Pair<u8, bool>", [1, True], ["value", "object"]),
        ("i8", 128, ["value", "out of range"]),
        ("i64", "1e3", ["value"]),
    ],
)
def test_codec_refuses_values_of_the_wrong_kind(
    move_type: str, value: Any, where: list[str]
) -> None:
    _value_error(move_type, value, *where)


def test_codec_errors_name_the_place_inside_the_value() -> None:
    bad_vertex = _polygon(
        vertices=[{"x": "0", "y": "0"}, {"x": "4", "y": "0"}, {"x": 1.5, "y": "3"}]
    )
    error = _value_error(POLYGON, bad_vertex, "value.vertices[2].x", "float")
    assert "u64" in str(error)
    _value_error(POLYGON, _polygon(label=7), "value.label")
    _value_error(POLYGON, _polygon(vertices={"x": "1"}), "value.vertices", "array")
    _value_error(
        f"vector<{POLYGON}>",
        [_polygon(), _polygon(vertices=[{"x": "-1", "y": "0"}])],
        "value[1].vertices[0].x",
    )


def test_codec_refuses_missing_and_extra_struct_fields() -> None:
    missing = _polygon()
    del missing["label"]
    _value_error(POLYGON, missing, "value", "missing ['label']")
    _value_error(POLYGON, _polygon(colour="red"), "value", "unknown ['colour']")
    _value_error(
        POLYGON,
        _polygon(vertices=[{"x": "1"}]),
        "value.vertices[0]",
        "missing ['y']",
    )


def test_codec_refuses_unknown_struct_layouts() -> None:
    error = _value_error("0x42::demo::Unknown", {}, "0x42::demo::Unknown", "layout")
    assert "layout" in str(error)
    _value_error("vector<0x42::demo::Unknown>", [], "0x42::demo::Unknown")
    with pytest.raises(MoveValueError, match="0x42::demo::Unknown"):
        CODEC.decode("0x42::demo::Unknown", b"")


def test_codec_refuses_types_that_are_not_values() -> None:
    for text in ("T0", "&u64", "vector<T0>"):
        with pytest.raises(MoveValueError) as info:
            CODEC.encode(text, 1)
        assert isinstance(info.value, LedgerError)


def test_entry_function_build_names_the_argument() -> None:
    with pytest.raises(MoveValueError, match=r"argument 1 \(u64\)"):
        EntryFunction.build("0x1::m::f", [], [("address", "0x1"), ("u64", 1.5)])
    with pytest.raises(MoveValueError, match="argument 0"):
        EntryFunction.build("0x1::m::f", [], [(POLYGON, {"label": "x"})], codec=CODEC)
    ef = EntryFunction.build("0x1::m::f", [], [("u8", 1)])
    with pytest.raises(MoveValueError, match="1 arguments but 2 types"):
        ef.decode_args(["u8", "u8"])


def _struct_tag_bytes(module: str, name: str) -> bytes:
    s = Serializer()
    s.uleb128(7)
    s.address(Address.from_int(1))
    s.string(module)
    s.string(name)
    s.uleb128(0)
    return s.output()


@pytest.mark.parametrize(("module", "name"), [("", "A"), ("coin", "a<b"), ("1x", "A")])
def test_type_tag_with_a_bad_identifier_is_refused(module: str, name: str) -> None:
    with pytest.raises(BCSDecodeError, match="not a Move identifier") as info:
        deserialize_type_tag(Deserializer(_struct_tag_bytes(module, name)))
    assert info.value.offset is not None


def test_entry_function_with_a_bad_function_name_is_refused() -> None:
    good = EntryFunction.build("0x1::coin::transfer").to_bcs()
    bad = good.replace(b"\x08transfer", b"\x08tr@nsfer")
    with pytest.raises(BCSDecodeError, match="not a Move identifier"):
        EntryFunction.from_bcs(bad)


def test_script_arguments_take_decimal_strings_like_the_api() -> None:
    arg = ScriptArgument("u64", "18446744073709551615")
    assert arg.value == 2**64 - 1
    assert ScriptArgument.from_bcs(arg.to_bcs()) == arg
    with pytest.raises(BCSEncodeError, match="u64"):
        ScriptArgument("u64", "1.5")


def test_codec_follows_layout_changes() -> None:
    layouts = DictLayouts({"0x42::demo::Point": [("x", "u8")]})
    codec = MoveValueCodec(layouts)
    assert codec.encode("0x42::demo::Point", {"x": 1}) == b"\x01"
    layouts.add("0x42::demo::Point", [("x", "u8"), ("y", "u8")])
    assert codec.encode("0x42::demo::Point", {"x": 1, "y": 2}) == b"\x01\x02"
    assert codec.decode("0x42::demo::Point", b"\x01\x02") == {"x": 1, "y": 2}
