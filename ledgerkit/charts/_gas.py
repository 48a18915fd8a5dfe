"""Gas: unit prices and block utilisation over time, and the gas market (price paid
against how full blocks were)."""

from __future__ import annotations

from typing import Any, Final

import altair as alt
import numpy as np
import pandas as pd

from ledgerkit.charts._blocks import BLOCK_GAS_LIMIT, blocks_with_members
from ledgerkit.charts._common import (
    WIDTH,
    Buckets,
    group_percentiles,
    group_sums,
    int_text,
    percent_text,
    time_x,
    title_params,
    u64_array,
)

__all__ = ["gas_history_chart", "gas_history_data", "gas_market_chart"]

_PRICES: Final = {
    "price_p50": "median (p50)",
    "price_p90": "90th percentile",
    "price_max": "maximum",
}
_PRICE_COLORS: Final = ["#4c78a8", "#f58518", "#e45756"]
_UTILISATION: Final = {"utilisation_mean": "mean of blocks", "utilisation_max": "fullest block"}
_UTILISATION_COLORS: Final = ["#54a24b", "#b279a2"]


def _legend_labels(names: dict[str, str]) -> str:
    cases = ", ".join(f"'{key}': '{label}'" for key, label in names.items())
    return f"{{{cases}}}[datum.label]"


def gas_history_data(
    transactions: pd.DataFrame,
    *,
    blocks: pd.DataFrame | None = None,
    freq: str | None = None,
    block_gas_limit: int = BLOCK_GAS_LIMIT,
) -> tuple[pd.DataFrame, str]:
    """What :func:`gas_history_chart` plots: one row per time bucket, and the bucket width.

    Columns: ``time``, ``time_end``, ``time_text`` (the bucket); ``transactions`` (user
    transactions); ``price_p50``, ``price_p90``, ``price_max`` (nearest-rank percentiles
    of their gas unit prices in octas, NaN for an empty bucket) and ``gas_used`` (their
    exact sum), as floats for plotting with exact decimal text beside each
    (``price_p50_text``...); ``blocks``, ``full_blocks``, ``utilisation_mean`` (the
    bucket's block gas over ``blocks * block_gas_limit``) and ``utilisation_max`` (the
    fullest block), with their text.
    """
    table, user, _, measured = blocks_with_members(transactions, blocks, block_gas_limit)
    user = user[user["timestamp"].notna().to_numpy(bool)]
    has_time = table["block_timestamp"].notna().to_numpy(bool)
    placed = table[has_time]
    placed_gas = np.array(
        [g for g, t in zip(measured, has_time.tolist(), strict=True) if t], dtype=np.uint64
    )
    buckets = Buckets([user["timestamp"], placed["block_timestamp"]], freq)
    n = buckets.count
    out = buckets.frame()

    priced = user[user["gas_unit_price"].notna().to_numpy(bool)]
    codes = buckets.codes(priced["timestamp"])
    prices = group_percentiles(codes, u64_array(priced["gas_unit_price"]), n, (50, 90, 100))
    out["transactions"] = np.bincount(buckets.codes(user["timestamp"]), minlength=n)[:n]
    for p, name in ((50, "price_p50"), (90, "price_p90"), (100, "price_max")):
        out[name] = [np.nan if v is None else float(v) for v in prices[p]]
        out[f"{name}_text"] = [int_text(v, "octas") for v in prices[p]]
    gas = group_sums(buckets.codes(user["timestamp"]), u64_array(user["gas_used"]), n)
    out["gas_used"] = [float(g) for g in gas]
    out["gas_used_text"] = [int_text(g, "gas units") for g in gas]

    block_codes = buckets.codes(placed["block_timestamp"])
    count = np.bincount(block_codes, minlength=n)[:n]
    # Utilisation counts what the limit counts (the blocks' effective gas when known).
    block_gas = group_sums(block_codes, placed_gas, n)
    fullest = group_percentiles(block_codes, placed_gas, n, (100,))[100]
    full = np.bincount(block_codes, weights=placed["full"].to_numpy(dtype=float), minlength=n)[:n]
    out["blocks"] = count
    out["full_blocks"] = full.astype(np.int64)
    mean = [
        g / (k * block_gas_limit) if k else np.nan
        for g, k in zip(block_gas, count.tolist(), strict=True)
    ]
    most = [np.nan if g is None else g / block_gas_limit for g in fullest]
    out["utilisation_mean"] = mean
    out["utilisation_max"] = most
    out["utilisation_mean_text"] = [percent_text(v) for v in mean]
    out["utilisation_max_text"] = [percent_text(v) for v in most]
    return out, buckets.freq


