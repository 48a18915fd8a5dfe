"""ledgerkit reproduces every golden vector in ``tests/vectors/*.json`` byte for byte.

The vectors were produced by aptos-sdk (``tests/vectors/generate.py``; ``test_oracle.py``
checks they still match it). Each case is its own test, named after the case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ledgerkit.bcs import (
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
    RawTransaction,
    Script,
    ScriptArgument,
    Serializer,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
    TransactionAuthenticator,
    TransactionPayload,
    deserialize_payload,
    deserialize_type_tag,
    serialize_payload,
    serialize_transaction_authenticator,
    type_tag_bytes,
)
from ledgerkit.keys import Ed25519PrivateKey, Secp256k1PrivateKey
from ledgerkit.types import Address, EntryFunctionId, MoveType, PrimitiveType, StructTag, VectorType

VECTORS = Path(__file__).resolve().parent.parent / "vectors"
KNOWN_FILES = {
    "addresses.json",
    "entry_functions.json",
    "integers.json",
    "primitives.json",
    "transactions.json",
    "type_tags.json",
}


def _load(name: str) -> list[dict[str, Any]]:
    with (VECTORS / name).open(encoding="utf-8") as handle:
        cases: list[dict[str, Any]] = json.load(handle)["cases"]
    return cases


def _cases(name: str) -> list[Any]:
    return [pytest.param(case, id=case["name"]) for case in _load(name)]


def _hex(text: str) -> bytes:
    assert text.startswith("0x"), text
    return bytes.fromhex(text[2:])


def _all_layouts() -> DictLayouts:
    """Every struct layout the entry-function vectors define (transactions reuse them)."""
    merged: dict[str, list[tuple[str, str]]] = {}
    for case in _load("entry_functions.json"):
        for tag, fields in case["layouts"].items():
            merged[tag] = [(name, t) for name, t in fields]
    return DictLayouts(merged)


LAYOUTS = _all_layouts()


# -- bookkeeping -------------------------------------------------------------------------------


def test_every_vector_file_is_exercised_and_there_are_enough_cases() -> None:
    files = {path.name for path in VECTORS.glob("*.json")}
    assert files == KNOWN_FILES
    total = 0
    for name in sorted(files):
        cases = _load(name)
        names = [case["name"] for case in cases]
        assert len(names) == len(set(names)), f"duplicate case names in {name}"
        total += len(cases)
    assert total >= 50


# -- integers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _cases("integers.json"))
def test_integer(case: dict[str, Any]) -> None:
    kind, value, expected = case["type"], int(case["value"]), _hex(case["bcs"])
    s = Serializer()
    getattr(s, kind)(value)
    assert s.output() == expected

    d = Deserializer(expected)
    decoded = getattr(d, kind)()
    d.finish()
    assert decoded == value
    assert type(decoded) is int

    if kind != "uleb128":
        # The Move value codec agrees, with the API's JSON form: numbers up to u32,
        # decimal strings from u64 on.
        codec = MoveValueCodec()
        json_value = value if kind in ("u8", "u16", "u32") else case["value"]
        assert codec.encode(kind, json_value) == expected
        assert codec.encode(kind, case["value"]) == expected
        assert codec.decode(kind, expected) == json_value


# -- primitives --------------------------------------------------------------------------------


def _encode_primitive(kind: str, value: Any) -> bytes:
    s = Serializer()
    if kind == "bool":
        s.boolean(value)
    elif kind == "bytes":
        s.var_bytes(_hex(value))
    elif kind == "fixed_bytes":
        s.fixed_bytes(_hex(value), len(_hex(value)))
    elif kind == "str":
        s.string(value)
    elif kind == "sequence_u64":
        s.sequence([int(v) for v in value], s.u64)
    elif kind == "option_u64":
        s.option(None if value is None else int(value), s.u64)
    elif kind == "map_str_u64":
        s.map(
            {k: int(v) for k, v in value.items()},
            lambda ks, k: ks.string(k),
            lambda vs, v: vs.u64(v),
        )
    else:
        raise AssertionError(f"unknown primitive kind {kind}")
    return s.output()


def _decode_primitive(kind: str, data: bytes, value: Any) -> Any:
    d = Deserializer(data)
    result: Any
    if kind == "bool":
        result = d.boolean()
    elif kind == "bytes":
        result = "0x" + d.var_bytes().hex()
    elif kind == "fixed_bytes":
        result = "0x" + d.fixed_bytes(len(_hex(value))).hex()
    elif kind == "str":
        result = d.string()
    elif kind == "sequence_u64":
        result = [str(v) for v in d.sequence(d.u64)]
    elif kind == "option_u64":
        item = d.option(d.u64)
        result = None if item is None else str(item)
    elif kind == "map_str_u64":
        result = {k: str(v) for k, v in d.map(d.string, d.u64).items()}
    else:
        raise AssertionError(f"unknown primitive kind {kind}")
    d.finish()
    return result


@pytest.mark.parametrize("case", _cases("primitives.json"))
def test_primitive(case: dict[str, Any]) -> None:
    kind, value, expected = case["kind"], case["value"], _hex(case["bcs"])
    assert _encode_primitive(kind, value) == expected
    decoded = _decode_primitive(kind, expected, value)
    assert decoded == value
    if kind == "map_str_u64":
        # Decoded maps come out in canonical order: by the bytes of the encoded key.
        def key_bytes(key: str) -> bytes:
            ks = Serializer()
            ks.string(key)
            return ks.output()

        assert list(decoded) == sorted(value, key=key_bytes)


# -- addresses ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _cases("addresses.json"))
def test_address(case: dict[str, Any]) -> None:
    address = Address.parse(case["input"])
    assert address.long == case["long"]
    # Shown as AIP-40 displays addresses (the official SDK's own str(), recorded in the
    # vectors): short for 0x0 ... 0xf, all 64 digits otherwise.
    assert str(address) == case["aip40"]
    assert repr(address) == f"Address({case['aip40']!r})"
    assert address.standard == case["aip40"]
    assert address.short == case["short"]
    assert bytes(address) == _hex(case["bcs"])
    # Both printed forms parse back to the same address.
    assert Address.parse(case["long"]) == address
    assert Address.parse(case["short"]) == address

    s = Serializer()
    s.address(address)
    assert s.output() == _hex(case["bcs"])
    d = Deserializer(_hex(case["bcs"]))
    assert d.address() == address
    d.finish()


# -- type tags ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _cases("type_tags.json"))
def test_type_tag(case: dict[str, Any]) -> None:
    text, expected = case["type"], _hex(case["bcs"])
    parsed = MoveType.parse(text)
    assert str(parsed) == text
    assert type_tag_bytes(text) == expected
    assert type_tag_bytes(parsed) == expected

    d = Deserializer(expected)
    decoded = deserialize_type_tag(d)
    d.finish()
    assert decoded == parsed
    assert str(decoded) == text


#: The signed integers, which aptos-sdk 0.11 cannot write: hand-computed from the chain's
#: TypeTag enum (aptos-core's move-core-types), where they follow ``Function`` (11) in the
#: order i8, i16, i32, i64, i128, i256.
SIGNED_TYPE_TAGS = [
    ("i8", "0c"),
    ("i16", "0d"),
    ("i32", "0e"),
    ("i64", "0f"),
    ("i128", "10"),
    ("i256", "11"),
    ("vector<i32>", "060e"),
    # struct 7, address 0x1, "m", "S", two type arguments: i64, vector<i8>
    ("0x1::m::S<i64, vector<i8>>", "07" + "00" * 31 + "01" + "016d0153" + "02" + "0f060c"),
]


@pytest.mark.parametrize(("text", "hex_bytes"), SIGNED_TYPE_TAGS)
def test_signed_integer_type_tags(text: str, hex_bytes: str) -> None:
    expected = bytes.fromhex(hex_bytes)
    assert type_tag_bytes(text) == expected
    d = Deserializer(expected)
    assert str(deserialize_type_tag(d)) == text
    d.finish()


# -- entry functions ---------------------------------------------------------------------------


def _canonical(t: MoveType, value: Any, layouts: DictLayouts) -> Any:
    """The JSON form the codec decodes to: short addresses, u64+ as decimal strings."""
    if isinstance(t, PrimitiveType):
        if t.name == "address":
            return Address.parse(value).short
        if t.name in ("u8", "u16", "u32"):
            return int(value)
        if t.name in ("u64", "u128", "u256"):
            return str(int(value))
        return value
    if isinstance(t, VectorType):
        if t.element == PrimitiveType("u8"):
            return "0x" + _hex(value).hex()
        return [_canonical(t.element, item, layouts) for item in value]
    assert isinstance(t, StructTag)
    if t.is_struct("0x1", "string", "String"):
        return value
    if t.is_struct("0x1", "option", "Option"):
        # The struct {vec: vector<T>}: so an Option<u8> holds a hex string, like vector<u8>.
        return {"vec": _canonical(VectorType(t.type_args[0]), value["vec"], layouts)}
    if t.is_struct("0x1", "object", "Object"):
        return {"inner": Address.parse(value["inner"]).short}
    fields = layouts.struct_fields(t)
    assert fields is not None, t
    return {name: _canonical(ft, value[name], layouts) for name, ft in fields}


@pytest.mark.parametrize("case", _cases("entry_functions.json"))
def test_entry_function(case: dict[str, Any]) -> None:
    layouts = DictLayouts(
        {tag: [(name, t) for name, t in fields] for tag, fields in case["layouts"].items()}
    )
    codec = MoveValueCodec(layouts)
    arguments = case["arguments"]
    built = EntryFunction.build(
        case["function"],
        case["type_arguments"],
        [(a["type"], a["value"]) for a in arguments],
        codec=codec,
    )
    assert [arg.hex() for arg in built.args] == [_hex(a["bcs"]).hex() for a in arguments]
    assert built.to_bcs() == _hex(case["bcs"])
    assert built.function_id == EntryFunctionId.parse(case["function"])

    # Each argument alone, through the codec.
    for a in arguments:
        assert codec.encode(a["type"], a["value"]) == _hex(a["bcs"])

    decoded = EntryFunction.from_bcs(_hex(case["bcs"]))
    assert decoded == built
    assert [str(t) for t in decoded.type_args] == case["type_arguments"]
    values = decoded.decode_args([a["type"] for a in arguments], codec=codec)
    assert values == [_canonical(MoveType.parse(a["type"]), a["value"], layouts) for a in arguments]


# -- transactions ------------------------------------------------------------------------------


def _entry_function(payload: dict[str, Any]) -> EntryFunction:
    arguments = payload["arguments"]
    ef = EntryFunction.build(
        payload["function"],
        payload["type_arguments"],
        [(a["type"], a["value"]) for a in arguments],
        codec=MoveValueCodec(LAYOUTS),
    )
    assert list(ef.args) == [_hex(a["bcs"]) for a in arguments]
    return ef


_WIDE_SCRIPT_KINDS = ("u64", "u128", "u256")


def _script_argument(arg: dict[str, Any]) -> ScriptArgument:
    kind, value = arg["tag"], arg["value"]
    if kind in _WIDE_SCRIPT_KINDS:
        value = int(value)
    elif kind == "u8_vector":
        value = _hex(value)
    return ScriptArgument(kind, value)


def _payload(payload: dict[str, Any]) -> TransactionPayload:
    kind = payload["type"]
    if kind == "entry_function_payload":
        return _entry_function(payload)
    if kind == "script_payload":
        arguments = [_script_argument(a) for a in payload["arguments"]]
        for built, a in zip(arguments, payload["arguments"], strict=True):
            assert built.to_bcs() == _hex(a["bcs"])
        return Script(
            _hex(payload["code"]),
            tuple(MoveType.parse(t) for t in payload["type_arguments"]),
            tuple(arguments),
        )
    if kind == "multisig_payload":
        inner = payload["transaction_payload"]
        return Multisig(
            Address.parse(payload["multisig_address"]),
            None if inner is None else _entry_function(inner),
        )
    raise AssertionError(f"unknown payload type {kind}")


def _raw(case: dict[str, Any]) -> RawTransaction:
    raw = case["raw"]
    return RawTransaction(
        sender=Address.parse(raw["sender"]),
        sequence_number=int(raw["sequence_number"]),
        payload=_payload(raw["payload"]),
        max_gas_amount=int(raw["max_gas_amount"]),
        gas_unit_price=int(raw["gas_unit_price"]),
        expiration_timestamp_secs=int(raw["expiration_timestamp_secs"]),
        chain_id=raw["chain_id"],
    )


def _flip(signature: bytes) -> bytes:
    return bytes([signature[0] ^ 0x01]) + signature[1:]


def _account_authenticator(signer: dict[str, Any], *, tamper: bool = False) -> AccountAuthenticator:
    """The authenticator a signer's vector describes; ``tamper`` flips one signature byte."""
    kind = signer["account_authenticator"]
    maybe_flip = _flip if tamper else (lambda sig: sig)
    if kind == "ed25519":
        return Ed25519Authenticator(
            _hex(signer["public_key"]), maybe_flip(_hex(signer["signature"]))
        )
    if kind == "single_key":
        scheme = signer["scheme"]
        return SingleKeyAuthenticator(
            AnyPublicKey(scheme, _hex(signer["public_key"])),
            AnySignature(scheme, maybe_flip(_hex(signer["signature"]))),
        )
    signatures = [_hex(sig) for sig in signer["signatures"]]
    signatures[0] = maybe_flip(signatures[0])
    if kind == "multi_ed25519":
        auth = MultiEd25519Authenticator(
            tuple(_hex(k) for k in signer["public_keys"]),
            signer["threshold"],
            tuple(signatures),
            _hex(signer["bitmap"]),
        )
        assert auth.bitmap == MultiEd25519Authenticator.make_bitmap(signer["signer_indices"])
        if not tamper:
            assert auth.public_key_bytes == _hex(signer["public_key"])
            assert auth.signature_bytes == _hex(signer["signature"])
        return auth
    if kind == "multi_key":
        schemes = signer["key_schemes"]
        multi = MultiKeyAuthenticator(
            tuple(
                AnyPublicKey(scheme, _hex(key))
                for scheme, key in zip(schemes, signer["public_keys"], strict=True)
            ),
            signer["threshold"],
            tuple(
                AnySignature(schemes[i], sig)
                for i, sig in zip(signer["signer_indices"], signatures, strict=True)
            ),
            _hex(signer["bitmap"]),
        )
        assert multi.bitmap == MultiKeyAuthenticator.make_bitmap(
            signer["signer_indices"], len(schemes)
        )
        if not tamper:
            # BCS(MultiKey) || BCS(MultiSignature) is exactly the authenticator body.
            assert multi.to_bcs() == _hex(signer["public_key"]) + _hex(signer["signature"])
        return multi
    raise AssertionError(f"unknown account authenticator {kind}")


