"""A list given to a converter, whatever it holds (records only, rows only, records mixed
with client results, rows or raw JSON), gives the frame its records give, with the
values written out; a wrong item among good ones is refused at its position."""

from __future__ import annotations

import json
from typing import Any, Final

import pandas as pd
import pytest

from ledgerkit import InputError, frames
from ledgerkit.models import (
    Block,
    decode_block,
    decode_transaction_rows,
    decode_transactions,
)
from ledgerkit.types import LedgerMeta, Result

META: Final = LedgerMeta(
    chain_id=4,
    ledger_version=40,
    oldest_ledger_version=0,
    ledger_timestamp_usec=1_700_000_100_000_000,
    epoch=2,
    block_height=9,
    oldest_block_height=0,
)
SENDER: Final = "0x" + "a1" * 32
PAYER_LONG: Final = "0x" + "0" * 62 + "fe"
SIGNER_LONG: Final = "0x" + "0" * 63 + "c"
PROPOSER_LONG: Final = "0x" + "0" * 63 + "d"
ED25519: Final = {
    "type": "ed25519_signature",
    "public_key": "0x" + "11" * 32,
    "signature": "0x" + "22" * 64,
}
FEE_PAYER: Final = {
    "type": "fee_payer_signature",
    "sender": ED25519,
    "secondary_signer_addresses": ["0xc"],
    "secondary_signers": [ED25519],
    "fee_payer_address": "0xfe",
    "fee_payer_signer": ED25519,
}
WITHDRAW: Final = {
    "guid": {"creation_number": "2", "account_address": SENDER},
    "sequence_number": "6",
    "type": "0x1::coin::WithdrawEvent",
    "data": {"amount": "5"},
}


def _committed(version: int, kind: str) -> dict[str, Any]:
    return {
        "version": str(version),
        "hash": f"0x{version:064x}",
        "state_change_hash": "0x" + "01" * 32,
        "event_root_hash": "0x" + "02" * 32,
        "state_checkpoint_hash": None,
        "gas_used": "0" if kind == "block_metadata_transaction" else str(version),
        "success": True,
        "vm_status": "Executed successfully",
        "accumulator_root_hash": "0x" + "03" * 32,
        "changes": [],
        "events": [],
        "timestamp": "1700000000000000",
        "type": kind,
    }


def _metadata(version: int) -> dict[str, Any]:
    return _committed(version, "block_metadata_transaction") | {
        "id": "0x" + "0c" * 32,
        "epoch": "2",
        "round": "5",
        "previous_block_votes_bitvec": [],
        "proposer": "0xd",
        "failed_proposer_indices": [],
    }


def _user(version: int, signature: dict[str, Any], events: list[Any]) -> dict[str, Any]:
    return _committed(version, "user_transaction") | {
        "sender": SENDER,
        "sequence_number": str(version - 30),
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1700000060",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [SIGNER_LONG, "5"],
        },
        "signature": signature,
        "events": events,
    }


PAGE: Final = [_metadata(30), _user(31, ED25519, []), _user(32, FEE_PAYER, [WITHDRAW])]
BODY: Final = json.dumps(PAGE).encode()

# The page's frame, column by column (None where a row has no value).
EXPECTED: Final[dict[str, list[Any]]] = {
    "version": [30, 31, 32],
    "type": ["block_metadata_transaction", "user_transaction", "user_transaction"],
    "sender": [None, SENDER, SENDER],
    "sequence_number": [None, 1, 2],
    "replay_protection_nonce": [None, None, None],
    "fee_payer": [None, None, PAYER_LONG],
    "secondary_signers": [None, None, SIGNER_LONG],
    "signature_kind": [None, "ed25519", "fee_payer"],
    "gas_used": [0, 31, 32],
    "gas_unit_price": [None, 100, 100],
    "epoch": [2, None, None],
    "round": [5, None, None],
    "proposer": [PROPOSER_LONG, None, None],
    "payload_type": [None, "entry_function_payload", "entry_function_payload"],
    "function": [None, "0x1::aptos_account::transfer", "0x1::aptos_account::transfer"],
    "event_count": [0, 0, 1],
    "change_count": [0, 0, 0],
}
EXPECTED_CATEGORIES: Final = {
    "type": ["block_metadata_transaction", "user_transaction"],
    "sender": [SENDER],
    "fee_payer": [PAYER_LONG],
    "signature_kind": ["ed25519", "fee_payer"],
    "proposer": [PROPOSER_LONG],
}


def _plain(frame: pd.DataFrame, name: str) -> list[Any]:
    return [None if pd.isna(value) else value for value in frame[name].tolist()]


def _check(frame: pd.DataFrame) -> None:
    assert list(frame.columns) == list(frames.TRANSACTION_COLUMNS)
    assert frames.schema_of(frame) == frames.schema_of(
        frames.empty_frame(frames.TRANSACTION_COLUMNS)
    )
    for name, values in EXPECTED.items():
        assert _plain(frame, name) == values, name
    for name, categories in EXPECTED_CATEGORIES.items():
        assert list(frame[name].cat.categories) == categories, name