def _statistic_lines(
    base: alt.Chart,
    statistics: dict[str, str],
    colors: list[str],
    y: alt.Y,
    *,
    value: str,
    legend_title: str,
) -> alt.Chart:
    """A line per column of ``statistics`` over the time buckets, folded into ``statistic``
    and ``value`` (the field ``y`` plots), each in its colour and named in a legend on top."""
    lines: alt.Chart = (
        base.transform_fold(list(statistics), as_=["statistic", value])
        .mark_line(point=alt.OverlayMarkDef(size=18), strokeWidth=1.5)
        .encode(
            x=time_x(),
            y=y,
            color=alt.Color(
                "statistic:N",
                title=legend_title,
                scale=alt.Scale(domain=list(statistics), range=colors),
                legend=alt.Legend(
                    labelExpr=_legend_labels(statistics), orient="top", direction="horizontal"
                ),
            ),
        )
    )
    return lines


def _history_tooltip() -> list[alt.Tooltip]:
    """The tooltip of every panel of the gas history: a bucket's figures."""
    return [
        alt.Tooltip("time_text:N", title="bucket"),
        alt.Tooltip("transactions:Q", title="user transactions", format=","),
        alt.Tooltip("price_p50_text:N", title="median price"),
        alt.Tooltip("price_p90_text:N", title="90th percentile price"),
        alt.Tooltip("price_max_text:N", title="highest price"),
        alt.Tooltip("gas_used_text:N", title="gas used"),
        alt.Tooltip("blocks:Q", title="blocks", format=","),
        alt.Tooltip("full_blocks:Q", title="full blocks", format=","),
        alt.Tooltip("utilisation_mean_text:N", title="mean utilisation"),
        alt.Tooltip("utilisation_max_text:N", title="fullest block"),
    ]


def _prices_panel(
    base: alt.Chart, tooltip: list[alt.Tooltip], brush: Any, panel_width: int
) -> alt.LayerChart | alt.FacetChart:
    """Median, 90th percentile and highest gas unit price per bucket, on a log axis."""
    x = time_x()
    # A transparent band per bucket carries the tooltip (and the brush, when asked).
    hover = base.mark_bar(opacity=0).encode(x=x, x2="time_end:T", tooltip=tooltip)
    if brush is not None:
        hover = hover.add_params(brush)
    y = alt.Y("price:Q", title="gas unit price (octas, log scale)", scale=alt.Scale(type="log"))
    lines = _statistic_lines(
        base, _PRICES, _PRICE_COLORS, y, value="price", legend_title="price paid"
    )
    return alt.layer(lines, hover).properties(width=panel_width, height=200)


def _gas_used_panel(
    base: alt.Chart, tooltip: list[alt.Tooltip], brush: Any, panel_width: int
) -> alt.Chart:
    """Gas used per bucket, as bars (those outside the brush faded, when there is one)."""
    gas_bars = base.mark_bar(color="#72b7b2").encode(
        x=time_x(),
        x2="time_end:T",
        y=alt.Y("gas_used:Q", title="gas used (gas units)"),
        y2=alt.datum(0),
        tooltip=tooltip,
    )
    if brush is not None:
        gas_bars = gas_bars.encode(opacity=alt.condition(brush, alt.value(1.0), alt.value(0.35)))
    panel: alt.Chart = gas_bars.properties(width=panel_width, height=90)
    return panel


