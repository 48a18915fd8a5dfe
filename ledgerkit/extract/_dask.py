"""The extractions as Dask DataFrames: one partition per key range, fetched, checked and
converted on the workers.

Dask is an extra (``pip install 'ledgerkit[dask]'``): it is imported when one of these
functions is called, never by ``import ledgerkit`` or ``import ledgerkit.extract``.
Each task carries the node's address and credentials as a :class:`NodeAccess`, whose repr
is redacted, so the key shows in no task repr, graph or log record.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar, Unpack

from ledgerkit._errors import InputError, MissingExtraError
from ledgerkit.client import AsyncClient, Client
from ledgerkit.extract._convert import CONVERTERS, empty_frame
from ledgerkit.extract._fetch import (
    Source,
    check_available,
    check_range,
    fetch_range,
    run_sync,
)
from ledgerkit.extract._options import (
    PARTITION_SIZE,
    ExtractOptions,
    NodeAccess,
    OptionFields,
    node_access,
    resolve_options,
)
from ledgerkit.extract._ranges import partitions
from ledgerkit.extract._sources import ExtractKind, source_of
from ledgerkit.types import Address

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["blocks_dask", "events_dask", "extract_dask", "transactions_dask"]

P = ParamSpec("P")
T = TypeVar("T")

#: Requests in flight at most per partition being computed, unless the options say otherwise.
CONCURRENCY = 8


@dataclass(frozen=True, slots=True)
class _Load:
    """Fetch and convert one partition; plain data, so it pickles to process workers."""

    source: Source
    node: NodeAccess
    options: ExtractOptions

    def __call__(self, bounds: tuple[int, int]) -> pd.DataFrame:
        first, stop = bounds
        return run_sync(self._load(first, stop))

    async def _load(self, first: int, stop: int) -> pd.DataFrame:
        async with self.node.client(self.options) as client:
            check_range(first, stop)
            await check_available(client, self.source, stop)
            records, _ = await fetch_range(client, self.source, first, stop)
        return CONVERTERS[self.source.kind](records)


def _dataframe_module() -> Any:
    """``dask.dataframe``, or a :class:`~ledgerkit.MissingExtraError` naming the extra."""
    try:
        import dask.dataframe as dd
    except ImportError as exc:
        missing = (exc.name or "dask").split(".")[0]
        raise MissingExtraError("Dask extraction", "dask", missing) from exc
    return dd


def _from_map(
    source: Source,
    url: str | Client | AsyncClient,
    start: int,
    stop: int,
    options: ExtractOptions | None,
    overrides: Mapping[str, object],
    api_key: str | None,
    headers: Mapping[str, str] | None,
) -> Any:
    dd = _dataframe_module()
    resolved = resolve_options(
        options, overrides, partition_size=PARTITION_SIZE[source.kind], concurrency=CONCURRENCY
    )
    node = node_access(url, api_key=api_key, headers=headers)
    if node.snapshot is not None:
        # Its answers are in this process: workers could neither record into it nor read it.
        raise InputError(
            "the *_dask functions do not record or replay a snapshot; "
            "use extract() or fetch_transactions() with this client"
        )
    load = _Load(source, node, resolved)
    check_range(start, stop)
    assert resolved.partition_size is not None  # set by resolve_options
    return dd.from_map(
        load,
        partitions(start, stop, resolved.partition_size),
        meta=empty_frame(source.kind),
        label=f"ledgerkit-{source.kind}",
        enforce_metadata=True,
    )


def _kind_alias(
    function: Callable[Concatenate[ExtractKind, P], T], kind: ExtractKind, name: str, doc: str
) -> Callable[P, T]:
    """``function`` with its first argument, the kind, given: named ``name``, documented
    by ``doc``, with ``function``'s other parameters (``inspect.signature`` and type
    checkers read them), so an alias of one kind is not a second copy of its signature."""

    @functools.wraps(function)
    def alias(*args: P.args, **kwargs: P.kwargs) -> T:
        return function(kind, *args, **kwargs)

    signature = inspect.signature(function)
    alias.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=list(signature.parameters.values())[1:]
    )
    alias.__name__ = alias.__qualname__ = name
    alias.__doc__ = doc
    return alias


def extract_dask(
    kind: ExtractKind,
    /,
    url: str | Client | AsyncClient,
    start: int,
    stop: int,
    *,
    address: str | Address | None = None,
    creation_number: int | None = None,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    **overrides: Unpack[OptionFields],
) -> Any:
    """One kind of the ledger over ``[start, stop)`` as a lazy ``dask.dataframe``: the
    frames :func:`~ledgerkit.extract.extract` would write, one Dask partition per key
    range, fetched, checked and converted on the workers.

    Parameters
    ----------
    kind : {"transactions", "blocks", "events", "transaction_events", "activity"}
        What to read, as for :func:`~ledgerkit.extract.extract`: transactions by version,
        blocks by height, the events of one stream by sequence number (``address`` and
        ``creation_number`` name it), the events transactions carry by version, or the
        accounts each transaction touched (their roles and changes) by version.
    url : str, Client or AsyncClient
        The node's API root, or a client configured for it (its address, ``api_key`` and
        ``headers`` are used); every worker must be able to reach it.
    start, stop : int
        Half-open range of the kind's key.
    address, creation_number : optional
        The event stream, for ``"events"`` only.
    options : ExtractOptions, optional
        Partition size (by default each kind's :data:`~ledgerkit.extract.PARTITION_SIZE`,
        cut at multiples, like the Parquet datasets) and the limits of the
        :class:`~ledgerkit.AsyncClient` each partition uses (default 8 requests in flight);
        ``max_rps`` applies per partition being computed, not across the cluster.
    api_key : str, optional
        Sent as ``Authorization: Bearer <api_key>`` by every worker; it travels inside the
        tasks but shows in no task repr, graph key or log record.
    headers : mapping, optional
        Sent with every request (added to a client's own).
    **overrides
        Any field of :class:`~ledgerkit.extract.ExtractOptions`, replacing that of ``options``.

    Returns
    -------
    dask.dataframe.DataFrame
        The columns and dtypes of the kind's frame converter
        (``ledgerkit.frames.transactions_to_frame``, ``blocks_to_frame``,
        ``events_to_frame``, ``activity_to_frame``); each partition holds every key of its
        range exactly once or fails with :class:`~ledgerkit.IncompleteExtractionError`.

    Raises
    ------
    MissingExtraError
        Dask is not installed (``pip install 'ledgerkit[dask]'``).
    InputError
        An unknown kind, a stream missing for events or given for another kind, a bad
        range, option, key or header (no task is made).

    Examples
    --------
    >>> ddf = extract_dask("transactions", url, 0, 50_000, partition_size=5_000)  # doctest: +SKIP
    >>> ddf.groupby("type").gas_used.sum().compute()  # doctest: +SKIP
    """
    source = source_of(kind, address, creation_number)
    return _from_map(source, url, start, stop, options, overrides, api_key, headers)


transactions_dask = _kind_alias(
    extract_dask,
    "transactions",
    "transactions_dask",
    """``extract_dask("transactions", url, start, stop, ...)``: the transactions of
    versions ``[start, stop)`` (see :func:`extract_dask`).""",
)
blocks_dask = _kind_alias(
    extract_dask,
    "blocks",
    "blocks_dask",
    """``extract_dask("blocks", url, start, stop, ...)``: the blocks of heights
    ``[start, stop)``, 1,000 heights a partition by default (see :func:`extract_dask`).""",
)


def events_dask(
    url: str | Client | AsyncClient,
    address: str | Address,
    creation_number: int,
    start: int,
    stop: int,
    *,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    **overrides: Unpack[OptionFields],
) -> Any:
    """``extract_dask("events", url, start, stop, address=, creation_number=, ...)``: the
    events of one stream, sequence numbers ``[start, stop)``; a stream that ends before
    ``stop`` fails with :class:`~ledgerkit.IncompleteExtractionError` when computed (see
    :func:`extract_dask`)."""
    return extract_dask(
        "events", url, start, stop, address=address, creation_number=creation_number,
        options=options, api_key=api_key, headers=headers, **overrides,
    )  # fmt: skip
