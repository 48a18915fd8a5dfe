"""Exact integers: every U64 comes out as the exact ``int`` at 2**53 + 1 and 2**64 - 1,
sent as a decimal string or as a JSON number, never through ``float``; out of range is a
DecodingError; u128 and u256 inside Move values stay exact."""

from __future__ import annotations

import json
from typing import Any

import pytest
from model_samples import BLOCK, GAS_ESTIMATE, LEDGER_INFO, user_transaction

from ledgerkit import DecodingError
from ledgerkit import models as m

EDGES = [2**53 + 1, 2**64 - 1]
TOO_BIG = [2**64, 2**64 + 1, 10**30]


def _set(body: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``body`` with the value at a dotted path (list indices as digits) replaced."""
    body = json.loads(json.dumps(body))
    *parents, last = path.split(".")
    node: Any = body
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[int(last) if last.isdigit() else last] = value
    return body


def _get(record: Any, path: str) -> Any:
    for part in path.split("."):
        record = record[int(part)] if part.isdigit() else getattr(record, part)
    return record


# (where, body, record type, decimal-string field): every U64 field of the records sent
# most, including ones nested in lists and sub-records.
U64_FIELDS = [
    *[
        ("user", user_transaction(), m.Transaction, f)
        for f in [
            "version",
            "gas_used",
            "sequence_number",
            "max_gas_amount",
            "gas_unit_price",
            "expiration_timestamp_secs",
            "timestamp",
            "events.0.sequence_number",
            "events.0.guid.creation_number",
        ]
    ],
    *[
        ("ledger", LEDGER_INFO, m.LedgerInfo, f)
        for f in [
            "epoch",
            "ledger_version",
            "oldest_ledger_version",
            "ledger_timestamp",
            "block_height",
        ]
    ],
    *[
        ("block", BLOCK, m.Block, f)
        for f in [
            "block_height",
            "block_timestamp",
            "first_version",
            "last_version",
            "transactions.1.version",
        ]
    ],
]


@pytest.mark.parametrize("value", EDGES)
@pytest.mark.parametrize(
    ("where", "body", "type_", "field"),
    U64_FIELDS,
    ids=[f"{w}.{f}" for w, _, _, f in U64_FIELDS],
)
def test_u64_strings_and_numbers_are_exact(
    where: str, body: dict[str, Any], type_: Any, field: str, value: int
) -> None:
    for sent in (str(value), value):  # the API's decimal string, and a JSON number
        record = m.decode(json.dumps(_set(body, field, sent)), type_)
        got = _get(record, field)
        assert type(got) is int
        assert got == value


@pytest.mark.parametrize("value", [-1, *TOO_BIG])
@pytest.mark.parametrize(
    ("where", "body", "type_", "field"),
    U64_FIELDS,
    ids=[f"{w}.{f}" for w, _, _, f in U64_FIELDS],
)
def test_u64_out_of_range_is_a_decoding_error(
    where: str, body: dict[str, Any], type_: Any, field: str, value: int
) -> None:
    for sent in (str(value), value):
        with pytest.raises(DecodingError, match=str(value) if value > 0 else ">= 0"):
            m.decode(json.dumps(_set(body, field, sent)), type_)


def test_out_of_range_in_a_page_names_the_item() -> None:
    page = [user_transaction(), _set(user_transaction(), "gas_used", str(2**64))]
    with pytest.raises(DecodingError, match=r"does not fit in a u64 - at `\$\[1\]`"):
        m.decode_transactions(json.dumps(page))


@pytest.mark.parametrize("value", EDGES)
def test_gas_estimates_and_balances_sent_as_numbers(value: int) -> None:
    gas = m.decode_gas_estimate(json.dumps({**GAS_ESTIMATE, "prioritized_gas_estimate": value}))
    assert gas.prioritized_gas_estimate == value
    assert m.decode_balance(str(value).encode()) == value
    assert m.decode_balance(json.dumps(str(value)).encode()) == value


@pytest.mark.parametrize(
    "body", [b"-1", b"18446744073709551616", b'"18446744073709551616"', b"1.5", b"true", b"{}"]
)
def test_a_bad_balance_is_a_decoding_error(body: bytes) -> None:
    with pytest.raises(DecodingError, match="u64 balance"):
        m.decode_balance(body)


@pytest.mark.parametrize(
    ("field", "value"), [("chain_id", 256), ("chain_id", -1), ("chain_id", "x")]
)
def test_small_integers_are_range_checked(field: str, value: Any) -> None:
    with pytest.raises(DecodingError, match=field):
        m.decode_ledger_info(json.dumps({**LEDGER_INFO, field: value}))


@pytest.mark.parametrize("value", [2**64 - 1, 2**128 - 1, 2**256 - 1])
def test_wide_move_values_stay_exact(value: int) -> None:
    resource = {"type": "0x1::coin::Supply", "data": {"max": str(value), "raw": value}}
    [decoded] = m.decode_resources(json.dumps([resource]))
    assert decoded.data["max"] == str(value)  # the node's decimal string, untouched
    assert decoded.data["raw"] == value
    assert type(decoded.data["raw"]) is int
    assert m.decode_view(json.dumps([str(value), value, {"vec": [str(value)]}])) == [
        str(value),
        value,
        {"vec": [str(value)]},
    ]
    event = {
        "guid": {"creation_number": "0", "account_address": "0x0"},
        "sequence_number": "0",
        "type": "0x1::m::E",
        "data": {"amount": str(value)},
    }
    assert m.decode_events(json.dumps([event]))[0].data["amount"] == str(value)
    txn = m.decode_transaction(
        json.dumps(
            user_transaction(
                payload={
                    "type": "entry_function_payload",
                    "function": "0x1::m::f",
                    "type_arguments": [],
                    "arguments": [str(value)],
                }
            )
        )
    )
    assert isinstance(txn, m.UserTransaction)
    assert isinstance(txn.payload, m.EntryFunctionPayload)
    assert txn.payload.arguments == [str(value)]


def test_to_builtins_gives_ints_back_exactly() -> None:
    body = _set(user_transaction(), "sequence_number", str(2**64 - 1))
    out = m.to_builtins(m.decode_transaction(json.dumps(body)))
    assert out["sequence_number"] == 2**64 - 1
    assert out["version"] == 2**53 + 1
