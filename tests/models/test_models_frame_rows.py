"""A page's bytes straight to the transactions frame (``transactions_to_frame(body)``)
gives the very frame that the full records give, on every page of a real chain and on
every shape of transaction an Aptos node sends; and refuses bad bodies the same way."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import orjson
import pandas as pd
import pytest
from model_samples import (
    DECRYPTED,
    ENCRYPTED,
    ENTRY_FUNCTION,
    MODULE_BUNDLE,
    MULTISIG,
    MULTISIG_STORED,
    SCRIPT,
    TRANSACTIONS,
    committed,
    user_transaction,
)

from ledgerkit import DecodingError
from ledgerkit import frames as f
from ledgerkit.frames import _dtypes
from ledgerkit.models import TransactionRow, decode_transaction_rows, decode_transactions

U64_MAX = (1 << 64) - 1
SHINY: dict[str, Any] = {
    **committed("77", sender="0x5"),
    "type": "shiny_new_transaction",
    "sparkle": {"level": "18446744073709551615"},
}
ODD: dict[str, Any] = {"type": "odd_transaction", "version": "78", "sender": {"not": "a str"}}


def _page(*items: dict[str, Any]) -> bytes:
    return json.dumps(list(items)).encode()


def _same_both_ways(body: bytes) -> pd.DataFrame:
    """The frame from the bytes, after checking it equals the one from full records."""
    for roots in (False, True):
        fast = f.transactions_to_frame(body, roots=roots)
        full = f.transactions_to_frame(decode_transactions(body), roots=roots)
        pd.testing.assert_frame_equal(fast, full)
        as_rows = f.transactions_to_frame(decode_transaction_rows(body), roots=roots)
        pd.testing.assert_frame_equal(as_rows, full)
    return fast


@pytest.fixture(scope="module")
def pages(http: httpx.Client) -> list[bytes]:
    latest = int(orjson.loads(http.get("/").content)["ledger_version"])
    return [
        http.get("/transactions", params={"start": s, "limit": 100}).content
        for s in range(0, latest + 1, 100)
    ]


def test_every_page_of_the_chain_gives_the_same_frame(pages: list[bytes]) -> None:
    kinds: set[str] = set()
    total = 0
    for body in pages:
        frame = _same_both_ways(body)
        kinds |= set(frame["type"])
        total += len(frame)
    assert total == sum(len(orjson.loads(body)) for body in pages)
    assert {"genesis_transaction", "user_transaction", "block_metadata_transaction"} <= kinds


@pytest.mark.parametrize(("name", "sample"), [(n, s) for n, s, _ in TRANSACTIONS])
def test_every_transaction_shape_gives_the_same_row(name: str, sample: dict[str, Any]) -> None:
    frame = _same_both_ways(_page(sample))
    assert frame["type"].tolist() == [sample["type"]]


@pytest.mark.parametrize(
    ("payload", "function"),
    [
        (ENTRY_FUNCTION, ENTRY_FUNCTION["function"]),
        (SCRIPT, None),
        (MODULE_BUNDLE, None),
        (MULTISIG, MULTISIG["transaction_payload"]["function"]),
        (MULTISIG_STORED, None),
        (ENCRYPTED, None),
        (DECRYPTED, DECRYPTED["decrypted_payload"]["function"]),
        ({"type": "quantum_payload", "function": "0x1::q::f"}, None),
    ],
)
def test_the_function_is_read_through_every_payload(
    payload: dict[str, Any], function: str | None
) -> None:
    frame = _same_both_ways(_page(user_transaction(payload=payload)))
    assert frame["payload_type"].tolist() == [payload["type"]]
    assert frame["function"].astype(object).where(frame["function"].notna(), None).tolist() == [
        function
    ]


def test_unknown_types_keep_what_they_share_with_known_ones() -> None:
    body = _page(user_transaction(), SHINY, ODD)
    frame = _same_both_ways(body)
    shiny, odd = frame.iloc[1], frame.iloc[2]
    assert shiny["type"] == "shiny_new_transaction"
    assert shiny["version"] == 77
    assert shiny["sender"] == "0x" + "0" * 63 + "5"
    assert odd["type"] == "odd_transaction"  # its sender is not an address: left out
    assert odd["version"] == 78
    assert pd.isna(odd["sender"])


@pytest.mark.parametrize("value", [0, 1, 2**53 + 1, 2**63, U64_MAX])
def test_u64_fields_are_exact_from_the_bytes(value: int) -> None:
    sample = user_transaction()
    for name in ("version", "gas_used", "sequence_number", "max_gas_amount", "gas_unit_price"):
        sample[name] = str(value)
    frame = f.transactions_to_frame(_page(sample))
    for name in ("version", "gas_used", "sequence_number", "max_gas_amount", "gas_unit_price"):
        assert frame[name].dtype == f.UINT64
        assert int(frame[name].iloc[0]) == value


def _bad(change: dict[str, Any]) -> bytes:
    sample = user_transaction()
    sample.update(change)
    return _page(sample)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"", "empty body"),
        (b"<html>busy</html>", "not JSON"),
        (_page(user_transaction())[:-40], "not JSON"),
        (b'{"version": "1"}', "does not fit"),
        (_bad({"version": str(U64_MAX + 1)}), "does not fit in a u64"),
        (_bad({"gas_used": "-1"}), "does not fit"),
        (_bad({"success": "yes"}), "$[0].success"),
        (_bad({"sender": 12}), "$[0].sender"),
        (_bad({"events": {"a": 1}}), "$[0].events"),
        (_bad({"payload": {"type": "entry_function_payload"}}), "without its function"),
        (_page({"version": "1"}), "does not fit"),  # no type at all
    ],
)
def test_bad_bodies_are_decoding_errors(body: bytes, words: str) -> None:
    with pytest.raises(DecodingError) as caught:
        f.transactions_to_frame(body)
    assert words in str(caught.value)


def test_an_empty_page_has_the_full_schema() -> None:
    empty = f.transactions_to_frame(b"[]")
    full = f.transactions_to_frame(_page(user_transaction()))
    assert len(empty) == 0
    assert f.schema_of(empty) == f.schema_of(full)


def test_rows_are_small_and_plain() -> None:
    [row] = decode_transaction_rows(_page(user_transaction()))
    assert isinstance(row, TransactionRow)
    assert row.type == "user_transaction"
    assert len(row.events) == 2  # counted, not decoded
    assert row.payload is not None
    assert row.payload.function == ENTRY_FUNCTION["function"]


def test_the_public_constructors_give_the_same_frame(
    pages: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where pandas lacks its unchecked constructors the public ones are used: same frame."""
    body = pages[1]
    quick = f.transactions_to_frame(body, roots=True)
    monkeypatch.setattr(_dtypes, "_FROM_ARRAYS", None)
    monkeypatch.setattr(_dtypes, "_SIMPLE_NEW", None)
    public = f.transactions_to_frame(body, roots=True)
    pd.testing.assert_frame_equal(quick, public)
    missing = copy.deepcopy(orjson.loads(body))
    for item in missing:
        item.pop("timestamp", None)
    pd.testing.assert_frame_equal(
        f.transactions_to_frame(orjson.dumps(missing)),
        f.transactions_to_frame(decode_transaction_rows(orjson.dumps(missing))),
    )


def test_two_spellings_of_one_address_are_one_category() -> None:
    short, long = user_transaction(sender="0x5"), user_transaction(sender="0x" + "0" * 63 + "5")
    frame = _same_both_ways(_page(short, long, user_transaction()))
    assert frame["sender"].tolist()[:2] == ["0x" + "0" * 63 + "5"] * 2
    assert len(frame["sender"].cat.categories) == 2