def _authenticator(case: dict[str, Any], *, tamper: str | None = None) -> TransactionAuthenticator:
    signers = case["signers"]

    def account(role: str) -> AccountAuthenticator:
        return _account_authenticator(signers[role], tamper=role == tamper)

    kind = case["kind"]
    secondary_roles = sorted(
        (r for r in signers if r.startswith("secondary_")), key=lambda r: int(r.split("_")[1])
    )
    addresses = tuple(Address.parse(a) for a in case["secondary_signer_addresses"])
    assert [Address.parse(signers[r]["address"]) for r in secondary_roles] == list(addresses)
    if kind in ("ed25519", "script", "multisig"):
        auth = account("sender")
        assert isinstance(auth, Ed25519Authenticator)
        return auth
    if kind == "multi_ed25519":
        auth = account("sender")
        assert isinstance(auth, MultiEd25519Authenticator)
        return auth
    if kind == "multi_agent":
        return MultiAgentAuthenticator(
            account("sender"), addresses, tuple(account(r) for r in secondary_roles)
        )
    if kind == "fee_payer":
        return FeePayerAuthenticator(
            account("sender"),
            addresses,
            tuple(account(r) for r in secondary_roles),
            Address.parse(case["fee_payer_address"]),
            account("fee_payer"),
        )
    if kind.startswith("single_sender"):
        return SingleSenderAuthenticator(account("sender"))
    raise AssertionError(f"unknown transaction kind {kind}")


