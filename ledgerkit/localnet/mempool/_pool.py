"""The mempool: transactions accepted but not yet in a block.

Transactions wait per sender, keyed by sequence number; a block takes, among the senders
whose next sequence number is waiting, the highest gas price first (ties: first come),
then that sender's following transaction becomes a candidate.

A submission with the sender and sequence number of a transaction already held is judged
as a public node's mempool judges it: the identical transaction is the existing entry;
the same transaction (payload, expiration, max gas) at a higher gas unit price replaces
it, unless the entry is already taken into the block being made; anything else is
``invalid_transaction_update``. The chain generator's simulated users keep a looser rule
(any transaction paying more replaces the waiting one): the chains generated from a seed,
which caches, notebooks and tests pin, are made under it.

Orderless transactions (a nonce instead of a sequence number) wait per sender keyed by
their nonce and are candidates at once: a block takes them by price among the heads of
the ordered queues. The identical one again is the existing entry; another one with the
nonce of a held one is ``invalid_transaction_update``. They count towards the sender's
place limit as the others do.

Expired transactions leave as soon as they are looked at (lookup, admission), after each
block (by its timestamp) and on the node's periodic sweep; an entry taken into a block
stays until that block is committed (it commits with it) or abandoned (it waits again).

The node's mempool also gives each entry a system lifetime (``system_ttl``), as
aptos-core's mempool does with ``system_transaction_timeout_secs`` (600 s by default):
an entry still held that long after its admission leaves whatever its own expiration
says, so transactions parked behind a sequence gap with an expiration far ahead do not
hold their places for ever. aptos-core counts that lifetime on the node's system clock
and collects every ``system_transaction_gc_interval_ms`` (60 s); this mempool counts it
on the chain's time of a node on the wall clock (``NodeConfig.clock == "wall"``; on the
chain clock, whose time waits while the node is idle, there is none), and collects at
the same moments as expired entries. A transaction taken back from the ledger's file
at a restart starts a new lifetime (aptos-core's mempool is not kept across restarts).

The mempool itself does no I/O: a :class:`Journal` (the ledger's SQLite file) is told of
every admission and removal while the change is made, so what waits survives a crash.

Admission (:func:`admit`) checks a submission against the latest state, as the mempool
of a node does, before it waits.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import SignedTransaction
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.vm import (
    PrologueError,
    entry_function_of,
    multisig_of,
    replay_nonce,
    script_of,
    validate,
)
from ledgerkit.localnet.vm.framework import FRAMEWORK, Context
from ledgerkit.localnet.wire import ModuleAbiOf, decode_arguments, module_abi_reader, pending_json

__all__ = [
    "PER_ACCOUNT_CAPACITY",
    "SYSTEM_TTL_SECS",
    "Journal",
    "Mempool",
    "Pending",
    "admit",
    "pending_of",
]

#: Transactions one sender may have waiting.
PER_ACCOUNT_CAPACITY: Final = 100
#: How long the node's mempool holds an entry at most, in seconds of the chain's time
#: (aptos-core's ``system_transaction_timeout_secs`` default).
SYSTEM_TTL_SECS: Final = 600
_NEVER: Final = 2**64


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
    #: The nonce of an orderless transaction (its sequence number is then not read).
    nonce: int | None = None
    arrival: int = field(default=0)
    #: Taken into the block being made: it commits with that block.
    taken: bool = False
    #: When it leaves whatever its expiration says: admission + the system lifetime.
    system_expiry_secs: int = field(default=2**64)

    @property
    def deadline_secs(self) -> int:
        """When it leaves the mempool: its expiration, or its system lifetime's end."""
        return min(self.expiration_secs, self.system_expiry_secs)


class Journal(Protocol):
    """Where the mempool records its changes (called with the mempool locked).

    A call that raises leaves the mempool unchanged, so an admission is answered only
    once it is recorded.
    """

    def admitted(self, pending: Pending, replaced: Pending | None) -> None: ...

    def dropped(self, hashes: list[bytes]) -> None: ...


