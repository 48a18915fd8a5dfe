"""The moving parts of record and replay (:mod:`ledgerkit.client.snapshot`): the httpx
transports that record every answer into a snapshot or give them back from it, and the
virtual clocks a replaying client waits on.

A recording transport hands the client each answer as a replay will give it (the decoded
body and the headers a snapshot keeps), so that a recorded run and its replay read the
very same bytes.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import httpx

from ledgerkit.client.snapshot._file import RecordedAnswer
from ledgerkit.types import HEADER_PREFIXES

if TYPE_CHECKING:
    from ledgerkit.client.snapshot import Snapshot

__all__ = [
    "AsyncRecordingTransport",
    "AsyncReplayTransport",
    "AsyncVirtualClock",
    "RecordingTransport",
    "ReplayTransport",
    "VirtualClock",
    "kept_headers",
]

#: The answer headers a snapshot keeps, besides the ledger headers (``HEADER_PREFIXES``).
_KEPT: Final = frozenset({"content-type", "retry-after"})


class VirtualClock:
    """A clock whose time moves only when someone sleeps, at once: a replaying client
    waits the recorded waits (``Retry-After``, backoff, polling) without spending them.

    Parameters
    ----------
    start : float
        The wall-clock time (POSIX seconds) it starts at; its monotonic time starts at 0.

    Attributes
    ----------
    slept : list of float
        Every wait asked of it, in order.

    Examples
    --------
    >>> clock = VirtualClock(start=1_700_000_000.0)
    >>> clock.sleep(2.0)
    >>> clock.monotonic(), clock.time(), clock.slept
    (2.0, 1700000002.0, [2.0])
    """

    def __init__(self, start: float = 0.0) -> None:
        self._start = float(start)
        self._elapsed = 0.0
        self._lock = threading.Lock()
        self.slept: list[float] = []

    def monotonic(self) -> float:
        """Seconds slept so far."""
        return self._elapsed

    def time(self) -> float:
        """``start`` plus the seconds slept so far."""
        return self._start + self._elapsed

    def _advance(self, seconds: float) -> None:
        with self._lock:
            self.slept.append(seconds)
            self._elapsed += max(0.0, seconds)

    def sleep(self, seconds: float) -> None:
        """Move the time on by ``seconds``, at once."""
        self._advance(seconds)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(elapsed={self._elapsed!r})"


class AsyncVirtualClock(VirtualClock):
    """:class:`VirtualClock` for an :class:`~ledgerkit.AsyncClient`: ``sleep`` is awaited
    (and returns at once)."""

    async def sleep(self, seconds: float) -> None:  # type: ignore[override]
        """Move the time on by ``seconds``, at once."""
        self._advance(seconds)


def kept_headers(headers: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The headers of an answer a snapshot keeps, lowercased, in their order."""
    return tuple(
        (name.lower(), value)
        for name, value in headers
        if name.lower() in _KEPT or name.lower().startswith(HEADER_PREFIXES)
    )


_READER: list[concurrent.futures.ThreadPoolExecutor] = []
_READER_LOCK: Final = threading.Lock()


def _reader() -> concurrent.futures.ThreadPoolExecutor:
    """The one thread asyncio replays read their answers in, started when first needed."""
    with _READER_LOCK:
        if not _READER:
            _READER.append(
                concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ledgerkit-replay")
            )
        return _READER[0]


def _response(answer: RecordedAnswer) -> httpx.Response:
    return httpx.Response(answer.status, headers=list(answer.headers), content=answer.body)


def _live(response: httpx.Response, body: bytes) -> httpx.Response:
    """What a recording client is given: the answer as a replay will give it (the kept
    headers and the decoded body), secrets included, since they are the client's own."""
    headers = list(kept_headers(response.headers.multi_items()))
    return httpx.Response(response.status_code, headers=headers, content=body)


