"""The converters on real data from the embedded node: every transaction type there is,
the documented dtypes, and derivations that agree with plain Python arithmetic."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

import ledgerkit
from ledgerkit import frames
from ledgerkit.models import UserTransaction


@pytest.fixture(scope="module")
def chain() -> Iterator[list[Any]]:
    with ledgerkit.LocalNode(seed=7, blocks=20) as node:
        client = ledgerkit.Client(node.url, cache=False)
        records: list[Any] = []
        while True:
            page = client.transactions(start=len(records), limit=100).value
            records.extend(page)
            if len(page) < 100:
                break
        client.close()
        yield records


def test_every_transaction_type_is_converted(chain: list[Any]) -> None:
    frame = frames.transactions_to_frame(chain)
    assert len(frame) == len(chain)
    assert set(frame["type"]) >= {
        "genesis_transaction",
        "block_metadata_transaction",
        "block_epilogue_transaction",
        "user_transaction",
    }
    assert frames.schema_of(frame) == frames.schema_of(
        frames.empty_frame(frames.TRANSACTION_COLUMNS)
    )
    meta = frame[frame["type"] == "block_metadata_transaction"]
    assert meta["epoch"].notna().all()
    assert meta["proposer"].str.len().eq(66).all()
    users = frame[frame["type"] == "user_transaction"]
    assert users["sender"].str.len().eq(66).all()
    assert users["function"].notna().all()


def test_every_converter_gives_documented_dtypes(chain: list[Any]) -> None:
    cases = {
        "payloads": (frames.payloads_to_frame, frames.PAYLOAD_COLUMNS),
        "events": (frames.events_to_frame, frames.EVENT_COLUMNS),
        "changes": (frames.changes_to_frame, frames.CHANGE_COLUMNS),
    }
    for convert, schema in cases.values():
        frame = convert(chain)
        assert len(frame) > 0
        assert frames.schema_of(frame) == frames.schema_of(frames.empty_frame(schema))


def test_fees_and_aggregates_match_python(chain: list[Any]) -> None:
    frame = frames.transactions_to_frame(chain)
    users = [tx for tx in chain if isinstance(tx, UserTransaction)]
    expected = sum(tx.gas_used * tx.gas_unit_price for tx in users)
    assert int(frame.ledger.fees().sum()) == expected
    blocks = frame.ledger.blocks()
    assert int(blocks["transactions"].sum()) == len(frame)
    assert int(blocks["fees"].sum()) == expected
    per_minute = frame.ledger.by_time("1s")
    assert int(per_minute["fees"].sum()) == expected
    assert per_minute.index.dtype == "datetime64[us, UTC]"
    senders = frame.ledger.senders()
    assert int(senders["transactions"].sum()) == len(users)


def test_deposit_events_expand_to_typed_columns(chain: list[Any]) -> None:
    events = frames.events_to_frame(chain)
    deposits = frames.expand_event_data(
        events, "0x1::fungible_asset::Deposit", {"store": "address", "amount": "u64"}
    )
    assert len(deposits) > 0
    assert deposits["amount"].dtype == "UInt64"
    assert isinstance(deposits["store"].dtype, pd.CategoricalDtype)
    assert deposits["store"].str.len().eq(66).all()
