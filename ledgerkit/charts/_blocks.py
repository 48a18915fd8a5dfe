"""Blocks: how full each block was (utilisation) and the time between blocks."""

from __future__ import annotations

from typing import Any, Final

import altair as alt
import numpy as np
import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit.charts._common import (
    WIDTH,
    Buckets,
    group_percentiles,
    group_sums,
    percent_text,
    require,
    seconds_text,
    time_x,
    title_params,
    u64_array,
)
from ledgerkit.frames import BOOL, TIMESTAMP, UINT64, empty_frame
from ledgerkit.types import U64_MAX

__all__ = [
    "BLOCK_GAS_LIMIT",
    "UTILISATION_COLUMNS",
    "block_times_chart",
    "block_utilisation",
    "blocks_with_members",
]

#: The block gas limit of ledgerkit's embedded node, in gas units of execution and IO (a
#: block's ``block_effective_block_gas_units``; storage fees do not count): a block ends
#: with the transaction that brings its gas to this. Charts take ``block_gas_limit=`` for
#: another network (its on-chain execution config sets its own).
BLOCK_GAS_LIMIT: Final = 3200

#: Columns of :func:`block_utilisation`.
UTILISATION_COLUMNS: Final = {
    "block_height": UINT64,
    "first_version": UINT64,
    "last_version": UINT64,
    "block_timestamp": TIMESTAMP,
    "user_transactions": UINT64,
    "gas_used": UINT64,
    "min_gas_unit_price": UINT64,
    "utilisation": np.dtype("float64"),
    "full": BOOL,
}

_STARTS: Final = ("block_metadata_transaction", "genesis_transaction")
# A block is known to be whole once its closing transaction is in the frame.
_ENDS: Final = ("block_epilogue_transaction", "state_checkpoint_transaction")


def _check_limit(block_gas_limit: int) -> int:
    if isinstance(block_gas_limit, bool) or not isinstance(block_gas_limit, int):
        raise InputError(f"block_gas_limit must be an int, not {block_gas_limit!r}")
    if not 0 < block_gas_limit <= U64_MAX:
        raise InputError(f"block_gas_limit must be a positive u64, not {block_gas_limit}")
    return block_gas_limit


def _versions(frame: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray[Any, np.dtype[np.uint64]]]:
    known = frame[frame["version"].notna().to_numpy(bool)]
    versions = u64_array(known["version"])
    order = np.argsort(versions, kind="stable")
    return known.iloc[order], versions[order]


def _counted_heights(
    versions: np.ndarray[Any, np.dtype[np.uint64]],
    start_rows: np.ndarray[Any, np.dtype[np.intp]],
    kinds: np.ndarray[Any, Any],
) -> Any:
    """Block heights counted from the genesis (height 0), each block metadata transaction
    opening the next: known when the frame holds the genesis and every version from it up
    to its last block's start, missing (``<NA>``) otherwise."""
    count = len(start_rows)
    if not count or kinds[start_rows[0]] != "genesis_transaction" or versions[0] != 0:
        return pd.array([None] * count, dtype=UINT64)
    through = int(start_rows[-1]) + 1
    if int(versions[through - 1]) != through - 1:  # a version is missing before the last start
        return pd.array([None] * count, dtype=UINT64)
    return pd.array(np.arange(count, dtype=np.uint64), dtype=UINT64)


