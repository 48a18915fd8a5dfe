"""The gas dashboard: the interactive gas chart over a grid of the transactions in the
time range brushed on it.

The chart is the charts package's (``interactive_gas_chart``, Vega bundled offline); the
grid pages the frame in the kernel, so a frame of 100,000 transactions still sends one
page to the browser, and sorts it there too (exact integers sort as numbers). The grid
counts what the chart counts, the user transactions, unless "all transactions" is
ticked, newest first until a header is clicked. Brushing again refilters; clearing the
brush shows them all. Enter or a double-click on a row opens the transaction inspector
beneath, when the dashboard has a client to read it with.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any, Final

import ipywidgets
import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit.charts import BRUSH, brushed_range, filter_by_brush, interactive_gas_chart
from ledgerkit.widgets._grid import Column, GridPage, LedgerGrid, SortOrder
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._static import with_static_html
from ledgerkit.widgets._transaction_inspector import TransactionInspector

__all__ = ["GasDashboard"]

_COLUMNS: Final = [
    Column("version", "Version", "version"),
    Column("timestamp", "Time (UTC)", "time"),
    Column("sender", "Sender", "address"),
    Column("function", "Function", "move"),
    Column("gas_used", "Gas", "int"),
    Column("gas_unit_price", "Price", "int"),
    Column("success", "OK", "bool"),
]
#: The columns a search looks in.
_SEARCHED: Final = ("function", "sender")


def user_transactions(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows the gas chart counts: user transactions that have a time."""
    if "type" not in frame.columns or "timestamp" not in frame.columns:
        raise InputError("a transactions frame (frames.transactions_to_frame) is needed")
    user = (frame["type"].astype("string") == "user_transaction").fillna(False).to_numpy(bool)
    user &= frame["timestamp"].notna().to_numpy(bool)
    return frame[user]


class FrameSource:
    """Pages of a frame's rows (converted one page at a time), searched by function or
    sender and sorted by any column, in the kernel.

    The last search and order asked are kept, so paging through them sorts once.
    """

    def __init__(self, frame: pd.DataFrame, columns: Sequence[str]) -> None:
        self.columns = [c for c in columns if c in frame.columns]
        self._frame = frame
        self._kept: tuple[str, SortOrder | None, pd.DataFrame] | None = None

    @property
    def frame(self) -> pd.DataFrame:
        """The rows paged (before the search)."""
        return self._frame

    @frame.setter
    def frame(self, frame: pd.DataFrame) -> None:
        self._frame = frame
        self._kept = None

    def listing(self, query: str, sort: SortOrder | None) -> pd.DataFrame:
        """The rows matching ``query`` in the order ``sort`` asks (the frame's own for
        None; missing values last either way, ties in the frame's order)."""
        if self._kept is not None and self._kept[:2] == (query, sort):
            return self._kept[2]
        frame = self._frame
        if query:
            needle = query.lower()
            hit = pd.Series(False, index=frame.index)
            for name in _SEARCHED:
                if name in frame.columns:
                    hit |= (
                        frame[name]
                        .astype("string")
                        .str.lower()
                        .str.contains(needle, regex=False)
                        .fillna(False)
                    )
            frame = frame[hit]
        if sort is not None and sort.column in frame.columns:
            frame = frame.sort_values(
                sort.column, ascending=not sort.descending, kind="stable", na_position="last"
            )
        self._kept = (query, sort, frame)
        return frame

    def __call__(self, page: int, size: int, query: str, sort: SortOrder | None = None) -> GridPage:
        frame = self.listing(query, sort)
        part = frame.iloc[page * size : (page + 1) * size][self.columns]
        rows = part.astype(object).where(part.notna(), None).to_dict("records")
        return GridPage(rows, total=len(frame))


