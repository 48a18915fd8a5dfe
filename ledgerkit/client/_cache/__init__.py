"""The persistent answer cache: one SQLite file of answers that can never change, and
(``_history``) the history marks that tell which history of a chain its answers are of.

Why SQLite (the standard library's ``sqlite3``): it needs no extra dependency, every write
is atomic (a crash never leaves half an answer), several notebooks and processes can
share one file safely (WAL mode, a busy timeout), and a key look-up is an index probe,
so a re-run notebook reads thousands of transactions back in milliseconds.

What may be stored is decided by the client's core (``_base``), never here: this module
only keeps bytes under a key. An entry is the status, the ledger headers and the body of
an answer, keyed by (chain id, genesis hash, normalized URL plus a digest of any request
body, Accept): the chain id and the genesis hash together name the chain
(:class:`~ledgerkit.client.ChainIdentity`), so a chain recreated under the same chain id
never meets the answers of the one before it; history marks (below) tell two chains of
one genesis apart.

The file is bounded: past ``$LEDGERKIT_CACHE_MAX_MB`` megabytes of entries (1024 unless
set), the least recently used entries go until it is back under 80% of that. "Used" is
kept to the hour, so that reading an entry seldom costs a write.

**Which chain a node serves.** Its chain id and the hash of its genesis transaction.

A chain id alone does not name a chain: every local node is chain 4, and a dev chain is
recreated at will under the same id. The genesis transaction (version 0) is different for
each chain made (its hash covers the chain's accounts and start time), so the pair
:class:`ChainIdentity` names a chain. The answer cache files its entries under it, and a
dataset's manifest records it.

Asking for the genesis costs a request (and a local node's genesis is about a megabyte),
so a client asks once, and again only when something says the node may have changed:

- an answer's metadata contradicts the chain it confirmed: another chain id, or a ledger
  (version or timestamp) older than when it confirmed it — a ledger only grows;
- for a node on a loopback address, whose chains are replaced by restarting a process on
  the same port: a new connection was opened (the old node closed its own when it
  stopped), or the node was last heard from more than :data:`LOOPBACK_RECHECK_AFTER`
  seconds ago (then a small ``GET /`` goes first, on a connection that may be new).

A node that no longer holds version 0 (pruned: 410, or 404) answers ``genesis_hash=None``;
its identity is the chain id alone.

**Which history.** The genesis names where a chain starts, not where it went: every
embedded node started from one seed has the same genesis, and so has a local network
restarted from it; their histories part at the first live transaction, and an answer
cached from one (the transaction at a version, a page, a block, events, a resource at a
version) is wrong for the other. Every transaction's ``accumulator_root_hash`` commits to
the whole history up to its version, so each entry also records the newest version it
depends on (``upto``) and the node it came from (``origin``, its address as shown), and
the file keeps history marks (``marks``: a version and the root the node showed there,
per chain and origin; ``_history`` in this package), each at or past the versions of
the entries it vouches for. The client records them as it stores (the mark an answer
carries, or one asked of the node at its head for an answer that carries none, once per
head passed), and checks them when it confirms the chain (above): the newest mark first,
one request when nothing changed; on another root, the rest by halves, and every entry of
that origin that depends on a version past the newest mark still agreeing is dropped
(:meth:`ResponseCache.drop_after`). A hit is served only when its entry depends on no
version past the history confirmed (``through``). A mark the node no longer holds (410)
is trusted; one past its head (404) is taken to differ. A file of an older layout drops
its entries once.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import msgspec

from ledgerkit._endpoints import OPERATIONS
from ledgerkit._errors import DecodingError
from ledgerkit.client._cache._history import HistoryMark
from ledgerkit.types import LedgerMeta

__all__ = [
    "CACHE_ENV",
    "CACHE_FILE",
    "CACHE_MAX_ENV",
    "DEFAULT_MAX_BYTES",
    "GENESIS_PATH",
    "LOOPBACK_RECHECK_AFTER",
    "CachedAnswer",
    "ChainIdentity",
    "ResponseCache",
    "cache_file",
    "contradicts",
    "default_cache_dir",
    "genesis_hash",
    "max_bytes_from_env",
    "open_cache",
]

#: Where the genesis transaction is read.
GENESIS_PATH: Final = OPERATIONS["get_transaction_by_version"].url_path(txn_version=0)

#: Seconds of silence from a loopback node after which a cache hit is preceded by a
#: ``GET /``: stopping a local node and starting another on its port takes longer, and a
#: stream of hits then costs one small request every so often (about 2 ms on loopback).
LOOPBACK_RECHECK_AFTER: Final = 0.1


@dataclass(frozen=True, slots=True)
class ChainIdentity:
    """A chain, as precisely as a node lets it be named.

    Attributes
    ----------
    chain_id : int
        The chain id (1 mainnet, 2 testnet, 4 every local node...).
    genesis_hash : str or None
        Hash of the genesis transaction (version 0), ``0x`` and 64 hex digits; ``None``
        when the node no longer holds version 0 (a pruned node).

    Examples
    --------
    >>> str(ChainIdentity(4, "0x" + "ab" * 32))[:20]
    'chain 4 (genesis 0xa'
    """

    chain_id: int
    genesis_hash: str | None

    def __str__(self) -> str:
        genesis = "not held" if self.genesis_hash is None else self.genesis_hash
        return f"chain {self.chain_id} (genesis {genesis})"

    @classmethod
    def from_genesis(cls, chain_id: int, version: int | str, genesis_hash: str) -> ChainIdentity:
        """The identity of chain ``chain_id`` read from its transaction at version 0, its
        ``version`` and hash as a node sent them (in any page that holds it, not only
        the ``by_version/0`` answer).

        Raises
        ------
        DecodingError
            The version is not 0, or the hash is not 32 bytes of hex.

        Examples
        --------
        >>> ChainIdentity.from_genesis(4, "0", "0x" + "AB" * 32).genesis_hash[:6]
        '0xabab'
        """
        return cls(chain_id, _checked_genesis(version, genesis_hash))


class _Hashed(msgspec.Struct):
    version: str
    hash: str


_DECODER: Final = msgspec.json.Decoder(_Hashed)


def genesis_hash(body: bytes) -> str:
    """The ``hash`` of the transaction at version 0 in a ``by_version/0`` answer (the
    rest of the body, a megabyte of write set, is skipped unread)."""
    try:
        found = _DECODER.decode(body)
    except msgspec.DecodeError as exc:
        raise DecodingError(f"not a transaction: {exc}") from None
    return _checked_genesis(found.version, found.hash)


def _checked_genesis(version: int | str, text: str) -> str:
    """The genesis hash, lower-case, once it is known to be version 0's and 32 bytes."""
    if str(version) != "0":
        raise DecodingError(f"asked for version 0, the node answered version {version!r}")
    digest = text.lower()
    if len(digest) != 66 or not digest.startswith("0x"):
        raise DecodingError(f"the genesis hash is not 32 bytes of hex: {text!r}")
    try:
        bytes.fromhex(digest[2:])
    except ValueError:
        raise DecodingError(f"the genesis hash is not hex: {text!r}") from None
    return digest


