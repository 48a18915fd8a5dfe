"""The asyncio client: the I/O half over ``httpx.AsyncClient``.

The twin of :class:`~ledgerkit.Client`: the same methods in the same order, each awaited
(``iter_*`` are async iterators). Each method's documentation is the sync one's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

import httpx

from ledgerkit._errors import RequestTimeoutError, TransactionNotFoundError
from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.client import _calls as calls
from ledgerkit.client import _decoders as dec
from ledgerkit.client._base import DEFAULT_TIMEOUT, BaseClient, CacheSetting, Call, Result
from ledgerkit.client._cache import open_cache
from ledgerkit.client._limits import AsyncClock, AsyncLimiter, AsyncSystemClock
from ledgerkit.client._paging import CursorPager, EventPager, Pager, VersionRangePager
from ledgerkit.client._retry import Retry
from ledgerkit.client._sync import WAIT_PAUSE_SECONDS, Client
from ledgerkit.types import Address, EntryFunctionId, MoveType, StructTag

__all__ = ["AsyncClient"]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])
_log = logging.getLogger("ledgerkit.client")


def _doc(twin: Callable[..., Any]) -> Callable[[F], F]:
    """Give the async method the documentation of its sync twin."""

    def apply(method: F) -> F:
        method.__doc__ = twin.__doc__
        return method

    return apply


class AsyncClient(BaseClient):
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
        cache: CacheSetting = None,
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

    # -- plumbing ------------------------------------------------------------------------

    async def _exchange(self, call: Call[Any]) -> tuple[int, httpx.Headers, bytes]:
        request = self._build_request(call)
        retry_number = 0
        while True:
            try:
                async with self._limiter.slot():
                    response = await self._http.send(request)
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
        if key is not None and self._cache is not None:
            chain_id = await self._known_chain_id()
            # SQLite is local and quick, but still blocking: keep it off the event loop.
            hit = await asyncio.to_thread(self._cache.get, chain_id, key, call.accept)
            if hit is not None:
                return self._from_cache(call, hit)
        status, headers, body = await self._exchange(call)
        result = self._parse(call, status, headers, body)
        if key is not None and self._cache is not None:
            entry = self._to_store(call, result, status, headers, body)
            if entry is not None:
                chain = result.ledger.chain_id
                await asyncio.to_thread(self._cache.put, chain, key, call.accept, entry)
        return result

    async def _known_chain_id(self) -> int:
        if self._chain_id is None:
            return (await self._send(calls.ledger_info())).ledger.chain_id
        return self._chain_id

    def _walk(self, pager: Pager[T]) -> AsyncIterator[Result[T]]:
        first = pager.first()  # here, so that bad input fails at the call, not later

        async def walk(call: Call[list[T]] | None) -> AsyncIterator[Result[T]]:
            while call is not None:
                page = await self._send(call)
                items, call = pager.feed(page)
                for item in items:
                    yield Result(item, page.ledger)

        return walk(first)

    async def aclose(self) -> None:
        """Close the connections and the cache."""
        await self._http.aclose()
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

    # -- general -------------------------------------------------------------------------

    @_doc(Client.ledger_info)
    async def ledger_info(self) -> Result[dec.LedgerInfo]:
        return await self._send(calls.ledger_info())

    @_doc(Client.health)
    async def health(self, duration_secs: int | None = None) -> Result[dec.HealthStatus]:
        return await self._send(calls.health(duration_secs))

    # -- accounts ------------------------------------------------------------------------

    @_doc(Client.account)
    async def account(
        self, address: str | Address, *, ledger_version: int | None = None
    ) -> Result[dec.AccountData]:
        return await self._send(calls.account(address, ledger_version))

    @_doc(Client.account_resources)
    async def account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[dec.MoveResource]]:
        return await self._send(calls.account_resources(address, ledger_version, start, limit))

    @_doc(Client.iter_account_resources)
    def iter_account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[Result[dec.MoveResource]]:
        pager = CursorPager(
            lambda version, cursor: calls.account_resources(address, version, cursor, limit),
            ledger_version,
        )
        return self._walk(pager)

    @_doc(Client.account_resource)
    async def account_resource(
        self,
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[dec.MoveResource]:
        return await self._send(calls.account_resource(address, resource_type, ledger_version))

    @_doc(Client.account_resource_bcs)
    async def account_resource_bcs(
        self,
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[bytes]:
        call = calls.account_resource_bcs(address, resource_type, ledger_version)
        return await self._send(call)

    @_doc(Client.account_modules)
    async def account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[dec.MoveModuleBytecode]]:
        return await self._send(calls.account_modules(address, ledger_version, start, limit))

    @_doc(Client.iter_account_modules)
    def iter_account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[Result[dec.MoveModuleBytecode]]:
        pager = CursorPager(
            lambda version, cursor: calls.account_modules(address, version, cursor, limit),
            ledger_version,
        )
        return self._walk(pager)

    @_doc(Client.account_module)
    async def account_module(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[dec.MoveModuleBytecode]:
        return await self._send(calls.account_module(address, module_name, ledger_version))

    @_doc(Client.account_module_bytecode)
    async def account_module_bytecode(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        call = calls.account_module_bytecode(address, module_name, ledger_version)
        return await self._send(call)

    @_doc(Client.account_balance)
    async def account_balance(
        self,
        address: str | Address,
        asset: str | Address | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[int]:
        return await self._send(calls.account_balance(address, asset, ledger_version))

    @_doc(Client.account_transactions)
    async def account_transactions(
        self, address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[dec.Transaction]]:
        return await self._send(calls.account_transactions(address, start, limit))

    # -- events --------------------------------------------------------------------------

    @_doc(Client.events_by_creation_number)
    async def events_by_creation_number(
        self,
        address: str | Address,
        creation_number: int,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[list[dec.Event]]:
        call = calls.events_by_creation_number(address, creation_number, start, limit)
        return await self._send(call)

    @_doc(Client.events_by_handle)
    async def events_by_handle(
        self,
        address: str | Address,
        event_handle: str | StructTag,
        field_name: str,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[list[dec.Event]]:
        call = calls.events_by_handle(address, event_handle, field_name, start, limit)
        return await self._send(call)

    @_doc(Client.iter_events)
    def iter_events(
        self,
        address: str | Address,
        creation_number: int | None = None,
        *,
        event_handle: str | StructTag | None = None,
        field_name: str | None = None,
        start: int | None = None,
        limit: int | None = None,
        forward: bool = False,
    ) -> AsyncIterator[Result[dec.Event]]:
        make = calls.event_stream(address, creation_number, event_handle, field_name)
        pager = EventPager(
            make, dec.event_sequence_number, start=start, limit=limit, forward=forward
        )
        return self._walk(pager)

    # -- transactions --------------------------------------------------------------------

    @_doc(Client.transactions)
    async def transactions(
        self, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[dec.Transaction]]:
        return await self._send(calls.transactions(start, limit))

    @_doc(Client.iter_transactions)
    def iter_transactions(
        self, start: int = 0, stop: int | None = None, *, limit: int = 100
    ) -> AsyncIterator[Result[dec.Transaction]]:
        pager = VersionRangePager(
            lambda first, size: calls.transactions(first, size),
            dec.transaction_version,
            start=start,
            stop=stop,
            limit=limit,
        )
        return self._walk(pager)

    @_doc(Client.transaction_by_version)
    async def transaction_by_version(self, version: int) -> Result[dec.Transaction]:
        return await self._send(calls.transaction_by_version(version))

    @_doc(Client.transaction_by_hash)
    async def transaction_by_hash(self, txn_hash: str | bytes) -> Result[dec.Transaction]:
        return await self._send(calls.transaction_by_hash(txn_hash))

    @_doc(Client.wait_for_transaction)
    async def wait_for_transaction(
        self, txn_hash: str | bytes, *, timeout: float = 60.0
    ) -> Result[dec.Transaction]:
        call = calls.wait_by_hash(txn_hash)
        deadline = self._clock.monotonic() + timeout
        while True:
            missing: TransactionNotFoundError | None = None
            try:
                result = await self._send(call)
            except TransactionNotFoundError as exc:
                missing = exc
            else:
                if not dec.is_pending(result.value):
                    return result
            if self._clock.monotonic() >= deadline:
                if missing is not None:
                    raise missing
                raise RequestTimeoutError(
                    f"transaction {call.path.rsplit('/', 1)[1]} still pending after {timeout}s"
                )
            await self._clock.sleep(WAIT_PAUSE_SECONDS)

    @_doc(Client.transactions_auxiliary_info)
    async def transactions_auxiliary_info(
        self, start_version: int, *, limit: int | None = None
    ) -> Result[list[dec.AuxiliaryInfo]]:
        return await self._send(calls.transactions_auxiliary_info(start_version, limit))

    @_doc(Client.submit_transaction)
    async def submit_transaction(self, signed: SignedTransaction) -> Result[dec.PendingTransaction]:
        return await self._send(calls.submit_transaction(signed))

    @_doc(Client.simulate_transaction)
    async def simulate_transaction(
        self,
        transaction: SignedTransaction | RawTransaction,
        *,
        public_key: object = None,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> Result[list[dec.UserTransaction]]:
        call = calls.simulate_transaction(
            transaction,
            public_key,
            estimate_max_gas_amount=estimate_max_gas_amount,
            estimate_gas_unit_price=estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price=estimate_prioritized_gas_unit_price,
        )
        return await self._send(call)

    @_doc(Client.encode_submission)
    async def encode_submission(self, request: Mapping[str, Any]) -> Result[bytes]:
        return await self._send(calls.encode_submission(request))

    # -- tables --------------------------------------------------------------------------

    @_doc(Client.table_item)
    async def table_item(
        self,
        handle: str | Address,
        key_type: str | MoveType,
        value_type: str | MoveType,
        key: Any,
        *,
        ledger_version: int | None = None,
    ) -> Result[Any]:
        call = calls.table_item(handle, key_type, value_type, key, ledger_version)
        return await self._send(call)

    @_doc(Client.raw_table_item)
    async def raw_table_item(
        self, handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        return await self._send(calls.raw_table_item(handle, key, ledger_version))

    # -- gas, view, blocks ---------------------------------------------------------------

    @_doc(Client.estimate_gas_price)
    async def estimate_gas_price(self) -> Result[dec.GasEstimate]:
        return await self._send(calls.estimate_gas_price())

    @_doc(Client.view)
    async def view(
        self,
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Result[list[Any]]:
        return await self._send(calls.view(function, type_arguments, arguments, ledger_version))

    @_doc(Client.view_bcs)
    async def view_bcs(
        self,
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Result[bytes]:
        call = calls.view_bcs(function, type_arguments, arguments, ledger_version)
        return await self._send(call)

    @_doc(Client.block_by_height)
    async def block_by_height(
        self, height: int, *, with_transactions: bool = False
    ) -> Result[dec.Block]:
        return await self._send(calls.block_by_height(height, with_transactions))

    @_doc(Client.block_by_version)
    async def block_by_version(
        self, version: int, *, with_transactions: bool = False
    ) -> Result[dec.Block]:
        return await self._send(calls.block_by_version(version, with_transactions))
