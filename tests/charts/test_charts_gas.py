"""Gas and activity charts: what they plot, read back from ``chart.to_dict()``."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest

from ledgerkit import InputError
from ledgerkit.charts import activity_chart, gas_history_chart, use_offline_renderer


def _frame() -> pd.DataFrame:
    times = pd.to_datetime(
        ["2024-01-01T00:00:05Z", "2024-01-01T00:00:40Z", "2024-01-01T00:01:10Z",
         "2024-01-01T00:01:20Z", "2024-01-01T00:01:30Z"],
        utc=True,
    ).astype("datetime64[us, UTC]")  # fmt: skip
    return pd.DataFrame(
        {
            "timestamp": times,
            "type": pd.Categorical(
                [
                    "user_transaction",
                    "block_metadata_transaction",
                    "user_transaction",
                    "user_transaction",
                    "user_transaction",
                ]
            ),
            "gas_used": pd.array([10, 0, 20, 30, 2**60], dtype="UInt64"),
            "gas_unit_price": pd.array([100, 0, 100, 300, 150], dtype="UInt64"),
            "success": pd.array([True, True, True, False, True], dtype="boolean"),
        }
    )


def _rows(chart: alt.TopLevelMixin) -> list[dict[str, object]]:
    spec = chart.to_dict()
    datasets = spec["datasets"]
    assert len(datasets) == 1
    rows: list[dict[str, object]] = next(iter(datasets.values()))
    return rows


def test_gas_history_buckets_user_transactions_only() -> None:
    rows = _rows(gas_history_chart(_frame(), freq="1min"))
    assert [r["transactions"] for r in rows] == [1, 3]
    assert rows[0]["gas_used"] == 10
    assert rows[1]["median_gas_unit_price"] == 150
    # Charts plot floats; exact sums stay in the frames.
    assert rows[1]["gas_used"] == pytest.approx(float(20 + 30 + 2**60))


def test_gas_history_layers_bars_and_a_price_line() -> None:
    spec = gas_history_chart(_frame()).to_dict()
    marks = [layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]
             for layer in spec["layer"]]  # fmt: skip
    assert marks == ["bar", "line"]
    assert spec["resolve"]["scale"]["y"] == "independent"


def test_activity_splits_outcomes() -> None:
    rows = _rows(activity_chart(_frame(), freq="1min"))
    counts = {(str(r["time"])[:16], r["outcome"]): r["transactions"] for r in rows}
    assert counts == {
        ("2024-01-01T00:00", "succeeded"): 1,
        ("2024-01-01T00:01", "succeeded"): 2,
        ("2024-01-01T00:01", "failed"): 1,
    }


def test_empty_frames_chart_without_error() -> None:
    empty = _frame().iloc[0:0]
    assert _rows(gas_history_chart(empty)) == []


def test_missing_columns_and_bad_renderers_are_input_errors() -> None:
    with pytest.raises(InputError, match="lacks"):
        gas_history_chart(pd.DataFrame({"timestamp": []}))
    with pytest.raises(InputError, match="offline renderers"):
        use_offline_renderer("mimetype")


def test_charts_render_offline_to_svg() -> None:
    svg = gas_history_chart(_frame()).to_json()  # the spec serialises
    assert "median_gas_unit_price" in svg
    import vl_convert

    image = vl_convert.vegalite_to_svg(gas_history_chart(_frame()).to_dict())
    assert image.startswith("<svg")