def blocks_with_members(
    transactions: Any, blocks: Any, block_gas_limit: int
) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray[Any, np.dtype[np.int64]], list[int]]:
    """The :func:`block_utilisation` table, the user transactions, the row of the table
    each user transaction belongs to (-1 for a block the table leaves out), and each
    row's gas as the limit counts it (its effective gas when known, else ``gas_used``)."""
    limit = _check_limit(block_gas_limit)
    frame = require(
        transactions,
        ("version", "type", "timestamp", "gas_used", "gas_unit_price"),
        what="a transactions frame",
        converter="frames.transactions_to_frame",
    )
    frame, versions = _versions(frame)
    kinds = frame["type"].astype("string").fillna("").to_numpy(dtype=object)
    user = kinds == "user_transaction"
    effective: list[Any] | None = None
    if blocks is None:
        starts = np.isin(kinds, _STARTS)
        member = np.cumsum(starts) - 1  # -1: a block that began before the frame
        count = int(starts.sum())
        start_rows = np.flatnonzero(starts)
        # Whole: the next block starts within the frame, or its closing transaction is in.
        keep = np.zeros(count, dtype=bool)
        keep[: max(count - 1, 0)] = True
        closing = np.isin(kinds, _ENDS) & (member >= 0)
        keep[member[closing]] = True
        height = _counted_heights(versions, start_rows, kinds)
        first = versions[start_rows]
        last = versions[np.append(start_rows[1:] - 1, len(versions) - 1)[:count]]
        stamps = frame["timestamp"].array[start_rows]
    else:
        table = require(
            blocks,
            ("block_height", "block_timestamp", "first_version", "last_version"),
            what="a blocks frame",
            converter="frames.blocks_to_frame",
        )
        table = table[table["first_version"].notna().to_numpy(bool)]
        table = table.iloc[np.argsort(u64_array(table["first_version"]), kind="stable")]
        first = u64_array(table["first_version"])
        last = u64_array(table["last_version"])
        # Only blocks whose every transaction is in the frame have a known gas.
        keep = (
            (first >= versions[0]) & (last <= versions[-1])
            if len(versions)
            else np.zeros(len(first), dtype=bool)
        )
        count = len(table)
        if "block_effective_block_gas_units" in table:
            effective = list(table["block_effective_block_gas_units"].astype(object))
        height = pd.array(table["block_height"], dtype=UINT64)
        stamps = table["block_timestamp"].array
        member = np.searchsorted(first, versions, side="right").astype(np.int64) - 1
        member[(member >= 0) & (versions > last[np.maximum(member, 0)])] = -1
    user_frame = frame[user]
    user_member = member[user].astype(np.int64)
    if count:
        user_member[~keep[np.maximum(user_member, 0)]] = -1
    codes = np.where(user_member >= 0, user_member, count)  # ``count``: in no kept block
    gas = group_sums(codes, u64_array(user_frame["gas_used"]), count + 1)[:count]
    priced = user_frame["gas_unit_price"].notna().to_numpy(bool)
    prices = u64_array(user_frame["gas_unit_price"][priced])
    lowest = group_percentiles(codes[priced], prices, count + 1, (0,))[0][:count]
    users = np.bincount(codes, minlength=count + 1)[:count]
    if any(g > U64_MAX for g in gas):
        raise OverflowError("a block's gas used does not fit in a u64")
    # What the limit counts: the block's own effective gas where the blocks frame has it
    # (execution and IO), else the gas its transactions used.
    measured = [
        int(e) if effective is not None and not pd.isna(e) else int(g)
        for g, e in zip(gas, effective if effective is not None else [None] * count, strict=True)
    ]
    out = pd.DataFrame(
        {
            "block_height": height,
            "first_version": pd.array(first, dtype=UINT64),
            "last_version": pd.array(last, dtype=UINT64),
            "block_timestamp": pd.array(stamps, dtype=TIMESTAMP),
            "user_transactions": pd.array(users, dtype=UINT64),
            "gas_used": pd.array(np.array(gas, dtype=np.uint64), dtype=UINT64),
            "min_gas_unit_price": pd.array(lowest, dtype=UINT64),
            "utilisation": np.array([g / limit for g in measured], dtype=np.float64),
            "full": pd.array([g >= limit for g in measured], dtype=BOOL),
        }
    )
    # Renumber the members to the rows that remain.
    if count:
        renumber = np.cumsum(keep) - 1
        user_member = np.where(user_member >= 0, renumber[np.maximum(user_member, 0)], -1)
    out = out[keep].reset_index(drop=True)
    kept = [m for m, k in zip(measured, keep.tolist(), strict=True) if k]
    if not len(out):
        out = empty_frame(UTILISATION_COLUMNS)
    return out, user_frame, user_member.astype(np.int64), kept


