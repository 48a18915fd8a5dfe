"""The indexer beside the embedded node: the tables of aptos-indexer-processors kept in a
SQLite file of their own as blocks commit, and a Hasura-style GraphQL API over them.

* ``_tables``: the tables' columns (one definition for SQLite and GraphQL);
* ``_processors``: rows of those tables from committed transactions;
* ``_indexer_db``: the file, indexing passes, and the thread that runs them.
"""

from __future__ import annotations

from ledgerkit.localnet.indexer._indexer_db import IndexerDb, IndexerThread
from ledgerkit.localnet.indexer._processors import PROCESSORS
from ledgerkit.localnet.indexer._tables import TABLES

__all__ = ["PROCESSORS", "TABLES", "IndexerDb", "IndexerThread"]
