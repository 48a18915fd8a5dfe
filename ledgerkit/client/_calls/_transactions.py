"""The request builders that read transactions: pages of them by version, one by version or
hash (JSON or BCS), the long poll of a pending one, and their auxiliary info. Published
by :mod:`ledgerkit.client.calls`.
"""

from __future__ import annotations

from typing import Any

from ledgerkit import models
from ledgerkit._endpoints import BCS
from ledgerkit.bcs import TransactionData, TransactionOnChainData
from ledgerkit.client._answers import (
    committed,
    last_transaction_version,
    onchain_transactions,
    transaction_data,
    version_page,
)
from ledgerkit.client._call import Call, _call, _limit, _params, _route, _start, _txn_hash, _u64
from ledgerkit.client._declare import endpoint
from ledgerkit.models import AuxiliaryInfo, Transaction
from ledgerkit.types import LedgerMeta

# The client methods' return annotations read ``Result[...]`` (see _declare): imported
# here, where typing.get_type_hints looks them up.
from ledgerkit.types import Result as Result


@endpoint
def transactions(*, start: int | None = None, limit: int | None = None) -> Call[list[Transaction]]:
    """One page of committed transactions from version ``start`` (default: the newest)."""
    first, size = _start(start), _limit(limit)
    storable = version_page(first, size, last_transaction_version)
    query = _params(start=first, limit=size)
    return _call(_route("get_transactions"), models.decode_transactions, query, storable=storable)


@endpoint
def transaction_by_version(version: int) -> Call[Transaction]:
    """The transaction at ``version`` (cached once committed).

    Raises
    ------
    TransactionNotFoundError
        Past the ledger's head.
    VersionPrunedError
        Older than the node keeps.
    """
    route = _route("get_transaction_by_version", txn_version=_u64(version, "version"))
    return _call(route, models.decode_transaction, storable=committed)


@endpoint
def transaction_by_hash(txn_hash: str | bytes) -> Call[Transaction]:
    """The transaction with this hash: committed, or still pending in the mempool."""
    route = _route("get_transaction_by_hash", txn_hash=_txn_hash(txn_hash))
    return _call(route, models.decode_transaction, storable=committed)


@endpoint
def wait_transaction_by_hash(txn_hash: str | bytes) -> Call[Transaction]:
    """The transaction with this hash, once the node has waited a moment for it to leave
    the mempool (a long poll: the answer may still be pending).

    :meth:`wait_for_transaction` asks it until the transaction is committed. A committed
    answer is cached as :meth:`transaction_by_hash`'s.

    Raises
    ------
    TransactionNotFoundError
        The node has never heard of it.
    """
    digest = _txn_hash(txn_hash)
    return _call(
        _route("wait_transaction_by_hash", txn_hash=digest),
        models.decode_transaction,
        storable=committed,
        cache_path=_route("get_transaction_by_hash", txn_hash=digest).path,
    )


def _settled(data: TransactionData, _ledger: LedgerMeta) -> bool:
    return not data.is_pending


@endpoint
def transaction_by_version_bcs(version: int) -> Call[TransactionData]:
    """The transaction at ``version`` as the node's BCS ``TransactionData`` (its
    ``.onchain`` holds the ledger transaction, info, events and write set; ``.bytes``
    the answer as received)."""
    route = _route("get_transaction_by_version", txn_version=_u64(version, "version"))
    return _call(route, transaction_data, accept=BCS, storable=_settled)


@endpoint
def transaction_by_hash_bcs(txn_hash: str | bytes) -> Call[TransactionData]:
    """The transaction with this hash as BCS ``TransactionData``: ``.onchain`` once
    committed, ``.pending`` (the signed transaction) while it waits."""
    route = _route("get_transaction_by_hash", txn_hash=_txn_hash(txn_hash))
    return _call(route, transaction_data, accept=BCS, storable=_settled)


@endpoint
def transactions_bcs(
    *, start: int | None = None, limit: int | None = None
) -> Call[list[TransactionOnChainData]]:
    """One page of committed transactions from version ``start``, decoded from BCS."""
    query = _params(start=_start(start), limit=_limit(limit))
    return _call(_route("get_transactions"), onchain_transactions, query, accept=BCS)


@endpoint
def transactions_auxiliary_info(
    start_version: int, *, limit: int | None = None
) -> Call[list[AuxiliaryInfo]]:
    """Auxiliary info (the index within its block) of transactions from ``start_version``."""
    first, size = int(_u64(start_version, "start_version")), _limit(limit)

    def last_version(items: list[Any]) -> int:
        return first + len(items) - 1

    return _call(
        _route("get_transactions_auxiliary_info"),
        models.decode_auxiliary_info,
        _params(start_version=first, limit=size),
        storable=version_page(first, size, last_version),
    )
