"""A client's settings: :class:`ClientConfig`, and the checks that make one from what a
caller passed (the node's base URL and how it is shown, timeouts, rates, headers, the
answer cache's place). No I/O.
"""

from __future__ import annotations

import ipaddress
import os
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ledgerkit._errors import InputError
from ledgerkit.client._cache import cache_file, default_cache_dir
from ledgerkit.client._retry import Retry
from ledgerkit.client._secrets import check_api_key, check_headers

__all__ = [
    "DEFAULT_TIMEOUT",
    "CacheSetting",
    "ClientConfig",
    "client_config",
    "is_loopback",
    "normalize_base_url",
    "resolve_cache",
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
    )


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
