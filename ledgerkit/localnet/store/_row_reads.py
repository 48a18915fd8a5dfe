"""The ledger file's reads: meta, state (with its cache of latest values), state keys,
transactions, events and blocks.

Latest state values are cached in memory; the block writer refreshes what it wrote under
a sequence counter (see :meth:`StoreReads.state`), so readers never wait for a block.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, Final

from ledgerkit.localnet.store._block_rows import BlockRecord
from ledgerkit.localnet.store._connections import Connections

__all__ = ["LATEST_CACHE_SIZE", "LatestCache", "StoreReads"]

#: Rows a state key walk fetches at a time.
_KEY_BATCH: Final = 256
#: Latest state values kept in memory (the cache is emptied when it fills).
LATEST_CACHE_SIZE: Final = 100_000
_MISSING: Final = object()


def _prefix_end(prefix: bytes) -> bytes | None:
    """The least byte string above every string that starts with ``prefix``."""
    stripped = prefix.rstrip(b"\xff")
    if not stripped:
        return None
    return stripped[:-1] + bytes([stripped[-1] + 1])


class LatestCache:
    """Latest state values kept in memory, shared by a store's reads and its block writer.

    The writer refreshes what it wrote under :attr:`sequence`, odd while it does, so a
    reader never takes a value from a half-updated cache (see :meth:`StoreReads.state`).
    """

    def __init__(self) -> None:
        #: Latest state values by key (None: deleted).
        self.values: dict[bytes, tuple[bytes, bytes] | None] = {}
        self.lock = threading.Lock()
        #: Odd while the block writer updates the cache.
        self.sequence = 0
        #: The version the cache holds the latest values of (-1: none).
        self.version = -1


class StoreReads:
    """The reads of a :class:`~ledgerkit.localnet.store.Store` (its ``reads``).

    Parameters
    ----------
    connections : Connections
        The store's connections to its file.
    cache : LatestCache
        The latest state values, which the store's block writer refreshes.
    """

    def __init__(self, connections: Connections, cache: LatestCache) -> None:
        self._connections = connections
        self._cache = cache

    def meta(self, key: str) -> str | None:
        row = self._connections.fetch_one("SELECT value FROM meta WHERE key=?", (key,))
        return None if row is None else str(row[0])

    # -- state --------------------------------------------------------------------------

    def state(self, skey: bytes, version: int | None = None) -> tuple[bytes, bytes] | None:
        """``(json, bcs)`` of a state item at ``version`` (None: latest), or None.

        Latest values are cached: the block writer refreshes what it wrote, under a
        sequence counter (odd while it writes) so a reader never takes a value from a
        half-updated cache or caches one read before a newer block committed.
        """
        start = self._cache.sequence
        if start % 2 == 0 and (version is None or version >= self._cache.version):
            found = self._cache.values.get(skey, _MISSING)
            if found is not _MISSING and self._cache.sequence == start:
                return found  # type: ignore[return-value]
            value = self._read_state(skey, version)
            with self._cache.lock:
                if self._cache.sequence == start:
                    if len(self._cache.values) >= LATEST_CACHE_SIZE:
                        self._cache.values.clear()
                    self._cache.values[skey] = value
            return value
        return self._read_state(skey, version)

    def _read_state(self, skey: bytes, version: int | None) -> tuple[bytes, bytes] | None:
        if version is None:
            row = self._connections.fetch_one(
                "SELECT json, bcs FROM state WHERE skey=? ORDER BY version DESC LIMIT 1", (skey,)
            )
        else:
            row = self._connections.fetch_one(
                "SELECT json, bcs FROM state WHERE skey=? AND version<=? "
                "ORDER BY version DESC LIMIT 1",
                (skey, version),
            )
        if row is None or row[0] is None:
            return None
        return row[0], row[1]

    def usage(self, version: int) -> tuple[int, int]:
        """The state at ``version``: how many items it holds and their bytes (each item's
        stored key and BCS value), as ``0x1::state_storage`` counts them at an epoch's
        beginning."""
        row = self._connections.fetch_one(
            "SELECT count(*), coalesce(sum(length(s.skey) + length(s.bcs)), 0) "
            "FROM state_keys k JOIN state s ON s.id = ("
            "SELECT id FROM state WHERE skey = k.skey AND version <= ? "
            "ORDER BY version DESC LIMIT 1) "
            "WHERE k.first_version <= ? AND s.json IS NOT NULL",
            (version, version),
        )
        return (0, 0) if row is None else (int(row[0]), int(row[1]))

    def keys(self, prefix: bytes, start: bytes | None, version: int) -> Iterator[bytes]:
        """State keys under ``prefix`` from ``start`` on, in order, created by ``version``."""
        low = start if start is not None and start > prefix else prefix
        high = _prefix_end(prefix)
        inclusive = True
        while True:
            op = ">=" if inclusive else ">"
            if high is None:
                rows = self._connections.fetch_all(
                    f"SELECT skey, first_version FROM state_keys WHERE skey {op} ? "
                    "ORDER BY skey LIMIT ?",
                    (low, _KEY_BATCH),
                )
            else:
                rows = self._connections.fetch_all(
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
        row = self._connections.fetch_one(
            "SELECT json FROM transactions WHERE version=?", (version,)
        )
        return None if row is None else bytes(row[0])

    def transactions(self, start: int, end: int) -> list[bytes]:
        """JSON of the transactions with ``start <= version < end``."""
        rows = self._connections.fetch_all(
            "SELECT json FROM transactions WHERE version>=? AND version<? ORDER BY version",
            (start, end),
        )
        return [bytes(row[0]) for row in rows]

    def version_of(self, txn_hash: bytes) -> int | None:
        row = self._connections.fetch_one(
            "SELECT version FROM transactions WHERE hash=?", (txn_hash,)
        )
        return None if row is None else int(row[0])

    def account_transactions(
        self, sender: bytes, start: int, limit: int, min_version: int
    ) -> list[bytes]:
        """JSON of ``sender``'s transactions from sequence number ``start`` on."""
        rows = self._connections.fetch_all(
            "SELECT json FROM transactions WHERE sender=? AND sequence_number>=? "
            "AND version>=? ORDER BY sequence_number LIMIT ?",
            (sender, start, min_version, limit),
        )
        return [bytes(row[0]) for row in rows]

    def account_summaries(
        self, sender: bytes, start: int | None, end: int, limit: int, min_version: int
    ) -> list[tuple[int, bytes, int | None, bytes | None]]:
        """``(version, hash, sequence number, JSON)`` of ``sender``'s transactions with
        ``min_version <= version <= end``: the first ``limit`` from ``start`` on, or without
        it the last ``limit``, ascending either way. The JSON only of orderless ones (no
        sequence number), for their nonce."""
        columns = "SELECT version, hash, sequence_number, CASE WHEN sequence_number IS NULL "
        columns += "THEN json END FROM transactions WHERE sender=? AND version>=? AND version<=? "
        if start is not None:
            query = columns + "ORDER BY version LIMIT ?"
            rows = self._connections.fetch_all(query, (sender, max(start, min_version), end, limit))
        else:
            query = columns + "ORDER BY version DESC LIMIT ?"
            rows = self._connections.fetch_all(query, (sender, min_version, end, limit))[::-1]
        return [
            (int(v), bytes(h), None if n is None else int(n), None if j is None else bytes(j))
            for v, h, n, j in rows
        ]

    def transaction_indexes(self, start: int, end: int) -> list[int]:
        """Index in its block of each transaction with ``start <= version < end``."""
        rows = self._connections.fetch_all(
            "SELECT txn_index FROM transactions WHERE version>=? AND version<? ORDER BY version",
            (start, end),
        )
        return [int(row[0]) for row in rows]

    # -- events -------------------------------------------------------------------------

    def events(self, account: bytes, creation_number: int, start: int, limit: int) -> list[bytes]:
        rows = self._connections.fetch_all(
            "SELECT json FROM events WHERE account=? AND creation_number=? "
            "AND sequence_number>=? ORDER BY sequence_number LIMIT ?",
            (account, creation_number, start, limit),
        )
        return [bytes(row[0]) for row in rows]

    def last_event_sequence(self, account: bytes, creation_number: int) -> int | None:
        row = self._connections.fetch_one(
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
        return self._record(
            self._connections.fetch_one("SELECT * FROM blocks WHERE height=?", (height,))
        )

    def block_containing(self, version: int) -> BlockRecord | None:
        record = self._record(
            self._connections.fetch_one(
                "SELECT * FROM blocks WHERE first_version<=? ORDER BY first_version DESC LIMIT 1",
                (version,),
            )
        )
        return record if record is not None and record.last_version >= version else None

    def last_block(self) -> BlockRecord | None:
        return self._record(
            self._connections.fetch_one("SELECT * FROM blocks ORDER BY height DESC LIMIT 1", ())
        )

    def recent_blocks(self, count: int) -> list[tuple[bool, int | None]]:
        """``(full, lowest gas price)`` of the last ``count`` blocks, newest first."""
        rows = self._connections.fetch_all(
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
