"""Category columns: categories in order of first appearance and missing values as NA,
alike for a page (a hundred rows) and a partition (thousands of rows, coded in C)."""

from __future__ import annotations

import pandas as pd
import pytest

from ledgerkit.frames import transactions_to_frame
from ledgerkit.frames._dtypes import address_category, category
from ledgerkit.models import TransactionRow

ONE = "0x" + "0" * 63 + "1"
TWO = "0x" + "0" * 63 + "2"


@pytest.mark.parametrize("repeat", [1, 25, 2_500])
def test_categories_come_in_order_of_first_appearance(repeat: int) -> None:
    values = ["user_transaction", None, "block_metadata_transaction", "user_transaction"]
    column = pd.Series(category(values * repeat))
    assert list(column.cat.categories) == ["user_transaction", "block_metadata_transaction"]
    assert column.isna().sum() == repeat
    assert column.iloc[:4].tolist()[::2] == ["user_transaction", "block_metadata_transaction"]
    assert column.value_counts().to_dict() == {
        "user_transaction": 2 * repeat,
        "block_metadata_transaction": repeat,
    }


@pytest.mark.parametrize("repeat", [1, 25, 2_500])
def test_address_categories_are_long_and_count_spellings_as_one(repeat: int) -> None:
    values = ["0x2", None, "0x1", ONE]
    column = pd.Series(address_category(values * repeat))
    assert list(column.cat.categories) == [TWO, ONE]
    assert column.value_counts().to_dict() == {ONE: 2 * repeat, TWO: repeat}
    assert column.isna().sum() == repeat


def test_a_partition_of_rows_gives_the_frame_of_its_pages_joined() -> None:
    rows = [
        TransactionRow(type="user_transaction", version=i, sender=f"0x{i % 7 + 1:x}")
        if i % 3
        else TransactionRow(type="block_metadata_transaction", version=i, proposer="0x9")
        for i in range(3_000)
    ]
    whole = transactions_to_frame(rows)
    pages = [transactions_to_frame(rows[i : i + 100]) for i in range(0, 3_000, 100)]
    assert list(whole["sender"].cat.categories) == [
        "0x" + "0" * 63 + str(n) for n in (2, 3, 5, 6, 1, 4, 7)
    ]
    for name in whole.columns:
        joined = pd.concat([page[name].astype(object) for page in pages], ignore_index=True)
        assert whole[name].astype(object).equals(joined), name
