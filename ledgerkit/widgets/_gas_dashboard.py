"""The gas dashboard: the interactive gas chart over a grid of the transactions in the
time range brushed on it.

The chart is the charts package's (``interactive_gas_chart``, Vega bundled offline); the
grid pages the frame in the kernel, so a frame of 100,000 transactions still sends one
page to the browser. Brushing again refilters; clearing the brush shows them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import ipywidgets as w
import pandas as pd

from ledgerkit.charts import BRUSH, filter_by_brush, interactive_gas_chart
from ledgerkit.widgets._grid import Column, GridPage, LedgerGrid
from ledgerkit.widgets._static import with_static_html

__all__ = ["GasDashboard"]

_COLUMNS: Final = [
    Column("version", "Version", "version"),
    Column("timestamp", "Time (UTC)", "time"),
    Column("sender", "Sender", "address"),
    Column("function", "Function"),
    Column("gas_used", "Gas", "int"),
    Column("gas_unit_price", "Price", "int"),
    Column("success", "OK", "bool"),
]


class _FrameSource:
    """Pages of a frame's rows (converted one page at a time), searched by function or
    sender."""

    def __init__(self, frame: pd.DataFrame, columns: Sequence[str]) -> None:
        self.columns = [c for c in columns if c in frame.columns]
        self.frame = frame

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        frame = self.frame
        if query:
            needle = query.lower()
            hit = pd.Series(False, index=frame.index)
            for name in ("function", "sender"):
                if name in frame.columns:
                    hit |= (
                        frame[name]
                        .astype("string")
                        .str.lower()
                        .str.contains(needle, regex=False)
                        .fillna(False)
                    )
            frame = frame[hit]
        part = frame.iloc[page * size : (page + 1) * size][self.columns]
        rows = part.astype(object).where(part.notna(), None).to_dict("records")
        return GridPage(rows, total=len(frame))


class GasDashboard(w.VBox):  # type: ignore[misc]
    """Gas over time with a brush, above the transactions in the brushed range.

    Parameters
    ----------
    transactions : DataFrame
        A frame of ``ledgerkit.frames.transactions_to_frame``.
    blocks : DataFrame, optional
        Its blocks (``blocks_to_frame``), for block utilisation.

    Attributes
    ----------
    chart : altair.JupyterChart
        The chart; ``chart.selections.brush`` holds the range.
    grid : LedgerGrid
        The transactions in the range (all of them without one).
    """

    def __init__(self, transactions: pd.DataFrame, *, blocks: pd.DataFrame | None = None) -> None:
        self.transactions = transactions
        self.chart = interactive_gas_chart(transactions, blocks=blocks)
        self._source = _FrameSource(transactions, [c.name for c in _COLUMNS])
        self.grid = LedgerGrid(self._source, _COLUMNS, title=self._title(transactions))
        self.chart.selections.observe(self._brushed, [BRUSH])
        super().__init__(children=[self.chart, self.grid])
        self.add_class("lk-gas-dashboard")

    def _title(self, frame: pd.DataFrame) -> str:
        if len(frame) == len(self.transactions):
            return f"All {len(frame):,} transactions"
        return f"{len(frame):,} of {len(self.transactions):,} transactions in the brushed range"

    def _brushed(self, change: Any) -> None:
        chosen = filter_by_brush(self.transactions, change["new"])
        self._source.frame = chosen
        self.grid.title = self._title(chosen)
        self.grid.go(0)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live dashboard, and beside it the chart as an image and the grid's page as
        a table, for frontends without a kernel."""
        return with_static_html(super()._repr_mimebundle_(**kwargs), self, **kwargs)

    def __repr__(self) -> str:
        return f"GasDashboard({len(self.transactions):,} transactions)"
