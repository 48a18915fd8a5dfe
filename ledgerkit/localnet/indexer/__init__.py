"""The indexer beside the embedded node: the tables of aptos-indexer-processors kept in a
SQLite file of their own as blocks commit, and a Hasura-style GraphQL API over them.

* ``_tables``: the tables' columns (one definition for SQLite and GraphQL);
* ``_processors``: rows of those tables from committed transactions (the token v2
  processor's in ``_token_processor`` for digital assets, ``_token_v1_processor`` for
  token v1);
* ``_indexer_db``: the file, indexing passes and the thread that runs them, and the
  read-only snapshots requests read through;
* ``_graphql_schema``: the GraphQL schema Hasura would make of the tables;
* ``_graphql_sql``: its resolvers, each selection one parameterised SQL read;
* ``_graphql_app``: the Starlette app at ``/v1/graphql`` and the bounds of a request.
"""

from __future__ import annotations

from ledgerkit.localnet.indexer._graphql_app import build_schema_sdl, create_indexer_app, run_query
from ledgerkit.localnet.indexer._graphql_sql import QueryBudget, QueryRefusedError
from ledgerkit.localnet.indexer._indexer_db import IndexerDb, IndexerThread, Snapshot
from ledgerkit.localnet.indexer._processors import PROCESSORS
from ledgerkit.localnet.indexer._tables import TABLES

__all__ = [
    "PROCESSORS",
    "TABLES",
    "IndexerDb",
    "IndexerThread",
    "QueryBudget",
    "QueryRefusedError",
    "Snapshot",
    "build_schema_sdl",
    "create_indexer_app",
    "run_query",
]
