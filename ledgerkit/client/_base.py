"""The client's core, shared by :class:`Client` and :class:`AsyncClient`. No I/O here.

A method call becomes a :class:`Call` (built in ``_calls``): method, percent-encoded
path, query, body, Accept, the decoder for the answer, whether it may be retried and
when its answer may be cached. :class:`BaseClient` turns a call into an HTTP request,
turns the answer into a :class:`Result` or the right exception from the error tree,
decides retries and computes cache keys. ``Client`` and ``AsyncClient`` only move bytes,
wait and store, each in its own way (httpx's ``BaseClient`` / ``Client`` /
``AsyncClient`` split).

Every call answers a :class:`Result`: the decoded value and the :class:`LedgerMeta` of the
response it came from (a named tuple, so ``value, ledger = client.account(a)`` works).
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import logging
import os
import random
import urllib.parse
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

import httpx

from ledgerkit._errors import (
    DecodingError,
    InputError,
    LedgerError,
    NodeAPIError,
    NotFoundError,
    PrunedError,
    RequestTimeoutError,
    TransportError,
    error_from_record,
)
from ledgerkit.client._cache import CachedAnswer, cache_file, default_cache_dir
from ledgerkit.client._identity import (
    GENESIS_PATH,
    LOOPBACK_RECHECK_AFTER,
    ChainIdentity,
    contradicts,
    genesis_hash,
)
from ledgerkit.client._retry import Retry, retry_delay
from ledgerkit.client._secrets import (
    FILTER,
    check_api_key,
    check_headers,
    client_secrets,
    install,
    redact,
)
from ledgerkit.types import HEADER_PREFIXES, LedgerMeta, Result

__all__ = [
    "BCS",
    "JSON",
    "SIGNED_TXN_BCS",
    "VIEW_BCS",
    "BaseClient",
    "CacheSetting",
    "Call",
    "ClientConfig",
    "Result",
    "read_with",
]

JSON: Final = "application/json"
BCS: Final = "application/x-bcs"
SIGNED_TXN_BCS: Final = "application/x.aptos.signed_transaction+bcs"
VIEW_BCS: Final = "application/x.aptos.view_function+bcs"

DEFAULT_TIMEOUT: Final = 30.0
_USER_AGENT: Final = "ledgerkit-client"
_SNIPPET: Final = 200
#: httpcore's trace events for a connection just opened.
_NEW_CONNECTION: Final = frozenset(
    {"connection.connect_tcp.complete", "connection.connect_unix_socket.complete"}
)

T = TypeVar("T")
CacheSetting = str | os.PathLike[str] | bool | None

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


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """A client's settings, fixed when it is made (see :class:`~ledgerkit.Client`).

    ``shown_base_url`` is how logs, errors and reprs write the node's address
    (:func:`shown_url`); ``base_url`` itself stays out of the repr, as do ``headers`` and
    ``api_key`` (what another client for the same node, a bulk extraction's say, needs).
    """

    base_url: str = field(repr=False)
    shown_base_url: str
    timeout: float | None
    retry: Retry
    max_rps: float | None
    max_concurrency: int | None
    # Left out of repr: a caller may put credentials here.
    headers: tuple[tuple[str, str], ...] = field(repr=False)
    cache: Path | None = None
    api_key: str | None = field(default=None, repr=False)


def normalize_base_url(url: str) -> str:
    """``scheme://host[:port]/path`` without a trailing slash; ``/v1`` when no path."""
    if not isinstance(url, str) or not url.strip():
        raise InputError(f"base_url must be an http(s) URL, got {url!r}")
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise InputError(f"base_url must be an http(s) URL, got {url!r}")
    if parts.query or parts.fragment:
        raise InputError(f"base_url takes no query or fragment, got {url!r}")
    if parts.username is not None or parts.password is not None:
        # URLs end up in logs and error messages: credentials go in api_key= or headers=.
        raise InputError("base_url must not carry credentials; pass api_key= or headers=")
    path = parts.path.rstrip("/") or "/v1"
    return urllib.parse.urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, "", ""))


def shown_url(base_url: str) -> str:
    """``base_url`` as logs, errors and reprs write it: of a path of several segments only
    the last is shown (``https://host/***/v1``), since hosted nodes often take their access
    token as a path segment; a one-segment path (``/v1``) is shown whole."""
    parts = urllib.parse.urlsplit(base_url)
    segments = [segment for segment in parts.path.split("/") if segment]
    if len(segments) <= 1:
        return base_url
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, f"/***/{segments[-1]}", "", ""))


