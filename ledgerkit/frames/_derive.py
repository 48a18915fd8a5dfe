"""Derived tables from a transactions frame: exact fees and who pays them, per-block,
per-version-range and per-time aggregates, sender, payer and function activity; also the
``df.ledger`` accessor.

A transaction's fee is charged to its fee payer when it has one (a ``fee_payer_signature``,
the ``fee_payer`` column), to its sender otherwise: :func:`fee_payers` says which account
paid each fee, and the tables that attribute fees to accounts (:func:`sender_activity`,
:func:`payer_activity`) follow it. A frame without a ``fee_payer`` column (written before
the column existed) charges every fee to the sender."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Final

import numpy as np
import pandas as pd

from ledgerkit.frames._dtypes import (
    BOOL,
    STRING,
    UINT64,
    category,
)
from ledgerkit.types import U64_MAX

__all__ = [
    "APT_DECIMALS",
    "LedgerAccessor",
    "block_stats",
    "fee_payers",
    "fees",
    "fees_in_units",
    "function_activity",
    "payer_activity",
    "sender_activity",
    "time_stats",
    "version_stats",
]

APT_DECIMALS: Final = 8
# A float sum at or above this means a uint64 group sum may have wrapped around.
_WRAP_GUARD: Final = float(1 << 63)


def _u64_values(series: pd.Series) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    array = series.array
    if not isinstance(array, pd.arrays.IntegerArray):
        array = pd.array(series, dtype=UINT64)
    data = np.asarray(array._data, dtype=np.uint64)
    return data, np.asarray(array._mask, dtype=bool)


def fees(frame: pd.DataFrame) -> pd.Series:
    """The fee of each transaction in octas: ``gas_used * gas_unit_price``, exact;
    charged to the account :func:`fee_payers` names (the fee payer, else the sender).

    Computed in uint64 (never float); a product past ``2**64 - 1`` raises
    ``OverflowError`` (the chain charges fees in a u64, so real data never does).
    Missing where the gas price is (transactions that are not user transactions).
    """
    used, used_na = _u64_values(frame["gas_used"])
    price, price_na = _u64_values(frame["gas_unit_price"])
    mask = used_na | price_na
    safe_price = np.where(price == 0, np.uint64(1), price)
    overflow = ~mask & (price != 0) & (used > np.uint64(U64_MAX) // safe_price)
    if overflow.any():
        at = int(np.flatnonzero(overflow)[0])
        raise OverflowError(f"the fee of row {at} does not fit in a u64")
    product = np.where(mask, np.uint64(0), used * price)
    return pd.Series(
        pd.arrays.IntegerArray(product.astype(np.uint64), mask),
        index=frame.index,
        name="fee",
    )


def _sponsored(frame: pd.DataFrame) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Rows whose fee an account other than the sender paid."""
    if "fee_payer" not in frame.columns:
        return np.zeros(len(frame), dtype=bool)
    payer = frame["fee_payer"].astype(object)
    sender = frame["sender"].astype(object)
    sponsored: np.ndarray[Any, np.dtype[np.bool_]] = (payer.notna() & (payer != sender)).to_numpy(
        dtype=bool
    )
    return sponsored


def fee_payers(frame: pd.DataFrame) -> pd.Series:
    """The account charged each transaction's fee: its ``fee_payer`` when it has one,
    else its ``sender`` (long-form addresses, ``category``).

    Missing where the fee is (transactions that are not user transactions). Read with
    :func:`fees` (the amount): ``fees(frame).groupby(fee_payers(frame)).sum()`` is what
    each account paid, as :func:`payer_activity` gives it.
    """
    payer = frame["sender"].astype(object).copy()
    sponsored = _sponsored(frame)
    if sponsored.any():
        payer[sponsored] = frame["fee_payer"].astype(object)[sponsored]
    payer[fees(frame).isna().to_numpy(dtype=bool)] = None
    return pd.Series(category(list(payer)), index=frame.index, name="payer")


