"""The interactive gas chart: an offline JupyterChart with a brush named "brush", and the
pure helpers a linked grid calls with the brush's value."""

from __future__ import annotations

import datetime as dt

import altair as alt
import pandas as pd
import pytest
from altair.utils.selection import IntervalSelection
from chart_frames import T0, block, txns

from ledgerkit import InputError
from ledgerkit.charts import BRUSH, brushed_range, filter_by_brush, interactive_gas_chart


def _frame() -> pd.DataFrame:
    return txns(
        [
            *block(1, 0, [(10, 100), (20, 150)]),
            *block(5, 60, [(30, 300)]),
            *block(8, 120, [(40, 100)]),
        ]
    )


def _ms(seconds: float) -> float:
    """Epoch milliseconds, as Vega sends a brushed time."""
    return (T0 + pd.Timedelta(seconds=seconds)).value / 1e6


def test_the_widget_is_offline_and_has_the_brush() -> None:
    chart = interactive_gas_chart(_frame())
    assert isinstance(chart, alt.JupyterChart)
    assert alt.JupyterChart._is_offline
    assert "esm.sh" not in chart._esm
    assert "https://" not in chart._esm.split("\n", 1)[0]
    assert chart._selection_types == {BRUSH: "interval"}
    assert chart.selections.brush.value == {}
    (param,) = chart.spec["params"]
    assert param["name"] == "brush"
    assert param["select"] == {"type": "interval", "encodings": ["x"]}
    assert chart.embed_options == {"actions": False, "renderer": "svg"}
    assert "lk-chart" in chart._dom_classes
    assert brushed_range(chart.selections.brush) is None
    assert filter_by_brush(_frame(), chart.selections.brush) is not None


def test_a_brush_from_the_frontend_reaches_the_helpers() -> None:
    frame = _frame()
    chart = interactive_gas_chart(frame)
    seen: list[pd.DataFrame] = []
    chart.selections.observe(
        lambda change: seen.append(filter_by_brush(frame, change["new"])), [BRUSH]
    )
    # What the JavaScript side sets when the user drags from 0:50 to 1:10 (as in altair's
    # own tests, the frontend is faked by setting the synced trait).
    chart._vl_selections = {BRUSH: {"value": {"time": [_ms(50), _ms(70)]}, "store": []}}
    assert isinstance(chart.selections.brush, IntervalSelection)
    assert brushed_range(chart.selections.brush) == (
        T0 + pd.Timedelta(seconds=50),
        T0 + pd.Timedelta(seconds=70),
    )
    (filtered,) = seen
    assert filtered["version"].tolist() == [5, 6, 7]  # block 5: metadata, user, epilogue
    chart._vl_selections = {BRUSH: {"value": {}, "store": []}}
    assert len(seen[-1]) == len(frame)  # brush cleared: everything


@pytest.mark.parametrize(
    "value",
    [
        {"time": [_ms(60), _ms(0)]},  # dragged right to left
        {"time": ["2025-06-01T00:00:00.000Z", "2025-06-01T00:01:00.000Z"]},  # the store's form
        {"time": [dt.datetime(2025, 6, 1, 0, 0), pd.Timestamp("2025-06-01T00:01:00Z")]},
        IntervalSelection(name="brush", value={"time": [_ms(0), _ms(60)]}, store=[]),
    ],
)
def test_brushed_range_reads_every_form(value: object) -> None:
    assert brushed_range(value) == (T0, T0 + pd.Timedelta(seconds=60))
    assert filter_by_brush(_frame(), value)["version"].tolist() == [1, 2, 3, 4, 5, 6, 7]


def test_brushed_range_keeps_microseconds_and_refuses_nonsense() -> None:
    start, end = brushed_range({"time": [_ms(0.000001), _ms(1.5)]}) or (None, None)
    assert start == T0 + pd.Timedelta(microseconds=1)
    assert end == T0 + pd.Timedelta(milliseconds=1500)
    assert brushed_range(None) is None
    assert brushed_range({}) is None
    assert brushed_range({"time": []}) is None
    for bad in (
        {"time": [1]},
        {"time": [True, 2]},
        {"a": [1, 2], "b": [1, 2]},
        [1, 2],
        {"time": ["x", "y"]},
    ):
        with pytest.raises(InputError):
            brushed_range(bad)