def _utilisation_panel(
    base: alt.Chart, tooltip: list[alt.Tooltip], panel_width: int
) -> alt.LayerChart | alt.FacetChart:
    """Mean and highest block utilisation per bucket, under a rule at the limit (1)."""
    y = alt.Y(
        "utilisation:Q",
        title="block utilisation",
        axis=alt.Axis(format=".0%"),
        scale=alt.Scale(domainMin=0),
    )
    utilisation = _statistic_lines(
        base,
        _UTILISATION,
        _UTILISATION_COLORS,
        y,
        value="utilisation",
        legend_title="block gas / limit",
    ).encode(tooltip=tooltip)
    limit = (
        alt.Chart(pd.DataFrame({"limit": [1.0]}))
        .mark_rule(color="#888888", strokeDash=[4, 3])
        .encode(y="limit:Q")
    )
    return alt.layer(utilisation, limit).properties(width=panel_width, height=110)


def _history(
    transactions: pd.DataFrame,
    blocks: pd.DataFrame | None,
    freq: str | None,
    block_gas_limit: int,
    title: str,
    brush: Any,
    panel_width: int = WIDTH,
) -> alt.VConcatChart:
    data, width = gas_history_data(
        transactions, blocks=blocks, freq=freq, block_gas_limit=block_gas_limit
    )
    tooltip = _history_tooltip()
    base = alt.Chart(data)
    chart: alt.VConcatChart = (
        alt.vconcat(
            _prices_panel(base, tooltip, brush, panel_width),
            _gas_used_panel(base, tooltip, brush, panel_width),
            _utilisation_panel(base, tooltip, panel_width),
            spacing=8,
        )
        .resolve_scale(color="independent")
        .properties(
            title=title_params(
                title,
                subtitle=(
                    f"{int(data['transactions'].sum()):,} user transactions, per {width} "
                    f"bucket; utilisation is block gas over the block gas limit of "
                    f"{block_gas_limit:,} gas units"
                ),
            )
        )
    )
    return chart


def gas_history_chart(
    transactions: pd.DataFrame,
    *,
    blocks: pd.DataFrame | None = None,
    freq: str | None = None,
    block_gas_limit: int = BLOCK_GAS_LIMIT,
    title: str = "Gas over time",
) -> alt.VConcatChart:
    """Gas unit prices paid, gas used and block utilisation per time bucket.

    Three panels over one time axis: the median, 90th percentile and highest gas unit
    price of the bucket's user transactions (octas, log scale); their gas used (gas
    units); and the mean and highest block utilisation, gas used over the block gas
    limit, with the limit drawn at 100%. Empty buckets break the lines.

    Parameters
    ----------
    transactions : DataFrame
        A transactions frame (``frames.transactions_to_frame``); prices and gas come from
        its user transactions, blocks from its block-metadata transactions.
    blocks : DataFrame, optional
        A blocks frame (``frames.blocks_to_frame``) for block times and heights; see
        :func:`block_utilisation` for which blocks count.
    freq : str, optional
        Bucket width, a fixed pandas frequency (``"10s"``, ``"15min"``, ``"1h"``). By
        default chosen from the span: the finest of :data:`BUCKET_LADDER` giving at most
        120 buckets (:func:`bucket_freq`).
    block_gas_limit : int
        Gas units a block may use; the embedded node's by default.

    Notes
    -----
    Percentiles are nearest-rank, so each is a price some transaction paid. They and the
    gas sums are computed on the exact integers; only the chart's own data holds them as
    floats (for the axes), with the exact values as text in the tooltips. The chart
    carries one row per bucket, never the transactions themselves.
    """
    return _history(transactions, blocks, freq, block_gas_limit, title, brush=None)


# -- the gas market ---------------------------------------------------------------------------