class RecordingTransport(httpx.BaseTransport):
    """Sends through ``inner`` (httpx's own by default) and records every answer into
    ``snapshot``. The client is given each answer as a replay will give it: its body
    decoded, the headers a snapshot keeps."""

    def __init__(self, snapshot: Snapshot, inner: httpx.BaseTransport | None = None) -> None:
        self.snapshot = snapshot
        self._inner = inner if inner is not None else httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` through the inner transport; record and return its answer."""
        request.read()
        response = self._inner.handle_request(request)
        try:
            body = response.read()
        finally:
            response.close()
        self.snapshot.record(request, response.status_code, response.headers.multi_items(), body)
        return _live(response, body)

    def close(self) -> None:
        """Close the inner transport."""
        self._inner.close()


class AsyncRecordingTransport(httpx.AsyncBaseTransport):
    """:class:`RecordingTransport` for an :class:`~ledgerkit.AsyncClient` (by default over
    httpx's own transport; an :class:`~ledgerkit.client.AiohttpTransport` works too)."""

    def __init__(self, snapshot: Snapshot, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.snapshot = snapshot
        self._inner = inner if inner is not None else httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` through the inner transport; record and return its answer."""
        await request.aread()
        response = await self._inner.handle_async_request(request)
        try:
            body = await response.aread()
        finally:
            await response.aclose()
        self.snapshot.record(request, response.status_code, response.headers.multi_items(), body)
        return _live(response, body)

    def direct_exchanger(self) -> AsyncRecordingTransport | None:
        """Itself, when its client may hand it requests without httpx objects
        (:meth:`exchange`): over an :class:`~ledgerkit.client.AiohttpTransport` exactly,
        itself not a subclass."""
        module = sys.modules.get("ledgerkit.client._aiohttp")
        direct = module is not None and type(self._inner) is module.AiohttpTransport
        return self if direct and type(self) is AsyncRecordingTransport else None

    async def exchange(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        timeout: float | None,
    ) -> tuple[int, httpx.Headers, bytes]:
        """Send one request over the inner aiohttp transport and read its answer whole
        (see :meth:`~ledgerkit.client.AiohttpTransport.exchange`); record it and return
        it as a replay will give it."""
        inner: Any = self._inner
        status, received, content = await inner.exchange(method, url, headers, body, timeout)
        pairs = list(received.items())
        self.snapshot._record_sent((method, url, headers, body), status, pairs, content)
        return status, httpx.Headers(list(kept_headers(pairs))), content

    async def aclose(self) -> None:
        """Close the inner transport."""
        await self._inner.aclose()


class ReplayTransport(httpx.BaseTransport):
    """Answers every request from ``snapshot``; sends nothing. A request it holds no
    answer to raises :class:`~ledgerkit.SnapshotMissError`."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """The next recorded answer of ``request`` (see :meth:`Snapshot.answer`)."""
        request.read()
        return _response(self.snapshot.answer(request))


class AsyncReplayTransport(httpx.AsyncBaseTransport):
    """:class:`ReplayTransport` for an :class:`~ledgerkit.AsyncClient`."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The next recorded answer of ``request`` (see :meth:`Snapshot.answer`), read in
        the snapshot reader thread: the file's reads and decompression (which free the
        GIL) overlap with the decoding of the answers before it. One thread, not a pool:
        each thread of a pool would keep an arena of freed answers of its own."""
        await request.aread()
        loop = asyncio.get_running_loop()
        return _response(await loop.run_in_executor(_reader(), self.snapshot.answer, request))

    def direct_exchanger(self) -> AsyncReplayTransport | None:
        """Itself (not a subclass): its client may hand it requests without httpx objects
        (:meth:`exchange`)."""
        return self if type(self) is AsyncReplayTransport else None

    async def exchange(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        timeout: float | None,
    ) -> tuple[int, httpx.Headers, bytes]:
        """:meth:`handle_async_request` for a request sent without an httpx object: the
        next recorded answer of it, read whole in the snapshot reader thread."""
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(
            _reader(), self.snapshot._answer_sent, method, url, headers, body
        )
        return answer.status, httpx.Headers(list(answer.headers)), answer.body
