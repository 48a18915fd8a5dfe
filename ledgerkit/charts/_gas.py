"""Gas history and activity charts."""

from __future__ import annotations

from typing import Final

import altair as alt
import pandas as pd

from ledgerkit._errors import InputError

__all__ = ["activity_chart", "gas_history_chart", "use_offline_renderer"]

_NEEDED: Final = ("timestamp", "type", "gas_used", "gas_unit_price")


def use_offline_renderer(kind: str = "svg") -> None:
    """Render charts in notebooks without loading JavaScript from a CDN (``svg`` or ``png``)."""
    if kind not in ("svg", "png"):
        raise InputError(f"offline renderers are 'svg' and 'png', not {kind!r}")
    alt.renderers.enable(kind)


def _user_transactions(transactions: pd.DataFrame) -> pd.DataFrame:
    missing = [name for name in _NEEDED if name not in transactions.columns]
    if missing:
        raise InputError(
            f"the frame lacks {missing}; pass the output of frames.transactions_to_frame"
        )
    return transactions[transactions["type"].astype("string") == "user_transaction"]


def _buckets(transactions: pd.DataFrame, freq: str) -> pd.DataFrame:
    user = _user_transactions(transactions)
    if user.empty:
        return pd.DataFrame(
            {
                "time": pd.Series([], dtype="datetime64[us, UTC]"),
                "transactions": pd.Series([], dtype="int64"),
                "gas_used": pd.Series([], dtype="float64"),
                "median_gas_unit_price": pd.Series([], dtype="float64"),
            }
        )
    frame = pd.DataFrame(
        {
            "time": user["timestamp"],
            # Plotting needs floats; the exact integers stay in the frame itself.
            "gas_used": user["gas_used"].astype("float64"),
            "gas_unit_price": user["gas_unit_price"].astype("float64"),
        }
    )
    grouped = frame.groupby(pd.Grouper(key="time", freq=freq))
    out = pd.DataFrame(
        {
            "transactions": grouped.size(),
            "gas_used": grouped["gas_used"].sum(),
            "median_gas_unit_price": grouped["gas_unit_price"].median(),
        }
    ).reset_index()
    return out[out["transactions"] > 0]


def gas_history_chart(
    transactions: pd.DataFrame, *, freq: str = "1min", title: str = "Gas over time"
) -> alt.LayerChart:
    """Gas used (bars) and the median gas unit price paid (line) per time bucket.

    Parameters
    ----------
    transactions : DataFrame
        A transactions frame (``frames.transactions_to_frame``); only user transactions
        count.
    freq : str
        Bucket width, a pandas frequency (``"10s"``, ``"1min"``, ``"1h"``).
    """
    data = _buckets(transactions, freq)
    base = alt.Chart(data).encode(x=alt.X("time:T", title="block time (UTC)"))
    bars = base.mark_bar(opacity=0.45).encode(
        y=alt.Y("gas_used:Q", title="gas used"),
        tooltip=["time:T", "transactions:Q", "gas_used:Q", "median_gas_unit_price:Q"],
    )
    line = base.mark_line(point=True, color="#c2410c").encode(
        y=alt.Y("median_gas_unit_price:Q", title="median gas unit price (octas)")
    )
    chart: alt.LayerChart = (
        alt.layer(bars, line)
        .resolve_scale(y="independent")
        .properties(title=title, width=560, height=240)
    )
    return chart


def activity_chart(
    transactions: pd.DataFrame, *, freq: str = "1min", title: str = "Transactions over time"
) -> alt.Chart:
    """User transactions per time bucket, split into succeeded and failed."""
    user = _user_transactions(transactions)
    frame = pd.DataFrame(
        {
            "time": user["timestamp"],
            "outcome": user["success"].map({True: "succeeded", False: "failed"}).astype("string")
            if "success" in user.columns
            else pd.Series("succeeded", index=user.index, dtype="string"),
        }
    )
    counts = (
        frame.groupby([pd.Grouper(key="time", freq=freq), "outcome"])
        .size()
        .rename("transactions")
        .reset_index()
    )
    counts = counts[counts["transactions"] > 0]
    chart: alt.Chart = (
        alt.Chart(counts)
        .mark_bar()
        .encode(
            x=alt.X("time:T", title="block time (UTC)"),
            y=alt.Y("transactions:Q", stack=True),
            color=alt.Color("outcome:N", scale=alt.Scale(domain=["succeeded", "failed"])),
            tooltip=["time:T", "outcome:N", "transactions:Q"],
        )
        .properties(title=title, width=560, height=200)
    )
    return chart