def _price_edges() -> list[int]:
    """Price bins in octas: 1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150... (about
    six a decade) up to the largest u64."""
    edges = [1, 2, 3, 5, 7]
    scale = 10
    while True:
        for m in (10, 15, 20, 30, 50, 70):
            edge = m * scale // 10
            if edge >= 1 << 64:
                return edges
            edges.append(edge)
        scale *= 10


_PRICE_EDGES: Final = _price_edges()
#: Utilisation bins: 5% wide, the last holding every block at or over the limit.
_UTILISATION_BINS: Final = 20


def gas_market_data(
    transactions: pd.DataFrame,
    *,
    blocks: pd.DataFrame | None = None,
    block_gas_limit: int = BLOCK_GAS_LIMIT,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What :func:`gas_market_chart` plots: the cells of the heat map (user transactions
    per utilisation bin and price bin) and, per utilisation bin, the median and 90th
    percentile price paid."""
    _, user, member, measured = blocks_with_members(transactions, blocks, block_gas_limit)
    inside = (member >= 0) & user["gas_unit_price"].notna().to_numpy(bool)
    member = member[inside]
    prices = u64_array(user["gas_unit_price"][inside])
    block_gas = measured
    block_bin = np.array(
        [min(g * _UTILISATION_BINS // block_gas_limit, _UTILISATION_BINS) for g in block_gas],
        dtype=np.int64,
    )
    util = block_bin[member] if len(member) else np.zeros(0, np.int64)
    edges = np.array(_PRICE_EDGES, dtype=np.uint64)
    price_bin = np.clip(np.searchsorted(edges, prices, side="right").astype(np.int64) - 1, 0, None)
    n_price = len(_PRICE_EDGES)
    cell = util * n_price + price_bin
    counts = np.bincount(cell, minlength=1)
    present = np.flatnonzero(counts)

    def percent(b: int) -> float:
        return b / _UTILISATION_BINS

    def span(b: int) -> str:
        if b == _UTILISATION_BINS:
            return "100% or more"
        return f"{100 * b // _UTILISATION_BINS}% to {100 * (b + 1) // _UTILISATION_BINS}%"

    def price_span(i: int) -> str:
        if i + 1 < n_price:
            return f"{_PRICE_EDGES[i]:,} to {_PRICE_EDGES[i + 1] - 1:,} octas"
        return f"{_PRICE_EDGES[i]:,} octas or more"

    cells = pd.DataFrame(
        {
            "utilisation_low": [percent(int(k) // n_price) for k in present],
            "utilisation_high": [percent(int(k) // n_price + 1) for k in present],
            "price_low": [float(_PRICE_EDGES[int(k) % n_price]) for k in present],
            "price_high": [
                float(_PRICE_EDGES[min(int(k) % n_price + 1, n_price - 1)]) for k in present
            ],
            "transactions": [int(counts[k]) for k in present],
            "utilisation_text": [span(int(k) // n_price) for k in present],
            "price_text": [price_span(int(k) % n_price) for k in present],
        }
    )
    groups = _UTILISATION_BINS + 1
    stats = group_percentiles(util, prices, groups, (50, 90))
    per_bin = np.bincount(util, minlength=groups)[:groups]
    blocks_per_bin = np.bincount(block_bin, minlength=groups)[:groups]
    filled = [b for b in range(groups) if per_bin[b]]
    trend = pd.DataFrame(
        {
            "utilisation": [percent(b) + 0.5 / _UTILISATION_BINS for b in filled],
            "price_p50": [float(stats[50][b] or 0) for b in filled],
            "price_p90": [float(stats[90][b] or 0) for b in filled],
            "transactions": [int(per_bin[b]) for b in filled],
            "blocks": [int(blocks_per_bin[b]) for b in filled],
            "utilisation_text": [span(b) for b in filled],
            "price_p50_text": [int_text(stats[50][b], "octas") for b in filled],
            "price_p90_text": [int_text(stats[90][b], "octas") for b in filled],
        }
    )
    return cells, trend


def gas_market_chart(
    transactions: pd.DataFrame,
    *,
    blocks: pd.DataFrame | None = None,
    block_gas_limit: int = BLOCK_GAS_LIMIT,
    title: str = "Gas market: price paid against block utilisation",
) -> alt.LayerChart:
    """Gas unit prices paid against how full their blocks were.

    A heat map counts user transactions by the utilisation of their block (5% bins, the
    last one holding every block at or over the limit) and by their gas unit price (bins
    of about six a decade: 100, 150, 200, 300, 500, 700 octas...); lines follow the
    median and 90th percentile price per utilisation bin. Prices rise as blocks fill:
    a full block admits a transaction only by outbidding the lowest one in.

    Parameters
    ----------
    transactions : DataFrame
        A transactions frame (``frames.transactions_to_frame``).
    blocks : DataFrame, optional
        A blocks frame; see :func:`block_utilisation` for which blocks count.
    block_gas_limit : int
        Gas units a block may use; the embedded node's by default.

    Notes
    -----
    Prices below 1 octa count in the lowest bin (the log scale has no zero). The chart
    carries one row per non-empty cell and per utilisation bin.
    """
    cells, trend = gas_market_data(transactions, blocks=blocks, block_gas_limit=block_gas_limit)
    most = int(cells["transactions"].max()) if len(cells) else 1
    steps = [10**k for k in range(len(str(most)))]  # 1, 10, 100... up to the largest cell
    x = alt.X(
        "utilisation_low:Q",
        title="block utilisation (block gas / block gas limit)",
        axis=alt.Axis(format=".0%"),
        scale=alt.Scale(domain=[0, 1.05]),
    )
    y = alt.Y("price_low:Q", title="gas unit price (octas, log scale)", scale=alt.Scale(type="log"))
    heat = (
        alt.Chart(cells)
        .mark_rect()
        .encode(
            x=x,
            x2="utilisation_high:Q",
            y=y,
            y2="price_high:Q",
            color=alt.Color(
                "transactions:Q",
                title="user transactions",
                scale=alt.Scale(scheme="blues", type="log"),
                # A gradient legend gets a per-process id in the svg; symbols do not.
                legend=alt.Legend(type="symbol", symbolType="square", values=steps),
            ),
            tooltip=[
                alt.Tooltip("utilisation_text:N", title="block utilisation"),
                alt.Tooltip("price_text:N", title="gas unit price"),
                alt.Tooltip("transactions:Q", title="user transactions", format=","),
            ],
        )
    )
    tooltip = [
        alt.Tooltip("utilisation_text:N", title="block utilisation"),
        alt.Tooltip("blocks:Q", title="blocks", format=","),
        alt.Tooltip("transactions:Q", title="user transactions", format=","),
        alt.Tooltip("price_p50_text:N", title="median price"),
        alt.Tooltip("price_p90_text:N", title="90th percentile price"),
    ]
    trend_x = alt.X("utilisation:Q", scale=alt.Scale(domain=[0, 1.05]))
    median = (
        alt.Chart(trend)
        .mark_line(color="#f58518", point=True)
        .encode(x=trend_x, y=alt.Y("price_p50:Q", scale=alt.Scale(type="log")), tooltip=tooltip)
    )
    upper = (
        alt.Chart(trend)
        .mark_line(color="#e45756", point=True, strokeDash=[4, 2])
        .encode(x=trend_x, y=alt.Y("price_p90:Q", scale=alt.Scale(type="log")), tooltip=tooltip)
    )
    return alt.LayerChart(
        layer=[heat, median, upper],
        width=WIDTH,
        height=260,
        title=title_params(
            title,
            subtitle=(
                "cells: user transactions; lines: median (solid) and 90th percentile "
                f"(dashed) price per bin; block gas limit {block_gas_limit:,} gas units"
            ),
        ),
    )