class Mempool:
    """Waiting transactions, thread-safe.

    Parameters
    ----------
    capacity : int
        Transactions held at most (a full mempool answers ``mempool_is_full``).
    per_account : int
        Transactions one sender may have held.
    journal : Journal, optional
        Told of every admission and removal (None: the mempool lives in memory only).
    public_updates : bool
        Judge another transaction at a held sequence number as a public node does (the
        node's mempool). False: any transaction paying more replaces a waiting one, the
        rule the chain generator's users follow.
    system_ttl : int, optional
        Seconds an entry is held at most after its admission (admissions given the
        chain's time); None: only its expiration counts (the chain generator's mempool).
    """

    def __init__(
        self,
        capacity: int,
        per_account: int = PER_ACCOUNT_CAPACITY,
        *,
        journal: Journal | None = None,
        public_updates: bool = False,
        system_ttl: int | None = None,
    ) -> None:
        self.capacity = capacity
        self.system_ttl = system_ttl
        self.per_account = per_account
        self.journal = journal
        self.public_updates = public_updates
        #: Every held transaction: waiting, or taken into the block being made.
        self._by_hash: dict[bytes, Pending] = {}
        self._by_sender: dict[bytes, dict[int, Pending]] = {}
        #: Orderless transactions: sender -> nonce -> entry.
        self._orderless: dict[bytes, dict[int, Pending]] = {}
        self._taken: dict[bytes, Pending] = {}
        #: No held transaction expires before this (a lower bound: sweeps are cheap).
        self._soonest = _NEVER
        self._arrivals = itertools.count()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._by_hash)

    def get(self, txn_hash: bytes, now_secs: int | None = None) -> Pending | None:
        """A held transaction; one expired by ``now_secs`` leaves instead (unless taken)."""
        with self._lock:
            pending = self._by_hash.get(txn_hash)
            if pending is not None and _expired(pending, now_secs):
                self._drop([pending])
                return None
            return pending

    def add(self, pending: Pending, now_secs: int | None = None) -> Pending:
        """Accept ``pending``, or return the identical transaction already held.

        Parameters
        ----------
        pending : Pending
            The validated transaction.
        now_secs : int, optional
            The chain's time: entries expired by then make room before anything is refused.

        Raises
        ------
        NodeError
            ``invalid_transaction_update`` for another transaction with the same sender
            and sequence number that is not the same one at a higher price (or whose
            holder is already in the block being made); ``mempool_is_full``.
        """
        with self._lock:
            self._expire(now_secs)
            queue = self._queue(pending)
            existing = queue.get(_slot(pending))
            replaced = None
            if existing is not None:
                if existing.hash == pending.hash:
                    return existing
                if pending.nonce is not None:
                    raise NodeError(
                        ErrorCode.INVALID_TRANSACTION_UPDATE,
                        "Transaction with this nonce already in mempool",
                    )
                _check_update(existing, pending, public=self.public_updates)
                replaced = existing
            else:
                if len(self._by_hash) >= self.capacity:
                    raise NodeError(ErrorCode.MEMPOOL_IS_FULL, "Mempool is full")
                if self._held_by(pending.sender) >= self.per_account:
                    raise NodeError(
                        ErrorCode.MEMPOOL_IS_FULL,
                        f"Mempool holds {self.per_account} transactions of this account already",
                    )
            if self.journal is not None:
                self.journal.admitted(pending, replaced)
            if replaced is not None:
                self._remove(replaced)
            pending.arrival = next(self._arrivals)
            if self.system_ttl is not None and now_secs is not None:
                pending.system_expiry_secs = now_secs + self.system_ttl
            self._soonest = min(self._soonest, pending.deadline_secs)
            queues = self._by_sender if pending.nonce is None else self._orderless
            queues.setdefault(pending.sender, {})[_slot(pending)] = pending
            self._by_hash[pending.hash] = pending
            return pending

    def remove(self, pending: Pending) -> None:
        """Drop a transaction that will not run."""
        with self._lock:
            if self._by_hash.get(pending.hash) is pending:
                self._drop([pending])

    def expire(self, now_secs: int) -> int:
        """Drop every waiting transaction expired by ``now_secs``; how many left."""
        with self._lock:
            return self._expire(now_secs)

    def take(self, pending: Pending) -> bool:
        """Take a transaction into the block being made; False when it left meanwhile.

        A taken transaction is still found by hash and still holds its sequence number
        until :meth:`settle` (the block is committed) or :meth:`release` (abandoned).
        """
        with self._lock:
            if self._by_hash.get(pending.hash) is not pending or pending.taken:
                return False
            pending.taken = True
            self._taken[pending.hash] = pending
            return True

    def settle(self) -> list[bytes]:
        """The block is committed: forget what it took; the hashes forgotten.

        The caller removes them from the journal in the block's own write.
        """
        with self._lock:
            taken = list(self._taken.values())
            self._taken.clear()
            for pending in taken:
                self._remove(pending)
            return [p.hash for p in taken]

    def release(self) -> None:
        """The block was abandoned: what it took waits again."""
        with self._lock:
            for pending in self._taken.values():
                pending.taken = False
                self._soonest = min(self._soonest, pending.deadline_secs)
            self._taken.clear()

    def next_sequence(self, sender: bytes, on_chain: int) -> int:
        """The sequence number after ``on_chain`` and the sender's contiguous held ones."""
        with self._lock:
            queue = self._by_sender.get(sender, {})
            sequence = on_chain
            while sequence in queue:
                sequence += 1
            return sequence

    def waiting(self, sender: bytes) -> int:
        with self._lock:
            return self._held_by(sender)

    def held(self) -> list[Pending]:
        """Every held transaction in arrival order."""
        with self._lock:
            return sorted(self._by_hash.values(), key=_by_arrival)

    def prune(self, sequence_of: Callable[[bytes], int], now_secs: int) -> None:
        """Drop what can never run: used sequence numbers and expired transactions."""
        with self._lock:
            gone = []
            for sender in sorted(self._by_sender):
                on_chain = sequence_of(sender)
                for pending in sorted(self._by_sender[sender].values(), key=_by_sequence):
                    if pending.taken:
                        continue
                    if pending.sequence_number < on_chain or pending.deadline_secs <= now_secs:
                        gone.append(pending)
            for queue in self._orderless.values():
                gone += [p for p in queue.values() if not p.taken and p.deadline_secs <= now_secs]
            self._drop(gone)

    def has_ready(self, sequence_of: Callable[[bytes], int]) -> bool:
        """True when some sender's next sequence number is waiting."""
        with self._lock:
            senders = sorted(self._by_sender)
            if any(not p.taken for q in self._orderless.values() for p in q.values()):
                return True
        for sender in senders:
            with self._lock:
                head = self._by_sender.get(sender, {}).get(sequence_of(sender))
            if head is not None and not head.taken:
                return True
        return False

    def ready(self, sequence_of: Callable[[bytes], int]) -> Iterator[Pending]:
        """Candidates in block order: best price first; after each, that sender's next.

        ``sequence_of`` gives a sender's next sequence number as the block stands; the
        caller executes (or discards) each candidate before asking for the next, and
        takes it with :meth:`take` (which fails if it was replaced or dropped meanwhile).
        """
        with self._lock:
            heap = []
            for sender in sorted(self._by_sender):
                head = self._by_sender[sender].get(sequence_of(sender))
                if head is not None and not head.taken:
                    heap.append(_key(head))
            heap += [_key(p) for q in self._orderless.values() for p in q.values() if not p.taken]
        heapq.heapify(heap)
        while heap:
            _, _, pending = heapq.heappop(heap)
            yield pending
            if pending.nonce is not None:
                continue  # no transaction waits for an orderless one
            with self._lock:
                follower = self._by_sender.get(pending.sender, {}).get(sequence_of(pending.sender))
            if follower is not None and follower is not pending and not follower.taken:
                heapq.heappush(heap, _key(follower))

    # -- with the lock held --------------------------------------------------------------

    def _expire(self, now_secs: int | None) -> int:
        if now_secs is None or now_secs < self._soonest:
            return 0
        gone = [p for p in self._by_hash.values() if _expired(p, now_secs)]
        self._drop(gone)
        self._soonest = min(
            (p.deadline_secs for p in self._by_hash.values() if not p.taken), default=_NEVER
        )
        return len(gone)

    def _drop(self, gone: list[Pending]) -> None:
        if not gone:
            return
        if self.journal is not None:
            self.journal.dropped([p.hash for p in gone])
        for pending in gone:
            self._remove(pending)

    def _remove(self, pending: Pending) -> None:
        if self._by_hash.pop(pending.hash, None) is None:
            return
        self._taken.pop(pending.hash, None)
        queues = self._by_sender if pending.nonce is None else self._orderless
        queue = queues[pending.sender]
        del queue[_slot(pending)]
        if not queue:
            del queues[pending.sender]

    def _queue(self, pending: Pending) -> dict[int, Pending]:
        queues = self._by_sender if pending.nonce is None else self._orderless
        return queues.get(pending.sender, {})

    def _held_by(self, sender: bytes) -> int:
        return len(self._by_sender.get(sender, {})) + len(self._orderless.get(sender, {}))


