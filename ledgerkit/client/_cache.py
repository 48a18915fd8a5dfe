"""The persistent answer cache: one SQLite file of answers that can never change.

Why SQLite (the standard library's ``sqlite3``): it needs no extra dependency, every write
is atomic (a crash never leaves half an answer), several notebooks and processes can
share one file safely (WAL mode, a busy timeout), and a key look-up is an index probe,
so a re-run notebook reads thousands of transactions back in milliseconds.

What may be stored is decided by the client's core (``_base``), never here: this module
only keeps bytes under a key. An entry is the status, the ledger headers and the body of
an answer, keyed by (chain id, normalized URL plus a digest of any request body, Accept).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "CACHE_ENV",
    "CACHE_FILE",
    "CachedAnswer",
    "ResponseCache",
    "cache_file",
    "default_cache_dir",
    "open_cache",
]

#: Environment variable naming the cache directory.
CACHE_ENV: Final = "LEDGERKIT_CACHE_DIR"
#: File name of the cache inside its directory.
CACHE_FILE: Final = "responses.sqlite3"
_FILE_SUFFIXES: Final = frozenset({".sqlite", ".sqlite3", ".db"})
_log = logging.getLogger("ledgerkit.client")

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS answers (
    chain_id INTEGER NOT NULL,
    url TEXT NOT NULL,
    accept TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (chain_id, url, accept)
) WITHOUT ROWID
"""


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
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # One connection for the client, used from any thread under the lock.
        self._db = sqlite3.connect(path, timeout=30.0, check_same_thread=False)
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)

    def get(self, chain_id: int, url: str, accept: str) -> CachedAnswer | None:
        """The answer stored under the key, or ``None`` (also when the file fails: the
        cache is a shortcut, never a reason for a request to fail)."""
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT status, headers, body FROM answers "
                    "WHERE chain_id = ? AND url = ? AND accept = ?",
                    (chain_id, url, accept),
                ).fetchone()
            if row is None:
                return None
            return CachedAnswer(int(row[0]), json.loads(row[1]), bytes(row[2]))
        except (sqlite3.Error, ValueError) as exc:
            _log.warning("answer cache %s unreadable, asking the node: %s", self.path, exc)
            return None

    def put(self, chain_id: int, url: str, accept: str, answer: CachedAnswer) -> None:
        """Store ``answer`` under the key (replacing an older copy); a failing file is
        logged and skipped."""
        headers = json.dumps(answer.headers, sort_keys=True)
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?)",
                    (chain_id, url, accept, answer.status, headers, answer.body),
                )
        except sqlite3.Error as exc:
            _log.warning("answer cache %s not written: %s", self.path, exc)

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT count(*) FROM answers").fetchone()
        return int(count)

    def clear(self) -> None:
        """Forget every stored answer."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM answers")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.path)!r})"


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
