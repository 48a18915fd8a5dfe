"""Bulk extraction of ledger ranges: concurrent, retried, checked for completeness, and
written to resumable Parquet datasets (or handed to Dask).

- :func:`extract_transactions`, :func:`extract_blocks`, :func:`extract_events` write a
  dataset directory (``manifest.json`` plus ``<kind>/part-*.parquet``); their ``a``-prefixed
  twins are coroutines.
- :func:`fetch_transactions` returns the records of a version range, checked.
- :func:`transactions_dask`, :func:`blocks_dask`, :func:`events_dask` are the same
  extractions as Dask DataFrames.

See ``docs/extract.md``.
"""

from __future__ import annotations

import os
from typing import Any

import httpx

from ledgerkit._public import publish as _publish
from ledgerkit.client import Retry
from ledgerkit.extract._dask import blocks_dask, events_dask, transactions_dask
from ledgerkit.extract._dataset import (
    MANIFEST,
    SCHEMA_VERSION,
    ExtractionSummary,
    extract,
    read_manifest,
)
from ledgerkit.extract._fetch import (
    blocks_source,
    bulk_client,
    check_available,
    check_range,
    events_source,
    fetch_range,
    run_sync,
    transactions_source,
)
from ledgerkit.types import Address

__all__ = [
    "MANIFEST",
    "SCHEMA_VERSION",
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


async def aextract_transactions(
    url: str,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    partition_size: int = 10_000,
    concurrency: int = 16,
    max_rps: float | None = None,
    retries: int | Retry = 3,
    progress: bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ExtractionSummary:
    """Coroutine twin of :func:`extract_transactions`."""
    return await extract(
        transactions_source(rows=True),
        url,
        out,
        start=start,
        stop=stop,
        partition_size=partition_size,
        concurrency=concurrency,
        max_rps=max_rps,
        retries=retries,
        progress=progress,
        transport=transport,
    )


def extract_transactions(
    url: str,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    partition_size: int = 10_000,
    concurrency: int = 16,
    max_rps: float | None = None,
    retries: int | Retry = 3,
    progress: bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ExtractionSummary:
    """Write the transactions of versions ``[start, stop)`` to a Parquet dataset in ``out``.

    Parameters
    ----------
    url : str
        The node's API root.
    out : path
        Dataset directory: ``manifest.json`` and ``transactions/part-*.parquet``.
    start, stop : int
        Half-open version range; ``stop`` may be at most the ledger version + 1.
    partition_size : int
        Versions per file, cut at multiples of it (``part-000000000000-000000009999``).
    concurrency : int
        Requests in flight at most.
    max_rps : float, optional
        Requests per second at most (retries included).
    retries : int or Retry
        The client's retries (429, 503, dropped connections).
    progress : bool, optional
        A ``tqdm`` bar; by default only when stderr is a terminal or in Jupyter.
    transport : httpx.AsyncBaseTransport, optional
        For tests: the transport of the client.

    Returns
    -------
    ExtractionSummary

    Raises
    ------
    InputError
        ``stop <= start`` or a negative start (nothing sent).
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
    """
    return run_sync(
        aextract_transactions(
            url,
            out,
            start=start,
            stop=stop,
            partition_size=partition_size,
            concurrency=concurrency,
            max_rps=max_rps,
            retries=retries,
            progress=progress,
            transport=transport,
        )
    )


async def aextract_blocks(
    url: str,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    partition_size: int = 1_000,
    concurrency: int = 16,
    max_rps: float | None = None,
    retries: int | Retry = 3,
    progress: bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ExtractionSummary:
    """Coroutine twin of :func:`extract_blocks`."""
    return await extract(
        blocks_source(),
        url,
        out,
        start=start,
        stop=stop,
        partition_size=partition_size,
        concurrency=concurrency,
        max_rps=max_rps,
        retries=retries,
        progress=progress,
        transport=transport,
    )


def extract_blocks(
    url: str,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    partition_size: int = 1_000,
    concurrency: int = 16,
    max_rps: float | None = None,
    retries: int | Retry = 3,
    progress: bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ExtractionSummary:
    """Write the blocks of heights ``[start, stop)`` to a Parquet dataset in ``out``
    (``blocks/part-*.parquet``); otherwise as :func:`extract_transactions`."""
    return run_sync(
        aextract_blocks(
            url,
            out,
            start=start,
            stop=stop,
            partition_size=partition_size,
            concurrency=concurrency,
            max_rps=max_rps,
            retries=retries,
            progress=progress,
            transport=transport,
        )
    )


async def aextract_events(
    url: str,
    out: str | os.PathLike[str],
    address: str | Address,
    creation_number: int,
    *,
    start: int,
    stop: int,
    partition_size: int = 10_000,
    concurrency: int = 16,
    max_rps: float | None = None,
    retries: int | Retry = 3,
    progress: bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ExtractionSummary:
    """Coroutine twin of :func:`extract_events`."""
    return await extract(
        events_source(address, creation_number),
        url,
        out,
        start=start,
        stop=stop,
        partition_size=partition_size,
        concurrency=concurrency,
        max_rps=max_rps,
        retries=retries,
        progress=progress,
        transport=transport,
    )


def extract_events(
    url: str,
    out: str | os.PathLike[str],
    address: str | Address,
    creation_number: int,
    *,
    start: int,
    stop: int,
    partition_size: int = 10_000,
    concurrency: int = 16,
    max_rps: float | None = None,
    retries: int | Retry = 3,
    progress: bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ExtractionSummary:
    """Write the events of one stream, sequence numbers ``[start, stop)``, to a Parquet
    dataset in ``out`` (``events/part-*.parquet``). A stream that ends before ``stop``
    raises :class:`~ledgerkit.IncompleteExtractionError`; otherwise as
    :func:`extract_transactions`."""
    return run_sync(
        aextract_events(
            url,
            out,
            address,
            creation_number,
            start=start,
            stop=stop,
            partition_size=partition_size,
            concurrency=concurrency,
            max_rps=max_rps,
            retries=retries,
            progress=progress,
            transport=transport,
        )
    )


def fetch_transactions(
    url: str,
    start: int,
    stop: int,
    *,
    concurrency: int = 16,
    max_rps: float | None = None,
    retries: int | Retry = 3,
    transport: httpx.AsyncBaseTransport | None = None,
) -> list[Any]:
    """The transactions of versions ``[start, stop)``, fetched concurrently, each version
    exactly once and in order (or :class:`~ledgerkit.IncompleteExtractionError`)."""

    async def run() -> list[Any]:
        async with bulk_client(
            url, concurrency=concurrency, max_rps=max_rps, retries=retries, transport=transport
        ) as client:
            check_range(start, stop)
            await check_available(client, transactions_source(), stop)
            records, _ = await fetch_range(client, transactions_source(), start, stop)
        return records

    return run_sync(run())


# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
