"""A client's settings: :class:`ClientConfig`, and the checks that make one from what a
caller passed (the node's base URL and how it is shown, timeouts, rates, headers, the
answer cache's place). No I/O.

**Secrets.** A client's secrets are checked before anything is sent, kept out of every log record.

A client holds up to three kinds of secret: its ``api_key`` (sent as a bearer token), the
values of credential-like headers given in ``headers=``, and an access token that a hosted
node takes as a segment of the URL path (``https://host/<token>/v1``). ledgerkit's own
messages never write them; the libraries under the client do: httpx logs every request's
full URL at INFO, httpcore logs the errors of a header it cannot send (value included) at
DEBUG, aiohttp's errors quote the whole URL.

So each client registers its secrets with one :class:`SecretFilter`, installed on the
loggers of ledgerkit, httpx, httpcore and aiohttp (a logger's filters see only the
records made on that very logger, hence the list of names). The filter rewrites a record
only when its text holds a registered secret, so other users of those libraries see their
records unchanged; a client's secrets leave the registry when it is closed or collected.

Values that cannot travel in an HTTP header (a newline from a key file, a non-ASCII
character) are refused up front with an :class:`~ledgerkit.InputError` that names the
fault and never the value: sent, they would fail deep in the HTTP stack with an error
quoting them.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ledgerkit._errors import InputError
from ledgerkit.client._cache import cache_file, default_cache_dir
from ledgerkit.client._pacing import Retry

__all__ = [
    "DEFAULT_TIMEOUT",
    "FILTER",
    "REDACTED",
    "CacheSetting",
    "ClientConfig",
    "SecretFilter",
    "check_api_key",
    "check_headers",
    "client_config",
    "client_secrets",
    "install",
    "is_loopback",
    "is_secret_name",
    "known_indexer_url",
    "normalize_base_url",
    "normalize_indexer_url",
    "redact",
    "resolve_cache",
    "same_origin",
    "shown_url",
]

DEFAULT_TIMEOUT: Final = 30.0

CacheSetting = str | os.PathLike[str] | bool | None


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
    #: The archive node pruned reads go on to (``None``: the one a 410 names, if any),
    #: and the headers sent there instead of ``headers`` and the api key.
    archive_url: str | None = field(default=None, repr=False)
    archive_headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    #: The indexer's GraphQL API (``None``: none known): what ``account_assets`` asks
    #: for the digital assets an account owns, and ``graphql`` asks.
    indexer_url: str | None = field(default=None, repr=False)


def client_config(
    base_url: str,
    *,
    api_key: str | None,
    headers: Mapping[str, str] | None,
    timeout: float | None,
    retries: int | Retry,
    max_rps: float | None,
    max_concurrency: int | None,
    cache: CacheSetting,
    archive_url: str | None = None,
    archive_headers: Mapping[str, str] | None = None,
    indexer_url: str | None = None,
) -> ClientConfig:
    """The settings of a client made with these arguments, each checked: a bad one is an
    :class:`~ledgerkit.InputError` naming it (never the value of a secret)."""
    base = normalize_base_url(base_url)
    retry = retries if isinstance(retries, Retry) else Retry(total=retries)
    if max_concurrency is not None and (
        isinstance(max_concurrency, bool)
        or not isinstance(max_concurrency, int)
        or max_concurrency < 1
    ):
        raise InputError(f"max_concurrency must be an int >= 1, got {max_concurrency!r}")
    api_key = check_api_key(api_key)
    return ClientConfig(
        base_url=base,
        shown_base_url=shown_url(base),
        timeout=_positive(timeout, "timeout"),
        retry=retry,
        max_rps=_positive(max_rps, "max_rps"),
        max_concurrency=max_concurrency,
        headers=check_headers(headers),
        cache=resolve_cache(cache, base),
        api_key=api_key,
        archive_url=None if archive_url is None else normalize_base_url(archive_url),
        archive_headers=check_headers(archive_headers),
        indexer_url=None if indexer_url is None else normalize_indexer_url(indexer_url),
    )


def _http_url(url: str, what: str) -> urllib.parse.SplitResult:
    """``url`` split, checked to be an http(s) URL without query, fragment or
    credentials (``what`` names it in the error)."""
    if not isinstance(url, str) or not url.strip():
        raise InputError(f"{what} must be an http(s) URL, got {url!r}")
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise InputError(f"{what} must be an http(s) URL, got {url!r}")
    if parts.query or parts.fragment:
        raise InputError(f"{what} takes no query or fragment, got {url!r}")
    if parts.username is not None or parts.password is not None:
        # URLs end up in logs and error messages: credentials go in api_key= or headers=.
        raise InputError(f"{what} must not carry credentials; pass api_key= or headers=")
    return parts


def normalize_base_url(url: str) -> str:
    """``scheme://host[:port]/path`` without a trailing slash; ``/v1`` when no path."""
    parts = _http_url(url, "base_url")
    path = parts.path.rstrip("/") or "/v1"
    return urllib.parse.urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, "", ""))


