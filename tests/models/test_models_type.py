"""Every record of a union has its ``type``, the one the node wrote and ``to_dict()``
starts with: transactions, payloads, write sets, signatures (nested ones too) and write
set changes, known variants and unknown ones alike."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import msgspec
import orjson
import pytest
from model_samples import (
    ACCOUNT_SIGNATURES,
    CHANGES,
    PAYLOADS,
    TRANSACTION_SIGNATURES,
    TRANSACTIONS,
    user_transaction,
)

from ledgerkit import models as m


def typed_pairs(sent: Any, record: Any) -> list[tuple[str, Any]]:
    """(the ``type`` the JSON says, the record decoded there), wherever a JSON object with
    a ``type`` became a record, walked side by side."""
    found: list[tuple[str, Any]] = []
    if isinstance(record, msgspec.Struct) and isinstance(sent, dict):
        if "type" in sent and not isinstance(record, m.UnknownVariant | m.Event):
            found.append((sent["type"], record))
        if isinstance(record, m.UnknownVariant):
            found.append((sent["type"], record))
            return found
        for field in msgspec.structs.fields(record):
            found += typed_pairs(sent.get(field.encode_name), getattr(record, field.name))
    elif isinstance(record, list) and isinstance(sent, list):
        for a, b in zip(sent, record, strict=True):
            found += typed_pairs(a, b)
    return found


def check(sent: dict[str, Any], record: Any) -> Counter[str]:
    """Each record's ``type`` is the JSON's and the first key of its ``to_dict()``."""
    kinds: Counter[str] = Counter()
    for written, rec in typed_pairs(sent, record):
        assert rec.type == written, f"{type(rec).__name__}.type is {rec.type!r}, sent {written!r}"
        as_dict = rec.to_dict()
        assert as_dict["type"] == written
        if rec.__struct_config__.tag_field == "type":  # a union's member
            assert next(iter(as_dict)) == "type"
            kinds[written] += 1
    return kinds


def test_a_user_transaction_says_what_it_is_at_every_level() -> None:
    txn = m.decode_transaction(orjson.dumps(user_transaction()))
    assert isinstance(txn, m.UserTransaction)
    assert txn.type == "user_transaction"
    assert txn.payload.type == "entry_function_payload"
    assert txn.signature is not None
    assert txn.signature.type == "ed25519_signature"
    assert [c.type for c in txn.changes] == [tag.split("/")[0] for tag, _, _ in CHANGES]


@pytest.mark.parametrize(("name", "body"), [(n, b) for n, b, _ in TRANSACTIONS])
def test_every_transaction_kind(name: str, body: dict[str, Any]) -> None:
    record = m.decode(orjson.dumps(body), m.PendingTransaction | m.Transaction)
    kinds = check(body, record)
    assert kinds[name.split("/")[0]] == 1
    assert record.type == name.split("/")[0]


@pytest.mark.parametrize(("name", "body"), [(n, b) for n, b, _ in PAYLOADS])
def test_every_payload(name: str, body: dict[str, Any]) -> None:
    sent = user_transaction(payload=body)
    txn = m.decode_transaction(orjson.dumps(sent))
    assert isinstance(txn, m.UserTransaction)
    assert txn.payload.type == name.split("/")[0]
    check(sent, txn)


@pytest.mark.parametrize(
    ("name", "body"),
    [(n, b) for n, b, _ in TRANSACTION_SIGNATURES] + [(n, b) for n, b, _ in ACCOUNT_SIGNATURES],
)
def test_every_signature_nested_ones_too(name: str, body: dict[str, Any]) -> None:
    sent = user_transaction(signature=body)
    txn = m.decode_transaction(orjson.dumps(sent))
    assert isinstance(txn, m.UserTransaction)
    assert txn.signature is not None
    assert txn.signature.type == name.split("/")[0]
    check(sent, txn)


def test_multi_agent_and_fee_payer_signers_have_their_types() -> None:
    fee_payer = {n: b for n, b, _ in TRANSACTION_SIGNATURES}["fee_payer_signature"]
    txn = m.decode_transaction(orjson.dumps(user_transaction(signature=fee_payer)))
    assert isinstance(txn, m.UserTransaction)
    signature = txn.signature
    assert isinstance(signature, m.FeePayerSignature)
    assert signature.sender.type == "single_key_signature"
    assert [s.type for s in signature.secondary_signers] == ["abstract_signature"]
    assert signature.fee_payer_signer.type == "multi_ed25519_signature"


def test_a_variant_this_version_does_not_know_keeps_the_nodes_type() -> None:
    sent = {**user_transaction(), "type": "quantum_transaction"}
    txn = m.decode_transaction(orjson.dumps(sent))
    assert isinstance(txn, m.UnknownTransaction)
    assert txn.type == "quantum_transaction"
    payload = {"type": "hologram_payload", "data": "0x00"}
    known = m.decode_transaction(orjson.dumps(user_transaction(payload=payload)))
    assert isinstance(known, m.UserTransaction)
    assert known.payload.type == "hologram_payload"


def test_every_record_of_the_chain(http: httpx.Client) -> None:
    latest = int(http.get("/").json()["ledger_version"])
    kinds: Counter[str] = Counter()
    for start in range(0, latest + 1, 100):
        body = http.get("/transactions", params={"start": start, "limit": 100}).content
        for sent, txn in zip(orjson.loads(body), m.decode_transactions(body), strict=True):
            kinds += check(sent, txn)
    assert kinds["genesis_transaction"] == 1
    assert kinds["block_metadata_transaction"] == kinds["block_epilogue_transaction"] == 40
    for kind in ("user_transaction", "entry_function_payload", "ed25519_signature"):
        assert kinds[kind] > 100
    assert kinds["write_resource"] > 100
    assert kinds["write_table_item"] > 0
    assert kinds["direct_write_set"] == kinds["write_set_payload"] == 1
