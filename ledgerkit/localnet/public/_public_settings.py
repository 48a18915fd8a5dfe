"""Settings of the public profile: the fullnode's window, its metering and its faults."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ledgerkit.localnet._node_errors import NodeConfigError

__all__ = ["DEFAULT_PRUNE_SHARE", "PublicSettings", "default_prune_window"]

#: Share of the chain's versions at start that the fullnode keeps when no window is set.
DEFAULT_PRUNE_SHARE: Final = Fraction(2, 5)


@dataclass(frozen=True, slots=True)
class PublicSettings:
    """How the public profile's fullnode, gateway and archive behave.

    The defaults imitate a public network for a notebook; tests shrink them (a budget of a
    few units, a window of a second). Where a public network's number is not published,
    the default is a plausible one.

    Attributes
    ----------
    prune_window : int or None
        Versions the fullnode keeps; older ones answer 410 there (the archive keeps all).
        ``None``: the newest 40% (:data:`DEFAULT_PRUNE_SHARE`) of the versions the chain
        holds when the node starts, at least one. The window rolls as blocks are made.
    budget : int
        Compute units a caller without an API key may spend per window (counted per
        client address). Public endpoints cite 50,000 per 300 s.
    key_budget : int
        Compute units per window for a caller sending the node's API key.
    window_seconds : float
        Length of a metering window; a caller's budget comes back when its window ends.
    page_cost : int
        Units a page read costs (lists of transactions, an account's transactions,
        events, resources, modules, auxiliary info, transaction summaries); any other
        request costs 1.
    overload_rate : float
        Share of the fullnode's requests answered 503 ``overloaded`` (0 to 1), drawn from
        a generator seeded with ``seed``, so the same requests in the same order meet the
        same faults.
    seed : int or None
        Seed of the overload draws; ``None``: the node's seed.
    archive_budget : int or None
        Compute units per window and client address on the archive; ``None``: the archive
        is not metered.
    max_callers : int
        Callers whose windows are tracked at once; past it the window closest to its end
        is forgotten, so many client addresses cannot grow memory without bound.
    max_recorded : int
        Requests the archive keeps in its record of what it received (the newest).

    Raises
    ------
    NodeConfigError
        A setting out of range (also a :class:`ValueError`).
    """

    prune_window: int | None = None
    budget: int = 50_000
    key_budget: int = 500_000
    window_seconds: float = 300.0
    page_cost: int = 10
    overload_rate: float = 0.0
    seed: int | None = None
    archive_budget: int | None = None
    max_callers: int = 10_000
    max_recorded: int = 10_000

    def __post_init__(self) -> None:
        if self.prune_window is not None and self.prune_window < 1:
            raise NodeConfigError("prune_window must be at least 1 version")
        for name in ("budget", "key_budget", "page_cost", "max_callers", "max_recorded"):
            if getattr(self, name) < 1:
                raise NodeConfigError(f"{name} must be at least 1")
        if self.archive_budget is not None and self.archive_budget < 1:
            raise NodeConfigError("archive_budget must be at least 1 (None: not metered)")
        if not (math.isfinite(self.window_seconds) and 0 < self.window_seconds <= 86_400):
            raise NodeConfigError("window_seconds must be more than 0 and at most a day")
        if not 0.0 <= self.overload_rate <= 1.0:
            raise NodeConfigError(f"overload_rate is a share from 0 to 1, got {self.overload_rate}")


def default_prune_window(versions: int) -> int:
    """The fullnode's window for a chain of ``versions`` versions when none is set.

    Examples
    --------
    >>> default_prune_window(100)
    40
    >>> default_prune_window(1)
    1
    """
    return max(1, math.floor(versions * DEFAULT_PRUNE_SHARE))  # exact: a Fraction
