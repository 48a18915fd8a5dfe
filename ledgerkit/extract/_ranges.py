"""Half-open integer ranges: partition plans, page plans and compact lists of gaps."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["compact", "pages", "partitions"]


def partitions(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` cut at the multiples of ``size``, so two runs over overlapping
    ranges name their partitions alike.

    >>> partitions(5, 25, 10)
    [(5, 10), (10, 20), (20, 25)]
    """
    out: list[tuple[int, int]] = []
    first = start
    while first < stop:
        end = min(stop, (first // size + 1) * size)
        out.append((first, end))
        first = end
    return out


def pages(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` in consecutive pieces of at most ``size``."""
    return [(a, min(stop, a + size)) for a in range(start, stop, size)]


def compact(keys: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Sorted keys merged into half-open runs.

    >>> compact([7, 3, 4, 5, 9])
    ((3, 6), (7, 8), (9, 10))
    """
    runs: list[tuple[int, int]] = []
    for key in sorted(set(keys)):
        if runs and runs[-1][1] == key:
            runs[-1] = (runs[-1][0], key + 1)
        else:
            runs.append((key, key + 1))
    return tuple(runs)
