"""``events_of_type``: the events of one type over a version range, module events
included, from a scan of the range's transactions (the ``transaction_events`` kind).
Expected rows are read from the node's raw JSON pages through httpx."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest
from extract_helpers import VERSIONS, FaultyTransport

import ledgerkit
from ledgerkit.extract import (
    KINDS,
    aevents_of_type,
    events_of_type,
    extract,
    fetch_transactions,
    read_manifest,
)
from ledgerkit.frames import EVENT_COLUMNS, empty_frame, events_to_frame, schema_of
from ledgerkit.localnet import LocalNode

DEPOSIT = "0x1::fungible_asset::Deposit"
SCORE = "0x1::ledger_demo::ScoreChanged"
CELL = "0x1::ledger_demo::CellChanged"


def _long(address: str) -> str:
    return "0x" + address.lower().removeprefix("0x").rjust(64, "0")


def _raw_events(node: LocalNode, start: int, stop: int, kind: str) -> list[tuple[Any, ...]]:
    """(version, event_index, creation_number, account, sequence_number, data) of every
    event of ``kind`` in versions ``[start, stop)``, from the node's JSON."""
    rows = []
    for first in range(start, stop, 100):
        answer = httpx.get(
            f"{node.url.rstrip('/')}/transactions",
            params={"start": first, "limit": min(100, stop - first)},
            timeout=30,
        )
        answer.raise_for_status()
        for txn in answer.json():
            for index, event in enumerate(txn.get("events", [])):
                if event["type"] == kind:
                    rows.append(
                        (
                            int(txn["version"]),
                            index,
                            int(event["guid"]["creation_number"]),
                            _long(event["guid"]["account_address"]),
                            int(event["sequence_number"]),
                            event["data"],
                        )
                    )
    return rows


def _rows(frame: pd.DataFrame) -> list[tuple[Any, ...]]:
    return list(
        zip(
            frame["version"],
            frame["event_index"],
            frame["creation_number"],
            frame["account_address"].astype(str),
            frame["sequence_number"],
            [json.loads(text) for text in frame["data"]],
            strict=True,
        )
    )


@pytest.mark.parametrize("kind", [DEPOSIT, SCORE, CELL])
def test_the_events_of_a_type_over_a_range_are_those_the_transactions_carry(
    kind: str, node: LocalNode
) -> None:
    found = events_of_type(
        node.url, kind, start_version=150, end_version=750, partition_size=200, progress=False
    )
    expected = _raw_events(node, 150, 750, kind)
    assert expected
    assert _rows(found) == expected
    assert set(found["type"].astype(str)) == {kind}
    assert schema_of(found) == schema_of(empty_frame(EVENT_COLUMNS))


def test_module_events_are_found_beside_handle_events(node: LocalNode) -> None:
    found = events_of_type(node.url, SCORE, start_version=0, end_version=VERSIONS, progress=False)
    # add_score emits module events (no stream: creation number 0 at 0x0), set_score
    # emits to a handle of the board's owner.
    module = found[found["creation_number"] == 0]
    handle = found[found["creation_number"] != 0]
    assert len(module) > 0
    assert len(handle) > 0
    assert set(module["account_address"].astype(str)) == {_long("0x0")}


def test_the_whole_ledger_by_default(node: LocalNode) -> None:
    found = events_of_type(node.url, CELL, progress=False)
    assert _rows(found) == _raw_events(node, 0, VERSIONS, CELL)


def test_typed_events_of_a_type_are_exact(node: LocalNode) -> None:
    typed = events_of_type(
        node.url, DEPOSIT, start_version=0, end_version=400, typed=True, progress=False
    )
    expected = _raw_events(node, 0, 400, DEPOSIT)
    assert list(typed.columns[-2:]) == ["store", "amount"]
    assert typed["amount"].tolist() == [int(row[5]["amount"]) for row in expected]
    assert typed["store"].astype(str).tolist() == [_long(row[5]["store"]) for row in expected]
    assert str(typed["amount"].dtype) == "UInt64"
    cache = ledgerkit.AbiCache()
    asynced = asyncio.run(
        aevents_of_type(
            node.url,
            DEPOSIT,
            start_version=0,
            end_version=400,
            typed=True,
            cache=cache,
            progress=False,
        )
    )
    pd.testing.assert_frame_equal(asynced, typed)
    assert "0x1::fungible_asset" in cache


def test_a_kept_dataset_is_resumed_and_serves_any_type_again(
    node: LocalNode, tmp_path: Path
) -> None:
    out = tmp_path / "events"
    counting = FaultyTransport()
    arguments: dict[str, Any] = {
        "dataset": out,
        "partition_size": 200,
        "progress": False,
        "transport": counting,
    }
    first = events_of_type(node.url, DEPOSIT, start_version=0, end_version=400, **arguments)
    assert counting.pages == 4  # versions 0..399, 100 a page
    wider = events_of_type(node.url, DEPOSIT, start_version=0, end_version=800, **arguments)
    assert counting.pages == 4 + 4  # only 400..799 fetched
    assert _rows(wider) == _raw_events(node, 0, 800, DEPOSIT)
    assert _rows(wider)[: len(first)] == _rows(first)
    scores = events_of_type(node.url, SCORE, start_version=100, end_version=700, **arguments)
    assert counting.pages == 8  # nothing fetched: every version is on disk
    assert _rows(scores) == _raw_events(node, 100, 700, SCORE)
    manifest = read_manifest(out)
    assert manifest is not None
    assert manifest["kind"] == "transaction_events"


def test_an_instantiation_never_emitted_gives_no_rows(node: LocalNode) -> None:
    found = events_of_type(
        node.url, f"{DEPOSIT}<u8>", start_version=0, end_version=200, progress=False
    )
    assert len(found) == 0
    assert schema_of(found) == schema_of(empty_frame(EVENT_COLUMNS))


@pytest.mark.parametrize(
    ("kind", "arguments", "message"),
    [
        ("not a type", {}, "unknown type 'not'"),
        ("u64", {}, "expected a struct tag"),
        (DEPOSIT, {"start_version": -1}, "start_version must be a non-negative integer"),
        (DEPOSIT, {"start_version": 10, "end_version": 10}, "stop must be greater than start"),
        (DEPOSIT, {"cache": ledgerkit.AbiCache()}, "give typed=True"),
    ],
)
def test_bad_input_is_refused_before_a_page_is_fetched(
    kind: str, arguments: dict[str, Any], message: str, tmp_path: Path
) -> None:
    counting = FaultyTransport()
    with pytest.raises(ledgerkit.InputError, match=message):
        events_of_type(
            "http://127.0.0.1:9/v1", kind, transport=counting, progress=False, **arguments
        )
    assert counting.pages == 0


def test_the_transaction_events_kind_holds_the_events_of_the_transactions(
    node: LocalNode, tmp_path: Path
) -> None:
    assert "transaction_events" in KINDS
    summary = extract(
        "transaction_events",
        node.url,
        tmp_path / "ev",
        start=37,
        stop=VERSIONS,
        partition_size=300,
        progress=False,
    )
    assert summary.partitions == 4  # [37, 300), [300, 600), [600, 900), [900, 914)
    written = pd.read_parquet(tmp_path / "ev" / "transaction_events")
    written = written.sort_values(["version", "event_index"], ignore_index=True)
    expected = events_to_frame(fetch_transactions(node.url, 37, VERSIONS))
    assert len(written) == len(expected) > 0
    for name in EVENT_COLUMNS:
        assert written[name].astype(str).tolist() == expected[name].astype(str).tolist(), name
