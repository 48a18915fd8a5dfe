"""The client's core, shared by :class:`Client` and :class:`AsyncClient`. No I/O here.

A method call becomes a :class:`Call` (built in ``_calls``): method, percent-encoded
path, query, body, Accept, the decoder for the answer, whether it may be retried and
when its answer may be cached. :class:`BaseClient` holds the client's settings
(``_config``), turns a call into an HTTP request, turns the answer into a :class:`Result`
or the right exception from the error tree (``_answers``), decides retries and computes
cache keys. ``Client`` and ``AsyncClient`` only move bytes, wait and store, each in its
own way (httpx's ``BaseClient`` / ``Client`` / ``AsyncClient`` split).

Every call answers a :class:`Result`: the decoded value and the :class:`LedgerMeta` of the
response it came from (a named tuple, so ``value, ledger = client.account(a)`` works).
"""

from __future__ import annotations

import hashlib
import logging
import random
import urllib.parse
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Generic, TypeVar

import httpx

from ledgerkit._errors import (
    InputError,
    LedgerError,
    NodeAPIError,
    NotFoundError,
    PrunedError,
    TransportError,
)
from ledgerkit.client._answers import node_error, parse_answer, transport_error
from ledgerkit.client._cache import CachedAnswer
from ledgerkit.client._config import (
    DEFAULT_TIMEOUT,
    CacheSetting,
    ClientConfig,
    client_config,
    is_loopback,
)
from ledgerkit.client._identity import (
    GENESIS_PATH,
    LOOPBACK_RECHECK_AFTER,
    ChainIdentity,
    contradicts,
    genesis_hash,
)
from ledgerkit.client._retry import Retry, retry_delay
from ledgerkit.client._secrets import FILTER, client_secrets, install
from ledgerkit.types import HEADER_PREFIXES, LedgerMeta, Result

__all__ = [
    "BCS",
    "DEFAULT_TIMEOUT",
    "JSON",
    "SIGNED_TXN_BCS",
    "VIEW_BCS",
    "BaseClient",
    "Call",
    "Result",
    "read_with",
]

JSON: Final = "application/json"
BCS: Final = "application/x-bcs"
SIGNED_TXN_BCS: Final = "application/x.aptos.signed_transaction+bcs"
VIEW_BCS: Final = "application/x.aptos.view_function+bcs"

_USER_AGENT: Final = "ledgerkit-client"
#: httpcore's trace events for a connection just opened.
_NEW_CONNECTION: Final = frozenset(
    {"connection.connect_tcp.complete", "connection.connect_unix_socket.complete"}
)

T = TypeVar("T")

_log = logging.getLogger("ledgerkit.client")


@dataclass(frozen=True, slots=True, eq=False)
class Call(Generic[T]):
    """One request to send and how to read its answer.

    Attributes
    ----------
    name : str
        The client method (for logs).
    method, path : str
        HTTP method and the path under ``base_url``, already percent-encoded.
    decode : callable
        Reads the body of a 2xx answer into the value.
    params : tuple of (str, str)
        Query parameters, sorted by name.
    body, content_type : bytes, str or None
        Request body and its media type.
    accept : str
        Media type asked for (JSON or BCS).
    idempotent : bool
        Whether sending it twice is harmless (then failures may be retried).
    storable : callable or None
        ``storable(value, ledger)`` says whether this answer can never change and may be
        cached; ``None`` for questions about the latest state (never looked up).
    cache_path : str or None
        Path to cache the answer under when it differs from ``path`` (a committed
        transaction from ``wait_by_hash`` is the same as from ``by_hash``).
    """

    name: str
    method: str
    path: str
    decode: Callable[[bytes], T]
    params: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    content_type: str | None = None
    accept: str = JSON
    idempotent: bool = True
    storable: Callable[[T, LedgerMeta], bool] | None = None
    cache_path: str | None = None


def _kept_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """What a cached answer keeps of its headers: the ledger headers and the media type."""
    return {
        key.lower(): value
        for key, value in headers.items()
        if key.lower() == "content-type" or key.lower().startswith(HEADER_PREFIXES)
    }


