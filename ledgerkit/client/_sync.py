"""The synchronous client: the I/O half over ``httpx.Client``; the endpoint methods are
declared once for both clients in ``_methods``.

No event loop is involved, so it works unchanged inside a running Jupyter kernel (or any
other running asyncio loop). It is thread-safe: the limiter, the cache and httpx's
connection pool all take their own locks.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from types import TracebackType
from typing import Any, TypeVar, overload

import httpx

from ledgerkit._errors import LedgerError
from ledgerkit.client import _calls as calls
from ledgerkit.client._base import DEFAULT_TIMEOUT, BaseClient, Call, Result, read_with
from ledgerkit.client._building import SyncBuilding
from ledgerkit.client._cache import open_cache
from ledgerkit.client._flows import Flow, Pause
from ledgerkit.client._holdings import SyncHoldings
from ledgerkit.client._identity import ChainIdentity
from ledgerkit.client._limits import Clock, Limiter, SystemClock
from ledgerkit.client._methods import Endpoints
from ledgerkit.client._paging import Pager
from ledgerkit.client._retry import Retry
from ledgerkit.client._simulating import SyncSimulating

__all__ = ["Client"]

T = TypeVar("T")
U = TypeVar("U")
_log = logging.getLogger("ledgerkit.client")


class Client(SyncBuilding, SyncSimulating, SyncHoldings, Endpoints, BaseClient):
    """A client of the node REST API.

    Every method answers a :class:`~ledgerkit.client.Result`: ``.value`` (the decoded
    model) and ``.ledger`` (the :class:`~ledgerkit.LedgerMeta` of the response); unpack it
    as ``value, ledger = client.account(address)``. Iterators (``iter_*``) yield one
    ``Result`` per item, with the metadata of the page it came in.

    Parameters
    ----------
    base_url : str
        The node's API root, e.g. ``"http://127.0.0.1:8080/v1"`` (``/v1`` is added when
        the URL has no path).
    api_key : str, optional
        Sent as ``Authorization: Bearer <api_key>``; never shown in ``repr``, logs or
        exceptions.
    headers : mapping, optional
        Extra headers for every request.
    timeout : float or None
        Seconds each attempt may take; ``None`` waits forever.
    retries : int or Retry
        Retries of idempotent requests after 429, 503 or a dropped connection, with
        exponential backoff and full jitter, honouring ``Retry-After``. Submissions are
        never retried.
    max_rps : float, optional
        Start at most this many requests a second (a token bucket).
    max_concurrency : int, optional
        Keep at most this many requests in flight.
    cache : path, bool or None
        The persistent cache of answers that can never change (committed transactions,
        complete blocks, reads at an explicit ``ledger_version``...). ``None``: on, at the
        default location (``$LEDGERKIT_CACHE_DIR`` or the user cache directory), except
        for nodes on loopback addresses; ``True``: on at the default location; a path:
        on, in that directory (or that ``.sqlite3`` file); ``False``: off. Entries are
        filed under the chain's :class:`~ledgerkit.client.ChainIdentity` (chain id and
        genesis hash), asked of the node once per client and again whenever the node
        may have changed, so a recreated chain never gets the answers of the one before.
    transport : httpx.BaseTransport, optional
        The httpx transport, e.g. ``httpx.MockTransport`` in tests.
    clock : Clock, optional
        Where waits and time come from (tests pass a fake one).

    Attributes
    ----------
    config : ClientConfig
        The settings above, frozen.

    Examples
    --------
    >>> with Client("http://127.0.0.1:8080/v1") as client:  # doctest: +SKIP
    ...     info, ledger = client.ledger_info()
    ...     for txn, _ in client.iter_transactions(0, 100):
    ...         print(txn.version)
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
        transport: httpx.BaseTransport | None = None,
        clock: Clock | None = None,
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
        self._clock: Clock = clock or SystemClock()
        self._limiter = Limiter(self.config.max_rps, self.config.max_concurrency, self._clock)
        pool = httpx.Limits(max_connections=self.config.max_concurrency or 100)
        self._http = httpx.Client(
            transport=transport, timeout=self.config.timeout, limits=pool, follow_redirects=False
        )
        self._cache = open_cache(self.config.cache)
        self._identity_lock = threading.Lock()

    # -- plumbing ------------------------------------------------------------------------

    def _exchange(self, call: Call[Any]) -> tuple[int, httpx.Headers, bytes]:
        """Send ``call`` (retrying when allowed) until a 2xx answer; raise anything else."""
        request = self._build_request(call, self._trace)
        retry_number = 0
        while True:
            try:
                with self._limiter.slot():
                    response = self._http.send(request)
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
            self._clock.sleep(delay)
            retry_number += 1

    def _send(self, call: Call[T]) -> Result[T]:
        key = self._cache_key(call)
        chain = None
        if key is not None and self._cache is not None:
            chain = self._chain()
            hit = None if chain is None else self._cache.get(chain, key, call.accept)
            if hit is not None:
                return self._from_cache(call, hit)
        status, headers, body = self._exchange(call)
        result = self._parse(call, status, headers, body)
        # Stored only when nothing said the node changed while it answered.
        if key is not None and self._cache is not None and chain is not None:
            if chain != self._identity:
                return result
            entry = self._to_store(call, result, status, headers, body)
            if entry is not None:
                self._cache.put(chain, key, call.accept, entry)
        return result

    @overload
    def send(self, call: Call[T]) -> Result[T]: ...
    @overload
    def send(self, call: Call[Any], *, decoder: Callable[[bytes], U]) -> Result[U]: ...
    def send(self, call: Call[Any], *, decoder: Callable[[bytes], Any] | None = None) -> Any:
        """Send a request the core describes, and read its answer.

        What every endpoint method does, as a door of its own: the request is a
        :class:`~ledgerkit.client.Call` (one per endpoint in
        :mod:`ledgerkit.client.calls`), sent with this client's headers, limits and
        retries; a node's refusal raises from the error tree as the methods do.

        Parameters
        ----------
        call : Call
            What to send and how its answer is read.
        decoder : callable, optional
            Reads the body of a 2xx answer instead of the call's own decoder (a faster
            or narrower reading of the same bytes). An answer read this way is neither
            looked up in nor stored in the cache, which holds the call's own readings;
            without one, the call's cache policy applies as for the endpoint methods.

        Returns
        -------
        Result
            The decoded value and the ledger metadata of the answer.

        Raises
        ------
        InputError
            ``call`` is not a :class:`~ledgerkit.client.Call`, or ``decoder`` is not
            callable (nothing is sent).
        DecodingError
            The answer is not what the decoder reads (its ``ValueError``,
            ``TypeError``, ``KeyError`` or ``IndexError`` included).

        Examples
        --------
        >>> from ledgerkit.client import calls
        >>> from ledgerkit.models import decode_transaction_rows
        >>> rows, ledger = client.send(  # doctest: +SKIP
        ...     calls.transactions(0, 100), decoder=decode_transaction_rows
        ... )
        """
        return self._send(read_with(call, decoder))

    def _chain(self) -> ChainIdentity | None:
        """The chain the node serves now, for the cache's key: confirmed by its genesis
        once, and again when something says the node may have changed (``_identity``);
        ``None`` when the node would not say (then the cache is not used)."""
        with self._identity_lock:
            if self._recheck_due(self._clock.monotonic()):
                self._exchange(calls.ledger_info())  # heard: may forget the identity
            if self._identity is None and not self._identity_refused:
                self._confirm(self._ask_identity())
            return self._identity

    def _ask_identity(self) -> Result[ChainIdentity] | None:
        try:
            return self.chain_identity()
        except LedgerError as exc:
            self._identity_failed(exc)
            return None

    def chain_identity(self) -> Result[ChainIdentity]:
        """The chain the node serves: its chain id and the hash of its genesis transaction.

        A chain id alone does not name a chain (every local node is chain 4, and a dev
        chain is recreated at will under it); the genesis hash does. It is ``None`` when
        the node no longer holds version 0 (pruned). Asks the node every time (``GET
        /transactions/by_version/0``, of which only the hash is read).

        Examples
        --------
        >>> client.chain_identity().value.chain_id  # doctest: +SKIP
        4
        """
        call = self._genesis_call()
        try:
            return self._identity_of(self._parse(call, *self._exchange(call)))
        except LedgerError as exc:
            found = self._identity_without_genesis(exc)
            if found is None:
                raise
            return found

    def _trace(self, event: str, info: Mapping[str, Any]) -> None:
        self._chain_event(event)

    def _walk(self, pager: Pager[T]) -> Iterator[Result[T]]:
        first = pager.first()  # here, so that bad input fails at the call, not later

        def walk(call: Call[list[T]] | None) -> Iterator[Result[T]]:
            while call is not None:
                page = self._send(call)
                items, call = pager.feed(page)
                for item in items:
                    yield Result(item, page.ledger)

        return walk(first)

    def _drive(self, flow: Flow[T]) -> T:
        """Run a flow of :mod:`~ledgerkit.client._flows` to its end: send its calls,
        wait its pauses, and return what it returns."""
        try:
            step = next(flow)
            while True:
                if isinstance(step, Pause):
                    if step.seconds > 0:
                        self._clock.sleep(step.seconds)
                    step = flow.send(self._clock.monotonic())
                    continue
                try:
                    result = self._send(step)
                except LedgerError as exc:
                    step = flow.throw(exc)
                else:
                    step = flow.send(result)
        except StopIteration as stop:
            value: T = stop.value
            return value
        finally:
            flow.close()

    def close(self) -> None:
        """Close the connections and the cache."""
        self._http.close()
        self._forget_secrets()
        if self._cache is not None:
            self._cache.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
