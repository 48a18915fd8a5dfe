"""What every explorer shares: a header with Back and a breadcrumb, a message line, and
drill-down from one view into another inside the same widget.

An explorer is a :class:`Navigator` showing one view at a time. ``open_account``,
``open_table``, ``open_transaction`` and ``open_events`` build the next view and push it;
Back returns to the previous one. A node's refusal or an unreachable node is shown on the
message line (one sentence, no traceback), never raised out of a click.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as w

from ledgerkit._errors import LedgerError
from ledgerkit.types import Address
from ledgerkit.widgets._grid import LedgerGrid

__all__ = ["Navigator", "View", "short"]

T = TypeVar("T")
_log = logging.getLogger("ledgerkit.widgets")


def short(text: str, keep: int = 6) -> str:
    """``0x1234…abcd`` for a long address or hash; anything short as it is."""
    if len(text) <= 2 * keep + 3:
        return text
    return f"{text[:keep]}…{text[-4:]}"


class View(w.VBox):  # type: ignore[misc]
    """One page of an explorer: a title for the breadcrumb, and the grids it holds (the
    last one used answers ``selected`` and ``to_frame``)."""

    def __init__(self, title: str, children: list[Any], grids: list[LedgerGrid]) -> None:
        super().__init__(children=children)
        self.title = title
        self.grids = grids
        self.focused: LedgerGrid | None = grids[0] if grids else None
        for grid in grids:
            grid.on_select(self._focuser(grid))

    def _focuser(self, grid: LedgerGrid) -> Callable[[Any], None]:
        def focus(_row: Any) -> None:
            self.focused = grid

        return focus

    def __repr__(self) -> str:
        return f"View({self.title!r})"


class Navigator(w.VBox):  # type: ignore[misc]
    """The frame of an explorer: header, message line, and the current view."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._back = w.Button(description="◀ Back", layout=w.Layout(width="auto"))
        self._back.on_click(lambda _b: self.back())
        self._crumbs = w.HTML()
        self._message = w.HTML()
        self._header = w.HBox([self._back, self._crumbs], layout=w.Layout(align_items="center"))
        self._history: list[View] = []
        super().__init__(children=[self._header, self._message])
        self.add_class("lk-explorer")
        self._render()

    # -- the views --------------------------------------------------------------------------

    @property
    def view(self) -> View | None:
        """The view shown."""
        return self._history[-1] if self._history else None

    def push(self, view: View) -> None:
        """Show ``view``, keeping the current one for Back."""
        self._history.append(view)
        self.say("")
        self._render()

    def back(self) -> None:
        """Return to the previous view."""
        if len(self._history) > 1:
            self._history.pop()
            self.say("")
            self._render()

    def _render(self) -> None:
        self._back.disabled = len(self._history) < 2
        trail = " \u203a ".join(html.escape(v.title) for v in self._history[-4:])
        self._crumbs.value = f"<span class='lk-crumbs'>{trail}</span>"
        current = [self.view] if self.view is not None else []
        self.children = [self._header, self._message, *current]

    # -- messages ---------------------------------------------------------------------------

    def say(self, text: str, *, error: bool = True) -> None:
        """Show one line (an error in the theme's error colour); empty clears it."""
        if not text:
            self._message.value = ""
            return
        colour = "var(--jp-error-color1, #d32f2f)" if error else "var(--jp-ui-font-color2, #555)"
        self._message.value = (
            f"<div class='lk-message' style='color:{colour}'>{html.escape(text)}</div>"
        )

    def guard(self, what: str, action: Callable[[], T]) -> T | None:
        """``action()``, or ``None`` with the failure on the message line."""
        try:
            return action()
        except LedgerError as exc:
            self.say(f"{what}: {str(exc).splitlines()[0][:300]}")
        except Exception as exc:  # a widget must not raise into the frontend
            _log.exception("%s failed", what)
            self.say(f"{what}: {type(exc).__name__}")
        return None

    # -- what the current view offers ---------------------------------------------------------

    @property
    def selected(self) -> Any:
        """The row selected in the grid last used, with exact values (``None``: none)."""
        grid = self.view.focused if self.view is not None else None
        return None if grid is None else grid.selected

    def to_frame(self) -> Any:
        """The rows shown in the grid last used, as a frame with exact dtypes."""
        grid = self.view.focused if self.view is not None else None
        if grid is None:
            import pandas as pd

            return pd.DataFrame()
        return grid.to_frame()

    # -- drill-down -------------------------------------------------------------------------

    def open_account(self, address: str | Address) -> None:
        """Show an account (its overview, resources, modules, events, transactions)."""
        from ledgerkit.widgets._account import account_view

        view = self.guard("account", lambda: account_view(self, Address.parse(str(address))))
        if view is not None:
            self.push(view)

    def open_table(self, handle: str, key_type: Any = None, value_type: Any = None) -> None:
        """Show a table: typed look-up, raw look-up, and the items the ledger wrote."""
        from ledgerkit.widgets._table import table_view

        view = self.guard("table", lambda: table_view(self, handle, key_type, value_type))
        if view is not None:
            self.push(view)

    def open_transaction(self, ref: int | str) -> None:
        """Show a transaction by version or hash."""
        from ledgerkit.widgets._inspector import transaction_view

        view = self.guard("transaction", lambda: transaction_view(self, ref))
        if view is not None:
            self.push(view)

    def open_events(
        self, address: str, creation_number: int | str, title: str = "", count: int | None = None
    ) -> None:
        """Show an event stream of an account, newest first (``count``: its length, when
        known from its handle)."""
        from ledgerkit.widgets._account import events_view

        view = self.guard(
            "events", lambda: events_view(self, address, int(creation_number), title, count)
        )
        if view is not None:
            self.push(view)

    def follow(self, row: Any, column: str = "") -> None:
        """Open what a row points to (``points_to`` / ``target``, or a version, hash or
        address column of the row)."""
        points_to = row.get("points_to") if hasattr(row, "get") else None
        target = row.get("target") if hasattr(row, "get") else None
        if points_to == "account" and target:
            self.open_account(target)
        elif points_to == "table" and target:
            handle, key, value = target
            self.open_table(handle, key, value)
        elif points_to == "events" and target and target[0] is not None:
            where, number, count = target
            self.open_events(str(where), str(number), str(row.get("path", "")), int(count))
        elif column in ("version", "hash") and row.get(column) is not None:
            self.open_transaction(row[column])
        elif column in ("address", "sender", "account") and row.get(column):
            self.open_account(str(row[column]))
        elif column == "handle" and row.get(column):
            self.open_table(str(row[column]))
        elif row.get("version") is not None:
            self.open_transaction(row["version"])

    def __repr__(self) -> str:
        where = " \u203a ".join(v.title for v in self._history) or "nothing"
        return f"{type(self).__name__}({where})"
