"""The extraction as a Dask DataFrame: one partition per version range, fetched and
converted on the workers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledgerkit.extract._convert import CONVERTERS, empty_frame
from ledgerkit.extract._fetch import (
    bulk_client,
    check_available,
    check_range,
    fetch_range,
    run_sync,
    transactions_source,
)
from ledgerkit.extract._ranges import partitions

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["transactions_dask"]


@dataclass(frozen=True, slots=True)
class _LoadTransactions:
    """Fetch and convert one partition; plain data, so it pickles to process workers."""

    url: str
    concurrency: int
    max_rps: float | None
    retries: int

    def __call__(self, bounds: tuple[int, int]) -> pd.DataFrame:
        first, stop = bounds
        return run_sync(self._load(first, stop))

    async def _load(self, first: int, stop: int) -> pd.DataFrame:
        async with bulk_client(
            self.url, concurrency=self.concurrency, max_rps=self.max_rps, retries=self.retries
        ) as client:
            check_range(first, stop)
            source = transactions_source(rows=True)
            await check_available(client, source, stop)
            records, _ = await fetch_range(client, source, first, stop)
        return CONVERTERS["transactions"](records)


def transactions_dask(
    url: str,
    start: int,
    stop: int,
    *,
    partition_size: int = 10_000,
    concurrency: int = 8,
    max_rps: float | None = None,
    retries: int = 3,
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
    import dask.dataframe as dd

    check_range(start, stop)
    load = _LoadTransactions(url, concurrency, max_rps, retries)
    return dd.from_map(  # type: ignore[no-untyped-call]
        load,
        partitions(start, stop, partition_size),
        meta=empty_frame("transactions"),
        label="ledgerkit-transactions",
        enforce_metadata=True,
    )