def normalize_indexer_url(url: str) -> str:
    """An indexer's GraphQL URL, ``scheme://host[:port]/path``, its path kept as given
    (``/v1/graphql`` for Aptos Labs' and the embedded node's) but for a trailing slash."""
    parts = _http_url(url, "indexer_url")
    path = parts.path.rstrip("/")
    return urllib.parse.urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, "", ""))


#: The networks whose indexer is known: the hosts of their nodes (Aptos Labs' API
#: gateway and fullnodes) and the GraphQL URL of their indexer.
_KNOWN_INDEXERS: Final = {
    f"{host}.{network}.aptoslabs.com": f"https://api.{network}.aptoslabs.com/v1/graphql"
    for network in ("mainnet", "testnet", "devnet")
    for host in ("api", "fullnode")
}


#: A local network's ports: the node API and the indexer API (the Aptos CLI's defaults).
_LOCAL_NODE_PORT, _LOCAL_INDEXER_PORT = 8080, 8090
_LOOPBACK: Final = frozenset({"127.0.0.1", "localhost", "::1"})


def known_indexer_url(base_url: str) -> str | None:
    """The GraphQL URL of the indexer of a known public network's node (Aptos Labs'
    mainnet, testnet and devnet, at ``api.<network>.aptoslabs.com/v1/graphql``), or of a
    local network's node (the node API on port 8080 of this machine, its indexer API on
    8090, as the Aptos CLI and ``ledgerkit node`` start them), or ``None``.

    Examples
    --------
    >>> known_indexer_url("https://fullnode.testnet.aptoslabs.com/v1")
    'https://api.testnet.aptoslabs.com/v1/graphql'
    >>> known_indexer_url("http://127.0.0.1:8080/v1")
    'http://127.0.0.1:8090/v1/graphql'
    """
    parts = urllib.parse.urlsplit(base_url)
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() == "http" and port == _LOCAL_NODE_PORT and host in _LOOPBACK:
        netloc = f"[{host}]" if ":" in host else host
        return f"http://{netloc}:{_LOCAL_INDEXER_PORT}/v1/graphql"
    if parts.scheme.lower() != "https" or port not in (None, 443):
        return None
    return _KNOWN_INDEXERS.get(host)


def same_origin(url: str, other: str) -> bool:
    """Whether two URLs have the same scheme, host and port (a key for one origin may
    go to the other)."""
    a, b = urllib.parse.urlsplit(url), urllib.parse.urlsplit(other)
    defaults = {"http": 80, "https": 443}

    def origin(p: urllib.parse.SplitResult) -> tuple[str, str, int | None]:
        scheme = p.scheme.lower()
        return scheme, (p.hostname or "").lower(), p.port or defaults.get(scheme)

    return origin(a) == origin(b)


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


#: What a secret is replaced with.
REDACTED: Final = "***"

#: Loggers whose records may carry a request's URL or headers.
LOGGERS: Final = (
    "ledgerkit",
    "ledgerkit.client",
    "ledgerkit.extract",
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
    "httpcore.socks",
    "aiohttp",
    "aiohttp.access",
    "aiohttp.client",
    "aiohttp.internal",
    "aiohttp.server",
    "aiohttp.web",
    "aiohttp.websocket",
)

# A header name is an RFC 9110 token.
_TOKEN: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# Header names whose values are credentials (redacted in logs like the api key).
_SECRET_NAME: Final = re.compile(r"auth|key|token|secret|cookie|session|password", re.I)
# Shorter path segments are words ("api", "rest"), not tokens worth hiding in others' logs.
_MIN_TOKEN: Final = 8


def _fault(value: str) -> str | None:
    """What makes ``value`` unfit for a header, without quoting it; ``None`` if fit."""
    for position, char in enumerate(value):
        if char in "\r\n":
            return "contains a newline (as read from a file? strip it)"
        if not char.isascii():
            return f"contains a non-ASCII character (at position {position})"
        if (char < " " and char != "\t") or char == "\x7f":
            return f"contains a control character (at position {position})"
    if value != value.strip(" \t"):
        return "starts or ends with whitespace"
    return None