def _signatures(signer: dict[str, Any], scheme: str) -> list[tuple[str, str, str]]:
    """(private key, public key, signature) of every signature of ``scheme`` a signer gave."""
    kind = signer["account_authenticator"]
    if signer["scheme"] == scheme and kind in ("ed25519", "single_key"):
        return [(signer["private_key"], signer["public_key"], signer["signature"])]
    if kind in ("multi_ed25519", "multi_key"):
        schemes = signer.get("key_schemes") or ["ed25519"] * len(signer["public_keys"])
        return [
            (signer["private_key"][i], signer["public_keys"][i], sig)
            for i, sig in zip(signer["signer_indices"], signer["signatures"], strict=True)
            if schemes[i] == scheme
        ]
    return []


TRANSACTIONS = _cases("transactions.json")


@pytest.mark.parametrize("case", TRANSACTIONS)
def test_transaction_bytes(case: dict[str, Any]) -> None:
    raw = _raw(case)
    s = Serializer()
    serialize_payload(s, raw.payload)
    assert s.output() == _hex(case["raw"]["payload"]["bcs"])
    assert raw.to_bcs() == _hex(case["raw_bcs"])

    kind = case["kind"]
    addresses = tuple(Address.parse(a) for a in case["secondary_signer_addresses"])
    if kind == "multi_agent":
        with_data = MultiAgentRawTransaction(raw, addresses)
        assert with_data.to_bcs() == _hex(case["raw_with_data_bcs"])
        message = with_data.signing_message()
        assert MultiAgentRawTransaction.from_bcs(with_data.to_bcs()) == with_data
    elif kind == "fee_payer":
        fee_data = FeePayerRawTransaction(raw, addresses, Address.parse(case["fee_payer_address"]))
        assert fee_data.to_bcs() == _hex(case["raw_with_data_bcs"])
        message = fee_data.signing_message()
        assert FeePayerRawTransaction.from_bcs(fee_data.to_bcs()) == fee_data
    else:
        assert case["raw_with_data_bcs"] is None
        message = raw.signing_message()
    assert message == _hex(case["signing_message"])

    auth = _authenticator(case)
    s = Serializer()
    serialize_transaction_authenticator(s, auth)
    assert s.output() == _hex(case["authenticator_bcs"])

    signed = SignedTransaction(raw, auth)
    assert signed.to_bcs() == _hex(case["signed_bcs"])
    assert signed.to_bcs() == _hex(case["raw_bcs"]) + _hex(case["authenticator_bcs"])
    assert str(signed.hash()) == case["hash"]
    assert signed.hash() == _hex(case["hash"])


