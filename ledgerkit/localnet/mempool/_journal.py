"""The mempool kept in the ledger's file: the journal that records each change, and the
restore that takes the recorded transactions back when a ledger is opened.

A restarted node carries on with what it had accepted, less what expired, what a block
used the sequence number of, or what no longer fits.
"""

from __future__ import annotations

from collections.abc import Callable

from ledgerkit._errors import BCSError
from ledgerkit.bcs import SignedTransaction
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.mempool._pool import Mempool, Pending, pending_of
from ledgerkit.localnet.store import Store
from ledgerkit.localnet.wire import module_abi_reader

__all__ = ["StoreJournal", "restore_mempool"]


class StoreJournal:
    """Records the mempool's changes in the ledger's file (see :class:`Mempool`)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def admitted(self, pending: Pending, replaced: Pending | None) -> None:
        self._store.mempool.admit(
            pending.hash, pending.signed.to_bcs(), None if replaced is None else replaced.hash
        )

    def dropped(self, hashes: list[bytes]) -> None:
        self._store.mempool.drop(hashes)


def restore_mempool(
    store: Store, mempool: Mempool, now_secs: int, sequence_of: Callable[[bytes], int]
) -> None:
    """Take back the transactions ``store`` holds as accepted, then record from now on.

    Those expired by ``now_secs``, whose sequence number was used (``sequence_of`` gives
    an account's next one), or that no longer fit are dropped (from the file too).
    """
    dropped = []
    abi_of = module_abi_reader(store.reads.state)  # published calls read at the head
    for txn_hash, signed_bcs in store.mempool.transactions():
        try:
            pending = pending_of(SignedTransaction.from_bcs(signed_bcs), abi_of)
            if pending.expiration_secs > now_secs and pending.sequence_number >= (
                sequence_of(pending.sender)
            ):
                mempool.add(pending, now_secs)
                continue
        except (NodeError, BCSError):
            pass
        dropped.append(txn_hash)
    store.mempool.drop(dropped)
    mempool.journal = StoreJournal(store)
