"""What every chart shares: input checks, time buckets, exact per-group statistics, and
the text of tooltips.

Charts aggregate in pandas before anything reaches Altair, so the data a chart carries
has one row per time bucket, block-utilisation bin or ranked group, whatever the size of
the frame. Statistics are computed on the frames' exact integers (``UInt64``); they
become floats only in the chart's own data, beside exact decimal text for the tooltips.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Final

import altair as alt
import numpy as np
import pandas as pd

from ledgerkit._errors import InputError

__all__ = [
    "BUCKET_LADDER",
    "MAX_BUCKETS",
    "TARGET_BUCKETS",
    "WIDTH",
    "Buckets",
    "bucket_freq",
    "group_percentiles",
    "group_sums",
    "int_text",
    "percent_text",
    "require",
    "seconds_text",
    "short_address",
    "stack",
    "time_text",
    "time_x",
    "title_params",
    "u64_array",
    "user_transactions",
]

#: Bucket widths, finest first, then multiples of seven days. Consecutive steps differ
#: by at most 2.5 times, so any span over two minutes gets between 47 and 120 buckets.
BUCKET_LADDER: Final = (
    "1s", "2s", "5s", "10s", "15s", "30s",
    "1min", "2min", "5min", "10min", "15min", "30min",
    "1h", "2h", "3h", "6h", "12h", "1D", "2D", "3D", "7D",
)  # fmt: skip
#: Most buckets a chosen width gives.
TARGET_BUCKETS: Final = 120
#: Most buckets a chart accepts when the width is given: beyond this the chart would
#: ship more rows than a browser draws well, and the caller should pick a wider one.
MAX_BUCKETS: Final = 2000
#: Width of a chart's panels, in pixels.
WIDTH: Final = 620

_TRANSACTION_COLUMNS: Final = ("timestamp", "type", "gas_used", "gas_unit_price")


def require(frame: Any, columns: Iterable[str], *, what: str, converter: str) -> pd.DataFrame:
    """``frame`` itself when it is a DataFrame with ``columns``, else an ``InputError``."""
    if not isinstance(frame, pd.DataFrame):
        raise InputError(
            f"expected {what} (a DataFrame from {converter}), got {type(frame).__name__}"
        )
    missing = [name for name in columns if name not in frame.columns]
    if missing:
        raise InputError(f"the frame lacks {missing}; pass the output of {converter}")
    return frame


def user_transactions(transactions: Any, *extra: str) -> pd.DataFrame:
    """The user transactions of a transactions frame that have a time."""
    frame = require(
        transactions,
        (*_TRANSACTION_COLUMNS, *extra),
        what="a transactions frame",
        converter="frames.transactions_to_frame",
    )
    user = (frame["type"].astype("string") == "user_transaction").fillna(False).to_numpy(bool)
    user &= frame["timestamp"].notna().to_numpy(bool)
    return frame[user]


def u64_array(series: pd.Series) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """The values of a u64 column with no missing values, as ``uint64`` (exact)."""
    values = pd.array(series, dtype="UInt64")
    return np.asarray(values.to_numpy(dtype=np.uint64, na_value=0), dtype=np.uint64)


# -- time buckets ---------------------------------------------------------------------------


def _timestamp(value: Any) -> pd.Timestamp:
    stamp = pd.Timestamp(value)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def _count(start: pd.Timestamp, end: pd.Timestamp, width: pd.Timedelta) -> int:
    first, last = start.floor(width), end.floor(width)
    return int((last - first) // width) + 1


def bucket_freq(start: Any, end: Any) -> str:
    """The bucket width for times from ``start`` to ``end``: the finest step of
    :data:`BUCKET_LADDER` that gives at most 120 buckets, counting whole buckets aligned
    on multiples of the width (as ``Series.dt.floor`` aligns them).

    Examples
    --------
    >>> bucket_freq("2025-06-01T00:00Z", "2025-06-01T23:59Z")
    '15min'
    >>> bucket_freq("2025-06-01T00:00Z", "2025-06-01T00:01:30Z")
    '1s'
    """
    first, last = _timestamp(start), _timestamp(end)
    if last < first:
        first, last = last, first
    for step in BUCKET_LADDER:
        if _count(first, last, pd.Timedelta(step)) <= TARGET_BUCKETS:
            return step
    weeks = math.ceil((last - first) / pd.Timedelta("7D") / (TARGET_BUCKETS - 1))
    while _count(first, last, pd.Timedelta(f"{7 * weeks}D")) > TARGET_BUCKETS:
        weeks += 1
    return f"{7 * weeks}D"


class Buckets:
    """The time buckets of a chart: every bucket from the first time to the last, empty
    ones included (a line breaks there instead of bridging the gap)."""

    def __init__(self, times: Sequence[pd.Series], freq: str | None) -> None:
        known = [t.dropna() for t in times]
        known = [t for t in known if len(t)]
        if freq is None:
            freq = (
                bucket_freq(min(t.min() for t in known), max(t.max() for t in known))
                if known
                else BUCKET_LADDER[0]
            )
        try:
            width = pd.Timedelta(freq)
        except (ValueError, TypeError) as exc:
            raise InputError(
                f"freq must be a fixed pandas frequency such as '30s', '15min' or '1h', "
                f"not {freq!r}"
            ) from exc
        if width <= pd.Timedelta(0):
            raise InputError(f"freq must be a positive width, not {freq!r}")
        self.freq = freq
        self.width = width
        if known:
            self.first = min(t.min() for t in known).floor(width)
            last = max(t.max() for t in known).floor(width)
            count = (last - self.first) // width + 1
        else:
            self.first = pd.Timestamp(0, tz="UTC")
            count = 0
        if count > MAX_BUCKETS:
            chosen = bucket_freq(self.first, last)
            raise InputError(
                f"freq={freq!r} gives {count} buckets (at most {MAX_BUCKETS}); pick a wider "
                f"one, or leave freq out to have it chosen from the span ({chosen!r})"
            )
        self.count = int(count)

    def codes(self, times: pd.Series) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The bucket of each time (0 for the first bucket)."""
        offsets = (times.dt.floor(self.width) - self.first) // self.width
        return np.asarray(offsets.to_numpy(dtype=np.int64), dtype=np.int64)

    def frame(self) -> pd.DataFrame:
        """One row per bucket: ``time`` (start), ``time_end`` and ``time_text`` (the
        bucket in words, UTC)."""
        starts = pd.date_range(self.first, periods=self.count, freq=self.width, unit="us")
        ends = starts + self.width
        return pd.DataFrame(
            {
                "time": starts,
                "time_end": ends,
                "time_text": [
                    f"{time_text(a)} to {time_text(b)}" for a, b in zip(starts, ends, strict=True)
                ],
            }
        )