def block_utilisation(
    transactions: pd.DataFrame,
    *,
    blocks: pd.DataFrame | None = None,
    block_gas_limit: int = BLOCK_GAS_LIMIT,
) -> pd.DataFrame:
    """How full each block was: its gas used against the block gas limit.

    Parameters
    ----------
    transactions : DataFrame
        A transactions frame (``frames.transactions_to_frame``) holding every transaction
        of the blocks to measure.
    blocks : DataFrame, optional
        A blocks frame (``frames.blocks_to_frame``). Given, its blocks whose versions the
        transactions frame covers are measured, with their heights and times. Without it
        blocks are read from the transactions: each starts at a block-metadata (or the
        genesis) transaction; rows before the first start belong to an earlier block and
        are left out, as is a last block whose closing (epilogue) transaction is missing.
        Transactions do not say their block's height, so it is counted: the genesis is
        height 0 and each block-metadata transaction opens the next height. That needs
        the frame to start at the genesis with no version missing up to its last block;
        a frame from later on (or with gaps) leaves ``block_height`` missing, and
        ``blocks=`` gives the heights.
    block_gas_limit : int
        Gas units a block may use (default :data:`BLOCK_GAS_LIMIT`, the embedded node's).

    Returns
    -------
    DataFrame
        One row per block, the columns of :data:`UTILISATION_COLUMNS`: ``gas_used`` is
        the exact sum of its user transactions' gas (``UInt64``); ``utilisation`` is the
        block's gas over ``block_gas_limit`` (a float; it passes 1 when the last
        transaction in crosses the limit) and ``full`` whether it reached it, the
        block's gas being what the limit counts, its ``block_effective_block_gas_units``
        (execution and IO gas), when ``blocks`` holds it, else ``gas_used`` (which also
        counts storage fees, so it overstates a block's fill where they are large);
        ``block_height`` is counted from the genesis without ``blocks`` (see above).
    """
    table, _, _, _ = blocks_with_members(transactions, blocks, block_gas_limit)
    return table


# -- time between blocks ------------------------------------------------------------------------


def _edges() -> list[int]:
    """Histogram edges in microseconds: 1, 2, 5, 10, 20, 50... as far as ``int64`` goes."""
    edges, scale = [], 1
    while 5 * scale < 1 << 63:
        edges += [scale, 2 * scale, 5 * scale]
        scale *= 10
    return edges


_EDGES: Final = _edges()


def _edge(usec: int) -> str:
    """A bin edge (1, 2 or 5 times a power of ten microseconds) in µs, ms or s."""
    if usec < 1000:
        return f"{usec} µs"
    if usec < 1_000_000:
        return f"{usec // 1000} ms"
    return f"{usec // 1_000_000:,} s"


def _duration(usec: int | None) -> str:
    """A duration to three significant digits, in the unit that reads best."""
    if usec is None:
        return "-"
    for unit, size in (("h", 3_600_000_000), ("min", 60_000_000), ("s", 1_000_000), ("ms", 1000)):
        if usec >= size:
            return f"{usec / size:.3g} {unit}"
    return f"{usec} µs"


def block_intervals(blocks: Any) -> pd.DataFrame:
    """Time from each block to the next (consecutive heights only): ``time`` (of the
    later block) and ``interval_usec`` (exact ``int64`` microseconds)."""
    table = require(
        blocks,
        ("block_height", "block_timestamp"),
        what="a blocks frame",
        converter="frames.blocks_to_frame",
    )
    table = table[(table["block_height"].notna() & table["block_timestamp"].notna()).to_numpy(bool)]
    heights = u64_array(table["block_height"])
    order = np.argsort(heights, kind="stable")
    heights = heights[order]
    stamps = table["block_timestamp"].astype(TIMESTAMP)
    times = stamps.astype("int64").to_numpy()[order]
    consecutive = np.diff(heights) == 1
    return pd.DataFrame(
        {
            "time": stamps.iloc[order].iloc[1:][consecutive].reset_index(drop=True),
            "interval_usec": np.diff(times)[consecutive],
        }
    )


def _interval_histogram(usec: np.ndarray[Any, np.dtype[np.int64]]) -> pd.DataFrame:
    """Intervals counted in the log-spaced bins of :data:`_EDGES`, the bins with any."""
    edges = np.array(_EDGES, dtype=np.int64)
    bins = np.clip(np.searchsorted(edges, usec, side="right") - 1, 0, len(edges) - 2)
    counts = np.bincount(bins, minlength=len(edges))
    total = len(usec)
    present = np.flatnonzero(counts)
    return pd.DataFrame(
        {
            "low_seconds": [int(edges[i]) / 1e6 for i in present],
            "high_seconds": [int(edges[i + 1]) / 1e6 for i in present],
            "blocks": [int(counts[i]) for i in present],
            "bin_text": [f"{_edge(int(edges[i]))} to {_edge(int(edges[i + 1]))}" for i in present],
            "share_text": [percent_text(int(counts[i]) / total) for i in present],
        }
    )