def is_loopback(base_url: str) -> bool:
    """True for ``localhost`` and loopback addresses."""
    host = urllib.parse.urlsplit(base_url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve_cache(cache: CacheSetting, base_url: str) -> Path | None:
    """The cache file for a ``cache=`` setting, or ``None`` for no cache.

    ``False``: off. ``True``: the default location. A path: that directory (or that
    file when it ends in ``.sqlite3``). ``None`` (the default): the default location for
    remote nodes, off for loopback ones, whose dev chains are recreated at will under the
    same chain id and would otherwise be served answers from a chain that is gone.
    """
    if cache is False:
        return None
    if cache is None:
        return None if is_loopback(base_url) else cache_file(default_cache_dir())
    if cache is True:
        return cache_file(default_cache_dir())
    if isinstance(cache, str | os.PathLike):
        return cache_file(cache)
    raise InputError(f"cache must be a path, True, False or None, got {cache!r}")


def _positive(value: float | None, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise InputError(f"{name} must be a positive number or None, got {value!r}")
    return float(value)


def snippet(body: bytes) -> str:
    """The start of a body, as text, for messages."""
    return body[:_SNIPPET].decode("utf-8", "replace")


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
        base = normalize_base_url(base_url)
        retry = retries if isinstance(retries, Retry) else Retry(total=retries)
        if max_concurrency is not None and (
            isinstance(max_concurrency, bool)
            or not isinstance(max_concurrency, int)
            or max_concurrency < 1
        ):
            raise InputError(f"max_concurrency must be an int >= 1, got {max_concurrency!r}")
        api_key = check_api_key(api_key)
        self.config = ClientConfig(
            base_url=base,
            shown_base_url=shown_url(base),
            timeout=_positive(timeout, "timeout"),
            retry=retry,
            max_rps=_positive(max_rps, "max_rps"),
            max_concurrency=max_concurrency,
            headers=check_headers(headers),
            cache=resolve_cache(cache, base),
            api_key=api_key,
        )
        self._api_key = api_key
        # Kept out of every log record (httpx's, httpcore's, aiohttp's too) while the
        # client lives; see ``_secrets``.
        self._secrets = client_secrets(
            base, self.config.shown_base_url, api_key, self.config.headers
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
        """A 2xx answer as a :class:`Result`; a body that is not what was promised is a
        :class:`DecodingError` saying what came back."""
        label = self._label(call)
        ledger = LedgerMeta.from_headers(headers)
        if ledger is None:
            raise DecodingError(
                f"{label}: the answer carries no ledger headers (X-NODE-* or X-APTOS-*)",
                status=status,
                snippet=snippet(body),
            )
        media = (headers.get("content-type") or "").split(";", 1)[0].strip().lower()
        if media and media != call.accept:
            raise DecodingError(
                f"{label}: expected {call.accept}, the node answered {media}",
                status=status,
                snippet=snippet(body),
            )
        try:
            value = call.decode(body)
        except DecodingError as exc:
            raise DecodingError(f"{label}: {exc}", status=status) from exc
        except RecursionError:
            # Nested past the interpreter's limit: hostile or broken, never a ledger value.
            raise DecodingError(
                f"{label}: the answer is nested too deeply to decode",
                status=status,
                snippet=snippet(body),
            ) from None
        except (ValueError, TypeError, KeyError, IndexError, LedgerError) as exc:
            raise DecodingError(
                f"{label}: the answer does not decode: {exc}", status=status, snippet=snippet(body)
            ) from exc
        return Result(value, ledger)

    def _node_error(
        self, call: Call[Any], status: int, headers: Mapping[str, str], body: bytes
    ) -> NodeAPIError:
        """The exception for a non-2xx answer, from the node's error record."""
        record: object
        try:
            record = json.loads(body)
        except (ValueError, RecursionError):
            text = snippet(body).strip()
            record = {"message": f"HTTP {status} without an error record: {text!r}"}
        if self._secrets and isinstance(record, dict):
            # A node (or a proxy before it) may echo the path it was asked, token and all.
            record = {k: redact(v, self._secrets) if isinstance(v, str) else v
                      for k, v in record.items()}  # fmt: skip
        return error_from_record(
            status, record, ledger=LedgerMeta.from_headers(headers), request=self._label(call)
        )

    def _transport_error(self, call: Call[Any], exc: httpx.HTTPError) -> LedgerError:
        """Our exception for an httpx failure (no raw httpx exception leaves the client).

        A request the HTTP stack refuses to send (an unsendable header, say) is an
        :class:`InputError`, which is never retried; its detail may quote what was
        refused, so it is left out.
        """
        label = self._label(call)
        if isinstance(exc, httpx.LocalProtocolError | httpx.UnsupportedProtocol):
            return InputError(f"{label}: the request cannot be sent ({type(exc).__name__})")
        detail = redact(str(exc) or type(exc).__name__, self._secrets)
        if isinstance(exc, httpx.TimeoutException):
            return RequestTimeoutError(f"{label}: timed out ({type(exc).__name__}: {detail})")
        if isinstance(exc, httpx.DecodingError):
            return DecodingError(f"{label}: the body could not be decoded: {detail}")
        return TransportError(f"{label}: {type(exc).__name__}: {detail}")

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
