"""Which history of its chain a dataset holds: the history mark its manifest records, and
the check of it against the node before a run resumes or grows the dataset.

The genesis names where a chain starts, not the history it went on to: two embedded nodes
started from one seed share it, and part at their first different transaction. So the
manifest records a history mark (:class:`~ledgerkit.client.HistoryMark`): the node's head
when a run began, at or past every record the run writes, and the accumulator root the
node showed there, which commits to the whole history up to it.

A run that resumes or grows a dataset first asks the node for that version (one request).
Another root, or a version the node cannot show (past its head; a replayed snapshot that
never recorded it), is a :class:`~ledgerkit.HistoryMismatchError`, before anything is
written; a version the node no longer holds (pruned) is trusted, since it cannot be shown.
A manifest written before marks were recorded is checked by its newest record instead
(the node's record at that key must be the same). A run with partitions to fetch then
records its own head's mark (one request more).
"""

from __future__ import annotations

import asyncio
import logging

from ledgerkit._errors import (
    HistoryMismatchError,
    LedgerError,
    NotFoundError,
    PrunedError,
    SnapshotMissError,
)
from ledgerkit.client import AsyncClient, HistoryMark, Seen, calls
from ledgerkit.extract._manifest import MANIFEST, Dataset

__all__ = ["check_history", "mark_head", "seen_at"]

_log = logging.getLogger("ledgerkit.extract")


async def seen_at(client: AsyncClient, mark: HistoryMark) -> Seen:
    """What the node shows at ``mark``'s version (one request)."""
    try:
        result = await client.send(
            calls.transaction_by_version(mark.version), decoder=HistoryMark.decode
        )
    except PrunedError:
        return Seen.PRUNED
    except (NotFoundError, SnapshotMissError):
        return Seen.MISSING
    return Seen.SAME if result.value.root == mark.root else Seen.OTHER


async def _seen_newest(client: AsyncClient, dataset: Dataset) -> tuple[Seen, int]:
    """What the node shows of the dataset's newest record (one request), and its key."""
    witness = await asyncio.to_thread(dataset.newest_record)
    if witness is None:
        return Seen.SAME, -1
    key = int(witness[dataset.source.key_name])
    try:
        records, _ = await dataset.source.page(client, key, key + 1)
    except PrunedError:
        return Seen.PRUNED, key
    except (NotFoundError, SnapshotMissError):
        return Seen.MISSING, key
    return (Seen.SAME if dataset.witnessed(records, witness) else Seen.OTHER), key


async def check_history(client: AsyncClient, dataset: Dataset) -> None:
    """Check that ``dataset`` holds the node's history (one request; nothing for a
    dataset with no records).

    Raises
    ------
    HistoryMismatchError
        The node shows another history, or cannot show the version checked.
    """
    where = dataset.root / MANIFEST
    mark = dataset.mark
    if mark is not None:
        what, at = await seen_at(client, mark), f"version {mark.version}"
        recorded = f"{mark.root} recorded"
    elif dataset.manifest.get("partitions"):
        what, key = await _seen_newest(client, dataset)
        at, recorded = f"{dataset.source.key_name} {key}", "its newest record"
    else:
        return
    if what is Seen.PRUNED:
        _log.info("%s: the node no longer holds %s to check it by", where, at)
    elif what is not Seen.SAME:
        shown = "shows another history" if what is Seen.OTHER else "cannot show it"
        raise HistoryMismatchError(
            f"{where} holds a history of {dataset.chain} that parted from the node's: at "
            f"{at} the node {shown} ({recorded}); extract into another directory, or "
            "remove this one"
        )


async def mark_head(client: AsyncClient, dataset: Dataset, version: int) -> None:
    """Record the node's mark at ``version`` (its head when the run began) in the manifest;
    a node that cannot show it leaves none (then the next run checks the newest record)."""
    try:
        call = calls.transaction_by_version(version)
        mark: HistoryMark | None = (await client.send(call, decoder=HistoryMark.decode)).value
    except LedgerError as exc:
        _log.warning("%s: no history mark recorded (%s)", dataset.root / MANIFEST, exc)
        mark = None
    dataset.note_mark(mark)
