"""The clients: :class:`Client` (blocking, over ``httpx.Client``) and :class:`AsyncClient`
(asyncio, over ``httpx.AsyncClient``), over one I/O-free core, :class:`BaseClient`.

The path of a request, in this file: a method (declared once for both clients in
``_methods`` or ``_flows``) makes a :class:`~ledgerkit.client.Call` (``calls``: method,
percent-encoded path, query, body, Accept, decoder, whether it may be retried, when its
answer may be cached); the client's ``_send`` looks it up in the answer cache, or
``_exchange`` turns it into an HTTP request (``BaseClient._build_request``), sends it
through the rate limiter, retries when allowed (``BaseClient._retry_delay``), and
``BaseClient._parse`` turns the answer into a :class:`Result` or the right exception of
the error tree (``_answers``). A flow's steps go through ``_drive`` (the driver of
``_driver``), a walk's pages through ``_walk``. :class:`BaseClient` holds everything that
does no I/O (settings, requests, answers, retries, cache keys, which chain the node
serves); ``Client`` and ``AsyncClient`` only move bytes, wait and store, each in its own
way (httpx's ``BaseClient`` / ``Client`` / ``AsyncClient`` split). An ``AsyncClient``
over an ``AiohttpTransport`` moves them past httpx: ``_attempt`` hands the request to
aiohttp, which reads the answer whole (the bulk path).

Every call answers a :class:`Result`: the decoded value and the :class:`LedgerMeta` of the
response it came from (a named tuple, so ``value, ledger = client.account(a)`` works).

The blocking client involves no event loop, so it works unchanged inside a running
Jupyter kernel (or any other running asyncio loop). It is thread-safe: the limiter, the
cache and httpx's connection pool all take their own locks. The asyncio client is its
twin: the same methods in the same order, each awaited (``iter_*`` are async
iterators), each documented once.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import os
import random
import sys
import threading
import urllib.parse
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar, cast, overload

import httpx

from ledgerkit._closing import AsyncClosing, Closing
from ledgerkit._errors import (
    ClientClosedError,
    InputError,
    LedgerError,
    NodeAPIError,
    NotFoundError,
    PrunedError,
    RateLimitedError,
    TransactionNotFoundError,
    TransportError,
)
from ledgerkit.client import calls
from ledgerkit.client._answers import node_error, parse_answer, transport_error
from ledgerkit.client._cache import (
    GENESIS_PATH,
    LOOPBACK_RECHECK_AFTER,
    CachedAnswer,
    ChainIdentity,
    ResponseCache,
    contradicts,
    genesis_hash,
    open_cache,
)
from ledgerkit.client._cache._history import HistoryCheck, HistoryMark, Seen, reach, seen
from ledgerkit.client._calls._graphql import IndexerQuery, graphql_call, graphql_data
from ledgerkit.client._config import (
    DEFAULT_TIMEOUT,
    FILTER,
    ClientConfig,
    client_config,
    client_secrets,
    install,
    is_loopback,
    normalize_base_url,
    same_origin,
    shown_url,
)
from ledgerkit.client._declare import Pager
from ledgerkit.client._deprecated import AsyncDeprecatedMethods, DeprecatedMethods
from ledgerkit.client._driver import Flow, Pause, Together, adrive, drive
from ledgerkit.client._flows import ClientState, Flows
from ledgerkit.client._gaps import FromArchive, FromNode, completed
from ledgerkit.client._pacing import (
    AsyncClock,
    AsyncLimiter,
    AsyncSystemClock,
    Clock,
    Limiter,
    Retry,
    SystemClock,
    Waited,
    rate_limit_delay,
    retry_delay,
)
from ledgerkit.client.calls import Call
from ledgerkit.types import HEADER_PREFIXES, LedgerMeta, Result

__all__ = ["DEFAULT_TIMEOUT", "AsyncClient", "BaseClient", "Client", "read_with"]


@dataclass(frozen=True, slots=True)
class _Uncached:
    """A step of the answer cache's own flows: ``call`` exchanged with the node, the
    cache left out (what comes back is its :class:`~ledgerkit.Result`)."""

    call: Call[Any]


@dataclass(frozen=True, slots=True)
class _Kept:
    """A step of the answer cache's own flows: ``run``, a read or write of the cache file
    (an asyncio client runs it off the event loop)."""

    run: Callable[[], Any]


if TYPE_CHECKING:
    from ledgerkit.client._aiohttp import AiohttpTransport

_USER_AGENT: Final = "ledgerkit-client"
#: httpcore's trace events for a connection just opened.
_NEW_CONNECTION: Final = frozenset(
    {"connection.connect_tcp.complete", "connection.connect_unix_socket.complete"}
)

T = TypeVar("T")
U = TypeVar("U")

_log = logging.getLogger("ledgerkit.client")

#: Lookups by hash: a pruned node answers 404 for a hash it no longer holds.
_BY_HASH: Final = frozenset({"transaction_by_hash", "transaction_by_hash_bcs"})


#: An answer read whole: status, headers, body.
_Answer = tuple[int, Mapping[str, str], bytes]
#: The same, and the archive that gave it (``None``: the node itself).
_Routed = tuple[int, Mapping[str, str], bytes, str | None]


class Exchanger(Protocol):
    """A transport a client may hand its requests to itself, read whole (no httpx objects
    in between): :class:`~ledgerkit.client.AiohttpTransport`, and the snapshot's
    transports over one (``direct_exchanger``)."""

    def exchange(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        timeout: float | None,
    ) -> Awaitable[_Answer]: ...


def _direct(transport: httpx.AsyncBaseTransport | None) -> Exchanger | None:
    """``transport`` when the client may hand it requests itself: an
    :class:`~ledgerkit.client.AiohttpTransport` exactly (a subclass may change how
    requests are handled; it keeps the httpx path), or what a transport's own
    ``direct_exchanger()`` names (a snapshot's, which records or replays them)."""
    # Its module is loaded when there is one (aiohttp is not imported here otherwise).
    module = sys.modules.get("ledgerkit.client._aiohttp")
    if module is not None and type(transport) is module.AiohttpTransport:
        return cast("AiohttpTransport", transport)
    named = getattr(transport, "direct_exchanger", None)
    return cast("Exchanger | None", named()) if callable(named) else None


def _kept_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """What a cached answer keeps of its headers: the ledger headers and the media type."""
    return {
        key.lower(): value
        for key, value in headers.items()
        if key.lower() == "content-type" or key.lower().startswith(HEADER_PREFIXES)
    }


class BaseClient(Flows):
    """The I/O-free core both clients share: every method declared once (``_methods``,
    ``_flows``), the settings, and the requests, answers, retries and cache keys."""

    _limiter: Limiter | AsyncLimiter
    #: The answer cache (``None``: off), opened by each client.
    _cache: ResponseCache | None

    def __init__(self, config: ClientConfig, clock: Clock | AsyncClock) -> None:
        self.config = config
        base = self.config.base_url
        self._api_key = self.config.api_key
        # Kept out of every log record (httpx's, httpcore's, aiohttp's too) while the
        # client lives; see ``_secrets``.
        self._secrets = client_secrets(
            base, self.config.shown_base_url, self._api_key, self.config.headers
        )
        # The archive pruned reads go on to: the one given, else the one a 410 names.
        self._archive: str | None = self.config.archive_url
        if self._archive is not None:
            self._secrets.update(
                client_secrets(
                    self._archive, shown_url(self._archive), None, self.config.archive_headers
                )
            )
        indexer = self.config.indexer_url
        if indexer is not None:
            self._secrets.update(client_secrets(indexer, shown_url(indexer), None, ()))
        if self._secrets:
            install()
            FILTER.add(self._secrets)
        self._forget_secrets = weakref.finalize(self, FILTER.remove, self._secrets)
        # The chain the cache files answers under, confirmed by the node's genesis, and
        # where its ledger stood then (see ``_cache`` for when it is asked again).
        self._loopback = is_loopback(base)
        self._identity: ChainIdentity | None = None
        self._floor: LedgerMeta | None = None
        # The newest version whose history the node confirmed since (-1: none yet): a
        # cached answer is used only when it depends on no version after it.
        self._through = -1
        # How many times the chain was confirmed or forgotten: an answer is stored only
        # under the confirmation it was asked in (a node of the same genesis may have
        # taken the address meanwhile).
        self._round = 0
        self._heard_at: float | None = None
        self._identity_refused = False
        self._rng = random.Random()
        # What the flows keep between calls (sequence numbers, ABIs, the node's clock),
        # handed to each.
        self._clock = clock
        self._state = ClientState(indexer=indexer is not None)
        self._closed = False

    @property
    def base_url(self) -> str:
        """The node's API root, e.g. ``http://127.0.0.1:8080/v1``."""
        return self.config.base_url

    @property
    def archive_url(self) -> str | None:
        """The archive node reads of pruned history go on to: the one given as
        ``archive_url=``, else the one the node's last 410 named (``None`` until then)."""
        return self._archive

    @property
    def indexer_url(self) -> str | None:
        """The indexer's GraphQL API that ``account_assets`` and ``graphql`` ask
        (``indexer_url=``; :func:`ledgerkit.connect` fills it for the embedded node and
        the known public networks), or ``None``."""
        return self.config.indexer_url

    @property
    def timeout(self) -> float | None:
        """Seconds each attempt may take (connect, send, wait, read); ``None``: no limit."""
        return self.config.timeout

    def __repr__(self) -> str:
        parts = [repr(self.config.shown_base_url)]
        if self._api_key is not None:
            parts.append("api_key=<redacted>")
        if self.config.cache is not None:
            parts.append(f"cache={str(self.config.cache)!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    # -- requests ------------------------------------------------------------------------

    def _url(
        self,
        path: str,
        params: Iterable[tuple[str, str]] = (),
        *,
        shown: bool = False,
        archive: str | None = None,
    ) -> str:
        """The URL to send to, or (``shown``) as logs, errors and cache keys write it; at
        the node, or at ``archive`` (an archive's API root) when given."""
        if archive is not None:
            base = shown_url(archive) if shown else archive
        else:
            base = self.config.shown_base_url if shown else self.config.base_url
        query = urllib.parse.urlencode(list(params))
        return f"{base}{path}" + (f"?{query}" if query else "")

    def _indexer_call(self, step: IndexerQuery) -> tuple[str, Call[dict[str, Any]]]:
        """The indexer's URL and the POST of ``step``'s query."""
        url = self.config.indexer_url
        if url is None:
            raise InputError(
                f"{type(self).__name__} knows no indexer: give indexer_url= (an indexer's "
                "GraphQL API); ledgerkit.connect() fills it for the embedded node"
            )
        return url, graphql_call(step.query, step.variables)

    def _check_open(self, call: Call[Any]) -> None:
        """Refuse ``call`` on a closed client, before anything is looked up or sent."""
        if self._closed:
            raise ClientClosedError(
                f"{type(self).__name__} is closed: make a new one [{self._label(call)}]"
            )

    def _label(self, call: Call[Any], archive: str | None = None) -> str:
        """The request as logs and errors write it (the node's address as shown)."""
        return f"{call.method} {self._url(call.path, call.params, shown=True, archive=archive)}"

    def _request_headers(self, call: Call[Any], archive: str | None = None) -> dict[str, str]:
        """The headers of ``call``: the client's own and its api key at the node, and at
        an indexer on the node's origin; at an archive, only ``archive_headers``; at an
        indexer elsewhere, none (a key is never sent to another origin)."""
        indexer = self.config.indexer_url
        own = archive is None or (archive == indexer and same_origin(archive, self.config.base_url))
        headers = {"User-Agent": _USER_AGENT}
        if own:
            headers.update(self.config.headers)
        elif archive != indexer:
            headers.update(self.config.archive_headers)
        headers["Accept"] = call.accept
        if call.content_type is not None:
            headers["Content-Type"] = call.content_type
        if self._api_key is not None and own:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _build_request(
        self, call: Call[Any], trace: Callable[..., Any], archive: str | None = None
    ) -> httpx.Request:
        """The request for ``call``; ``trace`` hears httpcore's connection events (a new
        connection to a loopback node may be to another node: see ``_cache``)."""
        watched = self._loopback and self.config.cache and archive is None
        return httpx.Request(
            call.method,
            self._url(call.path, call.params, archive=archive),
            headers=self._request_headers(call, archive),
            content=call.body,
            extensions={"trace": trace} if watched else {},
        )

    # -- archives ------------------------------------------------------------------------

    def _archive_for(self, call: Call[Any], error: LedgerError) -> str | None:
        """The archive to ask ``call`` of after ``error`` from the node, or ``None``.

        A read of pruned history (410) goes on to the archive given as ``archive_url=``,
        else to the one the 410 names (``archival_endpoint``), remembered for later. A
        transaction looked up by hash that a pruned node does not know (404, no hint: a
        real node cannot tell a pruned hash from an unknown one) is asked of the archive
        known so far. Only reads go on: nothing that is not idempotent is sent twice.
        """
        if not call.idempotent:
            return None
        if isinstance(error, PrunedError):
            if self._archive is None and error.archival_endpoint is not None:
                self._learn_archive(error.archival_endpoint)
            return self._archive
        if (
            isinstance(error, TransactionNotFoundError)
            and call.name in _BY_HASH
            and error.ledger is not None
            and error.ledger.oldest_ledger_version > 0
        ):
            return self._archive
        return None

    def _completed(self, call: Call[T], result: Result[T], body: bytes) -> Flow[Result[T]]:
        """The flow that hands out ``result``, or the whole list from the archive when the
        pruned node cut it short (``_gaps``)."""
        return completed(call, result, body, self._archive, self._label(call))

    def _learn_archive(self, named: str) -> None:
        try:
            url = normalize_base_url(named)
        except InputError:
            _log.warning("%s: the node names an archive that is not an http(s) URL", self)
            return
        if url == self.config.base_url:
            return
        self._archive = url
        self._secrets.update(client_secrets(url, shown_url(url), None, ()))
        FILTER.add(self._secrets)
        _log.info("%s: reads of pruned history go on to %s", self, shown_url(url))

    # -- answers -------------------------------------------------------------------------

    def _parse(
        self,
        call: Call[T],
        status: int,
        headers: Mapping[str, str],
        body: bytes,
        archive: str | None = None,
    ) -> Result[T]:
        """A 2xx answer as a :class:`Result` (see ``_answers``), its metadata saying which
        node answered."""
        by = self.config.shown_base_url if archive is None else shown_url(archive)
        return parse_answer(call, self._label(call, archive), status, headers, body, by)

    def _node_error(
        self,
        call: Call[Any],
        status: int,
        headers: Mapping[str, str],
        body: bytes,
        archive: str | None = None,
    ) -> NodeAPIError:
        """The exception for a non-2xx answer, its secrets redacted (see ``_answers``); a
        submission refused for a stale sequence number makes the next build read it again."""
        error = node_error(self._label(call, archive), status, headers, body, self._secrets)
        self._state.builds.refused(call.name, call.body, error)
        return error

    def _transport_error(
        self, call: Call[Any], exc: httpx.HTTPError, archive: str | None = None
    ) -> LedgerError:
        """Our exception for an httpx failure (see ``_answers``)."""
        return transport_error(self._label(call, archive), exc, self._secrets)

    def _retry_delay(
        self,
        call: Call[Any],
        retry_number: int,
        error: LedgerError,
        headers: Mapping[str, str] | None,
        now: float,
    ) -> float | None:
        """Seconds to wait before trying ``call`` again after ``error``; ``None``: give up."""
        node = error if isinstance(error, NodeAPIError) else None
        delay = retry_delay(
            self.config.retry,
            retry_number,
            idempotent=call.idempotent,
            status=node.status if node is not None else None,
            headers=headers,
            error_code=node.error_code if node is not None else None,
            connection_failed=isinstance(error, TransportError),
            now=now,
            rng=self._rng,
        )
        if delay is not None:
            _log.info("retrying %s in %.2fs after: %s", self._label(call), delay, error)
        return delay

    def _rate_limit_hold(
        self,
        call: Call[Any],
        refusal: NodeAPIError,
        headers: Mapping[str, str],
        waited: float,
        holds: int,
    ) -> float | None:
        """Seconds every request is held after ``refusal``, a 429 that says when to come
        back (not a retry), or ``None`` (see ``_pacing.rate_limit_delay``)."""
        if not isinstance(refusal, RateLimitedError):
            return None
        held = rate_limit_delay(
            self.config.retry,
            idempotent=call.idempotent,
            status=refusal.status,
            headers=headers,
            waited=waited,
            holds=holds,
            now=self._clock.time(),
        )
        if held is not None:
            _log.info("rate limited: holding requests %.2fs (%s)", held, refusal.request)
        return held

    @property
    def waited(self) -> Waited:
        """How long the node's rate limit has held this client's requests so far
        (:class:`~ledgerkit.client.Waited`: holds, seconds, what remains of the current
        one)."""
        return self._limiter.waited()

    @property
    def requests_sent(self) -> int:
        """Requests this client has sent to a node or its archive so far: every attempt
        once, retries and answers refused by a rate limit included; answers read from the
        cache are not requests. With :attr:`waited`, what a run under a budget costs:
        ``requests_sent / rate`` seconds at the least."""
        return self._limiter.sent

    # -- cache ---------------------------------------------------------------------------

    def _cache_key(self, call: Call[Any]) -> str | None:
        """The normalized URL an answer is cached under, or ``None`` when it never is.

        The path and query are already canonical (long addresses, canonical type tags,
        sorted parameters); a request body adds its SHA-256.
        """
        if call.storable is None or self.config.cache is None:
            return None
        # Keyed by the address as shown: a token in the path is not written to the file.
        key = f"{call.method} {self._url(call.cache_path or call.path, call.params, shown=True)}"
        if call.body is not None:
            key += f" sha256={hashlib.sha256(call.body).hexdigest()}"
        return key

    def _chain_event(self, event: str) -> None:
        """A connection event of httpcore's (from the clients' ``trace`` hooks)."""
        if event in _NEW_CONNECTION and self._identity is not None:
            self._forget_identity("a new connection to the node")

    def _heard(self, headers: Mapping[str, str], now: float) -> None:
        """Note an answer of the node (fresh, never from the cache), whatever its status:
        its ledger time is the node's clock for the build flows; metadata that contradict
        the confirmed chain make the client ask again."""
        self._heard_at = now
        meta = LedgerMeta.from_headers(headers)
        self._state.builds.heard(meta, now)  # the node's clock, for expirations
        if self._floor is None:
            return  # no chain confirmed (or no cache): nothing to contradict
        if meta is not None and contradicts(meta, self._floor):
            self._forget_identity(f"an answer of chain {meta.chain_id} at {meta.ledger_version}")

    def _forget_identity(self, why: str) -> None:
        if self._identity is not None:
            _log.debug("%s: %s; its chain is confirmed again", self.config.shown_base_url, why)
        self._identity = None
        self._floor = None
        self._through = -1
        self._round += 1

    def _recheck_due(self, now: float) -> bool:
        """Whether a cache hit on a loopback node waits for a ``GET /`` first."""
        if not self._loopback or self._identity is None or self._heard_at is None:
            return False
        return now - self._heard_at > LOOPBACK_RECHECK_AFTER

    @staticmethod
    def _genesis_call() -> Call[str]:
        return Call("chain_identity", "GET", GENESIS_PATH, genesis_hash)

    @staticmethod
    def _identity_of(genesis: Result[str]) -> Result[ChainIdentity]:
        return Result(ChainIdentity(genesis.ledger.chain_id, genesis.value), genesis.ledger)

    @staticmethod
    def _identity_without_genesis(error: LedgerError) -> Result[ChainIdentity] | None:
        """The identity of a node that no longer holds version 0 (410 pruned, or 404):
        the chain id alone. ``None`` for any other failure."""
        if isinstance(error, NotFoundError | PrunedError) and error.ledger is not None:
            return Result(ChainIdentity(error.ledger.chain_id, None), error.ledger)
        return None

    def _confirm(self, found: Result[ChainIdentity] | None) -> None:
        """Take the identity the node gave as the cache's key."""
        if found is not None:
            self._identity, self._floor = found
            self._round += 1

    def _still(self, chain: ChainIdentity, round_: int) -> bool:
        """Whether the chain confirmed is still ``chain``, as confirmed in ``round_``."""
        return chain == self._identity and round_ == self._round

    def _identity_failed(self, error: LedgerError) -> None:
        """The node would not say which chain it serves: for a refusal (401, 403...) the
        cache stays off for this client; anything else is tried again next time."""
        if isinstance(error, NodeAPIError) and not isinstance(error, NotFoundError | PrunedError):
            self._identity_refused = True
        _log.warning(
            "answer cache not used: the node did not say which chain it serves (%s)", error
        )

    @staticmethod
    def _mark_call(version: int) -> Call[HistoryMark]:
        """The node's mark at ``version`` (only its version and root are read)."""
        call = calls.transaction_by_version(version)
        return read_with(replace(call, name="history_mark"), HistoryMark.decode)

    @staticmethod
    def _seen_failing(error: LedgerError) -> Seen | None:
        """What a failed read of a mark's version says: pruned (410), or past the head
        (404); ``None`` for any other failure (then the cache is not used this time)."""
        if isinstance(error, PrunedError):
            return Seen.PRUNED
        if isinstance(error, NotFoundError):
            return Seen.MISSING
        return None

    def _history_flow(self, chain: ChainIdentity) -> Flow[int]:
        """Check the marks recorded for this node's cached answers against it (one
        request when nothing changed), drop the answers of another history, and say
        which history stands."""
        assert self._cache is not None
        origin = self.config.shown_base_url
        check = HistoryCheck((yield _Kept(functools.partial(self._cache.marks, chain, origin))))
        while (mark := check.ask()) is not None:
            try:
                what = seen(mark, (yield _Uncached(self._mark_call(mark.version))).value)
            except LedgerError as exc:
                failing = self._seen_failing(exc)
                if failing is None:
                    raise
                what = failing
            check.tell(mark, what)
        if check.parted:
            dropped = yield _Kept(
                functools.partial(self._cache.drop_after, chain, origin, check.through)
            )
            _log.info(
                "%s: its history parts from the cached one after version %d; %d cached "
                "answers dropped", self.config.shown_base_url, check.through, dropped,
            )  # fmt: skip
        return check.through

    def _store_flow(
        self,
        chain: ChainIdentity,
        round_: int,
        key: str,
        call: Call[Any],
        result: Result[Any],
        entry: CachedAnswer,
    ) -> Flow[None]:
        """Store a fresh answer, once a mark at or past the version it depends on is
        recorded (the one it carries, or one asked of the node)."""
        assert self._cache is not None
        upto, mark, ask = self._stored_reach(call, result)
        if ask is not None:
            try:
                mark = (yield _Uncached(self._mark_call(ask))).value
            except LedgerError as exc:
                _log.debug("%s not cached: no mark at version %d (%s)", self._label(call), ask, exc)
                return
        origin = self.config.shown_base_url
        if mark is not None and self._advance(chain, round_, mark):
            yield _Kept(functools.partial(self._cache.add_mark, chain, origin, mark))
        if self._still(chain, round_) and upto <= self._through:
            put = functools.partial(self._cache.put, origin=origin, upto=upto)
            yield _Kept(functools.partial(put, chain, key, call.accept, entry))

    def _stored_reach(
        self, call: Call[Any], result: Result[Any]
    ) -> tuple[int, HistoryMark | None, int | None]:
        """The newest version a fresh answer depends on; the mark it carries, when it is
        past the history confirmed so far; and else the version whose mark must be asked
        before it is stored (``None``: none needed)."""
        at = dict(call.params).get("ledger_version")
        upto, root = reach(result.value, result.ledger, None if at is None else int(at))
        if upto <= self._through:
            return upto, None, None
        if root is not None:
            return upto, HistoryMark(upto, root), None
        return upto, None, result.ledger.ledger_version

    def _advance(self, chain: ChainIdentity, round_: int, mark: HistoryMark) -> bool:
        """Take ``mark``, seen at the node, as confirmed history when it is of the chain
        confirmed in ``round_`` and newer than what was; whether it is to be recorded."""
        if not self._still(chain, round_) or mark.version <= self._through:
            return False
        self._through = mark.version
        return True

    def _from_cache(self, call: Call[T], hit: CachedAnswer) -> Result[T]:
        _log.debug("cache hit: %s", self._label(call))
        return self._parse(call, hit.status, hit.headers, hit.body)

    @staticmethod
    def _to_store(
        call: Call[T], result: Result[T], status: int, headers: Mapping[str, str], body: bytes
    ) -> CachedAnswer | None:
        """The entry to store for a fresh answer, when the call's policy allows it."""
        if call.storable is None or not call.storable(result.value, result.ledger):
            return None
        return CachedAnswer(status, _kept_headers(headers), body)


def read_with(call: Call[Any], decoder: Callable[[bytes], Any] | None) -> Call[Any]:
    """``call`` as ``Client.send`` sends it: read by ``decoder`` when one is chosen, and
    then never cached (the cache's policy judges the call's own readings)."""
    if not isinstance(call, Call):
        raise InputError(f"send() takes a Call (see ledgerkit.client.calls), got {call!r}")
    if decoder is None:
        return call
    if not callable(decoder):
        raise InputError(f"decoder must be callable, got {decoder!r}")
    return replace(call, decode=decoder, storable=None, cache_path=None)


class Client(BaseClient, DeprecatedMethods, Closing):
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
        never retried. A 429 that says when to come back holds every request of the
        client until then (the node's budget is spent for all of them) and is not
        counted as a retry (see :class:`~ledgerkit.client.Retry`); ``waited`` tells how
        long the client was held.
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
        may have changed, so a recreated chain never gets the answers of the one before;
        each time, the newest history mark recorded for the node (a version and its
        accumulator root) is checked too (one request), so a chain of the same genesis
        whose history parted (another embedded node of the same seed) never gets the
        answers of the other past the parting (see ``_cache``).
    transport : httpx.BaseTransport, optional
        The httpx transport, e.g. ``httpx.MockTransport`` in tests.
    clock : Clock, optional
        Where waits and time come from (tests pass a fake one).
    archive_url : str, optional
        An archive node with the full history (public fullnodes keep only recent
        versions). Reads the node answers 410 (pruned) go on to it, as do lookups by hash
        the pruned node answers 404; without one, the archive a 410 names
        (``archival_endpoint``) is used. ``result.ledger.answered_by`` says which node
        answered.
    archive_headers : mapping, optional
        Headers for the archive instead of ``headers``; the api key is never sent there
        (a key is issued for one origin).
    indexer_url : str, optional
        The indexer's GraphQL API (``https://api.testnet.aptoslabs.com/v1/graphql``),
        which ``account_assets`` asks for the digital assets an account owns and
        ``graphql`` asks anything. ``headers`` and the api key go there only when it is
        on the node's origin. :func:`ledgerkit.connect` fills it for the embedded node
        and the known public networks.

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
        archive_url: str | None = None,
        archive_headers: Mapping[str, str] | None = None,
        indexer_url: str | None = None,
    ) -> None:
        config = client_config(
            base_url,
            api_key=api_key,
            headers=headers,
            timeout=timeout,
            retries=retries,
            max_rps=max_rps,
            max_concurrency=max_concurrency,
            cache=cache,
            archive_url=archive_url,
            archive_headers=archive_headers,
            indexer_url=indexer_url,
        )
        super().__init__(config, clock or SystemClock())
        self._clock: Clock
        self._limiter: Limiter = Limiter(
            self.config.max_rps, self.config.max_concurrency, self._clock
        )
        pool = httpx.Limits(max_connections=self.config.max_concurrency or 100)
        self._http = httpx.Client(
            transport=transport, timeout=self.config.timeout, limits=pool, follow_redirects=False
        )
        self._cache = open_cache(self.config.cache)
        self._identity_lock = threading.Lock()

    # -- plumbing ------------------------------------------------------------------------

    def _exchange(self, call: Call[Any], archive_first: bool = False) -> _Routed:
        """Send ``call`` (retrying when allowed) until a 2xx answer, at the node or, for a
        read of pruned history, at the archive (``_archive_for``; straight there when
        ``archive_first`` and one is known); raise anything else."""
        if archive_first and self._archive is not None:
            return (*self._exchange_at(call, self._archive), self._archive)
        try:
            return (*self._exchange_at(call, None), None)
        except (PrunedError, TransactionNotFoundError) as error:
            archive = self._archive_for(call, error)
            if archive is None:
                raise
        return (*self._exchange_at(call, archive), archive)

    def _exchange_at(self, call: Call[Any], archive: str | None) -> _Answer:
        self._check_open(call)
        request = self._build_request(call, self._trace, archive)
        retry_number, waited, holds = 0, 0.0, 0
        while True:
            try:
                with self._limiter.slot():
                    response = self._send_request(call, request)
                if archive is None:
                    self._heard(response.headers, self._clock.monotonic())
            except httpx.HTTPError as exc:
                error = self._transport_error(call, exc, archive)
                delay = self._retry_delay(call, retry_number, error, None, self._clock.time())
                if delay is None:
                    raise error from exc
            else:
                status, headers, body = response.status_code, response.headers, response.content
                if _log.isEnabledFor(logging.DEBUG):
                    _log.debug("%s: %s -> %d", call.name, self._label(call, archive), status)
                if 200 <= status < 300:
                    return status, headers, body
                refusal = self._node_error(call, status, headers, body, archive)
                held = self._rate_limit_hold(call, refusal, headers, waited, holds)
                if held is not None:
                    self._limiter.hold(held)  # the next slot waits it out, for every request
                    waited, holds = waited + held, holds + 1
                    continue
                delay = self._retry_delay(call, retry_number, refusal, headers, self._clock.time())
                if delay is None:
                    raise refusal
            self._clock.sleep(delay)
            retry_number += 1

    def _send_request(self, call: Call[Any], request: httpx.Request) -> httpx.Response:
        try:
            return self._http.send(request)
        except RuntimeError:
            self._check_open(call)  # closed by another thread while this one waited
            raise

    def _send(self, call: Call[T], archive_first: bool = False) -> Result[T]:
        self._check_open(call)
        key = self._cache_key(call)
        chain, round_ = None, 0
        if key is not None and self._cache is not None:
            chain = self._chain()
            through, round_ = self._through, self._round
            hit = (
                None if chain is None else self._cache.get(chain, key, call.accept, through=through)
            )
            if hit is not None:
                return self._from_cache(call, hit)
        status, headers, body, archive = self._exchange(call, archive_first)
        result = self._parse(call, status, headers, body, archive)
        if archive is None:  # a list the pruned node cut short is read from the archive
            whole = drive(self._completed(call, result, body), self._cache_step)
            if whole is not result:
                return whole
        # Stored only when nothing said the node changed while it answered.
        if key is not None and self._cache is not None and chain is not None:
            entry = self._to_store(call, result, status, headers, body)
            if entry is not None and self._still(chain, round_):
                drive(self._store_flow(chain, round_, key, call, result, entry), self._cache_step)
        return result

    def _cache_step(self, step: _Uncached | _Kept | FromNode | FromArchive) -> Any:
        """Perform a step of the answer cache's own flows, or of completing a list."""
        if isinstance(step, _Kept):
            return step.run()
        if isinstance(step, FromArchive) and self._archive is not None:
            archive = self._archive
            return self._parse(step.call, *self._exchange_at(step.call, archive), archive)
        return self._parse(step.call, *self._exchange(step.call))

    @overload
    def send(self, call: Call[T], *, archive: bool = False) -> Result[T]: ...
    @overload
    def send(
        self, call: Call[Any], *, decoder: Callable[[bytes], U], archive: bool = False
    ) -> Result[U]: ...
    def send(
        self,
        call: Call[Any],
        *,
        decoder: Callable[[bytes], Any] | None = None,
        archive: bool = False,
    ) -> Any:
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
        archive : bool
            Ask the archive (``archive_url``, given or learned) straight away, for a read
            known to be older than the node keeps; without an archive known, the node.

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
        ...     calls.transactions(start=0, limit=100), decoder=decode_transaction_rows
        ... )
        """
        return self._send(read_with(call, decoder), archive)

    def _chain(self) -> ChainIdentity | None:
        """The chain the node serves now, for the cache's key: confirmed by its genesis
        once, and again when something says the node may have changed (``_cache``);
        ``None`` when the node would not say (then the cache is not used)."""
        with self._identity_lock:
            if self._recheck_due(self._clock.monotonic()):
                self._exchange(calls.ledger_info())  # heard: may forget the identity
            if self._identity is None and not self._identity_refused:
                self._confirm(self._ask_identity())
            return self._identity

    def _ask_identity(self) -> Result[ChainIdentity] | None:
        """The node's chain, once the cached history of it is checked (``_cache``)."""
        try:
            found = self.chain_identity()
            self._through = drive(self._history_flow(found.value), self._cache_step)
        except LedgerError as exc:
            self._identity_failed(exc)
            return None
        return found

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
        """Run a flow to its end (:func:`~ledgerkit.client._driver.drive`)."""
        return drive(flow, self._step)

    def _step(self, step: Call[Any] | Together | Pause | IndexerQuery) -> Any:
        """One step of a flow: send a call (or several, in turn), or wait a pause and tell
        the time."""
        if isinstance(step, Pause):
            if step.seconds > 0:
                self._clock.sleep(step.seconds)
            return self._clock.monotonic()
        if isinstance(step, Together):
            return [self._outcome(call) for call in step.calls]
        if isinstance(step, IndexerQuery):
            return self._ask_indexer(step)
        return self._send(step)

    def _outcome(self, call: Call[T]) -> Result[T] | LedgerError:
        try:
            return self._send(call)
        except LedgerError as exc:
            return exc

    def _ask_indexer(self, step: IndexerQuery) -> dict[str, Any]:
        """The ``data`` of a query of the indexer (retried, paced and limited as node
        calls are)."""
        url, call = self._indexer_call(step)
        body = self._exchange_at(call, url)[2]
        return graphql_data(body, shown_url(url))

    def close(self) -> None:
        """Close the connections and the cache; any call after raises
        :class:`~ledgerkit.ClientClosedError`."""
        self._closed = True
        self._http.close()
        self._forget_secrets()
        if self._cache is not None:
            self._cache.close()


class AsyncClient(BaseClient, AsyncDeprecatedMethods, AsyncClosing):
    """An asyncio client of the node REST API; see :class:`~ledgerkit.Client`.

    Same parameters, except that ``transport`` is an ``httpx.AsyncBaseTransport`` and
    ``clock`` has an awaitable ``sleep``. With an
    :class:`~ledgerkit.client.AiohttpTransport`, requests go to aiohttp directly and
    answers are read whole, past httpx's request and response objects (the bulk path of
    :mod:`ledgerkit.extract`); headers, limits, retries, answers and errors are the same.
    Use ``async with AsyncClient(url) as client``.
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
        archive_url: str | None = None,
        archive_headers: Mapping[str, str] | None = None,
        indexer_url: str | None = None,
    ) -> None:
        config = client_config(
            base_url,
            api_key=api_key,
            headers=headers,
            timeout=timeout,
            retries=retries,
            max_rps=max_rps,
            max_concurrency=max_concurrency,
            cache=cache,
            archive_url=archive_url,
            archive_headers=archive_headers,
            indexer_url=indexer_url,
        )
        super().__init__(config, clock or AsyncSystemClock())
        self._clock: AsyncClock
        self._limiter: AsyncLimiter = AsyncLimiter(
            self.config.max_rps, self.config.max_concurrency, self._clock
        )
        pool = httpx.Limits(max_connections=self.config.max_concurrency or 100)
        self._http = httpx.AsyncClient(
            transport=transport, timeout=self.config.timeout, limits=pool, follow_redirects=False
        )
        self._direct = _direct(transport)
        self._cache = open_cache(self.config.cache)
        self._identity_lock = asyncio.Lock()

    # -- plumbing ------------------------------------------------------------------------

    async def _exchange(self, call: Call[Any], archive_first: bool = False) -> _Routed:
        if archive_first and self._archive is not None:
            return (*await self._exchange_at(call, self._archive), self._archive)
        try:
            return (*await self._exchange_at(call, None), None)
        except (PrunedError, TransactionNotFoundError) as error:
            archive = self._archive_for(call, error)
            if archive is None:
                raise
        return (*await self._exchange_at(call, archive), archive)

    async def _exchange_at(self, call: Call[Any], archive: str | None) -> _Answer:
        self._check_open(call)
        attempt = self._attempt(call, archive)
        retry_number, waited, holds = 0, 0.0, 0
        while True:
            try:
                async with self._limiter.slot():
                    status, headers, body = await attempt()
                if archive is None:
                    self._heard(headers, self._clock.monotonic())
            except httpx.HTTPError as exc:
                error = self._transport_error(call, exc, archive)
                delay = self._retry_delay(call, retry_number, error, None, self._clock.time())
                if delay is None:
                    raise error from exc
            else:
                if _log.isEnabledFor(logging.DEBUG):
                    _log.debug("%s: %s -> %d", call.name, self._label(call, archive), status)
                if 200 <= status < 300:
                    return status, headers, body
                refusal = self._node_error(call, status, headers, body, archive)
                held = self._rate_limit_hold(call, refusal, headers, waited, holds)
                if held is not None:
                    self._limiter.hold(held)  # the next slot waits it out, for every request
                    waited, holds = waited + held, holds + 1
                    continue
                delay = self._retry_delay(call, retry_number, refusal, headers, self._clock.time())
                if delay is None:
                    raise refusal
            await self._clock.sleep(delay)
            retry_number += 1

    def _attempt(
        self, call: Call[Any], archive: str | None = None
    ) -> Callable[[], Awaitable[_Answer]]:
        """What sends ``call`` once and reads its answer whole: straight over aiohttp when
        the transport is an :class:`~ledgerkit.client.AiohttpTransport` (no httpx objects
        in between), or a snapshot's transport that records over one or replays; else
        through httpx."""
        direct = self._direct
        if direct is not None:
            method, body, timeout = call.method, call.body, self.config.timeout
            url = self._url(call.path, call.params, archive=archive)
            headers = self._request_headers(call, archive)

            def exchange() -> Awaitable[_Answer]:
                # The transport would open a new session for a closed client.
                self._check_open(call)
                return direct.exchange(method, url, headers, body, timeout)

            return exchange
        request = self._build_request(call, self._trace, archive)

        async def send() -> _Answer:
            try:
                response = await self._http.send(request)
            except RuntimeError:
                self._check_open(call)  # closed by another task while this one waited
                raise
            return response.status_code, response.headers, response.content

        return send

    async def _send(self, call: Call[T], archive_first: bool = False) -> Result[T]:
        self._check_open(call)
        key = self._cache_key(call)
        chain, round_ = None, 0
        if key is not None and self._cache is not None:
            chain = await self._chain()
            round_ = self._round
            if chain is not None:
                # SQLite is local and quick, but still blocking: keep it off the event loop.
                get = functools.partial(self._cache.get, through=self._through)
                hit = await asyncio.to_thread(get, chain, key, call.accept)
                if hit is not None:
                    return self._from_cache(call, hit)
        status, headers, body, archive = await self._exchange(call, archive_first)
        result = self._parse(call, status, headers, body, archive)
        if archive is None:  # a list the pruned node cut short is read from the archive
            whole = await adrive(self._completed(call, result, body), self._cache_step)
            if whole is not result:
                return whole
        # Stored only when nothing said the node changed while it answered.
        if key is not None and self._cache is not None and chain is not None:
            entry = self._to_store(call, result, status, headers, body)
            if entry is not None and self._still(chain, round_):
                flow = self._store_flow(chain, round_, key, call, result, entry)
                await adrive(flow, self._cache_step)
        return result

    async def _cache_step(self, step: _Uncached | _Kept | FromNode | FromArchive) -> Any:
        """Perform a step of the answer cache's own flows (the cache's file off the
        event loop: SQLite is local and quick, but still blocking), or of completing a
        list."""
        if isinstance(step, _Kept):
            return await asyncio.to_thread(step.run)
        if isinstance(step, FromArchive) and self._archive is not None:
            archive = self._archive
            return self._parse(step.call, *await self._exchange_at(step.call, archive), archive)
        return self._parse(step.call, *await self._exchange(step.call))

    @overload
    async def send(self, call: Call[T], *, archive: bool = False) -> Result[T]: ...
    @overload
    async def send(
        self, call: Call[Any], *, decoder: Callable[[bytes], U], archive: bool = False
    ) -> Result[U]: ...
    async def send(
        self,
        call: Call[Any],
        *,
        decoder: Callable[[bytes], Any] | None = None,
        archive: bool = False,
    ) -> Any:
        return await self._send(read_with(call, decoder), archive)

    async def _chain(self) -> ChainIdentity | None:
        async with self._identity_lock:
            if self._recheck_due(self._clock.monotonic()):
                await self._exchange(calls.ledger_info())  # heard: may forget the identity
            if self._identity is None and not self._identity_refused:
                self._confirm(await self._ask_identity())
            return self._identity

    async def _ask_identity(self) -> Result[ChainIdentity] | None:
        try:
            found = await self.chain_identity()
            self._through = await adrive(self._history_flow(found.value), self._cache_step)
        except LedgerError as exc:
            self._identity_failed(exc)
            return None
        return found

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
        """Run a flow to its end (:func:`~ledgerkit.client._driver.adrive`)."""
        return await adrive(flow, self._step)

    async def _step(self, step: Call[Any] | Together | Pause | IndexerQuery) -> Any:
        """One step of a flow: send a call (or several, concurrently), or wait a pause and
        tell the time."""
        if isinstance(step, Pause):
            if step.seconds > 0:
                await self._clock.sleep(step.seconds)
            return self._clock.monotonic()
        if isinstance(step, Together):
            return list(await asyncio.gather(*(self._outcome(call) for call in step.calls)))
        if isinstance(step, IndexerQuery):
            return await self._ask_indexer(step)
        return await self._send(step)

    async def _outcome(self, call: Call[T]) -> Result[T] | LedgerError:
        try:
            return await self._send(call)
        except LedgerError as exc:
            return exc

    async def _ask_indexer(self, step: IndexerQuery) -> dict[str, Any]:
        url, call = self._indexer_call(step)
        body = (await self._exchange_at(call, url))[2]
        return graphql_data(body, shown_url(url))

    async def aclose(self) -> None:
        """Close the connections and the cache; any call after raises
        :class:`~ledgerkit.ClientClosedError`."""
        self._closed = True
        await self._http.aclose()
        self._forget_secrets()
        if self._cache is not None:
            self._cache.close()


# The asyncio twins of the client's own methods say what the blocking ones say.
AsyncClient.send.__doc__ = Client.send.__doc__
AsyncClient.chain_identity.__doc__ = Client.chain_identity.__doc__
