"""The ledger file's SQLite connections: one per thread, and one writer at a time.

Each thread reads through its own connection (WAL readers never wait for the writer);
writes take the write lock. Query parameters past SQLite's signed 64-bit range are cut
to its maximum, so a u64 at the top of its range matches what it would have: nothing.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, Final

__all__ = ["Connections"]

_SQL_MAX: Final = (1 << 63) - 1


def _clamped(params: tuple[object, ...]) -> tuple[object, ...]:
    """Parameters with u64 values past SQLite's signed 64-bit range cut to its maximum.

    No stored number comes near 2^63, so a query for more (a sequence number of
    2^64 - 1, say) matches what it would have matched: nothing.
    """
    return tuple(min(p, _SQL_MAX) if type(p) is int else p for p in params)


class Connections:
    """The per-thread connections to the SQLite file at ``path`` and its write lock.

    The store's parts (its reads, its mempool table, its block writer) share one of these.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        self.write_lock = threading.Lock()
        self._closed = False

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise RuntimeError("the ledger store is closed")
            # One connection per thread; check_same_thread is off only so that close()
            # can close every thread's connection from the thread that closes the store.
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            # A new file's pages: 8 KiB fit a block's transactions with less left over
            # than 4 KiB (an idle block takes some 4.4 KB, not 5.8); a no-op on a file
            # that has pages already.
            conn.execute("PRAGMA page_size=8192")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=10000")
            conn.execute("PRAGMA cache_size=-32768")
            self._local.conn = conn
            with self._connections_lock:
                self._connections.append(conn)
        return conn

    def close(self) -> None:
        """Close every thread's connection (checkpointing the WAL into the file)."""
        with self.write_lock, self._connections_lock:
            self._closed = True
            for conn in self._connections:
                conn.close()
            self._connections.clear()

    def fetch_one(self, sql: str, params: tuple[object, ...]) -> Any:
        """The first row ``sql`` gives (None: none), u64 parameters clamped."""
        return self.connection().execute(sql, _clamped(params)).fetchone()

    def fetch_all(self, sql: str, params: tuple[object, ...]) -> list[Any]:
        """Every row ``sql`` gives, u64 parameters clamped."""
        return self.connection().execute(sql, _clamped(params)).fetchall()
