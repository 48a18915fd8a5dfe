"""The Dask paths on a cluster of two worker processes (so every task is pickled) equal
the local extractions: transactions, blocks and an event stream."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from distributed import Client, LocalCluster
from extract_helpers import VERSIONS

from ledgerkit import IncompleteExtractionError
from ledgerkit.extract import (
    blocks_dask,
    events_dask,
    extract_blocks,
    extract_events,
    extract_transactions,
    transactions_dask,
)
from ledgerkit.extract._convert import empty_frame
from ledgerkit.localnet import LocalNode

HEIGHTS = 121  # 120 blocks after genesis
BLOCK_EVENTS = ("0x1", 2)  # 0x1::block::NewBlockEvent, one a block


@pytest.fixture(scope="module")
def cluster() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            protocol="tcp",
            host="127.0.0.1",
            dashboard_address=None,
        ) as local,
        Client(local) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        yield client


def test_the_dask_frame_equals_the_parquet_dataset(
    node: LocalNode, tmp_path: Path, cluster: Client
) -> None:
    extract_transactions(node.url, tmp_path, start=0, stop=VERSIONS, partition_size=200)
    local = pd.read_parquet(tmp_path / "transactions")

    lazy = transactions_dask(node.url, 0, VERSIONS, partition_size=200)
    assert lazy.npartitions == 5
    pd.testing.assert_frame_equal(lazy._meta, empty_frame("transactions"))
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(computed, local)


def test_blocks_on_dask_equal_the_blocks_dataset(
    node: LocalNode, tmp_path: Path, cluster: Client
) -> None:
    extract_blocks(node.url, tmp_path, start=0, stop=HEIGHTS, partition_size=20, progress=False)
    local = pd.read_parquet(tmp_path / "blocks")

    lazy = blocks_dask(node.url, 0, HEIGHTS, partition_size=20)
    assert lazy.npartitions == 7
    pd.testing.assert_frame_equal(lazy._meta, empty_frame("blocks"))
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(computed, local)
    assert computed["block_height"].tolist() == list(range(HEIGHTS))


def test_events_on_dask_equal_the_events_dataset(
    node: LocalNode, tmp_path: Path, cluster: Client
) -> None:
    address, number = BLOCK_EVENTS
    extract_events(
        node.url, tmp_path, address, number, start=0, stop=50, partition_size=20, progress=False
    )
    local = pd.read_parquet(tmp_path / "events")

    lazy = events_dask(node.url, address, number, 0, 50, partition_size=20)
    assert lazy.npartitions == 3
    pd.testing.assert_frame_equal(lazy._meta, empty_frame("events"))
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(computed, local)
    assert computed["sequence_number"].tolist() == list(range(50))
    assert set(computed["type"]) == {"0x1::block::NewBlockEvent"}


def test_an_event_range_past_the_stream_fails_when_computed(
    node: LocalNode, cluster: Client
) -> None:
    address, number = BLOCK_EVENTS
    lazy = events_dask(node.url, address, number, 0, 10_000, partition_size=5_000)
    with pytest.raises(IncompleteExtractionError, match="events"):
        lazy.compute()