def admit(
    signed: SignedTransaction,
    read: Callable[[bytes], tuple[bytes, bytes] | None],
    mempool: Mempool,
    *,
    chain_id: int,
    now_secs: int,
) -> Pending:
    """Validate a submitted transaction against the latest state and add it to the mempool.

    Raises
    ------
    NodeError
        The node's answer to a refused submission.
    """
    check = Context(read, FRAMEWORK.codec)
    try:
        size = len(signed.to_bcs())
        validate(signed, size, check, chain_id=chain_id, now_secs=now_secs, mode="mempool")
    except PrologueError as rejection:
        raise rejection.node_error() from None
    return mempool.add(pending_of(signed, module_abi_reader(read)), now_secs)


def pending_of(signed: SignedTransaction, abi_of: ModuleAbiOf | None = None) -> Pending:
    """The mempool entry of a signed transaction (not validated here; ``abi_of``: the
    published modules' ABIs at the head, by which its JSON reads a call of one).

    Raises
    ------
    NodeError
        ``invalid_input`` for a payload this node does not run.
    """
    body = signed.to_bcs()
    ef = entry_function_of(signed)
    multisig = multisig_of(signed)
    if ef is None and multisig is None and script_of(signed) is None:
        raise NodeError(
            ErrorCode.INVALID_INPUT,
            "this node runs entry function, script and multisig payloads only",
        )
    # a multisig payload's arguments are read by the call it runs, when it runs
    arguments = None if ef is None else decode_arguments(ef)
    raw = signed.raw
    txn_hash = bytes(signed.hash())
    return Pending(
        signed,
        txn_hash,
        bytes(raw.sender),
        raw.sequence_number,
        raw.gas_unit_price,
        raw.expiration_timestamp_secs,
        len(body),
        pending_json(signed, txn_hash, arguments, abi_of),
        arguments,
        replay_nonce(signed),
    )


