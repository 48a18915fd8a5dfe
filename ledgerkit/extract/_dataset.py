"""Parquet datasets of a key range, partitioned by range, with a manifest that makes runs
resumable: an interrupted run goes on where it stopped, a finished one fetches nothing.

Layout of ``out``::

    manifest.json                       kind, chain, range, partition size, partitions
    transactions/part-000000000000-000000009999.parquet
    transactions/part-000000010000-000000019999.parquet

Each partition is written to a hidden temporary file and renamed into place, then the
manifest (also replaced atomically) records it with its row count and sha256.

The manifest names its chain by chain id and genesis hash
(:class:`~ledgerkit.client.ChainIdentity`): every local node is chain 4, so the chain id
alone would let a run on one local chain add to a dataset of another. A manifest written
before it recorded the genesis (or on a node that no longer held it) is checked against the
node by one of its own records, and then records the genesis.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import logging
import os
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import httpx

from ledgerkit._errors import (
    ChainMismatchError,
    DatasetMismatchError,
    InputError,
    NotFoundError,
    PrunedError,
)
from ledgerkit.client import AsyncClient, ChainIdentity
from ledgerkit.extract._convert import CONVERTERS
from ledgerkit.extract._fetch import (
    Counter,
    Source,
    check_available,
    check_range,
    fetch_range,
)
from ledgerkit.extract._options import ExtractOptions, NodeAccess
from ledgerkit.extract._ranges import partitions

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["MANIFEST", "SCHEMA_VERSION", "ExtractionSummary", "read_manifest", "write_dataset"]

_log = logging.getLogger("ledgerkit.extract")

#: File name of the manifest at the top of a dataset directory.
MANIFEST: Final = "manifest.json"
#: Version of the dataset layout and column schema; a dataset of another one is refused.
SCHEMA_VERSION: Final = 1
_FORMAT: Final = "ledgerkit.extract"
#: Columns that tell a record of one chain from the record of another at the same key.
_WITNESS: Final = {
    "transactions": ("version", "hash"),
    "blocks": ("block_height", "block_hash"),
    "events": ("sequence_number", "version", "type", "data"),
}


@dataclass(frozen=True, slots=True)
class ExtractionSummary:
    """What a run did.

    Attributes
    ----------
    kind : str
        ``"transactions"``, ``"blocks"`` or ``"events"``.
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

    def __str__(self) -> str:
        return (
            f"{self.kind} [{self.start}, {self.stop}) of chain {self.chain_id} in {self.path}: "
            f"{self.partitions} partitions, {self.written} written ({self.rows_written} rows), "
            f"{self.skipped} already complete"
        )


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest of the dataset in ``path``, or None when there is none yet."""
    file = Path(path) / MANIFEST
    if not file.exists():
        return None
    manifest: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return manifest


def _write_atomic(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _table(kind: str, records: list[Any]) -> pa.Table:
    """The records of a partition as the Arrow table of its file.

    Called on the event loop: it is Python work that holds the interpreter throughout, and
    in a thread it would make the loop wait for the interpreter after every socket call
    (some 5 ms each) for longer than it takes here.
    """
    import pyarrow as pa

    frame = CONVERTERS[kind](records)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    # pandas picks the narrowest codes (int8 below 128 categories); a dataset read across
    # partitions unifies their dictionaries, which overflows such codes. int32 always fits.
    schema = pa.schema(
        [
            field.with_type(pa.dictionary(pa.int32(), field.type.value_type))
            if pa.types.is_dictionary(field.type)
            else field
            for field in table.schema
        ],
        metadata=table.schema.metadata,
    )
    return table.cast(schema)


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
        sha = _sha256(Path(tmp))
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


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    error = group.exceptions[0]
    return _first(error) if isinstance(error, BaseExceptionGroup) else error


def _interactive(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return "ipykernel" in sys.modules or sys.stderr.isatty()


class _Dataset:
    """The manifest of one dataset directory, kept in memory and saved after each change."""

    def __init__(
        self, root: Path, source: Source, chain: ChainIdentity, partition_size: int
    ) -> None:
        self.root = root
        self.source = source
        self.chain = chain
        self.lock = asyncio.Lock()
        found = read_manifest(root)
        if found is None:
            found = {
                "format": _FORMAT,
                "schema_version": SCHEMA_VERSION,
                "kind": source.kind,
                "key": source.key_name,
                "chain_id": chain.chain_id,
                "genesis_hash": chain.genesis_hash,
                "partition_size": partition_size,
                "stream": source.stream,
                "range": None,
                "partitions": [],
            }
        self._check(found, partition_size)
        self.manifest = found

    @property
    def unverified(self) -> bool:
        """Whether the manifest cannot tell by its genesis hash that it is of this chain
        (written before it recorded one, or by or for a node that no longer held it)."""
        recorded = self.manifest.get("genesis_hash")
        return recorded is None or self.chain.genesis_hash is None

    def _check(self, found: Mapping[str, Any], partition_size: int) -> None:
        where = self.root / MANIFEST
        chain = self.chain
        if found.get("format") != _FORMAT:
            raise DatasetMismatchError(f"{where} is not a ledgerkit.extract manifest")
        if found.get("chain_id") != chain.chain_id:
            raise ChainMismatchError(
                f"{where} holds chain {found.get('chain_id')}, "
                f"the node serves chain {chain.chain_id}"
            )
        recorded = found.get("genesis_hash")
        known = recorded is not None and chain.genesis_hash is not None
        if known and recorded != chain.genesis_hash:
            raise ChainMismatchError(
                f"{where} holds chain {chain.chain_id} with genesis {recorded}; the node "
                f"serves another chain of that id, with genesis {chain.genesis_hash}"
            )
        expected = {
            "schema_version": SCHEMA_VERSION,
            "kind": self.source.kind,
            "stream": self.source.stream,
            "partition_size": partition_size,
        }
        for name, value in expected.items():
            if found.get(name) != value:
                raise DatasetMismatchError(
                    f"{where} has {name}={found.get(name)!r}, this run asks for {value!r}"
                )

    def _first_record(self) -> dict[str, Any] | None:
        """The witness columns of the first record of the first intact partition."""
        import pyarrow.parquet as pq

        columns = list(_WITNESS[self.source.kind])
        for entry in self.manifest["partitions"]:
            if self._intact(entry):
                rows = pq.read_table(self.root / entry["file"], columns=columns).slice(0, 1)
                for row in rows.to_pylist():
                    return dict(row)
        return None

    async def verify(self, client: AsyncClient) -> None:
        """Check an :attr:`unverified` dataset against the node by one of its records (one
        request), then record the genesis hash: a record of another chain at the same key
        is a :class:`ChainMismatchError`."""
        where = self.root / MANIFEST
        witness = await asyncio.to_thread(self._first_record)
        if witness is not None:
            kind, key_name = self.source.kind, self.source.key_name
            key = int(witness[key_name])
            try:
                records, _ = await self.source.page(client, key, key + 1)
            except (NotFoundError, PrunedError):
                _log.warning(
                    "%s names no genesis and the node no longer holds %s %d to check it by: "
                    "taken to be of chain %s", where, key_name, key, self.chain,
                )  # fmt: skip
            else:
                mine = [r for r in records if self.source.key(r) == key][:1]
                theirs = CONVERTERS[kind](mine).to_dict("records")
                if not theirs or any(str(theirs[0][c]) != str(witness[c]) for c in witness):
                    raise ChainMismatchError(
                        f"{where} holds {kind} of another chain {self.chain.chain_id}: its "
                        f"{key_name} {key} is not the node's (the manifest names no genesis)"
                    )
        if self.chain.genesis_hash is not None:
            _log.info("%s: recording the genesis of %s", where, self.chain)
            self.manifest["genesis_hash"] = self.chain.genesis_hash

    def to_fetch(self, plan: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The ranges to fetch for the planned partitions.

        A planned partition is skipped when the partition recorded in its slot (its
        multiple of the partition size) covers it and its file is there, unchanged.
        Otherwise it is fetched together with what that slot holds, so that a slot is
        always one file: a short last partition of an earlier run is widened, never
        written beside.
        """
        size = int(self.manifest["partition_size"])
        by_slot = {e["first"] // size: e for e in self.manifest["partitions"]}
        out = []
        for first, stop in plan:
            entry = by_slot.get(first // size)
            if entry is None:
                out.append((first, stop))
            elif entry["first"] <= first and stop <= entry["stop"] and self._intact(entry):
                continue
            else:
                out.append((min(first, entry["first"]), max(stop, entry["stop"])))
        return out

    def _intact(self, entry: Mapping[str, Any]) -> bool:
        path = self.root / entry["file"]
        return path.exists() and _sha256(path) == str(entry["sha256"])

    def widen(self, start: int, stop: int) -> None:
        old = self.manifest["range"]
        self.manifest["range"] = (
            [start, stop]
            if old is None
            else [
                min(old[0], start),
                max(old[1], stop),
            ]
        )

    def file_for(self, first: int, stop: int) -> Path:
        return Path(self.source.kind) / f"part-{first:012d}-{stop - 1:012d}.parquet"

    def record(self, entry: dict[str, Any]) -> None:
        """Record a written partition; partitions it overlaps (a shorter last partition of
        an earlier, narrower run) leave the manifest and then the disk."""
        first, stop = entry["first"], entry["stop"]
        kept: list[dict[str, Any]] = []
        replaced: list[dict[str, Any]] = []
        for e in self.manifest["partitions"]:
            overlaps = e["first"] < stop and first < e["stop"]
            (replaced if overlaps else kept).append(e)
        kept.append(entry)
        kept.sort(key=lambda e: e["first"])
        self.manifest["partitions"] = kept
        self.save()
        for old in replaced:
            if old["file"] != entry["file"]:
                (self.root / old["file"]).unlink(missing_ok=True)

    def sweep(self) -> None:
        """Remove what an interrupted run may have left in the kind's folder: temporary
        files, and partition files the manifest does not list (replaced ones)."""
        listed = {e["file"] for e in self.manifest["partitions"]}
        folder = self.root / self.source.kind
        for path in folder.glob(".part-*.tmp"):
            path.unlink(missing_ok=True)
        for path in folder.glob("part-*.parquet"):
            if f"{self.source.kind}/{path.name}" not in listed:
                _log.info("removing %s: not in the manifest (left by an interrupted run)", path)
                path.unlink(missing_ok=True)

    def save(self) -> None:
        text = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
        _write_atomic(self.root / MANIFEST, text.encode("utf-8"))


async def write_dataset(
    source: Source,
    node: NodeAccess,
    out: str | os.PathLike[str],
    *,
    start: int,
    stop: int,
    options: ExtractOptions,
    transport: httpx.AsyncBaseTransport | None,
) -> ExtractionSummary:
    """The engine behind :func:`~ledgerkit.extract.extract` (see there); ``options`` has
    its ``partition_size`` and ``concurrency`` set."""
    check_range(start, stop)
    partition_size, concurrency = options.partition_size, options.concurrency
    if partition_size is None or concurrency is None:
        raise InputError("partition_size and concurrency must be set")
    root = Path(out)
    async with node.client(options, transport) as client:
        head = await check_available(client, source, stop)
        plan = partitions(start, stop, partition_size)
        # A new dataset is fetched whole: its first partition comes while the node is asked
        # which chain it serves (by its genesis transaction, a megabyte on a local node).
        # Nothing is written before the chain is known.
        relay = _Relay()
        early: asyncio.Future[tuple[list[Any], int]] | None = None
        if not (root / MANIFEST).exists():
            early = asyncio.ensure_future(fetch_range(client, source, *plan[0], bar=relay))
        try:
            chain = (await client.chain_identity()).value
            root.mkdir(parents=True, exist_ok=True)
            (root / source.kind).mkdir(exist_ok=True)
            dataset = _Dataset(root, source, chain, partition_size)
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
        # more. A fetched partition is converted on the loop and written in a thread while
        # the next ones are fetched: fetching does not wait for writes to finish, unless
        # two partitions more than those being fetched are already waiting to be written.
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
        ) as bar:
            relay.to(bar)

            async def write(first: int, end: int, records: list[Any], version: int) -> None:
                nonlocal rows
                relative = dataset.file_for(first, end)
                async with writers:
                    table = _table(source.kind, records)
                    del records
                    count, sha = await asyncio.to_thread(_write_table, table, root / relative)
                entry = {
                    "file": relative.as_posix(),
                    "first": first,
                    "stop": end,
                    "rows": count,
                    "sha256": sha,
                    "written_at_ledger_version": version,
                    "written_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
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
                fetched: asyncio.Future[tuple[list[Any], int]] | None,
            ) -> None:
                async with held:
                    async with fetch_slots:
                        if fetched is None:
                            fetched = asyncio.ensure_future(
                                fetch_range(client, source, first, end, bar=counter)
                            )
                        records, version = await fetched
                    # Shielded: a partition fetched is written even when another fails.
                    written = asyncio.ensure_future(write(first, end, records, version))
                    writes.append(written)
                    del records
                    await asyncio.shield(written)

            try:
                async with asyncio.TaskGroup() as group:
                    for number, (a, b) in enumerate(todo):
                        group.create_task(one(a, b, bar, early if number == 0 else None))
            except BaseExceptionGroup as failures:
                # The partitions fetched so far are written and recorded; the caller gets
                # the cause.
                await asyncio.wait([widened, *writes])
                raise _first(failures) from None
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
    )
