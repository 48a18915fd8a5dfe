"""The manifest of a dataset directory: what it holds (kind, chain, range, partition size)
and each partition written, with its row count and sha256; read, checked against a run,
and replaced atomically.

Layout of ``out``::

    manifest.json                       kind, chain, range, partition size, partitions
    transactions/part-000000000000-000000009999.parquet
    transactions/part-000000010000-000000019999.parquet

The manifest names its chain by chain id and genesis hash
(:class:`~ledgerkit.client.ChainIdentity`): every local node is chain 4, so the chain id
alone would let a run on one local chain add to a dataset of another. A manifest written
before it recorded the genesis (or on a node that no longer held it) is checked against the
node by one of its own records, and then records the genesis.

The genesis names where a chain starts, not the history it went on to: two embedded nodes
started from one seed share it, and part at their first different transaction. So the
manifest also records a history mark (``history``: a version at or past every record of
the dataset, the node's head when the run began, and the accumulator root the node
showed there, which commits to all history up to it), checked when a run resumes or grows
the dataset (``_history``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from ledgerkit._errors import ChainMismatchError, DatasetMismatchError, NotFoundError, PrunedError
from ledgerkit.client import AsyncClient, ChainIdentity, HistoryMark
from ledgerkit.extract._convert import CONVERTERS
from ledgerkit.extract._fetch import Source

__all__ = ["MANIFEST", "SCHEMA_VERSION", "Dataset", "read_manifest", "sha256_of"]

_log = logging.getLogger("ledgerkit.extract")

#: File name of the manifest at the top of a dataset directory.
MANIFEST: Final = "manifest.json"
#: Version of the dataset layout and column schema; a dataset of another one is refused.
#: 2: transactions gained fee payer, secondary signers, signature kind and nonce; blocks
#: the block id and end info; events a null ``event_index`` for event streams.
SCHEMA_VERSION: Final = 2
_FORMAT: Final = "ledgerkit.extract"
#: Columns that tell a record of one chain from the record of another at the same key.
_WITNESS: Final = {
    "transactions": ("version", "hash"),
    "blocks": ("block_height", "block_hash"),
    "events": ("sequence_number", "version", "type", "data"),
    "transaction_events": ("version", "event_index", "type", "data"),
    "activity": ("version", "hash"),
}


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


def sha256_of(path: Path) -> str:
    """The sha256 of a file, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Dataset:
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
                if not self.witnessed(records, witness):
                    raise ChainMismatchError(
                        f"{where} holds {kind} of another chain {self.chain.chain_id}: its "
                        f"{key_name} {key} is not the node's (the manifest names no genesis)"
                    )
        if self.chain.genesis_hash is not None:
            _log.info("%s: recording the genesis of %s", where, self.chain)
            self.manifest["genesis_hash"] = self.chain.genesis_hash

    @property
    def mark(self) -> HistoryMark | None:
        """The history mark the manifest recorded, when it holds records to vouch for."""
        recorded = self.manifest.get("history")
        if not recorded or not self.manifest.get("partitions"):
            return None
        return HistoryMark(int(recorded["version"]), str(recorded["accumulator_root_hash"]))

    def note_mark(self, mark: HistoryMark | None) -> None:
        """Record ``mark`` as the history the dataset's records depend on (``None``: none
        known)."""
        if mark is None:
            self.manifest.pop("history", None)
        else:
            self.manifest["history"] = {"version": mark.version, "accumulator_root_hash": mark.root}

    def newest_record(self) -> dict[str, Any] | None:
        """The witness columns of the record with the newest key of the last intact
        partition that holds any."""
        import pyarrow.parquet as pq

        columns = list(_WITNESS[self.source.kind])
        for entry in reversed(self.manifest["partitions"]):
            if entry["rows"] and self._intact(entry):
                rows = pq.read_table(self.root / entry["file"], columns=columns).to_pylist()
                if rows:
                    return dict(max(rows, key=lambda r: int(r[self.source.key_name])))
        return None

    def witnessed(self, records: list[Any], witness: Mapping[str, Any]) -> bool:
        """Whether the node's ``records`` hold the record ``witness`` names, the same."""
        key = int(witness[self.source.key_name])
        mine = [r for r in records if self.source.key(r) == key][:1]
        theirs = CONVERTERS[self.source.kind](mine).to_dict("records")
        return bool(theirs) and all(str(theirs[0][c]) == str(witness[c]) for c in witness)

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
        return path.exists() and sha256_of(path) == str(entry["sha256"])

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

    def note_ends(
        self, named: Mapping[str, int | str], start: int, stop: int, ledger_version: int
    ) -> None:
        """Record what ``oldest`` / ``head`` meant for this run (a public node's window
        moves on): the ends as given, as read, and the ledger version they were read at."""
        self.manifest.setdefault("resolved_ends", []).append(
            {
                "start": named["start"],
                "stop": named["stop"],
                "first": start,
                "end": stop,
                "at_ledger_version": ledger_version,
            }
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