@pytest.mark.parametrize("case", TRANSACTIONS)
def test_transaction_decodes_to_what_was_built(case: dict[str, Any]) -> None:
    built = SignedTransaction(_raw(case), _authenticator(case))
    decoded = SignedTransaction.from_bcs(_hex(case["signed_bcs"]))
    assert decoded == built
    assert decoded.to_bcs() == _hex(case["signed_bcs"])
    assert RawTransaction.from_bcs(_hex(case["raw_bcs"])) == built.raw
    d = Deserializer(_hex(case["raw"]["payload"]["bcs"]))
    assert deserialize_payload(d) == built.raw.payload
    d.finish()


@pytest.mark.parametrize("case", TRANSACTIONS)
def test_transaction_ed25519_signatures_are_reproduced(case: dict[str, Any]) -> None:
    message = _hex(case["signing_message"])
    reproduced = 0
    for role, signer in case["signers"].items():
        for secret, public, signature in _signatures(signer, "ed25519"):
            key = Ed25519PrivateKey(secret)
            assert key.public_key_bytes == _hex(public), role
            assert key.sign(message) == _hex(signature), role
            assert key.public_key.verify(message, _hex(signature))
            reproduced += 1
        if signer["scheme"] == "ed25519":
            key = Ed25519PrivateKey(signer["private_key"])
            single = signer["account_authenticator"] == "single_key"
            assert key.address(single_key=single) == Address.parse(signer["address"])
    if all(s["scheme"] != "secp256k1_ecdsa" for s in case["signers"].values()):
        assert reproduced >= 1


