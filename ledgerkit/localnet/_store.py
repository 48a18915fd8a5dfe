"""The ledger's storage: one SQLite file in WAL mode, written a whole block at a time.

Tables (schema version :data:`SCHEMA_VERSION`):

``blocks``        one row per block: versions, hash, time, epoch/round, gas and fullness,
                  and the running accumulator and state roots (so a reopened ledger goes on);
``transactions``  the API JSON of every transaction (orjson bytes, built once at commit),
                  with indexes by hash and by (sender, sequence number), and the
                  transaction's index in its block (the auxiliary info);
``state``         versioned state: ``(skey, version, json, bcs)``; a NULL ``json`` marks a
                  deletion, so the value at any version is the last row at or below it;
``state_keys``    every state key once, with the version that created it, so an account's
                  resources or modules at a version are listed by walking its keys in
                  order and looking each up, instead of grouping over all history;
``events``        events emitted to handles, by (account, creation number, sequence number);
``meta``          schema version, chain identity and generator bookkeeping;
``mempool``       the BCS of every transaction accepted and not yet committed, in arrival
                  order: written with the admission, removed in the transaction that
                  commits its block (or when it expires, is replaced or is dropped), so a
                  restarted node carries on with what it had accepted.

State keys are the byte strings of :mod:`ledgerkit.localnet._framework._keys`. Each
thread reads through its own connection (WAL readers never wait for the writer); writes
are serialized by a lock and a block is one SQLite transaction, so a reader sees a
block entirely or not at all, and a crash loses at most the block being written.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

__all__ = ["SCHEMA_VERSION", "BlockRecord", "BlockWrite", "Store"]

SCHEMA_VERSION: Final = 1

_SCHEMA: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE blocks (
    height INTEGER PRIMARY KEY,
    first_version INTEGER NOT NULL,
    last_version INTEGER NOT NULL,
    hash BLOB NOT NULL,
    timestamp INTEGER NOT NULL,
    epoch INTEGER NOT NULL,
    round INTEGER NOT NULL,
    epoch_start INTEGER NOT NULL,
    user_transactions INTEGER NOT NULL,
    gas_used INTEGER NOT NULL,
    full INTEGER NOT NULL,
    min_gas_price INTEGER,
    accumulator BLOB NOT NULL,
    state_root BLOB NOT NULL
);
CREATE UNIQUE INDEX blocks_by_first_version ON blocks (first_version);
CREATE TABLE transactions (
    version INTEGER PRIMARY KEY,
    hash BLOB NOT NULL,
    block_height INTEGER NOT NULL,
    txn_index INTEGER NOT NULL,
    sender BLOB,
    sequence_number INTEGER,
    json BLOB NOT NULL
);
CREATE UNIQUE INDEX transactions_by_hash ON transactions (hash);
CREATE INDEX transactions_by_sender ON transactions (sender, sequence_number)
    WHERE sender IS NOT NULL;
CREATE TABLE state (
    id INTEGER PRIMARY KEY,
    skey BLOB NOT NULL,
    version INTEGER NOT NULL,
    json BLOB,
    bcs BLOB
);
CREATE UNIQUE INDEX state_by_key ON state (skey, version);
CREATE TABLE state_keys (skey BLOB PRIMARY KEY, first_version INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE events (
    account BLOB NOT NULL,
    creation_number INTEGER NOT NULL,
    sequence_number INTEGER NOT NULL,
    version INTEGER NOT NULL,
    json BLOB NOT NULL,
    PRIMARY KEY (account, creation_number, sequence_number)
);
"""

