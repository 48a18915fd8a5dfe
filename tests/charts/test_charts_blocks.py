"""Time between blocks: exact intervals, log-spaced bins, consecutive heights only."""

from __future__ import annotations

import pandas as pd
import pytest
import vl_convert
from chart_frames import T0, chart_rows

from ledgerkit import InputError, frames
from ledgerkit.charts import block_times_chart


def _blocks(heights: list[int], seconds: list[float]) -> pd.DataFrame:
    n = len(heights)
    return pd.DataFrame(
        {
            "block_height": pd.array(heights, dtype="UInt64"),
            "block_hash": pd.array(["0x" + "00" * 32] * n, dtype=frames.STRING),
            "block_timestamp": pd.Series([T0 + pd.Timedelta(seconds=s) for s in seconds]).astype(
                "datetime64[us, UTC]"
            ),
            "first_version": pd.array(range(n), dtype="UInt64"),
            "last_version": pd.array(range(n), dtype="UInt64"),
            "transaction_count": pd.array([1] * n, dtype="UInt64"),
        }
    )


def test_intervals_by_hand() -> None:
    # Heights 1-4 then 6: intervals 0.5 s, 0.4 s and 0.7 s, each at the time of the later
    # block; 4 -> 6 skips a block and is not counted.
    blocks = _blocks([1, 2, 3, 4, 6], [0, 0.5, 0.9, 1.6, 1000])
    chart = block_times_chart(blocks, freq="1s")
    histogram, over_time = sorted(chart_rows(chart), key=lambda rows: "bin_text" not in rows[0])
    bins = {r["bin_text"]: r["blocks"] for r in histogram}
    assert bins == {"200 ms to 500 ms": 1, "500 ms to 1 s": 2}  # 0.4 s; 0.5 s and 0.7 s
    assert {r["bin_text"]: r["share_text"] for r in histogram}["500 ms to 1 s"] == "66.7%"
    filled = [r for r in over_time if r["intervals"]]
    assert [(r["time"][11:19], r["median_text"], r["longest_text"]) for r in filled] == [
        ("00:00:00", "0.400000 s", "0.500000 s"),  # 0.5 s and 0.4 s: nearest-rank median 0.4
        ("00:00:01", "0.700000 s", "0.700000 s"),
    ]
    subtitle = chart.to_dict()["title"]["subtitle"]
    assert subtitle == "3 intervals: median 500 ms, 90th percentile 700 ms, longest 700 ms"


def test_order_does_not_matter_and_output_is_deterministic() -> None:
    blocks = _blocks([1, 2, 3, 4], [0, 0.5, 0.9, 1.6])
    shuffled = blocks.iloc[[2, 0, 3, 1]]
    assert chart_rows(block_times_chart(blocks)) == chart_rows(block_times_chart(shuffled))
    first = vl_convert.vegalite_to_svg(block_times_chart(blocks).to_json())
    assert first == vl_convert.vegalite_to_svg(block_times_chart(shuffled).to_json())


def test_too_few_blocks_and_wrong_frames() -> None:
    lone = block_times_chart(_blocks([5], [0]))
    assert lone.to_dict()["title"]["subtitle"] == "no consecutive blocks"
    assert vl_convert.vegalite_to_svg(lone.to_json()).startswith("<svg")
    with pytest.raises(InputError, match="blocks_to_frame"):
        block_times_chart(pd.DataFrame({"version": [1]}))
