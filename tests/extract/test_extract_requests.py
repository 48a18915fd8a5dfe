"""What an extraction costs in requests, counted where they reach the node: a block at
most one request (far fewer where blocks hold few transactions), every other kind its
pages at the node's page limit (100 records), and the summary and the progress bar telling
the requests sent and the waits a budget imposed.

The ``node`` fixture's chain (seed 7, 120 blocks, versions 0..913) has, as its
``GET /blocks/by_height/{h}`` answers say: block 0 holding version 0, block 19 56..58,
block 20 59..61, block 39 121..123, block 40 124..129, block 59 235..243, block 60 244..249,
block 79 461..482, block 80 483..506, block 99 749..771, block 100 772..796, block 119
907..909, block 120 (the head) 910..913; 0x1's stream 2 one event a block (0..119).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pyarrow.parquet as pq
import pytest
from extract_helpers import VERSIONS, edited

from ledgerkit import Client
from ledgerkit.extract import KINDS, ExtractionSummary, extract
from ledgerkit.frames import blocks_to_frame
from ledgerkit.localnet import LocalNode, PublicSettings

#: The requests every run begins with, reading none of the range: the head (``GET /``),
#: the chain's genesis (unless the first page holds it) and the history mark (the head's
#: transaction).
HEAD, GENESIS, MARK = "/", "/transactions/by_version/0", f"/transactions/by_version/{VERSIONS - 1}"


class RequestLog(httpx.AsyncBaseTransport):
    """Forwards to the node and writes down every request: its path after ``/v1`` and
    query; ``edit`` may rewrite the JSON of a block's answer on the way back."""

    def __init__(self, edit: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.edit = edit
        self.sent: list[str] = []
        self.answered: list[str] = []
        self.refused = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        query = request.url.query.decode()
        path = request.url.path.split("/v1", 1)[1] + (f"?{query}" if query else "")
        self.sent.append(path)
        response = await self._inner.handle_async_request(request)
        if response.status_code == 429:
            self.refused += 1
        else:
            self.answered.append(path)
        if self.edit is not None and "/blocks/" in request.url.path:
            return await edited(request, response, self.edit)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()

    def pages(self) -> list[str]:
        """The requests that read the range (all but those a run begins with)."""
        return [s for s in self.sent if s not in (HEAD, GENESIS, MARK)]


def _run(node: LocalNode, out: Path, kind: str, start: int, stop: int, **more: Any) -> Any:
    log = more.pop("log", None) or RequestLog()
    summary = extract(
        kind, node.url, out, start=start, stop=stop, progress=False, transport=log, **more
    )
    return log, summary


def _page(start: int, limit: int) -> str:
    return f"/transactions?limit={limit}&start={start}"


def _block(height: int) -> str:
    return f"/blocks/by_height/{height}?with_transactions=true"


# -- blocks ---------------------------------------------------------------------------------


def test_forty_blocks_cost_their_two_ends_and_the_pages_between(
    node: LocalNode, tmp_path: Path
) -> None:
    log, summary = _run(node, tmp_path, "blocks", 40, 80)
    # Blocks 40 and 79 with their transactions, then versions 130..460 (331) in
    # ceil(331 / 100) = 4 pages, the last of 460 - 430 + 1 = 31.
    assert sorted(log.pages()) == sorted(
        [_block(40), _block(79), _page(130, 100), _page(230, 100), _page(330, 100), _page(430, 31)]
    )
    assert sorted(log.sent) == sorted([HEAD, GENESIS, MARK, *log.pages()])
    assert len(log.pages()) <= 40  # at most one a block
    assert summary.requests == len(log.sent) == 9  # 3 to begin with, 2 blocks, 4 pages
    assert summary.rows_written == 40


@pytest.mark.parametrize("partition_size", [1_000, 20, 3])
def test_blocks_read_from_pages_are_the_nodes_own_rows(
    node: LocalNode, tmp_path: Path, partition_size: int
) -> None:
    log, _ = _run(node, tmp_path, "blocks", 0, 121, partition_size=partition_size)
    with Client(node.url, cache=False) as client:
        theirs = blocks_to_frame(
            [client.block_by_height(h, with_transactions=True) for h in range(121)]
        )
    ours = pq.read_table(tmp_path / "blocks").to_pandas()
    pd.testing.assert_frame_equal(ours, theirs, check_categorical=False)
    # 1,000: one run, blocks 0 and 120 and versions 1..909 (909) in ceil(909 / 100) = 10
    # pages: 2 + 10. 20: six runs of two ends ([0, 20) .. [100, 120)), with 1..55 (55),
    # 62..120 (59), 130..234 (105), 250..460 (211), 507..748 (242) and 797..906 (110)
    # versions between them (1+1+2+3+3+2 = 12 pages), and block 120 alone: 13 + 12. 3: one
    # request a block (one page between two ends is no fewer than the one block there):
    # 40 runs of 3 and block 120 alone, 121.
    assert len(log.pages()) == {1_000: 2 + 10, 20: 13 + 12, 3: 121}[partition_size]
    assert len(log.pages()) <= 121
    assert GENESIS not in log.sent  # the genesis block carries it


def test_blocks_the_node_names_otherwise_cost_one_request_each(
    node: LocalNode, tmp_path: Path
) -> None:
    renamed = "0x" + "ab" * 32

    def rename(block: dict[str, Any]) -> dict[str, Any]:
        return {**block, "block_hash": renamed}

    log, summary = _run(node, tmp_path, "blocks", 40, 80, log=RequestLog(rename))
    assert sorted(log.pages()) == sorted(_block(h) for h in range(40, 80))
    frame = pq.read_table(tmp_path / "blocks").to_pandas()
    assert frame["block_hash"].tolist() == [renamed] * 40
    assert summary.rows_written == 40


def test_a_block_listed_short_costs_its_last_transaction_alone(
    node: LocalNode, tmp_path: Path
) -> None:
    def cut(block: dict[str, Any]) -> dict[str, Any]:
        return {**block, "transactions": block["transactions"][:2]}

    log, _ = _run(node, tmp_path, "blocks", 40, 80, log=RequestLog(cut))
    # Blocks 40 (124..129) and 79 (461..482) end past their first two transactions.
    assert "/transactions/by_version/129" in log.pages()
    assert "/transactions/by_version/482" in log.pages()
    assert len(log.pages()) == 8  # the 2 blocks, their 2 last transactions, 4 pages between
    _run(node, tmp_path / "whole", "blocks", 40, 80)
    ours = pq.read_table(tmp_path / "blocks").to_pandas()
    theirs = pq.read_table(tmp_path / "whole" / "blocks").to_pandas()
    pd.testing.assert_frame_equal(ours, theirs)


def test_blocks_across_a_pruned_node_and_its_archive_are_the_unpruned_nodes(
    make_node: Callable[..., LocalNode], node: LocalNode, tmp_path: Path
) -> None:
    settings = PublicSettings(prune_window=400, budget=1_000_000, key_budget=1_000_000)
    public = make_node(seed=7, blocks=120, profile="public", public=settings, services=False)
    with Client(public.url, api_key=public.api_key, cache=False) as keyed:
        oldest = keyed.ledger_info().value.oldest_block_height
        assert 10 < oldest < 120
        summary = extract(
            "blocks", keyed, tmp_path / "public", start=10, stop=121, partition_size=30,
            progress=False,
        )  # fmt: skip
    extract(
        "blocks", node.url, tmp_path / "whole", start=10, stop=121, partition_size=30,
        progress=False,
    )  # fmt: skip
    names = sorted(p.name for p in (tmp_path / "whole" / "blocks").iterdir())
    assert len(names) == 5  # [10, 30), [30, 60), [60, 90), [90, 120), [120, 121)
    for name in names:
        ours = pq.read_table(tmp_path / "public" / "blocks" / name)
        theirs = pq.read_table(tmp_path / "whole" / "blocks" / name)
        assert ours.equals(theirs)
    assert summary.served_by == {public.archive_url: oldest - 10, public.url: 121 - oldest}


# -- every other kind at the page limit -----------------------------------------------------


def test_transactions_cost_a_page_of_100_each(node: LocalNode, tmp_path: Path) -> None:
    log, summary = _run(node, tmp_path, "transactions", 0, VERSIONS)
    # ceil(914 / 100) = 10, the last of 914 - 900 = 14; version 0's page names the chain.
    assert log.pages() == [_page(s, 100) for s in range(0, 900, 100)] + [_page(900, 14)]
    assert sorted(log.sent) == sorted([HEAD, MARK, *log.pages()])
    assert summary.requests == 12  # the head, the mark and 10 pages


def test_partitions_cut_the_pages_at_their_edges(node: LocalNode, tmp_path: Path) -> None:
    log, _ = _run(node, tmp_path, "transactions", 37, VERSIONS, partition_size=250)
    # [37, 250): 3 pages, [250, 500): 3, [500, 750): 3, [750, 914): 164 versions, 2.
    expected = [
        *(_page(37, 100), _page(137, 100), _page(237, 13)),
        *(_page(250, 100), _page(350, 100), _page(450, 50)),
        *(_page(500, 100), _page(600, 100), _page(700, 50)),
        *(_page(750, 100), _page(850, 64)),
    ]
    assert sorted(log.pages()) == sorted(expected)


@pytest.mark.parametrize("kind", ["transaction_events", "activity"])
def test_kinds_read_from_transactions_cost_their_pages(
    node: LocalNode, tmp_path: Path, kind: str
) -> None:
    log, summary = _run(node, tmp_path, kind, 5, VERSIONS)
    # ceil(909 / 100) = 10, the last of 914 - 905 = 9.
    assert sorted(log.pages()) == sorted(
        [_page(s, 100) for s in range(5, 905, 100)] + [_page(905, 9)]
    )
    assert summary.requests == len(log.sent) == 13  # the head, genesis, mark and 10 pages
    assert summary.kind == kind


def test_an_event_stream_costs_a_page_of_100_each(node: LocalNode, tmp_path: Path) -> None:
    log, summary = _run(
        node, tmp_path, "events", 0, 120, address="0x1", creation_number=2, partition_size=200
    )
    events = "/accounts/0x1/events/2"
    assert log.pages() == [f"{events}?limit=100&start=0", f"{events}?limit=20&start=100"]
    assert summary.requests == len(log.sent) == 5


# -- what the summary and the bar tell --------------------------------------------------------


def test_an_unlimited_run_tells_its_requests_and_no_wait(node: LocalNode, tmp_path: Path) -> None:
    log, summary = _run(node, tmp_path, "transactions", 0, 300)
    assert summary.requests == len(log.sent) == 5  # the head, the mark and 3 pages
    assert (summary.waits, summary.waited_seconds) == (0, 0.0)
    assert "5 requests" in str(summary)


def test_a_finished_run_costs_three_requests(node: LocalNode, tmp_path: Path) -> None:
    _run(node, tmp_path, "transactions", 0, 300)
    log, summary = _run(node, tmp_path, "transactions", 0, 300)
    # The head, the genesis (no page read names the chain) and the recorded history mark.
    assert sorted(log.sent) == sorted([HEAD, GENESIS, MARK])
    assert (summary.written, summary.requests) == (0, 3)
    assert str(summary).endswith("0 written (0 rows), 1 already complete; 3 requests")


def test_a_budget_bound_run_tells_the_waits_it_cost(
    make_node: Callable[..., LocalNode], tmp_path: Path
) -> None:
    # 20 units a second, 5 a page: the ceil(800 / 100) = 8 pages of [114, 914) need 40
    # units, 2 windows.
    settings = PublicSettings(prune_window=900, budget=20, page_cost=5, window_seconds=1.0)
    limited = make_node(seed=7, blocks=120, profile="public", public=settings, services=False)
    log, summary = _run(limited, tmp_path, "transactions", 114, VERSIONS, concurrency=4)
    assert summary.rows_written == VERSIONS - 114
    assert summary.waits > 0
    assert summary.waited_seconds > 0
    assert log.refused > 0  # what the budget refused was sent, and counted
    assert summary.requests == len(log.sent) == len(log.answered) + log.refused
    # Each page answered once: the budget costs waits, not pages read twice.
    assert sorted(p for p in log.answered if p.startswith("/transactions?")) == sorted(
        [_page(s, 100) for s in range(114, 914, 100)]  # 8 whole pages, the last 814..913
    )


def test_the_progress_bar_shows_the_requests_sent(
    node: LocalNode, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = extract("transactions", node.url, tmp_path, start=0, stop=300, progress=True)
    assert f"{summary.requests} requests" in capsys.readouterr().err


def test_the_summary_kind_names_every_kind() -> None:
    kind = typing.get_type_hints(ExtractionSummary)["kind"]
    assert typing.get_args(kind) == (
        "transactions",
        "blocks",
        "events",
        "transaction_events",
        "activity",
    )
    assert typing.get_args(kind) == KINDS
    doc = ExtractionSummary.__doc__ or ""
    for name in ("transactions", "blocks", "events", "transaction_events", "activity"):
        assert f'"{name}"' in doc
