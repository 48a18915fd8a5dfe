"""An account's activity over a range of versions, as a flow of both clients. No I/O here.

The node API lists only what an account sent; what it received, paid as fee payer or had
written to its stores shows only in other transactions, so the range is scanned. The
scan is a step of its own (:class:`ActivityScan`): the client that runs the flow hands
it to :mod:`ledgerkit.extract` (loaded when first used: it sits on top of the client),
which extracts the range as an ``"activity"`` dataset (concurrent, resumable, with a
progress bar, kept on disk) and reads the account's rows from it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledgerkit._errors import InputError
from ledgerkit.client import calls
from ledgerkit.client._cache import default_cache_dir
from ledgerkit.client._driver import Flow, send, step
from ledgerkit.types import Address

if TYPE_CHECKING:
    import pandas as pd

    from ledgerkit.client._cache import ChainIdentity

__all__ = ["ActivityScan", "activity", "activity_dataset"]

#: Most versions one call scans (a bound on the work one call may start).
MAX_VERSIONS = 1 << 40


@dataclass(frozen=True, slots=True)
class ActivityScan:
    """A step: the rows of ``address`` over versions ``[start, stop)`` (see the module)."""

    address: str
    start: int
    stop: int
    dataset: Path | None
    progress: bool | None


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


def activity(
    address: str | Address,
    start_version: int | None,
    end_version: int | None,
    dataset: str | os.PathLike[str] | None,
    progress: bool | None,
) -> Flow[pd.DataFrame]:
    """The flow of ``account_activity``: the head when no end is given, then the scan."""
    long = Address.parse(address).long if isinstance(address, str) else address.long
    after = _version(start_version, "start_version")
    end = _version(end_version, "end_version")
    if dataset is not None and not isinstance(dataset, str | os.PathLike):
        raise InputError(f"dataset must be a path, got {type(dataset).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise InputError(f"progress must be True, False or None, got {progress!r}")
    if end is None:
        end = (yield from send(calls.ledger_info())).value.ledger_version
    first = 0 if after is None else after + 1
    if end < first - 1:
        raise InputError(f"end_version {end} is before start_version {after}")
    if end + 1 - first > MAX_VERSIONS:
        raise InputError(f"at most {MAX_VERSIONS} versions a call, got {end + 1 - first}")
    if first > end:
        from ledgerkit.frames import ACTIVITY_COLUMNS, empty_frame

        return empty_frame(ACTIVITY_COLUMNS)
    where = None if dataset is None else Path(dataset)
    rows: pd.DataFrame = yield from step(ActivityScan(long, first, end + 1, where, progress))
    return rows
