"""A partition's table built while its pages arrive, a chunk at a time, is the table of
all its records at once: same rows, same categories in order of first appearance, same
Parquet bytes; and the pages reach it in key order, each key once, whatever order and
overlaps the node answers with."""

from __future__ import annotations

import asyncio
import hashlib
import io
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from extract_helpers import VERSIONS, FaultyTransport, as_read_back

from ledgerkit.client import AsyncClient
from ledgerkit.extract import _tables as tables
from ledgerkit.extract import extract, fetch_transactions
from ledgerkit.extract._fetch import fetch_range, transactions_source
from ledgerkit.frames import transactions_to_frame
from ledgerkit.localnet import LocalNode


@pytest.fixture(scope="module")
def records(node: LocalNode) -> list[Any]:
    return fetch_transactions(node.url, 0, VERSIONS, progress=False)


@pytest.fixture(scope="module")
def raw(node: LocalNode) -> list[dict[str, Any]]:
    """The same transactions as the node's JSON, read with a plain HTTP client."""
    pages = (
        httpx.get(f"{node.url}/transactions", params={"start": a, "limit": 100}).json()
        for a in range(0, VERSIONS, 100)
    )
    return [t for page in pages for t in page]


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


@pytest.mark.parametrize("chunk_rows", [1, 7, 100, 333, VERSIONS, 5_000])
@pytest.mark.parametrize("piece", [1, 100, 250])
def test_chunked_table_is_the_table_of_all_records(
    records: list[Any], chunk_rows: int, piece: int
) -> None:
    builder = tables.TableBuilder("transactions", chunk_rows)
    for at in range(0, len(records), piece):
        builder.add(records[at : at + piece])
    assert builder.rows == VERSIONS
    built = builder.finish()
    whole = tables.arrow_table("transactions", records)
    assert built.equals(whole, check_metadata=True)
    assert hashlib.sha256(_parquet_bytes(built)).digest() == (
        hashlib.sha256(_parquet_bytes(whole)).digest()
    )
    # What a reader gets back is the frame of the public converter, categories included.
    back = pq.read_table(io.BytesIO(_parquet_bytes(built))).to_pandas()
    pd.testing.assert_frame_equal(back, as_read_back(transactions_to_frame(records)))


def test_categories_keep_the_order_of_first_appearance_across_chunks(
    records: list[Any], raw: list[dict[str, Any]]
) -> None:
    builder = tables.TableBuilder("transactions", 50)
    builder.add(records)
    frame = builder.finish().to_pandas()
    senders = [t["sender"] for t in raw if t.get("sender") is not None]
    # Written out by hand: the distinct senders in the order they first occur.
    first_seen: list[str] = []
    for sender in senders:
        long = "0x" + str(sender).removeprefix("0x").rjust(64, "0")
        if long not in first_seen:
            first_seen.append(long)
    assert list(frame["sender"].cat.categories) == first_seen
    assert len(first_seen) > 1
    kinds = list(dict.fromkeys(t["type"] for t in raw))
    assert list(frame["type"].cat.categories) == kinds


def test_more_than_127_categories_across_chunks_keep_their_pandas_metadata() -> None:
    # Blocks of hand-made rows: 300 distinct proposers, 100 a chunk, so every chunk alone
    # has int8 codes in pandas' terms and the whole needs int16.
    rows = [
        {
            "version": str(v),
            "hash": "0x" + f"{v:064x}",
            "type": "block_metadata_transaction",
            "success": True,
            "vm_status": "Executed successfully",
            "gas_used": "0",
            "timestamp": str(1_700_000_000_000_000 + v),
            "epoch": "1",
            "round": str(v),
            "proposer": "0x" + f"{v + 1:064x}",
            "events": [],
            "changes": [],
            "state_change_hash": "0x" + "00" * 32,
            "event_root_hash": "0x" + "00" * 32,
            "accumulator_root_hash": "0x" + "00" * 32,
            "id": "0x" + "00" * 32,
            "failed_proposer_indices": [],
            "previous_block_votes_bitvec": [],
        }
        for v in range(300)
    ]
    builder = tables.TableBuilder("transactions", 100)
    for at in range(0, 300, 100):
        builder.add(rows[at : at + 100])
    built = builder.finish()
    assert built.equals(tables.arrow_table("transactions", rows), check_metadata=True)
    assert built.to_pandas()["proposer"].cat.categories.size == 300


def test_a_builder_refuses_an_empty_chunk_size() -> None:
    with pytest.raises(ValueError, match="chunk_rows"):
        tables.TableBuilder("transactions", 0)


def test_pages_reach_the_sink_in_key_order_each_key_once(node: LocalNode) -> None:
    def shuffled_and_repeated(page: list[object]) -> list[object]:
        return list(reversed(page)) + page[:3]  # out of order, three keys twice

    handed: list[list[int]] = []

    async def run() -> list[Any]:
        transport = FaultyTransport(edit=shuffled_and_repeated)
        async with AsyncClient(node.url, cache=False, transport=transport) as client:
            got, _ = await fetch_range(
                client,
                transactions_source(),
                17,
                640,
                sink=lambda page: handed.append([r.version for r in page]),
            )
        return got

    got = asyncio.run(run())
    assert [r.version for r in got] == list(range(17, 640))
    assert [v for page in handed for v in page] == list(range(17, 640))
    assert len(handed) == 7  # pages 17-99, 100-199, ..., 600-639


def test_a_dataset_made_chunk_by_chunk_equals_one_made_whole(
    node: LocalNode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extract("transactions", node.url, tmp_path / "whole", start=0, stop=VERSIONS, progress=False)
    monkeypatch.setattr(tables, "CHUNK_ROWS", 64)
    extract("transactions", node.url, tmp_path / "chunks", start=0, stop=VERSIONS, progress=False)
    files = sorted((tmp_path / "whole" / "transactions").glob("*.parquet"))
    assert files
    for file in files:
        other = tmp_path / "chunks" / "transactions" / file.name
        assert file.read_bytes() == other.read_bytes()
