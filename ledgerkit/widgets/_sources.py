"""Page sources for the grid: what the explorers show, asked from the node one page at a
time.

A source is called with ``(page, size, query)`` and returns a :class:`GridPage` of rows
with exact Python values. Three shapes cover the explorers:

* :class:`ListSource`: rows already at hand (an account's assets, a module's functions),
  searched in the kernel;
* :class:`CursorSource`: lists the node pages by cursor (resources, modules): pages are
  fetched as they are asked for and kept, never asked twice; a search reads the whole
  list once (bounded);
* :class:`CountedSource`: numbered lists whose length is known (an event stream, an
  account's transactions), newest first, each page one request.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import pandas as pd

from ledgerkit.widgets._cells import sort_key
from ledgerkit.widgets._grid import GridPage, SortOrder

__all__ = [
    "MAX_SEARCHED_ROWS",
    "CountedSource",
    "CursorSource",
    "ListSource",
    "Row",
    "frame_rows",
    "sorted_rows",
]

Row = Mapping[str, Any]  # a row of exact Python values
#: Most rows a search reads through (a whole resource list, say).
MAX_SEARCHED_ROWS: Final = 10_000


def frame_rows(frame: pd.DataFrame) -> list[Row]:
    """A frame's rows as dicts of Python values (missing: ``None``), its JSON text
    columns (``arguments``, ``data``...) read back into values for the grid's ``json``
    cells."""
    rows: list[dict[str, Any]] = frame.astype(object).where(frame.notna(), None).to_dict("records")
    for row in rows:
        for key, value in list(row.items()):
            if isinstance(value, str) and value[:1] in "[{":
                with contextlib.suppress(ValueError):
                    row[key] = json.loads(value)
    return list(rows)


def _matches(row: Row, keys: Sequence[str], query: str) -> bool:
    needle = query.lower()
    return any(needle in str(row.get(key, "")).lower() for key in keys)


def sorted_rows(rows: Sequence[Row], sort: SortOrder) -> list[Row]:
    """``rows`` in the order ``sort`` asks, by :func:`sort_key` (numbers exactly, decimal
    text as numbers), missing values last either way, ties in their first order."""
    keyed = [(sort_key(row.get(sort.column)), row) for row in rows]
    present = [(key, row) for key, row in keyed if key is not None]
    present.sort(key=lambda pair: pair[0], reverse=sort.descending)
    return [row for _, row in present] + [row for key, row in keyed if key is None]


class ListSource:
    """Pages of ``rows``; a query keeps the rows whose ``search_keys`` contain it. A
    sortable grid may page it sorted (``sort=``)."""

    def __init__(self, rows: Sequence[Row], search_keys: Sequence[str] = ()) -> None:
        self.rows: Sequence[Row] = list(rows)
        self.search_keys = tuple(search_keys)

    def __call__(self, page: int, size: int, query: str, sort: SortOrder | None = None) -> GridPage:
        rows = self.rows
        if query and self.search_keys:
            rows = [row for row in rows if _matches(row, self.search_keys, query)]
        if sort is not None:
            rows = sorted_rows(rows, sort)
        start = page * size
        return GridPage(rows[start : start + size], total=len(rows))


class CursorSource:
    """A list the node pages by cursor: ``fetch(cursor, limit)`` gives a page of rows and
    the next cursor (``None`` at the end).

    Every row fetched is kept, in order, and each page of the node is asked once: a
    page of the grid, another page size, a search or :meth:`all_rows` read what is kept
    and fetch only what lies beyond it.
    """

    def __init__(
        self,
        fetch: Callable[[str | None, int], tuple[Sequence[Row], str | None]],
        search_keys: Sequence[str] = (),
    ) -> None:
        self._fetch = fetch
        self.search_keys = tuple(search_keys)
        self._rows: list[Row] = []
        self._next: str | None = None
        self._done = False

    @property
    def complete(self) -> bool:
        """Whether the whole list has been fetched."""
        return self._done

    def _fill(self, count: int, limit: int) -> None:
        """Fetch pages of ``limit`` until ``count`` rows are kept or the list ends."""
        while len(self._rows) < count and not self._done:
            rows, cursor = self._fetch(self._next, limit)
            self._rows.extend(rows)
            self._next = cursor
            self._done = cursor is None or not rows

    def all_rows(self, limit: int = 100) -> list[Row]:
        """Every row of the list (at most :data:`MAX_SEARCHED_ROWS`), fetching the pages
        not yet fetched, ``limit`` rows a page."""
        self._fill(MAX_SEARCHED_ROWS, limit)
        return self._rows[:MAX_SEARCHED_ROWS]

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        if query and self.search_keys:
            found = [r for r in self.all_rows(size) if _matches(r, self.search_keys, query)]
            start = page * size
            return GridPage(found[start : start + size], total=len(found))
        start, end = page * size, (page + 1) * size
        self._fill(end, size)
        total = len(self._rows) if self._done else None
        if start >= len(self._rows):
            return GridPage([], total=len(self._rows))
        more = len(self._rows) > end or not self._done
        return GridPage(self._rows[start:end], total=total, more=more)


class CountedSource:
    """A numbered list of ``count`` items, newest first: ``fetch(start, limit)`` gives the
    items ``start .. start + limit - 1`` (oldest first, as the node pages them)."""

    def __init__(self, fetch: Callable[[int, int], Sequence[Row]], count: int) -> None:
        self._fetch = fetch
        self.count = count

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        end = self.count - page * size
        if end <= 0:
            return GridPage([], total=self.count)
        start = max(0, end - size)
        rows = self._fetch(start, end - start)
        return GridPage(list(reversed(rows)), total=self.count)
