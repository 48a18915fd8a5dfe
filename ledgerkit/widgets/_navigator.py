"""What every explorer shares: a header with Back and a breadcrumb, a message line, and
drill-down from one view into another inside the same widget.

An explorer is a :class:`Navigator` showing one view at a time. ``open_account``,
``open_table``, ``open_transaction`` and ``open_events`` build the next view and push it;
Back returns to the previous one. A node's refusal or an unreachable node is shown on the
message line (one sentence, no traceback), never raised out of a click.

The navigator knows no explorer: each explorer module registers the views it builds
(:func:`register_view`, a view kind such as ``"account"`` -> its factory), and the
navigator opens a view by its kind. So an account drills into a table or a transaction
and back with no module importing another explorer's.

A view's tabs are built when first shown (:class:`LazyTabs`): opening an account asks
the node only for what its first tab shows.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets
import pandas as pd

from ledgerkit._errors import LedgerError
from ledgerkit.models import AbiCache
from ledgerkit.types import Address
from ledgerkit.widgets._grid import LedgerGrid
from ledgerkit.widgets._move_rows import StructLayouts
from ledgerkit.widgets._names import short
from ledgerkit.widgets._read_client import ReadClient, require_sync
from ledgerkit.widgets._static import with_static_html

__all__ = ["VIEWS", "LazyTabs", "Navigator", "View", "ViewFactory", "register_view", "short"]

T = TypeVar("T")
_log = logging.getLogger("ledgerkit.widgets")

#: A view's factory: ``factory(navigator, *arguments) -> View``.
ViewFactory = Callable[..., "View"]
#: The views navigators open, by kind (``"account"``, ``"table"``, ``"transaction"``,
#: ``"events"``), filled by the explorer modules as they are imported.
VIEWS: dict[str, ViewFactory] = {}


def register_view(kind: str, factory: ViewFactory) -> None:
    """Let every navigator open views of ``kind`` with ``factory(navigator, *args)``."""
    VIEWS[kind] = factory


class View(ipywidgets.VBox):  # type: ignore[misc]
    """One page of an explorer: a title for the breadcrumb, and the grids it holds (the
    last one used answers ``selected`` and ``to_frame``).

    ``tabs``, when the view has them, builds each tab when it is first shown; the grids
    of a tab join :attr:`grids` then.
    """

    def __init__(
        self,
        title: str,
        children: list[Any],
        grids: list[LedgerGrid],
        *,
        tabs: LazyTabs | None = None,
    ) -> None:
        super().__init__(children=children)
        self.title = title
        self.grids: list[LedgerGrid] = []
        self.focused: LedgerGrid | None = None
        self.tabs = tabs
        self.add_grids([*grids, *(tabs.grids if tabs is not None else [])])
        if tabs is not None:
            tabs.on_built(self.add_grids)

    def add_grids(self, grids: list[LedgerGrid]) -> None:
        """Hold ``grids`` too (the first grid of a view is the one focused at first)."""
        for grid in grids:
            self.grids.append(grid)
            grid.on_select(self._focuser(grid))
        if self.focused is None and self.grids:
            self.focused = self.grids[0]

    def show(self, tab: str) -> None:
        """Show the tab titled ``tab`` (built now if it was not yet), as a click on it does.

        Raises
        ------
        KeyError
            The view has no tab of that title.
        """
        if self.tabs is None:
            raise KeyError(f"{self.title!r} has no tabs")
        self.tabs.show(tab)

    def _focuser(self, grid: LedgerGrid) -> Callable[[Any], None]:
        def focus(_row: Any) -> None:
            self.focused = grid

        return focus

    def __repr__(self) -> str:
        return f"View({self.title!r})"


class LazyTabs(ipywidgets.Tab):  # type: ignore[misc]
    """Tabs whose content is built when the tab is first shown.

    ``builders`` are ``(title, build)`` pairs; ``build()`` returns the tab's widget and
    the grids it holds. The first tab is built at once (it is shown); the others when
    selected, from the browser or from Python (``selected_index``, :meth:`show`).
    ``guard(what, build)`` runs each build (the navigator's: a failure is said on its
    message line); a tab whose building failed stays empty and is built again when
    next selected.
    """

    def __init__(
        self,
        builders: list[tuple[str, Callable[[], tuple[Any, list[LedgerGrid]]]]],
        *,
        guard: Callable[[str, Callable[[], Any]], Any] | None = None,
    ) -> None:
        self._builders = builders
        self._guard = guard
        self._built: set[int] = set()
        self._listeners: list[Callable[[list[LedgerGrid]], None]] = []
        #: The grids of the tabs built so far, in the order they were built.
        self.grids: list[LedgerGrid] = []
        self.names = [title for title, _ in builders]
        super().__init__(children=[ipywidgets.VBox() for _ in builders])
        # Each label whole, wrapping onto a second line when the tabs do not fit.
        self.add_class("lk-tabs")
        for index, title in enumerate(self.names):
            self.set_title(index, title)
        self.observe(self._selected, "selected_index")
        self._build(0)

    @property
    def built(self) -> list[str]:
        """The titles of the tabs built so far."""
        return [self.names[i] for i in sorted(self._built)]

    def first_grid(self) -> LedgerGrid | None:
        """The first grid of these tabs, building tabs in order (without showing them)
        until one holds a grid; ``None`` when none does."""
        for index in range(len(self._builders)):
            if self.grids:
                break
            self._build(index)
        return self.grids[0] if self.grids else None

    def on_built(self, callback: Callable[[list[LedgerGrid]], None]) -> None:
        """Call ``callback(grids)`` with the grids of each tab built from now on."""
        self._listeners.append(callback)

    def show(self, title: str) -> None:
        """Select the tab titled ``title``."""
        if title not in self.names:
            raise KeyError(f"no tab {title!r}; tabs are {', '.join(self.names)}")
        self.selected_index = self.names.index(title)

    def _selected(self, change: Any) -> None:
        index = change["new"]
        if isinstance(index, int) and 0 <= index < len(self._builders):
            self._build(index)

    def _build(self, index: int) -> None:
        if index in self._built or not self._builders:
            return
        self._built.add(index)
        title, build = self._builders[index]
        made = build() if self._guard is None else self._guard(title.lower(), build)
        if made is None:
            self._built.discard(index)
            return
        content, grids = made
        self.children[index].children = [content]
        self.grids.extend(grids)
        for callback in list(self._listeners):
            callback(grids)


class Navigator(ipywidgets.VBox):  # type: ignore[misc]
    """The frame of an explorer: header, message line, and the current view.

    Parameters
    ----------
    client : ReadClient
        The node to read from: a :class:`ledgerkit.Client` or any :class:`ReadClient`.

    Raises
    ------
    InputError
        ``client`` is an :class:`ledgerkit.AsyncClient` (or has no reading method).
    """

    def __init__(self, client: ReadClient) -> None:
        self.client: ReadClient = require_sync(client, type(self).__name__)
        self._memo: dict[Any, Any] = {}
        self._back = ipywidgets.Button(description="◀ Back", layout=ipywidgets.Layout(width="auto"))
        self._back.on_click(lambda _b: self.back())
        self._crumbs = ipywidgets.HTML()
        self._message = ipywidgets.HTML()
        self._header = ipywidgets.HBox(
            [self._back, self._crumbs], layout=ipywidgets.Layout(align_items="center")
        )
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

    def _focused_grid(self) -> LedgerGrid | None:
        # A view whose shown tab holds no grid (a transaction's summary) answers for its
        # first tab that does, built now if it was not yet.
        view = self.view
        if view is None:
            return None
        if view.focused is None and view.tabs is not None:
            view.tabs.first_grid()
        return view.focused

    @property
    def selected(self) -> Any:
        """The row selected in the grid last used, with exact values (``None``: none)."""
        grid = self._focused_grid()
        return None if grid is None else grid.selected

    def to_frame(self) -> pd.DataFrame:
        """The rows shown in the grid last used (or the view's first grid), as a frame
        with exact dtypes."""
        grid = self._focused_grid()
        if grid is None:
            return pd.DataFrame()
        return grid.to_frame()

    def memo(self, key: Any, make: Callable[[], T]) -> T:
        """What ``make()`` gives, made once per ``key`` for this explorer (a source of
        resources pinned at a ledger version, the modules' ABIs...)."""
        if key not in self._memo:
            self._memo[key] = make()
        found: T = self._memo[key]
        return found

    @property
    def abis(self) -> AbiCache:
        """The module ABIs this explorer has read, for all its views: each asked once."""
        cache: AbiCache = self.memo("abi cache", AbiCache)
        return cache

    @property
    def layouts(self) -> StructLayouts:
        """The struct layouts of this explorer's views, from :attr:`abis`."""
        client = self.client
        return self.memo(
            "struct layouts",
            lambda: StructLayouts(self.abis, lambda a, m: client.account_module(a, m).value.abi),
        )

    # -- drill-down -------------------------------------------------------------------------

    def open_view(self, kind: str, *args: Any) -> None:
        """Build a view of ``kind`` (see :data:`VIEWS`) from ``args`` and show it; a
        failure is said on the message line, and the current view stays."""
        factory = VIEWS.get(kind)
        if factory is None:
            self.say(f"{kind}: no such view")
            return
        view = self.guard(kind, lambda: factory(self, *args))
        if view is not None:
            self.push(view)

    def open_account(self, address: str | Address) -> None:
        """Show an account (its overview, resources, modules, events, transactions)."""
        self.open_view("account", address)

    def open_table(self, handle: str, key_type: Any = None, value_type: Any = None) -> None:
        """Show a table: typed look-up, raw look-up, and the items the ledger wrote."""
        self.open_view("table", handle, key_type, value_type)

    def open_transaction(self, ref: int | str) -> None:
        """Show a transaction by version or hash."""
        self.open_view("transaction", ref)

    def open_events(
        self, address: str, creation_number: int | str, title: str = "", count: int | None = None
    ) -> None:
        """Show an event stream of an account, newest first (``count``: its length, when
        known from its handle)."""
        self.open_view("events", address, creation_number, title, count)

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

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live explorer, and beside it an HTML snapshot of the view it shows (its
        open tab, grids as tables) for frontends without a kernel."""
        return with_static_html(super()._repr_mimebundle_(**kwargs), self, **kwargs)

    def __repr__(self) -> str:
        where = " \u203a ".join(v.title for v in self._history) or "nothing"
        return f"{type(self).__name__}({where})"
