"""The indexer's own SQLite file beside the ledger's, and the thread that keeps it up
with the ledger as blocks commit.

Passes write through one connection; requests read through connections of their own,
opened read-only, each request's statements in one read transaction: a request sees one
state of the tables (a pass committing meanwhile is not half seen), and reads never wait
for a pass (SQLite's write-ahead log lets them run beside it).

Each pass reads the transactions after the last indexed version (at most
:data:`BATCH_VERSIONS` at a time), makes their rows (``_processors``) and writes them
with every processor's new ``last_success_version`` in one SQLite transaction: a node
stopped at any moment carries on from the last pass that committed, and rows are keyed
by each table's primary key (written again, they replace themselves). A file whose
chain id, position or accumulator root (that of the last version it indexed, which
commits to every transaction before it) does not match the ledger's (a ledger replaced
under it, even one of the same chain id) is emptied and indexed again from version 0.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

import orjson

from ledgerkit.localnet.indexer._numeric import register
from ledgerkit.localnet.indexer._processors import (
    PROCESSORS,
    Rows,
    TransactionIndexer,
    iso_timestamp,
)
from ledgerkit.localnet.indexer._tables import TABLES, create_statements
from ledgerkit.localnet.indexer._token_processor import PARTIAL_UPDATES

__all__ = [
    "BATCH_VERSIONS",
    "POLL_SECONDS",
    "PROGRESS_SECONDS",
    "RETRY_SECONDS",
    "Indexed",
    "IndexerDb",
    "IndexerThread",
    "Reads",
    "Snapshot",
]

_log = logging.getLogger("ledgerkit.localnet.indexer")

#: Transactions indexed per SQLite transaction.
BATCH_VERSIONS: Final = 2000
#: How often the indexer looks for new blocks.
POLL_SECONDS: Final = 0.05
#: A pass running longer than this says how far it is (INFO), then again at this pace.
PROGRESS_SECONDS: Final = 2.0
#: The wait after a failed pass: the first, doubling after each failure up to the last.
RETRY_SECONDS: Final = (1.0, 60.0)
#: Read-only connections kept open between requests.
_IDLE_READERS: Final = 4

_HIDDEN: Final = (
    'CREATE TABLE IF NOT EXISTS "_paired" (metadata TEXT PRIMARY KEY, coin TEXT NOT NULL)',
    'CREATE TABLE IF NOT EXISTS "_supplies" (asset_type TEXT PRIMARY KEY, supply, maximum)',
    # token v1 tables: the resource holding each handle, and its account
    'CREATE TABLE IF NOT EXISTS "_v1_tables" (handle TEXT PRIMARY KEY, resource TEXT, owner TEXT)',
    # The ledger indexed: the accumulator root of the last version indexed (it commits
    # to every transaction up to it, so another ledger with the same chain id differs).
    'CREATE TABLE IF NOT EXISTS "_ledger" (one INTEGER PRIMARY KEY, version INTEGER, root TEXT)',
)
_LOOKUPS: Final = {
    "owner": "SELECT owner_address FROM current_objects WHERE object_address=?",
    "store": "SELECT asset_type_v2 FROM current_fungible_asset_balances WHERE storage_id=?",
    "paired": "SELECT coin FROM _paired WHERE metadata=?",
    "table": "SELECT resource || ' ' || owner FROM _v1_tables WHERE handle=?",
}
_APPLY_SUPPLIES: Final = """
UPDATE fungible_asset_metadata AS m SET
  supply_v2 = (SELECT supply FROM _supplies s WHERE s.asset_type = m.asset_type),
  maximum_v2 = (SELECT maximum FROM _supplies s WHERE s.asset_type = m.asset_type)
WHERE asset_type IN (SELECT asset_type FROM _supplies)
"""


class Indexed(Protocol):
    """What the indexer reads of a ledger (a :class:`~ledgerkit.localnet.ledger.Ledger`)."""

    def head_within(self, window: int | None) -> Any: ...

    @property
    def store(self) -> Any: ...

    @property
    def config(self) -> Any: ...


class Reads(Protocol):
    """What runs a request's reads (:meth:`IndexerDb.query` and a :class:`Snapshot`)."""

    def query(
        self, sql: str, params: list[Any], *, steps: int, spent: list[int] | None = None
    ) -> list[tuple[Any, ...]]: ...


def _read(
    conn: sqlite3.Connection, sql: str, params: list[Any], steps: int, spent: list[int] | None
) -> list[tuple[Any, ...]]:
    counted = [0] if spent is None else spent
    steps += counted[0]

    def progress() -> int:
        counted[0] += 1
        return 1 if counted[0] > steps else 0

    conn.set_progress_handler(progress, 1000)
    try:
        found: list[tuple[Any, ...]] = conn.execute(sql, params).fetchall()
        return found
    finally:
        conn.set_progress_handler(None, 0)