def time_text(value: Any) -> str:
    """A time in UTC to the second, or to the microsecond when it has them."""
    stamp = _timestamp(value)
    text = str(stamp.strftime("%Y-%m-%d %H:%M:%S"))
    if stamp.microsecond:
        text += f".{stamp.microsecond:06d}"
    return text + " UTC"


def time_x(title: str = "block time (UTC)") -> alt.X:
    """The time axis every chart shares (field ``time``): a UTC scale, so it reads the
    same in every time zone."""
    return alt.X("time:T", title=title, scale=alt.Scale(type="utc"))


def title_params(text: str, subtitle: str | None = None, **options: Any) -> alt.TitleParams:
    """A chart's title, set flush left as every chart here sets it."""
    if subtitle is not None:
        options["subtitle"] = subtitle
    return alt.TitleParams(text, anchor="start", **options)


def stack(frame: pd.DataFrame, value: str, order: str) -> pd.DataFrame:
    """``frame`` with ``stack_low`` and ``stack_high``: ``value`` stacked per bucket
    (``time``) in ``order``, computed here so the chart draws plain rectangles."""
    out = frame.sort_values(["time", order], kind="stable", ignore_index=True)
    high = out.groupby("time", sort=False)[value].cumsum()
    out["stack_high"] = high.astype("int64")
    out["stack_low"] = (high - out[value]).astype("int64")
    return out


# -- exact statistics per group ------------------------------------------------------------

# A float sum at or above this means the uint64 sum of the group may have wrapped.
_WRAP_GUARD: Final = float(1 << 63)


def group_percentiles(
    codes: np.ndarray[Any, Any],
    values: np.ndarray[Any, np.dtype[np.uint64]],
    groups: int,
    percents: Sequence[int],
) -> dict[int, list[int | None]]:
    """Nearest-rank percentiles of ``values`` per group: the ``p``-th is the smallest
    value that at least ``p`` per cent of the group's values do not exceed (the
    ``ceil(p * n / 100)``-th smallest), so it is always a value that occurred, exact.
    ``None`` for an empty group; ``p=100`` is the maximum."""
    order = np.lexsort((values, codes))
    ordered = values[order]
    sizes = np.bincount(codes, minlength=groups)[:groups].astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    out: dict[int, list[int | None]] = {}
    for p in percents:
        rank = np.maximum((p * sizes + 99) // 100, 1)
        at = np.minimum(starts + rank - 1, max(len(ordered) - 1, 0))
        picked = ordered[at] if len(ordered) else np.zeros(groups, dtype=np.uint64)
        out[p] = [
            int(v) if n else None for v, n in zip(picked.tolist(), sizes.tolist(), strict=True)
        ]
    return out


def group_sums(
    codes: np.ndarray[Any, Any], values: np.ndarray[Any, np.dtype[np.uint64]], groups: int
) -> list[int]:
    """The exact sum of ``values`` per group, as Python ints (no wrap, no float)."""
    if not len(values):
        return [0] * groups
    order = np.argsort(codes, kind="stable")
    ordered = values[order]
    sizes = np.bincount(codes, minlength=groups)[:groups].astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    filled = sizes > 0
    sums = np.zeros(groups, dtype=np.uint64)
    sums[filled] = np.add.reduceat(ordered, starts[filled])  # may wrap; checked below
    approx = np.bincount(codes, weights=values.astype(np.float64), minlength=groups)[:groups]
    out = [int(v) for v in sums.tolist()]
    for group in np.flatnonzero(approx >= _WRAP_GUARD).tolist():
        start, size = int(starts[group]), int(sizes[group])
        out[group] = sum(int(v) for v in ordered[start : start + size].tolist())
    return out


# -- text -------------------------------------------------------------------------------------


def int_text(value: int | None, unit: str = "") -> str:
    """An exact integer with thousands separators (``"-"`` for none)."""
    if value is None:
        return "-"
    return f"{value:,}{' ' + unit if unit else ''}"


def percent_text(value: float | None) -> str:
    """A fraction as a percentage to one decimal (``"-"`` for none)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{100 * value:.1f}%"


def short_address(value: str) -> str:
    """``0x`` + 64 hex digits shortened to ``0x1234…cdef``; short forms are kept."""
    if value.startswith("0x") and len(value) > 14:
        return f"{value[:6]}…{value[-4:]}"
    return value


def seconds_text(usec: int) -> str:
    """A duration in microseconds, exactly, in seconds."""
    whole, rest = divmod(usec, 1_000_000)
    return f"{whole}.{rest:06d} s"
