"""Integers stay exact through every frame and through a Parquet round trip."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledgerkit.frames import (
    ints_to_wide,
    move_column,
    schema_of,
    transactions_to_frame,
    wide_sum,
    wide_to_ints,
)

U64_MAX = 2**64 - 1
BOUNDARIES = [0, 1, 2**53 + 1, 2**63, U64_MAX]
HASH = "0x" + "ab" * 32


def user_transaction(version: int, gas_used: int, price: int, **more: int) -> dict[str, Any]:
    """A user transaction as the API writes it (U64 fields as decimal strings)."""
    fields = {"sequence_number": 1, "max_gas_amount": 7, "expiration_timestamp_secs": 9}
    fields.update(more)
    return {
        "type": "user_transaction",
        "version": str(version),
        "hash": HASH,
        "state_change_hash": HASH,
        "event_root_hash": HASH,
        "accumulator_root_hash": HASH,
        "gas_used": str(gas_used),
        "success": True,
        "vm_status": "Executed successfully",
        "changes": [],
        "sender": "0x1",
        "sequence_number": str(fields["sequence_number"]),
        "max_gas_amount": str(fields["max_gas_amount"]),
        "gas_unit_price": str(price),
        "expiration_timestamp_secs": str(fields["expiration_timestamp_secs"]),
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": ["0x2", "1"],
        },
        "events": [],
        "timestamp": "1704067200502659",
    }


u64s = st.one_of(st.sampled_from(BOUNDARIES), st.integers(0, U64_MAX))


def roundtrip(frame: pd.DataFrame, path: Path) -> pd.DataFrame:
    frame.to_parquet(path)
    return pd.read_parquet(path)


@pytest.mark.parametrize("value", BOUNDARIES)
def test_every_u64_column_is_exact_at_the_boundaries(value: int, tmp_path: Path) -> None:
    record = user_transaction(
        value,
        value,
        value,
        sequence_number=value,
        max_gas_amount=value,
        expiration_timestamp_secs=value,
    )
    frame = transactions_to_frame([record])
    columns = [
        "version",
        "gas_used",
        "gas_unit_price",
        "max_gas_amount",
        "sequence_number",
        "expiration_timestamp_secs",
    ]
    back = roundtrip(frame, tmp_path / "t.parquet")
    assert schema_of(back) == schema_of(frame)
    for name in columns:
        assert frame[name].dtype == "UInt64"
        assert int(frame[name].iloc[0]) == value
        assert int(back[name].iloc[0]) == value


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(u64s, min_size=1, max_size=20))
def test_u64_versions_survive_frame_and_parquet(values: list[int], tmp_path: Path) -> None:
    frame = transactions_to_frame([user_transaction(v, v, 1) for v in values])
    back = roundtrip(frame, tmp_path / "p.parquet")
    assert [int(v) for v in frame["version"]] == values
    assert [int(v) for v in back["version"]] == values
    assert [int(v) for v in back["gas_used"]] == values


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    bits=st.sampled_from([128, 256]),
    data=st.data(),
)
def test_wide_integers_are_exact_sort_and_sum(bits: int, data: Any, tmp_path: Path) -> None:
    top = 2**bits - 1
    values = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from([0, 2**53 + 1, U64_MAX, 2**128 - 1, top]), st.integers(0, top)
            ).filter(lambda v: v <= top),
            min_size=1,
            max_size=20,
        )
    )
    frame = pd.DataFrame({"n": move_column([str(v) for v in values], f"u{bits}")})
    back = roundtrip(frame, tmp_path / "w.parquet")
    assert back["n"].dtype == frame["n"].dtype
    assert wide_to_ints(frame["n"]) == values
    assert wide_to_ints(back["n"]) == values
    assert wide_to_ints(back["n"].sort_values()) == sorted(values)
    assert wide_sum(back["n"]) == sum(values)


def test_wide_columns_reject_values_that_do_not_fit() -> None:
    with pytest.raises(OverflowError):
        ints_to_wide([2**128], bits=128)
    with pytest.raises(OverflowError):
        ints_to_wide([-1], bits=256)


@pytest.mark.parametrize("bits", [128, 256])
def test_wide_columns_hold_the_largest_value(bits: int, tmp_path: Path) -> None:
    frame = pd.DataFrame({"n": ints_to_wide([2**bits - 1, None, 2**53 + 1], bits=bits)})
    back = roundtrip(frame, tmp_path / "m.parquet")
    assert wide_to_ints(back["n"]) == [2**bits - 1, None, 2**53 + 1]


@settings(max_examples=80)
@given(gas=u64s, price=u64s)
def test_fees_are_exact_or_refused(gas: int, price: int) -> None:
    frame = transactions_to_frame([user_transaction(1, gas, price)])
    if gas * price > U64_MAX:
        with pytest.raises(OverflowError):
            frame.ledger.fees()
        return
    fee = frame.ledger.fees()
    assert fee.dtype == "UInt64"
    assert int(fee.iloc[0]) == gas * price
    assert frame.ledger.fees_in_units().iloc[0] == Decimal(gas * price) / Decimal(10**8)


def test_fee_past_two_to_the_53_is_exact() -> None:
    gas, price = 2**32 + 1, 2**21 + 3  # product just past 2**53, odd: float would round it
    frame = transactions_to_frame([user_transaction(1, gas, price), user_transaction(2, 1, 1)])
    assert gas * price > 2**53
    assert int(frame.ledger.fees().iloc[0]) == gas * price
    blocks = frame.ledger.by_versions(10)
    assert int(blocks["fees"].iloc[0]) == gas * price + 1
    assert int(frame.ledger.senders()["fees"].iloc[0]) == gas * price + 1


def test_aggregate_sums_past_u64_are_refused() -> None:
    frame = transactions_to_frame(
        [user_transaction(1, U64_MAX, 1), user_transaction(2, U64_MAX, 1)]
    )
    with pytest.raises(OverflowError):
        frame.ledger.by_versions(10)
