"""When a client sends: how long to wait before trying a request again, how many
requests a second it starts, and how many it keeps in flight. No I/O in the arithmetic.

**Retries.**
A request is retried only when sending it twice cannot change the ledger: every GET, and
the read-only POSTs (view, table items, simulate, encode_submission). ``POST
/transactions`` is never sent twice, whatever happened to the first attempt.

Waits use exponential backoff with *full jitter* (a uniform draw between zero and the
exponential cap, as in the AWS architecture note "Exponential Backoff and Jitter"), so a
crowd of clients that failed together does not come back together. A ``Retry-After``
header (seconds or an HTTP date) is honoured exactly: the next attempt never goes before
it; when it asks for longer than :attr:`Retry.max_retry_after` the error is raised at once
instead of blocking the caller for minutes.

**Rate limits as a budget.** A 429 that says when to come back (``Retry-After``) holds
every request of the client until then, not only the one refused (:class:`Hold`): a
budget spent is spent for all of them, and asking again before it comes back only spends
the next one. Such waits do not count as retries (up to :attr:`Retry.rate_limit_wait`
seconds a request); the client tells how long it was held (:class:`Waited`).

**Limits.** A token bucket for requests per second and a cap on requests in flight.

:class:`TokenBucket` is arithmetic only: it is told the time and answers how long the
next request must wait, so tests drive it with a fake clock. :class:`Limiter` (threads)
and :class:`AsyncLimiter` (asyncio) wrap it with a lock and a semaphore and do the
waiting through the client's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import email.utils
import math
import random
import threading
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from typing import Final, Protocol

from ledgerkit._errors import InputError

__all__ = [
    "MAX_HOLDS",
    "RETRY_STATUSES",
    "AsyncClock",
    "AsyncLimiter",
    "AsyncSystemClock",
    "Clock",
    "Hold",
    "Limiter",
    "Retry",
    "SystemClock",
    "TokenBucket",
    "Waited",
    "parse_retry_after",
    "rate_limit_delay",
    "retry_delay",
]

#: Statuses that mean "not now" rather than "no": too many requests, and unavailable.
RETRY_STATUSES: Final = frozenset({429, 503})

#: Digits of a delta-seconds ``Retry-After`` read exactly; more is longer than any wait
#: (10**12 seconds are 30,000 years) and is read as infinity.
_MAX_DIGITS: Final = 12

#: Holds one request may go through on 429s before they count as retries (a node that
#: says "come back in 0 s" again and again must not keep it forever).
MAX_HOLDS: Final = 100

#: 503 answers that are a verdict, not a hiccup: asking again gives the same answer.
_FINAL_ERROR_CODES: Final = frozenset({"health_check_failed"})


@dataclass(frozen=True, slots=True)
class Retry:
    """How a client retries idempotent requests.

    Parameters
    ----------
    total : int
        Retries after the first attempt (``0`` turns retrying off).
    backoff : float
        Seconds; the ``n``-th retry waits a uniform draw in ``[0, backoff * 2**n]``.
    max_backoff : float
        Upper bound of that range, in seconds.
    max_retry_after : float
        Longest ``Retry-After`` honoured, in seconds; a node asking for longer gets its
        error raised at once.
    rate_limit_wait : float
        Seconds one request may wait in all on 429 answers that say when to come back;
        those waits are not retries (a long extraction under a budget waits many times).

    Examples
    --------
    >>> Retry(total=5, backoff=0.1).cap(3)
    0.8
    """

    total: int = 3
    backoff: float = 0.25
    max_backoff: float = 10.0
    max_retry_after: float = 60.0
    rate_limit_wait: float = 900.0

    def __post_init__(self) -> None:
        if isinstance(self.total, bool) or not isinstance(self.total, int) or self.total < 0:
            raise InputError(f"Retry.total must be an int >= 0, got {self.total!r}")
        for name in ("backoff", "max_backoff", "max_retry_after", "rate_limit_wait"):
            if not getattr(self, name) >= 0:
                raise InputError(f"Retry.{name} must be >= 0, got {getattr(self, name)!r}")

    def cap(self, retry_number: int) -> float:
        """The top of the jitter range before retry ``retry_number`` (0 for the first)."""
        return float(min(self.max_backoff, self.backoff * 2.0**retry_number))


def parse_retry_after(value: str | None, *, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.

    ``now`` is the wall-clock time (POSIX seconds) a date is measured from. Returns
    ``None`` when the header is absent or unreadable, and infinity for a number of more
    digits than any wait a client would honour (a header is text of any length: it is
    never handed whole to ``int`` or ``float``).

    Examples
    --------
    >>> parse_retry_after("2", now=0.0)
    2.0
    >>> parse_retry_after("Thu, 01 Jan 1970 00:00:30 GMT", now=10.0)
    20.0
    >>> parse_retry_after("9" * 400, now=0.0)
    inf
    """
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        significant = text.lstrip("0")
        if len(significant) > _MAX_DIGITS:
            return math.inf
        return float(int(significant or "0"))
    try:
        when = email.utils.parsedate_to_datetime(text)
        if when.tzinfo is None:  # an HTTP date is GMT even when it forgets to say so
            when = when.replace(tzinfo=datetime.UTC)
        return max(0.0, when.timestamp() - now)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def retry_delay(
    policy: Retry,
    retry_number: int,
    *,
    idempotent: bool,
    status: int | None = None,
    headers: Mapping[str, str] | None = None,
    error_code: str | None = None,
    connection_failed: bool = False,
    now: float,
    rng: random.Random,
) -> float | None:
    """Seconds to wait before retry ``retry_number``, or ``None`` to give up now.

    Parameters
    ----------
    policy : Retry
        The client's retry settings.
    retry_number : int
        0 before the first retry, 1 before the second...
    idempotent : bool
        Whether sending the request again is harmless.
    status, headers, error_code
        The answer that came back (``error_code`` from its error record, if any).
    connection_failed : bool
        True when no answer came back (refused, reset, timed out).
    now : float
        Wall-clock time, for ``Retry-After`` dates.
    rng : random.Random
        Source of the jitter.
    """
    if not idempotent or retry_number >= policy.total:
        return None
    if not connection_failed:
        if status not in RETRY_STATUSES or error_code in _FINAL_ERROR_CODES:
            return None
        after = parse_retry_after((headers or {}).get("retry-after"), now=now)
        if after is not None:
            return after if after <= policy.max_retry_after else None
    return rng.uniform(0.0, policy.cap(retry_number))


