"""The datasets read back with pandas, pyarrow.dataset and DuckDB alike."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.dataset as ds
import pytest
from extract_helpers import VERSIONS

from ledgerkit import Client
from ledgerkit.extract import extract_blocks, extract_events, extract_transactions
from ledgerkit.localnet import LocalNode
from ledgerkit.models import BlockEpilogueTransaction, BlockMetadataTransaction


@pytest.fixture(scope="module")
def dataset(node: LocalNode, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("readback")
    extract_transactions(node.url, out, start=0, stop=VERSIONS, partition_size=250, progress=False)
    return out / "transactions"


def test_pandas_reads_every_version_with_exact_dtypes(dataset: Path) -> None:
    frame = pd.read_parquet(dataset)
    assert frame["version"].tolist() == list(range(VERSIONS))
    assert str(frame["version"].dtype) == "UInt64"
    assert str(frame["timestamp"].dtype) == "datetime64[us, UTC]"


def test_pyarrow_dataset_reads_the_same_rows(dataset: Path) -> None:
    table = ds.dataset(dataset, format="parquet").to_table()
    assert table.num_rows == VERSIONS
    assert sorted(table.column("version").to_pylist()) == list(range(VERSIONS))


def test_duckdb_reads_the_same_rows(dataset: Path) -> None:
    low, high, count = duckdb.sql(
        f"select min(version), max(version), count(distinct version) "
        f"from read_parquet('{dataset}/*.parquet')"
    ).fetchall()[0]  # type: ignore[misc]
    assert (low, high, count) == (0, VERSIONS - 1, VERSIONS)
    by_pandas = pd.read_parquet(dataset).groupby("type").size().to_dict()
    by_duckdb = dict(
        duckdb.sql(
            f"select type, count(*) from read_parquet('{dataset}/*.parquet') group by 1"
        ).fetchall()
    )
    assert by_duckdb == by_pandas


def test_blocks_by_height(node: LocalNode, tmp_path: Path) -> None:
    extract_blocks(node.url, tmp_path, start=0, stop=121, partition_size=20, progress=False)
    frame = pd.read_parquet(tmp_path / "blocks")
    assert frame["block_height"].tolist() == list(range(121))
    assert frame["first_version"].iloc[0] == 0
    assert frame["last_version"].iloc[-1] == VERSIONS - 1
    count = duckdb.sql(f"select count(*) from read_parquet('{tmp_path}/blocks/*.parquet')")
    assert count.fetchall()[0] == (121,)


def test_blocks_keep_their_id_and_end_info(node: LocalNode, tmp_path: Path) -> None:
    extract_blocks(node.url, tmp_path, start=0, stop=12, partition_size=5, progress=False)
    frame = pd.read_parquet(tmp_path / "blocks")
    with Client(node.url, cache=False) as client:
        for row in frame.itertuples():
            first = client.transaction_by_version(int(row.first_version)).value
            last = client.transaction_by_version(int(row.last_version)).value
            if isinstance(first, BlockMetadataTransaction):
                assert row.block_id == first.id
            else:
                assert row.block_height == 0  # the genesis
                assert pd.isna(row.block_id)
            if isinstance(last, BlockEpilogueTransaction) and last.block_end_info is not None:
                info = last.block_end_info
                assert row.block_effective_block_gas_units == info.block_effective_block_gas_units
                assert row.block_approx_output_size == info.block_approx_output_size
                assert row.block_gas_limit_reached == info.block_gas_limit_reached
                assert row.block_output_limit_reached == info.block_output_limit_reached
            else:
                assert pd.isna(row.block_approx_output_size)
    assert frame["block_id"].iloc[1:].notna().all()
    assert frame["block_effective_block_gas_units"].iloc[1:].notna().all()


def test_an_event_stream_by_sequence_number(node: LocalNode, tmp_path: Path) -> None:
    # 0x1's stream 2 gets one event per block.
    extract_events(
        node.url, tmp_path, "0x1", 2, start=0, stop=60, partition_size=25, progress=False
    )
    frame = pd.read_parquet(tmp_path / "events")
    assert frame["sequence_number"].tolist() == list(range(60))
    assert frame["event_index"].isna().all()  # a stream's page does not say it
    assert len(list((tmp_path / "events").glob("part-*.parquet"))) == 3
