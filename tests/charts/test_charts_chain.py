"""The charts on the embedded node's default chain (a day with congestion episodes) and
on a frame of 100,000 transactions: what they show, and how little they carry."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
import vl_convert
from chart_frames import Chain, chart_rows, shipped_rows

from ledgerkit.charts import (
    activity_chart,
    block_times_chart,
    block_utilisation,
    bucket_freq,
    gas_history_chart,
    gas_market_chart,
)
from ledgerkit.models import BlockEpilogueTransaction


def _filled(chart: Any) -> list[dict[str, Any]]:
    return [row for row in chart_rows(chart)[0] if row["transactions"]]


def test_the_price_percentiles_are_not_flat(chain: Chain) -> None:
    chart = gas_history_chart(chain.txns, blocks=chain.blocks)
    rows = _filled(chart)
    medians = [r["price_p50"] for r in rows]
    p90s = [r["price_p90"] for r in rows]
    highest = [r["price_max"] for r in rows]
    # Most buckets' median is the minimum price: the old chart's flat line.
    assert sum(m == 100 for m in medians) > len(rows) / 2
    # The 90th percentile and the maximum show what congestion costs.
    assert len(set(p90s)) >= 5
    assert max(p90s) >= 1000
    assert sum(h >= 150 for h in highest) > len(rows) / 3
    assert all(m <= p <= h for m, p, h in zip(medians, p90s, highest, strict=True))


def test_buckets_span_the_day(chain: Chain) -> None:
    chart = gas_history_chart(chain.txns, blocks=chain.blocks)
    rows = chart_rows(chart)[0]
    assert (
        bucket_freq(chain.blocks["block_timestamp"].min(), chain.txns["timestamp"].max()) == "15min"
    )
    assert len(rows) == 97  # genesis at 00:00 to the last block at 24:00, every 15 minutes
    assert "per 15min bucket" in chart.to_dict()["title"]["subtitle"]
    without_blocks = chart_rows(gas_history_chart(chain.txns))[0]
    assert len(without_blocks) == 96  # the first transaction is at 00:23:57
    assert sum(r["transactions"] for r in rows) == int(
        (chain.txns["type"] == "user_transaction").sum()
    )


def test_utilisation_matches_what_the_node_recorded(chain: Chain) -> None:
    table = block_utilisation(chain.txns, blocks=chain.blocks)
    ends = [tx for tx in chain.records if isinstance(tx, BlockEpilogueTransaction)]
    assert len(ends) == len(table) - 1  # every block but the genesis closes with one
    by_last = {tx.version: tx.block_end_info for tx in ends}
    blocks = table.iloc[1:]
    recorded = [by_last[int(v)] for v in blocks["last_version"]]
    # The limit (3,200) counts what the node recorded of each block's execution and IO
    # gas; the blocks frame carries it.
    effective = [i.block_effective_block_gas_units for i in recorded]
    assert blocks["utilisation"].tolist() == [e / 3200 for e in effective]
    # The node's own "block gas limit reached" is that gas >= the limit charts assume.
    assert blocks["full"].tolist() == [i.block_gas_limit_reached for i in recorded]
    assert blocks["full"].sum() > 0
    assert blocks["utilisation"].max() > 1  # the last transaction in crosses the limit
    # gas_used is what the transactions used, storage fees included: more in all.
    assert sum(int(g) for g in blocks["gas_used"]) > sum(effective)
    gas = chain.txns.ledger.blocks()["gas_used"]
    assert table["gas_used"].tolist() == gas.tolist()
    # Without the blocks frame, the heights are counted and the blocks found the same
    # (heights counted = the node's heights); only the fill, measured by gas_used, differs.
    derived = block_utilisation(chain.txns).drop(columns=["block_timestamp"])
    given = table.drop(columns=["block_timestamp"])
    same = ["block_height", "first_version", "last_version", "user_transactions", "gas_used"]
    pd.testing.assert_frame_equal(derived[same], given[same])
    assert derived["utilisation"].tolist() == [int(g) / 3200 for g in given["gas_used"]]


def test_the_market_and_block_times_on_the_chain(chain: Chain) -> None:
    cells, trend = chart_rows(gas_market_chart(chain.txns, blocks=chain.blocks))
    users = int((chain.txns["type"] == "user_transaction").sum())
    assert sum(r["transactions"] for r in cells) == users
    calm, busy = trend[0], trend[-1]
    assert calm["utilisation_text"] == "0% to 5%"
    assert busy["utilisation_text"] == "100% or more"
    assert busy["price_p50"] > calm["price_p50"]  # full blocks cost more to get into
    times = block_times_chart(chain.blocks)
    subtitle = times.to_dict()["title"]["subtitle"]
    assert subtitle.startswith("360 intervals: median 5")  # about half a second
    histogram = next(rows for rows in chart_rows(times) if "bin_text" in rows[0])
    assert sum(r["blocks"] for r in histogram) == 360


def test_activity_on_the_chain(chain: Chain) -> None:
    _, ranked = chart_rows(activity_chart(chain.txns, by="function"))
    assert ranked[0]["group"] == "0x1::aptos_account::transfer"
    # The day calls 29 entry functions (its census in the local node's guide): the top 10,
    # then the rest as one "other" group, every user transaction counted once.
    assert len(ranked) == 11
    assert ranked[-1]["group"] == "other"
    assert sum(r["transactions"] for r in ranked) == int(
        (chain.txns["type"] == "user_transaction").sum()
    )
    _, senders = chart_rows(activity_chart(chain.txns, by="sender", top=5))
    assert len(senders) == 6
    assert senders[-1]["group"] == "other"
    users = int((chain.txns["type"] == "user_transaction").sum())
    assert sum(r["transactions"] for r in senders) == users


def test_the_chain_renders_to_identical_svg(chain: Chain) -> None:
    before = chain.txns.copy()
    images = [
        vl_convert.vegalite_to_svg(gas_history_chart(chain.txns, blocks=chain.blocks).to_json())
        for _ in range(2)
    ]
    assert images[0] == images[1]
    pd.testing.assert_frame_equal(chain.txns, before)  # charts do not touch their frames


# -- a large frame ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "bound"),
    [
        ("gas_history", 125),
        ("gas_market", 21 * 20 + 21),
        ("activity_outcome", 2 * 120),
        ("activity_sender", 11 + 11 * 120),
        ("block_times", 40 + 120),
    ],
)
def test_a_large_frame_is_aggregated_before_charting(
    large: tuple[pd.DataFrame, pd.DataFrame], name: str, bound: int
) -> None:
    txns, blocks = large
    assert len(txns) >= 100_000
    make = {
        "gas_history": lambda: gas_history_chart(txns, blocks=blocks),
        "gas_market": lambda: gas_market_chart(txns),
        "activity_outcome": lambda: activity_chart(txns),
        "activity_sender": lambda: activity_chart(txns, by="sender"),
        "block_times": lambda: block_times_chart(blocks),
    }[name]
    chart = make()
    assert 0 < shipped_rows(chart) <= bound
    assert vl_convert.vegalite_to_svg(chart.to_json()).startswith("<svg")
