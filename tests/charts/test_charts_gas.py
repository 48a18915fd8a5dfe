"""The gas charts on frames built by hand: the numbers they plot, worked out here."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
import vl_convert
from chart_frames import T0, block, chart_rows, txns

from ledgerkit import InputError, frames
from ledgerkit.charts import (
    UTILISATION_COLUMNS,
    block_utilisation,
    gas_history_chart,
    gas_market_chart,
    use_offline_renderer,
)

GENESIS = {"version": 0, "type": "genesis_transaction", "gas_used": 0}


def _chain() -> pd.DataFrame:
    """Three blocks: A (t=0 s) holds 60 gas units, B (t=30 s) 3,210 (over the limit of
    3,200: full), C (t=70 s) 5."""
    return txns(
        [
            GENESIS,
            *block(1, 0, [(10, 100), (20, 100), (30, 300)]),  # versions 1-5
            *block(6, 30, [(3190, 150), (20, 100)], success=False),  # versions 6-9
            *block(10, 70, [(5, 200)]),  # versions 10-12
        ]
    )


def _blocks() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "block_height": pd.array([0, 1, 2, 3], dtype="UInt64"),
            "block_hash": pd.array(["0x" + "00" * 32] * 4, dtype=frames.STRING),
            "block_timestamp": pd.Series(
                [
                    T0 - pd.Timedelta(hours=1),
                    T0,
                    T0 + pd.Timedelta(seconds=30),
                    T0 + pd.Timedelta(seconds=70),
                ],
            ).astype("datetime64[us, UTC]"),
            "first_version": pd.array([0, 1, 6, 10], dtype="UInt64"),
            "last_version": pd.array([0, 5, 9, 12], dtype="UInt64"),
            "transaction_count": pd.array([1, 5, 4, 3], dtype="UInt64"),
        }
    )


def _filled(chart: Any) -> list[dict[str, Any]]:
    return [row for row in chart_rows(chart)[0] if row["transactions"]]


# -- utilisation ------------------------------------------------------------------------


def test_block_utilisation_of_known_blocks() -> None:
    table = block_utilisation(_chain())
    assert list(table.columns) == list(UTILISATION_COLUMNS)
    assert frames.schema_of(table) == frames.schema_of(frames.empty_frame(UTILISATION_COLUMNS))
    blocks = table.iloc[1:]  # the genesis block first, with no time and no gas
    assert blocks["gas_used"].tolist() == [60, 3210, 5]
    assert blocks["user_transactions"].tolist() == [3, 2, 1]
    assert blocks["min_gas_unit_price"].tolist() == [100, 100, 200]
    assert blocks["first_version"].tolist() == [1, 6, 10]
    assert blocks["last_version"].tolist() == [5, 9, 12]
    assert blocks["utilisation"].tolist() == [60 / 3200, 3210 / 3200, 5 / 3200]
    assert blocks["full"].tolist() == [False, True, False]
    # Counted from the genesis: the frame holds every version from 0.
    assert table["block_height"].tolist() == [0, 1, 2, 3]
    assert block_utilisation(_chain(), block_gas_limit=60)["full"].tolist() == [
        False,
        True,
        True,
        False,
    ]


def test_partial_blocks_are_left_out() -> None:
    frame = _chain()
    # From the middle of block A to before block C's epilogue: only B is whole.
    middle = frame[(frame["version"] >= 3) & (frame["version"] <= 11)]
    table = block_utilisation(middle)
    assert table["first_version"].tolist() == [6]
    assert table["block_height"].isna().all()  # not from the genesis: heights unknown
    assert table["gas_used"].tolist() == [3210]
    with_blocks = block_utilisation(middle, blocks=_blocks())
    assert with_blocks["block_height"].tolist() == [2]
    assert with_blocks["gas_used"].tolist() == [3210]


def test_a_blocks_frame_gives_heights_and_times() -> None:
    table = block_utilisation(_chain(), blocks=_blocks())
    assert table["block_height"].tolist() == [0, 1, 2, 3]
    assert table["gas_used"].tolist() == [0, 60, 3210, 5]
    assert table["block_timestamp"].iat[2] == T0 + pd.Timedelta(seconds=30)
    empty = block_utilisation(_chain().iloc[0:0], blocks=_blocks())
    assert frames.schema_of(empty) == frames.schema_of(frames.empty_frame(UTILISATION_COLUMNS))


# -- gas history -----------------------------------------------------------------------------


def test_gas_history_per_minute_by_hand() -> None:
    rows = _filled(gas_history_chart(_chain(), freq="1min"))
    assert len(rows) == 2
    first, second = rows
    # Prices of the first minute, sorted: 100 100 100 150 300 (n = 5).
    # p50: the ceil(2.5) = 3rd -> 100; p90: the ceil(4.5) = 5th -> 300.
    assert (first["price_p50"], first["price_p90"], first["price_max"]) == (100, 300, 300)
    assert first["price_p90_text"] == "300 octas"
    assert first["transactions"] == 5
    assert first["gas_used"] == 3270
    assert first["gas_used_text"] == "3,270 gas units"
    assert first["blocks"] == 2
    assert first["full_blocks"] == 1
    assert first["utilisation_mean"] == pytest.approx(3270 / 6400)
    assert first["utilisation_max"] == pytest.approx(3210 / 3200)
    assert first["utilisation_max_text"] == "100.3%"
    assert (second["price_p50"], second["price_p90"], second["price_max"]) == (200, 200, 200)
    assert second["utilisation_mean_text"] == "0.2%"
    assert first["time_text"] == "2025-06-01 00:00:00 UTC to 2025-06-01 00:01:00 UTC"


def test_default_buckets_come_from_the_span() -> None:
    # 0 s to 70 s: one-second buckets, 71 of them, the empty ones included.
    chart = gas_history_chart(_chain())
    rows = chart_rows(chart)[0]
    assert len(rows) == 71
    assert [r["time"][11:19] for r in rows if r["transactions"]] == [
        "00:00:00",
        "00:00:30",
        "00:01:10",
    ]
    empty = rows[1]
    assert empty["price_p50"] is None
    assert empty["price_p50_text"] == "-"
    assert "per 1s bucket" in chart.to_dict()["title"]["subtitle"]


def test_the_chart_has_price_gas_and_utilisation_panels() -> None:
    spec = gas_history_chart(_chain(), blocks=_blocks()).to_dict()
    prices, gas, utilisation = spec["vconcat"]
    lines = prices["layer"][0]
    assert lines["encoding"]["y"]["scale"]["type"] == "log"
    assert lines["transform"][0]["fold"] == ["price_p50", "price_p90", "price_max"]
    assert "octas" in lines["encoding"]["y"]["title"]
    assert gas["encoding"]["y"]["title"] == "gas used (gas units)"
    assert utilisation["layer"][0]["encoding"]["y"]["axis"]["format"] == ".0%"
    assert "params" not in spec  # the static chart has no brush
    assert "3,200 gas units" in spec["title"]["subtitle"]


def test_exact_integers_become_floats_only_in_the_chart_data() -> None:
    big = 2**64 - 1
    frame = txns(block(1, 0, [(2**53 + 1, big)]))
    (row,) = _filled(gas_history_chart(frame, block_gas_limit=big))
    assert row["price_max_text"] == f"{big:,} octas"
    assert row["price_max"] == float(big)
    assert row["gas_used_text"] == f"{2**53 + 1:,} gas units"
    assert frame["gas_unit_price"].iat[1] == big  # the frame itself is untouched


def test_empty_frames_chart_without_error() -> None:
    empty = _chain().iloc[0:0]
    chart = gas_history_chart(empty)
    # The buckets are empty; the one other dataset is the limit line's single row.
    assert [len(rows) for rows in chart_rows(chart)] == [1, 0]
    assert vl_convert.vegalite_to_svg(chart.to_json()).startswith("<svg")


def test_missing_columns_and_bad_options_are_input_errors() -> None:
    with pytest.raises(InputError, match="lacks"):
        gas_history_chart(pd.DataFrame({"timestamp": []}))
    with pytest.raises(InputError, match="DataFrame"):
        gas_history_chart([1, 2])  # type: ignore[arg-type]
    with pytest.raises(InputError, match="block_gas_limit"):
        gas_history_chart(_chain(), block_gas_limit=0)
    with pytest.raises(InputError, match="fixed pandas frequency"):
        gas_history_chart(_chain(), freq="soon")
    with pytest.raises(InputError, match="offline renderers"):
        use_offline_renderer("mimetype")


# -- gas market ---------------------------------------------------------------------------------


def test_gas_market_by_hand() -> None:
    chart = gas_market_chart(_chain())
    cells, trend = chart_rows(chart)
    # Block A (1.9%) and C (0.2%) are in the first 5% bin with the (empty) genesis block:
    # prices 100 100 300 200, sorted 100 100 200 300: p50 the 2nd, p90 the ceil(3.6) = 4th.
    # Block B (100.3%) is in the last bin, "100% or more": prices 100 150.
    by_bin = {r["utilisation_text"]: r for r in trend}
    low, high = by_bin["0% to 5%"], by_bin["100% or more"]
    keys = ("price_p50", "price_p90", "transactions", "blocks")
    assert [low[k] for k in keys] == [100, 300, 4, 3]
    assert [high[k] for k in keys] == [100, 150, 2, 1]
    assert len(trend) == 2
    counted = {(r["utilisation_text"], r["price_text"]): r["transactions"] for r in cells}
    assert counted == {
        ("0% to 5%", "100 to 149 octas"): 2,
        ("0% to 5%", "200 to 299 octas"): 1,
        ("0% to 5%", "300 to 499 octas"): 1,
        ("100% or more", "100 to 149 octas"): 1,
        ("100% or more", "150 to 199 octas"): 1,
    }
    assert sum(counted.values()) == 6  # every user transaction in a whole block


def _ten_prices() -> pd.DataFrame:
    """One block at t=0 s with ten user transactions of 10 gas units each, priced 100,
    200 ... 1,000 octas."""
    return txns([GENESIS, *block(1, 0, [(10, 100 * k) for k in range(1, 11)])])


def test_the_price_labels_say_each_percentile_of_their_own() -> None:
    # Ten prices, sorted 100 ... 1,000: p50 is the ceil(5.0) = 5th -> 500 octas,
    # p90 the ceil(9.0) = 9th -> 900 octas; the highest 1,000.
    (history,) = _filled(gas_history_chart(_ten_prices(), freq="1min"))
    assert history["price_p50_text"] == "500 octas"
    assert history["price_p90_text"] == "900 octas"
    assert history["price_max_text"] == "1,000 octas"
    _, trend = chart_rows(gas_market_chart(_ten_prices()))
    (market,) = trend
    assert (market["price_p50"], market["price_p90"]) == (500, 900)
    assert market["price_p50_text"] == "500 octas"
    assert market["price_p90_text"] == "900 octas"


def test_charts_render_offline_to_identical_svg() -> None:
    for make in (
        lambda: gas_history_chart(_chain(), blocks=_blocks()),
        lambda: gas_market_chart(_chain()),
    ):
        first = vl_convert.vegalite_to_svg(make().to_json())
        again = vl_convert.vegalite_to_svg(make().to_json())
        assert first.startswith("<svg")
        assert first == again