class BaseClient:
    """Settings and the I/O-free half of a client: requests, answers, retries, cache keys."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None,
        headers: Mapping[str, str] | None,
        timeout: float | None,
        retries: int | Retry,
        max_rps: float | None,
        max_concurrency: int | None,
        cache: CacheSetting,
    ) -> None:
        self.config: ClientConfig = client_config(
            base_url,
            api_key=api_key,
            headers=headers,
            timeout=timeout,
            retries=retries,
            max_rps=max_rps,
            max_concurrency=max_concurrency,
            cache=cache,
        )
        base = self.config.base_url
        self._api_key = self.config.api_key
        # Kept out of every log record (httpx's, httpcore's, aiohttp's too) while the
        # client lives; see ``_secrets``.
        self._secrets = client_secrets(
            base, self.config.shown_base_url, self._api_key, self.config.headers
        )
        if self._secrets:
            install()
            FILTER.add(self._secrets)
        self._forget_secrets = weakref.finalize(self, FILTER.remove, self._secrets)
        # The chain the cache files answers under, confirmed by the node's genesis, and
        # where its ledger stood then (see ``_identity`` for when it is asked again).
        self._loopback = is_loopback(base)
        self._identity: ChainIdentity | None = None
        self._floor: LedgerMeta | None = None
        self._heard_at: float | None = None
        self._identity_refused = False
        self._rng = random.Random()

    @property
    def base_url(self) -> str:
        """The node's API root, e.g. ``http://127.0.0.1:8080/v1``."""
        return self.config.base_url

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
        self, path: str, params: Iterable[tuple[str, str]] = (), *, shown: bool = False
    ) -> str:
        """The URL to send to, or (``shown``) as logs, errors and cache keys write it."""
        base = self.config.shown_base_url if shown else self.config.base_url
        query = urllib.parse.urlencode(list(params))
        return f"{base}{path}" + (f"?{query}" if query else "")

    def _label(self, call: Call[Any]) -> str:
        """The request as logs and errors write it (the node's address as shown)."""
        return f"{call.method} {self._url(call.path, call.params, shown=True)}"

    def _request_headers(self, call: Call[Any]) -> dict[str, str]:
        headers = {"User-Agent": _USER_AGENT}
        headers.update(self.config.headers)
        headers["Accept"] = call.accept
        if call.content_type is not None:
            headers["Content-Type"] = call.content_type
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _build_request(self, call: Call[Any], trace: Callable[..., Any]) -> httpx.Request:
        """The request for ``call``; ``trace`` hears httpcore's connection events (a new
        connection to a loopback node may be to another node: see ``_identity``)."""
        return httpx.Request(
            call.method,
            self._url(call.path, call.params),
            headers=self._request_headers(call),
            content=call.body,
            extensions={"trace": trace} if self._loopback and self.config.cache else {},
        )

    # -- answers -------------------------------------------------------------------------

    def _parse(
        self, call: Call[T], status: int, headers: Mapping[str, str], body: bytes
    ) -> Result[T]:
        """A 2xx answer as a :class:`Result` (see ``_answers``)."""
        return parse_answer(call, self._label(call), status, headers, body)

    def _node_error(
        self, call: Call[Any], status: int, headers: Mapping[str, str], body: bytes
    ) -> NodeAPIError:
        """The exception for a non-2xx answer, its secrets redacted (see ``_answers``)."""
        return node_error(self._label(call), status, headers, body, self._secrets)

    def _transport_error(self, call: Call[Any], exc: httpx.HTTPError) -> LedgerError:
        """Our exception for an httpx failure (see ``_answers``)."""
        return transport_error(self._label(call), exc, self._secrets)

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
        metadata that contradict the confirmed chain make the client ask again."""
        self._heard_at = now
        if self._floor is None:
            return  # no chain confirmed (or no cache): nothing to contradict
        meta = LedgerMeta.from_headers(headers)
        if meta is not None and contradicts(meta, self._floor):
            self._forget_identity(f"an answer of chain {meta.chain_id} at {meta.ledger_version}")

    def _forget_identity(self, why: str) -> None:
        if self._identity is not None:
            _log.debug("%s: %s; its chain is confirmed again", self.config.shown_base_url, why)
        self._identity = None
        self._floor = None

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

    def _identity_failed(self, error: LedgerError) -> None:
        """The node would not say which chain it serves: for a refusal (401, 403...) the
        cache stays off for this client; anything else is tried again next time."""
        if isinstance(error, NodeAPIError) and not isinstance(error, NotFoundError | PrunedError):
            self._identity_refused = True
        _log.warning(
            "answer cache not used: the node did not say which chain it serves (%s)", error
        )

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
