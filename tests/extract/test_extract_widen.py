"""Growing a dataset: a later run over a wider, shifted or narrower range fetches only what
the dataset lacks and leaves every version in it exactly once, equal to one run over the
whole range."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from extract_helpers import VERSIONS, FaultyTransport

from ledgerkit.extract import extract_transactions, read_manifest
from ledgerkit.localnet import LocalNode

SIZE = 100  # one page per partition, so page requests count partitions


def _run(node: LocalNode, out: Path, start: int, stop: int) -> int:
    """Extract ``[start, stop)`` into ``out``; returns the page requests it made."""
    counting = FaultyTransport()
    extract_transactions(
        node.url,
        out,
        start=start,
        stop=stop,
        partition_size=SIZE,
        concurrency=2,
        progress=False,
        transport=counting,
    )
    return counting.pages


def _versions(out: Path) -> list[int]:
    return [int(v) for v in pd.read_parquet(out / "transactions")["version"]]


def _same_as_one_run(node: LocalNode, out: Path, tmp_path: Path, start: int, stop: int) -> None:
    whole = tmp_path / "whole"
    _run(node, whole, start, stop)
    got = pd.read_parquet(out / "transactions")
    want = pd.read_parquet(whole / "transactions")
    pd.testing.assert_frame_equal(got, want)
    files = sorted(p.name for p in (out / "transactions").iterdir())
    assert files == sorted(p.name for p in (whole / "transactions").iterdir())


def test_widening_to_the_right_replaces_the_short_last_partition(
    node: LocalNode, tmp_path: Path
) -> None:
    out = tmp_path / "grown"
    assert _run(node, out, 0, 450) == 5
    assert "part-000000000400-000000000449.parquet" in {
        p.name for p in (out / "transactions").iterdir()
    }
    # [400, 500) again, and 500..913 in [500, 600) .. [800, 900) and [900, 914): 1 + 5.
    assert _run(node, out, 0, VERSIONS) == 1 + 5
    assert _versions(out) == list(range(VERSIONS))
    _same_as_one_run(node, out, tmp_path, 0, VERSIONS)
    manifest = read_manifest(out)
    assert manifest is not None
    assert manifest["range"] == [0, VERSIONS]
    assert len(manifest["partitions"]) == 10  # ceil(914 / 100)


def test_widening_to_the_left_fetches_only_the_new_part(node: LocalNode, tmp_path: Path) -> None:
    out = tmp_path / "grown"
    assert _run(node, out, 300, 600) == 3
    assert _run(node, out, 0, VERSIONS) == 3 + 4  # 0..299, and 600..913 from 600, 700, 800, 900
    assert _versions(out) == list(range(VERSIONS))
    _same_as_one_run(node, out, tmp_path, 0, VERSIONS)


def test_a_range_inside_the_dataset_fetches_nothing(node: LocalNode, tmp_path: Path) -> None:
    out = tmp_path / "data"
    _run(node, out, 0, VERSIONS)
    assert _run(node, out, 150, 250) == 0
    assert _run(node, out, VERSIONS - 1, VERSIONS) == 0
    assert _versions(out) == list(range(VERSIONS))


def test_a_gap_in_one_partition_is_filled_as_one_file(node: LocalNode, tmp_path: Path) -> None:
    out = tmp_path / "data"
    _run(node, out, 0, 150)
    assert _run(node, out, 170, 300) == 2  # [100, 200) as one file, then [200, 300)
    assert _versions(out) == list(range(300))
    _same_as_one_run(node, out, tmp_path, 0, 300)


def test_leftovers_of_an_interrupted_run_are_swept(node: LocalNode, tmp_path: Path) -> None:
    out = tmp_path / "data"
    _run(node, out, 0, 200)
    folder = out / "transactions"
    (folder / "part-000000000100-000000000149.parquet").write_bytes(b"replaced, not yet deleted")
    (folder / ".part-000000000200-000000000299.parquet.abc.tmp").write_bytes(b"half written")
    assert _run(node, out, 0, 200) == 0
    assert sorted(p.name for p in folder.iterdir()) == [
        "part-000000000000-000000000099.parquet",
        "part-000000000100-000000000199.parquet",
    ]
    assert _versions(out) == list(range(200))
