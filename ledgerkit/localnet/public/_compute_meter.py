"""Compute units per caller and window: the public gateway's rate limit.

Each caller (an API key, or a client address) gets a window of ``window_seconds`` from its
first request; within it the requests it makes may cost up to its budget, and the window's
end gives the budget back. The bookkeeping is shared by the server's threads (a lock) and
bounded: past ``max_callers`` the window nearest its end is forgotten first, so a flood
of addresses costs at most that many entries. Written here rather than taken from a rate
limiting library because the node needs exactly this contract (costs per request, the
seconds until a window ends for ``Retry-After``) and nothing else.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["ComputeMeter"]


class ComputeMeter:
    """Budgets of compute units per caller, each over a window of its own.

    Parameters
    ----------
    window_seconds : float
        Length of a caller's window.
    max_callers : int
        Callers tracked at once.
    clock : callable, optional
        Seconds from any fixed point (``time.monotonic``).

    Examples
    --------
    >>> meter = ComputeMeter(window_seconds=60, max_callers=10, clock=lambda: 0.0)
    >>> meter.charge("10.0.0.1", cost=3, budget=4) is None
    True
    >>> meter.charge("10.0.0.1", cost=3, budget=4)
    60
    """

    def __init__(
        self,
        *,
        window_seconds: float,
        max_callers: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._window = window_seconds
        self._max = max_callers
        self._clock = clock
        self._lock = threading.Lock()
        # caller -> [the window's end, units spent]; in the order the windows began, so
        # the first one ends first.
        self._windows: OrderedDict[str, list[float]] = OrderedDict()

    def charge(self, caller: str, *, cost: int, budget: int) -> int | None:
        """Charge ``cost`` units to ``caller``'s window if its budget allows.

        Returns
        -------
        int or None
            ``None`` when charged; else the whole seconds until the window ends (at least
            1), what ``Retry-After`` says. A refused request is not charged.
        """
        now = self._clock()
        with self._lock:
            entry = self._windows.get(caller)
            if entry is None or entry[0] <= now:
                entry = [now + self._window, 0.0]
                self._windows[caller] = entry
                self._windows.move_to_end(caller)
                while len(self._windows) > self._max:
                    self._windows.popitem(last=False)
            if entry[1] + cost > budget:
                return max(1, math.ceil(entry[0] - now))
            entry[1] += cost
            return None

    def __len__(self) -> int:
        """Callers tracked now."""
        with self._lock:
            return len(self._windows)
