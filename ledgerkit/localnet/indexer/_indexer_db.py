"""The indexer's own SQLite file beside the ledger's, and the thread that keeps it up
with the ledger as blocks commit.

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

__all__ = ["BATCH_VERSIONS", "POLL_SECONDS", "Indexed", "IndexerDb", "IndexerThread"]

_log = logging.getLogger("ledgerkit.localnet")

#: Transactions indexed per SQLite transaction.
BATCH_VERSIONS: Final = 2000
#: How often the indexer looks for new blocks.
POLL_SECONDS: Final = 0.05

_HIDDEN: Final = (
    'CREATE TABLE IF NOT EXISTS "_paired" (metadata TEXT PRIMARY KEY, coin TEXT NOT NULL)',
    'CREATE TABLE IF NOT EXISTS "_supplies" (asset_type TEXT PRIMARY KEY, supply, maximum)',
    # The ledger indexed: the accumulator root of the last version indexed (it commits
    # to every transaction up to it, so another ledger with the same chain id differs).
    'CREATE TABLE IF NOT EXISTS "_ledger" (one INTEGER PRIMARY KEY, version INTEGER, root TEXT)',
)
_LOOKUPS: Final = {
    "owner": "SELECT owner_address FROM current_objects WHERE object_address=?",
    "store": "SELECT asset_type_v2 FROM current_fungible_asset_balances WHERE storage_id=?",
    "paired": "SELECT coin FROM _paired WHERE metadata=?",
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

    def _create(self) -> None:
        for statement in (*create_statements(), *_HIDDEN):
            self._conn.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

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
        counted = [0] if spent is None else spent
        steps += counted[0]

        def progress() -> int:
            counted[0] += 1
            return 1 if counted[0] > steps else 0

        with self._lock:
            self._conn.set_progress_handler(progress, 1000)
            try:
                found: list[tuple[Any, ...]] = self._conn.execute(sql, params).fetchall()
                return found
            finally:
                self._conn.set_progress_handler(None, 0)

    # -- indexing -------------------------------------------------------------------------

    def catch_up(self, ledger: Indexed, *, batch: int = BATCH_VERSIONS) -> int:
        """Index what the ledger committed since the last pass; the last version indexed
        (-1 when nothing is)."""
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
        while start <= head:
            end = min(start + batch, head + 1)
            self._index(ledger, start, end, chain_id)
            start = end
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
            for name in (*TABLES, "_paired", "_supplies", "_ledger"):
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
            self._conn.executemany(
                f'INSERT OR REPLACE INTO "{name}" ({quoted}) VALUES ({marks})',
                [[_stored(row[c]) for c in columns] for row in made],
            )
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
    """Keeps an :class:`IndexerDb` up with a ledger: a pass every :data:`POLL_SECONDS`."""

    def __init__(self, db: IndexerDb, ledger: Indexed) -> None:
        self._db = db
        self._ledger = ledger
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ledgerkit-indexer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._db.catch_up(self._ledger)
            except Exception:  # keep indexing; a bad pass is tried again
                _log.exception("indexing failed")
                self._stop.wait(1.0)
            self._stop.wait(POLL_SECONDS)
