"""The dtype contract of every frame, and the column builders that honour it.

Every converter builds its columns here, once per column, from plain Python lists; no
value passes through ``float`` on the way. The contract (see ``docs/frames.md``):

========================  ==========================================================
ledger value              pandas dtype
========================  ==========================================================
u8 ... u64                ``UInt64`` (nullable, exact to ``2**64 - 1``)
u128                      ``string``: 39-digit zero-padded decimal text
u256                      ``string``: 78-digit zero-padded decimal text
timestamp (microseconds)  ``datetime64[us, UTC]``
address                   ``category`` or ``string`` of the long ``0x`` + 64 hex form
hash                      ``string`` (``0x`` + 64 lowercase hex digits)
low-cardinality text      ``category`` (type, vm_status, function, event type...)
other text, JSON          ``string`` (pyarrow-backed, ``pd.NA`` for missing)
bool                      ``boolean``
counts                    ``UInt32``
========================  ==========================================================

u128 and u256 are fixed-width decimal text because that is the one representation that
is exact, orders the same as the numbers (``sort_values`` is numeric order), and comes
back from ``pd.read_parquet`` with the same dtype: pyarrow ``decimal256(39, 0)`` holds a
u128 but reads back as an ``object`` column, and no Arrow decimal holds the 78 digits of
``2**256 - 1``. :func:`wide_to_ints` and :func:`wide_sum` give exact Python ints back.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import pandas as pd

from ledgerkit.types import Address

__all__ = [
    "BOOL",
    "CATEGORY",
    "COUNT",
    "STRING",
    "TIMESTAMP",
    "U64",
    "U128",
    "U128_WIDTH",
    "U256",
    "U256_WIDTH",
    "empty_frame",
    "ints_to_wide",
    "schema_of",
    "wide_sum",
    "wide_to_ints",
]

U64: Final = pd.UInt64Dtype()
COUNT: Final = pd.UInt32Dtype()
STRING: Final = pd.StringDtype("pyarrow")
U128: Final = STRING
U256: Final = STRING
U128_WIDTH: Final = 39  # digits of 2**128 - 1
U256_WIDTH: Final = 78  # digits of 2**256 - 1
TIMESTAMP: Final = pd.DatetimeTZDtype("us", "UTC")
BOOL: Final = pd.BooleanDtype()
# Categories depend on the data; the contract is "category of str", which is what
# ``schema_of`` reports for every categorical column, full or empty.
CATEGORY: Final = pd.CategoricalDtype(pd.Index([], dtype="str"))

_U64_MAX: Final = (1 << 64) - 1
_INT64_MAX: Final = (1 << 63) - 1


def schema_of(frame: pd.DataFrame) -> dict[str, str]:
    """Column name -> dtype name (``"category"`` for any categorical column)."""
    return {str(name): str(dtype) for name, dtype in frame.dtypes.items()}


def empty_frame(schema: Mapping[str, Any]) -> pd.DataFrame:
    """A frame with no rows and exactly the columns and dtypes of ``schema``."""
    columns = {name: pd.Series([], dtype=dtype) for name, dtype in schema.items()}
    return pd.DataFrame(columns, index=pd.RangeIndex(0))


# -- column builders ----------------------------------------------------------------------


def u64(values: Sequence[int | None]) -> Any:
    """``UInt64`` from ints (None is missing); exact, never through float."""
    try:
        data = np.array(values, dtype=np.uint64)
        return pd.arrays.IntegerArray(data, np.zeros(len(data), dtype=bool))
    except (TypeError, ValueError):
        pass
    mask = np.fromiter((v is None for v in values), dtype=bool, count=len(values))
    data = np.array([0 if v is None else v for v in values], dtype=np.uint64)
    return pd.arrays.IntegerArray(data, mask)


def count(values: Sequence[int]) -> Any:
    """``UInt32`` counts."""
    data = np.array(values, dtype=np.uint32)
    return pd.arrays.IntegerArray(data, np.zeros(len(data), dtype=bool))


def timestamp(values: Sequence[int | None]) -> Any:
    """``datetime64[us, UTC]`` from microseconds since the epoch (None is NaT)."""
    if None in values:
        raw = np.array([np.iinfo(np.int64).min if v is None else v for v in values], dtype=np.int64)
    else:
        raw = np.array(values, dtype=np.int64)
    return pd.DatetimeIndex(raw.view("datetime64[us]")).tz_localize("UTC").array


def boolean(values: Sequence[bool | None]) -> Any:
    """``boolean`` (None is missing)."""
    mask = np.fromiter((v is None for v in values), dtype=bool, count=len(values))
    data = np.fromiter((v is True for v in values), dtype=bool, count=len(values))
    return pd.arrays.BooleanArray(data, mask)


def string(values: Sequence[str | None]) -> Any:
    """``string`` (pyarrow-backed; None is missing)."""
    return pd.array(values, dtype=STRING)


def category(values: Sequence[str | None]) -> Any:
    """``category`` of str (None is missing), categories in order of first appearance."""
    seen: dict[str, int] = {}
    codes = np.fromiter(
        (-1 if v is None else seen.setdefault(v, len(seen)) for v in values),
        dtype=np.int32,
        count=len(values),
    )
    # Pages of one chain repeat the same few categories (types, statuses, functions);
    # building a CategoricalDtype costs far more than the codes, so reuse it.
    return pd.Categorical.from_codes(codes, dtype=_category_dtype(tuple(seen)), validate=False)


@functools.lru_cache(maxsize=1024)
def _category_dtype(categories: tuple[str, ...]) -> pd.CategoricalDtype:
    return pd.CategoricalDtype(pd.Index(list(categories), dtype="str"))


def ints_to_wide(values: Iterable[int | str | None], *, bits: int) -> Any:
    """A u128 (``bits=128``) or u256 (``bits=256``) column from ints or decimal strings."""
    width = {128: U128_WIDTH, 256: U256_WIDTH}[bits]
    limit = 1 << bits
    out: list[str | None] = []
    for value in values:
        if value is None:
            out.append(None)
            continue
        number = int(value)
        if not 0 <= number < limit:
            raise OverflowError(f"{value!r} does not fit in a u{bits}")
        out.append(f"{number:0{width}d}")
    return string(out)


def wide_to_ints(column: Iterable[Any]) -> list[int | None]:
    """The exact Python ints of a u128 / u256 column (missing values are None)."""
    return [None if value is None or value is pd.NA else int(value) for value in column]


def wide_sum(column: Iterable[Any]) -> int:
    """The exact sum of a u128 / u256 column, skipping missing values."""
    return sum(int(value) for value in column if value is not None and value is not pd.NA)


def long_address(value: str) -> str:
    """The long ``0x`` + 64 form of one address."""
    return Address.parse(value).long


def canonical_addresses(values: Sequence[str | None]) -> list[str | None]:
    """The long ``0x`` + 64 form of each address, parsing each distinct spelling once."""
    cache: dict[str, str] = {}
    out: list[str | None] = []
    append = out.append
    for value in values:
        if value is None:
            append(None)
            continue
        long = cache.get(value)
        if long is None:
            long = cache[value] = Address.parse(value).long
        append(long)
    return out
