"""The Dask path on a two-worker cluster equals the local extraction."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from conftest import VERSIONS
from distributed import Client, LocalCluster

from ledgerkit.extract import extract_transactions, transactions_dask
from ledgerkit.extract._convert import empty_frame
from ledgerkit.localnet import LocalNode


def test_the_dask_frame_equals_the_parquet_dataset(node: LocalNode, tmp_path: Path) -> None:
    extract_transactions(node.url, tmp_path, start=0, stop=VERSIONS, partition_size=200)
    local = pd.read_parquet(tmp_path / "transactions")

    lazy = transactions_dask(node.url, 0, VERSIONS, partition_size=200)
    assert lazy.npartitions == 5
    pd.testing.assert_frame_equal(lazy._meta, empty_frame("transactions"))
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            protocol="tcp",
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(computed, local)