class GasDashboard(ipywidgets.VBox):  # type: ignore[misc]
    """Gas over time with a brush, above the transactions in the brushed range.

    Parameters
    ----------
    transactions : DataFrame
        A frame of ``ledgerkit.frames.transactions_to_frame``.
    blocks : DataFrame, optional
        Its blocks (``blocks_to_frame``), for block utilisation.
    client : ReadClient, optional
        The node the transactions came from: Enter or a double-click on a row then
        opens the transaction inspector beneath the grid.

    Attributes
    ----------
    chart : altair.JupyterChart
        The chart; ``chart.selections.brush`` holds the range.
    grid : LedgerGrid
        The transactions in the range (all of them without one), newest first, sortable
        by any column: the user transactions, as the chart counts them, or every transaction
        when :attr:`all_transactions` is ticked.
    all_transactions : ipywidgets.Checkbox
        Whether the grid lists every transaction (block metadata, state checkpoints...)
        rather than the user transactions alone.
    inspector : TransactionInspector or None
        The transaction opened from the grid, if any.
    """

    def __init__(
        self,
        transactions: pd.DataFrame,
        *,
        blocks: pd.DataFrame | None = None,
        client: ReadClient | None = None,
    ) -> None:
        self.transactions = transactions
        self.user = user_transactions(transactions)
        self.client = client
        self.inspector: TransactionInspector | None = None
        self.chart = interactive_gas_chart(transactions, blocks=blocks)
        self._brush: Any = None
        self.all_transactions = ipywidgets.Checkbox(
            value=False,
            description="all transactions (block metadata, checkpoints...)",
            indent=False,
            layout=ipywidgets.Layout(width="auto"),
        )
        self._source = FrameSource(self.user, [c.name for c in _COLUMNS])
        self.grid = LedgerGrid(self._source, _COLUMNS, sortable=True)
        # Newest first, as every listing of the explorers; a header click sorts otherwise.
        self.grid.sort_by("version", descending=True)
        self._retitle()
        self.all_transactions.observe(self._rescope, "value")
        self._message = ipywidgets.HTML()
        self._below = ipywidgets.VBox()
        self.grid.observe(self._retitle, ["total", "query"])
        self.grid.on_activate(self._open)
        self.chart.selections.observe(self._brushed, [BRUSH])
        super().__init__(
            children=[self.chart, self.all_transactions, self.grid, self._message, self._below]
        )
        self.add_class("lk-gas-dashboard")

    # -- what the grid lists -------------------------------------------------------------------

    def _scope(self) -> pd.DataFrame:
        """User transactions or all of them, before the brush."""
        return self.transactions if self.all_transactions.value else self.user

    def _title(self) -> str:
        scope = self._scope()
        noun = "transactions" if self.all_transactions.value else "user transactions"
        brushed = brushed_range(self._brush) is not None
        query = self.grid.query
        if not brushed and not query:
            return f"All {len(scope):,} {noun}"
        count = self.grid.total if self.grid.total is not None else len(self._source.frame)
        text = f"{count:,} of {len(scope):,} {noun}"
        if brushed:
            text += " in the brushed range"
        if query:
            text += f" matching “{query}”"
        return text

    def _retitle(self, _change: Any = None) -> None:
        self.grid.title = self._title()

    def _refilter(self) -> None:
        self._source.frame = filter_by_brush(self._scope(), self._brush)
        self.grid.go(0)
        self._retitle()

    def _brushed(self, change: Any) -> None:
        self._brush = change["new"]
        self._refilter()

    def _rescope(self, _change: Any) -> None:
        self._refilter()

    # -- drilling in -------------------------------------------------------------------------

    def _open(self, row: Mapping[str, Any], _column: str) -> None:
        version = row.get("version")
        if version is None:
            return
        if self.client is None:
            self._message.value = (
                "<div class='lk-message'>To open a transaction, give the dashboard the "
                "client it came from: <code>GasDashboard(frame, client=client)</code>.</div>"
            )
            return
        self._message.value = ""
        self.inspector = TransactionInspector(self.client, int(version))
        close = ipywidgets.Button(description="✕ Close", layout=ipywidgets.Layout(width="auto"))
        close.on_click(lambda _b: self._close())
        heading = ipywidgets.HTML(
            f"<b>Transaction {html.escape(f'{int(version):,}')}</b>",
            layout=ipywidgets.Layout(margin="0 8px 0 0"),
        )
        self._below.children = [
            ipywidgets.HBox([heading, close], layout=ipywidgets.Layout(align_items="center")),
            self.inspector,
        ]

    def _close(self) -> None:
        self.inspector = None
        self._below.children = []

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live dashboard, and beside it the chart as an image and the grid's page as
        a table, for frontends without a kernel."""
        return with_static_html(super()._repr_mimebundle_(**kwargs), self, **kwargs)

    def __repr__(self) -> str:
        return f"GasDashboard({len(self.transactions):,} transactions)"
