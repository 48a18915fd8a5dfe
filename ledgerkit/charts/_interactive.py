"""The interactive gas chart and its brush: a time range chosen on the chart, read in
Python to filter a transactions frame (what a linked grid shows)."""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from typing import Any, Final

import altair as alt
import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit.charts._blocks import BLOCK_GAS_LIMIT
from ledgerkit.charts._common import (
    require,
)
from ledgerkit.charts._display import enable_offline_widgets
from ledgerkit.charts._gas import _history
from ledgerkit.charts._static import with_static_svg
from ledgerkit.charts._theme import ThemedChart

__all__ = [
    "BRUSH",
    "InteractiveChart",
    "brushed_range",
    "filter_by_brush",
    "interactive_gas_chart",
]

#: Name of the interval selection on the gas chart's time axis: observe it with
#: ``chart.selections.observe(callback, ["brush"])``.
BRUSH: Final = "brush"
#: The field the brush selects on.
_FIELD: Final = "time"
#: Width of the interactive chart's panels: narrower than the static charts', so that
#: with its axes it fits a notebook's output on a 1100-pixel screen beside JupyterLab's
#: file browser (its brush would miss if the page scaled it down instead).
INTERACTIVE_WIDTH: Final = 560


class InteractiveChart(ThemedChart):
    """A :class:`ThemedChart` (an ``alt.JupyterChart`` in the notebook's theme) that shows
    outside a kernel too: its mime bundle carries
    the chart as SVG beside the widget view (live frontends render the widget; an
    exported HTML, the docs site and saved outputs show the SVG), and its text form
    names the chart rather than a memory address."""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return with_static_svg(super()._repr_mimebundle_(**kwargs), self.chart, **kwargs)

    def __repr__(self) -> str:
        title = getattr(self.chart, "title", None)
        text = getattr(title, "text", title)
        name = type(self.chart).__name__ if self.chart is not None else "no chart"
        return (
            f"InteractiveChart({text!r})" if isinstance(text, str) else f"InteractiveChart({name})"
        )


def interactive_gas_chart(
    transactions: pd.DataFrame,
    *,
    blocks: pd.DataFrame | None = None,
    freq: str | None = None,
    block_gas_limit: int = BLOCK_GAS_LIMIT,
    title: str = "Gas over time",
) -> alt.JupyterChart:
    """:func:`gas_history_chart` as a widget with a brush on its time axis.

    Drag across the price panel to select a time range; ``chart.selections.brush``
    holds it, and ``chart.selections.observe(callback, ["brush"])`` calls back on each
    change (give the new value to :func:`filter_by_brush`). The widget loads nothing from
    the web: Vega comes from vl-convert's bundle (enabled on first use, about 2 s). It is
    drawn as SVG in the colours of the notebook's theme (JupyterLab's light or dark).
    Where no kernel runs it (an exported HTML, the docs site, saved outputs), its display
    shows the same chart as an SVG, carried beside the widget.

    Examples
    --------
    >>> chart = interactive_gas_chart(txns)  # doctest: +SKIP
    >>> chart.selections.observe(
    ...     lambda change: grid.show(filter_by_brush(txns, change["new"])), ["brush"]
    ... )  # doctest: +SKIP
    """
    brush = alt.selection_interval(name=BRUSH, encodings=["x"])
    spec = _history(
        transactions,
        blocks,
        freq,
        block_gas_limit,
        title,
        brush=brush,
        panel_width=INTERACTIVE_WIDTH,
    )
    enable_offline_widgets()
    return InteractiveChart(spec)


def _instant(value: Any) -> pd.Timestamp:
    """One end of a brushed range: epoch milliseconds (what Vega sends), ISO text or a
    datetime; naive times are UTC."""
    if isinstance(value, bool):
        raise InputError(f"a brushed time is a number, text or datetime, not {value!r}")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise InputError(f"a brushed time must be finite, not {value!r}")
        return pd.Timestamp(round(value * 1000), unit="us", tz="UTC")
    if isinstance(value, str | datetime.datetime | pd.Timestamp):
        try:
            stamp = pd.Timestamp(value)
        except ValueError as exc:
            raise InputError(f"not a time: {value!r}") from exc
        return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
    raise InputError(f"a brushed time is a number, text or datetime, not {value!r}")


def brushed_range(selection: Any) -> tuple[pd.Timestamp, pd.Timestamp] | None:
    """The time range a brush selects, or None when nothing is brushed.

    Parameters
    ----------
    selection : IntervalSelection, dict or None
        ``chart.selections.brush`` (altair's ``IntervalSelection``), or its ``value``:
        ``{"time": [start, end]}`` with the ends in epoch milliseconds as Vega sends
        them (ISO text and datetimes work too). An empty value means no brush.

    Returns
    -------
    (Timestamp, Timestamp) or None
        Start and end in UTC, start first, to the microsecond.
    """
    value = getattr(selection, "value", selection)
    if value is None or (isinstance(value, Mapping | list | tuple) and len(value) == 0):
        return None
    if not isinstance(value, Mapping):
        raise InputError(f"expected a brush selection or its value (a dict), got {value!r}")
    if _FIELD in value:
        ends = value[_FIELD]
    elif len(value) == 1:
        (ends,) = value.values()
    else:
        raise InputError(f"the selection has no {_FIELD!r} range: {dict(value)!r}")
    if ends is None or (isinstance(ends, list | tuple) and len(ends) == 0):
        return None
    if not isinstance(ends, list | tuple) or len(ends) != 2:
        raise InputError(f"a brushed range is [start, end], not {ends!r}")
    start, end = sorted((_instant(ends[0]), _instant(ends[1])))
    return start, end


def filter_by_brush(transactions: pd.DataFrame, selection: Any) -> pd.DataFrame:
    """The rows of ``transactions`` whose ``timestamp`` lies in the brushed range (both
    ends included); the whole frame, unchanged, when nothing is brushed.

    Pure: give it the frame the chart was made from and the brush's value, as a linked
    grid does on each ``selections`` change.
    """
    frame = require(
        transactions,
        ("timestamp",),
        what="a transactions frame",
        converter="frames.transactions_to_frame",
    )
    bounds = brushed_range(selection)
    if bounds is None:
        return frame
    start, end = bounds
    times = frame["timestamp"]
    inside = ((times >= start) & (times <= end)).fillna(False).to_numpy(bool)
    return frame[inside]
