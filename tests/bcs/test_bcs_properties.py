"""Property tests: everything ledgerkit encodes decodes back to the same value.

Covers the Serializer/Deserializer pair, integer exactness at the widths that break
floats, the Move value codec over random types and values, type tags, and whole raw and
signed transactions (including that ``explain_spans`` accounts for every byte).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledgerkit.bcs import (
    AbstractionAuthenticator,
    AccountAuthenticator,
    AnyPublicKey,
    AnySignature,
    Deserializer,
    DictLayouts,
    Ed25519Authenticator,
    EntryFunction,
    FeePayerAuthenticator,
    FeePayerRawTransaction,
    MoveValueCodec,
    MultiAgentAuthenticator,
    MultiAgentRawTransaction,
    MultiEd25519Authenticator,
    MultiKeyAuthenticator,
    Multisig,
    NoAccountAuthenticator,
    RawTransaction,
    Script,
    ScriptArgument,
    Serializer,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
    Span,
    TransactionAuthenticator,
    TransactionPayload,
    TransactionPayloadV1,
    deserialize_type_tag,
    explain_spans,
    format_explanation,
    type_tag_bytes,
)
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.types import (
    U64,
    U128,
    U256,
    Address,
    ModuleId,
    MoveType,
    PrimitiveType,
    StructTag,
    VectorType,
)

SETTINGS = settings(max_examples=200, deadline=None)
SLOW_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

U32_MAX = (1 << 32) - 1


def _roundtrip(write: Callable[[Serializer], None], read: Callable[[Deserializer], Any]) -> Any:
    s = Serializer()
    write(s)
    d = Deserializer(s.output())
    value = read(d)
    d.finish()
    return value


# -- Serializer / Deserializer ----------------------------------------------------------------


@SETTINGS
@given(st.booleans())
def test_bool_roundtrip(value: bool) -> None:
    assert _roundtrip(lambda s: s.boolean(value), Deserializer.boolean) is value


@pytest.mark.parametrize("bits", [8, 16, 32, 64, 128, 256])
@SETTINGS
@given(data=st.data())
def test_unsigned_roundtrip_over_the_full_range(bits: int, data: st.DataObject) -> None:
    value = data.draw(
        st.one_of(
            st.integers(0, (1 << bits) - 1),
            st.sampled_from([0, 1, (1 << bits) - 1, (1 << (bits - 1)), (1 << bits) - 2]),
        )
    )
    name = f"u{bits}"
    s = Serializer()
    getattr(s, name)(value)
    encoded = s.output()
    assert len(encoded) == bits // 8
    assert encoded == value.to_bytes(bits // 8, "little")
    d = Deserializer(encoded)
    assert getattr(d, name)() == value
    d.finish()


@SETTINGS
@given(st.integers(0, U32_MAX))
def test_uleb128_roundtrip(value: int) -> None:
    s = Serializer()
    s.uleb128(value)
    encoded = s.output()
    # Canonical: shortest form, seven bits a byte, no trailing zero byte.
    assert len(encoded) == max(1, (value.bit_length() + 6) // 7)
    assert encoded[-1] < 0x80
    assert all(b & 0x80 for b in encoded[:-1])
    d = Deserializer(encoded)
    assert d.uleb128() == value
    d.finish()


@SETTINGS
@given(st.binary(max_size=300))
def test_var_bytes_roundtrip(value: bytes) -> None:
    assert _roundtrip(lambda s: s.var_bytes(value), Deserializer.var_bytes) == value


@SETTINGS
@given(st.binary(max_size=100))
def test_fixed_bytes_roundtrip(value: bytes) -> None:
    s = Serializer()
    s.fixed_bytes(value, len(value))
    assert s.output() == value
    d = Deserializer(value)
    assert d.fixed_bytes(len(value)) == value
    d.finish()


TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80)


@SETTINGS
@given(TEXT)
def test_string_roundtrip(value: str) -> None:
    s = Serializer()
    s.string(value)
    encoded = s.output()
    assert encoded.endswith(value.encode("utf-8"))
    assert _roundtrip(lambda s: s.string(value), Deserializer.string) == value


@SETTINGS
@given(st.lists(st.integers(0, (1 << 64) - 1), max_size=20))
def test_sequence_roundtrip(values: list[int]) -> None:
    def write(s: Serializer) -> None:
        s.sequence(values, s.u64)

    assert _roundtrip(write, lambda d: d.sequence(d.u64)) == values


@SETTINGS
@given(st.lists(TEXT, max_size=8))
def test_sequence_of_strings_roundtrip(values: list[str]) -> None:
    def write(s: Serializer) -> None:
        s.sequence(values, s.string)

    assert _roundtrip(write, lambda d: d.sequence(d.string)) == values


@SETTINGS
@given(st.one_of(st.none(), st.integers(0, 0xFFFF)))
def test_option_roundtrip(value: int | None) -> None:
    def write(s: Serializer) -> None:
        s.option(value, s.u16)

    assert _roundtrip(write, lambda d: d.option(d.u16)) == value


@SETTINGS
@given(st.dictionaries(TEXT, st.integers(0, (1 << 64) - 1), max_size=10))
def test_map_roundtrip_in_canonical_order(values: dict[str, int]) -> None:
    def write(s: Serializer) -> None:
        s.map(values, lambda ks, k: ks.string(k), lambda vs, v: vs.u64(v))

    decoded = _roundtrip(write, lambda d: d.map(d.string, d.u64))
    assert decoded == values

    def key_bytes(key: str) -> bytes:
        ks = Serializer()
        ks.string(key)
        return ks.output()

    # Whatever the insertion order, entries come out sorted by their encoded keys.
    assert list(decoded) == sorted(values, key=key_bytes)
    shuffled = dict(reversed(list(values.items())))
    s1, s2 = Serializer(), Serializer()
    s1.map(values, lambda ks, k: ks.string(k), lambda vs, v: vs.u64(v))
    s2.map(shuffled, lambda ks, k: ks.string(k), lambda vs, v: vs.u64(v))
    assert s1.output() == s2.output()


@SETTINGS
@given(st.dictionaries(st.integers(0, U32_MAX), st.binary(max_size=10), max_size=10))
def test_map_with_int_keys_roundtrip(values: dict[int, bytes]) -> None:
    def write(s: Serializer) -> None:
        s.map(values, lambda ks, k: ks.u32(k), lambda vs, v: vs.var_bytes(v))

    assert _roundtrip(write, lambda d: d.map(d.u32, d.var_bytes)) == values


# -- exact integers ---------------------------------------------------------------------------

EXACT = [(1 << 53) + 1, (1 << 64) - 1, (1 << 128) - 1, (1 << 256) - 1]


@pytest.mark.parametrize("value", EXACT, ids=["2^53+1", "2^64-1", "2^128-1", "2^256-1"])
def test_integers_stay_exact(value: int) -> None:
    assert int(float(value)) != value  # a float would corrupt it
    text = str(value)
    for bits, parser in ((64, U64), (128, U128), (256, U256)):
        if value.bit_length() > bits:
            with pytest.raises(ValueError, match="out of range"):
                parser(text)
            continue
        parsed = parser(text)
        assert parsed == value
        assert str(parsed) == text
        assert parsed.to_json() == text
        name = f"u{bits}"
        s = Serializer()
        getattr(s, name)(parsed)
        d = Deserializer(s.output())
        assert getattr(d, name)() == value
        d.finish()
        codec = MoveValueCodec()
        assert codec.decode(name, codec.encode(name, text)) == text
        assert codec.decode(name, codec.encode(name, value)) == text
        assert codec.decode(f"vector<{name}>", codec.encode(f"vector<{name}>", [text])) == [text]


# -- the Move value codec ---------------------------------------------------------------------

LAYOUTS = DictLayouts(
    {
        "0x42::demo::Point": [("x", "u64"), ("y", "u64")],
        "0x42::demo::Pair": [("first", "T0"), ("second", "T1")],
        "0x42::demo::Box": [
            ("items", "vector<T0>"),
            ("label", "0x1::string::String"),
            ("maybe", "0x1::option::Option<T0>"),
        ],
        "0xcafe::nest::Deep": [
            ("pair", "0x42::demo::Pair<u8, vector<address>>"),
            ("flag", "bool"),
            ("object", "0x1::object::Object<0x1::fungible_asset::Metadata>"),
        ],
    }
)
CODEC = MoveValueCodec(LAYOUTS)

UNSIGNED = ["u8", "u16", "u32", "u64", "u128", "u256"]
SIGNED = ["i8", "i16", "i32", "i64", "i128", "i256"]
STRING = MoveType.parse("0x1::string::String")
LEAF_STRUCTS = [
    STRING,
    MoveType.parse("0x1::object::Object<0x1::fungible_asset::Metadata>"),
    MoveType.parse("0x42::demo::Point"),
    MoveType.parse("0xcafe::nest::Deep"),
]
ONE = Address.from_int(1)
FORTY_TWO = Address.from_int(0x42)


def _option(t: MoveType) -> StructTag:
    return StructTag(ONE, "option", "Option", (t,))


def _extend(children: st.SearchStrategy[MoveType]) -> st.SearchStrategy[MoveType]:
    return st.one_of(
        children.map(VectorType),
        children.map(_option),
        st.tuples(children, children).map(lambda ab: StructTag(FORTY_TWO, "demo", "Pair", ab)),
        children.map(lambda t: StructTag(FORTY_TWO, "demo", "Box", (t,))),
    )


VALUE_TYPES = st.recursive(
    st.sampled_from(
        [PrimitiveType(n) for n in ["bool", "address", *UNSIGNED, *SIGNED]] + LEAF_STRUCTS
    ),
    _extend,
    max_leaves=4,
)


def _address_inputs(raw: bytes) -> st.SearchStrategy[Any]:
    a = Address(raw)
    return st.sampled_from([a.long, a.short, a.long[2:], a.short.upper().replace("0X", "0x"), a])


def _values(t: MoveType) -> st.SearchStrategy[tuple[Any, Any]]:
    """(a JSON value of type ``t`` as a user may write it, the form the codec decodes to)."""
    if isinstance(t, PrimitiveType):
        name = t.name
        if name == "bool":
            return st.booleans().map(lambda b: (b, b))
        if name == "address":
            return st.binary(min_size=32, max_size=32).flatmap(
                lambda raw: _address_inputs(raw).map(lambda v: (v, Address(raw).short))
            )
        if name in UNSIGNED or name in SIGNED:
            bits = int(name[1:])
            low, high = (
                (0, (1 << bits) - 1)
                if name[0] == "u"
                else (
                    -(1 << (bits - 1)),
                    (1 << (bits - 1)) - 1,
                )
            )
            numbers = st.one_of(st.integers(low, high), st.sampled_from([low, high, 0]))
            as_json: Callable[[int], Any] = int if bits <= 32 else str
            return numbers.flatmap(
                lambda n: st.sampled_from([n, str(n)]).map(lambda v: (v, as_json(n)))
            )
        raise AssertionError(name)
    if isinstance(t, VectorType):
        if t.element == PrimitiveType("u8"):
            return st.binary(max_size=40).flatmap(
                lambda raw: st.sampled_from(["0x" + raw.hex(), "0x" + raw.hex().upper(), raw]).map(
                    lambda v: (v, "0x" + raw.hex())
                )
            )
        return st.lists(_values(t.element), max_size=3).map(
            lambda pairs: ([v for v, _ in pairs], [c for _, c in pairs])
        )
    assert isinstance(t, StructTag)
    if t == STRING:
        return TEXT.map(lambda s: (s, s))
    if t.is_struct("0x1", "option", "Option"):
        (inner,) = t.type_args
        if inner == PrimitiveType("u8"):
            # An Option is the struct {vec: vector<T>}, and a vector<u8> is written as hex.
            return st.binary(max_size=1).map(
                lambda raw: ({"vec": "0x" + raw.hex()}, {"vec": "0x" + raw.hex()})
            )
        return st.lists(_values(inner), max_size=1).map(
            lambda pairs: ({"vec": [v for v, _ in pairs]}, {"vec": [c for _, c in pairs]})
        )
    if t.is_struct("0x1", "object", "Object"):
        return st.binary(min_size=32, max_size=32).flatmap(
            lambda raw: _address_inputs(raw).flatmap(
                lambda v: st.sampled_from([{"inner": v}, v]).map(
                    lambda given: (given, {"inner": Address(raw).short})
                )
            )
        )
    fields = LAYOUTS.struct_fields(t)
    assert fields is not None, t
    return st.tuples(*[_values(ft) for _, ft in fields]).map(
        lambda pairs: (
            {name: v for (name, _), (v, _) in zip(fields, pairs, strict=True)},
            {name: c for (name, _), (_, c) in zip(fields, pairs, strict=True)},
        )
    )


@SLOW_SETTINGS
@given(data=st.data())
def test_move_value_codec_roundtrip(data: st.DataObject) -> None:
    t = data.draw(VALUE_TYPES, label="type")
    value, canonical = data.draw(_values(t), label="value")
    encoded = CODEC.encode(t, value)
    assert CODEC.decode(t, encoded) == canonical
    # The canonical JSON form encodes to the same bytes, and so does the type's text.
    assert CODEC.encode(t, canonical) == encoded
    assert MoveType.parse(str(t)) == t
    assert MoveValueCodec(LAYOUTS).encode(str(t), value) == encoded


# -- type tags --------------------------------------------------------------------------------

IDENTIFIERS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
ADDRESSES = st.one_of(
    st.binary(min_size=32, max_size=32).map(Address),
    st.integers(0, 0xFFFF).map(Address.from_int),
)
TAG_PRIMITIVES = [
    *("bool", "u8", "u16", "u32", "u64", "u128", "u256", "address", "signer"),
    *("i8", "i16", "i32", "i64", "i128", "i256"),
]


def _struct_tags(children: st.SearchStrategy[MoveType]) -> st.SearchStrategy[MoveType]:
    return st.builds(
        StructTag,
        ADDRESSES,
        IDENTIFIERS,
        IDENTIFIERS,
        st.lists(children, max_size=3).map(tuple),
    )


CONCRETE_TYPES = st.recursive(
    st.one_of(
        st.sampled_from([PrimitiveType(n) for n in TAG_PRIMITIVES]),
        st.builds(StructTag, ADDRESSES, IDENTIFIERS, IDENTIFIERS),
    ),
    lambda children: st.one_of(children.map(VectorType), _struct_tags(children)),
    max_leaves=6,
)


@SETTINGS
@given(CONCRETE_TYPES)
def test_type_tag_roundtrip(t: MoveType) -> None:
    encoded = type_tag_bytes(t)
    d = Deserializer(encoded)
    assert deserialize_type_tag(d) == t
    d.finish()
    assert MoveType.parse(str(t)) == t
    assert type_tag_bytes(str(t)) == encoded


# -- transactions -----------------------------------------------------------------------------

U8S = st.integers(0, 0xFF)
U64S = st.integers(0, (1 << 64) - 1)
TAG_TYPES = CONCRETE_TYPES.filter(lambda t: len(type_tag_bytes(t)) < 400)

ENTRY_FUNCTIONS = st.builds(
    EntryFunction,
    st.builds(ModuleId, ADDRESSES, IDENTIFIERS),
    IDENTIFIERS,
    st.lists(TAG_TYPES, max_size=2).map(tuple),
    st.lists(st.binary(max_size=40), max_size=4).map(tuple),
)

_SCRIPT_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "u8": U8S,
    "u16": st.integers(0, 0xFFFF),
    "u32": st.integers(0, U32_MAX),
    "u64": U64S,
    "u128": st.integers(0, (1 << 128) - 1),
    "u256": st.integers(0, (1 << 256) - 1),
    "address": ADDRESSES,
    "u8_vector": st.binary(max_size=20),
    "bool": st.booleans(),
    "serialized": st.binary(max_size=20),
}
SCRIPT_ARGUMENTS = st.sampled_from(ScriptArgument.KINDS).flatmap(
    lambda kind: _SCRIPT_VALUES[kind].map(lambda v: ScriptArgument(kind, v))
)
SCRIPTS = st.builds(
    Script,
    st.binary(max_size=60),
    st.lists(TAG_TYPES, max_size=2).map(tuple),
    st.lists(SCRIPT_ARGUMENTS, max_size=5).map(tuple),
)
PAYLOADS: st.SearchStrategy[TransactionPayload] = st.one_of(
    ENTRY_FUNCTIONS,
    SCRIPTS,
    st.builds(Multisig, ADDRESSES, st.one_of(st.none(), ENTRY_FUNCTIONS)),
    st.builds(
        TransactionPayloadV1,
        st.one_of(st.none(), SCRIPTS, ENTRY_FUNCTIONS),
        st.one_of(st.none(), ADDRESSES),
        st.one_of(st.none(), U64S),
    ),
)
RAW_TRANSACTIONS = st.builds(
    RawTransaction,
    sender=ADDRESSES,
    sequence_number=U64S,
    payload=PAYLOADS,
    max_gas_amount=U64S,
    gas_unit_price=U64S,
    expiration_timestamp_secs=U64S,
    chain_id=U8S,
)

ED25519_KEYS = st.binary(min_size=32, max_size=32)
ED25519_SIGS = st.binary(min_size=64, max_size=64)


def _bcs(write: Callable[[Serializer], None]) -> bytes:
    s = Serializer()
    write(s)
    return s.output()


def _keyless(iss: str, idc: bytes) -> bytes:
    def write(s: Serializer) -> None:
        s.string(iss)
        s.var_bytes(idc)

    return _bcs(write)


def _webauthn(signature: bytes, authenticator_data: bytes, client_data_json: bytes) -> bytes:
    def write(s: Serializer) -> None:
        s.uleb128(0)  # the assertion signature's scheme: secp256r1
        s.var_bytes(signature)
        s.var_bytes(authenticator_data)
        s.var_bytes(client_data_json)

    return _bcs(write)


ANY_PUBLIC_KEYS = st.one_of(
    ED25519_KEYS.map(lambda k: AnyPublicKey("ed25519", k)),
    st.binary(min_size=65, max_size=65).map(lambda k: AnyPublicKey("secp256k1_ecdsa", k)),
    st.binary(min_size=65, max_size=65).map(lambda k: AnyPublicKey("secp256r1_ecdsa", k)),
    st.builds(_keyless, TEXT, st.binary(max_size=32)).map(lambda v: AnyPublicKey("keyless", v)),
    st.builds(
        lambda a, iss, idc: bytes(a) + _keyless(iss, idc), ADDRESSES, TEXT, st.binary(max_size=8)
    ).map(lambda v: AnyPublicKey("federated_keyless", v)),
)
WEBAUTHN = st.builds(
    _webauthn,
    st.binary(max_size=64),
    st.binary(max_size=40),
    st.binary(max_size=40),
)
ANY_SIGNATURES = st.one_of(
    ED25519_SIGS.map(lambda x: AnySignature("ed25519", x)),
    ED25519_SIGS.map(lambda x: AnySignature("secp256k1_ecdsa", x)),
    WEBAUTHN.map(lambda x: AnySignature("web_authn", x)),
)


@st.composite
def _multi_ed25519(draw: st.DrawFn) -> MultiEd25519Authenticator:
    keys = draw(st.lists(ED25519_KEYS, min_size=1, max_size=5))
    threshold = draw(st.integers(1, len(keys)))
    indices = sorted(draw(st.sets(st.integers(0, len(keys) - 1))))
    sigs = [draw(ED25519_SIGS) for _ in indices]
    return MultiEd25519Authenticator(
        tuple(keys), threshold, tuple(sigs), MultiEd25519Authenticator.make_bitmap(indices)
    )


@st.composite
def _multi_key(draw: st.DrawFn) -> MultiKeyAuthenticator:
    keys = draw(st.lists(ANY_PUBLIC_KEYS, min_size=1, max_size=10))
    required = draw(st.integers(1, len(keys)))
    indices = sorted(draw(st.sets(st.integers(0, len(keys) - 1))))
    sigs = [draw(ANY_SIGNATURES) for _ in indices]
    return MultiKeyAuthenticator(
        tuple(keys), required, tuple(sigs), MultiKeyAuthenticator.make_bitmap(indices, len(keys))
    )


def _auth_data(kind: int, parts: list[bytes]) -> bytes:
    def write(s: Serializer) -> None:
        s.uleb128(kind)
        for part in parts:
            s.var_bytes(part)

    return _bcs(write)


ABSTRACTION = st.builds(
    AbstractionAuthenticator,
    ADDRESSES,
    IDENTIFIERS,
    IDENTIFIERS,
    st.one_of(
        st.lists(st.binary(max_size=16), min_size=2, max_size=2).map(lambda p: _auth_data(0, p)),
        st.lists(st.binary(max_size=16), min_size=3, max_size=3).map(lambda p: _auth_data(1, p)),
    ),
)
ACCOUNT_AUTHENTICATORS: st.SearchStrategy[AccountAuthenticator] = st.one_of(
    st.builds(Ed25519Authenticator, ED25519_KEYS, ED25519_SIGS),
    _multi_ed25519(),
    st.builds(SingleKeyAuthenticator, ANY_PUBLIC_KEYS, ANY_SIGNATURES),
    _multi_key(),
    st.just(NoAccountAuthenticator()),
    ABSTRACTION,
)


@st.composite
def _secondaries(
    draw: st.DrawFn,
) -> tuple[tuple[Address, ...], tuple[AccountAuthenticator, ...]]:
    n = draw(st.integers(0, 3))
    return (
        tuple(draw(ADDRESSES) for _ in range(n)),
        tuple(draw(ACCOUNT_AUTHENTICATORS) for _ in range(n)),
    )


TRANSACTION_AUTHENTICATORS: st.SearchStrategy[TransactionAuthenticator] = st.one_of(
    st.builds(Ed25519Authenticator, ED25519_KEYS, ED25519_SIGS),
    _multi_ed25519(),
    st.builds(
        lambda sender, sec: MultiAgentAuthenticator(sender, sec[0], sec[1]),
        ACCOUNT_AUTHENTICATORS,
        _secondaries(),
    ),
    st.builds(
        lambda sender, sec, addr, payer: FeePayerAuthenticator(sender, sec[0], sec[1], addr, payer),
        ACCOUNT_AUTHENTICATORS,
        _secondaries(),
        ADDRESSES,
        ACCOUNT_AUTHENTICATORS,
    ),
    st.builds(SingleSenderAuthenticator, ACCOUNT_AUTHENTICATORS),
)
SIGNED_TRANSACTIONS = st.builds(SignedTransaction, RAW_TRANSACTIONS, TRANSACTION_AUTHENTICATORS)


@SLOW_SETTINGS
@given(RAW_TRANSACTIONS)
def test_raw_transaction_roundtrip(raw: RawTransaction) -> None:
    encoded = raw.to_bcs()
    assert RawTransaction.from_bcs(encoded) == raw
    assert raw.signing_message().endswith(encoded)
    assert RawTransaction.from_bcs(encoded).to_bcs() == encoded


def _children(spans: list[Span], i: int) -> list[int]:
    out = []
    j = i + 1
    while j < len(spans) and spans[j].depth > spans[i].depth:
        if spans[j].depth == spans[i].depth + 1:
            out.append(j)
        j += 1
    return out


@SLOW_SETTINGS
@given(SIGNED_TRANSACTIONS)
def test_signed_transaction_roundtrip_and_explanation(signed: SignedTransaction) -> None:
    encoded = signed.to_bcs()
    decoded = SignedTransaction.from_bcs(encoded)
    assert decoded == signed
    assert decoded.hash() == signed.hash()
    assert decoded.to_bcs() == encoded

    spans = explain_spans(encoded, SignedTransaction)
    assert spans[0].path == ("SignedTransaction",)
    assert (spans[0].start, spans[0].end) == (0, len(encoded))
    covered = [0] * len(encoded)
    for i, span in enumerate(spans):
        assert 0 <= span.start <= span.end <= len(encoded)
        kids = _children(spans, i)
        for k in kids:  # children lie inside their parent
            assert span.start <= spans[k].start <= spans[k].end <= span.end
        if not kids:
            for b in range(span.start, span.end):
                covered[b] += 1
    assert covered == [1] * len(encoded)

    text = format_explanation(encoded, spans)
    for name in (
        "SignedTransaction",
        "raw_txn",
        "sender",
        "sequence_number",
        "payload",
        "max_gas_amount",
        "gas_unit_price",
        "expiration_timestamp_secs",
        "chain_id",
        "authenticator",
    ):
        assert name in text
    assert f"chain_id = {signed.raw.chain_id}" in text
    assert f"sequence_number = {signed.raw.sequence_number}" in text


@SLOW_SETTINGS
@given(RAW_TRANSACTIONS, st.lists(st.binary(min_size=1, max_size=8), min_size=3, max_size=3))
def test_real_signatures_verify_and_break_when_the_transaction_changes(
    raw: RawTransaction, seeds: list[bytes]
) -> None:
    sender, second, payer = (Ed25519PrivateKey.from_seed(seed) for seed in seeds)
    changed = RawTransaction(
        raw.sender,
        raw.sequence_number,
        raw.payload,
        raw.max_gas_amount,
        raw.gas_unit_price,
        raw.expiration_timestamp_secs,
        (raw.chain_id + 1) % 256,
    )

    single = sender.sign_transaction(raw)
    assert single.verify() is True
    assert SignedTransaction(changed, single.authenticator).verify() is False

    multi = MultiAgentRawTransaction(raw, (second.address(),))
    message = multi.signing_message()
    signed = multi.authenticate(sender.authenticator(message), (second.authenticator(message),))
    assert signed.verify() is True
    assert SignedTransaction(changed, signed.authenticator).verify() is False

    # Sender and secondary may sign before the fee payer is known (fee payer 0x0).
    unknown = FeePayerRawTransaction(raw, (second.address(),), Address.from_int(0))
    known = FeePayerRawTransaction(raw, (second.address(),), payer.address())
    early = unknown.signing_message()
    fee_signed = known.authenticate(
        sender.single_key_authenticator(early),
        (second.authenticator(known.signing_message()),),
        payer.authenticator(known.signing_message()),
    )
    assert fee_signed.verify() is True
    assert SignedTransaction.from_bcs(fee_signed.to_bcs()).verify() is True
    assert SignedTransaction(changed, fee_signed.authenticator).verify() is False
