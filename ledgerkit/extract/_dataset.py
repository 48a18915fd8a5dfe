"""A run: the partitions of a key range fetched, converted and written as Parquet files
into a dataset directory, each recorded in its manifest (``manifest.json``), so that an
interrupted run goes on where it stopped and a finished one fetches nothing.

Each partition is written to a hidden temporary file and renamed into place, then the
manifest (also replaced atomically) records it with its row count and sha256.
"""

from __future__ import annotations

import asyncio
import collections
import datetime
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import httpx

from ledgerkit._errors import InputError
from ledgerkit.client import ChainIdentity
from ledgerkit.extract._fetch import (
    Counter,
    Plan,
    Source,
    check_available,
    check_ends,
    check_range,
    first_error,
    held_from,
    resolve_ends,
    stream_range,
)
from ledgerkit.extract._history import check_history, mark_head
from ledgerkit.extract._manifest import MANIFEST, Dataset, sha256_of
from ledgerkit.extract._options import ExtractOptions, NodeAccess
from ledgerkit.extract._progress import Relay, progress_bar
from ledgerkit.extract._ranges import partitions
from ledgerkit.extract._sources import ExtractKind
from ledgerkit.extract._tables import TableBuilder
from ledgerkit.types import LedgerMeta

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["ExtractionSummary", "write_dataset"]

_log = logging.getLogger("ledgerkit.extract")


@dataclass(frozen=True, slots=True)
class ExtractionSummary:
    """What a run did.

    Attributes
    ----------
    kind : {"transactions", "blocks", "events", "transaction_events", "activity"}
        What the dataset holds (:data:`~ledgerkit.extract.ExtractKind`).
    path : Path
        The dataset directory (``manifest.json`` and ``<kind>/``).
    start, stop : int
        The range of this run, half-open.
    chain_id : int
        The chain the data is from.
    partitions : int
        Partitions the range covers.
    written : int
        Partitions fetched and written by this run.
    skipped : int
        Partitions already complete on disk.
    rows_written : int
        Rows in the partitions written by this run.
    genesis_hash : str or None
        Hash of the chain's genesis transaction (with the chain id, it names the chain);
        ``None`` when the node no longer holds version 0.
    served_by : dict
        Rows this run read from each node (its API root as shown): the node, and the
        archive for what the node no longer keeps.
    waited_seconds : float
        Time the node's rate limit (its budget) held the run's requests.
    requests : int
        Requests the run sent (retries and the answers a rate limit refused included):
        its pages, and the few that begin a run (the head, the chain, the history mark).
    waits : int
        Times the node's rate limit held the run's requests (``waited_seconds`` in all).
    """

    kind: ExtractKind
    path: Path
    start: int
    stop: int
    chain_id: int
    partitions: int
    written: int
    skipped: int
    rows_written: int
    genesis_hash: str | None = None
    served_by: dict[str, int] = field(default_factory=dict)
    waited_seconds: float = 0.0
    requests: int = 0
    waits: int = 0

    def __str__(self) -> str:
        waited = f", waited {self.waited_seconds:.1f} s on a rate limit" if self.waits else ""
        return (
            f"{self.kind} [{self.start}, {self.stop}) of chain {self.chain_id} in {self.path}: "
            f"{self.partitions} partitions, {self.written} written ({self.rows_written} rows), "
            f"{self.skipped} already complete; {self.requests} requests{waited}"
        )


def _write_table(table: pa.Table, target: Path) -> tuple[int, str]:
    """Write to a hidden temporary file, sync, rename; returns (rows, sha256). Run in a
    thread: Parquet encoding and compression, the sync and the hash let go of the
    interpreter."""
    import pyarrow.parquet as pq

    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd")
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        sha = sha256_of(Path(tmp))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return table.num_rows, sha


