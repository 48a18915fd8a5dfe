"""The mempool: transactions accepted but not yet in a block.

Transactions wait per sender, keyed by sequence number; a block takes, among the senders
whose next sequence number is waiting, the highest gas price first (ties: first come),
then that sender's following transaction becomes a candidate. A transaction with the
same sender and sequence number as a waiting one replaces it only if it pays more per
gas unit (otherwise ``invalid_transaction_update``, unless it is the same transaction).
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import SignedTransaction
from ledgerkit.localnet._errors import NodeError

__all__ = ["PER_ACCOUNT_CAPACITY", "Mempool", "Pending"]

#: Transactions one sender may have waiting.
PER_ACCOUNT_CAPACITY: Final = 100


@dataclass(slots=True)
class Pending:
    """One waiting transaction with what ordering needs, and its pending JSON."""

    signed: SignedTransaction
    hash: bytes
    sender: bytes
    sequence_number: int
    gas_unit_price: int
    expiration_secs: int
    size: int
    json: dict[str, Any]
    #: The entry function's arguments in JSON form (None when they do not decode).
    arguments: list[Any] | None = None
    arrival: int = field(default=0)


class Mempool:
    """Waiting transactions, thread-safe."""

    def __init__(self, capacity: int, per_account: int = PER_ACCOUNT_CAPACITY) -> None:
        self.capacity = capacity
        self.per_account = per_account
        self._by_hash: dict[bytes, Pending] = {}
        #: Taken into a block that is not committed yet: still found by hash.
        self._in_flight: dict[bytes, Pending] = {}
        self._by_sender: dict[bytes, dict[int, Pending]] = {}
        self._arrivals = itertools.count()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._by_hash)

    def get(self, txn_hash: bytes) -> Pending | None:
        """A waiting transaction, or one in a block being committed."""
        with self._lock:
            return self._by_hash.get(txn_hash) or self._in_flight.get(txn_hash)

    def add(self, pending: Pending) -> Pending:
        """Accept ``pending`` (or return the identical one already waiting).

        Raises
        ------
        NodeError
            ``invalid_transaction_update`` for a different transaction with the same
            sender and sequence number that does not pay more; ``mempool_is_full``.
        """
        with self._lock:
            queue = self._by_sender.get(pending.sender, {})
            existing = queue.get(pending.sequence_number)
            if existing is not None:
                if existing.hash == pending.hash:
                    return existing
                if pending.gas_unit_price <= existing.gas_unit_price:
                    raise NodeError(
                        ErrorCode.INVALID_TRANSACTION_UPDATE,
                        "Transaction already in mempool with a different payload; a replacement "
                        "must pay a higher gas unit price",
                    )
                del self._by_hash[existing.hash]
            elif len(self._by_hash) >= self.capacity:
                raise NodeError(ErrorCode.MEMPOOL_IS_FULL, "Mempool is full")
            elif len(queue) >= self.per_account:
                raise NodeError(
                    ErrorCode.MEMPOOL_IS_FULL,
                    f"Mempool holds {self.per_account} transactions of this account already",
                )
            pending.arrival = next(self._arrivals)
            queue[pending.sequence_number] = pending
            self._by_sender[pending.sender] = queue
            self._by_hash[pending.hash] = pending
            return pending

    def remove(self, pending: Pending) -> None:
        """Drop a transaction that will not run."""
        with self._lock:
            self._remove(pending)

    def take(self, pending: Pending) -> None:
        """Move a transaction into the block being made (found by hash until settled)."""
        with self._lock:
            self._in_flight[pending.hash] = pending
            self._remove(pending)

    def settle(self) -> None:
        """The block is committed (or abandoned): forget what it took."""
        with self._lock:
            self._in_flight.clear()

    def _remove(self, pending: Pending) -> None:
        if self._by_hash.pop(pending.hash, None) is None:
            return
        queue = self._by_sender[pending.sender]
        del queue[pending.sequence_number]
        if not queue:
            del self._by_sender[pending.sender]

    def next_sequence(self, sender: bytes, on_chain: int) -> int:
        """The sequence number after ``on_chain`` and the sender's contiguous waiting ones."""
        with self._lock:
            queue = self._by_sender.get(sender, {})
            sequence = on_chain
            while sequence in queue:
                sequence += 1
            return sequence

    def waiting(self, sender: bytes) -> int:
        with self._lock:
            return len(self._by_sender.get(sender, {}))

    def prune(self, sequence_of: Callable[[bytes], int], now_secs: int) -> None:
        """Drop what can never run: used sequence numbers and expired transactions."""
        with self._lock:
            for sender in sorted(self._by_sender):
                on_chain = sequence_of(sender)
                for pending in sorted(self._by_sender[sender].values(), key=_by_sequence):
                    if pending.sequence_number < on_chain or pending.expiration_secs <= now_secs:
                        self._remove(pending)

    def has_ready(self, sequence_of: Callable[[bytes], int]) -> bool:
        """True when some sender's next sequence number is waiting."""
        with self._lock:
            senders = sorted(self._by_sender)
        return any(sequence_of(sender) in self._by_sender.get(sender, {}) for sender in senders)

    def ready(self, sequence_of: Callable[[bytes], int]) -> Iterator[Pending]:
        """Candidates in block order: best price first; after each, that sender's next.

        ``sequence_of`` gives a sender's next sequence number as the block stands; the
        caller executes (or discards) each candidate before asking for the next.
        """
        with self._lock:
            heap = []
            for sender in sorted(self._by_sender):
                head = self._by_sender[sender].get(sequence_of(sender))
                if head is not None:
                    heap.append(_key(head))
        heapq.heapify(heap)
        while heap:
            _, _, pending = heapq.heappop(heap)
            yield pending
            with self._lock:
                follower = self._by_sender.get(pending.sender, {}).get(sequence_of(pending.sender))
            if follower is not None and follower is not pending:
                heapq.heappush(heap, _key(follower))


def _key(pending: Pending) -> tuple[int, int, Pending]:
    return (-pending.gas_unit_price, pending.arrival, pending)


def _by_sequence(pending: Pending) -> int:
    return pending.sequence_number
