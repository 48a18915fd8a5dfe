"""Walking paged endpoints: which page to ask for next, and what to hand out. No I/O.

A pager answers two questions: the first :class:`Call`, and, given a page, the items to
yield and the next call (``None`` at the end). ``Client`` and ``AsyncClient`` each run
the same loop over it. Pagers trust what the node sends, not what was asked: nodes clamp
``limit`` to their own maximum, so page sizes are learned from the pages themselves.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from ledgerkit._errors import DecodingError
from ledgerkit.client._base import Call, Result

__all__ = ["CursorPager", "EventPager", "Pager", "VersionRangePager"]

T = TypeVar("T")

#: First guess of a page size when walking backwards from a given sequence number
#: (the usual node maximum); a node that serves fewer teaches the walk its size.
BACKWARD_PAGE_GUESS: Final = 100


class Pager(abc.ABC, Generic[T]):
    """The calls of a walk over a paged endpoint."""

    @abc.abstractmethod
    def first(self) -> Call[list[T]] | None:
        """The first page to ask for; ``None`` when the walk is empty from the start."""

    @abc.abstractmethod
    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        """The items of ``page`` to hand out, in order, and the next call."""


class CursorPager(Pager[T]):
    """Resources or modules: follow ``X-NODE-CURSOR`` until a page comes without one.

    Every page after the first is asked at the first page's ledger version, so the walk
    sees one consistent state even while the chain moves.
    """

    def __init__(
        self,
        make: Callable[[int | None, str | None], Call[list[T]]],
        ledger_version: int | None,
    ) -> None:
        self._make = make
        self._version = ledger_version
        self._seen: set[str] = set()

    def first(self) -> Call[list[T]]:
        return self._make(self._version, None)

    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        cursor = page.ledger.cursor
        if cursor is None:
            return page.value, None
        if cursor in self._seen:
            raise DecodingError(f"the node sent the cursor {cursor!r} twice; the walk would loop")
        self._seen.add(cursor)
        if self._version is None:
            self._version = page.ledger.ledger_version
        return page.value, self._make(self._version, cursor)


class VersionRangePager(Pager[T]):
    """Transactions with versions in ``[start, stop)``, page after page.

    ``stop=None`` means the ledger version of the first answer plus one. A ``stop`` past
    the ledger's head ends at the head. Each page starts right after the last version the
    node sent, whatever page size it chose.
    """

    def __init__(
        self,
        make: Callable[[int, int], Call[list[T]]],
        version_of: Callable[[T], int | None],
        *,
        start: int,
        stop: int | None,
        limit: int,
    ) -> None:
        self._make = make
        self._version_of = version_of
        self._start = start
        self._stop = stop
        self._limit = limit
        self._fixed_stop = stop is not None

    def _call(self, start: int) -> Call[list[T]]:
        size = self._limit if self._stop is None else min(self._limit, self._stop - start)
        return self._make(start, size)

    def first(self) -> Call[list[T]] | None:
        if self._stop is not None and self._start >= self._stop:
            return None
        return self._call(self._start)

    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        head = page.ledger.ledger_version + 1
        self._stop = head if self._stop is None else min(self._stop, head)
        stop = self._stop
        if not page.value:
            return [], None
        versions = [self._version_of(item) for item in page.value]
        items = [t for t, v in zip(page.value, versions, strict=True) if v is not None and v < stop]
        last = versions[-1]
        if last is None:
            raise DecodingError("a transaction in a version range came without a version")
        following = last + 1
        return items, (self._call(following) if following < stop else None)


class EventPager(Pager[T]):
    """An event stream by sequence number: newest first, or oldest first when ``forward``.

    Backwards, the walk starts at the newest page (or at ``start``) and asks for the
    ``page`` events just below the lowest seen. ``page`` is the number of events the node
    actually served: when it serves fewer than asked, the walk shrinks its page to that
    and asks again, so no event is skipped. Forwards, it asks from the event after the
    last seen, and ends at an empty page or at a page shorter than an earlier one.
    """

    def __init__(
        self,
        make: Callable[[int | None, int | None], Call[list[T]]],
        sequence_of: Callable[[T], int],
        *,
        start: int | None,
        limit: int | None,
        forward: bool,
    ) -> None:
        self._make = make
        self._seq = sequence_of
        self._start = start
        self._limit = limit
        self._forward = forward
        self._page = limit or BACKWARD_PAGE_GUESS
        self._upper: int | None = None  # backwards: everything at or above is handed out
        self._asked_from = 0
        self._next = start or 0  # forwards: the next sequence number wanted
        self._longest = 0

    def first(self) -> Call[list[T]] | None:
        if self._forward:
            return self._make(self._next, self._limit)
        if self._start is None:
            return self._make(None, self._limit)
        self._upper = self._start + 1
        return self._below()

    def _below(self) -> Call[list[T]] | None:
        assert self._upper is not None
        if self._upper <= 0:
            return None
        self._asked_from = max(0, self._upper - self._page)
        return self._make(self._asked_from, self._upper - self._asked_from)

    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        if self._forward:
            return self._feed_forward(page.value)
        return self._feed_backward(page.value)

    def _feed_forward(self, events: list[T]) -> tuple[list[T], Call[list[T]] | None]:
        items = [e for e in events if self._seq(e) >= self._next]
        if not items:
            return [], None
        self._longest = max(self._longest, len(events))
        self._next = self._seq(items[-1]) + 1
        if len(events) < self._longest:  # a short page after a fuller one: the end
            return items, None
        return items, self._make(self._next, self._limit)

    def _feed_backward(self, events: list[T]) -> tuple[list[T], Call[list[T]] | None]:
        if self._upper is None:  # the newest page: its length is the node's page size
            if not events:
                return [], None
            self._page = len(events)
            self._upper = self._seq(events[0])
            return events[::-1], self._below()
        upper = self._upper
        items = [e for e in events if self._asked_from <= self._seq(e) < upper]
        if not items:  # nothing older is held (pruned, or the stream's start)
            return [], None
        if self._seq(items[-1]) < upper - 1:
            # The node served fewer than asked: its page is smaller. Ask again just below.
            self._page = len(items)
            return [], self._below()
        self._upper = self._seq(items[0])
        return items[::-1], self._below()
