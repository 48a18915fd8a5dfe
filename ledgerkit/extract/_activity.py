"""The ``"activity"`` kind: per transaction, every address it touched (sender, signers,
fee payer, recipients, write set) with its roles, fee and exact net change per asset
(:func:`ledgerkit.frames.activity_to_frame`), read from the node's transactions by
version. An account's activity over a range is the rows of its address: the range is
extracted once (concurrent, resumable, on disk) and then read for any account.

The node API lists only what an account sent; what it received, paid as fee payer or had
written to its stores shows only in other transactions, so the range is scanned:
:func:`account_activity` (what ``ledgerkit.account_activity`` runs for a client) asks
the head when no end is given, extracts the range into the chain's activity dataset and
reads the account's rows from it.

The dataset is a cache of the chain's history: its manifest records a history mark (a
version and the node's accumulator root there), checked against the node before the
dataset is used again. A node whose history parted from the one scanned (another embedded
node of the same seed, a local network restarted from its genesis) has the dataset
dropped and the range scanned again, so an account's rows are always the node's own.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path
from typing import Any, Final, TypedDict, Unpack

import pandas as pd

from ledgerkit._errors import DatasetMismatchError, HistoryMismatchError, InputError
from ledgerkit.client import AsyncClient, ChainIdentity, Client, default_cache_dir
from ledgerkit.extract._fetch import PAGE_SIZE, Source, blocking_twin
from ledgerkit.extract._manifest import MANIFEST, read_manifest
from ledgerkit.extract._options import ExtractOptions
from ledgerkit.frames import ACTIVITY_COLUMNS, empty_frame
from ledgerkit.types import Address

__all__ = [
    "ActivityWindow",
    "aaccount_activity",
    "account_activity",
    "activity_dataset",
    "activity_source",
    "ascan_activity",
    "read_activity",
    "scan_activity",
]

_log = logging.getLogger("ledgerkit.extract")

KIND: Final = "activity"
#: Most versions one call of :func:`account_activity` scans (a bound on the work it starts).
MAX_VERSIONS: Final = 1 << 40


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
    already is not fetched again; a dataset of a history that parted from the node's is
    dropped and extracted again), then read the rows of ``address``."""
    from ledgerkit.extract._entry import aextract

    try:
        await aextract("activity", node, dataset, start=start, stop=stop, options=options)
    except HistoryMismatchError as exc:
        _log.info("%s; scanned again", exc)
        _drop(Path(dataset))
        await aextract("activity", node, dataset, start=start, stop=stop, options=options)
    return read_activity(dataset, address, start=start, stop=stop)


def _drop(root: Path) -> None:
    """Remove an activity dataset of another history: its manifest first (so that an
    interruption leaves no manifest naming missing files), then its partitions."""
    (root / MANIFEST).unlink(missing_ok=True)
    shutil.rmtree(root / KIND, ignore_errors=True)


scan_activity = blocking_twin(
    ascan_activity,
    "scan_activity",
    """:func:`ascan_activity` from blocking code (inside a running loop too).""",
)


# -- an account's activity from a node ------------------------------------------------------


def activity_dataset(chain: ChainIdentity) -> Path:
    """Where a chain's activity dataset is kept unless told: the cache directory (see
    ``Client(cache=)``), ``activity/chain-<id>-<genesis>``."""
    genesis = (chain.genesis_hash or "unknown").removeprefix("0x")[:16]
    return default_cache_dir() / "activity" / f"chain-{chain.chain_id}-{genesis}"


