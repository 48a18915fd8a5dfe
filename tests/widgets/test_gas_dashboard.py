"""The gas dashboard: the brush on the chart filters the transactions grid beneath it.

The brushed range is set as the browser sets it (the chart's ``_vl_selections``, epoch
milliseconds of the time axis); the rows expected are counted here from the frame.
"""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest

from ledgerkit import Client, frames
from ledgerkit.charts import BRUSH
from ledgerkit.localnet import LocalNode
from ledgerkit.widgets import GasDashboard


@pytest.fixture(scope="module")
def history() -> Iterator[pd.DataFrame]:
    with LocalNode(seed=41, blocks=40, services=False) as node, Client(node.url) as client:
        head = client.ledger_info().value.ledger_version
        txns = []
        for start in range(0, head + 1, 100):
            txns += client.transactions(start=start, limit=100).value
        yield frames.transactions_to_frame(txns)


def test_the_grid_shows_the_brushed_range_and_all_again_when_cleared(
    history: pd.DataFrame,
) -> None:
    dashboard = GasDashboard(history)
    assert repr(dashboard) == f"GasDashboard({len(history):,} transactions)"
    assert dashboard.grid.total == len(history)
    times = history["timestamp"].sort_values()
    start, end = times.iloc[len(times) // 4], times.iloc[len(times) // 2]
    inside = int(((history["timestamp"] >= start) & (history["timestamp"] <= end)).sum())
    assert 0 < inside < len(history)
    value = {"time": [start.value / 1e6, end.value / 1e6]}
    dashboard.chart._vl_selections = {BRUSH: {"value": value, "store": []}}
    assert dashboard.grid.total == inside
    assert (
        dashboard.grid.title == f"{inside:,} of {len(history):,} transactions in the brushed range"
    )
    assert all(start <= pd.Timestamp(r["timestamp"]) <= end for r in dashboard.grid.rows)
    dashboard.chart._vl_selections = {BRUSH: {"value": {}, "store": []}}
    assert dashboard.grid.total == len(history)


def test_the_grid_searches_functions_and_senders(history: pd.DataFrame) -> None:
    dashboard = GasDashboard(history)
    dashboard.grid.query = "ledger_demo"
    expected = int(
        history["function"].astype("string").str.contains("ledger_demo").fillna(False).sum()
    )
    assert dashboard.grid.total == expected > 0
