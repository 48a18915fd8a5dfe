"""Activity: user transactions over time by outcome, and by entry function or sender."""

from __future__ import annotations

from typing import Any, Final, Literal

import altair as alt
import numpy as np
import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit.charts._common import (
    WIDTH,
    Buckets,
    group_sums,
    int_text,
    percent_text,
    short_address,
    stack,
    time_x,
    title_params,
    u64_array,
    user_transactions,
)

__all__ = ["activity_chart"]

OTHER: Final = "other"
_NONE: Final = "(no entry function)"
_OUTCOMES: Final = ["succeeded", "failed"]
# Ten distinct hues, then ten lighter ones; "other" is always grey.
_PALETTE: Final = (
    "#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b",
    "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#17becf",
    "#9ecae9", "#ffbf79", "#ff9d98", "#88d27a", "#83bcb6",
    "#f2cf5b", "#d6a5c9", "#fcbfd2", "#d8b5a5", "#9edae5",
)  # fmt: skip
_GREY: Final = "#bab0ac"
MAX_TOP: Final = len(_PALETTE)
#: Widest label of a group, in pixels (the full name is in the tooltips).
_LABELS: Final = 220


def _outcomes(user: pd.DataFrame, buckets: Buckets) -> pd.DataFrame:
    if "success" in user.columns:
        failed = (user["success"] == False).fillna(False).to_numpy(bool)  # noqa: E712
    else:
        failed = np.zeros(len(user), dtype=bool)
    codes = buckets.codes(user["timestamp"])
    frame = buckets.frame()
    parts = []
    for outcome, mask in (("succeeded", ~failed), ("failed", failed)):
        counts = np.bincount(codes[mask], minlength=buckets.count)[: buckets.count]
        part = frame.assign(outcome=outcome, transactions=counts)
        parts.append(part[part["transactions"] > 0])
    out = pd.concat(parts, ignore_index=True)
    out["order"] = (out["outcome"] == "failed").astype("int64")
    return stack(out, "transactions", "order")


def _stacked_over_time(data: pd.DataFrame, color: alt.Color, part: alt.Tooltip) -> alt.Chart:
    """User transactions per bucket as stacked rectangles (``stack`` placed them), one
    colour per part; the tooltip names the bucket, the ``part`` and its count."""
    chart: alt.Chart = (
        alt.Chart(data)
        .mark_rect()
        .encode(
            x=time_x(),
            x2="time_end:T",
            y=alt.Y("stack_high:Q", title="user transactions"),
            y2="stack_low:Q",
            color=color,
            tooltip=[
                alt.Tooltip("time_text:N", title="bucket"),
                part,
                alt.Tooltip("transactions:Q", title="user transactions", format=","),
            ],
        )
    )
    return chart


def _outcome_chart(user: pd.DataFrame, buckets: Buckets, title: str) -> alt.Chart:
    color = alt.Color(
        "outcome:N",
        scale=alt.Scale(domain=_OUTCOMES, range=["#4c78a8", "#e45756"]),
        legend=alt.Legend(orient="top", title=None),
    )
    chart: alt.Chart = _stacked_over_time(
        _outcomes(user, buckets), color, alt.Tooltip("outcome:N")
    ).properties(
        title=title_params(title, subtitle=f"per {buckets.freq} bucket"),
        width=WIDTH,
        height=200,
    )
    return chart


def _labels(names: list[str], by: str) -> list[str]:
    """Short axis labels: long addresses as ``0x1234…cdef`` (full ones if two collide)."""
    if by == "sender":
        short = [short_address(n) for n in names]
    else:
        short = []
        for name in names:
            address, sep, rest = name.partition("::")
            short.append(f"{short_address(address)}{sep}{rest}" if sep else name)
    return short if len(set(short)) == len(short) else names


def _ranked(user: pd.DataFrame, by: str, top: int) -> tuple[pd.DataFrame, np.ndarray[Any, Any]]:
    names = user[by].astype("string").fillna(_NONE if by == "function" else "(none)")
    keys, codes = np.unique(names.to_numpy(dtype=object).astype(str), return_inverse=True)
    groups = len(keys)
    counts = np.bincount(codes, minlength=groups)
    gas = group_sums(codes, u64_array(user["gas_used"].fillna(0)), groups)
    if "success" in user.columns:
        failed_mask = (user["success"] == False).fillna(False).to_numpy(bool)  # noqa: E712
    else:
        failed_mask = np.zeros(len(user), dtype=bool)
    failed = np.bincount(codes[failed_mask], minlength=groups)
    # Most transactions first, then most gas, then by name: a stable, total order.
    order = sorted(range(groups), key=lambda g: (-int(counts[g]), -gas[g], str(keys[g])))
    kept = order[:top]
    rest = order[top:]
    rank = np.full(groups, len(kept), dtype=np.int64)
    rank[kept] = np.arange(len(kept))
    names_kept = [str(keys[g]) for g in kept]
    labels = _labels(names_kept, by)
    transactions = [int(counts[g]) for g in kept]
    gas_used = [gas[g] for g in kept]
    failures = [int(failed[g]) for g in kept]
    members = [1] * len(kept)
    if rest:
        names_kept.append(OTHER)
        labels.append(OTHER)
        transactions.append(sum(int(counts[g]) for g in rest))
        gas_used.append(sum(gas[g] for g in rest))
        failures.append(sum(int(failed[g]) for g in rest))
        members.append(len(rest))
    total = len(user)
    ranked = pd.DataFrame(
        {
            "group": names_kept,
            "label": labels,
            "transactions": transactions,
            "gas_used": [float(g) for g in gas_used],
            "gas_used_text": [int_text(g, "gas units") for g in gas_used],
            "failed": failures,
            "share_text": [percent_text(n / total) for n in transactions],
            "members_text": ["1" if k == 1 else f"{k:,} {by}s" for k in members],
        }
    )
    return ranked, rank[codes]