def _version(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 64:
        raise InputError(f"{name} must be a version (an int >= 0) or None, got {value!r}")
    return value


class _Scan:
    """What one call of :func:`account_activity` asks, checked before anything is sent."""

    def __init__(
        self,
        address: str | Address,
        start_version: int | None = None,
        end_version: int | None = None,
        dataset: str | os.PathLike[str] | None = None,
        progress: bool | None = None,
    ) -> None:
        self.address = Address.parse(address).long if isinstance(address, str) else address.long
        after = _version(start_version, "start_version")
        self.after = after
        self.first = 0 if after is None else after + 1
        self.end = _version(end_version, "end_version")
        if dataset is not None and not isinstance(dataset, str | os.PathLike):
            raise InputError(f"dataset must be a path, got {type(dataset).__name__}")
        self.dataset = None if dataset is None else Path(dataset)
        if progress is not None and not isinstance(progress, bool):
            raise InputError(f"progress must be True, False or None, got {progress!r}")
        self.options = ExtractOptions(progress=progress)
        if self.end is not None:
            self.bound(self.end)

    def bound(self, end: int) -> bool:
        """Fix the last version; whether there is anything to scan."""
        if end < self.first - 1:
            raise InputError(f"end_version {end} is before start_version {self.after}")
        if end + 1 - self.first > MAX_VERSIONS:
            raise InputError(f"at most {MAX_VERSIONS} versions a call, got {end + 1 - self.first}")
        self.end = end
        return self.first <= end


def account_activity(
    client: Client | str | os.PathLike[str],
    address: str | Address,
    *,
    start_version: int | None = None,
    end_version: int | None = None,
    dataset: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Every transaction that touched an account after ``start_version``, up to and
    including ``end_version``: as sender, secondary signer or fee payer, as the recipient
    of a coin or fungible-asset deposit, or by a write set that changed its resources or
    stores. One row each (:data:`ledgerkit.frames.ACTIVITY_COLUMNS`): version, timestamp,
    hash, roles, function, success, the fee charged to the account and its exact net
    change per asset. The balance read at ``end_version`` is the balance at
    ``start_version`` plus the rows' changes. Also ``ledgerkit.account_activity``.

    The node API lists only what an account sent, so a node's range is scanned: extracted
    as an ``"activity"`` dataset (concurrent, resumable, with a progress bar), kept in
    ``dataset`` and read again by later calls, for this account or any other.

    Parameters
    ----------
    client : Client, or a path
        The node, or the directory of an ``"activity"`` dataset extracted before
        (``extract("activity", ...)``), read without a node; it must hold every version
        of the range.
    address : str or Address
        The account.
    start_version : int, optional
        The version after which to start (default: the first version, genesis included;
        for a dataset, the first it holds).
    end_version : int, optional
        The last version counted (default: the head, as the node says now; for a
        dataset, the last it holds).
    dataset : path, optional
        Where a node's scanned range is kept (default: :func:`activity_dataset`,
        ``activity/chain-<id>-<genesis>`` under the cache directory,
        ``$LEDGERKIT_CACHE_DIR`` or the user cache). A dataset of a history that parted
        from the node's (its manifest's history mark differs: another embedded node of
        the same seed) is dropped and the range scanned again.
    progress : bool, optional
        The scan's progress bar (default: when stderr is a terminal or in Jupyter).

    Returns
    -------
    pandas.DataFrame
        One row per transaction, in version order; ``roles`` says how the account took
        part (``sender``, ``secondary_signer``, ``fee_payer``, ``recipient``,
        ``write_set``), ``changes`` its net change per asset key as JSON of exact
        decimal text.

    Raises
    ------
    InputError
        A malformed address, version or path; ``end_version`` before ``start_version``;
        ``client`` an ``AsyncClient`` (use :func:`aaccount_activity`); a dataset that
        lacks versions of the range.
    RangeBeyondLedgerError
        ``end_version`` is past the head.

    Examples
    --------
    >>> ledgerkit.account_activity(client, "0xa11ce", start_version=1_000)  # doctest: +SKIP
    >>> ledgerkit.account_activity("data/activity", "0xa11ce")  # doctest: +SKIP
    """
    if isinstance(client, str | os.PathLike):
        if dataset is not None:
            raise InputError("dataset= is where a node's scan is kept; give the dataset alone")
        start = None if start_version is None else start_version + 1
        stop = None if end_version is None else end_version + 1
        return read_activity(client, address, start=start, stop=stop)
    if isinstance(client, AsyncClient):
        raise InputError(
            "account_activity takes a Client; with an AsyncClient use "
            "await ledgerkit.aaccount_activity(client, address, ...)"
        )
    if not isinstance(client, Client):
        raise InputError(
            "account_activity takes a Client or the path of an activity dataset, "
            f"got {type(client).__name__}"
        )
    scan = _Scan(address, start_version, end_version, dataset, progress)
    end = client.ledger_info().value.ledger_version if scan.end is None else scan.end
    if not scan.bound(end):
        return empty_frame(ACTIVITY_COLUMNS)
    where = scan.dataset or activity_dataset(client.chain_identity().value)
    return scan_activity(client, scan.address, scan.first, end + 1, where, options=scan.options)


class ActivityWindow(TypedDict, total=False):
    """The options of :func:`aaccount_activity`, as :func:`account_activity` takes them."""

    start_version: int | None
    end_version: int | None
    dataset: str | os.PathLike[str] | None
    progress: bool | None


async def aaccount_activity(
    client: AsyncClient, address: str | Address, **window: Unpack[ActivityWindow]
) -> pd.DataFrame:
    """:func:`account_activity` of an :class:`~ledgerkit.AsyncClient`'s node, awaited,
    with the same options (``start_version``, ``end_version``, ``dataset``,
    ``progress``). Also ``ledgerkit.aaccount_activity``.

    Examples
    --------
    >>> rows = await ledgerkit.aaccount_activity(aclient, "0xa11ce")  # doctest: +SKIP
    """
    if not isinstance(client, AsyncClient):
        raise InputError(
            f"aaccount_activity takes an AsyncClient, got {type(client).__name__}; "
            "with a Client or a dataset use account_activity"
        )
    scan = _Scan(address, **window)
    end = (await client.ledger_info()).value.ledger_version if scan.end is None else scan.end
    if not scan.bound(end):
        return empty_frame(ACTIVITY_COLUMNS)
    where = scan.dataset or activity_dataset((await client.chain_identity()).value)
    return await ascan_activity(
        client, scan.address, scan.first, end + 1, where, options=scan.options
    )