async def _drop(fetching: asyncio.Future[Any] | None) -> None:
    """Cancel a fetch no longer wanted, and wait until it has stopped."""
    if fetching is None:
        return
    fetching.cancel()
    await asyncio.wait([fetching])
    if not fetching.cancelled():
        fetching.exception()  # seen: the run's own failure, if any, is the one to tell


#: A partition fetched: its table, the ledger version it was read at, the rows per node.
_Fetched = tuple["pa.Table", int, dict[str, int]]


class _PagesToTable:
    """Where a partition's pages go as they come: into its table, converted in between the
    answers awaited. When the chain is told by the genesis transaction, the first page
    hands it on (or ``None``, when the fetch ends before any page)."""

    def __init__(
        self, source: Source, genesis: asyncio.Future[tuple[int, str] | None] | None
    ) -> None:
        self._source = source
        self._genesis = genesis
        self.builder = TableBuilder(source.kind)

    def add(self, records: list[Any]) -> None:
        if self._genesis is not None and not self._genesis.done():
            self._genesis.set_result(self._source.genesis_in(records))
        self.builder.add(records)

    def close(self) -> None:
        if self._genesis is not None and not self._genesis.done():
            self._genesis.set_result(None)  # failed before its first page: ask the node


class _PartitionFetch:
    """How a run fetches a partition: its pages at once over the run's client, each from
    the node or, older than it keeps, from its archive; it counts the rows each served."""

    def __init__(self, client: Any, source: Source, *, oldest: int) -> None:
        self._client = client
        self.source = source
        self._oldest = oldest
        self.served: collections.Counter[str] = collections.Counter()

    async def table(
        self,
        first: int,
        end: int,
        counter: Counter,
        genesis: asyncio.Future[tuple[int, str] | None] | None = None,
    ) -> _Fetched:
        pages = _PagesToTable(self.source, genesis)
        where = Plan(self._oldest)
        try:
            version = await stream_range(
                self._client, self.source, first, end, pages.add, bar=counter, plan=where
            )
        finally:
            pages.close()
        self.served.update(where.served)
        return pages.builder.finish(), version, dict(sorted(where.served.items()))