class Clock(Protocol):
    """Time as the sync client sees it; tests pass a fake one to avoid real waits."""

    def monotonic(self) -> float: ...

    def time(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class AsyncClock(Protocol):
    """Time as the async client sees it; ``sleep`` is awaited."""

    def monotonic(self) -> float: ...

    def time(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clock: :func:`time.monotonic`, :func:`time.time`, :func:`time.sleep`."""

    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class AsyncSystemClock:
    """The real clock for asyncio: ``sleep`` is :func:`asyncio.sleep`."""

    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; a request takes one.

    :meth:`reserve` takes a token even when none is left, running into debt, and returns
    how long the caller must wait for it. Reservations made at the same instant therefore
    come out spaced ``1 / rate`` apart, in the order they were made.

    Examples
    --------
    >>> bucket = TokenBucket(rate=2.0)
    >>> [bucket.reserve(now=0.0) for _ in range(3)]
    [0.0, 0.5, 1.0]
    """

    def __init__(self, rate: float, burst: int = 1) -> None:
        if not rate > 0:
            raise ValueError(f"max_rps must be > 0, got {rate!r}")
        if burst < 1:
            raise ValueError(f"burst must be >= 1, got {burst!r}")
        self.rate = float(rate)
        self.capacity = float(burst)
        self._tokens = float(burst)
        self._updated: float | None = None

    def reserve(self, now: float) -> float:
        """Take a token; the seconds to wait before using it (0.0 when one was ready)."""
        if self._updated is not None:
            refill = max(0.0, now - self._updated) * self.rate
            self._tokens = min(self.capacity, self._tokens + refill)
        self._updated = now
        self._tokens -= 1.0
        return 0.0 if self._tokens >= 0.0 else -self._tokens / self.rate


def rate_limit_delay(
    policy: Retry,
    *,
    idempotent: bool,
    status: int | None,
    headers: Mapping[str, str] | None,
    waited: float,
    holds: int,
    now: float,
) -> float | None:
    """Seconds to hold every request after a 429 that says when to come back, or ``None``
    when this is not one (then :func:`retry_delay` decides): retrying is off, or the
    request has been held ``holds`` times for ``waited`` seconds so far and the next wait
    would pass :attr:`Retry.rate_limit_wait` (or :data:`MAX_HOLDS` holds).

    Examples
    --------
    >>> rate_limit_delay(Retry(), idempotent=True, status=429,
    ...                  headers={"retry-after": "3"}, waited=0.0, holds=0, now=0.0)
    3.0
    """
    if not idempotent or status != 429 or policy.total == 0 or holds >= MAX_HOLDS:
        return None
    after = parse_retry_after((headers or {}).get("retry-after"), now=now)
    if after is None or after > policy.max_retry_after:
        return None
    return after if waited + after <= policy.rate_limit_wait else None


@dataclass(frozen=True, slots=True)
class Waited:
    """How long a client's requests were held by the node's rate limit.

    Attributes
    ----------
    holds : int
        Times a 429 held them (a hold extended before it ended counts once).
    seconds : float
        Time they were held, overlapping holds counted once.
    remaining : float
        Seconds the current hold still lasts (0.0 when none).
    """

    holds: int
    seconds: float
    remaining: float


class Hold:
    """When requests may go again after a rate limit said to wait: arithmetic only, told
    the (monotonic) time."""

    def __init__(self) -> None:
        self._until = 0.0
        self._holds = 0
        self._seconds = 0.0

    def hold(self, now: float, seconds: float) -> None:
        """Nothing goes before ``now + seconds``."""
        until = now + seconds
        if until <= self._until:
            return
        if self._until <= now:
            self._holds += 1
        self._seconds += until - max(self._until, now)
        self._until = until

    def remaining(self, now: float) -> float:
        return max(0.0, self._until - now)

    def waited(self, now: float) -> Waited:
        return Waited(self._holds, self._seconds, self.remaining(now))


class Limiter:
    """Thread-safe limits for the sync client: at most ``max_concurrency`` requests in
    flight, started at most ``max_rps`` a second."""

    def __init__(self, max_rps: float | None, max_concurrency: int | None, clock: Clock) -> None:
        self._bucket = TokenBucket(max_rps) if max_rps is not None else None
        self._slots = threading.BoundedSemaphore(max_concurrency) if max_concurrency else None
        self._lock = threading.Lock()
        self._clock = clock
        self._hold = Hold()
        self._sent = 0

    def hold(self, seconds: float) -> None:
        """Hold every request for ``seconds`` from now (the node's rate limit said so)."""
        with self._lock:
            self._hold.hold(self._clock.monotonic(), seconds)

    def waited(self) -> Waited:
        with self._lock:
            return self._hold.waited(self._clock.monotonic())

    @property
    def sent(self) -> int:
        """Requests let go so far: every attempt once, retries and refused ones included."""
        return self._sent

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """Hold a place for one request: wait for a free slot, then for a token, then
        for the end of a rate limit's hold."""
        if self._slots is not None:
            self._slots.acquire()
        try:
            if self._bucket is not None:
                with self._lock:
                    wait = self._bucket.reserve(self._clock.monotonic())
                if wait > 0:
                    self._clock.sleep(wait)
            while (held := self.waited().remaining) > 0:
                self._clock.sleep(held)
            with self._lock:
                self._sent += 1
            yield
        finally:
            if self._slots is not None:
                self._slots.release()


class AsyncLimiter:
    """The same limits for the async client, on asyncio primitives."""

    def __init__(
        self, max_rps: float | None, max_concurrency: int | None, clock: AsyncClock
    ) -> None:
        self._bucket = TokenBucket(max_rps) if max_rps is not None else None
        self._slots = asyncio.Semaphore(max_concurrency) if max_concurrency else None
        self._clock = clock
        self._hold = Hold()
        self._sent = 0

    def hold(self, seconds: float) -> None:
        """Hold every request for ``seconds`` from now (the node's rate limit said so)."""
        self._hold.hold(self._clock.monotonic(), seconds)

    def waited(self) -> Waited:
        return self._hold.waited(self._clock.monotonic())

    @property
    def sent(self) -> int:
        """Requests let go so far: every attempt once, retries and refused ones included."""
        return self._sent

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a place for one request: wait for a free slot, then for a token, then
        for the end of a rate limit's hold."""
        if self._slots is not None:
            await self._slots.acquire()
        try:
            if self._bucket is not None:
                # One event loop thread: reserve() runs without interruption.
                wait = self._bucket.reserve(self._clock.monotonic())
                if wait > 0:
                    await self._clock.sleep(wait)
            while (held := self._hold.remaining(self._clock.monotonic())) > 0:
                await self._clock.sleep(held)
            self._sent += 1  # one event loop thread: no lock
            yield
        finally:
            if self._slots is not None:
                self._slots.release()
