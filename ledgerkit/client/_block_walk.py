"""The walk of ``iter_blocks``: blocks by height over a range, bounded by the ledger's head,
with a progress bar on long ranges. No I/O here but the bar's, on stderr.

The node serves one block per request, so the walk is a :class:`~ledgerkit.client._declare.
Pager` whose pages hold one block each (a block read this way is the same request as
``block_by_height``, and shares its cache entries). Its first request is ``GET /``: the
head's height bounds the range before any block is asked for, so a walk never runs after
a growing chain, and sizes the bar. The bar is ``tqdm``'s (a widget in Jupyter): by default
shown for ranges of :data:`PROGRESS_FROM_BLOCKS` blocks or more, and only where someone
watches (a terminal's stderr or a Jupyter kernel).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final, cast

from ledgerkit._errors import InputError
from ledgerkit.client import calls
from ledgerkit.client._call import Call
from ledgerkit.client._declare import Pager
from ledgerkit.models import Block
from ledgerkit.types import LedgerMeta, Result, parse_uint

__all__ = ["PROGRESS_FROM_BLOCKS", "BlockRangePager"]

#: Ranges of at least this many blocks show a progress bar by default.
PROGRESS_FROM_BLOCKS: Final = 200


def _watched() -> bool:
    """Whether someone watches stderr: a terminal, or a Jupyter kernel's output."""
    return "ipykernel" in sys.modules or sys.stderr.isatty()


def _head() -> Call[list[Block]]:
    """``GET /`` as a page of no blocks: only its ledger metadata is read."""
    info = calls.ledger_info()
    read = info.decode

    def no_blocks(body: bytes) -> list[Block]:
        read(body)  # a ledger info, or a DecodingError
        return []

    return cast("Call[list[Block]]", replace(info, decode=no_blocks, storable=None))  # type: ignore[arg-type]


def _one_block(height: int, with_transactions: bool) -> Call[list[Block]]:
    """``block_by_height`` as a page of one block, cached as that call is."""
    call = calls.block_by_height(height, with_transactions=with_transactions)
    read, storable = call.decode, call.storable

    def listed(body: bytes) -> list[Block]:
        return [read(body)]

    kept: Callable[[list[Block], LedgerMeta], bool] | None = None
    if storable is not None:
        kept = lambda blocks, ledger: storable(blocks[0], ledger)  # noqa: E731
    return cast("Call[list[Block]]", replace(call, decode=listed, storable=kept))  # type: ignore[arg-type]


class BlockRangePager(Pager[Block]):
    """Blocks with heights in ``[start, stop)``, one request each, after a ``GET /``.

    ``stop=None``, or a ``stop`` past the head, ends after the head block as the first
    answer gives it. ``progress``: ``True`` always shows a bar, ``False`` never, ``None``
    (default) for ranges of :data:`PROGRESS_FROM_BLOCKS` or more when someone watches.
    """

    def __init__(
        self, start: int, stop: int | None, *, with_transactions: bool, progress: bool | None
    ) -> None:
        self._start = parse_uint(start, 64, what="start_height")
        self._stop = None if stop is None else parse_uint(stop, 64, what="end_height")
        if progress is not None and not isinstance(progress, bool):
            raise InputError(f"progress is True, False or None, got {progress!r}")
        if not isinstance(with_transactions, bool):
            raise InputError(f"with_transactions is a bool, got {with_transactions!r}")
        self._with_transactions = with_transactions
        self._progress = progress
        self._next = self._start
        self._bounded = False  # the head's answer came
        self._bar: Any = None

    def first(self) -> Call[list[Block]] | None:
        if self._stop is not None and self._start >= self._stop:
            return None
        return _head()

    def feed(self, page: Result[list[Block]]) -> tuple[list[Block], Call[list[Block]] | None]:
        if not self._bounded:  # the head's answer
            self._bounded = True
            head = page.ledger.block_height + 1
            self._stop = head if self._stop is None else min(self._stop, head)
            self._open_bar(self._stop - self._start)
            return [], self._following()
        if self._bar is not None:
            self._bar.update(len(page.value))
        self._next += 1
        return page.value, self._following()

    def _following(self) -> Call[list[Block]] | None:
        assert self._stop is not None
        if self._next < self._stop:
            return _one_block(self._next, self._with_transactions)
        self._close_bar()
        return None

    def _open_bar(self, total: int) -> None:
        shown = self._progress
        if shown is None:
            shown = total >= PROGRESS_FROM_BLOCKS and _watched()
        if shown and total > 0:
            from tqdm.auto import tqdm  # loaded only for a bar

            self._bar = tqdm(total=total, unit=" blocks", desc="blocks")

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
