"""Generated chains are cached: a second ledger of the same options is a copy, each node has
its own, and concurrent creators leave one whole chain in the cache."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.chain import _chain_cache, _generator
from ledgerkit.localnet.ledger import Ledger

CONFIG = NodeConfig(seed=31, blocks=12)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "chains"
    monkeypatch.setenv("LEDGERKIT_CHAIN_CACHE", str(directory))
    return directory


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    order = {"blocks": "height", "transactions": "version", "state": "skey, version"}
    with sqlite3.connect(path) as conn:
        return {
            t: conn.execute(f"SELECT * FROM {t} ORDER BY {o}").fetchall() for t, o in order.items()
        }


def _cached(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir()) if cache.exists() else []


def test_a_second_ledger_of_the_same_options_is_a_copy_of_the_cached_chain(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Ledger.open(tmp_path / "first.sqlite3", CONFIG).close()
    assert len(_cached(cache)) == 1

    def no_generation(*args: object, **kwargs: object) -> None:
        raise AssertionError("the chain was generated again")

    monkeypatch.setattr(_generator, "_generate_blocks", no_generation)
    Ledger.open(tmp_path / "second.sqlite3", CONFIG).close()
    Ledger.open(None, CONFIG).close()
    assert _rows(tmp_path / "second.sqlite3") == _rows(tmp_path / "first.sqlite3")


def test_each_ledger_gets_its_own_copy(cache: Path, tmp_path: Path) -> None:
    first = Ledger.open(tmp_path / "first.sqlite3", CONFIG)
    head = first.meta()
    first.live_tick()  # the first ledger moves on
    assert first.meta().block_height == head.block_height + 1
    first.close()
    second = Ledger.open(tmp_path / "second.sqlite3", CONFIG)
    try:
        assert second.meta() == head
    finally:
        second.close()


def test_the_cache_key_covers_seed_size_and_anchor(cache: Path) -> None:
    for config in (
        CONFIG,
        NodeConfig(seed=32, blocks=12),
        NodeConfig(seed=31, blocks=13),
        NodeConfig(seed=31, blocks=12, anchor="2030-01-01T00:00:00Z"),
    ):
        Ledger.open(None, config).close()
    assert len(_cached(cache)) == 4
    Ledger.open(None, NodeConfig(seed=31, blocks=12, anchor="now")).close()  # always new
    assert len(_cached(cache)) == 4


def test_the_cache_can_be_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CHAIN_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    Ledger.open(None, CONFIG).close()
    assert list(tmp_path.iterdir()) == []


CREATOR = textwrap.dedent(
    """
    import sys
    from ledgerkit.localnet._node_config import NodeConfig
    from ledgerkit.localnet.ledger._node_ledger import Ledger

    ledger = Ledger.open(sys.argv[1], NodeConfig(seed=33, blocks=60))
    print(ledger.meta().ledger_version)
    ledger.close()
    """
)


def test_concurrent_creators_leave_one_whole_chain_in_the_cache(
    cache: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "LEDGERKIT_CHAIN_CACHE": str(cache)}
    paths = [tmp_path / f"node{i}.sqlite3" for i in range(3)]
    creators = [
        subprocess.Popen(
            [sys.executable, "-c", CREATOR, str(path)], env=env, stdout=subprocess.PIPE, text=True
        )
        for path in paths
    ]
    outputs = [creator.communicate(timeout=180)[0] for creator in creators]
    assert [creator.returncode for creator in creators] == [0, 0, 0]
    assert len(set(outputs)) == 1
    assert len(_cached(cache)) == 1  # no half-written file left beside it
    rows = [_rows(path) for path in paths]
    assert rows[0] == rows[1] == rows[2]
    (cached,) = cache.iterdir()
    assert _rows(cached) == rows[0]


def test_the_cache_keeps_the_recently_used_chains_and_sweeps_dead_creators_files(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_chain_cache, "MAX_CACHED_CHAINS", 2)
    cache.mkdir()
    dead = cache / "v2-seed1-whatever.sqlite3.4242.deadbeef.part"
    dead.write_bytes(b"half a chain")
    os.utime(dead, (1_000_000_000, 1_000_000_000))  # left long ago by a killed creator
    fresh = cache / "v2-seed1-whatever.sqlite3.4243.cafebabe.part"
    fresh.write_bytes(b"a creator at work")
    Ledger.open(None, NodeConfig(seed=41, blocks=3)).close()
    (first,) = [name for name in _cached(cache) if name.endswith(".sqlite3")]
    Ledger.open(None, NodeConfig(seed=42, blocks=3)).close()
    Ledger.open(None, NodeConfig(seed=41, blocks=3)).close()  # used again: recent
    Ledger.open(None, NodeConfig(seed=43, blocks=3)).close()
    left = [name for name in _cached(cache) if name.endswith(".sqlite3")]
    assert len(left) == 2
    assert first in left  # seed 41, used after seed 42 was made
    assert not dead.exists()
    assert fresh.exists()


def test_the_cache_key_covers_the_code_that_generates_the_chain() -> None:
    """A chain cached by older code is not taken for the chain of newer code: the key's
    digest reads the generator, the executor, the encodings and the types."""
    files = {path.as_posix() for path in _chain_cache._code_files()}
    assert {
        "localnet/chain/_generator.py",
        "localnet/vm/__init__.py",
        "bcs/__init__.py",
        "tx/__init__.py",
        "types/__init__.py",
        "_errors.py",
    } <= files
    assert "widgets/__init__.py" not in files
    # The SHA-256 of nothing, which a digest of no file at all would be.
    assert _chain_cache._code_digest() != "e3b0c44298fc1c14"
