"""Every converter: empty input gives the columns and dtypes of a full one, and a
frame's dtypes come back from Parquet unchanged."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ledgerkit import frames
from ledgerkit.models import GasEstimate, MoveResource

HASH = "0x" + "cd" * 32


def transaction() -> dict[str, Any]:
    return {
        "type": "user_transaction",
        "version": "5",
        "hash": HASH,
        "state_change_hash": HASH,
        "event_root_hash": HASH,
        "accumulator_root_hash": HASH,
        "gas_used": "10",
        "success": False,
        "vm_status": "Out of gas",
        "changes": [
            {
                "type": "write_resource",
                "address": "0x1",
                "state_key_hash": HASH,
                "data": {
                    "type": "0x1::m::R",
                    "data": {"n": "340282366920938463463374607431768211455"},
                },
            },
            {
                "type": "write_table_item",
                "state_key_hash": HASH,
                "handle": "0x2",
                "key": "0x01",
                "value": "0x02",
            },
        ],
        "sender": "0xa",
        "sequence_number": "0",
        "max_gas_amount": "100",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::coin::transfer",
            "type_arguments": ["0x1::aptos_coin::AptosCoin"],
            "arguments": ["0x3", "18446744073709551615"],
        },
        "events": [
            {
                "guid": {"creation_number": "0", "account_address": "0x0"},
                "sequence_number": "0",
                "type": "0x1::fungible_asset::Deposit",
                "data": {"store": "0xb", "amount": "18446744073709551615"},
            }
        ],
        "timestamp": "1704067200502659",
    }


BLOCK = {
    "block_height": "3",
    "block_hash": HASH,
    "block_timestamp": "1704067200502659",
    "first_version": "4",
    "last_version": "9",
}

MODULE = {
    "bytecode": "0xa11ceb0b07",
    "abi": {
        "address": "0x1",
        "name": "m",
        "friends": [],
        "exposed_functions": [
            {
                "name": "f",
                "visibility": "public",
                "is_entry": True,
                "is_view": False,
                "generic_type_params": [{"constraints": ["copy"]}],
                "params": ["&signer", "u64"],
                "return": [],
            }
        ],
        "structs": [
            {
                "name": "R",
                "is_native": False,
                "is_event": False,
                "is_enum": True,
                "abilities": ["key"],
                "generic_type_params": [],
                "fields": [],
                "variants": [{"name": "A", "fields": [{"name": "x", "type": "u128"}]}],
            }
        ],
    },
}

SUMMARIES: list[dict[str, Any]] = [
    {
        "sender": "0x" + "ab" * 32,
        "version": str(2**64 - 1),
        "transaction_hash": "0x" + "cd" * 32,
        "replay_protector": {"type": "sequence_number", "value": "4"},
    },
    {
        "sender": "0x" + "ab" * 32,
        "version": "9",
        "transaction_hash": "0x" + "ef" * 32,
        "replay_protector": {"type": "nonce", "value": str(2**64 - 1)},
    },
]

CONVERTERS: dict[str, tuple[Callable[[list[Any]], pd.DataFrame], list[Any]]] = {
    "transactions": (frames.transactions_to_frame, [transaction()]),
    "transactions_roots": (
        lambda r: frames.transactions_to_frame(r, roots=True),
        [transaction()],
    ),
    "payloads": (frames.payloads_to_frame, [transaction()]),
    "events": (frames.events_to_frame, [transaction()]),
    "changes": (frames.changes_to_frame, [transaction()]),
    "blocks": (frames.blocks_to_frame, [BLOCK]),
    "resources": (
        lambda r: frames.resources_to_frame(r, address="0x1", version=3),
        [MoveResource(type="0x1::m::R<u8>", data={"n": "1"})],
    ),
    "balances": (lambda r: frames.balances_to_frame(r, version=3), [("0x1", "0xa", 2**64 - 1)]),
    "gas": (frames.gas_estimates_to_frame, [(1, GasEstimate(gas_estimate=100))]),
    "summaries": (frames.transaction_summaries_to_frame, SUMMARIES),
    "view": (
        lambda r: frames.view_results_to_frame(r, names=["a", "b"], types=["u256", "address"]),
        [[str(2**256 - 1), "0x1"]],
    ),
    "modules": (frames.modules_to_frame, [MODULE]),
    "functions": (frames.functions_to_frame, [MODULE]),
    "structs": (frames.structs_to_frame, [MODULE]),
    "event_data": (
        lambda r: frames.expand_event_data(
            frames.events_to_frame(r),
            "0x1::fungible_asset::Deposit",
            {"store": "address", "amount": "u64"},
        ),
        [transaction()],
    ),
}


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_empty_input_has_the_schema_of_a_full_one(name: str) -> None:
    convert, records = CONVERTERS[name]
    full = convert(records)
    empty = convert([])
    assert len(full) >= 1
    assert len(empty) == 0
    assert frames.schema_of(empty) == frames.schema_of(full)


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_dtypes_survive_parquet(name: str, tmp_path: Path) -> None:
    convert, records = CONVERTERS[name]
    full = convert(records)
    full.to_parquet(tmp_path / "f.parquet")
    back = pd.read_parquet(tmp_path / "f.parquet")
    assert frames.schema_of(back) == frames.schema_of(full)
    pd.testing.assert_frame_equal(back, full, check_categorical=False)


SCHEMAS = {
    "transactions": frames.TRANSACTION_COLUMNS,
    "payloads": frames.PAYLOAD_COLUMNS,
    "events": frames.EVENT_COLUMNS,
    "changes": frames.CHANGE_COLUMNS,
    "blocks": frames.BLOCK_COLUMNS,
    "resources": frames.RESOURCE_COLUMNS,
    "balances": frames.BALANCE_COLUMNS,
    "gas": frames.GAS_ESTIMATE_COLUMNS,
    "summaries": frames.TRANSACTION_SUMMARY_COLUMNS,
    "modules": frames.MODULE_COLUMNS,
    "functions": frames.FUNCTION_COLUMNS,
    "structs": frames.STRUCT_COLUMNS,
}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_frames_follow_their_schema_constants(name: str) -> None:
    convert, records = CONVERTERS[name]
    assert frames.schema_of(convert(records)) == frames.schema_of(frames.empty_frame(SCHEMAS[name]))


def test_raw_json_and_records_give_the_same_frame() -> None:
    from ledgerkit.models import decode_transactions

    raw = [transaction()]
    records = decode_transactions(pd.io.json.ujson_dumps(raw).encode())
    pd.testing.assert_frame_equal(
        frames.transactions_to_frame(raw), frames.transactions_to_frame(records)
    )


def test_addresses_are_long_and_u64_data_is_typed() -> None:
    data = CONVERTERS["event_data"][0]([transaction()])
    assert data["store"].iloc[0] == "0x" + "0" * 63 + "b"
    assert int(data["amount"].iloc[0]) == 2**64 - 1
    txs = frames.transactions_to_frame([transaction()])
    assert txs["sender"].iloc[0] == "0x" + "0" * 63 + "a"


def test_a_summarys_replay_protector_is_split_into_its_kind_and_number() -> None:
    frame = frames.transaction_summaries_to_frame(SUMMARIES)
    assert frame["version"].tolist() == [2**64 - 1, 9]
    assert frame["transaction_hash"].tolist() == ["0x" + "cd" * 32, "0x" + "ef" * 32]
    assert frame["replay_protector"].astype(str).tolist() == ["sequence_number", "nonce"]
    assert frame["sequence_number"].tolist() == [4, pd.NA]
    assert frame["nonce"].tolist() == [pd.NA, 2**64 - 1]
    assert frames.schema_of(frame) == {
        "version": "UInt64",
        "sender": "string",
        "transaction_hash": "string",
        "replay_protector": "category",
        "sequence_number": "UInt64",
        "nonce": "UInt64",
    }
