"""The ledger's storage: one SQLite file, written a whole block at a time.

A :class:`Store` is composed of parts that share the file's connections:

* ``_ledger_file``: :class:`Store` itself, the block writer, commit and rollback;
* ``_row_reads``: its ``reads`` (:class:`StoreReads`): meta, state with a cache of the
  latest values, state keys, transactions, events and blocks;
* ``_mempool_table``: its ``mempool`` (:class:`MempoolTable`), the accepted transactions
  not yet committed, so a restarted node carries on with them;
* ``_connections``: one SQLite connection per thread and one writer at a time;
* ``_sqlite_schema``: the tables and the schema version;
* ``_block_rows``: a block as the store keeps it (:class:`BlockRecord`) and everything
  its write adds (:class:`BlockWrite`).
"""

from __future__ import annotations

from ledgerkit.localnet.store._block_rows import BlockRecord, BlockWrite
from ledgerkit.localnet.store._ledger_file import Store
from ledgerkit.localnet.store._mempool_table import MempoolTable
from ledgerkit.localnet.store._row_reads import StoreReads
from ledgerkit.localnet.store._sqlite_schema import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION",
    "BlockRecord",
    "BlockWrite",
    "MempoolTable",
    "Store",
    "StoreReads",
]