def _lists() -> dict[str, list[Any]]:
    """The page as every kind of list a caller may hand over."""
    records = decode_transactions(BODY)
    rows = decode_transaction_rows(BODY)
    return {
        "records": records,
        "rows": rows,
        "rows and records": [rows[0], records[1], rows[2]],
        "records and results": [
            Result([records[0]], META),
            records[1],
            Result(records[2], META),
        ],
        "results only": [Result(records[:2], META), Result(records[2], META)],
        "records and raw json": [records[0], PAGE[1], records[2]],
        "one result of a list": [Result(records, META)],
    }


@pytest.mark.parametrize("kind", sorted(_lists()))
def test_every_list_gives_the_frame_written_out(kind: str) -> None:
    frame = frames.transactions_to_frame(_lists()[kind])
    _check(frame)
    pd.testing.assert_frame_equal(frame, frames.transactions_to_frame(BODY))


# Rows hold what the transactions frame shows: the other converters take records.
RECORD_LISTS: Final = sorted(kind for kind in _lists() if "rows" not in kind)


@pytest.mark.parametrize("kind", RECORD_LISTS)
@pytest.mark.parametrize(
    "convert", [frames.payloads_to_frame, frames.events_to_frame, frames.changes_to_frame]
)
def test_the_other_transaction_converters_read_every_list_alike(kind: str, convert: Any) -> None:
    pd.testing.assert_frame_equal(convert(_lists()[kind]), convert(decode_transactions(BODY)))


def test_events_of_a_list_of_records_written_out() -> None:
    lists = _lists()
    for kind in ("records", "records and results", "records and raw json"):
        events = frames.events_to_frame(lists[kind])
        assert events["version"].tolist() == [32], kind
        assert events["event_index"].tolist() == [0], kind
        assert events["creation_number"].tolist() == [2], kind
        assert events["account_address"].tolist() == [SENDER], kind
        assert events["sequence_number"].tolist() == [6], kind
        assert events["type"].tolist() == ["0x1::coin::WithdrawEvent"], kind
        assert events["data"].tolist() == ['{"amount":"5"}'], kind


def _block(height: int) -> Block:
    first = 30 + 3 * height
    body = {
        "block_height": str(height),
        "block_hash": f"0x{height + 100:064x}",
        "block_timestamp": str(1_700_000_000_000_000 + height),
        "first_version": str(first),
        "last_version": str(first + 2),
        "transactions": None,
    }
    return decode_block(json.dumps(body).encode())


def test_blocks_alone_or_among_results_give_the_same_frame() -> None:
    blocks = [_block(height) for height in range(3)]
    alone = frames.blocks_to_frame(blocks)
    mixed = frames.blocks_to_frame([blocks[0], Result(blocks[1], META), blocks[2]])
    pd.testing.assert_frame_equal(alone, mixed)
    assert alone["block_height"].tolist() == [0, 1, 2]
    assert alone["first_version"].tolist() == [30, 33, 36]
    assert alone["last_version"].tolist() == [32, 35, 38]
    assert alone["transaction_count"].tolist() == [3, 3, 3]
    assert alone["block_id"].isna().all()


@pytest.mark.parametrize("bad", [5, "0x1", None, {1, 2}])
def test_a_wrong_item_among_records_is_refused_at_its_position(bad: Any) -> None:
    records = decode_transactions(BODY)
    rows = decode_transaction_rows(BODY)
    for good in (records, rows):
        with pytest.raises(InputError, match=r"transactions_to_frame expects .* at position 1"):
            frames.transactions_to_frame([good[0], bad, good[2]])
    with pytest.raises(InputError, match=r"events_to_frame expects .* at position 2"):
        frames.events_to_frame([records[0], records[1], bad])
    with pytest.raises(InputError, match=r"blocks_to_frame expects .* at position 1"):
        frames.blocks_to_frame([_block(0), bad])


def test_a_record_of_another_kind_among_records_is_refused() -> None:
    records = decode_transactions(BODY)
    with pytest.raises(InputError, match=r"transactions_to_frame expects .* at position 0"):
        frames.transactions_to_frame([_block(0), *records])
    with pytest.raises(InputError, match=r"blocks_to_frame expects .* at position 1"):
        frames.blocks_to_frame([_block(0), records[0]])


def test_the_list_handed_over_is_left_as_it_was() -> None:
    rows = decode_transaction_rows(BODY)
    records = decode_transactions(BODY)
    kept_rows, kept_records = list(rows), list(records)
    frames.transactions_to_frame(rows)
    frames.transactions_to_frame(records)
    frames.events_to_frame(records)
    assert rows == kept_rows
    assert records == kept_records
