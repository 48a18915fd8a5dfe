"""Bulk extraction of ledger ranges: concurrent, retried, checked for completeness, and
written to resumable Parquet datasets (or handed to Dask).

- :func:`extract_transactions`, :func:`extract_blocks`, :func:`extract_events` write a
  dataset directory (``manifest.json`` plus ``<kind>/part-*.parquet``); their ``a``-prefixed
  twins are coroutines.
- :func:`fetch_transactions` returns the records of a version range, checked.
- :func:`transactions_dask`, :func:`blocks_dask`, :func:`events_dask` are the same
  extractions as Dask DataFrames (the ``dask`` extra: ``pip install 'ledgerkit[dask]'``).

Every one of them takes the node as a URL or as a configured :class:`~ledgerkit.Client` /
:class:`~ledgerkit.AsyncClient` (its address, api key and headers are used), or a URL with
``api_key=`` / ``headers=``; and its options as one :class:`ExtractOptions` (``options=``),
whose fields may also be given one by one as keyword arguments.

See ``docs/extract.md``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Unpack

import httpx

from ledgerkit._public import publish as _publish
from ledgerkit.client import AsyncClient, Client
from ledgerkit.extract._dask import blocks_dask, events_dask, transactions_dask
from ledgerkit.extract._dataset import (
    MANIFEST,
    SCHEMA_VERSION,
    ExtractionSummary,
    extract,
    read_manifest,
)
from ledgerkit.extract._fetch import (
    Source,
    blocks_source,
    check_available,
    check_range,
    events_source,
    fetch_range,
    run_sync,
    transactions_source,
)
from ledgerkit.extract._options import (
    PARTITION_SIZE,
    ExtractOptions,
    OptionFields,
    node_access,
    resolve_options,
)
from ledgerkit.types import Address

__all__ = [
    "MANIFEST",
    "SCHEMA_VERSION",
    "ExtractOptions",
    "ExtractionSummary",
    "aextract_blocks",
    "aextract_events",
    "aextract_transactions",
    "blocks_dask",
    "events_dask",
    "extract_blocks",
    "extract_events",
    "extract_transactions",
    "fetch_transactions",
    "read_manifest",
    "transactions_dask",
]

#: Requests in flight at most when writing a dataset, unless the options say otherwise.
CONCURRENCY = 16


async def _extract(
    source: Source,
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    start: int,
    stop: int,
    options: ExtractOptions | None,
    overrides: Mapping[str, object],
    api_key: str | None,
    headers: Mapping[str, str] | None,
    transport: httpx.AsyncBaseTransport | None,
) -> ExtractionSummary:
    resolved = resolve_options(
        options, overrides, partition_size=PARTITION_SIZE[source.kind], concurrency=CONCURRENCY
    )
    node = node_access(url, api_key=api_key, headers=headers)
    return await extract(
        source, node, out, start=start, stop=stop, options=resolved, transport=transport
    )


async def aextract_transactions(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> ExtractionSummary:
    """Coroutine twin of :func:`extract_transactions`."""
    source = transactions_source(rows=True)
    return await _extract(
        source, url, out, start, stop, options, overrides, api_key, headers, transport
    )


def extract_transactions(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> ExtractionSummary:
    """Write the transactions of versions ``[start, stop)`` to a Parquet dataset in ``out``.

    Parameters
    ----------
    url : str, Client or AsyncClient
        The node's API root, or a client configured for it: its address, ``api_key`` and
        ``headers`` are used (the extraction makes its own client, without a cache, with
        the limits of ``options``).
    out : path
        Dataset directory: ``manifest.json`` and ``transactions/part-*.parquet``.
    start, stop : int
        Half-open version range; ``stop`` may be at most the ledger version + 1.
    options : ExtractOptions, optional
        Partition size (default 10,000 versions a file, cut at multiples of it:
        ``part-000000000000-000000009999``), concurrency (default 16 requests in flight),
        ``max_rps``, retries, timeout and progress bar.
    api_key : str, optional
        Sent as ``Authorization: Bearer <api_key>`` (replaces a client's own).
    headers : mapping, optional
        Sent with every request (added to a client's own).
    transport : httpx.AsyncBaseTransport, optional
        For tests: the transport of the client.
    **overrides
        Any field of :class:`ExtractOptions` (``partition_size=``, ``concurrency=``,
        ``max_rps=``, ``retries=``, ``timeout=``, ``progress=``), replacing that of ``options``.

    Returns
    -------
    ExtractionSummary

    Raises
    ------
    InputError
        ``stop <= start``, a negative start, an option out of range or unknown, a malformed
        key or header (nothing sent).
    RangeBeyondLedgerError
        ``stop`` is past the head of the ledger.
    IncompleteExtractionError
        Versions the node did not deliver (listed as ranges).
    ChainMismatchError, DatasetMismatchError
        ``out`` holds a dataset of another chain, kind or partition size.

    Notes
    -----
    Complete partitions on disk (recorded in the manifest with a matching sha256) are not
    fetched again, so an interrupted run resumes and a finished one fetches nothing.

    Examples
    --------
    >>> extract_transactions(node.url, "data", start=0, stop=5_000)  # doctest: +SKIP
    >>> pandas.read_parquet("data/transactions")  # doctest: +SKIP
    >>> fast = ExtractOptions(concurrency=32, max_rps=200)
    >>> keyed = Client(url, api_key=key)  # doctest: +SKIP
    >>> extract_transactions(keyed, "data", start=0, stop=5_000, options=fast)  # doctest: +SKIP
    """
    source = transactions_source(rows=True)
    return run_sync(
        _extract(source, url, out, start, stop, options, overrides, api_key, headers, transport)
    )


async def aextract_blocks(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> ExtractionSummary:
    """Coroutine twin of :func:`extract_blocks`."""
    source = blocks_source()
    return await _extract(
        source, url, out, start, stop, options, overrides, api_key, headers, transport
    )


def extract_blocks(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> ExtractionSummary:
    """Write the blocks of heights ``[start, stop)`` to a Parquet dataset in ``out``
    (``blocks/part-*.parquet``, 1,000 heights a file by default); otherwise as
    :func:`extract_transactions`."""
    source = blocks_source()
    return run_sync(
        _extract(source, url, out, start, stop, options, overrides, api_key, headers, transport)
    )


async def aextract_events(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    address: str | Address,
    creation_number: int,
    *,
    start: int,
    stop: int,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> ExtractionSummary:
    """Coroutine twin of :func:`extract_events`."""
    source = events_source(address, creation_number)
    return await _extract(
        source, url, out, start, stop, options, overrides, api_key, headers, transport
    )


def extract_events(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    address: str | Address,
    creation_number: int,
    *,
    start: int,
    stop: int,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> ExtractionSummary:
    """Write the events of one stream, sequence numbers ``[start, stop)``, to a Parquet
    dataset in ``out`` (``events/part-*.parquet``). A stream that ends before ``stop``
    raises :class:`~ledgerkit.IncompleteExtractionError`; otherwise as
    :func:`extract_transactions`."""
    source = events_source(address, creation_number)
    return run_sync(
        _extract(source, url, out, start, stop, options, overrides, api_key, headers, transport)
    )


def fetch_transactions(
    url: str | Client | AsyncClient,
    start: int,
    stop: int,
    *,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> list[Any]:
    """The transactions of versions ``[start, stop)``, fetched concurrently, each version
    exactly once and in order (or :class:`~ledgerkit.IncompleteExtractionError`). The node
    and the options are given as to :func:`extract_transactions` (``partition_size`` and
    ``progress`` do not apply)."""
    source = transactions_source()
    resolved = resolve_options(
        options, overrides, partition_size=PARTITION_SIZE[source.kind], concurrency=CONCURRENCY
    )
    node = node_access(url, api_key=api_key, headers=headers)

    async def run() -> list[Any]:
        check_range(start, stop)
        async with node.client(resolved, transport) as client:
            await check_available(client, source, stop)
            records, _ = await fetch_range(client, source, start, stop)
        return records

    return run_sync(run())


# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