def _group_chart(
    user: pd.DataFrame, buckets: Buckets, by: str, top: int, title: str
) -> alt.VConcatChart:
    ranked, rank = _ranked(user, by, top)
    labels = ranked["label"].tolist()
    colors = [*_PALETTE[: len(labels) - (OTHER in labels)], *([_GREY] if OTHER in labels else [])]
    color = alt.Color(
        "label:N",
        title=by,
        scale=alt.Scale(domain=labels, range=colors),
        # Beneath the panels, in columns: at its right the legend would widen the chart
        # past a laptop's notebook, where it is cut.
        legend=alt.Legend(orient="bottom", direction="vertical", columns=3, labelLimit=_LABELS),
    )
    tooltip = [
        alt.Tooltip("group:N", title=by),
        alt.Tooltip("members_text:N", title="of"),
        alt.Tooltip("transactions:Q", title="user transactions", format=","),
        alt.Tooltip("share_text:N", title="share"),
        alt.Tooltip("failed:Q", title="failed", format=","),
        alt.Tooltip("gas_used_text:N", title="gas used"),
    ]
    y = alt.Y("label:N", title=None, sort=labels, axis=alt.Axis(labelLimit=_LABELS))
    half = (WIDTH - 40) // 2
    count_bars = (
        alt.Chart(ranked)
        .mark_bar()
        .encode(
            x=alt.X("transactions:Q", title="user transactions"),
            y=y,
            color=color,
            tooltip=tooltip,
        )
        .properties(width=half, height=alt.Step(16))
    )
    gas_bars = (
        alt.Chart(ranked)
        .mark_bar()
        .encode(
            x=alt.X("gas_used:Q", title="gas used (gas units)"),
            y=alt.Y("label:N", sort=labels, axis=None),
            color=color,
            tooltip=tooltip,
        )
        .properties(width=half, height=alt.Step(16))
    )
    codes = buckets.codes(user["timestamp"])
    groups = len(labels)
    per = np.bincount(codes * groups + rank, minlength=buckets.count * groups)
    present = np.flatnonzero(per)
    frame = buckets.frame()
    over_time = pd.DataFrame(
        {
            "time": frame["time"].to_numpy()[present // groups],
            "time_end": frame["time_end"].to_numpy()[present // groups],
            "time_text": frame["time_text"].to_numpy()[present // groups],
            "label": [labels[int(k) % groups] for k in present],
            "group": [ranked["group"].iat[int(k) % groups] for k in present],
            "order": [int(k) % groups for k in present],
            "transactions": per[present],
        }
    )
    if len(over_time):
        over_time["time"] = pd.to_datetime(over_time["time"], utc=True)
        over_time["time_end"] = pd.to_datetime(over_time["time_end"], utc=True)
    over_time = stack(over_time, "transactions", "order")
    stacked = _stacked_over_time(over_time, color, alt.Tooltip("group:N", title=by)).properties(
        width=WIDTH, height=160
    )
    chart: alt.VConcatChart = alt.vconcat(
        alt.hconcat(count_bars, gas_bars, spacing=12), stacked, spacing=14
    ).properties(
        title=title_params(
            title,
            subtitle=f"top {top} {by}s by user transactions, the rest as '{OTHER}'; "
            f"per {buckets.freq} bucket below",
        )
    )
    return chart


def activity_chart(
    transactions: pd.DataFrame,
    *,
    by: Literal["outcome", "function", "sender"] = "outcome",
    top: int = 10,
    freq: str | None = None,
    title: str | None = None,
) -> alt.Chart | alt.VConcatChart:
    """User transactions over time, split by outcome, entry function or sender.

    Parameters
    ----------
    transactions : DataFrame
        A transactions frame (``frames.transactions_to_frame``); user transactions count.
    by : {"outcome", "function", "sender"}
        ``"outcome"``: stacked bars of succeeded and failed transactions per bucket.
        ``"function"`` or ``"sender"``: ranked bars of transactions and gas used per
        entry function (or sender), the ``top`` ones by transactions and the rest as
        ``"other"``, above stacked bars of the same groups per bucket.
    top : int
        Groups shown by name (1 to 20).
    freq : str, optional
        Bucket width (``"15min"``); by default chosen from the span (:func:`bucket_freq`).
    title : str, optional
        The chart's title.

    Notes
    -----
    Counts are exact; gas sums are exact integers, floats only in the chart's data with
    the exact text in the tooltips. Long addresses are shortened on the axes
    (``0x1234…cdef``) and given in full in the tooltips.
    """
    if by not in ("outcome", "function", "sender"):
        raise InputError(f"by must be 'outcome', 'function' or 'sender', not {by!r}")
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        raise InputError(f"top must be an int from 1 to {MAX_TOP}, not {top!r}")
    extra = () if by == "outcome" else (by,)
    user = user_transactions(transactions, *extra)
    buckets = Buckets([user["timestamp"]], freq)
    if by == "outcome":
        return _outcome_chart(user, buckets, title or "User transactions over time")
    return _group_chart(user, buckets, by, top, title or f"Activity by {by}")
