"""What a new user met in the frames, on the embedded node: one meaning of
``event_index``, blocks framed from what the client returns (block id and end info
kept), block heights without a blocks frame, and docstrings that name real methods."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

import ledgerkit
from ledgerkit import frames
from ledgerkit.charts import block_utilisation
from ledgerkit.models import BlockEpilogueTransaction, BlockMetadataTransaction


@pytest.fixture(scope="module")
def client(make_node: Any) -> Iterator[ledgerkit.Client]:
    # Seed 3: its first blocks commit events to handles of several accounts.
    node = make_node(seed=3, blocks=12)
    with ledgerkit.Client(node.url, cache=False) as client:
        yield client


@pytest.fixture(scope="module")
def records(client: ledgerkit.Client) -> list[Any]:
    head = client.ledger_info().value.ledger_version
    return list(client.transactions(start=0, limit=min(head + 1, 100)).value)


def test_event_index_is_the_index_within_the_transaction_everywhere(
    client: ledgerkit.Client, records: list[Any]
) -> None:
    from_transactions = frames.events_to_frame(records)
    # Per transaction the indexes count 0, 1, 2... in the order of its events.
    for version, group in from_transactions.groupby("version", observed=True):
        (tx,) = [t for t in records if t.version == version]
        assert group["event_index"].tolist() == list(range(len(tx.events)))
    # Every event stream (handle events, not module events) read from the node, framed.
    handles = from_transactions[from_transactions["account_address"] != "0x" + "0" * 64]
    streams = handles[["account_address", "creation_number"]].drop_duplicates()
    assert len(streams) >= 2
    from_streams = frames.events_to_frame(
        [
            event
            for address, number in streams.itertuples(index=False)
            for event in client.events_by_creation_number(address, number, start=0).value
        ]
    )
    assert len(from_streams) >= 2  # a list position would have said 0, 1, ...
    assert from_streams["event_index"].isna().all()  # the node does not say it
    assert str(from_streams["event_index"].dtype) == "UInt32"
    keys = ["version", "account_address", "creation_number", "sequence_number"]
    joined = from_streams.merge(from_transactions, on=keys, suffixes=("_stream", ""))
    assert len(joined) == len(from_streams) == len(handles)
    assert joined["type_stream"].astype(str).tolist() == joined["type"].astype(str).tolist()
    assert joined["event_index"].notna().all()  # read from the transactions, it is known


def test_blocks_frame_of_a_list_of_results_keeps_the_block_id_and_end_info(
    client: ledgerkit.Client,
) -> None:
    results = [client.block_by_height(h, with_transactions=True) for h in range(4)]
    frame = frames.blocks_to_frame(results)
    assert frame["block_height"].tolist() == [0, 1, 2, 3]
    assert frames.schema_of(frame) == frames.schema_of(frames.empty_frame(frames.BLOCK_COLUMNS))
    for row, result in zip(frame.itertuples(), results, strict=True):
        block = result.value
        first, last = block.transactions[0], block.transactions[-1]
        if isinstance(first, BlockMetadataTransaction):
            assert row.block_id == first.id
        else:
            assert row.block_id is pd.NA  # the genesis block has no block metadata
        if isinstance(last, BlockEpilogueTransaction) and last.block_end_info is not None:
            info = last.block_end_info
            assert row.block_gas_limit_reached == info.block_gas_limit_reached
            assert row.block_output_limit_reached == info.block_output_limit_reached
            assert row.block_effective_block_gas_units == info.block_effective_block_gas_units
            assert row.block_approx_output_size == info.block_approx_output_size
        else:
            assert row.block_effective_block_gas_units is pd.NA
    assert frame["block_id"].iloc[1:].str.len().eq(66).all()
    assert frame["block_effective_block_gas_units"].iloc[1:].notna().all()
    # Without their transactions the blocks say neither.
    bare = frames.blocks_to_frame([client.block_by_height(h) for h in range(4)])
    assert bare["block_id"].isna().all()
    assert bare["block_gas_limit_reached"].isna().all()
    pd.testing.assert_frame_equal(bare.iloc[:, :6], frame.iloc[:, :6])


def test_block_utilisation_counts_heights_without_a_blocks_frame(
    client: ledgerkit.Client, records: list[Any]
) -> None:
    txns = frames.transactions_to_frame(records)
    table = block_utilisation(txns)
    heights = table["block_height"].tolist()
    assert heights == list(range(len(table)))
    # The node's own heights for the blocks' first versions.
    for row in table.itertuples():
        block = client.block_by_version(int(row.first_version)).value
        assert block.block_height == row.block_height
        assert block.last_version == row.last_version
    later = block_utilisation(txns[txns["version"] >= 1])
    assert later["block_height"].isna().all()  # no genesis: heights are not counted


def test_docstrings_name_client_methods_that_exist() -> None:
    for converter in (frames.events_to_frame, frames.transactions_to_frame, frames.blocks_to_frame):
        named = re.findall(r"client\.(\w+)\(", converter.__doc__ or "")
        assert named, converter.__name__
        for method in named:
            assert hasattr(ledgerkit.Client, method), f"{converter.__name__}: client.{method}"
