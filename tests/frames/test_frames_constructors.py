"""Frames built through pandas' quick constructors (one block per column, masked arrays
taken as they are) equal the frames of its public ones, on a real chain's pages and on a
partition's rows; and a column known to be missing throughout is the column of Nones."""

from __future__ import annotations

from typing import Any

import httpx
import pandas as pd
import pyarrow as pa
import pytest

from ledgerkit import LocalNode, frames
from ledgerkit.frames import _dtypes
from ledgerkit.models import TransactionRow, decode_transaction_rows

QUICK = {"_MAKE_BLOCK", "_FROM_ARRAYS", "_SIMPLE_NEW", "_MASKED_NEW"}


@pytest.fixture(scope="module")
def pages(node: LocalNode) -> list[bytes]:
    url = node.url.rstrip("/") + "/transactions"
    return [httpx.get(url, params={"start": start, "limit": 100}).content for start in (0, 100)]


def _all_frames(pages: list[bytes]) -> list[pd.DataFrame]:
    rows = [row for body in pages for row in decode_transaction_rows(body)]
    partition = [
        TransactionRow(type="user_transaction", version=i, sender=f"0x{i % 7 + 1:x}")
        if i % 3
        else TransactionRow(type="block_metadata_transaction", version=i, proposer="0x9")
        for i in range(2_500)
    ]
    built = [frames.transactions_to_frame(body, roots=True) for body in pages]
    built += [frames.transactions_to_frame(rows), frames.transactions_to_frame(partition)]
    built += [frames.events_to_frame(body) for body in pages]
    built += [frames.changes_to_frame(pages[1]), frames.transactions_to_frame([])]
    return built


def _same(quick: list[pd.DataFrame], public: list[pd.DataFrame]) -> None:
    assert len(quick) == len(public)
    for one, other in zip(quick, public, strict=True):
        pd.testing.assert_frame_equal(one, other)
        for name in one.columns:
            if isinstance(one[name].dtype, pd.CategoricalDtype):
                assert list(one[name].cat.categories) == list(other[name].cat.categories)


@pytest.mark.parametrize("off", [sorted(QUICK), ["_MAKE_BLOCK"], ["_MASKED_NEW"]])
def test_the_public_constructors_give_the_same_frames(
    pages: list[bytes], off: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = _all_frames(pages)
    for name in off:
        monkeypatch.setattr(_dtypes, name, False if name == "_MASKED_NEW" else None)
    _same(quick, _all_frames(pages))


BUILDERS: dict[str, Any] = {
    "UInt64": frames.UINT64,
    "UInt32": frames.COUNT,
    "string": frames.STRING,
    "timestamp": frames.TIMESTAMP,
    "boolean": frames.BOOL,
    "category": frames.CATEGORY,
}


@pytest.mark.parametrize("length", [0, 1, 3])
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_a_column_missing_throughout_is_the_column_of_nones(name: str, length: int) -> None:
    dtype = BUILDERS[name]
    column = pd.Series(_dtypes.missing(dtype, length))
    of_nones = pd.Series(_dtypes.build_frame({"x": dtype}, {"x": [None] * length})["x"].array)
    pd.testing.assert_series_equal(column, of_nones)
    assert column.isna().all()
    assert len(column) == length
    assert frames.schema_of(column.to_frame("x")) == {
        "x": "category" if name == "category" else str(dtype)
    }
    # What a Parquet file would hold of it, too.
    assert pa.array(column).equals(pa.array(of_nones))
    if name == "category":
        assert list(column.cat.categories) == []
