"""A dataset knows its chain by chain id and genesis hash: every local node is chain 4, and
a run on one local chain never adds to a dataset of another. A manifest written before it
recorded the genesis is checked by one of its records, then upgraded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pandas as pd
import pytest

import ledgerkit
from ledgerkit.extract import MANIFEST, extract_blocks, extract_transactions, read_manifest
from ledgerkit.localnet import LocalNode

STOP = 15
SIZE = 5


@pytest.fixture(scope="module")
def chains() -> Iterator[tuple[LocalNode, LocalNode]]:
    """Two local chains of one chain id: seeds 0 and 7."""
    with LocalNode(seed=0, blocks=5) as first, LocalNode(seed=7, blocks=5) as second:
        yield first, second


def _genesis(node: LocalNode) -> str:
    hash_: str = httpx.get(f"{node.url}/transactions/by_version/0", timeout=30).json()["hash"]
    return hash_


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "transactions").glob("*.parquet"))}


def _run(node: LocalNode, root: Path, start: int = 0, stop: int = STOP) -> object:
    return extract_transactions(
        node.url, root, start=start, stop=stop, partition_size=SIZE, progress=False
    )


def test_the_manifest_records_the_genesis_hash(
    chains: tuple[LocalNode, LocalNode], tmp_path: Path
) -> None:
    first, _ = chains
    summary = _run(first, tmp_path)
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["chain_id"] == 4
    assert manifest["genesis_hash"] == _genesis(first)
    assert summary.genesis_hash == _genesis(first)  # type: ignore[attr-defined]


def test_another_chain_of_the_same_chain_id_is_refused(
    chains: tuple[LocalNode, LocalNode], tmp_path: Path
) -> None:
    first, second = chains
    _run(first, tmp_path, 0, 10)
    before = (tmp_path / MANIFEST).read_text(), _files(tmp_path)
    with pytest.raises(ledgerkit.ChainMismatchError, match="another chain") as caught:
        _run(second, tmp_path, 10, STOP)  # would add versions 10..14 of another chain
    assert _genesis(second) in str(caught.value)
    assert ((tmp_path / MANIFEST).read_text(), _files(tmp_path)) == before


def test_a_block_dataset_of_another_chain_is_refused(
    chains: tuple[LocalNode, LocalNode], tmp_path: Path
) -> None:
    first, second = chains
    extract_blocks(first.url, tmp_path, start=0, stop=3, partition_size=2, progress=False)
    with pytest.raises(ledgerkit.ChainMismatchError):
        extract_blocks(second.url, tmp_path, start=3, stop=5, partition_size=2, progress=False)


def _forget_genesis(root: Path) -> None:
    """Make the manifest look like one written before it recorded the genesis."""
    manifest = json.loads((root / MANIFEST).read_text())
    manifest.pop("genesis_hash", None)
    (root / MANIFEST).write_text(json.dumps(manifest))


def test_an_older_manifest_of_this_chain_is_upgraded(
    chains: tuple[LocalNode, LocalNode], tmp_path: Path
) -> None:
    first, _ = chains
    _run(first, tmp_path, 0, 10)
    written = _files(tmp_path)
    _forget_genesis(tmp_path)
    summary = _run(first, tmp_path, 0, STOP)
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["genesis_hash"] == _genesis(first)
    assert summary.skipped == 2  # type: ignore[attr-defined]
    assert {k: v for k, v in _files(tmp_path).items() if k in written} == written
    versions = pd.read_parquet(tmp_path / "transactions")["version"].tolist()
    assert versions == list(range(STOP))


def test_an_older_manifest_of_another_chain_is_refused_by_its_records(
    chains: tuple[LocalNode, LocalNode], tmp_path: Path
) -> None:
    first, second = chains
    _run(first, tmp_path, 0, 10)
    _forget_genesis(tmp_path)
    before = (tmp_path / MANIFEST).read_text(), _files(tmp_path)
    with pytest.raises(ledgerkit.ChainMismatchError, match="version 0 is not the node's"):
        _run(second, tmp_path, 10, STOP)
    assert ((tmp_path / MANIFEST).read_text(), _files(tmp_path)) == before
