"""When an answer can be cached: the policies the request builders (``_calls``) attach.

An answer is stored only when it can never change. Committed transactions (by version, by
hash), complete blocks, pages of a version range or an event stream that are full, and
anything asked at an explicit ``ledger_version`` the ledger has reached. Questions about
the latest state have no policy and are never looked up. No I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledgerkit.client import _decoders as dec
from ledgerkit.types import LedgerMeta

__all__ = [
    "at_version",
    "committed",
    "complete_block",
    "full_page",
    "last_transaction_version",
    "version_page",
]


def at_version(version: int | None) -> Callable[[Any, LedgerMeta], bool] | None:
    """Anything asked at a version the ledger has reached is fixed forever."""
    if version is None:
        return None
    return lambda _value, ledger: version <= ledger.ledger_version


def committed(txn: dec.Transaction, _ledger: LedgerMeta) -> bool:
    return not dec.is_pending(txn)


def full_page(
    start: int | None, limit: int | None
) -> Callable[[list[Any], LedgerMeta], bool] | None:
    """A page of a sequence-numbered stream, from a given start, that holds all it asked for."""
    if start is None or limit is None:
        return None
    return lambda items, _ledger: len(items) == limit


def version_page(
    start: int | None, limit: int | None, versions: Callable[[list[Any]], int | None]
) -> Callable[[list[Any], LedgerMeta], bool] | None:
    """A page of a version range that ended before the ledger's head (or is full)."""
    if start is None:
        return None

    def storable(items: list[Any], ledger: LedgerMeta) -> bool:
        if not items:
            return False
        last = versions(items)
        return len(items) == limit or (last is not None and last < ledger.ledger_version)

    return storable


def last_transaction_version(items: list[dec.Transaction]) -> int | None:
    return dec.transaction_version(items[-1])


def complete_block(block: dec.Block, _ledger: LedgerMeta) -> bool:
    return dec.block_is_complete(block)
