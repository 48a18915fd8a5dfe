"""The committed golden vectors are exactly what aptos-sdk produces, and are well formed.

These tests use only aptos-sdk, the standard library, PyNaCl and ecdsa (an aptos-sdk
dependency); they do not import ledgerkit.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
HEX = re.compile(r"0x[0-9a-f]*")
HEX_IN_TYPE = re.compile(r"0x[0-9A-Za-z]*")

# Keys whose values are always hex byte strings (or null, or lists of hex strings).
HEX_KEYS = frozenset(
    {
        "bcs",
        "long",
        "short",
        "aip40",
        "code",
        "sender",
        "multisig_address",
        "secondary_signer_addresses",
        "fee_payer_address",
        "raw_bcs",
        "raw_with_data_bcs",
        "signing_message",
        "authenticator_bcs",
        "signed_bcs",
        "hash",
        "private_key",
        "public_key",
        "public_keys",
        "address",
        "signature",
        "signatures",
        "bitmap",
    }
)


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_vectors_generate", HERE / "generate.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATE = _load_generator()
FILENAMES = sorted(GENERATE.BUILDERS)


def _committed(filename: str) -> dict[str, Any]:
    with (HERE / filename).open(encoding="utf-8") as handle:
        doc: dict[str, Any] = json.load(handle)
    return doc


def _hexbytes(text: str) -> bytes:
    assert HEX.fullmatch(text), text
    return bytes.fromhex(text[2:])


@pytest.mark.parametrize("filename", FILENAMES)
def test_committed_file_equals_aptos_sdk_output(filename: str) -> None:
    built = GENERATE.BUILDERS[filename]()
    committed_text = (HERE / filename).read_text(encoding="utf-8")
    assert json.loads(committed_text) == built
    assert committed_text == GENERATE.render(built)


def test_build_all_covers_every_json_file() -> None:
    on_disk = {path.name for path in HERE.glob("*.json")}
    assert on_disk == set(GENERATE.build_all())


def test_total_case_count() -> None:
    total = sum(len(_committed(name)["cases"]) for name in FILENAMES)
    assert total >= 50


@pytest.mark.parametrize("filename", FILENAMES)
def test_document_shape(filename: str) -> None:
    doc = _committed(filename)
    assert list(doc) == ["generator", "description", "cases"]
    assert doc["generator"].startswith("aptos-sdk ")
    assert doc["description"]
    names = [case["name"] for case in doc["cases"]]
    assert len(names) == len(set(names)), "case names must be unique within a file"


def _walk(node: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    if isinstance(node, dict):
        for child_key, child in node.items():
            yield from _walk(child, child_key)
    elif isinstance(node, list):
        for child in node:
            yield from _walk(child, key)
    else:
        yield key, node


@pytest.mark.parametrize("filename", FILENAMES)
def test_hex_strings_are_prefixed_and_lowercase(filename: str) -> None:
    doc = _committed(filename)
    for case in doc["cases"]:
        for key, value in _walk(case):
            if key in HEX_KEYS and value is not None:
                assert isinstance(value, str), (case["name"], key, value)
                assert HEX.fullmatch(value), (case["name"], key, value)
                assert len(value) % 2 == 0 or key in ("short", "aip40"), (case["name"], key)
            elif key == "input" or not isinstance(value, str):
                continue  # addresses.json inputs are deliberately raw
            elif "::" in value:
                for literal in HEX_IN_TYPE.findall(value):
                    assert HEX.fullmatch(literal), (case["name"], key, value)
            elif value.startswith(("0x", "0X")):
                assert HEX.fullmatch(value), (case["name"], key, value)
        if case.get("kind") in ("bytes", "fixed_bytes"):
            assert HEX.fullmatch(case["value"]), case["name"]
        for argument in case.get("arguments", []):
            if argument.get("type") in ("vector<u8>", "address"):
                assert HEX.fullmatch(argument["value"]), (case["name"], argument)


def test_transactions_are_self_consistent() -> None:
    from ecdsa import SECP256k1, VerifyingKey
    from nacl.signing import VerifyKey

    plain = hashlib.sha3_256(b"APTOS::RawTransaction").digest()
    with_data = hashlib.sha3_256(b"APTOS::RawTransactionWithData").digest()
    prefix = hashlib.sha3_256(b"APTOS::Transaction").digest()

    def verify(scheme: str, public_key: bytes, signature: bytes, message: bytes) -> None:
        if scheme == "ed25519":
            VerifyKey(public_key).verify(message, signature)
        else:
            key = VerifyingKey.from_string(public_key, SECP256k1, hashlib.sha3_256)
            assert key.verify(signature, message)

    cases = _committed("transactions.json")["cases"]
    kinds = {case["kind"] for case in cases}
    assert {"ed25519", "multi_ed25519", "multi_agent", "fee_payer"} <= kinds
    for case in cases:
        raw = _hexbytes(case["raw_bcs"])
        message = _hexbytes(case["signing_message"])
        signed = _hexbytes(case["signed_bcs"])
        if case["raw_with_data_bcs"] is None:
            assert message == plain + raw
        else:
            body = _hexbytes(case["raw_with_data_bcs"])
            assert message == with_data + body
            assert body[0] == (1 if case["fee_payer_address"] else 0)
            assert body[1 : 1 + len(raw)] == raw
        assert signed == raw + _hexbytes(case["authenticator_bcs"])
        assert _hexbytes(case["hash"]) == hashlib.sha3_256(prefix + b"\x00" + signed).digest()
        for signer in case["signers"].values():
            if signer["scheme"] in ("ed25519", "secp256k1_ecdsa"):
                verify(
                    signer["scheme"],
                    _hexbytes(signer["public_key"]),
                    _hexbytes(signer["signature"]),
                    message,
                )
                continue
            schemes = signer.get("key_schemes", ["ed25519"] * len(signer["public_keys"]))
            signatures = signer["signatures"]
            assert len(signatures) == len(signer["signer_indices"]) >= signer["threshold"]
            for index, signature in zip(signer["signer_indices"], signatures, strict=True):
                verify(
                    schemes[index],
                    _hexbytes(signer["public_keys"][index]),
                    _hexbytes(signature),
                    message,
                )
