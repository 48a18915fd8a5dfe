"""The mempool: transactions accepted but not yet in a block.

* ``_pool``: :class:`Mempool` (per-account queues in sequence number order, orderless
  transactions, capacity, expiry, the system lifetime) and :func:`admit`, the admission checks;
* ``_journal``: the mempool's record in the ledger's file (:class:`StoreJournal`) and
  :func:`restore_mempool`, which takes the recorded transactions back on opening.

Exports :data:`SYSTEM_TTL_SECS`, :class:`Mempool`, :class:`Pending`, :func:`admit` and
:func:`restore_mempool`.
"""

from __future__ import annotations

from ledgerkit.localnet.mempool._journal import restore_mempool
from ledgerkit.localnet.mempool._pool import SYSTEM_TTL_SECS, Mempool, Pending, admit

__all__ = [
    "SYSTEM_TTL_SECS",
    "Mempool",
    "Pending",
    "admit",
    "restore_mempool",
]
