"""The entry points: :func:`extract` and its coroutine twin :func:`aextract`, one for
every kind of dataset, the ``extract_<kind>`` aliases of each, and :func:`fetch_transactions`.

The kinds are a closed set (:data:`ExtractKind`); a kind outside it is an
:class:`~ledgerkit.InputError` naming the kinds, before anything is sent or written.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, Required, Unpack

import httpx

from ledgerkit.client import AsyncClient, Client
from ledgerkit.extract._dataset import ExtractionSummary, write_dataset
from ledgerkit.extract._fetch import (
    Source,
    blocking_twin,
    check_available,
    check_range,
    fetch_range,
    run_sync,
    transactions_source,
)
from ledgerkit.extract._options import (
    PARTITION_SIZE,
    ExtractOptions,
    NodeAccess,
    OptionFields,
    node_access,
    resolve_options,
)
from ledgerkit.extract._sources import ExtractKind, source_of
from ledgerkit.types import Address

__all__ = [
    "CONCURRENCY",
    "aextract",
    "aextract_blocks",
    "aextract_events",
    "aextract_transactions",
    "extract",
    "extract_blocks",
    "extract_events",
    "extract_transactions",
    "fetch_transactions",
]

#: Requests in flight at most when writing a dataset, unless the options say otherwise.
CONCURRENCY: Final = 16


class ExtractArguments(OptionFields, total=False):
    """The keyword arguments every kind takes: the range, the options and the node's
    credentials (the parameters of :func:`extract` after ``out``, but the stream's)."""

    start: Required[int | Literal["oldest"]]
    stop: Required[int | Literal["head"]]
    options: ExtractOptions | None
    api_key: str | None
    headers: Mapping[str, str] | None
    transport: httpx.AsyncBaseTransport | None


@dataclass(frozen=True, slots=True)
class _Extraction:
    """What a call of :func:`extract` or :func:`aextract` asks for, checked before anything
    is sent: the kind's source, the options with their defaults, and the node's access."""

    source: Source
    options: ExtractOptions
    node: NodeAccess

    @classmethod
    def of(
        cls,
        kind: ExtractKind,
        url: str | Client | AsyncClient,
        address: str | Address | None,
        creation_number: int | None,
        options: ExtractOptions | None,
        api_key: str | None,
        headers: Mapping[str, str] | None,
        overrides: OptionFields,
    ) -> _Extraction:
        source = source_of(kind, address, creation_number)
        resolved = resolve_options(
            options, overrides, partition_size=PARTITION_SIZE[source.kind], concurrency=CONCURRENCY
        )
        return cls(source, resolved, node_access(url, api_key=api_key, headers=headers))

    async def write(
        self,
        out: str | os.PathLike[str],
        *,
        start: int | str,
        stop: int | str,
        transport: httpx.AsyncBaseTransport | None,
    ) -> ExtractionSummary:
        """Write the dataset of ``[start, stop)`` to ``out``."""
        return await write_dataset(
            self.source,
            self.node,
            out,
            start=start,
            stop=stop,
            options=self.options,
            transport=transport,
        )


async def aextract(
    kind: ExtractKind,
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    *,
    start: int | Literal["oldest"],
    stop: int | Literal["head"],
    address: str | Address | None = None,
    creation_number: int | None = None,
    options: ExtractOptions | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **overrides: Unpack[OptionFields],
) -> ExtractionSummary:
    """Write the ``kind`` records of ``[start, stop)`` to a Parquet dataset in ``out``
    (``aextract`` awaits it; ``extract`` runs it from blocking code).

    Parameters
    ----------
    kind : {"transactions", "blocks", "events", "transaction_events", "activity"}
        Transactions by version (10,000 a file by default), blocks by height (1,000 a
        file), the events of one stream (``address``, ``creation_number``) by
        sequence number (10,000 a file), the events transactions carry, module events
        included, by version (10,000 versions a file; one row per event,
        ``event_index`` its index within the transaction), or by version the activity
        of every address the transactions touch (:data:`ledgerkit.frames.ACTIVITY_COLUMNS`,
        10,000 versions a file; read an account's rows with :func:`read_activity`).
    url : str, Client or AsyncClient
        The node's API root, or a client configured for it: its address, ``api_key`` and
        ``headers`` are used (the extraction makes its own client, without a cache, with
        the limits of ``options``).
    out : path
        Dataset directory: ``manifest.json`` and ``<kind>/part-*.parquet``.
    start, stop : int, or "oldest" and "head"
        Half-open range of keys; for transactions (their events and activity) and
        blocks, ``stop`` may be at most the ledger version (block height) + 1. There,
        ``start="oldest"`` is the oldest the node keeps and ``stop="head"`` one past its
        newest, read once when the run begins and recorded in the manifest
        (``resolved_ends``): a public node's window moves while you read. Keys older
        than the node keeps are read from its archive (``archive_url`` of a client
        passed as ``url``, or the one its 410 names); the manifest says which node served
        each partition (``served_by``).
    address, creation_number : optional
        The event stream, for ``"events"`` (and only for it).
    options : ExtractOptions, optional
        Partition size (files are cut at multiples of it:
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
        A kind other than ``"transactions"``, ``"blocks"``, ``"events"``,
        ``"transaction_events"`` and ``"activity"`` (the message lists them), a stream
        missing for events or given for another kind, ``stop <= start``, a negative start,
        an option out of range or unknown, a malformed key or header (nothing sent).
    RangeBeyondLedgerError
        ``stop`` is past the head of the ledger.
    IncompleteExtractionError
        Keys the node did not deliver (listed as ranges); for events, a stream that ends
        before ``stop``.
    ChainMismatchError, DatasetMismatchError
        ``out`` holds a dataset of another chain, kind, stream or partition size.

    Notes
    -----
    Complete partitions on disk (recorded in the manifest with a matching sha256) are not
    fetched again, so an interrupted run resumes and a finished one fetches nothing.

    ``extract_transactions(url, out, ...)``, ``extract_blocks(url, out, ...)`` and
    ``extract_events(url, out, address, creation_number, ...)`` are aliases of this
    function for each kind, and ``aextract_<kind>`` of :func:`aextract`.

    Examples
    --------
    >>> extract("transactions", node.url, "data", start=0, stop=5_000)  # doctest: +SKIP
    >>> pandas.read_parquet("data/transactions")  # doctest: +SKIP
    >>> extract("events", node.url, "ev", start=0, stop=100, address="0x1", creation_number=2)
    ... # doctest: +SKIP
    >>> fast = ExtractOptions(concurrency=32, max_rps=200)
    >>> keyed = Client(url, api_key=key)  # doctest: +SKIP
    >>> extract("blocks", keyed, "blocks", start=0, stop=5_000, options=fast)  # doctest: +SKIP
    """
    run = _Extraction.of(kind, url, address, creation_number, options, api_key, headers, overrides)
    return await run.write(out, start=start, stop=stop, transport=transport)


extract = blocking_twin(aextract, "extract")


async def aextract_transactions(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    **arguments: Unpack[ExtractArguments],
) -> ExtractionSummary:
    """Alias of ``await aextract("transactions", url, out, ...)``: see :func:`extract`."""
    return await aextract("transactions", url, out, **arguments)


async def aextract_blocks(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    **arguments: Unpack[ExtractArguments],
) -> ExtractionSummary:
    """Alias of ``await aextract("blocks", url, out, ...)``: see :func:`extract`."""
    return await aextract("blocks", url, out, **arguments)


async def aextract_events(
    url: str | Client | AsyncClient,
    out: str | os.PathLike[str],
    address: str | Address,
    creation_number: int,
    **arguments: Unpack[ExtractArguments],
) -> ExtractionSummary:
    """Alias of ``await aextract("events", url, out, address=address,
    creation_number=creation_number, ...)``: see :func:`extract`."""
    return await aextract(
        "events", url, out, address=address, creation_number=creation_number, **arguments
    )


extract_transactions = blocking_twin(
    aextract_transactions,
    "extract_transactions",
    """Alias of ``extract("transactions", url, out, ...)``: see :func:`extract`.""",
)
extract_blocks = blocking_twin(
    aextract_blocks,
    "extract_blocks",
    """Alias of ``extract("blocks", url, out, ...)``: see :func:`extract`.""",
)
extract_events = blocking_twin(
    aextract_events,
    "extract_events",
    """Alias of ``extract("events", url, out, address=address,
    creation_number=creation_number, ...)``: see :func:`extract`.""",
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
    and the options are given as to :func:`extract` (``partition_size`` and ``progress``
    do not apply)."""
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
