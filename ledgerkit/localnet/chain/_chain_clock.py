"""The chain's clock: the time where the generated history ends, then the node's own pace.

The clock starts at the chain's anchor (or the last block of a reopened ledger, if that
is later) and runs at the pace of the monotonic clock, so the chain's time goes on
without jumps whatever the wall clock says; an anchor of ``"now"`` keeps it on the wall
clock. It never reads before the head block: a chain's time does not go backwards.
"""

from __future__ import annotations

import time

from ledgerkit.localnet.store import Store

__all__ = ["ChainClock"]


class ChainClock:
    """The chain's time, from ``base_usec`` on at the pace of the monotonic clock.

    Parameters
    ----------
    base_usec : int
        The chain's time (microseconds since the epoch) when the clock is made.
    """

    def __init__(self, base_usec: int) -> None:
        self._base = base_usec
        self._started = time.monotonic_ns()

    @classmethod
    def of_store(cls, store: Store, last_timestamp: int) -> ChainClock:
        """The clock of the ledger in ``store`` whose last block has ``last_timestamp``."""
        base = max(int(store.reads.meta("anchor_usec") or 0), last_timestamp)
        if store.reads.meta("anchor") == "now":
            base = max(base, time.time_ns() // 1000)
        return cls(base)

    def now_usec(self, floor_usec: int) -> int:
        """The chain's time now, never before ``floor_usec`` (the head block's time)."""
        elapsed = (time.monotonic_ns() - self._started) // 1000
        return max(self._base + elapsed, floor_usec)
