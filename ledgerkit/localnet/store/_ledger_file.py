"""The ledger's storage: one SQLite file in WAL mode, written a whole block at a time.

:class:`Store` is the file. It has its schema (:mod:`._sqlite_schema`), its per-thread
connections (:mod:`._connections`), its reads (``store.reads``, :mod:`._row_reads`), its
mempool table (``store.mempool``, :mod:`._mempool_table`), and here the block writes.
State keys are the byte strings of :mod:`ledgerkit.localnet.vm.framework._state_keys`.
Writes are serialized by a lock and a block is one SQLite transaction, so a reader sees
a block entirely or not at all, and a crash loses at most the block being written.
"""

from __future__ import annotations

from pathlib import Path

from ledgerkit.localnet._node_errors import NodeConfigError
from ledgerkit.localnet.store._block_rows import BlockRecord, BlockWrite
from ledgerkit.localnet.store._connections import Connections
from ledgerkit.localnet.store._mempool_table import MEMPOOL_SCHEMA, MempoolTable
from ledgerkit.localnet.store._row_reads import LatestCache, StoreReads
from ledgerkit.localnet.store._sqlite_schema import SCHEMA_VERSION, create_tables

__all__ = ["SCHEMA_VERSION", "BlockRecord", "BlockWrite", "Store"]


class Store:
    """The SQLite file of one ledger.

    Parameters
    ----------
    path : str or Path
        The database file; created (with its schema) when missing.

    Attributes
    ----------
    path : str
        The database file.
    connections : Connections
        The per-thread connections to the file and its write lock, shared by the parts.
    reads : StoreReads
        Meta, state, state keys, transactions, events and blocks.
    mempool : MempoolTable
        The accepted transactions not yet committed.

    Raises
    ------
    ValueError
        The file holds another schema version.
    """

    def __init__(self, path: str | Path) -> None:
        self.connections = Connections(path)
        self.path = self.connections.path
        self._cache = LatestCache()
        self.reads = StoreReads(self.connections, self._cache)
        self.mempool = MempoolTable(self.connections)
        self._migrate()
        last = self.reads.last_block()
        self._cache.version = -1 if last is None else last.last_version

    def _migrate(self) -> None:
        conn = self.connections.connection()
        with self.connections.write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                create_tables(conn)
                conn.execute(MEMPOOL_SCHEMA)
                conn.execute("COMMIT")
            except BaseException:
                # A signal can land after COMMIT has run: nothing is left to roll back.
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        found = self.reads.meta("schema_version")
        if found != str(SCHEMA_VERSION):
            raise NodeConfigError(
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
        with self.connections.write_lock:
            conn = self.connections.connection()
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
                with self._cache.lock:
                    self._cache.sequence += 1
                    if commit:
                        conn.execute("COMMIT")
                    for skey, _, json, bcs in write.state:
                        self._cache.values[skey] = None if json is None else (json, bcs or b"")
                    self._cache.version = b.last_version
                    self._cache.sequence += 1
            except BaseException:
                with self._cache.lock:
                    self._cache.sequence += 2
                    self._cache.values.clear()
                    self._cache.version = -1
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def commit(self) -> None:
        """Commit blocks written with ``commit=False``."""
        with self.connections.write_lock:
            conn = self.connections.connection()
            if conn.in_transaction:
                conn.execute("COMMIT")

    def close(self) -> None:
        """Close every thread's connection (checkpointing the WAL into the file)."""
        self.connections.close()

    def rollback(self) -> None:
        """Drop blocks written with ``commit=False`` and not committed yet."""
        with self.connections.write_lock:
            conn = self.connections.connection()
            with self._cache.lock:
                self._cache.sequence += 2
                self._cache.values.clear()
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                last = self.reads.last_block()
                self._cache.version = -1 if last is None else last.last_version
