"""The dtype contract of every frame, and the column builders that honour it.

Every converter builds its columns here, once per column, from plain Python lists; no
value passes through ``float`` on the way. The contract (see ``docs/frames.md``):

========================  ==========================================================
ledger value              pandas dtype
========================  ==========================================================
u8 ... u64                ``UInt64`` (nullable, exact to ``2**64 - 1``)
u128                      ``string``: 39-digit zero-padded decimal text
u256                      ``string``: 78-digit zero-padded decimal text
signed amount (a change)  ``decimal128(20, 0)[pyarrow]``: exact to ``±(10**20 - 1)``
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

A signed amount (a balance change: a sum of u64 amounts, either sign) is a number, an Arrow
``decimal128(20, 0)``: no numpy integer holds ``-(2**64 - 1) ... 2**64 - 1``, and a decimal
of scale 0 is an exact integer that pandas sums (into ``decimal128(38, 0)``, so sums of
many do not overflow), compares and sorts as one, and that Parquet, DuckDB and Dask keep
exact (``pd.read_parquet`` gives it back as ``Decimal`` objects: ``astype`` restores it).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import pandas as pd
import pyarrow as pa

from ledgerkit._errors import DecodingError
from ledgerkit.types import Address

__all__ = [
    "BOOL",
    "CATEGORY",
    "COUNT",
    "SIGNED_AMOUNT",
    "SIGNED_AMOUNT_MAX",
    "STRING",
    "TIMESTAMP",
    "U128",
    "U128_WIDTH",
    "U256",
    "U256_WIDTH",
    "UINT64",
    "build_frame",
    "empty_frame",
    "ints_to_wide",
    "schema_of",
    "wide_sum",
    "wide_to_ints",
]

UINT64: Final = pd.UInt64Dtype()
COUNT: Final = pd.UInt32Dtype()
STRING: Final = pd.StringDtype("pyarrow")
U128: Final = STRING
U256: Final = STRING
U128_WIDTH: Final = 39  # digits of 2**128 - 1
U256_WIDTH: Final = 78  # digits of 2**256 - 1
#: Signed amounts: exact integers to ``±(10**20 - 1)``, which holds ``±(2**64 - 1)``.
SIGNED_AMOUNT: Final = pd.ArrowDtype(pa.decimal128(20, 0))
#: The largest magnitude a :data:`SIGNED_AMOUNT` holds (20 decimal digits).
SIGNED_AMOUNT_MAX: Final = 10**20 - 1
TIMESTAMP: Final = pd.DatetimeTZDtype("us", "UTC")
BOOL: Final = pd.BooleanDtype()
# Categories depend on the data; the contract is "category of str", which is what
# ``schema_of`` reports for every categorical column, full or empty.
CATEGORY: Final = pd.CategoricalDtype(pd.Index([], dtype="str"))


def schema_of(frame: pd.DataFrame) -> dict[str, str]:
    """Column name -> dtype name (``"category"`` for any categorical column)."""
    return {str(name): str(dtype) for name, dtype in frame.dtypes.items()}


def empty_frame(schema: Mapping[str, Any]) -> pd.DataFrame:
    """A frame with no rows and exactly the columns and dtypes of ``schema``."""
    columns = {name: pd.Series([], dtype=dtype) for name, dtype in schema.items()}
    return pd.DataFrame(columns, index=pd.RangeIndex(0))


# -- column builders ----------------------------------------------------------------------
#
# A page is some 100 rows and 23 columns, so the fixed cost of each pandas constructor
# matters more than the per-value cost. Missing values are found in one vectorised pass
# over an object array (``== None``) rather than per value in Python.


def _with_missing(values: Sequence[Any], fill: Any) -> tuple[Any, Any]:
    """``values`` as an object array with None replaced by ``fill``, and the None mask."""
    data = np.array(values, dtype=object)
    if data.ndim != 1:  # sequences inside: let numpy's own error name them
        data = np.empty(len(values), dtype=object)
        data[:] = list(values)
    mask = data == None  # noqa: E711 (elementwise, not an identity test)
    data[mask] = fill
    return data, mask


def u64(values: Sequence[int | None]) -> Any:
    """``UInt64`` from ints (None is missing); exact, never through float.

    Raises ``OverflowError`` for a value outside ``[0, 2**64 - 1]``.
    """
    if None not in values:
        data = np.array(values, dtype=np.uint64)
        return _masked(pd.arrays.IntegerArray, data, np.zeros(len(data), dtype=bool))
    if values.count(None) == len(values):  # a column of one type's field: all missing
        return _masked(
            pd.arrays.IntegerArray,
            np.zeros(len(values), dtype=np.uint64),
            np.ones(len(values), dtype=bool),
        )
    data, mask = _with_missing(values, 0)
    return _masked(pd.arrays.IntegerArray, data.astype(np.uint64), mask)


def count(values: Sequence[int | None]) -> Any:
    """``UInt32`` counts and indexes (None is missing)."""
    if None not in values:
        data = np.array(values, dtype=np.uint32)
        return _masked(pd.arrays.IntegerArray, data, np.zeros(len(data), dtype=bool))
    filled, mask = _with_missing(values, 0)
    return _masked(pd.arrays.IntegerArray, filled.astype(np.uint32), mask)


def signed_amounts(values: Sequence[int | None]) -> Any:
    """:data:`SIGNED_AMOUNT` from ints (None is missing); exact, never through float.

    Raises ``OverflowError`` for a value beyond ``±(10**20 - 1)``.
    """
    try:
        if None in values:
            data, mask = _with_missing(values, 0)
            low = data.astype(np.int64)
        else:
            low, mask = np.array(values, dtype=np.int64), None
    except OverflowError:  # past int64: Arrow reads each Python int
        for value in values:
            if value is not None and not -SIGNED_AMOUNT_MAX <= value <= SIGNED_AMOUNT_MAX:
                raise OverflowError(f"{value} is beyond ±(10**20 - 1)") from None
        return pd.arrays.ArrowExtensionArray(pa.array(values, SIGNED_AMOUNT.pyarrow_dtype))
    # Within int64 the 128-bit words are written at once: the value, then its sign
    # (little-endian two's complement), some ten times quicker than value by value.
    words = np.empty((len(low), 2), dtype=np.int64)
    words[:, 0] = low
    words[:, 1] = low >> 63
    validity = None
    if mask is not None and mask.any():
        validity = pa.py_buffer(np.packbits(~mask, bitorder="little"))
    array = pa.Array.from_buffers(
        SIGNED_AMOUNT.pyarrow_dtype, len(low), [validity, pa.py_buffer(words)]
    )
    return pd.arrays.ArrowExtensionArray(array)


def timestamp(values: Sequence[int | None]) -> Any:
    """``datetime64[us, UTC]`` from microseconds since the epoch (None is NaT)."""
    if None in values:
        data, _ = _with_missing(values, np.iinfo(np.int64).min)
        raw = data.astype(np.int64)
    else:
        raw = np.array(values, dtype=np.int64)
    return _datetime_array(raw.view("datetime64[us]"))


def boolean(values: Sequence[bool | None]) -> Any:
    """``boolean`` (None is missing)."""
    if None not in values:
        data = np.array(values, dtype=bool)
        return _masked(pd.arrays.BooleanArray, data, np.zeros(len(values), dtype=bool))
    data, mask = _with_missing(values, False)
    return _masked(pd.arrays.BooleanArray, data.astype(bool), mask)


def string(values: Sequence[str | None]) -> Any:
    """``string`` (pyarrow-backed; None is missing)."""
    return pd.arrays.ArrowStringArray(pa.array(values, pa.large_string()))


def _codes(values: Sequence[str | None]) -> tuple[Any, tuple[str, ...]]:
    """The code of each value (-1 for None) and the distinct values, in order of first
    appearance."""
    # One dict at every size: on a partition's rows pandas' hash table is no quicker (each
    # value is a new string to hash either way) and first copies them to an object array.
    seen: dict[str, int] = {}
    add = seen.setdefault
    codes = [-1 if value is None else add(value, len(seen)) for value in values]
    return np.array(codes, dtype=np.int32), tuple(seen)


def category(values: Sequence[str | None]) -> Any:
    """``category`` of str (None is missing), categories in order of first appearance."""
    codes, seen = _codes(values)
    # Pages of one chain repeat the same few categories (types, statuses, functions);
    # building a CategoricalDtype costs far more than the codes, so reuse it.
    return pd.Categorical.from_codes(codes, dtype=_category_dtype(seen), validate=False)


def address_category(values: Sequence[str | None]) -> Any:
    """``category`` of the long form of each address (None is missing): the codes come
    from the addresses as written, and only the distinct ones are put in long form."""
    codes, seen = _codes(values)
    longs = tuple(long_address(v) for v in seen)
    if len(set(longs)) < len(longs):  # two spellings of one address: count them as one
        return category(canonical_addresses(values))
    return pd.Categorical.from_codes(codes, dtype=_category_dtype(longs), validate=False)


def missing(dtype: Any, length: int) -> Any:
    """A column of ``length`` missing values of ``dtype``, built without a list of Nones:
    the frame of the same list would hold the very same column."""
    if dtype is STRING:
        return pd.arrays.ArrowStringArray(pa.nulls(length, pa.large_string()))
    if dtype is CATEGORY:
        codes = np.full(length, -1, dtype=np.int32)
        return pd.Categorical.from_codes(codes, dtype=_category_dtype(()), validate=False)
    return _BUILDERS[dtype]([None] * length)


_BUILDERS: Final[dict[Any, Any]] = {
    UINT64: u64,
    COUNT: count,
    SIGNED_AMOUNT: signed_amounts,
    STRING: string,
    TIMESTAMP: timestamp,
    BOOL: boolean,
    CATEGORY: category,
}
# What a column of each integer dtype holds, for the error of a value that does not fit.
_RANGES: Final[dict[int, str]] = {
    id(UINT64): "a u64",
    id(COUNT): "a u32",
    id(SIGNED_AMOUNT): "±(10**20 - 1)",
}
# pandas dtypes hash in Python, a microsecond a column; the schemas hold the constants
# above, so they are found by identity first.
_BUILDER_OF: Final[dict[int, Any]] = {id(dtype): build for dtype, build in _BUILDERS.items()}


def build_frame(schema: Mapping[str, Any], columns: Mapping[str, Sequence[Any]]) -> pd.DataFrame:
    """The frame of ``schema`` from one list of plain values per column (or a column
    built already, of the schema's dtype).

    Raises
    ------
    DecodingError
        A u64 column holds a value outside ``[0, 2**64 - 1]``, a signed amount one beyond
        ``±(10**20 - 1)``.
    """
    arrays = []
    for name, dtype in schema.items():
        values = columns[name]
        if isinstance(values, pd.api.extensions.ExtensionArray):
            arrays.append(values)  # built already
            continue
        build = _BUILDER_OF.get(id(dtype)) or _BUILDERS[dtype]
        try:
            arrays.append(build(values))
        except OverflowError as exc:
            held = _RANGES.get(id(dtype), "its dtype")
            raise DecodingError(f"column {name!r}: a value does not fit in {held}") from exc
    length = len(arrays[0]) if arrays else 0
    return _frame(arrays, _column_index(tuple(schema)), length)


@functools.lru_cache(maxsize=64)
def _column_index(names: tuple[str, ...]) -> pd.Index:
    return pd.Index(list(names))


# pandas' public constructors check and convert every array they are given, which for a
# page of 100 rows costs several times the arrays themselves (~120 µs for 19 columns).
# The arrays here are built with their final dtype and one length, so the checks have
# nothing to find: use the constructors that skip them where this pandas has them, the
# public ones otherwise (tests hold both to the same result). On pandas 3 the frame is
# put together as ``pandas.api.internals.create_dataframe_from_blocks`` does it (one
# block per array, each taken as it is) but without that function's check of every block
# against the frame's shape, a fifth of the cost of a page's frame; ``_from_arrays`` on
# pandas 2.
try:
    from pandas.core.internals import BlockManager
    from pandas.core.internals import api as _internals
except ImportError:  # a pandas that keeps them elsewhere: the other constructors
    _internals = None
_MAKE_BLOCK: Final = getattr(_internals, "_make_block", None)
_FROM_ARRAYS: Final = getattr(pd.DataFrame, "_from_arrays", None)
_SIMPLE_NEW: Final = getattr(pd.arrays.DatetimeArray, "_simple_new", None)
_MASKED_NEW: Final = hasattr(pd.arrays.IntegerArray, "_simple_new")


def _frame(arrays: list[Any], columns: pd.Index, length: int) -> pd.DataFrame:
    index = pd.RangeIndex(length)
    if _MAKE_BLOCK is not None:
        places = np.arange(len(arrays))  # each frame its own: its blocks keep them
        blocks = [_MAKE_BLOCK(array, places[at : at + 1]) for at, array in enumerate(arrays)]
        manager = BlockManager(blocks, [columns, index], verify_integrity=False)
        built: pd.DataFrame = pd.DataFrame._from_mgr(manager, manager.axes)
        return built
    if _FROM_ARRAYS is not None:
        frame: pd.DataFrame = _FROM_ARRAYS(arrays, columns, index, verify_integrity=False)
        return frame
    return pd.DataFrame(dict(zip(columns, arrays, strict=True)), index=index, copy=False)


def _masked(kind: Any, data: Any, mask: Any) -> Any:
    """A pandas masked array (``IntegerArray``, ``BooleanArray``) of ``data`` and ``mask``."""
    if _MASKED_NEW:
        return kind._simple_new(data, mask)
    return kind(data, mask)


def _datetime_array(raw: Any) -> Any:
    if _SIMPLE_NEW is not None:
        return _SIMPLE_NEW(raw, dtype=TIMESTAMP)
    return pd.DatetimeIndex(raw).tz_localize("UTC").array


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
    """The exact Python ints of a u128 / u256 column, or of any column of exact integers
    (a :data:`SIGNED_AMOUNT`'s ``Decimal`` values too); missing values are None."""
    return [None if value is None or value is pd.NA else int(value) for value in column]


def wide_sum(column: Iterable[Any]) -> int:
    """The exact sum of a u128 / u256 column, skipping missing values, as a Python int.

    A :data:`SIGNED_AMOUNT` column needs no help: its ``.sum()`` is exact.
    """
    return sum(int(value) for value in column if value is not None and value is not pd.NA)


@functools.lru_cache(maxsize=1 << 16)
def long_address(value: str) -> str:
    """The long ``0x`` + 64 form of one address (each spelling parsed once)."""
    return Address.parse(value).long


def canonical_addresses(values: Sequence[str | None]) -> list[str | None]:
    """The long ``0x`` + 64 form of each address."""
    long = long_address
    return [None if value is None else long(value) for value in values]