#: Added without a schema version change: older files get it when opened.
_MEMPOOL_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS mempool (
    arrival INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE,
    bcs BLOB NOT NULL
)
"""

#: Rows a state key walk fetches at a time.
_KEY_BATCH: Final = 256
#: Latest state values kept in memory (the cache is emptied when it fills).
LATEST_CACHE_SIZE: Final = 100_000
_MISSING: Final = object()
_SQL_MAX: Final = (1 << 63) - 1


@dataclass(frozen=True, slots=True)
class BlockRecord:
    """One row of ``blocks``."""

    height: int
    first_version: int
    last_version: int
    hash: bytes
    timestamp: int
    epoch: int
    round: int
    epoch_start: int
    user_transactions: int
    gas_used: int
    full: bool
    min_gas_price: int | None
    accumulator: bytes
    state_root: bytes


@dataclass(slots=True)
class BlockWrite:
    """Everything one block adds to the store, written in one transaction."""

    block: BlockRecord
    #: (version, hash, block height, index in block, sender, sequence number, json)
    transactions: list[tuple[int, bytes, int, int, bytes | None, int | None, bytes]] = field(
        default_factory=list
    )
    #: (skey, version, json or None when deleted, bcs or None)
    state: list[tuple[bytes, int, bytes | None, bytes | None]] = field(default_factory=list)
    #: (account, creation number, sequence number, version, json)
    events: list[tuple[bytes, int, int, int, bytes]] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    #: Hashes of the block's transactions that leave the stored mempool with it.
    mempool_removed: list[bytes] = field(default_factory=list)


def _clamped(params: tuple[object, ...]) -> tuple[object, ...]:
    """Parameters with u64 values past SQLite's signed 64-bit range cut to its maximum.

    No stored number comes near 2^63, so a query for more (a sequence number of
    2^64 - 1, say) matches what it would have matched: nothing.
    """
    return tuple(min(p, _SQL_MAX) if type(p) is int else p for p in params)


def _prefix_end(prefix: bytes) -> bytes | None:
    """The least byte string above every string that starts with ``prefix``."""
    stripped = prefix.rstrip(b"\xff")
    if not stripped:
        return None
    return stripped[:-1] + bytes([stripped[-1] + 1])


class Store:
    """The SQLite file of one ledger.

    Parameters
    ----------
    path : str or Path
        The database file; created (with its schema) when missing.

    Raises
    ------
    ValueError
        The file holds another schema version.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._closed = False
        self._latest: dict[bytes, tuple[bytes, bytes] | None] = {}
        self._cache_lock = threading.Lock()
        self._sequence = 0
        self._cached_version = -1
        self._migrate()
        last = self.last_block()
        self._cached_version = -1 if last is None else last.last_version

    # -- connections --------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise RuntimeError("the ledger store is closed")
            # One connection per thread; check_same_thread is off only so that close()
            # can close every thread's connection from the thread that closes the store.
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
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
        with self._write_lock, self._connections_lock:
            self._closed = True
            for conn in self._connections:
                conn.close()
            self._connections.clear()

    def _migrate(self) -> None:
        conn = self._conn()
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                exists = conn.execute(
                    "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'"
                ).fetchone()
                if not exists:
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(
                        "INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                    )
                conn.execute(_MEMPOOL_SCHEMA)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        found = self.meta("schema_version")
        if found != str(SCHEMA_VERSION):
            raise ValueError(
                f"{self.path} holds ledger schema version {found}, this ledgerkit reads "
                f"{SCHEMA_VERSION}; remove the file to generate a new chain"
            )

    # -- writing ------------------------------------------------------------------------

    def write_block(self, write: BlockWrite, *, commit: bool = True) -> None:
        """Add one block and everything in it, atomically.

        With ``commit=False`` the SQLite transaction stays open for the next block (the
        chain generator commits every few dozen blocks: a commit costs more than a block
        of inserts); :meth:`commit` ends it.
        """
        b = write.block
        with self._write_lock:
            conn = self._conn()
            if not conn.in_transaction:
                conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(
                    "INSERT INTO blocks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        b.height,
                        b.first_version,
                        b.last_version,
                        b.hash,
                        b.timestamp,
                        b.epoch,
                        b.round,
                        b.epoch_start,
                        b.user_transactions,
                        b.gas_used,
                        int(b.full),
                        b.min_gas_price,
                        b.accumulator,
                        b.state_root,
                    ),
                )
                conn.executemany(
                    "INSERT INTO transactions VALUES (?,?,?,?,?,?,?)", write.transactions
                )
                conn.executemany(
                    "INSERT INTO state (skey, version, json, bcs) VALUES (?,?,?,?)", write.state
                )
                conn.executemany(
                    "INSERT OR IGNORE INTO state_keys VALUES (?,?)",
                    [(row[0], row[1]) for row in write.state],
                )
                conn.executemany("INSERT INTO events VALUES (?,?,?,?,?)", write.events)
                conn.executemany(
                    "INSERT OR REPLACE INTO meta VALUES (?,?)", list(write.meta.items())
                )
                conn.executemany(
                    "DELETE FROM mempool WHERE hash=?", [(h,) for h in write.mempool_removed]
                )
                with self._cache_lock:
                    self._sequence += 1
                    if commit:
                        conn.execute("COMMIT")
                    for skey, _, json, bcs in write.state:
                        self._latest[skey] = None if json is None else (json, bcs or b"")
                    self._cached_version = b.last_version
                    self._sequence += 1
            except BaseException:
                with self._cache_lock:
                    self._sequence += 2
                    self._latest.clear()
                    self._cached_version = -1
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def commit(self) -> None:
        """Commit blocks written with ``commit=False``."""
        with self._write_lock:
            conn = self._conn()
            if conn.in_transaction:
                conn.execute("COMMIT")

    def rollback(self) -> None:
        """Drop blocks written with ``commit=False`` and not committed yet."""
        with self._write_lock:
            conn = self._conn()
            with self._cache_lock:
                self._sequence += 2
                self._latest.clear()
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                last = self.last_block()
                self._cached_version = -1 if last is None else last.last_version

    # -- the mempool ----------------------------------------------------------------------

    def mempool_admit(self, txn_hash: bytes, signed_bcs: bytes, replaced: bytes | None) -> None:
        """Record an accepted transaction (and forget the one it replaces), durably."""

        def work(conn: sqlite3.Connection) -> None:
            if replaced is not None:
                conn.execute("DELETE FROM mempool WHERE hash=?", (replaced,))
            conn.execute(
                "INSERT OR REPLACE INTO mempool (hash, bcs) VALUES (?,?)", (txn_hash, signed_bcs)
            )

        self._mempool_write(work)

    def mempool_drop(self, hashes: list[bytes]) -> None:
        """Forget transactions that left the mempool without a block."""

        def work(conn: sqlite3.Connection) -> None:
            conn.executemany("DELETE FROM mempool WHERE hash=?", [(h,) for h in hashes])

        if hashes:
            self._mempool_write(work)

    def mempool_transactions(self) -> list[tuple[bytes, bytes]]:
        """``(hash, BCS)`` of the recorded transactions, in arrival order."""
        rows = self._all("SELECT hash, bcs FROM mempool ORDER BY arrival", ())
        return [(bytes(row[0]), bytes(row[1])) for row in rows]

    def _mempool_write(self, work: Callable[[sqlite3.Connection], None]) -> None:
        with self._write_lock:
            conn = self._conn()
            # A generator's open block batch is committed with it; otherwise this is its
            # own transaction, committed before the caller answers.
            own = not conn.in_transaction
            if own:
                conn.execute("BEGIN IMMEDIATE")
            try:
                work(conn)
                if own:
                    conn.execute("COMMIT")
            except BaseException:
                if own and conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    # -- reading ------------------------------------------------------------------------

    def _one(self, sql: str, params: tuple[object, ...]) -> Any:
        return self._conn().execute(sql, _clamped(params)).fetchone()

    def _all(self, sql: str, params: tuple[object, ...]) -> list[Any]:
        return self._conn().execute(sql, _clamped(params)).fetchall()

    def meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key=?", (key,))
        return None if row is None else str(row[0])

    # -- state --------------------------------------------------------------------------

    def state(self, skey: bytes, version: int | None = None) -> tuple[bytes, bytes] | None:
        """``(json, bcs)`` of a state item at ``version`` (None: latest), or None.

        Latest values are cached: the block writer refreshes what it wrote, under a
        sequence counter (odd while it writes) so a reader never takes a value from a
        half-updated cache or caches one read before a newer block committed.
        """
        start = self._sequence
        if start % 2 == 0 and (version is None or version >= self._cached_version):
            found = self._latest.get(skey, _MISSING)
            if found is not _MISSING and self._sequence == start:
                return found  # type: ignore[return-value]
            value = self._read_state(skey, version)
            with self._cache_lock:
                if self._sequence == start:
                    if len(self._latest) >= LATEST_CACHE_SIZE:
                        self._latest.clear()
                    self._latest[skey] = value
            return value
        return self._read_state(skey, version)

    def _read_state(self, skey: bytes, version: int | None) -> tuple[bytes, bytes] | None:
        if version is None:
            row = self._one(
                "SELECT json, bcs FROM state WHERE skey=? ORDER BY version DESC LIMIT 1", (skey,)
            )
        else:
            row = self._one(
                "SELECT json, bcs FROM state WHERE skey=? AND version<=? "
                "ORDER BY version DESC LIMIT 1",
                (skey, version),
            )
        if row is None or row[0] is None:
            return None
        return row[0], row[1]

    def keys(self, prefix: bytes, start: bytes | None, version: int) -> Iterator[bytes]:
        """State keys under ``prefix`` from ``start`` on, in order, created by ``version``."""
        low = start if start is not None and start > prefix else prefix
        high = _prefix_end(prefix)
        inclusive = True
        while True:
            op = ">=" if inclusive else ">"
            if high is None:
                rows = self._all(
                    f"SELECT skey, first_version FROM state_keys WHERE skey {op} ? "
                    "ORDER BY skey LIMIT ?",
                    (low, _KEY_BATCH),
                )
            else:
                rows = self._all(
                    f"SELECT skey, first_version FROM state_keys WHERE skey {op} ? AND skey < ? "
                    "ORDER BY skey LIMIT ?",
                    (low, high, _KEY_BATCH),
                )
            for skey, first_version in rows:
                if first_version <= version:
                    yield bytes(skey)
            if len(rows) < _KEY_BATCH:
                return
            low, inclusive = bytes(rows[-1][0]), False

    def has_keys(self, prefix: bytes, version: int) -> bool:
        """True when any state key under ``prefix`` existed at ``version``."""
        return next(self.keys(prefix, None, version), None) is not None

    # -- transactions -------------------------------------------------------------------

    def transaction(self, version: int) -> bytes | None:
        row = self._one("SELECT json FROM transactions WHERE version=?", (version,))
        return None if row is None else bytes(row[0])

    def transactions(self, start: int, end: int) -> list[bytes]:
        """JSON of the transactions with ``start <= version < end``."""
        rows = self._all(
            "SELECT json FROM transactions WHERE version>=? AND version<? ORDER BY version",
            (start, end),
        )
        return [bytes(row[0]) for row in rows]

    def version_of(self, txn_hash: bytes) -> int | None:
        row = self._one("SELECT version FROM transactions WHERE hash=?", (txn_hash,))
        return None if row is None else int(row[0])

    def account_transactions(
        self, sender: bytes, start: int, limit: int, min_version: int
    ) -> list[bytes]:
        """JSON of ``sender``'s transactions from sequence number ``start`` on."""
        rows = self._all(
            "SELECT json FROM transactions WHERE sender=? AND sequence_number>=? "
            "AND version>=? ORDER BY sequence_number LIMIT ?",
            (sender, start, min_version, limit),
        )
        return [bytes(row[0]) for row in rows]

    def transaction_indexes(self, start: int, end: int) -> list[int]:
        """Index in its block of each transaction with ``start <= version < end``."""
        rows = self._all(
            "SELECT txn_index FROM transactions WHERE version>=? AND version<? ORDER BY version",
            (start, end),
        )
        return [int(row[0]) for row in rows]

    # -- events -------------------------------------------------------------------------

    def events(self, account: bytes, creation_number: int, start: int, limit: int) -> list[bytes]:
        rows = self._all(
            "SELECT json FROM events WHERE account=? AND creation_number=? "
            "AND sequence_number>=? ORDER BY sequence_number LIMIT ?",
            (account, creation_number, start, limit),
        )
        return [bytes(row[0]) for row in rows]

    def last_event_sequence(self, account: bytes, creation_number: int) -> int | None:
        row = self._one(
            "SELECT MAX(sequence_number) FROM events WHERE account=? AND creation_number=?",
            (account, creation_number),
        )
        return None if row is None or row[0] is None else int(row[0])

    # -- blocks -------------------------------------------------------------------------

    @staticmethod
    def _record(row: Any) -> BlockRecord | None:
        if row is None:
            return None
        values = list(row)
        for i in (3, 12, 13):
            values[i] = bytes(values[i])
        values[10] = bool(values[10])
        return BlockRecord(*values)

    def block(self, height: int) -> BlockRecord | None:
        return self._record(self._one("SELECT * FROM blocks WHERE height=?", (height,)))

    def block_containing(self, version: int) -> BlockRecord | None:
        record = self._record(
            self._one(
                "SELECT * FROM blocks WHERE first_version<=? ORDER BY first_version DESC LIMIT 1",
                (version,),
            )
        )
        return record if record is not None and record.last_version >= version else None

    def last_block(self) -> BlockRecord | None:
        return self._record(self._one("SELECT * FROM blocks ORDER BY height DESC LIMIT 1", ()))

    def recent_blocks(self, count: int) -> list[tuple[bool, int | None]]:
        """``(full, lowest gas price)`` of the last ``count`` blocks, newest first."""
        rows = self._all(
            "SELECT full, min_gas_price FROM blocks ORDER BY height DESC LIMIT ?", (count,)
        )
        return [(bool(full), price) for full, price in rows]

    # -- scans (tests and tools) --------------------------------------------------------

    def resources_of_type(self, tag: str, version: int) -> Iterator[tuple[bytes, bytes]]:
        """``(address, json)`` of every resource of type ``tag`` at ``version`` (a full scan)."""
        path = tag.encode()
        for skey in self.keys(b"\x00", None, version):
            if skey[33:] == path:
                found = self.state(skey, version)
                if found is not None:
                    yield skey[1:33], found[0]