def _intervals_per_bucket(
    intervals: pd.DataFrame, usec: np.ndarray[Any, np.dtype[np.int64]], freq: str | None
) -> tuple[pd.DataFrame, str]:
    """The median and longest interval of each time bucket, and the buckets' width."""
    buckets = Buckets([intervals["time"]], freq)
    codes = buckets.codes(intervals["time"])
    stats = group_percentiles(codes, usec.astype(np.uint64), buckets.count, (50, 100))
    per = buckets.frame()
    per["intervals"] = np.bincount(codes, minlength=buckets.count)[: buckets.count]
    for p, name in ((50, "median"), (100, "longest")):
        per[f"{name}_seconds"] = [np.nan if v is None else v / 1e6 for v in stats[p]]
        per[f"{name}_text"] = ["-" if v is None else seconds_text(v) for v in stats[p]]
    return per.drop(columns=["time_end"]), buckets.freq


def _intervals_summary(usec: np.ndarray[Any, np.dtype[np.int64]]) -> str:
    """The count, median, 90th percentile and longest of all the intervals."""
    total = len(usec)
    overall = group_percentiles(np.zeros(total, np.int64), usec.astype(np.uint64), 1, (50, 90, 100))
    return (
        f"{total:,} intervals: median {_duration(overall[50][0])}, 90th percentile "
        f"{_duration(overall[90][0])}, longest {_duration(overall[100][0])}"
        if total
        else "no consecutive blocks"
    )


def _histogram_panel(histogram: pd.DataFrame, log_seconds: alt.Scale) -> alt.Chart:
    """The upper panel: blocks per interval bin, on a log axis of seconds."""
    panel: alt.Chart = (
        alt.Chart(histogram)
        .mark_bar(color="#4c78a8", binSpacing=1)
        .encode(
            x=alt.X(
                "low_seconds:Q",
                title="time to the next block (seconds, log scale)",
                scale=log_seconds,
            ),
            x2="high_seconds:Q",
            y=alt.Y("blocks:Q", title="blocks"),
            y2=alt.datum(0),
            tooltip=[
                alt.Tooltip("bin_text:N", title="interval"),
                alt.Tooltip("blocks:Q", title="blocks", format=","),
                alt.Tooltip("share_text:N", title="share"),
            ],
        )
        .properties(width=WIDTH, height=160)
    )
    return panel


def _over_time_panel(
    per: pd.DataFrame, freq: str, log_seconds: alt.Scale
) -> alt.LayerChart | alt.FacetChart:
    """The lower panel: each bucket's median (dots) and longest (ticks) interval."""
    base = alt.Chart(per).encode(x=time_x())
    tooltip = [
        alt.Tooltip("time_text:N", title="bucket"),
        alt.Tooltip("intervals:Q", title="intervals", format=","),
        alt.Tooltip("median_text:N", title="median"),
        alt.Tooltip("longest_text:N", title="longest"),
    ]
    median = base.mark_point(filled=True, size=24, color="#4c78a8").encode(
        y=alt.Y("median_seconds:Q", title="seconds (log scale)", scale=log_seconds), tooltip=tooltip
    )
    longest = base.mark_tick(color="#e45756", thickness=2).encode(
        y=alt.Y("longest_seconds:Q", scale=log_seconds), tooltip=tooltip
    )
    return alt.layer(median, longest).properties(
        width=WIDTH,
        height=140,
        title=title_params(
            f"per {freq}: median (dots) and longest (ticks) time to the next block",
            fontSize=11,
        ),
    )


def block_times_chart(
    blocks: pd.DataFrame, *, freq: str | None = None, title: str = "Time between blocks"
) -> alt.VConcatChart:
    """The time from each block to the next: a histogram on log-spaced bins, and the
    median and longest interval per time bucket.

    Parameters
    ----------
    blocks : DataFrame
        A blocks frame (``frames.blocks_to_frame``); only consecutive heights count.
    freq : str, optional
        Bucket width of the lower panel (``"15min"``); by default chosen from the span
        (see :func:`bucket_freq`).

    Notes
    -----
    Bins double or two-and-a-half their width (1, 2, 5, 10... µs) so that half-second
    blocks and hour-long gaps (the embedded node samples a day in runs of consecutive
    blocks) both show. Tooltips give exact durations.
    """
    intervals = block_intervals(blocks)
    usec = intervals["interval_usec"].to_numpy(dtype=np.int64)
    per, width = _intervals_per_bucket(intervals, usec, freq)
    log_seconds = alt.Scale(type="log")
    chart: alt.VConcatChart = alt.vconcat(
        _histogram_panel(_interval_histogram(usec), log_seconds),
        _over_time_panel(per, width, log_seconds),
    ).properties(title=title_params(title, subtitle=_intervals_summary(usec)))
    return chart
