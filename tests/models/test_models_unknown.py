"""Variants a newer node may send are kept, never dropped and never an error: a new
transaction type, and a new payload, change, write set or signature inside a known
transaction, which stays typed around it."""

from __future__ import annotations

import copy
import json
from typing import Any

import msgspec
import pytest
from model_checks import assert_same_json, round_trip
from model_samples import (
    BLOCK,
    ENTRY_FUNCTION,
    FEE_PAYER,
    GENESIS,
    MULTI_AGENT,
    MULTISIG,
    SINGLE_KEY,
    STATE_CHECKPOINT,
    block_metadata,
    committed,
    user_transaction,
)

from ledgerkit import DecodingError
from ledgerkit import models as m

SHINY: dict[str, Any] = {
    **committed("77"),
    "type": "shiny_new_transaction",
    "sparkle": {"level": "18446744073709551615", "colors": ["0x1", 2]},
}
QUANTUM_PAYLOAD = {"type": "quantum_payload", "qubits": "340282366920938463463374607431768211455"}
NEW_CHANGE = {"type": "write_aggregator_v3", "handle": "0x01", "delta": "-5"}
NEW_SIGNATURE = {"type": "post_quantum_signature", "public_key": "0x01", "proof": "0x02"}


def _page(*items: dict[str, Any]) -> bytes:
    return json.dumps(list(items)).encode()


def test_an_unknown_transaction_type_is_kept_among_known_ones() -> None:
    page = [block_metadata({"type": "v0"}), SHINY, user_transaction(), STATE_CHECKPOINT]
    txns = m.decode_transactions(_page(*page))
    assert [type(t) for t in txns] == [
        m.BlockMetadataTransaction,
        m.UnknownTransaction,
        m.UserTransaction,
        m.StateCheckpointTransaction,
    ]
    shiny = txns[1]
    assert isinstance(shiny, m.UnknownTransaction)
    assert isinstance(shiny, m.UnknownVariant)
    assert shiny.type == "shiny_new_transaction"
    assert shiny.raw == SHINY  # all of it, exactly as sent (strings stay strings)
    assert m.to_builtins(shiny) == SHINY
    assert_same_json(page, m.to_builtins(txns))
    round_trip(txns, list[m.Transaction])
    assert m.decode_transaction(json.dumps(SHINY)) == shiny


def test_an_unknown_payload_leaves_the_rest_of_the_transaction_typed() -> None:
    body = user_transaction(payload=QUANTUM_PAYLOAD)
    [txn] = m.decode_transactions(_page(body))
    assert isinstance(txn, m.UserTransaction)
    assert txn.payload == m.UnknownPayload(type="quantum_payload", raw=QUANTUM_PAYLOAD)
    assert isinstance(txn.signature, m.Ed25519Signature)
    assert isinstance(txn.changes[0], m.WriteResource)
    assert txn.version == 2**53 + 1
    assert txn.events[0].sequence_number == 3
    assert_same_json(body, m.to_builtins(txn))
    round_trip(txn, m.Transaction)


@pytest.mark.parametrize(
    ("where", "build", "read"),
    [
        (
            "a multisig call",
            lambda p: user_transaction(payload={**MULTISIG, "transaction_payload": p}),
            lambda t: t.payload.transaction_payload,
        ),
        (
            "a decrypted payload",
            lambda p: user_transaction(
                payload={
                    "type": "encrypted_transaction_payload",
                    "encrypted_state": "decrypted",
                    "payload_hash": "0x" + "00" * 32,
                    "ciphertext": "0x00",
                    "encryption_epoch": "1",
                    "decrypted_payload": p,
                    "decryption_nonce": "0x00",
                }
            ),
            lambda t: t.payload.decrypted_payload,
        ),
        (
            "a pending transaction",
            lambda p: {**user_transaction(payload=p), "type": "pending_transaction"},
            lambda t: t.payload,
        ),
    ],
)
def test_unknown_payloads_deeper_down(where: str, build: Any, read: Any) -> None:
    body = build(QUANTUM_PAYLOAD)
    txn = m.decode_transaction(json.dumps(body))
    assert read(txn) == m.UnknownPayload(type="quantum_payload", raw=QUANTUM_PAYLOAD), where
    round_trip(txn, m.Transaction)