def contradicts(meta: LedgerMeta, floor: LedgerMeta) -> bool:
    """Whether an answer's ``meta`` cannot come from the chain that stood at ``floor`` when
    its identity was confirmed: another chain id, or a ledger that went backwards."""
    return (
        meta.chain_id != floor.chain_id
        or meta.ledger_version < floor.ledger_version
        or meta.ledger_timestamp_usec < floor.ledger_timestamp_usec
    )


#: Environment variable naming the cache directory.
CACHE_ENV: Final = "LEDGERKIT_CACHE_DIR"
#: Environment variable bounding the cache, in megabytes (10**6 bytes) of entries.
CACHE_MAX_ENV: Final = "LEDGERKIT_CACHE_MAX_MB"
#: The bound when ``$LEDGERKIT_CACHE_MAX_MB`` is not set.
DEFAULT_MAX_BYTES: Final = 1024 * 10**6
#: What eviction brings the cache back down to, as a share of the bound.
_LOW_WATER: Final = 0.8
#: How stale a "last used" time may get before a read refreshes it, in seconds.
_USED_GRAIN: Final = 3600
#: File name of the cache inside its directory.
CACHE_FILE: Final = "responses.sqlite3"
_FILE_SUFFIXES: Final = frozenset({".sqlite", ".sqlite3", ".db"})
_log = logging.getLogger("ledgerkit.client")

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS answers (
    chain_id INTEGER NOT NULL,
    genesis TEXT NOT NULL,
    url TEXT NOT NULL,
    accept TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    size INTEGER NOT NULL DEFAULT 0,
    origin TEXT NOT NULL DEFAULT '',
    upto INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chain_id, genesis, url, accept)
) WITHOUT ROWID
"""
_INDEX: Final = "CREATE INDEX IF NOT EXISTS answers_used ON answers (used)"
_MARKS: Final = """
CREATE TABLE IF NOT EXISTS marks (
    chain_id INTEGER NOT NULL,
    genesis TEXT NOT NULL,
    origin TEXT NOT NULL,
    version INTEGER NOT NULL,
    root TEXT NOT NULL,
    PRIMARY KEY (chain_id, genesis, origin, version)
) WITHOUT ROWID
"""
#: The columns a file of the current layout has (an older one's entries are dropped).
_LAYOUT: Final = frozenset({"genesis", "origin", "upto"})
_KEY: Final = "chain_id = ? AND genesis = ? AND url = ? AND accept = ?"
_ORIGIN: Final = "chain_id = ? AND genesis = ? AND origin = ?"


def max_bytes_from_env() -> int:
    """The bound of the cache: ``$LEDGERKIT_CACHE_MAX_MB`` megabytes, or 1024 of them."""
    raw = os.environ.get(CACHE_MAX_ENV)
    if not raw:
        return DEFAULT_MAX_BYTES
    try:
        megabytes = float(raw)
    except ValueError:
        megabytes = -1.0
    if not megabytes > 0:
        _log.warning("%s=%r is not a positive number of megabytes; using 1024", CACHE_MAX_ENV, raw)
        return DEFAULT_MAX_BYTES
    return int(megabytes * 10**6)


def default_cache_dir() -> Path:
    """Where the cache lives unless told: ``$LEDGERKIT_CACHE_DIR``, else the user cache
    directory (``platformdirs`` when installed, else ``$XDG_CACHE_HOME`` or
    ``~/.cache``) plus ``ledgerkit``."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    try:
        import platformdirs
    except ImportError:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(base).expanduser() / "ledgerkit"
    return Path(platformdirs.user_cache_dir("ledgerkit", appauthor=False))


