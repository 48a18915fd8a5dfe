"""One options object for every extraction: ``options=ExtractOptions(...)`` does what the
keyword arguments of the same names do, a keyword overrides it, and a bad value or an
unknown name is an InputError before anything is sent."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from ledgerkit import InputError
from ledgerkit.client import Retry
from ledgerkit.extract import (
    KINDS,
    PARTITION_SIZE,
    ExtractOptions,
    blocks_dask,
    extract_blocks,
    extract_transactions,
    fetch_transactions,
    read_manifest,
    transactions_dask,
)
from ledgerkit.localnet import LocalNode


def test_options_set_the_partitions_of_a_dataset(node: LocalNode, tmp_path: Path) -> None:
    options = ExtractOptions(partition_size=30, concurrency=2, max_rps=500, progress=False)
    summary = extract_transactions(node.url, tmp_path, start=0, stop=100, options=options)
    assert (summary.partitions, summary.rows_written) == (4, 100)
    manifest = read_manifest(tmp_path)
    assert manifest["partition_size"] == 30
    assert [p["file"] for p in manifest["partitions"]][-1] == (
        "transactions/part-000000000090-000000000099.parquet"
    )


def test_a_keyword_overrides_the_options_object(node: LocalNode, tmp_path: Path) -> None:
    options = ExtractOptions(partition_size=30, progress=False)
    summary = extract_blocks(
        node.url, tmp_path, start=0, stop=20, options=options, partition_size=10
    )
    assert summary.partitions == 2
    assert read_manifest(tmp_path)["partition_size"] == 10
    assert options.partition_size == 30  # frozen: the caller's object is unchanged


def test_the_dask_functions_take_the_same_options(node: LocalNode) -> None:
    options = ExtractOptions(partition_size=25)
    assert transactions_dask(node.url, 0, 100, options=options).npartitions == 4
    assert blocks_dask(node.url, 0, 100, options=options, partition_size=50).npartitions == 2
    assert blocks_dask(node.url, 0, 3_001).npartitions == 4  # 1,000 heights by default


def test_fetch_transactions_takes_the_options(node: LocalNode) -> None:
    options = ExtractOptions(concurrency=1, retries=Retry(total=1), timeout=60)
    records = fetch_transactions(node.url, 0, 120, options=options)
    assert [r.version for r in records] == list(range(120))


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("partition_size", 0),
        ("partition_size", 2.5),
        ("concurrency", True),
        ("concurrency", -1),
        ("max_rps", 0),
        ("max_rps", "fast"),
        ("retries", -1),
        ("retries", None),
        ("timeout", -5),
        ("progress", "yes"),
    ],
)
def test_a_bad_option_is_an_input_error_naming_it(name: str, value: Any, tmp_path: Path) -> None:
    with pytest.raises(InputError, match=name):
        ExtractOptions(**{name: value})
    with pytest.raises(InputError, match=name):
        # Refused before the node is asked: the port is closed.
        extract_transactions("http://127.0.0.1:9/v1", tmp_path, start=0, stop=1, **{name: value})
    with pytest.raises(InputError, match=name):
        transactions_dask("http://127.0.0.1:9/v1", 0, 1, **{name: value})


def test_an_unknown_option_is_an_input_error_listing_the_options(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"unknown extraction option.*paritition_size") as caught:
        extract_transactions(
            "http://127.0.0.1:9/v1",
            tmp_path,
            start=0,
            stop=1,
            paritition_size=5,  # type: ignore[call-arg]
        )
    assert "partition_size" in str(caught.value).split("the options are")[1]
    with pytest.raises(InputError, match="unknown extraction option"):
        ExtractOptions().replace(workers=4)


def test_options_must_be_an_options_object(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="options must be an ExtractOptions"):
        extract_transactions(
            "http://127.0.0.1:9/v1",
            tmp_path,
            start=0,
            stop=1,
            options={"partition_size": 5},  # type: ignore[arg-type]
        )


def test_options_are_frozen_and_compare_by_value() -> None:
    options = ExtractOptions(concurrency=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.concurrency = 8  # type: ignore[misc]
    assert options == ExtractOptions(concurrency=4)
    assert options.replace(max_rps=10) == ExtractOptions(concurrency=4, max_rps=10)
    assert ExtractOptions().timeout == 30.0


def test_each_kinds_partition_size_is_public_and_read_only() -> None:
    assert dict(PARTITION_SIZE) == {
        "transactions": 10_000,
        "blocks": 1_000,
        "events": 10_000,
        "transaction_events": 10_000,
        "activity": 10_000,
    }
    assert list(PARTITION_SIZE) == list(KINDS)
    with pytest.raises(TypeError):
        PARTITION_SIZE["blocks"] = 5  # type: ignore[index]
