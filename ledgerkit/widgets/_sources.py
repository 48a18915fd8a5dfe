"""Page sources for the grid: what the explorers show, asked from the node one page at a
time.

A source is called with ``(page, size, query)`` and returns a :class:`GridPage` of rows
with exact Python values. Three shapes cover the explorers:

* :class:`ListSource`: rows already at hand (an account's assets, a module's functions),
  searched in the kernel;
* :class:`CursorSource`: lists the node pages by cursor (resources, modules): pages are
  fetched as they are asked for and kept; a search reads the whole list once (bounded);
* :class:`CountedSource`: numbered lists whose length is known (an event stream, an
  account's transactions), newest first, each page one request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ledgerkit.widgets._grid import GridPage

__all__ = ["MAX_SEARCHED_ROWS", "CountedSource", "CursorSource", "ListSource", "Row"]

Row = Mapping[str, Any]  # a row of exact Python values
#: Most rows a search reads through (a whole resource list, say).
MAX_SEARCHED_ROWS: Final = 10_000


def _matches(row: Row, keys: Sequence[str], query: str) -> bool:
    needle = query.lower()
    return any(needle in str(row.get(key, "")).lower() for key in keys)


class ListSource:
    """Pages of ``rows``; a query keeps the rows whose ``search_keys`` contain it."""

    def __init__(self, rows: Sequence[Row], search_keys: Sequence[str] = ()) -> None:
        self.rows: Sequence[Row] = list(rows)
        self.search_keys = tuple(search_keys)

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        rows = self.rows
        if query and self.search_keys:
            rows = [row for row in rows if _matches(row, self.search_keys, query)]
        start = page * size
        return GridPage(rows[start : start + size], total=len(rows))


class CursorSource:
    """A list the node pages by cursor: ``fetch(cursor, limit)`` gives a page of rows and
    the next cursor (``None`` at the end). Pages are kept once fetched."""

    def __init__(
        self,
        fetch: Callable[[str | None, int], tuple[Sequence[Row], str | None]],
        search_keys: Sequence[str] = (),
    ) -> None:
        self._fetch = fetch
        self.search_keys = tuple(search_keys)
        self._size = 0
        self._pages: list[Sequence[Row]] = []
        self._next: str | None = None
        self._done = False

    def _reset(self, size: int) -> None:
        self._size, self._pages, self._next, self._done = size, [], None, False

    def _load_next(self) -> None:
        rows, cursor = self._fetch(self._next, self._size)
        self._pages.append(rows)
        self._next = cursor
        self._done = cursor is None or not rows

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        if size != self._size:
            self._reset(size)
        if query and self.search_keys:
            while not self._done and len(self._pages) * size < MAX_SEARCHED_ROWS:
                self._load_next()
            found = [
                r for rows in self._pages for r in rows if _matches(r, self.search_keys, query)
            ]
            start = page * size
            return GridPage(found[start : start + size], total=len(found))
        while len(self._pages) <= page and not self._done:
            self._load_next()
        if page >= len(self._pages):
            return GridPage([], total=sum(len(rows) for rows in self._pages))
        more = page + 1 < len(self._pages) or not self._done
        total = sum(len(rows) for rows in self._pages) if self._done else None
        return GridPage(self._pages[page], total=total, more=more)


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