class Snapshot:
    """The reads of one request, all of one state of the tables (see
    :meth:`IndexerDb.snapshot`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def query(
        self, sql: str, params: list[Any], *, steps: int, spent: list[int] | None = None
    ) -> list[tuple[Any, ...]]:
        """As :meth:`IndexerDb.query`, in the snapshot's read transaction."""
        return _read(self._conn, sql, params, steps, spent)


def _stored(value: Any) -> Any:
    """A row value as SQLite keeps it (big numbers as text, JSON as text)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        return str(value)
    if isinstance(value, dict | list):
        return orjson.dumps(value).decode()
    return value


def _root_at(ledger: Indexed, version: int) -> str | None:
    """The ledger's accumulator root at ``version`` (None past its head)."""
    for raw in ledger.store.reads.transactions(version, version + 1):
        root = orjson.loads(raw).get("accumulator_root_hash")
        return None if root is None else str(root)
    return None


class IndexerDb:
    """The indexer's tables in their SQLite file (``path``; ``":memory:"`` for none)."""

    def __init__(self, path: str | Path) -> None:
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        register(self._conn)
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._create()
        self._indexer = TransactionIndexer(self._lookup)
        # A file is read through read-only connections of its own; a database in memory
        # has one connection, reads and passes taking turns on it.
        self._reader_uri = None if str(path) == ":memory:" else Path(path).resolve().as_uri()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()

    def _create(self) -> None:
        for statement in (*create_statements(), *_HIDDEN):
            self._conn.execute(statement)

    def close(self) -> None:
        with self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
        with self._lock:
            self._conn.close()

    def _take_reader(self) -> sqlite3.Connection:
        with self._readers_lock:
            if self._readers:
                return self._readers.pop()
        conn = sqlite3.connect(
            f"{self._reader_uri}?mode=ro", uri=True, check_same_thread=False, isolation_level=None
        )
        register(conn)
        return conn

    def _give_reader(self, conn: sqlite3.Connection) -> None:
        with self._readers_lock:
            if len(self._readers) < _IDLE_READERS:
                self._readers.append(conn)
                return
        conn.close()

    @contextmanager
    def snapshot(self) -> Iterator[Snapshot]:
        """A :class:`Snapshot` whose reads all see the tables as one state: what passes
        commit while it is open is not seen by it, and it does not wait for them."""
        if self._reader_uri is None:
            with self._lock:
                yield Snapshot(self._conn)
            return
        conn = self._take_reader()
        ended = False
        try:
            conn.execute("BEGIN")
            yield Snapshot(conn)
        finally:
            try:
                if conn.in_transaction:
                    conn.execute("COMMIT")
                ended = True
            finally:
                if ended:
                    self._give_reader(conn)
                else:
                    conn.close()

    def _lookup(self, kind: str, key: str) -> str | None:
        row = self._conn.execute(_LOOKUPS[kind], (key,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def last_version(self) -> int | None:
        """The last version every processor has finished, or None before the first."""
        with self._lock:
            row = self._conn.execute(
                "SELECT MIN(last_success_version), COUNT(*) FROM processor_status"
            ).fetchone()
        return None if row[1] < len(PROCESSORS) else int(row[0])

    def query(
        self, sql: str, params: list[Any], *, steps: int, spent: list[int] | None = None
    ) -> list[tuple[Any, ...]]:
        """Rows of a read, abandoned (``sqlite3.OperationalError``) past ``steps`` VM
        steps (in thousands); the thousands it ran are added to ``spent[0]``, whether it
        finished or not."""
        with self.snapshot() as snapshot:
            return snapshot.query(sql, params, steps=steps, spent=spent)

    # -- indexing -------------------------------------------------------------------------

    def catch_up(
        self,
        ledger: Indexed,
        *,
        batch: int = BATCH_VERSIONS,
        stop: threading.Event | None = None,
        progress_seconds: float = PROGRESS_SECONDS,
    ) -> int:
        """Index what the ledger committed since the last pass; the last version indexed
        (-1 when nothing is).

        Parameters
        ----------
        batch
            Versions written per SQLite transaction.
        stop
            Once set, the pass ends after the batch it is writing (what it wrote stays).
        progress_seconds
            A pass running longer says how far it is (an INFO line), then again each
            time as long again has passed, and says when it is done.
        """
        head = int(ledger.head_within(None).version)
        chain_id = int(ledger.config.chain_id)
        last = self.last_version()
        if last is not None and (
            last > head
            or self._chain_id() not in (None, chain_id)
            or self._root() != _root_at(ledger, last)
        ):
            _log.warning("the indexer's file is not of this ledger; indexing it again")
            self._empty()
            last = None
        start = 0 if last is None else last + 1
        began = time.monotonic()
        said = began
        while start <= head:
            if stop is not None and stop.is_set():
                return start - 1
            end = min(start + batch, head + 1)
            self._index(ledger, start, end, chain_id)
            start = end
            now = time.monotonic()
            if start <= head and now - said >= progress_seconds:
                said = now
                _log.info("indexer: indexed up to version %d of %d", start - 1, head)
        if said != began:
            _log.info("indexer: caught up with version %d in %.1f s", head, now - began)
        return head if head >= 0 else -1

    def _root(self) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT root FROM _ledger").fetchone()
        return None if row is None else str(row[0])

    def _chain_id(self) -> int | None:
        with self._lock:
            row = self._conn.execute("SELECT chain_id FROM ledger_infos").fetchone()
        return None if row is None else int(row[0])

    def _empty(self) -> None:
        with self._lock:
            for name in (*TABLES, "_paired", "_supplies", "_v1_tables", "_ledger"):
                self._conn.execute(f'DROP TABLE IF EXISTS "{name}"')
            self._create()
        self._indexer = TransactionIndexer(self._lookup)

    def _index(self, ledger: Indexed, start: int, end: int, chain_id: int) -> None:
        reads = ledger.store.reads
        now = datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")
        rows = Rows()
        block = None
        stamp = None
        root = None
        indexer = self._indexer
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for raw in reads.transactions(start, end):
                    txn = orjson.loads(raw)
                    version = int(txn["version"])
                    if block is None or block.last_version < version:
                        block = reads.block_containing(version)
                    indexer.index(txn, (block.height, block.epoch), now, rows)
                    stamp = int(txn.get("timestamp", block.timestamp))
                    root = txn.get("accumulator_root_hash")
                    if len(rows.tables.get("events", ())) > 5000:
                        self._write(rows)
                        rows = Rows()
                self._write(rows)
                self._status(end - 1, now, stamp, chain_id)
                self._conn.execute(
                    "INSERT OR REPLACE INTO _ledger VALUES (0, ?, ?)", (end - 1, root)
                )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                self._indexer = TransactionIndexer(self._lookup)  # forget the half-made pass
                raise

    def _write(self, rows: Rows) -> None:
        for name, made in rows.tables.items():
            columns = list(made[0])
            quoted = ", ".join(f'"{c}"' for c in columns)
            marks = ", ".join("?" for _ in columns)
            statement = f'INSERT OR REPLACE INTO "{name}" ({quoted}) VALUES ({marks})'
            if name in PARTIAL_UPDATES:  # change some columns of a row already there
                table, key, updated = PARTIAL_UPDATES[name]
                sets = ", ".join(f'"{c}" = excluded."{c}"' for c in updated)
                statement = (
                    f'INSERT INTO "{table}" ({quoted}) VALUES ({marks}) ON CONFLICT '
                    f"({', '.join(key)}) DO UPDATE SET {sets}"
                )
            self._conn.executemany(statement, [[_stored(row[c]) for c in columns] for row in made])
        if "_supplies" in rows.tables or "fungible_asset_metadata" in rows.tables:
            self._conn.execute(_APPLY_SUPPLIES)

    def _status(self, version: int, now: str, stamp: int | None, chain_id: int) -> None:
        last_stamp = None if stamp is None else iso_timestamp(stamp)
        self._conn.executemany(
            "INSERT OR REPLACE INTO processor_status VALUES (?, ?, ?, ?)",
            [(name, version, now, last_stamp) for name in PROCESSORS],
        )
        self._conn.execute("INSERT OR REPLACE INTO ledger_infos VALUES (?)", (chain_id,))


class IndexerThread:
    """Keeps an :class:`IndexerDb` up with a ledger: a pass every :data:`POLL_SECONDS`.

    A failed pass is tried again after a wait that doubles with each failure in a row
    (``retry_seconds``: the first and the longest, :data:`RETRY_SECONDS` by default); the
    first failure of a run is logged with its traceback, the next ones are not, and the
    pass that succeeds again says how many failed before it.
    """

    def __init__(
        self,
        db: IndexerDb,
        ledger: Indexed,
        *,
        retry_seconds: tuple[float, float] = RETRY_SECONDS,
    ) -> None:
        self._db = db
        self._ledger = ledger
        self._retry = retry_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ledgerkit-indexer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop, once the batch being written (if any) is committed; returns when the
        thread has ended, so the file may then be closed."""
        self._stop.set()
        if self._thread.ident is None:
            return
        self._thread.join(timeout=10)
        if self._thread.is_alive():
            _log.info("indexer: waiting for the batch being written to commit")
            self._thread.join()

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                self._db.catch_up(self._ledger, stop=self._stop)
            except Exception:  # keep indexing; a bad pass is tried again
                failures += 1
                if failures == 1:
                    _log.exception("indexing failed; trying again (further failures unlogged)")
                first, longest = self._retry
                self._stop.wait(min(longest, first * 2 ** min(failures - 1, 32)))
                continue
            if failures:
                _log.warning("indexing works again, after %d failed passes", failures)
                failures = 0
            self._stop.wait(POLL_SECONDS)