def test_an_unknown_change_is_kept_in_place() -> None:
    body = user_transaction()
    body["changes"].insert(2, NEW_CHANGE)
    txn = m.decode_transaction(json.dumps(body))
    assert isinstance(txn, m.UserTransaction)
    assert txn.changes[2] == m.UnknownChange(type="write_aggregator_v3", raw=NEW_CHANGE)
    assert isinstance(txn.changes[1], m.DeleteResource)
    assert isinstance(txn.changes[3], m.WriteModule)
    assert_same_json(body, m.to_builtins(txn))
    round_trip(txn, m.Transaction)


def test_an_unknown_write_set_and_change_in_genesis() -> None:
    body = copy.deepcopy(GENESIS)
    body["changes"].append(NEW_CHANGE)
    body["payload"]["write_set"] = {"type": "delta_write_set", "deltas": ["0x01"]}
    txn = m.decode_transaction(json.dumps(body))
    assert isinstance(txn, m.GenesisTransaction)
    assert isinstance(txn.payload, m.WriteSetPayload)
    assert txn.payload.write_set == m.UnknownWriteSet(
        type="delta_write_set", raw={"type": "delta_write_set", "deltas": ["0x01"]}
    )
    assert isinstance(txn.changes[-1], m.UnknownChange)
    round_trip(txn, m.Transaction)
    # A genesis payload of a new kind altogether.
    body["payload"] = {"type": "genesis_v2_payload", "blob": "0x00"}
    again = m.decode_transaction(json.dumps(body))
    assert isinstance(again, m.GenesisTransaction)
    assert isinstance(again.payload, m.UnknownPayload)


def test_an_unknown_transaction_signature() -> None:
    txn = m.decode_transaction(json.dumps(user_transaction(signature=NEW_SIGNATURE)))
    assert isinstance(txn, m.UserTransaction)
    assert txn.signature == m.UnknownSignature(type="post_quantum_signature", raw=NEW_SIGNATURE)
    round_trip(txn, m.Transaction)


def test_unknown_account_signatures_inside_multi_agent_and_fee_payer() -> None:
    multi = {**MULTI_AGENT, "secondary_signers": [SINGLE_KEY, NEW_SIGNATURE]}
    fee = {**FEE_PAYER, "sender": NEW_SIGNATURE, "fee_payer_signer": NEW_SIGNATURE}
    page = [user_transaction(signature=multi), user_transaction(signature=fee)]
    first, second = m.decode_transactions(_page(*page))
    assert isinstance(first, m.UserTransaction)
    assert isinstance(second, m.UserTransaction)
    assert isinstance(first.signature, m.MultiAgentSignature)
    assert isinstance(first.signature.secondary_signers[0], m.SingleKeySignature)
    assert isinstance(first.signature.secondary_signers[1], m.UnknownSignature)
    assert isinstance(second.signature, m.FeePayerSignature)
    assert isinstance(second.signature.sender, m.UnknownSignature)
    assert isinstance(second.signature.fee_payer_signer, m.UnknownSignature)
    assert isinstance(second.signature.secondary_signers[0], m.AbstractSignature)
    assert_same_json(page, m.to_builtins([first, second]))


def test_a_single_sender_of_a_new_shape_is_kept_whole() -> None:
    newer = {"type": "single_sender", "proof": {"type": "zk", "value": "0x00"}, "epoch": "3"}
    txn = m.decode_transaction(json.dumps(user_transaction(signature=newer)))
    assert isinstance(txn, m.UserTransaction)
    assert txn.signature == m.UnknownSignature(type="single_sender", raw=newer)
    mixed = {
        "type": "single_sender",
        "public_key": "0x01",
        "signature": {"type": "ed25519", "value": "0x02"},
    }
    txn = m.decode_transaction(json.dumps(user_transaction(signature=mixed)))
    assert isinstance(txn, m.UserTransaction)
    assert isinstance(txn.signature, m.UnknownSignature)


