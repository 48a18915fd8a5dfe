"""Exact arithmetic on ``numeric`` columns inside SQLite, which keeps them as INTEGER
up to 64 bits and as decimal TEXT past it (amounts and supplies up to u128): SQLite
alone would compare such TEXT by characters and add it as REAL.

:func:`register` gives a connection ``lk_numkey(x)`` (a text key whose order is the
numbers' order, for comparing and sorting) and the aggregates ``lk_sum``, ``lk_avg``,
``lk_max`` and ``lk_min`` over Python's exact integers; :func:`numeric_key` is the same
key made in Python for a query's values.
"""

from __future__ import annotations

import sqlite3
from decimal import Decimal, InvalidOperation
from typing import Any, Final

__all__ = ["numeric_key", "register"]

#: Integer digits of a key: more than a u256's 78.
_DIGITS: Final = 80
_INT64: Final = range(-(2**63), 2**63)
_BEYOND: Final = 10**_DIGITS


def _exact(value: Any) -> int | Decimal | None:
    if value is None or isinstance(value, bytes):
        return None
    if isinstance(value, int):
        return value
    try:
        parsed = Decimal(str(value) if isinstance(value, str) else value)
    except (InvalidOperation, ValueError, TypeError):
        return None
    if not parsed.is_finite():
        return None
    if parsed.adjusted() < _DIGITS and parsed == parsed.to_integral_value():
        return int(parsed)  # exact: Decimal's own arithmetic rounds to 28 digits
    return parsed


def numeric_key(value: Any) -> str | None:
    """Text that sorts as the number ``value`` (an int, a float or decimal text)
    does; None for null."""
    number = _exact(value)
    if number is None:
        return None
    if not -_BEYOND < number < _BEYOND:  # past any value stored: beyond every key
        return "2" if number > 0 else "0"
    if isinstance(number, int):
        whole, fraction = str(abs(number)), ""
    else:
        whole, _, fraction = f"{number.copy_abs():f}".partition(".")
        fraction = fraction.rstrip("0")
    digits = whole.zfill(_DIGITS) + fraction
    if number >= 0:
        return "1" + digits
    # Negative: the larger the magnitude, the smaller the key (nines' complement).
    return "0" + digits.translate(str.maketrans("0123456789", "9876543210")) + "~"


def _stored(total: int | Decimal) -> int | float | str:
    """A result SQLite can hold: ints past 64 bits as their decimal text."""
    if isinstance(total, int):
        return total if total in _INT64 else str(total)
    return str(total) if total == total.to_integral_value() else float(total)


class _Sum:
    def __init__(self) -> None:
        self.total: int | Decimal = 0
        self.count = 0

    def step(self, value: Any) -> None:
        number = _exact(value)
        if number is not None:
            self.total += number
            self.count += 1

    def finalize(self) -> int | float | str | None:
        return _stored(self.total) if self.count else None


class _Avg(_Sum):
    def finalize(self) -> int | float | str | None:
        return float(Decimal(self.total) / self.count) if self.count else None


class _Max:
    better = 1

    def __init__(self) -> None:
        self.best: int | Decimal | None = None

    def step(self, value: Any) -> None:
        number = _exact(value)
        if number is not None and (self.best is None or (number - self.best) * self.better > 0):
            self.best = number

    def finalize(self) -> int | float | str | None:
        return None if self.best is None else _stored(self.best)


class _Min(_Max):
    better = -1


def register(conn: sqlite3.Connection) -> None:
    """Give ``conn`` the key function and the exact aggregates."""
    conn.create_function("lk_numkey", 1, numeric_key, deterministic=True)
    conn.create_aggregate("lk_sum", 1, _Sum)  # type: ignore[arg-type]
    conn.create_aggregate("lk_avg", 1, _Avg)  # type: ignore[arg-type]
    conn.create_aggregate("lk_max", 1, _Max)  # type: ignore[arg-type]
    conn.create_aggregate("lk_min", 1, _Min)  # type: ignore[arg-type]
