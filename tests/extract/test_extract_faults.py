"""Completeness: under injected 429s, 503s and dropped connections every version arrives
exactly once; gaps the node leaves are named; overlaps are removed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pandas as pd
import pytest
from extract_helpers import VERSIONS, FaultyTransport, invalid_input

import ledgerkit
from ledgerkit.client import Retry
from ledgerkit.extract import extract_transactions, fetch_transactions
from ledgerkit.localnet import LocalNode

PATIENT = Retry(total=25, backoff=0.001, max_backoff=0.01)


def test_faults_are_retried_and_every_version_arrives_once(node: LocalNode) -> None:
    transport = FaultyTransport(rate=0.5, seed=3)
    records = fetch_transactions(
        node.url, 0, VERSIONS, concurrency=8, retries=PATIENT, transport=transport
    )
    assert [r.version for r in records] == list(range(VERSIONS))
    assert all(transport.faults.values()), transport.faults  # each kind was injected


def test_a_dataset_written_under_faults_holds_exactly_the_range(
    node: LocalNode, tmp_path: Path
) -> None:
    transport = FaultyTransport(rate=0.3, seed=5)
    summary = extract_transactions(
        node.url,
        tmp_path,
        start=37,
        stop=811,
        partition_size=100,
        retries=PATIENT,
        transport=transport,
        progress=False,
    )
    assert summary.rows_written == 811 - 37
    frame = pd.read_parquet(tmp_path / "transactions")
    assert frame["version"].tolist() == list(range(37, 811))
    assert sum(transport.faults.values()) > 0


def test_a_gap_the_node_leaves_is_a_typed_error_naming_it(node: LocalNode) -> None:
    def drop_some(page: list[object]) -> list[object]:
        return [t for t in page if int(t["version"]) not in {250, 251, 252, 640}]  # type: ignore[index]

    with pytest.raises(ledgerkit.IncompleteExtractionError) as caught:
        fetch_transactions(node.url, 200, 700, transport=FaultyTransport(edit=drop_some))
    assert caught.value.missing == ((250, 253), (640, 641))
    assert caught.value.missing_count == 4
    assert "250..252, 640" in str(caught.value)


def test_overlapping_pages_are_deduplicated(node: LocalNode) -> None:
    def repeat_first(page: list[object]) -> list[object]:
        return page[:1] + page  # the first version twice

    records = fetch_transactions(node.url, 0, 450, transport=FaultyTransport(edit=repeat_first))
    assert [r.version for r in records] == list(range(450))


class _Stalling(FaultyTransport):
    """Every page but the third waits a while before going to the node; the third is
    refused at once (a hard failure). Counts the requests still in flight when the
    client closes its transport."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0
        self.in_flight = 0
        self.in_flight_at_close: int | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/transactions"):
            self.asked += 1
            if self.asked == 3:
                return invalid_input(request)
            self.in_flight += 1
            try:
                await asyncio.sleep(0.5)
                return await super().handle_async_request(request)
            finally:
                self.in_flight -= 1
        return await super().handle_async_request(request)

    async def aclose(self) -> None:
        self.in_flight_at_close = self.in_flight
        await super().aclose()


def test_a_failed_page_leaves_no_request_in_flight_when_the_client_closes(
    node: LocalNode,
) -> None:
    transport = _Stalling()
    with pytest.raises(ledgerkit.InvalidInputError, match="injected hard failure"):
        fetch_transactions(node.url, 0, 500, concurrency=8, transport=transport)
    assert transport.asked == 5  # the five pages at once; the third refused
    assert transport.in_flight_at_close == 0  # the other four were stopped first
