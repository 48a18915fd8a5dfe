"""The ``"activity"`` kind: per transaction, every address it touched (sender, signers,
fee payer, recipients, write set) with its roles, fee and exact net change per asset
(:func:`ledgerkit.frames.activity_to_frame`), read from the node's transactions by
version. An account's activity over a range is the rows of its address: the range is
extracted once (concurrent, resumable, on disk) and then read for any account.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

import pandas as pd

from ledgerkit._errors import DatasetMismatchError, InputError
from ledgerkit.client import AsyncClient, Client
from ledgerkit.extract._fetch import PAGE_SIZE, Source, run_sync
from ledgerkit.extract._manifest import read_manifest
from ledgerkit.extract._options import ExtractOptions
from ledgerkit.frames import ACTIVITY_COLUMNS, empty_frame
from ledgerkit.types import Address

__all__ = ["activity_source", "ascan_activity", "read_activity", "scan_activity"]

KIND: Final = "activity"


def activity_source() -> Source:
    """Transactions by version, kept as the rows of :data:`ACTIVITY_COLUMNS`."""
    return Source(KIND, "version", PAGE_SIZE, reads="transactions")


def _covered(manifest: dict[str, Any], start: int, stop: int) -> bool:
    """Whether the recorded partitions hold every version of ``[start, stop)``."""
    reached = start
    for entry in sorted(manifest.get("partitions", []), key=lambda e: e["first"]):
        if entry["first"] > reached:
            break
        reached = max(reached, int(entry["stop"]))
        if reached >= stop:
            return True
    return reached >= stop


def read_activity(
    dataset: str | os.PathLike[str],
    address: str | Address,
    *,
    start: int | None = None,
    stop: int | None = None,
) -> pd.DataFrame:
    """The rows of ``address`` in an ``"activity"`` dataset, versions ``[start, stop)``,
    in version order (:data:`ledgerkit.frames.ACTIVITY_COLUMNS`). Nothing is sent.

    Parameters
    ----------
    dataset : path
        A dataset directory written by ``extract("activity", ...)``.
    address : str or Address
        The account (any spelling).
    start, stop : int, optional
        The versions to read; by default the whole range the dataset holds.

    Raises
    ------
    DatasetMismatchError
        ``dataset`` holds no activity dataset.
    InputError
        The dataset does not hold every version of ``[start, stop)``.
    """
    root = Path(dataset)
    manifest = read_manifest(root)
    if manifest is None or manifest.get("kind") != KIND:
        raise DatasetMismatchError(f"{root} holds no {KIND} dataset")
    span = manifest.get("range") or [0, 0]
    first = int(span[0]) if start is None else start
    end = int(span[1]) if stop is None else stop
    if end > first and not _covered(manifest, first, end):
        raise InputError(
            f"{root} does not hold every version of [{first}, {end}); "
            f"extract them first: extract({KIND!r}, node, {str(root)!r}, start={first}, "
            f"stop={end})"
        )
    long = Address.parse(address).long if isinstance(address, str) else address.long
    import pyarrow.parquet as pq

    files = [
        root / entry["file"]
        for entry in manifest["partitions"]
        if entry["first"] < end and first < entry["stop"] and entry["rows"]
    ]
    if not files:
        return empty_frame(ACTIVITY_COLUMNS)
    filters = [("address", "==", long), ("version", ">=", first), ("version", "<", end)]
    tables = [pq.read_table(file, filters=filters) for file in sorted(files)]
    frames = [t.to_pandas() for t in tables if t.num_rows]
    if not frames:
        return empty_frame(ACTIVITY_COLUMNS)
    rows = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    rows = rows.sort_values("version", kind="stable").reset_index(drop=True)
    return rows[list(ACTIVITY_COLUMNS)]


async def ascan_activity(
    node: str | Client | AsyncClient,
    address: str | Address,
    start: int,
    stop: int,
    dataset: str | os.PathLike[str],
    *,
    options: ExtractOptions | None = None,
) -> pd.DataFrame:
    """Extract ``[start, stop)`` as an activity dataset in ``dataset`` (what is there
    already is not fetched again), then read the rows of ``address``."""
    from ledgerkit.extract._entry import aextract

    await aextract("activity", node, dataset, start=start, stop=stop, options=options)
    return read_activity(dataset, address, start=start, stop=stop)


def scan_activity(
    node: str | Client | AsyncClient,
    address: str | Address,
    start: int,
    stop: int,
    dataset: str | os.PathLike[str],
    *,
    options: ExtractOptions | None = None,
) -> pd.DataFrame:
    """:func:`ascan_activity` from blocking code (inside a running loop too)."""
    return run_sync(ascan_activity(node, address, start, stop, dataset, options=options))
