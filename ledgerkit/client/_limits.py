"""Client-side limits: a token bucket for requests per second and a cap on requests in flight.

:class:`TokenBucket` is arithmetic only: it is told the time and answers how long the
next request must wait, so tests drive it with a fake clock. :class:`Limiter` (threads)
and :class:`AsyncLimiter` (asyncio) wrap it with a lock and a semaphore and do the
waiting through the client's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Protocol

__all__ = [
    "AsyncClock",
    "AsyncLimiter",
    "AsyncSystemClock",
    "Clock",
    "Limiter",
    "SystemClock",
    "TokenBucket",
]


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


class Limiter:
    """Thread-safe limits for the sync client: at most ``max_concurrency`` requests in
    flight, started at most ``max_rps`` a second."""

    def __init__(self, max_rps: float | None, max_concurrency: int | None, clock: Clock) -> None:
        self._bucket = TokenBucket(max_rps) if max_rps is not None else None
        self._slots = threading.BoundedSemaphore(max_concurrency) if max_concurrency else None
        self._lock = threading.Lock()
        self._clock = clock

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """Hold a place for one request: wait for a free slot, then for a token."""
        if self._slots is not None:
            self._slots.acquire()
        try:
            if self._bucket is not None:
                with self._lock:
                    wait = self._bucket.reserve(self._clock.monotonic())
                if wait > 0:
                    self._clock.sleep(wait)
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

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a place for one request: wait for a free slot, then for a token."""
        if self._slots is not None:
            await self._slots.acquire()
        try:
            if self._bucket is not None:
                # One event loop thread: reserve() runs without interruption.
                wait = self._bucket.reserve(self._clock.monotonic())
                if wait > 0:
                    await self._clock.sleep(wait)
            yield
        finally:
            if self._slots is not None:
                self._slots.release()
