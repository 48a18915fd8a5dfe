"""The extractions as Dask DataFrames: one partition per key range, fetched, checked and
converted on the workers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledgerkit.client import Retry
from ledgerkit.extract._convert import CONVERTERS, empty_frame
from ledgerkit.extract._fetch import (
    Source,
    blocks_source,
    bulk_client,
    check_available,
    check_range,
    events_source,
    fetch_range,
    run_sync,
    transactions_source,
)
from ledgerkit.extract._ranges import partitions
from ledgerkit.types import Address

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["blocks_dask", "events_dask", "transactions_dask"]


@dataclass(frozen=True, slots=True)
class _Load:
    """Fetch and convert one partition; plain data, so it pickles to process workers."""

    source: Source
    url: str
    concurrency: int
    max_rps: float | None
    retries: int | Retry

    def __call__(self, bounds: tuple[int, int]) -> pd.DataFrame:
        first, stop = bounds
        return run_sync(self._load(first, stop))

    async def _load(self, first: int, stop: int) -> pd.DataFrame:
        async with bulk_client(
            self.url, concurrency=self.concurrency, max_rps=self.max_rps, retries=self.retries
        ) as client:
            check_range(first, stop)
            await check_available(client, self.source, stop)
            records, _ = await fetch_range(client, self.source, first, stop)
        return CONVERTERS[self.source.kind](records)


def _from_map(load: _Load, start: int, stop: int, partition_size: int) -> Any:
    import dask.dataframe as dd

    check_range(start, stop)
    return dd.from_map(  # type: ignore[no-untyped-call]
        load,
        partitions(start, stop, partition_size),
        meta=empty_frame(load.source.kind),
        label=f"ledgerkit-{load.source.kind}",
        enforce_metadata=True,
    )


def transactions_dask(
    url: str,
    start: int,
    stop: int,
    *,
    partition_size: int = 10_000,
    concurrency: int = 8,
    max_rps: float | None = None,
    retries: int | Retry = 3,
) -> Any:
    """The transactions of versions ``[start, stop)`` as a lazy ``dask.dataframe``.

    Parameters
    ----------
    url : str
        The node's API root; every worker must be able to reach it.
    start, stop : int
        Half-open version range.
    partition_size : int
        Versions per Dask partition (cut at multiples, like the Parquet datasets).
    concurrency, max_rps, retries
        Options of the :class:`~ledgerkit.AsyncClient` each partition uses; ``max_rps``
        applies per partition being computed, not across the cluster.

    Returns
    -------
    dask.dataframe.DataFrame
        Columns and dtypes of ``ledgerkit.frames.transactions_to_frame``; each partition
        holds every version of its range exactly once or fails with
        :class:`~ledgerkit.IncompleteExtractionError`.

    Examples
    --------
    >>> ddf = transactions_dask(node.url, 0, 50_000, partition_size=5_000)  # doctest: +SKIP
    >>> ddf.groupby("type").gas_used.sum().compute()  # doctest: +SKIP
    """
    load = _Load(transactions_source(rows=True), url, concurrency, max_rps, retries)
    return _from_map(load, start, stop, partition_size)


def blocks_dask(
    url: str,
    start: int,
    stop: int,
    *,
    partition_size: int = 1_000,
    concurrency: int = 8,
    max_rps: float | None = None,
    retries: int | Retry = 3,
) -> Any:
    """The blocks of heights ``[start, stop)`` as a lazy ``dask.dataframe`` (columns of
    ``ledgerkit.frames.blocks_to_frame``); otherwise as :func:`transactions_dask`."""
    load = _Load(blocks_source(), url, concurrency, max_rps, retries)
    return _from_map(load, start, stop, partition_size)


def events_dask(
    url: str,
    address: str | Address,
    creation_number: int,
    start: int,
    stop: int,
    *,
    partition_size: int = 10_000,
    concurrency: int = 8,
    max_rps: float | None = None,
    retries: int | Retry = 3,
) -> Any:
    """The events of one stream, sequence numbers ``[start, stop)``, as a lazy
    ``dask.dataframe`` (columns of ``ledgerkit.frames.events_to_frame``); a stream that
    ends before ``stop`` fails with :class:`~ledgerkit.IncompleteExtractionError` when
    computed. Otherwise as :func:`transactions_dask`."""
    load = _Load(events_source(address, creation_number), url, concurrency, max_rps, retries)
    return _from_map(load, start, stop, partition_size)
