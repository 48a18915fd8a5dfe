"""What every extraction is given: its options (:class:`ExtractOptions`, one frozen object)
and the node it reads (:class:`NodeAccess`: address and credentials).

A :class:`NodeAccess` travels to Dask workers inside each task, so it pickles; its repr,
and so the repr of every task and graph holding it, shows the address and the names of the
headers, never the api key or a header's value. One made from a client that records into
or replays from a snapshot (:mod:`ledgerkit.client.snapshot`) carries that snapshot, and
the extraction's own client records into it or replays from it too; such a one stays in
its process (the Dask functions refuse it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, TypedDict

import httpx

from ledgerkit._errors import InputError
from ledgerkit.client import AsyncClient, Client, Retry
from ledgerkit.client.snapshot import Snapshot, snapshot_of

__all__ = [
    "PARTITION_SIZE",
    "ExtractOptions",
    "NodeAccess",
    "OptionFields",
    "node_access",
    "resolve_options",
]

#: Seconds each request may take, as a client's default.
DEFAULT_TIMEOUT: Final = 30.0
#: Keys per Parquet file or Dask partition of each kind, unless the options say otherwise.
PARTITION_SIZE: Final[Mapping[str, int]] = MappingProxyType(
    {
        "transactions": 10_000,
        "blocks": 1_000,
        "events": 10_000,
        "transaction_events": 10_000,
        "activity": 10_000,
    }
)


class OptionFields(TypedDict, total=False):
    """The fields of :class:`ExtractOptions`, as keyword arguments of the extract functions."""

    partition_size: int | None
    concurrency: int | None
    max_rps: float | None
    retries: int | Retry
    timeout: float | None
    progress: bool | None


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtractOptions:
    """How an extraction runs; one object for :func:`extract` and :func:`aextract` (and
    their ``extract_*`` aliases) and every ``*_dask`` function (``options=``), whose keyword
    arguments of the same names override it.

    Parameters
    ----------
    partition_size : int, optional
        Keys per Parquet file or Dask partition, cut at multiples of it. By default 10,000
        versions or sequence numbers, 1,000 block heights.
    concurrency : int, optional
        Requests in flight at most (per Dask partition for the ``*_dask`` functions). By
        default 16 for a dataset, 8 per Dask partition.
    max_rps : float, optional
        Requests per second at most, retries included (per Dask partition).
    retries : int or Retry
        Retries of a failed request (429, 503, dropped connections).
    timeout : float, optional
        Seconds each request may take; ``None``: no limit.
    progress : bool, optional
        A ``tqdm`` bar while a dataset is written; by default only when stderr is a
        terminal or in Jupyter. The ``*_dask`` functions show none.

    Raises
    ------
    InputError
        A value out of its range (nothing is sent).

    Examples
    --------
    >>> fast = ExtractOptions(concurrency=32, max_rps=200)
    >>> fast.replace(partition_size=5_000).partition_size
    5000
    """

    partition_size: int | None = None
    concurrency: int | None = None
    max_rps: float | None = None
    retries: int | Retry = 3
    timeout: float | None = DEFAULT_TIMEOUT
    progress: bool | None = None

    def __post_init__(self) -> None:
        for name in ("partition_size", "concurrency"):
            value = getattr(self, name)
            if value is not None and not _count(value):
                raise InputError(f"{name} must be an int >= 1 or None, got {value!r}")
        for name in ("max_rps", "timeout"):
            value = getattr(self, name)
            if value is not None and not _positive(value):
                raise InputError(f"{name} must be a positive number or None, got {value!r}")
        retries = self.retries
        if not isinstance(retries, Retry) and not (
            isinstance(retries, int) and not isinstance(retries, bool) and retries >= 0
        ):
            raise InputError(f"retries must be an int >= 0 or a Retry, got {retries!r}")
        if self.progress is not None and not isinstance(self.progress, bool):
            raise InputError(f"progress must be True, False or None, got {self.progress!r}")

    def replace(self, **changes: Any) -> ExtractOptions:
        """A copy with ``changes``; a name that is not an option is an :class:`InputError`."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise InputError(
                f"unknown extraction option(s) {', '.join(unknown)}; "
                f"the options are {', '.join(sorted(names))}"
            )
        return dataclasses.replace(self, **changes)


