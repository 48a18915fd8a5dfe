"""LedgerGrid: a paged table whose pages are fetched by the kernel, one at a time.

The widget asks a :class:`PageSource` for one page and sends only that page to the
browser, as JSON that JavaScript reads exactly (see :mod:`ledgerkit.widgets._cells`).
The browser (``static/grid.js`` and the modules it imports, composed by
:mod:`ledgerkit.widgets._front_end`) never changes the widget's state itself: it sends a
message (``page``, ``search``, ``select``, ``activate``, ``size``, ``sort``, ``expand``,
``collapse``) and draws what the kernel sets in return. An expanded row is built here
from the row's exact values (:mod:`ledgerkit.widgets._value_tree`), never from the text
of its cells.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import anywidget
import pandas as pd
import traitlets

from ledgerkit._errors import InputError
from ledgerkit.widgets._cells import KINDS, display_row, exact_frame
from ledgerkit.widgets._front_end import compose_module, compose_styles
from ledgerkit.widgets._static import with_static_html
from ledgerkit.widgets._value_tree import FieldLayouts, row_details

__all__ = ["Column", "GridPage", "LedgerGrid", "PageSource", "SortOrder", "SortedPageSource"]

_log = logging.getLogger("ledgerkit.widgets")

_STATIC: Final = Path(__file__).parent / "static"
#: The grid's style sheets, in the order of the cascade.
_STYLES: Final = (
    "grid.css",
    "grid-head.css",
    "grid-body.css",
    "grid-detail.css",
    "grid-pager.css",
    "explorer.css",
)
#: Bounds of what the browser (or a caller) may ask for.
MIN_PAGE_SIZE: Final = 5
MAX_PAGE_SIZE: Final = 200
MAX_QUERY: Final = 200
#: An error line longer than this is cut (the full exception goes to the log).
_ERROR_LIMIT: Final = 300


@dataclass(frozen=True)
class Column:
    """One column of a :class:`LedgerGrid`.

    Parameters
    ----------
    name : str
        The key of the column's values in the row mappings.
    label : str
        Header text; the name when empty.
    kind : str
        How the values are shown: ``"text"``, ``"int"``, ``"address"``, ``"hash"``,
        ``"version"``, ``"handle"``, ``"move"``, ``"bool"``, ``"json"`` or ``"time"``.
        Addresses, hashes and handles are shortened with the full value in a tooltip
        and a copy button; ``move`` (a Move type or function) is shown with each long
        address in it shortened, the full value in a tooltip and a copy button; ints and
        versions are right-aligned; ``json`` values are compact JSON text; ``time``
        takes datetimes or integer microseconds. A cell cut by its column's width ends
        in an ellipsis and shows its whole value in its tooltip.
    type_from : str
        The name of the column (or row key) holding this column's Move type, e.g. a
        resource's struct tag beside its value: an expanded row then shows each field
        of the value with its type. ``""``: none.
    keep : bool
        Never cut this column's text to fit the widget's width (the values a reader came
        for: an account's change per asset, its roles); other text columns give way first
        (in the order the widgets guide states, under "Widths").
    """

    name: str
    label: str = ""
    kind: str = "text"
    type_from: str = ""
    keep: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InputError(f"a column needs a name, got {self.name!r}")
        if self.kind not in KINDS:
            raise InputError(
                f"unknown column kind {self.kind!r} for {self.name!r}; "
                f"kinds are {', '.join(sorted(KINDS))}"
            )
        if not isinstance(self.type_from, str):
            raise InputError(f"type_from is a column name, got {self.type_from!r}")


@dataclass(frozen=True)
class SortOrder:
    """How a sortable grid's rows are ordered: by ``column``, ascending unless
    ``descending``. Missing values come last either way."""

    column: str
    descending: bool = False


@dataclass(frozen=True)
class GridPage:
    """One page of rows, as a :class:`PageSource` returns it.

    Parameters
    ----------
    rows : sequence of mappings
        The page's rows with their exact Python values (ints of any size, ``Address``,
        bytes, dicts...); at most the page size.
    total : int or None
        The number of rows of the whole listing, when known.
    more : bool
        When ``total`` is unknown: whether a next page exists.
    """

    rows: Sequence[Mapping[str, Any]]
    total: int | None = None
    more: bool = False

    def __post_init__(self) -> None:
        if self.total is not None and (
            isinstance(self.total, bool) or not isinstance(self.total, int) or self.total < 0
        ):
            raise InputError(f"a page's total is a count or None, got {self.total!r}")


class PageSource(Protocol):
    """What a grid asks for its rows: ``source(page, size, query) -> GridPage``.

    ``page`` counts from 0, ``size`` is the page size, ``query`` the search text (``""``
    when there is none). A source that raises shows its error in the grid.
    """

    def __call__(self, page: int, size: int, query: str) -> GridPage: ...


class SortedPageSource(Protocol):
    """The source of a sortable grid: ``source(page, size, query, sort=None)``.

    ``sort`` is the :class:`SortOrder` of the whole listing (None: the source's own
    order); the page asked is a page of the sorted listing.
    """

    def __call__(
        self, page: int, size: int, query: str, sort: SortOrder | None = None
    ) -> GridPage: ...


SelectCallback = Callable[[Mapping[str, Any] | None], None]
ActivateCallback = Callable[[Mapping[str, Any], str], None]
FrameBuilder = Callable[[Sequence[Mapping[str, Any]]], pd.DataFrame]


class LedgerGrid(anywidget.AnyWidget):
    """A paged, searchable table of ledger records, fetched one page at a time.

    Only the current page crosses to the browser. Integers beyond what JavaScript
    holds, addresses and bytes travel as text; :attr:`selected` and :meth:`to_frame`
    give the exact Python values back.

    Parameters
    ----------
    source : PageSource
        ``source(page, size, query) -> GridPage``; asked for page 0 right away.
    columns : sequence of Column
        The columns shown, in order.
    page_size : int
        Rows per page, 5 to 200.
    title : str
        Shown above the table.
    searchable : bool
        Whether the search box is shown (its text reaches the source as ``query``).
    frame : callable, optional
        ``frame(rows) -> DataFrame`` for :meth:`to_frame`, e.g. a converter of
        :mod:`ledgerkit.frames`; a default keeps each value exact.
    sortable : bool
        Whether a click on a header sorts by that column (again: the other way). The
        source is then a :class:`SortedPageSource`, called with ``sort=``.
    layouts : FieldLayouts, optional
        Struct layouts (``fields(tag)``) typing the fields of Move values in an
        expanded row (see ``Column.type_from``); an explorer's ``layouts``.
    opens_on_click : bool
        Whether a single click on a row activates it (as a double-click or Enter does),
        for a list whose rows each open something; its rows then look like links.

    Notes
    -----
    A row expands (its ▸ toggle, Space, or Enter when nothing is activated on Enter)
    to show every value of the row in full: text whole, a structured value as an
    indented tree with the Move type of each field, each with a copy button. The
    browser sizes the columns to their content within the widget's width, hides the
    columns empty on the page shown, and lets a column be resized by dragging the
    edge of its header, or from the keyboard: Tab reaches each header's edge, ← and →
    move it by 10 pixels (50 with Shift), Home and End to 32 and 2,000 pixels, Enter
    fits the column to its content again (as a double-click on the edge does). A width
    chosen either way is kept across pages.

    Examples
    --------
    >>> rows = [{"n": n, "square": n * n} for n in range(95)]
    >>> def source(page, size, query):
    ...     return GridPage(rows[page * size : (page + 1) * size], total=len(rows))
    >>> grid = LedgerGrid(source, [Column("n", kind="int"), Column("square", kind="int")])
    >>> grid
    LedgerGrid(2 columns, page 1 of 5, 20 rows)
    """

    _esm = compose_module(_STATIC, "grid.js")
    _css = compose_styles(_STATIC, _STYLES)

    columns = traitlets.List(traitlets.Dict()).tag(sync=True)
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)
    page = traitlets.Int(0).tag(sync=True)
    page_size = traitlets.Int(20).tag(sync=True)
    total = traitlets.Int(None, allow_none=True).tag(sync=True)
    more = traitlets.Bool(False).tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    selected_index = traitlets.Int(-1).tag(sync=True)
    loading = traitlets.Bool(False).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    searchable = traitlets.Bool(True).tag(sync=True)
    sortable = traitlets.Bool(False).tag(sync=True)
    sort = traitlets.Dict().tag(sync=True)
    activatable = traitlets.Bool(False).tag(sync=True)
    opens_on_click = traitlets.Bool(False).tag(sync=True)
    detail = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        source: PageSource,
        columns: Sequence[Column],
        *,
        page_size: int = 20,
        title: str = "",
        searchable: bool = True,
        frame: FrameBuilder | None = None,
        sortable: bool = False,
        layouts: FieldLayouts | None = None,
        opens_on_click: bool = False,
    ) -> None:
        if not callable(source):
            raise InputError(f"a grid's source is a callable, got {type(source).__name__}")
        columns = tuple(columns)
        if not columns or not all(isinstance(column, Column) for column in columns):
            raise InputError("a grid needs at least one Column")
        names = [column.name for column in columns]
        if len(set(names)) != len(names):
            raise InputError(f"column names repeat: {names}")
        _check_page_size(page_size)
        self._source = source
        self._frame = frame
        self._layouts = layouts
        self._columns = columns
        self._kinds = [(column.name, column.kind) for column in columns]
        self._exact: list[Mapping[str, Any]] = []
        self._on_select: list[SelectCallback] = []
        self._on_activate: list[ActivateCallback] = []
        # Set while the grid writes its own state, so the observers do not reload.
        self._applying = True
        super().__init__()
        self.columns = [
            {"name": c.name, "label": c.label or c.name, "kind": c.kind, "keep": c.keep}
            for c in columns
        ]
        self.page_size = page_size
        self.title = title
        self.searchable = searchable
        self.opens_on_click = opens_on_click
        self.sortable = bool(sortable)
        self._applying = False
        self.on_msg(self._on_message)
        self._load(0, page_size, "")

    # -- public ---------------------------------------------------------------------------

    @property
    def selected(self) -> Mapping[str, Any] | None:
        """The selected row with its exact Python values, or None."""
        index = self.selected_index
        return self._exact[index] if 0 <= index < len(self._exact) else None

    def on_select(self, callback: SelectCallback) -> None:
        """Call ``callback(row)`` when the selection changes (``row`` is None when cleared)."""
        self._on_select.append(callback)

    def on_activate(self, callback: ActivateCallback) -> None:
        """Call ``callback(row, column)`` on Enter or a double-click.

        ``column`` is the name of the focused (or double-clicked) cell's column.
        """
        self._on_activate.append(callback)
        self.activatable = True

    @property
    def sort_order(self) -> SortOrder | None:
        """The order of the rows of a sortable grid (None: the source's own)."""
        column = self.sort.get("column")
        if not isinstance(column, str) or not column:
            return None
        return SortOrder(column, bool(self.sort.get("descending")))

    def sort_by(self, column: str | None, *, descending: bool = False) -> None:
        """Order the rows by ``column`` (None: the source's own order), from page 1.

        Raises
        ------
        InputError
            The grid is not sortable, or has no such column.
        """
        if not self.sortable:
            raise InputError("this grid is not sortable")
        order = None if column is None else SortOrder(column, bool(descending))
        if order is not None and order.column not in {name for name, _ in self._kinds}:
            raise InputError(f"no column {column!r} to sort by")
        self._load(0, self.page_size, self.query, order=order)

    def expand(self, index: int) -> None:
        """Show the row at ``index`` of the page in full (as its toggle does); -1 closes it."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise InputError(f"a row index is an integer, got {index!r}")
        self._expand(index)

    def refresh(self) -> None:
        """Ask the source for the current page again (the selection stays where it was)."""
        self._load(self.page, self.page_size, self.query, select=self.selected_index)

    def go(self, page: int) -> None:
        """Load ``page`` (from 0); past the last page when the total is known, the last one.

        Raises
        ------
        InputError
            ``page`` is not an integer >= 0.
        """
        _check_page(page)
        self._load(page, self.page_size, self.query)

    def to_frame(self) -> pd.DataFrame:
        """The rows shown, as a DataFrame with exact dtypes.

        ``frame(rows)`` when the grid was given one; otherwise one column per grid
        column: integers as ``UInt64`` (``Int64`` when negative, an ``object`` column of
        Python ints beyond 64 bits), addresses as their long ``string`` form, bytes as
        ``0x`` + hex, bools ``boolean``, ``time`` columns ``datetime64[us, UTC]``, other
        values (JSON, mixtures) an ``object`` column of the values themselves.
        """
        if self._frame is not None:
            return self._frame(list(self._exact))
        frame: pd.DataFrame = exact_frame(self._exact, self._kinds)
        return frame

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live grid, and beside it its current page as an HTML table for frontends
        without a kernel."""
        return with_static_html(super()._repr_mimebundle_(**kwargs), self, **kwargs)

    def __repr__(self) -> str:
        parts = [repr(self.title)] if self.title else []
        count = len(self._kinds)
        parts.append(f"{count} column{'s' if count != 1 else ''}")
        parts.append(self._page_text())
        shown = len(self.rows)
        parts.append(f"{shown} row{'s' if shown != 1 else ''}")
        if self.error:
            parts.append("error")
        return f"LedgerGrid({', '.join(parts)})"

    # -- loading ----------------------------------------------------------------------------

    def _page_text(self) -> str:
        if self.total is not None:
            return f"page {self.page + 1} of {_page_count(self.total, self.page_size)}"
        return f"page {self.page + 1}" + (", more available" if self.more else "")

    def _load(
        self,
        page: int,
        size: int,
        query: str,
        *,
        select: int | str = -1,
        order: SortOrder | str | None = "same",
    ) -> bool:
        """Ask the source for a page and show it; on failure keep what is shown.

        ``select`` is the row to select once loaded: an index (-1 for none), ``"first"``
        or ``"last"``; ``order`` the sort order asked (``"same"``: the current one).
        Returns whether the page was loaded.
        """
        sort = self.sort_order if isinstance(order, str) else order
        if self.total is not None and query == self.query:  # the total is still the listing's
            page = min(page, _page_count(self.total, size) - 1)
        self.loading = True
        try:
            if self.sortable:
                got = self._source(page, size, query, sort=sort)  # type: ignore[call-arg]
            else:
                got = self._source(page, size, query)
            if not isinstance(got, GridPage):
                raise InputError(f"the source returned {type(got).__name__}, not a GridPage")
            exact = list(got.rows[:size])
            shown = [_row(row, self._kinds) for row in exact]
        except Exception as exc:  # any failure of the source is shown, not raised
            _log.info("grid source failed for page %d", page, exc_info=True)
            with self.hold_sync():
                self.error = _error_line(f"could not load page {page + 1}", exc)
                self.loading = False
            return False
        if len(got.rows) > size:
            _log.debug("the source gave %d rows for a page of %d", len(got.rows), size)
        if select == "first":
            index = 0 if exact else -1
        elif select == "last":
            index = len(exact) - 1
        elif isinstance(select, int) and select >= 0:
            index = min(select, len(exact) - 1)  # a shorter last page: its last row
        else:
            index = -1
        had_selection = self.selected_index >= 0
        self._exact = exact
        self._applying = True
        try:
            with self.hold_sync():
                self.rows = shown
                self.page = page
                self.page_size = size
                self.query = query
                self.total = got.total
                self.more = bool(got.more) if got.total is None else (page + 1) * size < got.total
                self.selected_index = index
                self.sort = (
                    {}
                    if sort is None
                    else {
                        "column": sort.column,
                        "descending": sort.descending,
                    }
                )
                self.detail = {}
                self.error = ""
                self.loading = False
        finally:
            self._applying = False
        if had_selection or index >= 0:
            self._notify_select()
        return True

    def _notify_select(self) -> None:
        row = self.selected
        for callback in list(self._on_select):
            callback(row)

    # -- traits set from Python -------------------------------------------------------------

    @traitlets.validate("page")
    def _valid_page(self, proposal: Any) -> int:
        value: int = proposal["value"]
        _check_page(value)
        return value

    @traitlets.validate("page_size")
    def _valid_page_size(self, proposal: Any) -> int:
        value: int = proposal["value"]
        _check_page_size(value)
        return value

    @traitlets.validate("query")
    def _valid_query(self, proposal: Any) -> str:
        value: str = proposal["value"]
        if len(value) > MAX_QUERY:
            raise InputError(f"a search is at most {MAX_QUERY} characters, got {len(value)}")
        return value

    @traitlets.observe("page", "page_size", "query")
    def _reload(self, change: Any) -> None:
        """Setting ``page``, ``page_size`` or ``query`` from Python loads the page it names."""
        if self._applying:
            return
        name, old = change["name"], change["old"]
        if name == "page":
            loaded = self._load(self.page, self.page_size, self.query)
        elif name == "query":
            loaded = self._load(0, self.page_size, self.query)
        else:
            loaded = self._load(old * self.page // self.page_size, self.page_size, self.query)
        if not loaded:
            self._applying = True
            try:
                setattr(self, name, old)
            finally:
                self._applying = False

    @traitlets.observe("selected_index")
    def _selection_changed(self, change: Any) -> None:
        if not self._applying:
            self._notify_select()

    # -- messages from the browser ----------------------------------------------------------

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """One message from the browser; whatever goes wrong is shown, never raised."""
        try:
            if isinstance(content, dict):
                self._dispatch(content)
        except Exception as exc:  # a comm handler must not raise
            kind = content.get("type")
            _log.warning("grid message %r failed", kind, exc_info=True)
            self.error = _error_line(f"{kind} failed", exc)

    def _dispatch(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind == "page":
            page = max(_int(content.get("page"), self.page), 0)
            where = content.get("select")
            select = where if where in ("first", "last") else _int(where, -1)
            self._load(page, self.page_size, self.query, select=select)
        elif kind == "search":
            query = content.get("query")
            if isinstance(query, str):
                self._load(0, self.page_size, query[:MAX_QUERY])
        elif kind == "size":
            size = _int(content.get("page_size"), self.page_size)
            size = min(max(size, MIN_PAGE_SIZE), MAX_PAGE_SIZE)
            self._load(self.page * self.page_size // size, size, self.query)
        elif kind == "select":
            index = _int(content.get("index"), -1)
            self.selected_index = index if 0 <= index < len(self._exact) else -1
        elif kind == "activate":
            self._activate(_int(content.get("index"), -1), content.get("column"))
        elif kind == "sort":
            self._sort_message(content.get("column"))
        elif kind == "expand":
            self._expand(_int(content.get("index"), -1))
        elif kind == "collapse":
            self.detail = {}
        else:
            _log.debug("grid message of unknown type %r ignored", kind)

    def _activate(self, index: int, column: Any) -> None:
        if not 0 <= index < len(self._exact):
            return
        if index != self.selected_index:
            self.selected_index = index
        names = [name for name, _ in self._kinds]
        name = column if column in names else names[0]
        row = self._exact[index]
        for callback in list(self._on_activate):
            callback(row, name)

    def _sort_message(self, column: Any) -> None:
        """A click on a header: that column ascending, or the other way if it is the
        column sorted already."""
        if not self.sortable or column not in {name for name, _ in self._kinds}:
            return
        current = self.sort_order
        descending = current is not None and current.column == column and not current.descending
        self._load(0, self.page_size, self.query, order=SortOrder(column, descending))

    def _expand(self, index: int) -> None:
        if not 0 <= index < len(self._exact):
            self.detail = {}
            return
        fields = row_details(self._exact[index], self._columns, self._layouts)
        self.detail = {"index": index, "fields": fields}


def _row(row: Mapping[str, Any], kinds: Sequence[tuple[str, str]]) -> dict[str, Any]:
    if not isinstance(row, Mapping):
        raise InputError(f"a row is a mapping, got {type(row).__name__}")
    return display_row(row, kinds)


def _int(value: Any, default: int) -> int:
    """An integer from a message, or ``default`` for anything else (bools included)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return default


def _check_page(page: Any) -> None:
    if isinstance(page, bool) or not isinstance(page, int) or page < 0:
        raise InputError(f"a page number is an integer >= 0, got {page!r}")


def _check_page_size(size: Any) -> None:
    if (
        isinstance(size, bool)
        or not isinstance(size, int)
        or not MIN_PAGE_SIZE <= size <= MAX_PAGE_SIZE
    ):
        raise InputError(
            f"a page size is an integer from {MIN_PAGE_SIZE} to {MAX_PAGE_SIZE}, got {size!r}"
        )


def _page_count(total: int, size: int) -> int:
    return max(1, -(-total // size))


def _error_line(doing: str, exc: BaseException) -> str:
    """``doing``, the exception's class and its message on one line, cut to a readable length."""
    text = " ".join(str(exc).split())
    line = f"{doing.capitalize()}: {type(exc).__name__}" + (f": {text}" if text else "")
    return line if len(line) <= _ERROR_LIMIT else line[: _ERROR_LIMIT - 1] + "…"