def _expired(pending: Pending, now_secs: int | None) -> bool:
    return now_secs is not None and not pending.taken and pending.deadline_secs <= now_secs


def _check_update(existing: Pending, pending: Pending, *, public: bool) -> None:
    """Refuse anything but the same transaction at a higher price, while it still waits."""
    if existing.taken:
        raise NodeError(
            ErrorCode.INVALID_TRANSACTION_UPDATE,
            "Transaction with this sequence number is already in the block being made; "
            "it can no longer be replaced",
        )
    old, new = existing.signed.raw, pending.signed.raw
    differs = (
        None
        if not public
        else "payload"
        if old.payload != new.payload
        else "expiration timestamp"
        if old.expiration_timestamp_secs != new.expiration_timestamp_secs
        else "max gas amount"
        if old.max_gas_amount != new.max_gas_amount
        else None
    )
    if differs is not None:
        raise NodeError(
            ErrorCode.INVALID_TRANSACTION_UPDATE,
            f"Transaction already in mempool with a different {differs}",
        )
    if new.gas_unit_price <= old.gas_unit_price:
        raise NodeError(
            ErrorCode.INVALID_TRANSACTION_UPDATE,
            "Transaction already in mempool; a replacement must pay a higher gas unit price",
        )


def _slot(pending: Pending) -> int:
    """Where an entry waits in its sender's queue: its sequence number, or its nonce."""
    return pending.sequence_number if pending.nonce is None else pending.nonce


def _key(pending: Pending) -> tuple[int, int, Pending]:
    return (-pending.gas_unit_price, pending.arrival, pending)


def _by_sequence(pending: Pending) -> int:
    return pending.sequence_number


def _by_arrival(pending: Pending) -> int:
    return pending.arrival
