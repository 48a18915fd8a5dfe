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
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from ledgerkit.extract._manifest import MANIFEST, Dataset, sha256_of
from ledgerkit.extract._options import ExtractOptions, NodeAccess
from ledgerkit.extract._ranges import partitions
from ledgerkit.extract._tables import TableBuilder

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["ExtractionSummary", "write_dataset"]

_log = logging.getLogger("ledgerkit.extract")


@dataclass(frozen=True, slots=True)
class ExtractionSummary:
    """What a run did.

    Attributes
    ----------
    kind : str
        ``"transactions"``, ``"blocks"``, ``"events"`` or ``"transaction_events"``.
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
        Time the node's rate limit held the run's requests.
    """

    kind: str
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

    def __str__(self) -> str:
        return (
            f"{self.kind} [{self.start}, {self.stop}) of chain {self.chain_id} in {self.path}: "
            f"{self.partitions} partitions, {self.written} written ({self.rows_written} rows), "
            f"{self.skipped} already complete"
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


class _Relay:
    """A progress counter that keeps the counts made before the bar exists, then passes
    them on to it."""

    def __init__(self) -> None:
        self._target: Counter | None = None
        self._pending = 0.0

    def to(self, target: Counter) -> None:
        self._target = target
        if self._pending:
            target.update(self._pending)

    def update(self, n: float | None = 1) -> bool | None:
        if self._target is not None:
            return self._target.update(n)
        self._pending += 1 if n is None else n
        return None


#: A partition fetched: its table, the ledger version it was read at, the rows per node.
_Fetched = tuple["pa.Table", int, dict[str, int]]


async def _tell_waits(client: Any, bar: Any) -> None:
    """Show on the bar, while the node's rate limit holds the requests, how long for."""
    shown = False
    while True:
        remaining = client.waited.remaining
        if remaining > 0:
            bar.set_postfix_str(f"rate limit: waiting {remaining:.0f} s", refresh=True)
            shown = True
        elif shown:
            bar.set_postfix_str("", refresh=True)
            shown = False
        await asyncio.sleep(0.5)


def _interactive(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return "ipykernel" in sys.modules or sys.stderr.isatty()


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
    async with node.client(options, transport) as client:
        head = await check_available(client, source, stop if isinstance(stop, int) else 0)
        # ``oldest`` and ``head`` are read once, here: a public node's window moves on.
        named = {"start": start, "stop": stop}
        start, stop = resolve_ends(source, start, stop, head)
        check_range(start, stop)
        oldest = held_from(source, head)
        if start < oldest and client.archive_url is None:
            # Older than the node keeps: ask once, so that its 410 names the archive
            # (or says there is none) before the pages go out.
            await source.page(client, start, start + 1)
        plan = partitions(start, stop, partition_size)
        served: collections.Counter[str] = collections.Counter()
        # A new dataset is fetched whole: its first partition comes while the node is asked
        # which chain it serves, by its genesis transaction. A range of transactions from
        # version 0 holds that transaction in its first page: its hash is read there,
        # rather than by a request of its own (a megabyte of write set on a local node,
        # which the node would serialise in between the pages). Nothing is written before
        # the chain is known.
        relay = _Relay()
        genesis: asyncio.Future[tuple[int, str] | None] | None = None

        async def fetch_table(first: int, end: int, counter: Counter) -> _Fetched:
            # Its pages are converted as they come, in between the answers awaited.
            builder = TableBuilder(source.kind)
            where = Plan(oldest)

            def sink(records: list[Any]) -> None:
                if genesis is not None and not genesis.done():
                    genesis.set_result(source.genesis_in(records))
                builder.add(records)

            try:
                version = await stream_range(
                    client, source, first, end, sink, bar=counter, plan=where
                )
            finally:
                if genesis is not None and not genesis.done():
                    genesis.set_result(None)  # failed before its first page: ask the node
            served.update(where.served)
            return builder.finish(), version, dict(sorted(where.served.items()))

        early: asyncio.Future[_Fetched] | None = None
        if not (root / MANIFEST).exists():
            if start == 0 and source.holds_genesis:
                genesis = asyncio.get_running_loop().create_future()
            early = asyncio.ensure_future(fetch_table(*plan[0], relay))
        try:
            seen = None if genesis is None else await genesis
            if seen is None:
                chain = (await client.chain_identity()).value
            else:
                chain = ChainIdentity.from_genesis(head.chain_id, *seen)
            root.mkdir(parents=True, exist_ok=True)
            (root / source.kind).mkdir(exist_ok=True)
            dataset = Dataset(root, source, chain, partition_size)
            if dataset.unverified:
                await dataset.verify(client)
            dataset.sweep()
            todo = dataset.to_fetch(plan)
        except BaseException:
            await _drop(early)
            raise
        if todo[:1] != plan[:1]:  # a dataset made meanwhile by another run
            await _drop(early)
            early = None
        dataset.widen(start, stop)
        if any(isinstance(v, str) for v in named.values()):
            dataset.note_ends(named, start, stop, head.ledger_version)
        # The manifest names the widened range from the start, even if a partition fails;
        # saved (and synced to disk) in a thread while the first pages come.
        widened = asyncio.ensure_future(asyncio.to_thread(dataset.save))
        _log.info(
            "%s [%d, %d): %d of %d partitions to fetch",
            source.kind, start, stop, len(todo), len(plan),
        )  # fmt: skip

        from tqdm.auto import tqdm

        rows = 0
        # Enough partitions fetched at once to keep ``concurrency`` requests busy, and no
        # more. A partition is converted on the loop while its pages come, and written in
        # a thread while the next ones are fetched: fetching does not wait for writes to
        # finish, unless two partitions more than those being fetched are already waiting
        # to be written.
        pages_each = max(1, -(-min(partition_size, stop - start) // source.page_size))
        fetching = max(2, -(-concurrency // pages_each) + 1)
        fetch_slots = asyncio.Semaphore(fetching)
        held = asyncio.Semaphore(fetching + 2)
        writers = asyncio.Semaphore(2)

        with tqdm(
            total=sum(b - a for a, b in todo),
            unit=" " + source.key_name,
            desc=source.kind,
            disable=not _interactive(options.progress),
            # The rate over the whole run, waits included: an honest ETA under a budget.
            smoothing=0,
        ) as bar:
            relay.to(bar)
            telling = None if bar.disable else asyncio.ensure_future(_tell_waits(client, bar))

            async def write(
                first: int, end: int, table: pa.Table, version: int, by: dict[str, int]
            ) -> None:
                nonlocal rows
                relative = dataset.file_for(first, end)
                async with writers:
                    count, sha = await asyncio.to_thread(_write_table, table, root / relative)
                entry = {
                    "file": relative.as_posix(),
                    "first": first,
                    "stop": end,
                    "rows": count,
                    "sha256": sha,
                    "written_at_ledger_version": version,
                    "served_by": by,
                    "written_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                }
                async with dataset.lock:
                    await widened
                    rows += count
                    dataset.record(entry)

            writes: list[asyncio.Future[None]] = []

            async def one(
                first: int,
                end: int,
                counter: Counter,
                fetched: asyncio.Future[_Fetched] | None,
            ) -> None:
                async with held:
                    async with fetch_slots:
                        if fetched is None:
                            fetched = asyncio.ensure_future(fetch_table(first, end, counter))
                        table, version, by = await fetched
                        # Its table is held here alone: freed once written.
                        fetched = None
                    # Shielded: a partition fetched is written even when another fails.
                    written = asyncio.ensure_future(write(first, end, table, version, by))
                    writes.append(written)
                    del table
                    await asyncio.shield(written)

            try:
                async with asyncio.TaskGroup() as group:
                    for number, (a, b) in enumerate(todo):
                        group.create_task(one(a, b, bar, early if number == 0 else None))
                    early = None  # (so are the first partition's)
            except BaseExceptionGroup as failures:
                # The partitions fetched so far are written and recorded; the caller gets
                # the cause.
                await asyncio.wait([widened, *writes])
                raise first_error(failures) from None
            finally:
                await _drop(telling)
            await widened
    return ExtractionSummary(
        kind=source.kind,
        path=root,
        start=start,
        stop=stop,
        chain_id=head.chain_id,
        partitions=len(plan),
        written=len(todo),
        skipped=len(plan) - len(todo),
        rows_written=rows,
        genesis_hash=chain.genesis_hash,
        served_by=dict(sorted(served.items())),
        waited_seconds=client.waited.seconds,
    )
