"""The cache stays within its bound: past it, the least recently used entries go; a file
of an older layout is upgraded in place; the bound is set by environment."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from ledgerkit.client import ChainIdentity
from ledgerkit.client._cache import (
    CACHE_MAX_ENV,
    DEFAULT_MAX_BYTES,
    CachedAnswer,
    ResponseCache,
    max_bytes_from_env,
)

BODY = b"x" * 1000
CHAIN = ChainIdentity(1, "0x" + "11" * 32)
ORIGIN = "https://node.example/v1"


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def _url(n: int) -> str:
    return f"GET https://node.example/v1/transactions/by_version/{n}"


def _put(cache: ResponseCache, n: int, body: bytes = BODY) -> None:
    answer = CachedAnswer(200, {"x-node-chain-id": "1"}, body)
    cache.put(CHAIN, _url(n), "application/json", answer, origin=ORIGIN, upto=n)


def _has(cache: ResponseCache, n: int) -> bool:
    return cache.get(CHAIN, _url(n), "application/json", through=1_000) is not None


def test_the_cache_stays_within_its_bound(tmp_path: Path) -> None:
    clock = Clock()
    cache = ResponseCache(tmp_path / "c.sqlite3", max_bytes=20_000, clock=clock)
    for n in range(100):
        clock.now += 1
        _put(cache, n)
        assert cache.size_bytes <= 20_000
    assert _has(cache, 99)
    assert not _has(cache, 0)
    kept = [n for n in range(100) if _has(cache, n)]
    assert kept == list(range(100 - len(kept), 100))  # the newest, oldest dropped first
    cache.close()


def test_recently_read_entries_outlive_older_ones(tmp_path: Path) -> None:
    clock = Clock()
    cache = ResponseCache(tmp_path / "c.sqlite3", max_bytes=20_000, clock=clock)
    for n in range(15):
        _put(cache, n)
    clock.now += 2 * 3600
    assert _has(cache, 0)  # read: now recently used
    for n in range(15, 21):  # enough to evict once
        clock.now += 1
        _put(cache, n)
    kept = {n for n in range(21) if _has(cache, n)}
    assert {0, *range(15, 21)} <= kept  # the read one and the newer ones
    assert len(kept) < 21  # the ones dropped were written with 0 and not read since
    cache.close()


def test_an_entry_too_big_for_the_bound_is_not_kept(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite3", max_bytes=20_000)
    _put(cache, 1)
    _put(cache, 2, body=b"y" * 19_000)
    assert _has(cache, 1)
    assert not _has(cache, 2)
    cache.close()


def test_a_file_of_an_older_layout_is_upgraded(tmp_path: Path) -> None:
    """Entries written before the key named the chain's genesis cannot say which chain of
    their chain id they are from (a dev chain recreated under it?): they are dropped, and
    the file serves on."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE answers (chain_id INTEGER NOT NULL, url TEXT NOT NULL, "
        "accept TEXT NOT NULL, status INTEGER NOT NULL, headers TEXT NOT NULL, "
        "body BLOB NOT NULL, PRIMARY KEY (chain_id, url, accept)) WITHOUT ROWID"
    )
    db.execute(
        "INSERT INTO answers VALUES (1, ?, 'application/json', 200, '{}', ?)", (_url(7), BODY)
    )
    db.commit()
    db.close()
    cache = ResponseCache(path, max_bytes=50_000)
    assert not _has(cache, 7)
    assert len(cache) == 0
    _put(cache, 8)
    assert _has(cache, 8)
    assert cache.size_bytes == len(BODY) + len('{"x-node-chain-id": "1"}') + len(_url(8))
    cache.close()
    again = ResponseCache(path, max_bytes=50_000)  # the new layout is kept as it is
    assert _has(again, 8)
    again.close()


def test_a_file_of_the_layout_before_history_marks_is_upgraded(tmp_path: Path) -> None:
    """Entries that named their chain's genesis but not the history they depend on may be
    of a chain that parted from this one after its genesis: they are dropped."""
    path = tmp_path / "genesis-only.sqlite3"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE answers (chain_id INTEGER NOT NULL, genesis TEXT NOT NULL, "
        "url TEXT NOT NULL, accept TEXT NOT NULL, status INTEGER NOT NULL, "
        "headers TEXT NOT NULL, body BLOB NOT NULL, used INTEGER NOT NULL DEFAULT 0, "
        "size INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (chain_id, genesis, url, accept)) "
        "WITHOUT ROWID"
    )
    db.execute(
        "INSERT INTO answers VALUES (1, ?, ?, 'application/json', 200, '{}', ?, 0, 10)",
        ("0x" + "11" * 32, _url(7), BODY),
    )
    db.commit()
    db.close()
    cache = ResponseCache(path, max_bytes=50_000)
    assert len(cache) == 0
    _put(cache, 8)
    assert _has(cache, 8)
    cache.close()


def test_the_bound_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv(CACHE_MAX_ENV, raising=False)
    assert max_bytes_from_env() == DEFAULT_MAX_BYTES
    monkeypatch.setenv(CACHE_MAX_ENV, "2.5")
    assert max_bytes_from_env() == 2_500_000
    for bad in ("lots", "0", "-3"):
        monkeypatch.setenv(CACHE_MAX_ENV, bad)
        with caplog.at_level(logging.WARNING, logger="ledgerkit.client"):
            assert max_bytes_from_env() == DEFAULT_MAX_BYTES
        assert CACHE_MAX_ENV in caplog.text