def test_a_block_keeps_its_unknown_transactions() -> None:
    body = {**BLOCK, "transactions": [*BLOCK["transactions"], SHINY]}
    block = m.decode_block(json.dumps(body))
    assert block.transactions is not None
    assert isinstance(block.transactions[-1], m.UnknownTransaction)
    assert isinstance(block.transactions[0], m.BlockMetadataTransaction)
    assert_same_json(body, m.to_builtins(block))
    round_trip(block, m.Block)


def test_single_unions_decode_unknown_members_directly() -> None:
    assert m.decode(json.dumps(QUANTUM_PAYLOAD), m.TransactionPayload) == m.UnknownPayload(
        type="quantum_payload", raw=QUANTUM_PAYLOAD
    )
    assert isinstance(m.decode(json.dumps(NEW_SIGNATURE), m.AccountSignature), m.UnknownSignature)
    assert isinstance(
        m.decode(json.dumps([NEW_CHANGE]), list[m.WriteSetChange])[0], m.UnknownChange
    )
    assert m.decode(json.dumps(ENTRY_FUNCTION), m.TransactionPayload) == m.decode(
        json.dumps(ENTRY_FUNCTION), m.KnownTransactionPayload
    )


def test_newer_fields_and_kinds_on_known_variants_decode() -> None:
    # A field added to a known variant is ignored; versioned sub-records take new versions.
    extra = {**user_transaction(), "fee_statement": {"storage_fee": "3"}}
    assert isinstance(m.decode_transaction(json.dumps(extra)), m.UserTransaction)
    v9 = block_metadata({"type": "v9", "randomness": "0x01", "aggregate_key": "0x02"})
    txn = m.decode_transaction(json.dumps(v9))
    assert isinstance(txn, m.BlockMetadataTransaction)
    assert txn.block_metadata_extension == m.BlockMetadataExtension(type="v9", randomness="0x01")
    chunky = {
        **committed("8"),
        "type": "validator_transaction",
        "validator_transaction_type": "chunky_d_k_g_result",
        "events": [],
        "timestamp": "1",
        "certified_subtrx": {"epoch": "2", "author": "0x1", "subtrx": "0x00", "signature": {}},
        "encryption_key": "0x0e",
    }
    txn = m.decode_transaction(json.dumps(chunky))
    assert isinstance(txn, m.ValidatorTransaction)
    assert txn.encryption_key == "0x0e"


def test_an_unknown_variant_does_not_hide_an_error_beside_it() -> None:
    body = user_transaction(payload=QUANTUM_PAYLOAD, hash=5)
    with pytest.raises(DecodingError, match=r"\$\[1\]\.hash"):
        m.decode_transactions(_page(SHINY, body))
    body = user_transaction()
    body["changes"].append({"type": "write_resource", "address": "0x1"})  # known, broken
    body["changes"].append(NEW_CHANGE)
    with pytest.raises(DecodingError, match=r"state_key_hash.*\$\.changes\[7\]"):
        m.decode_transaction(json.dumps(body))


def test_union_members_need_a_string_type() -> None:
    for item in ({"version": "1"}, {"type": 5}, None, "user_transaction"):
        with pytest.raises(DecodingError, match="string `type`"):
            m.decode_transactions(_page(STATE_CHECKPOINT, item))  # type: ignore[arg-type]


def test_unknown_records_are_frozen_records_too() -> None:
    unknown = m.decode_transaction(json.dumps(SHINY))
    with pytest.raises(AttributeError):
        unknown.type = "user_transaction"  # type: ignore[misc]
    assert msgspec.structs.asdict(unknown) == {"type": "shiny_new_transaction", "raw": SHINY}
