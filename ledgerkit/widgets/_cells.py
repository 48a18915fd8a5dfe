"""What a grid's cells become: JSON-safe display values for the browser, exact columns for pandas.

The browser is JavaScript, whose numbers are doubles: an integer beyond ``2**53 - 1``
would arrive rounded. So every value is turned into a string, a bool, ``None`` or a
number JavaScript holds exactly, here in Python, where the kind of the column is known.
The rows themselves are kept untouched beside the widget, for ``selected`` and
``to_frame()``.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
import pandas as pd

from ledgerkit.frames import BOOL, STRING, TIMESTAMP, UINT64
from ledgerkit.types import U64_MAX, Address

__all__ = [
    "KINDS",
    "TIME_FORMAT",
    "display_row",
    "exact_frame",
    "format_time",
    "json_safe",
    "plain",
    "sort_key",
]

#: The kinds of column a grid knows, and how each is shown.
KINDS: Final = frozenset(
    {"text", "int", "address", "hash", "version", "handle", "move", "bool", "json", "time"}
)

#: How every widget writes a point in time: ISO 8601 date and time in UTC, to the
#: microsecond (the ledger's resolution), e.g. ``2025-06-01 00:00:21.000000 UTC``. Text
#: of this form sorts as the times do.
TIME_FORMAT: Final = "%Y-%m-%d %H:%M:%S.%f UTC"

#: The largest integer a JavaScript number holds exactly.
JS_SAFE: Final = (1 << 53) - 1
#: A cell's text is cut here on its way to the browser (the exact value stays in Python).
CELL_LIMIT: Final = 2000

_INT64_MIN: Final = -(1 << 63)
_INT64_MAX: Final = (1 << 63) - 1
_EPOCH: Final = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_Scalar = str | int | float | bool | None


def json_safe(value: Any) -> Any:
    """``value`` as plain JSON data that JavaScript reads back exactly.

    Integers beyond ``±(2**53 - 1)`` become decimal strings, addresses their standard
    form, bytes ``0x`` + hex, mappings and sequences are converted member by member,
    non-finite floats and anything else become their ``str()``.
    """
    value = _plain(value)
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return int(value) if -JS_SAFE <= value <= JS_SAFE else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Address):
        return value.standard
    if isinstance(value, bytes | bytearray | memoryview):
        return "0x" + bytes(value).hex()
    if isinstance(value, Mapping):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(item) for item in value]
    if isinstance(value, datetime.datetime | datetime.date):
        return format_time(value)
    return str(value)


def display_row(row: Mapping[str, Any], columns: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The cells of ``row`` the browser shows, for ``columns`` given as ``(name, kind)`` pairs."""
    return {name: _cell(row.get(name), kind) for name, kind in columns}


def _plain(value: Any) -> Any:
    """numpy scalars as Python values, pandas' missing markers as None (rows made from frames)."""
    if isinstance(value, np.generic):
        return value.item()
    if value is pd.NA or value is pd.NaT:
        return None
    return value


#: The same, for the modules beside this one.
plain: Final = _plain


def _cell(value: Any, kind: str, limit: int = CELL_LIMIT) -> _Scalar:
    value = _plain(value)
    if value is None:
        return None
    if kind == "json":
        text = value if isinstance(value, str) else _compact_json(value)
        return _clip(text, limit)
    if kind == "time" and not isinstance(value, bool):
        return _clip(format_time(value), limit)
    safe = json_safe(value)
    if isinstance(safe, dict | list):
        return _clip(_compact_json(value), limit)
    if isinstance(safe, str):
        return _clip(safe, limit)
    return safe  # type: ignore[no-any-return]


_INTEGER: Final = re.compile(r"-?[0-9]+")
SortKey = tuple[int, Any, str]


