"""Frames of the answers nodes send without ``type``: a simulation's user transactions and
a submission's pending one (the aptos-core goldens of ``tests/models/untagged/``), given as
the bytes the node sent, as text or as parsed JSON; each row is what the golden says."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest
from untagged_answers import GOLDENS, SIMULATED, U64_MAX, Simulated, golden, pending

from ledgerkit import DecodingError
from ledgerkit.frames import TRANSACTION_COLUMNS, transactions_to_frame
from ledgerkit.models import decode_transactions

FORMS = {
    "bytes": lambda body: body,
    "bytearray": bytearray,
    "memoryview": memoryview,
    "str": lambda body: body.decode(),
    "parsed JSON": json.loads,
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", SIMULATED, ids=lambda case: case.name)
def test_a_simulation_golden_becomes_its_frame(case: Simulated, form: str) -> None:
    body = golden(case.name)

    frame = transactions_to_frame(FORMS[form](body))

    assert list(frame.columns) == list(TRANSACTION_COLUMNS)
    [row] = frame.to_dict("records")
    assert row["type"] == "user_transaction"
    assert row["version"] == case.version
    assert row["hash"] == ""  # blanked by the harness that wrote the golden
    assert row["sender"] == "0x" + case.sender[2:].rjust(64, "0")  # in long form
    assert row["sequence_number"] == case.sequence_number
    assert row["replay_protection_nonce"] == case.replay_protection_nonce
    assert row["success"] is False
    assert row["vm_status"] == case.vm_status
    assert row["gas_used"] == case.gas_used
    assert (row["gas_unit_price"], row["max_gas_amount"]) == (0, 100000000)
    assert row["expiration_timestamp_secs"] == case.expiration_timestamp_secs
    assert row["timestamp"] == pd.Timestamp(case.timestamp, unit="us", tz="UTC")
    assert row["payload_type"] == "entry_function_payload"
    assert row["function"] == case.function
    assert row["signature_kind"] == "ed25519"
    assert (row["event_count"], row["change_count"]) == (1, case.changes)


@pytest.mark.parametrize("case", SIMULATED, ids=lambda case: case.name)
def test_a_simulation_frame_is_the_frame_of_the_decoded_records(case: Simulated) -> None:
    body = golden(case.name)

    pd.testing.assert_frame_equal(
        transactions_to_frame(body), transactions_to_frame(decode_transactions(body))
    )


def test_a_golden_the_decoder_refuses_is_refused_by_the_frame_too() -> None:
    # As written by the harness, an orderless simulation's table item has {"data": null}
    # for data: the decoder refuses it, and so does the frame, saying where.
    raw = (GOLDENS / "simulation_failure_with_detail_error_orderless.json").read_bytes()
    with pytest.raises(DecodingError, match=r"\$\[0\]\.changes\[0\]\.data"):
        decode_transactions(raw)
    with pytest.raises(DecodingError, match=r"\$\[0\]\.changes\[0\]\.data"):
        transactions_to_frame(raw)


SUBMITTED = [
    ("post_bcs_format_transaction", 0, None, "0x1::aptos_account::create_account"),
    ("post_bcs_format_transaction_payload_v2", 0, None, "0x1::aptos_account::create_account"),
    (
        "post_bcs_format_transaction_orderless",
        U64_MAX,
        14488165282383183438,
        "0x1::velor_account::create_account",
    ),
]


def _wrapped(body: bytes) -> bytes:
    return b"[" + body + b"]"


SUBMIT_FORMS = {
    "one object": lambda body: body,
    "one object as text": lambda body: body.decode(),
    "a list": _wrapped,
    "a parsed list": lambda body: json.loads(_wrapped(body)),
}


@pytest.mark.parametrize("form", SUBMIT_FORMS)
@pytest.mark.parametrize(("name", "sequence", "nonce", "function"), SUBMITTED)
def test_a_submission_golden_becomes_a_pending_row(
    name: str, sequence: int, nonce: int | None, function: str, form: str
) -> None:
    body = golden(name)

    [row] = transactions_to_frame(SUBMIT_FORMS[form](body)).to_dict("records")

    assert row["type"] == "pending_transaction"
    assert pd.isna(row["version"])  # not committed
    assert row["hash"] == ""
    assert row["sender"] == "0x" + "0" * 57 + "a550c18"  # 0xa550c18 in long form
    assert row["sequence_number"] == sequence
    assert row["replay_protection_nonce"] == nonce
    assert [pd.isna(row[name]) for name in ("success", "vm_status", "gas_used")] == [True] * 3
    assert (row["max_gas_amount"], row["gas_unit_price"]) == (100000000, 0)
    assert row["expiration_timestamp_secs"] == 60
    assert row["function"] == function
    assert (row["event_count"], row["change_count"]) == (0, 0)


def test_an_untagged_submission_beside_tagged_reads_keeps_its_exact_integers() -> None:
    untagged = pending(sender="0x7")
    tagged = {**untagged, "type": "pending_transaction", "hash": "0x" + "cd" * 32}
    body = json.dumps([untagged, tagged]).encode()

    frame = transactions_to_frame(body)

    assert frame["type"].tolist() == ["pending_transaction", "pending_transaction"]
    assert frame["hash"].tolist() == ["0x" + "ab" * 32, "0x" + "cd" * 32]
    assert frame["sequence_number"].tolist() == [9007199254740993, 9007199254740993]
    assert frame["expiration_timestamp_secs"].tolist() == [U64_MAX, U64_MAX]
    assert frame["sender"].tolist() == ["0x" + "0" * 63 + "7"] * 2
    pd.testing.assert_frame_equal(frame, transactions_to_frame(decode_transactions(body)))


@pytest.mark.parametrize(
    "item",
    [
        {"sender": "0x1"},  # neither pending (no hash) nor a user transaction (no version)
        {"hash": "0x1", "sender": "0x1", "sequence_number": "-1"},
    ],
)
def test_an_untagged_item_that_is_no_transaction_is_refused(item: dict[str, Any]) -> None:
    body = json.dumps([item]).encode()
    with pytest.raises(DecodingError):
        decode_transactions(body)
    with pytest.raises(DecodingError, match=r"list\[Transaction\]"):
        transactions_to_frame(body)
