"""Ranges: bad ones are typed errors before or at the first request; plans are aligned."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from extract_helpers import VERSIONS, FaultyTransport

import ledgerkit
from ledgerkit.extract import (
    blocks_dask,
    events_dask,
    extract_blocks,
    extract_events,
    extract_transactions,
    fetch_transactions,
    transactions_dask,
)
from ledgerkit.extract._ranges import compact, partitions
from ledgerkit.localnet import LocalNode


@pytest.mark.parametrize(("start", "stop"), [(10, 10), (10, 3), (-1, 5)])
def test_an_empty_or_negative_range_is_refused_before_sending(
    node: LocalNode, tmp_path: Path, start: int, stop: int
) -> None:
    transport = FaultyTransport()
    with pytest.raises(ledgerkit.InputError):
        extract_transactions(node.url, tmp_path, start=start, stop=stop, transport=transport)
    with pytest.raises(ledgerkit.InputError):
        fetch_transactions(node.url, start, stop)
    assert transport.pages == 0
    assert not (tmp_path / "manifest.json").exists()


@pytest.mark.parametrize(("start", "stop"), [(10, 10), (10, 3), (-1, 5)])
def test_the_dask_twins_refuse_a_bad_range_when_built(start: int, stop: int) -> None:
    url = "http://127.0.0.1:9/v1"  # nothing is sent: the checks come first
    with pytest.raises(ledgerkit.InputError):
        transactions_dask(url, start, stop)
    with pytest.raises(ledgerkit.InputError):
        blocks_dask(url, start, stop)
    with pytest.raises(ledgerkit.InputError):
        events_dask(url, "0x1", 2, start, stop)


@pytest.mark.parametrize(
    ("address", "creation_number", "error"),
    [
        ("0xzz", 2, ledgerkit.InvalidAddressError),
        ("0x1", -1, ledgerkit.InvalidIntegerError),
        ("0x1", "two", ledgerkit.InvalidIntegerError),
    ],
)
def test_a_bad_event_stream_is_refused_before_anything_is_written(
    node: LocalNode, tmp_path: Path, address: str, creation_number: object, error: type
) -> None:
    out = tmp_path / "events"
    with pytest.raises(error):
        extract_events(node.url, out, address, creation_number, start=0, stop=5)  # type: ignore[arg-type]
    with pytest.raises(error):
        events_dask(node.url, address, creation_number, 0, 5)  # type: ignore[arg-type]
    assert not out.exists()


def test_a_range_past_the_ledger_is_refused(node: LocalNode, tmp_path: Path) -> None:
    with pytest.raises(ledgerkit.RangeBeyondLedgerError) as caught:
        extract_transactions(node.url, tmp_path, start=0, stop=VERSIONS + 1)
    assert (caught.value.stop, caught.value.available) == (VERSIONS + 1, VERSIONS)
    with pytest.raises(ledgerkit.RangeBeyondLedgerError):
        extract_blocks(node.url, tmp_path / "b", start=110, stop=122)
    assert isinstance(caught.value, ledgerkit.ExtractionError)


def test_fetching_past_the_head_is_refused(node: LocalNode) -> None:
    with pytest.raises(ledgerkit.RangeBeyondLedgerError, match=f"ends before {VERSIONS}"):
        fetch_transactions(node.url, 900, 1200)


def test_errors_survive_pickling() -> None:
    error = ledgerkit.IncompleteExtractionError("blocks", ((3, 5),))
    again = pickle.loads(pickle.dumps(error))
    assert (again.kind, again.missing, str(again)) == ("blocks", ((3, 5),), str(error))
    beyond = pickle.loads(pickle.dumps(ledgerkit.RangeBeyondLedgerError("blocks", 9, 4)))
    assert (beyond.stop, beyond.available) == (9, 4)


def test_long_gap_lists_are_shortened() -> None:
    error = ledgerkit.IncompleteExtractionError(
        "transactions", tuple((i, i + 1) for i in range(0, 40, 2))
    )
    assert str(error).endswith("... (12 more ranges)")


def test_partitions_are_cut_at_multiples_and_gaps_are_compacted() -> None:
    assert partitions(5, 25, 10) == [(5, 10), (10, 20), (20, 25)]
    assert partitions(0, 3, 10) == [(0, 3)]
    assert compact([9, 3, 4, 5, 7, 7]) == ((3, 6), (7, 8), (9, 10))
    assert compact([]) == ()