def cache_file(location: str | os.PathLike[str]) -> Path:
    """The SQLite file for ``location``: itself when it ends in ``.sqlite3`` (``.sqlite``,
    ``.db``), otherwise ``responses.sqlite3`` inside that directory."""
    path = Path(location).expanduser()
    return path if path.suffix in _FILE_SUFFIXES else path / CACHE_FILE


@dataclass(frozen=True, slots=True)
class CachedAnswer:
    """A stored answer: status, the ledger headers it came with, and its body."""

    status: int
    headers: dict[str, str]
    body: bytes


class ResponseCache:
    """A thread-safe key-value store of answers in one SQLite file.

    Parameters
    ----------
    path : Path
        The database file; its directory is created when missing.
    max_bytes : int, optional
        The bound on the entries' bytes (body, headers and key); by default
        ``$LEDGERKIT_CACHE_MAX_MB`` megabytes, or 1024 of them.
    clock : callable, optional
        Seconds since the epoch (for tests); ``time.time`` by default.
    """

    def __init__(
        self,
        path: Path,
        *,
        max_bytes: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.max_bytes = max_bytes_from_env() if max_bytes is None else max_bytes
        self._clock = clock
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # One connection for the client, used from any thread under the lock.
        self._db = sqlite3.connect(path, timeout=30.0, check_same_thread=False)
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(answers)")}
            if columns and not columns >= _LAYOUT:
                # Written before entries named their chain by its genesis and the history
                # they depend on: nothing in the file says which history an entry is
                # from, so none is kept.
                _log.info("answer cache %s: entries of an older layout dropped", path)
                self._db.execute("DROP TABLE answers")
            self._db.execute(_SCHEMA)
            self._db.execute(_INDEX)
            self._db.execute(_MARKS)
            # Other processes may write the file too: this total is a running estimate,
            # made exact again whenever it calls for an eviction.
            self._bytes = self._total()

    def _total(self) -> int:
        (total,) = self._db.execute("SELECT coalesce(sum(size), 0) FROM answers").fetchone()
        return int(total)

    def _now(self) -> int:
        return int(self._clock())

    def get(
        self, chain: ChainIdentity, url: str, accept: str, *, through: int
    ) -> CachedAnswer | None:
        """The answer stored under the key when it depends on no version after
        ``through`` (the history confirmed with the node), or ``None`` (also when the file
        fails: the cache is a shortcut, never a reason for a request to fail)."""
        try:
            with self._lock:
                key = (*_chain_key(chain), url, accept)
                row = self._db.execute(
                    f"SELECT status, headers, body, used, upto FROM answers WHERE {_KEY}", key
                ).fetchone()
                if row is not None and int(row[4]) > through:
                    return None
                now = self._now()
                if row is not None and now - int(row[3]) >= _USED_GRAIN:
                    with self._db:
                        self._db.execute(f"UPDATE answers SET used = ? WHERE {_KEY}", (now, *key))
            if row is None:
                return None
            return CachedAnswer(int(row[0]), json.loads(row[1]), bytes(row[2]))
        except (sqlite3.Error, ValueError) as exc:
            _log.warning("answer cache %s unreadable, asking the node: %s", self.path, exc)
            return None

    def put(
        self,
        chain: ChainIdentity,
        url: str,
        accept: str,
        answer: CachedAnswer,
        *,
        origin: str,
        upto: int,
    ) -> None:
        """Store ``answer`` under the key (replacing an older copy), as an answer of the
        node at ``origin`` that depends on its history up to version ``upto``; a failing
        file is logged and skipped."""
        headers = json.dumps(answer.headers, sort_keys=True)
        size = len(answer.body) + len(headers.encode()) + len(url.encode())
        if size > self.max_bytes * _LOW_WATER:
            return  # it would push out everything else
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        *_chain_key(chain),
                        url,
                        accept,
                        answer.status,
                        headers,
                        answer.body,
                        self._now(),
                        size,
                        origin,
                        upto,
                    ),
                )
                self._bytes += size
                if self._bytes > self.max_bytes:
                    self._evict()
        except sqlite3.Error as exc:
            _log.warning("answer cache %s not written: %s", self.path, exc)

    def _evict(self) -> None:
        """Drop the least recently used entries until the total is under the low-water
        mark (called under the lock, inside a transaction)."""
        total = self._total()
        goal = int(self.max_bytes * _LOW_WATER)
        victims: list[tuple[int, str, str, str]] = []
        if total > self.max_bytes:
            rows = self._db.execute(
                "SELECT chain_id, genesis, url, accept, size FROM answers ORDER BY used, size DESC"
            )
            while total > goal:
                batch = rows.fetchmany(256)
                if not batch:
                    break
                for chain_id, genesis, url, accept, size in batch:
                    if total <= goal:
                        break
                    victims.append((chain_id, genesis, url, accept))
                    total -= int(size)
            rows.close()
            self._db.executemany(f"DELETE FROM answers WHERE {_KEY}", victims)
            _log.info(
                "answer cache %s: %d least recently used entries dropped (bound %d bytes)",
                self.path, len(victims), self.max_bytes,
            )  # fmt: skip
        self._bytes = total

    def marks(self, chain: ChainIdentity, origin: str) -> list[HistoryMark]:
        """The history marks recorded for the answers of the node at ``origin`` (none
        when the file fails)."""
        try:
            with self._lock:
                rows = self._db.execute(
                    f"SELECT version, root FROM marks WHERE {_ORIGIN} ORDER BY version",
                    (*_chain_key(chain), origin),
                ).fetchall()
            return [HistoryMark(int(version), str(root)) for version, root in rows]
        except (sqlite3.Error, ValueError) as exc:
            _log.warning("answer cache %s: marks unreadable: %s", self.path, exc)
            return []

    def add_mark(self, chain: ChainIdentity, origin: str, mark: HistoryMark) -> None:
        """Record ``mark``, seen at the node at ``origin``: it vouches for the answers of
        that node that depend on no version after it."""
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO marks VALUES (?, ?, ?, ?, ?)",
                    (*_chain_key(chain), origin, mark.version, mark.root),
                )
        except sqlite3.Error as exc:
            _log.warning("answer cache %s: mark not written: %s", self.path, exc)

    def drop_after(self, chain: ChainIdentity, origin: str, version: int) -> int:
        """Drop the answers of the node at ``origin`` that depend on a version after
        ``version``, and the marks past it (its history parted from theirs there); the
        number of answers dropped."""
        where = (*_chain_key(chain), origin, version)
        try:
            with self._lock, self._db:
                dropped = self._db.execute(
                    f"DELETE FROM answers WHERE {_ORIGIN} AND upto > ?", where
                ).rowcount
                self._db.execute(f"DELETE FROM marks WHERE {_ORIGIN} AND version > ?", where)
                self._bytes = self._total()
        except sqlite3.Error as exc:
            _log.warning("answer cache %s: answers of another history not dropped: %s",
                         self.path, exc)  # fmt: skip
            return 0
        return int(dropped)

    @property
    def size_bytes(self) -> int:
        """The bytes of the stored entries (bodies, headers and keys)."""
        with self._lock:
            return self._total()

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT count(*) FROM answers").fetchone()
        return int(count)

    def clear(self) -> None:
        """Forget every stored answer."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM answers")
            self._db.execute("DELETE FROM marks")
            self._bytes = 0

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.path)!r})"


def _chain_key(chain: ChainIdentity) -> tuple[int, str]:
    """The chain's part of a key (a node that no longer holds its genesis: ``""``)."""
    return chain.chain_id, chain.genesis_hash or ""


def open_cache(path: Path | None) -> ResponseCache | None:
    """The cache at ``path``; ``None`` when off, or when the file cannot be opened (then a
    warning is logged and the client works without it)."""
    if path is None:
        return None
    try:
        return ResponseCache(path)
    except (OSError, sqlite3.Error) as exc:
        _log.warning("answer cache %s cannot be opened, running without it: %s", path, exc)
        return None