def check_api_key(api_key: object) -> str | None:
    """``api_key`` if it can be sent as ``Authorization: Bearer <api_key>``; else an
    :class:`~ledgerkit.InputError` naming the fault (never the key)."""
    if api_key is None:
        return None
    if not isinstance(api_key, str) or not api_key:
        raise InputError("api_key must be a non-empty string")
    fault = _fault(api_key)
    if fault is not None:
        raise InputError(f"api_key {fault}")
    return api_key


def check_headers(headers: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    """``headers`` as pairs, each name a token and each value sendable; a fault is an
    :class:`~ledgerkit.InputError` naming the header (never its value)."""
    pairs: list[tuple[str, str]] = []
    for key, item in (headers or {}).items():
        name, value = str(key), str(item)
        if not _TOKEN.fullmatch(name):
            raise InputError(f"header names must be HTTP tokens, got {name!r}")
        fault = _fault(value)
        if fault is not None:
            raise InputError(f"the value of header {name} {fault}")
        pairs.append((name, value))
    return tuple(pairs)


def is_secret_name(name: str) -> bool:
    """True for a header or query parameter name whose value is a credential (``auth``,
    ``key``, ``token``, ``secret``...), as the client hides such headers' values."""
    return _SECRET_NAME.search(name) is not None


def client_secrets(
    base_url: str, shown_base_url: str, api_key: str | None, headers: Iterable[tuple[str, str]]
) -> dict[str, str]:
    """What a client must keep out of logs, each secret mapped to what replaces it (call
    it for each origin the client sends to, with what it sends there)."""
    found: dict[str, str] = {}
    if api_key is not None:
        found[api_key] = REDACTED
    for name, value in headers:
        if _SECRET_NAME.search(name) and value:
            found[value] = REDACTED
    if base_url != shown_base_url:
        found[base_url] = shown_base_url
        path = urllib.parse.urlsplit(base_url).path
        shown_path = urllib.parse.urlsplit(shown_base_url).path
        found[path] = shown_path
        for segment in path.split("/")[:-1]:
            if len(segment) >= _MIN_TOKEN:
                found[segment] = REDACTED
                found[urllib.parse.unquote(segment)] = REDACTED
    return found


def redact(text: str, secrets: Mapping[str, str]) -> str:
    """``text`` with each of ``secrets`` replaced, the longest first."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, secrets[secret])
    return text


class SecretFilter(logging.Filter):
    """Rewrites the log records that hold a registered secret; passes every record."""

    def __init__(self) -> None:
        super().__init__("ledgerkit-secrets")
        self._lock = threading.Lock()
        self._counts: Counter[tuple[str, str]] = Counter()
        # Longest first, so that a URL is replaced before a segment of it.
        self._pairs: tuple[tuple[str, str], ...] = ()

    def add(self, secrets: Mapping[str, str]) -> None:
        with self._lock:
            self._counts.update(secrets.items())
            self._refresh()

    def remove(self, secrets: Mapping[str, str]) -> None:
        with self._lock:
            self._counts.subtract(secrets.items())
            self._counts = +self._counts  # drop what no client holds any more
            self._refresh()

    def _refresh(self) -> None:
        self._pairs = tuple(sorted(self._counts, key=lambda pair: -len(pair[0])))

    def redact(self, text: str) -> str:
        """``text`` with every registered secret replaced."""
        for secret, shown in self._pairs:
            if secret in text:
                text = text.replace(secret, shown)
        return text

    def _holds_secret(self, text: str) -> bool:
        return any(secret in text for secret, _ in self._pairs)

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._pairs:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: logging reports it itself
            return True
        if self._holds_secret(message):
            record.msg = self.redact(message)
            record.args = ()
        if record.exc_info and not record.exc_text:
            text = logging.Formatter().formatException(record.exc_info)
            if self._holds_secret(text):
                record.exc_text = self.redact(text)  # what formatters print instead
        if record.stack_info and self._holds_secret(record.stack_info):
            record.stack_info = self.redact(record.stack_info)
        return True


#: The one filter every client registers its secrets with.
FILTER: Final = SecretFilter()
_installed = False
_install_lock = threading.Lock()


def install() -> None:
    """Put :data:`FILTER` on the loggers of :data:`LOGGERS` (once per process)."""
    global _installed
    with _install_lock:
        if _installed:
            return
        for name in LOGGERS:
            logging.getLogger(name).addFilter(FILTER)
        _installed = True
