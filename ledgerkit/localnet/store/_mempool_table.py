"""The ``mempool`` table of the ledger's file: every transaction accepted and not yet
committed, as BCS, in arrival order.

A row is written with the admission and removed in the transaction that commits its
block (or when it expires, is replaced or is dropped), so a restarted node carries on
with what it had accepted. The table came after schema version 1 and is added to older
files when they are opened.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Final

from ledgerkit.localnet.store._connections import Connections

__all__ = ["MEMPOOL_SCHEMA", "MempoolTable"]

#: Added without a schema version change: older files get it when opened.
MEMPOOL_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS mempool (
    arrival INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE,
    bcs BLOB NOT NULL
)
"""


class MempoolTable:
    """The ``mempool`` table of a :class:`~ledgerkit.localnet.store.Store` (its ``mempool``).

    Parameters
    ----------
    connections : Connections
        The store's connections to its file.
    """

    def __init__(self, connections: Connections) -> None:
        self._connections = connections

    def admit(self, txn_hash: bytes, signed_bcs: bytes, replaced: bytes | None) -> None:
        """Record an accepted transaction (and forget the one it replaces), durably."""

        def work(conn: sqlite3.Connection) -> None:
            if replaced is not None:
                conn.execute("DELETE FROM mempool WHERE hash=?", (replaced,))
            conn.execute(
                "INSERT OR REPLACE INTO mempool (hash, bcs) VALUES (?,?)", (txn_hash, signed_bcs)
            )

        self._write(work)

    def drop(self, hashes: list[bytes]) -> None:
        """Forget transactions that left the mempool without a block."""

        def work(conn: sqlite3.Connection) -> None:
            conn.executemany("DELETE FROM mempool WHERE hash=?", [(h,) for h in hashes])

        if hashes:
            self._write(work)

    def transactions(self) -> list[tuple[bytes, bytes]]:
        """``(hash, BCS)`` of the recorded transactions, in arrival order."""
        rows = self._connections.fetch_all("SELECT hash, bcs FROM mempool ORDER BY arrival", ())
        return [(bytes(row[0]), bytes(row[1])) for row in rows]

    def _write(self, work: Callable[[sqlite3.Connection], None]) -> None:
        with self._connections.write_lock:
            conn = self._connections.connection()
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
