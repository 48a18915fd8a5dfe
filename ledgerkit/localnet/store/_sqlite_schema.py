"""The schema of the ledger's SQLite file (version :data:`SCHEMA_VERSION`).

Tables:

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
``mempool``       see :mod:`._mempool_table` (added to older files when opened).
"""

from __future__ import annotations

import sqlite3
from typing import Final

__all__ = ["SCHEMA_VERSION", "create_tables"]

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


def create_tables(conn: sqlite3.Connection) -> None:
    """Create the tables of :data:`SCHEMA_VERSION` in an empty file (inside the caller's
    transaction); a file that has them already is left as it is."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'"
    ).fetchone()
    if not exists:
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