def sort_key(value: Any) -> SortKey | None:
    """Where ``value`` falls when a column is sorted; None for a missing value (which
    sorts last either way).

    Numbers first, in numeric order, exact at any size: integers, floats, and decimal
    text (the node writes u64 and wider as text, so ``"18446744073709551615"`` sorts
    after ``"9"``); then bools, times, and text in code point order (addresses by their
    long form, other values by their compact JSON).
    """
    value = _plain(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return (1, int(value), "")
    if isinstance(value, int | float):
        return (0, value, "")
    if isinstance(value, str) and len(value) <= 100 and _INTEGER.fullmatch(value):
        return (0, int(value), "")
    if isinstance(value, datetime.datetime):
        stamp = value if value.tzinfo is not None else value.replace(tzinfo=datetime.UTC)
        return (2, (stamp - _EPOCH) // datetime.timedelta(microseconds=1), "")
    if isinstance(value, Address):
        return (3, 0, value.long)
    if isinstance(value, str):
        return (3, 0, value)
    return (3, 0, _compact_json(value))


def _compact_json(value: Any) -> str:
    return json.dumps(json_safe(value), separators=(",", ":"), ensure_ascii=False)


def _clip(text: str, limit: int = CELL_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_time(value: Any) -> str:
    """A point in time as every widget writes it (:data:`TIME_FORMAT`).

    ``value`` is an aware datetime, or integer microseconds since the Unix epoch (a
    ledger timestamp; digit strings too). A naive datetime is shown as it is, a date as
    ``YYYY-MM-DD``; anything else (a timestamp out of range) as its text.

    Examples
    --------
    >>> format_time(1_748_736_021_000_000)
    '2025-06-01 00:00:21.000000 UTC'
    """
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            value = _EPOCH + datetime.timedelta(microseconds=value)
        except OverflowError:
            return str(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.isoformat(sep=" ")
        return value.astimezone(datetime.UTC).strftime(TIME_FORMAT)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(json_safe(value))


# -- exact frames -----------------------------------------------------------------------

#: A column with no values at all takes its dtype from its kind.
_EMPTY_DTYPES: Final[Mapping[str, Any]] = {
    "int": UINT64,
    "version": UINT64,
    "bool": BOOL,
    "time": TIMESTAMP,
    "json": object,
}


def exact_frame(rows: Sequence[Mapping[str, Any]], columns: Sequence[tuple[str, str]]) -> Any:
    """The rows as a DataFrame whose dtypes keep every value exact.

    Integers within ``[0, 2**64 - 1]`` are ``UInt64``, other integers within int64 are
    ``Int64``, wider ones an ``object`` column of Python ints; addresses (long form),
    bytes (``0x`` + hex) and text are ``string``; bools ``boolean``; timestamps of a
    ``time`` column ``datetime64[us, UTC]``; anything else (JSON values, mixtures) an
    ``object`` column of the values themselves.
    """
    data = {name: _series([_plain(row.get(name)) for row in rows], kind) for name, kind in columns}
    return pd.DataFrame(data, index=pd.RangeIndex(len(rows)))


def _series(values: list[Any], kind: str) -> pd.Series:
    present = [value for value in values if value is not None]
    if not present:
        return pd.Series(values, dtype=_EMPTY_DTYPES.get(kind, STRING))
    if kind == "time":
        times = _timestamps(values)
        if times is not None:
            return times
    if all(isinstance(value, int) and not isinstance(value, bool) for value in present):
        low, high = min(present), max(present)
        if low >= 0 and high <= U64_MAX:
            return pd.Series(pd.array(values, dtype=UINT64))
        if low >= _INT64_MIN and high <= _INT64_MAX:
            return pd.Series(pd.array(values, dtype=pd.Int64Dtype()))
        return pd.Series(values, dtype=object)
    if all(isinstance(value, bool) for value in present):
        return pd.Series(pd.array(values, dtype=BOOL))
    if all(isinstance(value, str | Address | bytes | bytearray) for value in present):
        return pd.Series([_text(value) for value in values], dtype=STRING)
    if all(isinstance(value, float) for value in present):
        return pd.Series(values, dtype="float64")
    return pd.Series(values, dtype=object)


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Address):
        return value.long
    return "0x" + bytes(value).hex()


def _timestamps(values: list[Any]) -> pd.Series | None:
    """A ``time`` column as ``datetime64[us, UTC]``, or None when its values are not all times."""
    stamps: list[Any] = []
    for value in values:
        if value is None:
            stamps.append(pd.NaT)
        elif isinstance(value, datetime.datetime) and value.tzinfo is not None:
            stamps.append(pd.Timestamp(value).tz_convert("UTC"))
        elif isinstance(value, int) and not isinstance(value, bool):
            stamps.append(value)
        elif isinstance(value, str) and value.isascii() and value.isdigit():
            stamps.append(int(value))
        else:
            return None
    try:
        return pd.Series(
            [
                pd.Timestamp(stamp, unit="us", tz="UTC") if isinstance(stamp, int) else stamp
                for stamp in stamps
            ],
            dtype=TIMESTAMP,
        )
    except (OverflowError, ValueError, pd.errors.OutOfBoundsDatetime):
        return None
