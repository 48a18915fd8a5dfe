"""Signed amounts (a balance change's ``delta``) are numbers: exact over the whole signed
u64 range and past it, summed and compared with Python ints, kept exact by Parquet,
Dask and DuckDB.

The frames come from hand-written transactions whose changes are known: a deposit of
2^64-1, a withdrawal of 2^64-1, a deposit of 2^53+1 and a fee of 3 gas units at 100
octas."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any, Final

import pandas as pd
import pytest
from user_transactions import RECIPIENT, SENDER, coin_event, decoded, user_transaction

from ledgerkit import DecodingError
from ledgerkit.frames import (
    BALANCE_CHANGE_COLUMNS,
    SIGNED_AMOUNT,
    SIGNED_AMOUNT_MAX,
    _dtypes,
    balance_changes_to_frame,
    schema_of,
    wide_to_ints,
)

U64_MAX: Final = 2**64 - 1
ALICE: Final = SENDER
BOB: Final = RECIPIENT
CAROL: Final = "0x" + "c3" * 32
DAVE: Final = "0x" + "d4" * 32
DTYPE: Final = "decimal128(20, 0)[pyarrow]"


def _transaction(events: list[dict[str, Any]], *, gas_used: int) -> Any:
    return decoded(user_transaction(events, gas_used=gas_used))


@pytest.fixture
def frame() -> pd.DataFrame:
    """BOB +(2^64-1), CAROL -(2^64-1), DAVE +(2^53+1), ALICE -300 (the fee)."""
    txn = _transaction(
        [
            coin_event("Deposit", BOB, U64_MAX),
            coin_event("Withdraw", CAROL, U64_MAX),
            coin_event("Deposit", DAVE, 2**53 + 1),
        ],
        gas_used=3,
    )
    return balance_changes_to_frame([txn])


def test_the_delta_is_a_decimal_number_in_full_and_empty_frames(frame: pd.DataFrame) -> None:
    assert str(SIGNED_AMOUNT) == DTYPE
    assert schema_of(frame)["delta"] == DTYPE
    assert schema_of(balance_changes_to_frame([]))["delta"] == DTYPE
    assert str(BALANCE_CHANGE_COLUMNS["delta"]) == DTYPE
    assert SIGNED_AMOUNT_MAX == 99_999_999_999_999_999_999


def test_each_delta_is_exact_and_equals_python_ints(frame: pd.DataFrame) -> None:
    delta = frame.set_index("address")["delta"]
    assert delta.to_dict() == {BOB: U64_MAX, CAROL: -U64_MAX, DAVE: 2**53 + 1, ALICE: -300}
    assert delta[BOB] == 18_446_744_073_709_551_615
    assert delta[CAROL] == -18_446_744_073_709_551_615
    assert delta[DAVE] == 9_007_199_254_740_993
    assert delta[DAVE] != 9_007_199_254_740_992  # where float64 would have landed
    assert int(delta[CAROL]) == -U64_MAX
    assert wide_to_ints(delta) == [U64_MAX, -U64_MAX, 2**53 + 1, -300]


def test_the_fee_is_the_fee_payers_delta(frame: pd.DataFrame) -> None:
    delta = frame.set_index("address")["delta"]
    # 3 gas units at 100 octas, written out: 300.
    assert delta[ALICE] == -(3 * 100)
    assert (frame["delta"] == -300).tolist() == [False, False, False, True]
    assert (frame["delta"] < 0).tolist() == [False, True, False, True]


def test_a_column_compares_with_ints_within_int64_and_with_decimals_beyond(
    frame: pd.DataFrame,
) -> None:
    assert (frame["delta"] == 2**53 + 1).tolist() == [False, False, True, False]
    assert (frame["delta"] == Decimal(U64_MAX)).tolist() == [True, False, False, False]
    assert (frame["delta"] == Decimal(-U64_MAX)).tolist() == [False, True, False, False]
    assert [value == -U64_MAX for value in frame["delta"]] == [False, True, False, False]


def test_sums_are_exact_and_equal_python_ints(frame: pd.DataFrame) -> None:
    total = frame["delta"].sum()
    assert total == U64_MAX - U64_MAX + 2**53 + 1 - 300 == 9_007_199_254_740_693
    assert int(total) == 9_007_199_254_740_693
    # Twice each value, summed: past 2^64 and past the column's own 20 digits.
    doubled = pd.concat([frame] * 6, ignore_index=True)
    assert doubled.loc[doubled["delta"] > 0, "delta"].sum() == 6 * (U64_MAX + 2**53 + 1)
    assert doubled.loc[doubled["delta"] > 0, "delta"].sum() > SIGNED_AMOUNT_MAX
    by_sign = frame.groupby(frame["delta"] > 0)["delta"].sum()
    assert by_sign.to_dict() == {False: -U64_MAX - 300, True: U64_MAX + 2**53 + 1}
    by_asset = frame.groupby("asset", observed=True)["delta"].sum()
    assert by_asset.tolist() == [2**53 + 1 - 300]
    assert balance_changes_to_frame([])["delta"].sum() == 0


def test_running_sums_and_display_units_stay_exact(frame: pd.DataFrame) -> None:
    running = frame["delta"].map(int).cumsum()
    assert running.tolist() == [U64_MAX, 0, 2**53 + 1, 2**53 + 1 - 300]
    in_apt = frame["delta"] / Decimal(10**8)
    assert in_apt.tolist() == [
        Decimal("184467440737.09551615"),
        Decimal("-184467440737.09551615"),
        Decimal("90071992.54740993"),
        Decimal("-0.000003"),
    ]


def test_sorting_is_numeric_order(frame: pd.DataFrame) -> None:
    ordered = frame.sort_values("delta")["address"].tolist()
    assert ordered == [CAROL, ALICE, DAVE, BOB]
    assert frame["delta"].min() == -U64_MAX
    assert frame["delta"].max() == U64_MAX


@pytest.mark.parametrize(
    "values",
    [
        [1, None, -5, 2**63 - 1, -(2**63)],
        [-1, None] * 40,
        [None, None],
        [],
        [U64_MAX, None, -U64_MAX, 0],
        [SIGNED_AMOUNT_MAX, -SIGNED_AMOUNT_MAX],
    ],
)
def test_a_column_holds_what_it_was_given_missing_values_included(values: list[Any]) -> None:
    column = pd.Series(_dtypes.signed_amounts(values), dtype=SIGNED_AMOUNT)
    assert [None if value is pd.NA else int(value) for value in column] == values
    assert column.isna().tolist() == [value is None for value in values]
    assert column.array._pa_array.combine_chunks().validate(full=True) is None
    missing = _dtypes.missing(SIGNED_AMOUNT, 3)
    assert str(missing.dtype) == DTYPE
    assert pd.Series(missing).isna().all()


def test_a_change_past_the_decimal_is_refused_with_a_typed_error() -> None:
    # Six deposits of 2^64-1 to one account in one transaction: 1.1e20, past 20 digits.
    five = _transaction([coin_event("Deposit", BOB, U64_MAX)] * 5, gas_used=0)
    assert balance_changes_to_frame([five])["delta"].tolist() == [5 * U64_MAX]
    six = _transaction([coin_event("Deposit", BOB, U64_MAX)] * 6, gas_used=0)
    with pytest.raises(DecodingError, match=r"column 'delta'.*10\*\*20 - 1"):
        balance_changes_to_frame([six])
    withdrawn = _transaction([coin_event("Withdraw", BOB, U64_MAX)] * 6, gas_used=0)
    with pytest.raises(DecodingError, match="column 'delta'"):
        balance_changes_to_frame([withdrawn])


def test_parquet_keeps_every_value_exact(frame: pd.DataFrame, tmp_path: Path) -> None:
    path = tmp_path / "changes.parquet"
    frame.to_parquet(path)
    import pyarrow.parquet as pq

    assert str(pq.read_schema(path).field("delta").type) == "decimal128(20, 0)"
    back = pd.read_parquet(path)
    # pyarrow gives a decimal back as Decimal objects: the values, exact.
    assert back["delta"].tolist() == [U64_MAX, -U64_MAX, 2**53 + 1, -300]
    restored = back.astype({"delta": SIGNED_AMOUNT})
    pd.testing.assert_series_equal(restored["delta"], frame["delta"])
    arrow = pd.read_parquet(path, dtype_backend="pyarrow")
    assert str(arrow["delta"].dtype) == DTYPE
    assert arrow["delta"].sum() == 2**53 + 1 - 300


def test_a_frame_saved_with_text_deltas_turns_into_numbers(
    frame: pd.DataFrame, tmp_path: Path
) -> None:
    # Before deltas were numbers they were signed decimal text.
    old = frame.assign(delta=frame["delta"].astype(str).astype("string[pyarrow]"))
    assert old["delta"].tolist() == [str(U64_MAX), str(-U64_MAX), str(2**53 + 1), "-300"]
    path = tmp_path / "old.parquet"
    old.to_parquet(path)
    read = pd.read_parquet(path).astype({"delta": SIGNED_AMOUNT})
    pd.testing.assert_series_equal(read["delta"], frame["delta"])


# Dask's own Parquet code calls pandas methods that pandas 3.1 deprecates.
@pytest.mark.filterwarnings("ignore:The inplace keyword:DeprecationWarning")
def test_dask_keeps_the_dtype_and_sums_exactly(frame: pd.DataFrame, tmp_path: Path) -> None:
    dd = pytest.importorskip("dask.dataframe")
    lazy = dd.from_pandas(frame, npartitions=2)
    assert str(lazy.dtypes["delta"]) == DTYPE
    sums = lazy.groupby("address", observed=True)["delta"].sum().compute()
    assert sums.to_dict() == {BOB: U64_MAX, CAROL: -U64_MAX, DAVE: 2**53 + 1, ALICE: -300}
    assert lazy[["delta"]].sum().compute()["delta"] == 2**53 + 1 - 300
    lazy.to_parquet(tmp_path / "changes")
    back = dd.read_parquet(tmp_path / "changes")
    assert str(back.dtypes["delta"]) == DTYPE
    assert back["delta"].compute().tolist() == [U64_MAX, -U64_MAX, 2**53 + 1, -300]


def test_duckdb_reads_a_decimal_and_sums_it_exactly(frame: pd.DataFrame, tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "changes.parquet"
    frame.to_parquet(path)
    rows = duckdb.sql(
        f"select typeof(delta), sum(delta), min(delta), max(delta), "
        f"count(*) filter (where delta = 9007199254740993) from read_parquet('{path}') "
        "group by all"
    ).fetchall()
    assert rows == [("DECIMAL(20,0)", 2**53 + 1 - 300, -U64_MAX, U64_MAX, 1)]
    query = f"select delta from read_parquet('{path}')"
    values = duckdb.sql(query).fetchall()
    assert [value for (value,) in values] == [U64_MAX, -U64_MAX, 2**53 + 1, -300]
    table = duckdb.sql(query).to_arrow_table()
    assert table.column("delta").to_pylist() == [U64_MAX, -U64_MAX, 2**53 + 1, -300]
