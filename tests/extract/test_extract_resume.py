"""Resume: an interrupted run, resumed, gives the dataset an uninterrupted run gives, and
fetches only what was missing; a finished run fetches nothing; chains never mix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx
import pandas as pd
import pytest
from extract_helpers import VERSIONS, FaultyTransport, invalid_input

import ledgerkit
from ledgerkit.extract import MANIFEST, extract_transactions, read_manifest
from ledgerkit.localnet import LocalNode

SIZE = 100  # one page per partition, so page requests count partitions


def _run(node: LocalNode, out: Path, transport: FaultyTransport, **options: object) -> object:
    return extract_transactions(
        node.url,
        out,
        start=0,
        stop=VERSIONS,
        partition_size=SIZE,
        concurrency=2,
        progress=False,
        transport=transport,
        **options,  # type: ignore[arg-type]
    )


def _hashes(out: Path) -> dict[str, str]:
    manifest = read_manifest(out)
    assert manifest is not None
    return {p["file"]: p["sha256"] for p in manifest["partitions"]}


def test_an_interrupted_run_resumes_to_the_same_dataset(node: LocalNode, tmp_path: Path) -> None:
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    _run(node, whole, FaultyTransport())

    def fail_after_four(request: httpx.Request, number: int) -> httpx.Response | None:
        return invalid_input(request) if number > 4 else None

    with pytest.raises(ledgerkit.InvalidInputError):
        _run(node, broken, FaultyTransport(after=fail_after_four))
    done = _hashes(broken)
    assert 1 <= len(done) <= 4
    assert not list((broken / "transactions").glob(".*"))  # no temporary file left behind

    counting = FaultyTransport()
    summary = _run(node, broken, counting)
    # ceil(914 / 100) = 10 partitions: only the missing ones were fetched.
    assert counting.pages == 10 - len(done)
    assert summary.skipped == len(done)  # type: ignore[attr-defined]

    assert _hashes(broken) == _hashes(whole)
    for name, sha in _hashes(whole).items():
        assert (broken / name).read_bytes() == (whole / name).read_bytes(), sha
    pd.testing.assert_frame_equal(
        pd.read_parquet(broken / "transactions"), pd.read_parquet(whole / "transactions")
    )


def test_a_finished_run_fetches_nothing(node: LocalNode, tmp_path: Path) -> None:
    _run(node, tmp_path, FaultyTransport())
    before = (tmp_path / MANIFEST).read_text()
    again = FaultyTransport()
    summary = _run(node, tmp_path, again)
    assert again.pages == 0
    assert summary.written == 0  # type: ignore[attr-defined]
    assert read_manifest(tmp_path)["partitions"] == json.loads(before)["partitions"]  # type: ignore[index]


def test_a_damaged_partition_is_fetched_again(node: LocalNode, tmp_path: Path) -> None:
    _run(node, tmp_path, FaultyTransport())
    good = _hashes(tmp_path)
    victim = sorted(good)[3]
    (tmp_path / victim).write_bytes(b"not parquet")
    counting = FaultyTransport()
    _run(node, tmp_path, counting)
    assert counting.pages == 1
    assert _hashes(tmp_path) == good


def test_the_manifest_records_each_partition(node: LocalNode, tmp_path: Path) -> None:
    _run(node, tmp_path, FaultyTransport())
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["kind"] == "transactions"
    assert manifest["chain_id"] == 4
    assert manifest["range"] == [0, VERSIONS]
    assert manifest["partition_size"] == SIZE
    assert manifest["schema_version"] == ledgerkit.extract.SCHEMA_VERSION
    first, last = manifest["partitions"][0], manifest["partitions"][-1]
    assert first["file"] == "transactions/part-000000000000-000000000099.parquet"
    assert last["file"] == "transactions/part-000000000900-000000000913.parquet"
    assert (last["first"], last["stop"], last["rows"]) == (900, VERSIONS, 14)  # 914 - 900
    assert last["written_at_ledger_version"] >= VERSIONS - 1
    assert len(last["sha256"]) == 64


def test_another_chain_is_refused(node: LocalNode, tmp_path: Path) -> None:
    _run(node, tmp_path, FaultyTransport())
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["chain_id"] = 1
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    counting = FaultyTransport()
    with pytest.raises(ledgerkit.ChainMismatchError, match="chain 1"):
        _run(node, tmp_path, counting)
    assert counting.pages == 0


def test_another_partition_size_is_refused(node: LocalNode, tmp_path: Path) -> None:
    _run(node, tmp_path, FaultyTransport())
    with pytest.raises(ledgerkit.DatasetMismatchError, match="partition_size"):
        extract_transactions(node.url, tmp_path, start=0, stop=50, partition_size=7)
    shutil.rmtree(tmp_path / "transactions")
    with pytest.raises(ledgerkit.DatasetMismatchError, match="kind"):
        ledgerkit.extract.extract_blocks(node.url, tmp_path, start=0, stop=5, partition_size=SIZE)
