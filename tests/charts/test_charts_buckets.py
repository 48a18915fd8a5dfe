"""Time buckets chosen from the span, and exact per-bucket statistics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledgerkit import InputError
from ledgerkit.charts import BUCKET_LADDER, bucket_freq
from ledgerkit.charts._common import Buckets, group_percentiles, group_sums


@pytest.mark.parametrize(
    ("start", "end", "freq"),
    [
        ("2025-06-01T00:00:00Z", "2025-06-01T00:00:00Z", "1s"),  # one instant
        ("2025-06-01T00:00:00Z", "2025-06-01T00:01:59Z", "1s"),  # 120 one-second buckets
        ("2025-06-01T00:00:00Z", "2025-06-01T00:02:00Z", "2s"),  # 121 would be one too many
        ("2025-06-01T00:00:00Z", "2025-06-01T01:00:00Z", "1min"),  # 61 (30s gives 121)
        ("2025-06-01T00:00:00Z", "2025-06-01T23:59:59Z", "15min"),  # a day: 96 buckets
        ("2025-06-01T00:23:57Z", "2025-06-02T00:00:00Z", "15min"),  # the default chain
        ("2025-06-01T00:00:00Z", "2025-06-06T00:00:00Z", "2h"),  # 121 hourly would be too many
        ("2025-01-01T00:00:00Z", "2025-12-31T00:00:00Z", "7D"),
        ("2000-01-01T00:00:00Z", "2025-01-01T00:00:00Z", "77D"),  # past the ladder: weeks
    ],
)
def test_the_bucket_width_follows_the_span(start: str, end: str, freq: str) -> None:
    chosen = bucket_freq(start, end)
    first, last = pd.Timestamp(start), pd.Timestamp(end)
    count = (last.floor(chosen) - first.floor(chosen)) // pd.Timedelta(chosen) + 1
    assert count <= 120
    if chosen in BUCKET_LADDER and chosen != BUCKET_LADDER[0]:
        finer = BUCKET_LADDER[BUCKET_LADDER.index(chosen) - 1]
        finer_count = (last.floor(finer) - first.floor(finer)) // pd.Timedelta(finer) + 1
        assert finer_count > 120  # the finest that fits
    assert chosen == freq


@given(
    start=st.integers(0, 2 * 10**9),
    span=st.floats(121, 3 * 10**9),
)
def test_any_span_over_two_minutes_gets_47_to_120_buckets(start: int, span: float) -> None:
    first = pd.Timestamp(start, unit="s", tz="UTC")
    last = first + pd.Timedelta(seconds=span)
    width = pd.Timedelta(bucket_freq(first, last))
    count = (last.floor(width) - first.floor(width)) // width + 1
    assert 47 <= count <= 120


def test_buckets_keep_empty_ones_and_refuse_too_many() -> None:
    times = pd.Series(pd.to_datetime(["2025-06-01T00:00:05Z", "2025-06-01T00:03:10Z"]))
    buckets = Buckets([times], "1min")
    assert buckets.count == 4
    assert buckets.codes(times).tolist() == [0, 3]
    frame = buckets.frame()
    assert frame["time_text"].iat[1] == "2025-06-01 00:01:00 UTC to 2025-06-01 00:02:00 UTC"
    with pytest.raises(InputError, match=r"gives 3701 buckets \(at most 2000\)"):
        Buckets([times], "50ms")
    with pytest.raises(InputError, match="fixed pandas frequency"):
        Buckets([times], "1ME")
    empty = Buckets([times.iloc[0:0]], None)
    assert empty.count == 0
    assert len(empty.frame()) == 0


def test_nearest_rank_percentiles_by_hand() -> None:
    # Group 0: ten prices; p50 is the 5th smallest, p90 the 9th, p100 the largest.
    prices = [100, 300, 100, 100, 150, 100, 100, 100, 100, 100]
    # Group 1: one price; group 2: empty; group 3: 2**64 - 1 exactly.
    codes = np.array([0] * 10 + [1, 3, 3])
    values = np.array([*prices, 7, 2**64 - 1, 5], dtype=np.uint64)
    got = group_percentiles(codes, values, 4, (50, 90, 100))
    assert got[50] == [100, 7, None, 5]
    assert got[90] == [150, 7, None, 2**64 - 1]
    assert got[100] == [300, 7, None, 2**64 - 1]


def test_group_sums_are_exact_past_a_u64() -> None:
    big = 2**64 - 1
    codes = np.array([0, 0, 1, 2, 2])
    values = np.array([big, big, 3, 2**53 + 1, 1], dtype=np.uint64)
    assert group_sums(codes, values, 4) == [2 * big, 3, 2**53 + 2, 0]
