"""The gas dashboard: the brush on the chart filters the transactions grid beneath it,
the grid counts what the chart counts, sorts in the kernel and opens what it lists.

The brushed range is set as the browser sets it (the chart's ``_vl_selections``, epoch
milliseconds of the time axis); the rows expected are counted here from the frame.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from ledgerkit import Client, frames
from ledgerkit.charts import BRUSH
from ledgerkit.localnet import LocalNode
from ledgerkit.widgets import GasDashboard, SortOrder, TransactionInspector


@pytest.fixture(scope="module")
def chain() -> Iterator[tuple[pd.DataFrame, Client]]:
    with LocalNode(seed=41, blocks=40, services=False) as node, Client(node.url) as client:
        head = client.ledger_info().value.ledger_version
        txns = []
        for start in range(0, head + 1, 100):
            txns += client.transactions(start=start, limit=100).value
        yield frames.transactions_to_frame(txns), client


@pytest.fixture
def history(chain: tuple[pd.DataFrame, Client]) -> pd.DataFrame:
    return chain[0]


def _user_count(frame: pd.DataFrame) -> int:
    """User transactions with a time, counted straight from the frame."""
    return int(
        ((frame["type"].astype(str) == "user_transaction") & frame["timestamp"].notna()).sum()
    )


def _brush(dashboard: GasDashboard, start: pd.Timestamp, end: pd.Timestamp) -> None:
    value = {"time": [start.value / 1e6, end.value / 1e6]}
    dashboard.chart._vl_selections = {BRUSH: {"value": value, "store": []}}


def _versions(dashboard: GasDashboard) -> list[int]:
    return [int(row["version"]) for row in dashboard.grid.rows]


def test_the_grid_counts_the_user_transactions_the_chart_counts(history: pd.DataFrame) -> None:
    dashboard = GasDashboard(history)
    users = _user_count(history)
    assert 0 < users < len(history)  # the chain has block metadata too
    assert dashboard.grid.total == users
    assert dashboard.grid.title == f"All {users:,} user transactions"
    # The chart's own data: user transactions per bucket, summed.
    spec = dashboard.chart.chart.to_dict()
    buckets = next(iter(spec["datasets"].values()))
    assert sum(int(bucket["transactions"]) for bucket in buckets) == users
    dashboard.all_transactions.value = True
    assert dashboard.grid.total == len(history)
    assert dashboard.grid.title == f"All {len(history):,} transactions"
    dashboard.all_transactions.value = False
    assert dashboard.grid.total == users


def test_the_grid_shows_the_brushed_range_and_all_again_when_cleared(
    history: pd.DataFrame,
) -> None:
    dashboard = GasDashboard(history)
    assert repr(dashboard) == f"GasDashboard({len(history):,} transactions)"
    user = history[(history["type"].astype(str) == "user_transaction")]
    times = user["timestamp"].sort_values()
    start, end = times.iloc[len(times) // 4], times.iloc[len(times) // 2]
    inside = int(((user["timestamp"] >= start) & (user["timestamp"] <= end)).sum())
    users = len(user)
    assert 0 < inside < users
    _brush(dashboard, start, end)
    assert dashboard.grid.total == inside
    assert dashboard.grid.title == f"{inside:,} of {users:,} user transactions in the brushed range"
    assert all(start <= pd.Timestamp(r["timestamp"]) <= end for r in dashboard.grid.rows)
    dashboard.all_transactions.value = True
    everything = int(((history["timestamp"] >= start) & (history["timestamp"] <= end)).sum())
    assert everything > inside
    assert dashboard.grid.title == (
        f"{everything:,} of {len(history):,} transactions in the brushed range"
    )
    dashboard.chart._vl_selections = {BRUSH: {"value": {}, "store": []}}
    assert dashboard.grid.total == len(history)


def test_the_title_follows_a_search(history: pd.DataFrame) -> None:
    dashboard = GasDashboard(history)
    dashboard.grid.query = "ledger_demo"
    expected = int(
        history["function"].astype("string").str.contains("ledger_demo").fillna(False).sum()
    )
    assert dashboard.grid.total == expected > 0
    users = _user_count(history)
    assert (
        dashboard.grid.title
        == f"{expected:,} of {users:,} user transactions matching “ledger_demo”"
    )
    dashboard.grid.query = ""
    assert dashboard.grid.title == f"All {users:,} user transactions"


def test_a_header_click_sorts_the_whole_listing_in_the_kernel(history: pd.DataFrame) -> None:
    dashboard = GasDashboard(history)
    grid = dashboard.grid
    assert grid.sortable
    grid._handle_custom_msg({"type": "sort", "column": "gas_used"}, [])
    assert grid.sort == {"column": "gas_used", "descending": False}
    user = history[history["type"].astype(str) == "user_transaction"]
    least = sorted(int(g) for g in user["gas_used"])[:20]
    assert [int(row["gas_used"]) for row in grid.rows] == least
    grid._handle_custom_msg({"type": "sort", "column": "gas_used"}, [])  # again: the other way
    assert grid.sort_order == SortOrder("gas_used", descending=True)
    most = sorted((int(g) for g in user["gas_used"]), reverse=True)[:20]
    assert [int(row["gas_used"]) for row in grid.rows] == most
    last = grid.total // grid.page_size
    grid.go(last)
    assert [int(row["gas_used"]) for row in grid.rows] == sorted(
        (int(g) for g in user["gas_used"]), reverse=True
    )[last * grid.page_size :]


def test_exact_integers_sort_as_numbers_at_any_size(history: pd.DataFrame) -> None:
    frame = history.copy()
    users = frame.index[frame["type"].astype(str) == "user_transaction"]
    prices = frame["gas_unit_price"].astype("UInt64")
    big = {users[0]: 2**64 - 1, users[1]: 2**53 + 1, users[2]: 2**53, users[3]: 9}
    for at, price in big.items():
        prices[at] = price
    frame["gas_unit_price"] = prices
    dashboard = GasDashboard(frame)
    dashboard.grid.sort_by("gas_unit_price", descending=True)
    shown = [str(row["gas_unit_price"]) for row in dashboard.grid.rows[:3]]
    assert shown == ["18446744073709551615", "9007199254740993", "9007199254740992"]
    dashboard.grid.sort_by("gas_unit_price")
    assert str(dashboard.grid.rows[0]["gas_unit_price"]) == "9"


def test_enter_or_a_double_click_opens_the_inspector_beneath(
    chain: tuple[pd.DataFrame, Client],
) -> None:
    history, client = chain
    dashboard = GasDashboard(history, client=client)
    version = _versions(dashboard)[2]
    dashboard.grid._handle_custom_msg({"type": "activate", "index": 2, "column": "sender"}, [])
    inspector = dashboard.inspector
    assert isinstance(inspector, TransactionInspector)
    assert repr(inspector) == f"TransactionInspector({version})"
    assert inspector in dashboard.children[-1].children
    close = dashboard.children[-1].children[0].children[1]
    close.click()
    assert dashboard.inspector is None
    assert dashboard.children[-1].children == ()


def test_without_a_client_opening_says_how(history: pd.DataFrame) -> None:
    dashboard = GasDashboard(history)
    dashboard.grid._handle_custom_msg({"type": "activate", "index": 0, "column": "version"}, [])
    assert dashboard.inspector is None
    message: Any = dashboard.children[-2]
    assert "client=client" in message.value