def fees_in_units(frame: pd.DataFrame, *, decimals: int = APT_DECIMALS) -> pd.Series:
    """The fee of each transaction in display units (APT: 8 decimals) as exact ``Decimal``."""
    octas = fees(frame)
    scale = -decimals
    values = [None if v is pd.NA else Decimal(int(v)).scaleb(scale) for v in octas.array]
    return pd.Series(values, index=frame.index, name="fee", dtype=object)


def _exact_sums(grouped: Any, columns: list[str]) -> pd.DataFrame:
    sums = grouped[columns].sum(min_count=0)
    floats = grouped[columns].agg(lambda s: float(np.asarray(s.dropna(), dtype=float).sum()))
    if (floats.to_numpy(dtype=float) >= _WRAP_GUARD).any():
        raise OverflowError("a sum does not fit in a u64; sum the column with Python ints")
    return sums.astype(UINT64)


def _with_fee(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame[["version", "type", "success", "gas_used"]].copy()
    out["fee"] = fees(frame)
    out["is_user"] = (frame["type"] == "user_transaction").astype(BOOL)
    return out


def _summarise(frame: pd.DataFrame, key: Any) -> pd.DataFrame:
    work = _with_fee(frame)
    work["_key"] = key
    work = work[work["_key"].notna()]
    grouped = work.groupby("_key", sort=True, observed=True, dropna=True)
    out = pd.DataFrame(
        {
            "first_version": grouped["version"].min().astype(UINT64),
            "last_version": grouped["version"].max().astype(UINT64),
            "transactions": grouped.size().astype(UINT64),
            "user_transactions": grouped["is_user"].sum().astype(UINT64),
            "failed": grouped["success"].agg(lambda s: int((s == False).sum())).astype(UINT64),  # noqa: E712
        }
    )
    sums = _exact_sums(grouped, ["gas_used", "fee"])
    out["gas_used"] = sums["gas_used"]
    out["fees"] = sums["fee"]
    return out


def block_stats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-block aggregates of a transactions frame, one row per block.

    A block starts at a ``block_metadata_transaction`` (or the genesis); the index is
    that transaction's version. Rows before the first block start in the frame belong to
    a block that began earlier and are left out. Columns: ``first_version``,
    ``last_version``, ``transactions``, ``user_transactions``, ``failed``, ``gas_used``,
    ``fees`` (octas), all ``UInt64`` and exact.
    """
    starts = frame["type"].isin(["block_metadata_transaction", "genesis_transaction"])
    key = frame["version"].where(starts.to_numpy(dtype=bool)).ffill()
    out = _summarise(frame, key)
    out.index = pd.Index(out.index, dtype=UINT64, name="block_version")
    return out


def version_stats(frame: pd.DataFrame, width: int) -> pd.DataFrame:
    """Aggregates per range of ``width`` versions; the index is each range's first version."""
    versions, mask = _u64_values(frame["version"])
    start = (versions // np.uint64(width)) * np.uint64(width)
    key = pd.Series(pd.arrays.IntegerArray(start, mask), index=frame.index)
    out = _summarise(frame, key)
    out.index = pd.Index(out.index, dtype=UINT64, name="range_start")
    return out


def time_stats(frame: pd.DataFrame, freq: str) -> pd.DataFrame:
    """Aggregates per time bucket of ``timestamp`` (a pandas frequency: ``"1min"``, ``"1h"``).

    Empty buckets between the first and last are kept with zero counts, as ``resample``
    does; transactions without a timestamp (genesis, pending) are left out.
    """
    work = frame[frame["timestamp"].notna()]
    key = work["timestamp"].dt.floor(freq)
    out = _summarise(work, key)
    if len(out):
        full = pd.date_range(out.index.min(), out.index.max(), freq=freq, unit="us")
        out = out.reindex(full)
        counts = ["transactions", "user_transactions", "failed", "gas_used", "fees"]
        out[counts] = out[counts].fillna(0)
    out.index = pd.DatetimeIndex(out.index, name="bucket").as_unit("us")
    if out.index.tz is None:
        out.index = out.index.tz_localize("UTC")
    return out


def _activity(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    work = _with_fee(frame)
    extra = "function" if by == "sender" else "sender"
    work[extra] = frame[extra]
    work[by] = fee_payers(frame) if by == "payer" else frame[by]
    sponsored = _sponsored(frame)
    if by != "function":
        work["sponsored"] = sponsored
    if by == "sender":
        # A fee another account paid is not the sender's.
        work["fee"] = work["fee"].mask(sponsored)
    work = work[work[by].notna()]
    grouped = work.groupby(by, sort=True, observed=True)
    out = pd.DataFrame(
        {
            "transactions": grouped.size().astype(UINT64),
            "failed": grouped["success"].agg(lambda s: int((s == False).sum())).astype(UINT64),  # noqa: E712
            "first_version": grouped["version"].min().astype(UINT64),
            "last_version": grouped["version"].max().astype(UINT64),
            f"{extra}s": grouped[extra].nunique().astype(UINT64),
        }
    )
    if by != "function":
        out["sponsored"] = grouped["sponsored"].sum().astype(UINT64)
    sums = _exact_sums(grouped, ["gas_used", "fee"])
    out["gas_used"] = sums["gas_used"]
    out["fees"] = sums["fee"]
    out.index = pd.Index(out.index.astype(str), dtype=STRING, name=by)
    return out.sort_values("transactions", ascending=False, kind="stable")


def sender_activity(frame: pd.DataFrame) -> pd.DataFrame:
    """Per sender: transactions, failed, first and last version, distinct functions,
    ``sponsored`` (its transactions whose fee a fee payer paid), gas, and ``fees``: what
    the sender itself was charged (its transactions without another fee payer)."""
    return _activity(frame, "sender")


def payer_activity(frame: pd.DataFrame) -> pd.DataFrame:
    """Per account charged fees (:func:`fee_payers`): transactions paid for, failed,
    first and last version, distinct senders, ``sponsored`` (those another account sent),
    gas used and ``fees`` paid, exact. The ``fees`` column sums to ``fees(frame).sum()``."""
    return _activity(frame, "payer")


def function_activity(frame: pd.DataFrame) -> pd.DataFrame:
    """Per entry function: calls, failed, first and last version, distinct senders, gas, fees."""
    return _activity(frame, "function")


class LedgerAccessor:
    """``df.ledger``: the derivations of this module on a transactions frame.

    Examples
    --------
    >>> frame = transactions_to_frame(txs)  # doctest: +SKIP
    >>> frame.ledger.fees().sum()  # doctest: +SKIP
    >>> frame.ledger.by_time("1min")  # doctest: +SKIP
    """

    def __init__(self, frame: pd.DataFrame) -> None:
        self._frame = frame

    def fees(self) -> pd.Series:
        """:func:`fees`: exact fees in octas (``UInt64``)."""
        return fees(self._frame)

    def fees_in_units(self, *, decimals: int = APT_DECIMALS) -> pd.Series:
        """:func:`fees_in_units`: exact fees as ``Decimal`` in display units."""
        return fees_in_units(self._frame, decimals=decimals)

    def blocks(self) -> pd.DataFrame:
        """:func:`block_stats`."""
        return block_stats(self._frame)

    def by_versions(self, width: int) -> pd.DataFrame:
        """:func:`version_stats`."""
        return version_stats(self._frame, width)

    def by_time(self, freq: str) -> pd.DataFrame:
        """:func:`time_stats`."""
        return time_stats(self._frame, freq)

    def fee_payers(self) -> pd.Series:
        """:func:`fee_payers`: the account charged each fee."""
        return fee_payers(self._frame)

    def senders(self) -> pd.DataFrame:
        """:func:`sender_activity`."""
        return sender_activity(self._frame)

    def payers(self) -> pd.DataFrame:
        """:func:`payer_activity`: fees per account charged."""
        return payer_activity(self._frame)

    def functions(self) -> pd.DataFrame:
        """:func:`function_activity`."""
        return function_activity(self._frame)


def register_accessor() -> None:
    """Register :class:`LedgerAccessor` as ``DataFrame.ledger`` (done on import, once)."""
    if "ledger" not in getattr(pd.DataFrame, "_accessors", set()):
        pd.api.extensions.register_dataframe_accessor("ledger")(LedgerAccessor)