SECP256K1_CASES = [
    pytest.param(case, id=case["name"])
    for case in _load("transactions.json")
    if any(_signatures(signer, "secp256k1_ecdsa") for signer in case["signers"].values())
]


@pytest.mark.parametrize("case", SECP256K1_CASES)
def test_transaction_secp256k1_signatures_are_reproduced(case: dict[str, Any]) -> None:
    # The vectors' generator signs with a deterministic nonce too, so the bytes agree.
    message = _hex(case["signing_message"])
    for role, signer in case["signers"].items():
        for secret, public, signature in _signatures(signer, "secp256k1_ecdsa"):
            key = Secp256k1PrivateKey(secret)
            assert key.public_key_bytes == _hex(public), role
            assert key.sign(message) == _hex(signature), role
            assert key.public_key.verify(message, _hex(signature))
        if signer["scheme"] == "secp256k1_ecdsa":
            key = Secp256k1PrivateKey(signer["private_key"])
            assert key.address() == Address.parse(signer["address"])


def test_there_are_secp256k1_vectors() -> None:
    assert len(SECP256K1_CASES) >= 4


@pytest.mark.parametrize("case", TRANSACTIONS)
def test_transaction_verify(case: dict[str, Any]) -> None:
    signed = SignedTransaction.from_bcs(_hex(case["signed_bcs"]))
    assert signed.verify() is True  # secp256k1 signers included
    for role in case["signers"]:
        tampered = SignedTransaction(signed.raw, _authenticator(case, tamper=role))
        assert tampered.to_bcs() != signed.to_bcs()
        assert tampered.verify() is False, role
    # A signature over another transaction does not verify either.
    other = RawTransaction(
        signed.raw.sender,
        signed.raw.sequence_number + 1,
        signed.raw.payload,
        signed.raw.max_gas_amount,
        signed.raw.gas_unit_price,
        signed.raw.expiration_timestamp_secs,
        signed.raw.chain_id,
    )
    assert SignedTransaction(other, signed.authenticator).verify() is False
