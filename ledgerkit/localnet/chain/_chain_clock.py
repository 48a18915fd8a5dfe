"""The chain's clocks: the time where the generated history ends, then the node's own
pace (:class:`ChainClock`, ``clock="chain"``), or the wall clock (:class:`WallClock`,
``clock="wall"``).

The clock starts at the chain's anchor (or the last block of a reopened ledger, if that
is later) and runs at the pace of the monotonic clock, so the chain's time goes on
without jumps whatever the wall clock says; an anchor of ``"now"`` starts it on the wall
clock. It never reads before the head block: a chain's time does not go backwards.

It never reads more than its ``lead_usec`` after the head block either
(:data:`IDLE_LEAD_USEC`, or two block intervals in live mode if that is longer). A public
chain makes blocks all the time, so the ledger timestamp of any answer is close to the
chain's now, and clients count expirations from it. This node, outside live mode, makes
blocks only after submissions: while it is idle its clock waits for the next block
instead of running ahead of the timestamp its answers carry, and a transaction counted
from that timestamp stays valid however long the node was idle.

A :class:`WallClock` reads the wall clock instead, as the validators of a public chain
stamp their blocks with theirs; the node then makes an empty block whenever a second
(``NodeConfig.idle_interval``) passes without one, so the chain's time follows the wall
clock while it runs and clients may count expirations from their own clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from ledgerkit.localnet.store import Store

__all__ = [
    "IDLE_LEAD_USEC",
    "ChainClock",
    "TimeSource",
    "WallClock",
    "wall_time_usec",
]

#: How far the clock may read past the head block: an idle node's time waits there.
IDLE_LEAD_USEC = 1_000_000

#: A source of the wall clock's time: microseconds since the Unix epoch.
TimeSource = Callable[[], int]


def wall_time_usec() -> int:
    """This machine's wall clock, in microseconds since the Unix epoch."""
    return time.time_ns() // 1000


class ChainClock:
    """The chain's time, from ``base_usec`` on at the pace of the monotonic clock.

    Parameters
    ----------
    base_usec : int
        The chain's time (microseconds since the epoch) when the clock is made.
    lead_usec : int
        How far the clock may read past the head block.
    """

    def __init__(self, base_usec: int, lead_usec: int = IDLE_LEAD_USEC) -> None:
        self._base = base_usec
        self._lead = lead_usec
        self._started = time.monotonic_ns()
        self._waited = 0  # idle time left out, in microseconds
        self._lock = threading.Lock()  # read from the server's threads and the producer

    @classmethod
    def of_store(
        cls, store: Store, last_timestamp: int, block_interval: float | None = None
    ) -> ChainClock:
        """The clock of the ledger in ``store`` whose last block has ``last_timestamp``
        (``block_interval``: seconds between live-mode blocks, if the node makes them)."""
        base = max(int(store.reads.meta("anchor_usec") or 0), last_timestamp)
        if store.reads.meta("anchor") == "now":
            base = max(base, time.time_ns() // 1000)
        lead = IDLE_LEAD_USEC
        if block_interval is not None:
            lead = max(lead, int(2 * block_interval * 1_000_000))
        return cls(base, lead)

    def now_usec(self, floor_usec: int) -> int:
        """The chain's time now, never before ``floor_usec`` (the head block's time) nor
        more than the clock's lead after it: time past that is idle time, left out
        for good, so the clock goes on from there at its pace once blocks come again."""
        elapsed = (time.monotonic_ns() - self._started) // 1000
        with self._lock:
            return self._read(self._base + elapsed, floor_usec)

    def _read(self, running: int, floor_usec: int) -> int:
        now = running - self._waited
        # Where the clock starts may be past the head block (a chain anchored at "now",
        # reopened later): it starts there, and waits from there on.
        ceiling = max(floor_usec, self._base) + self._lead
        if now > ceiling:
            self._waited += now - ceiling
            now = ceiling
        return max(now, floor_usec)


class WallClock:
    """The chain's time on the wall clock (``time_source``), never before the head block.

    A ledger whose last block is later than the wall clock when it is opened (its chain
    was anchored in the future, or this machine's clock went back) keeps that lead: its
    clock runs at the wall clock's pace from the last block on, so the chain's time only
    increases.

    Parameters
    ----------
    last_usec : int
        The timestamp of the ledger's last block.
    time_source : callable
        The wall clock, in microseconds since the Unix epoch (tests pass a fake one).
    """

    def __init__(self, last_usec: int, time_source: TimeSource = wall_time_usec) -> None:
        self._source = time_source
        self._lead = max(0, last_usec - time_source())

    def now_usec(self, floor_usec: int) -> int:
        """The chain's time now, never before ``floor_usec`` (the head block's time)."""
        return max(self._source() + self._lead, floor_usec)
