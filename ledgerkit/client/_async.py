"""The asyncio client: the I/O half over ``httpx.AsyncClient``; the endpoint methods are
declared once for both clients in ``_methods``.

The twin of :class:`~ledgerkit.Client`: the same methods in the same order, each awaited
(``iter_*`` are async iterators). Each method's documentation is the sync one's.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping
from types import TracebackType
from typing import Any, TypeVar, overload

import httpx

from ledgerkit._errors import LedgerError
from ledgerkit.client import _calls as calls
from ledgerkit.client._base import DEFAULT_TIMEOUT, BaseClient, Call, Result, read_with
from ledgerkit.client._building import AsyncBuilding
from ledgerkit.client._cache import open_cache
from ledgerkit.client._declare import twin_doc
from ledgerkit.client._flows import Flow, Pause
from ledgerkit.client._holdings import AsyncHoldings
from ledgerkit.client._identity import ChainIdentity
from ledgerkit.client._limits import AsyncClock, AsyncLimiter, AsyncSystemClock
from ledgerkit.client._methods import Endpoints
from ledgerkit.client._paging import Pager
from ledgerkit.client._retry import Retry
from ledgerkit.client._simulating import AsyncSimulating
from ledgerkit.client._sync import Client

__all__ = ["AsyncClient"]

T = TypeVar("T")
U = TypeVar("U")
F = TypeVar("F", bound=Callable[..., Any])
_log = logging.getLogger("ledgerkit.client")


class AsyncClient(AsyncBuilding, AsyncSimulating, AsyncHoldings, Endpoints, BaseClient):
    """An asyncio client of the node REST API; see :class:`~ledgerkit.Client`.

    Same parameters, except that ``transport`` is an ``httpx.AsyncBaseTransport`` and
    ``clock`` has an awaitable ``sleep``. Use ``async with AsyncClient(url) as client``.
    ``max_concurrency`` bounds the requests in flight across tasks of one event loop.

    Examples
    --------
    >>> async with AsyncClient("http://127.0.0.1:8080/v1") as client:  # doctest: +SKIP
    ...     infos = await asyncio.gather(*(client.block_by_height(h) for h in range(10)))
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        retries: int | Retry = 3,
        max_rps: float | None = None,
        max_concurrency: int | None = None,
        cache: str | os.PathLike[str] | bool | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: AsyncClock | None = None,
    ) -> None:
        super().__init__(
            base_url,
            api_key=api_key,
            headers=headers,
            timeout=timeout,
            retries=retries,
            max_rps=max_rps,
            max_concurrency=max_concurrency,
            cache=cache,
        )
        self._clock: AsyncClock = clock or AsyncSystemClock()
        self._limiter = AsyncLimiter(self.config.max_rps, self.config.max_concurrency, self._clock)
        pool = httpx.Limits(max_connections=self.config.max_concurrency or 100)
        self._http = httpx.AsyncClient(
            transport=transport, timeout=self.config.timeout, limits=pool, follow_redirects=False
        )
        self._cache = open_cache(self.config.cache)
        self._identity_lock = asyncio.Lock()

    # -- plumbing ------------------------------------------------------------------------

    async def _exchange(self, call: Call[Any]) -> tuple[int, httpx.Headers, bytes]:
        request = self._build_request(call, self._trace)
        retry_number = 0
        while True:
            try:
                async with self._limiter.slot():
                    response = await self._http.send(request)
                self._heard(response.headers, self._clock.monotonic())
            except httpx.HTTPError as exc:
                error = self._transport_error(call, exc)
                delay = self._retry_delay(call, retry_number, error, None, self._clock.time())
                if delay is None:
                    raise error from exc
            else:
                status, headers, body = response.status_code, response.headers, response.content
                _log.debug("%s: %s -> %d", call.name, self._label(call), status)
                if 200 <= status < 300:
                    return status, headers, body
                refusal = self._node_error(call, status, headers, body)
                delay = self._retry_delay(call, retry_number, refusal, headers, self._clock.time())
                if delay is None:
                    raise refusal
            await self._clock.sleep(delay)
            retry_number += 1

    async def _send(self, call: Call[T]) -> Result[T]:
        key = self._cache_key(call)
        chain = None
        if key is not None and self._cache is not None:
            chain = await self._chain()
            if chain is not None:
                # SQLite is local and quick, but still blocking: keep it off the event loop.
                hit = await asyncio.to_thread(self._cache.get, chain, key, call.accept)
                if hit is not None:
                    return self._from_cache(call, hit)
        status, headers, body = await self._exchange(call)
        result = self._parse(call, status, headers, body)
        # Stored only when nothing said the node changed while it answered.
        if key is not None and self._cache is not None and chain is not None:
            if chain != self._identity:
                return result
            entry = self._to_store(call, result, status, headers, body)
            if entry is not None:
                await asyncio.to_thread(self._cache.put, chain, key, call.accept, entry)
        return result

    @overload
    async def send(self, call: Call[T]) -> Result[T]: ...
    @overload
    async def send(self, call: Call[Any], *, decoder: Callable[[bytes], U]) -> Result[U]: ...
    @twin_doc(Client.send)
    async def send(self, call: Call[Any], *, decoder: Callable[[bytes], Any] | None = None) -> Any:
        return await self._send(read_with(call, decoder))

    async def _chain(self) -> ChainIdentity | None:
        async with self._identity_lock:
            if self._recheck_due(self._clock.monotonic()):
                await self._exchange(calls.ledger_info())  # heard: may forget the identity
            if self._identity is None and not self._identity_refused:
                self._confirm(await self._ask_identity())
            return self._identity

    async def _ask_identity(self) -> Result[ChainIdentity] | None:
        try:
            return await self.chain_identity()
        except LedgerError as exc:
            self._identity_failed(exc)
            return None

    @twin_doc(Client.chain_identity)
    async def chain_identity(self) -> Result[ChainIdentity]:
        call = self._genesis_call()
        try:
            return self._identity_of(self._parse(call, *await self._exchange(call)))
        except LedgerError as exc:
            found = self._identity_without_genesis(exc)
            if found is None:
                raise
            return found

    async def _trace(self, event: str, info: Mapping[str, Any]) -> None:
        self._chain_event(event)

    def _walk(self, pager: Pager[T]) -> AsyncIterator[Result[T]]:
        first = pager.first()  # here, so that bad input fails at the call, not later

        async def walk(call: Call[list[T]] | None) -> AsyncIterator[Result[T]]:
            while call is not None:
                page = await self._send(call)
                items, call = pager.feed(page)
                for item in items:
                    yield Result(item, page.ledger)

        return walk(first)

    async def _drive(self, flow: Flow[T]) -> T:
        """Run a flow of :mod:`~ledgerkit.client._flows` to its end (``Client._drive``'s
        twin: the same flow, awaited)."""
        try:
            step = next(flow)
            while True:
                if isinstance(step, Pause):
                    if step.seconds > 0:
                        await self._clock.sleep(step.seconds)
                    step = flow.send(self._clock.monotonic())
                    continue
                try:
                    result = await self._send(step)
                except LedgerError as exc:
                    step = flow.throw(exc)
                else:
                    step = flow.send(result)
        except StopIteration as stop:
            value: T = stop.value
            return value
        finally:
            flow.close()

    async def aclose(self) -> None:
        """Close the connections and the cache."""
        await self._http.aclose()
        self._forget_secrets()
        if self._cache is not None:
            self._cache.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
