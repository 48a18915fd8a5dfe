"""Fixtures of the chart tests: the embedded node's default chain and a large frame."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import altair as alt
import pandas as pd
import pytest
from chart_frames import Chain, large_frames

import ledgerkit
from ledgerkit import frames


@pytest.fixture(scope="session")
def chain() -> Iterator[Chain]:
    """The default chain of the embedded node (seed 0): a day with congestion episodes."""
    with (
        ledgerkit.LocalNode(seed=0) as node,
        ledgerkit.Client(node.url, cache=False) as client,
    ):
        info = client.ledger_info().value
        records: list[Any] = []
        for start in range(0, info.ledger_version + 1, 100):
            records.extend(client.transactions(start=start, limit=100).value)
        heights = range(info.block_height + 1)
        # With their transactions, so that the frame holds each block's end info (the
        # execution and IO gas its limit counts).
        blocks = frames.blocks_to_frame(
            [client.block_by_height(h, with_transactions=True).value for h in heights]
        )
        yield Chain(records, frames.transactions_to_frame(records), blocks)


@pytest.fixture(scope="session")
def large() -> tuple[pd.DataFrame, pd.DataFrame]:
    return large_frames()


@pytest.fixture(autouse=True)
def _default_transformer() -> Iterator[None]:
    """Every test runs with Altair's default data transformer, which refuses more than
    5,000 rows: a chart that shipped a frame's rows would fail here."""
    with alt.data_transformers.enable("default"):
        yield