def resolve_options(
    options: ExtractOptions | None,
    overrides: Mapping[str, object],
    *,
    partition_size: int,
    concurrency: int,
) -> ExtractOptions:
    """``options`` (or the defaults) with ``overrides`` applied, then the function's own
    ``partition_size`` and ``concurrency`` where they are left unset."""
    if options is None:
        options = ExtractOptions()
    elif not isinstance(options, ExtractOptions):
        raise InputError(f"options must be an ExtractOptions, got {type(options).__name__}")
    options = options.replace(**overrides)
    return options.replace(
        partition_size=options.partition_size or partition_size,
        concurrency=options.concurrency or concurrency,
    )


@dataclass(frozen=True, slots=True)
class NodeAccess:
    """A node's address and the credentials to read it: plain data, so it pickles to Dask
    workers, and redacted in its repr (the api key and the header values are not shown).
    ``snapshot``: the snapshot the client it was made from records into or replays from."""

    url: str
    api_key: str | None = field(default=None, repr=False)
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    #: The archive node pruned pages are read from, and the headers sent there.
    archive_url: str | None = None
    archive_headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    snapshot: Snapshot | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        parts = [repr(self.url)]
        if self.archive_url is not None:
            parts.append(f"archive_url={self.archive_url!r}")
        if self.api_key is not None:
            parts.append("api_key=<redacted>")
        if self.headers:
            parts.append(f"headers=<{', '.join(name for name, _ in self.headers)}: redacted>")
        if self.snapshot is not None:
            parts.append("replaying" if self.snapshot.replaying else "recording")
        return f"NodeAccess({', '.join(parts)})"

    def client(
        self, options: ExtractOptions, transport: httpx.AsyncBaseTransport | None = None
    ) -> AsyncClient:
        """The client of an extraction: no cache, ``options.concurrency`` requests in flight,
        and by default the aiohttp transport (HTTP parsing in C)."""
        from ledgerkit.extract._fetch import bulk_transport

        concurrency = options.concurrency or 1
        settings: dict[str, Any] = {
            "api_key": self.api_key,
            "headers": dict(self.headers),
            "timeout": options.timeout,
            "cache": False,
            "max_rps": options.max_rps,
            "max_concurrency": concurrency,
            "retries": options.retries,
            "archive_url": self.archive_url,
            "archive_headers": dict(self.archive_headers),
        }
        snapshot = self.snapshot
        if snapshot is None:
            return AsyncClient(
                self.url, transport=transport or bulk_transport(concurrency), **settings
            )
        if snapshot.replaying:  # sends nothing: no transport of its own
            return snapshot.async_client(self.url, **settings)
        return snapshot.async_client(
            self.url, transport=transport or bulk_transport(concurrency), **settings
        )


#: The transport of the client :func:`node_access` checks its arguments with: it sends nothing.
_NO_TRANSPORT: Final = httpx.BaseTransport()


def node_access(
    node: str | Client | AsyncClient,
    *,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> NodeAccess:
    """Where and how to read: a URL, or a configured client's address, api key and headers
    (``api_key`` replaces the client's, ``headers`` are added to its own).

    Everything is checked here, before any request or Dask task: a malformed URL, key or
    header is an :class:`InputError` that never quotes the secret. A client that records
    into or replays from a snapshot hands it on.
    """
    archive_url: str | None = None
    archive_headers: dict[str, str] = {}
    snapshot = None
    if isinstance(node, Client | AsyncClient):
        snapshot = snapshot_of(node)
        config = node.config
        url = config.base_url
        api_key = config.api_key if api_key is None else api_key
        headers = {**dict(config.headers), **dict(headers or {})}
        # The archive it was given, or learned from a 410 so far.
        archive_url, archive_headers = node.archive_url, dict(config.archive_headers)
    elif isinstance(node, str):
        url = node
    else:
        raise InputError(
            f"the node must be a URL, a Client or an AsyncClient, got {type(node).__name__}"
        )
    # The client checks the address and the credentials as it would before sending. It
    # never sends: a stand-in transport spares it the TLS context httpx would otherwise
    # load for it (some 70 ms, a tenth of a 50,000-version extraction from a local node).
    probe = Client(
        url,
        api_key=api_key,
        headers=headers,
        cache=False,
        transport=_NO_TRANSPORT,
        archive_url=archive_url,
        archive_headers=archive_headers,
    )
    try:
        config = probe.config
        return NodeAccess(
            config.base_url,
            config.api_key,
            config.headers,
            config.archive_url,
            config.archive_headers,
            snapshot,
        )
    finally:
        probe.close()