class _Partitions:
    """The partitions of a run, in three steps each: **fetch** (its pages, no more
    partitions at once than keeps the requests busy), **write** (its Parquet file, in a
    thread) and **record** (its entry in the manifest, once the widened range is saved).

    A partition is converted on the loop while its pages come, and written in a thread
    while the next ones are fetched: fetching does not wait for writes to finish, unless
    two partitions more than those being fetched are already waiting to be written.
    """

    def __init__(
        self,
        fetching: _PartitionFetch,
        dataset: Dataset,
        widened: asyncio.Future[None],
        *,
        at_once: int,
        early: asyncio.Future[_Fetched] | None,
    ) -> None:
        self._fetching = fetching
        self._early = early  # the first partition's fetch, begun before the run
        self._dataset = dataset
        self._widened = widened
        self._fetch_slots = asyncio.Semaphore(at_once)
        self._held = asyncio.Semaphore(at_once + 2)
        self._writers = asyncio.Semaphore(2)
        self._writes: list[asyncio.Future[None]] = []
        #: Rows in the partitions recorded so far.
        self.rows = 0

    async def run(self, todo: list[tuple[int, int]], bar: Counter) -> None:
        """Fetch, write and record every partition of ``todo``. When one fails, those
        fetched so far are written and recorded, and the first failure is raised."""
        early, self._early = self._early, None
        try:
            async with asyncio.TaskGroup() as group:
                for number, (a, b) in enumerate(todo):
                    group.create_task(self._partition(a, b, bar, early if number == 0 else None))
                early = None  # each partition's table is held by its task alone
        except BaseExceptionGroup as failures:
            await asyncio.wait([self._widened, *self._writes])
            raise first_error(failures) from None

    async def _partition(
        self, first: int, end: int, counter: Counter, early: asyncio.Future[_Fetched] | None
    ) -> None:
        async with self._held:
            table, version, by = await self.fetch(first, end, counter, early)
            early = None  # its table is held here alone: freed once written
            # Shielded: a partition fetched is written even when another fails.
            written = asyncio.ensure_future(self.write(first, end, table, version, by))
            self._writes.append(written)
            del table
            await asyncio.shield(written)

    async def fetch(
        self, first: int, end: int, counter: Counter, early: asyncio.Future[_Fetched] | None
    ) -> _Fetched:
        """The partition's table, the version it was read at and the rows per node."""
        async with self._fetch_slots:
            if early is None:
                return await self._fetching.table(first, end, counter)
            return await early

    async def write(
        self, first: int, end: int, table: pa.Table, version: int, by: dict[str, int]
    ) -> None:
        """Write the partition's file (two at most at once), then record it."""
        relative = self._dataset.file_for(first, end)
        async with self._writers:
            count, sha = await asyncio.to_thread(_write_table, table, self._dataset.root / relative)
        await self.record(
            {
                "file": relative.as_posix(),
                "first": first,
                "stop": end,
                "rows": count,
                "sha256": sha,
                "written_at_ledger_version": version,
                "served_by": by,
                "written_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            }
        )

    async def record(self, entry: dict[str, Any]) -> None:
        """Record a partition written in the manifest, after the run's widened range."""
        async with self._dataset.lock:
            await self._widened
            self.rows += entry["rows"]
            self._dataset.record(entry)


def _partitions_at_once(source: Source, partition_size: int, keys: int, concurrency: int) -> int:
    """Enough partitions fetched at once to keep ``concurrency`` requests busy, and no
    more (two at least), for a range of ``keys`` keys."""
    pages_each = max(1, -(-min(partition_size, keys) // source.page_size))
    return max(2, -(-concurrency // pages_each) + 1)


async def _range_at_head(
    client: Any, source: Source, start: int | str, stop: int | str
) -> tuple[LedgerMeta, int, int, int]:
    """The node's head, the range's ends as keys, and the oldest key the node keeps, each
    read once, here: a public node's window moves on."""
    head = await check_available(client, source, stop if isinstance(stop, int) else 0)
    first, end = resolve_ends(source, start, stop, head)
    check_range(first, end)
    oldest = held_from(source, head)
    if first < oldest and client.archive_url is None:
        # Older than the node keeps: ask once, so that its 410 names the archive
        # (or says there is none) before the pages go out.
        await source.page(client, first, first + 1)
    return head, first, end, oldest


async def _chain_of(
    client: Any, head: LedgerMeta, genesis: asyncio.Future[tuple[int, str] | None] | None
) -> ChainIdentity:
    """The chain the node serves: by the genesis transaction of the first page when it
    has one, else by asking the node."""
    seen = None if genesis is None else await genesis
    if seen is None:
        identity: ChainIdentity = (await client.chain_identity()).value
        return identity
    return ChainIdentity.from_genesis(head.chain_id, *seen)


async def _open_dataset(
    client: Any, source: Source, root: Path, chain: ChainIdentity, partition_size: int
) -> Dataset:
    """The dataset in ``root`` (made if new), checked against this run, this chain and its
    history, with what an interrupted run left swept away."""
    root.mkdir(parents=True, exist_ok=True)
    (root / source.kind).mkdir(exist_ok=True)
    dataset = Dataset(root, source, chain, partition_size)
    if dataset.unverified:
        await dataset.verify(client)
    await check_history(client, dataset)
    dataset.sweep()
    return dataset


async def _open_fetching_first(
    client: Any,
    fetching: _PartitionFetch,
    root: Path,
    head: LedgerMeta,
    plan: list[tuple[int, int]],
    partition_size: int,
    counter: Counter,
) -> tuple[Dataset, list[tuple[int, int]], asyncio.Future[_Fetched] | None]:
    """The dataset, the partitions of ``plan`` it lacks, and the first one's fetch when it
    began while the dataset was opened and is still wanted.

    A new dataset is fetched whole: its first partition comes while the node is asked
    which chain it serves, by its genesis transaction. A range of transactions from
    version 0 holds that transaction in its first page: its hash is read there, rather
    than by a request of its own (a megabyte of write set on a local node, which the node
    would serialise in between the pages). Nothing is written before the chain is known.
    """
    source = fetching.source
    genesis: asyncio.Future[tuple[int, str] | None] | None = None
    early: asyncio.Future[_Fetched] | None = None
    if not (root / MANIFEST).exists():
        if plan[0][0] == 0 and source.holds_genesis:
            genesis = asyncio.get_running_loop().create_future()
        early = asyncio.ensure_future(fetching.table(*plan[0], counter, genesis))
    try:
        chain = await _chain_of(client, head, genesis)
        dataset = await _open_dataset(client, source, root, chain, partition_size)
        todo = dataset.to_fetch(plan)
        if todo or dataset.mark is None:
            # The records this run writes depend on no version past the head.
            await mark_head(client, dataset, head.ledger_version)
    except BaseException:
        await _drop(early)
        raise
    if todo[:1] != plan[:1]:  # a dataset made meanwhile by another run
        await _drop(early)
        early = None
    return dataset, todo, early


async def write_dataset(
    source: Source,
    node: NodeAccess,
    out: str | os.PathLike[str],
    *,
    start: int | str,
    stop: int | str,
    options: ExtractOptions,
    transport: httpx.AsyncBaseTransport | None,
) -> ExtractionSummary:
    """The engine behind :func:`~ledgerkit.extract.extract` (see there); ``options`` has
    its ``partition_size`` and ``concurrency`` set."""
    check_ends(source, start, stop)
    partition_size, concurrency = options.partition_size, options.concurrency
    if partition_size is None or concurrency is None:
        raise InputError("partition_size and concurrency must be set")
    root = Path(out)
    named = {"start": start, "stop": stop}
    async with node.client(options, transport) as client:
        head, first, end, oldest = await _range_at_head(client, source, start, stop)
        plan = partitions(first, end, partition_size)
        fetching = _PartitionFetch(client, source, oldest=oldest)
        relay = Relay()
        dataset, todo, early = await _open_fetching_first(
            client, fetching, root, head, plan, partition_size, relay
        )
        dataset.widen(first, end)
        if any(isinstance(v, str) for v in named.values()):
            dataset.note_ends(named, first, end, head.ledger_version)
        # The manifest names the widened range from the start, even if a partition fails;
        # saved (and synced to disk) in a thread while the first pages come.
        widened = asyncio.ensure_future(asyncio.to_thread(dataset.save))
        _log.info(
            "%s [%d, %d): %d of %d partitions to fetch",
            source.kind, first, end, len(todo), len(plan),
        )  # fmt: skip
        at_once = _partitions_at_once(source, partition_size, end - first, concurrency)
        # The first partition's fetch, if begun, is the run's alone: its table is freed
        # once written.
        run = _Partitions(fetching, dataset, widened, at_once=at_once, early=early)
        del early
        keys = sum(b - a for a, b in todo)
        async with progress_bar(client, source, keys, relay, options.progress) as bar:
            await run.run(todo, bar)
            await widened
        waited = client.waited
    return ExtractionSummary(
        kind=cast("ExtractKind", source.kind),
        path=root,
        start=first,
        stop=end,
        chain_id=head.chain_id,
        partitions=len(plan),
        written=len(todo),
        skipped=len(plan) - len(todo),
        rows_written=run.rows,
        genesis_hash=dataset.chain.genesis_hash,
        served_by=dict(sorted(fetching.served.items())),
        waited_seconds=waited.seconds,
        requests=client.requests_sent,
        waits=waited.holds,
    )
