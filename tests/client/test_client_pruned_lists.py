"""Lists by sequence number on the public profile's pruned fullnode, over HTTP: the node
answers an account's transactions from a pruned start with only the ones it keeps (200, as
aptos-core's fullnodes do), and event ranges from a pruned start with 410; the client hands
out every item, read from the archive, or raises the typed error naming what is missing.

The chain: seed 17, 4 blocks, then 10 transfers from the first dev account, one block each
(3 versions: metadata, the transfer, the epilogue), at versions 19, 22, ..., 46. The
fullnode keeps the newest 19 versions (29..47), whole blocks only: from version 30 on, so
the transfers with sequence numbers 0..3 are pruned there and 4..9 kept. The block stream
of 0x1 has one event per block after genesis (heights 1..14): sequence numbers 0..13, the
newest of which the fullnode keeps.

An account's transaction summaries are a list by version: the fullnode answers only those
it keeps (versions 31..46), and the client completes a page reaching below version 30
from the archive, or names the versions it reached there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import httpx
import pandas as pd
import pytest

import ledgerkit
from ledgerkit import AsyncClient, Client
from ledgerkit.extract import extract_events
from ledgerkit.localnet import LocalNode

MakeNode = Callable[..., LocalNode]
TRANSFERS: Final = 10
#: The versions the ten transfers were committed at (sequence numbers 0..9).
VERSIONS: Final = [19, 22, 25, 28, 31, 34, 37, 40, 43, 46]
OLDEST: Final = 30


@pytest.fixture(scope="module")
def node(make_node: MakeNode) -> LocalNode:
    running = make_node(seed=17, blocks=4, profile="public", services=False, prune_window=19)
    dev, to = running.dev_accounts[0], running.dev_accounts[1].address
    with Client(running.url, api_key=running.api_key, cache=False) as client:
        for _ in range(TRANSFERS):
            assert client.transfer(dev, to, 100).value.success
    return running


def _dev(node: LocalNode) -> str:
    return str(node.dev_accounts[0].address)


def _client(node: LocalNode, *, archive: bool) -> Client:
    where = node.archive_url if archive else None
    return Client(node.url, api_key=node.api_key, cache=False, archive_url=where)


def _async_client(node: LocalNode, *, archive: bool) -> AsyncClient:
    where = node.archive_url if archive else None
    return AsyncClient(node.url, api_key=node.api_key, cache=False, archive_url=where)


def _sequences(items: list[Any]) -> list[int]:
    return [int(item.sequence_number) for item in items]


def test_the_fullnode_answers_only_the_transactions_it_keeps_without_an_error(
    node: LocalNode,
) -> None:
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        assert int(http.get("/").json()["oldest_ledger_version"]) == OLDEST
        path = f"/accounts/{_dev(node)}/transactions"
        from_zero = http.get(path, params={"start": 0})
        newest = http.get(path)  # the newest page: from sequence number 10 - 25, so 0
    for answer in (from_zero, newest):
        assert answer.status_code == 200
        assert [int(t["sequence_number"]) for t in answer.json()] == [4, 5, 6, 7, 8, 9]
    with httpx.Client(base_url=node.archive_url, timeout=30.0) as http:
        every = http.get(f"/accounts/{_dev(node)}/transactions", params={"start": 0}).json()
    assert [int(t["version"]) for t in every] == VERSIONS


@pytest.mark.parametrize("start", [0, None])
def test_the_client_completes_an_accounts_transactions_from_the_archive(
    node: LocalNode, start: int | None
) -> None:
    with _client(node, archive=True) as client:
        txns, ledger = client.account_transactions(_dev(node), start=start)
    assert _sequences(txns) == list(range(10))
    assert [t.version for t in txns] == VERSIONS
    assert ledger.answered_by == node.archive_url


def test_the_bcs_listing_is_completed_and_refused_the_same(node: LocalNode) -> None:
    with _client(node, archive=True) as client:
        txns, ledger = client.account_transactions_bcs(_dev(node), start=0)
    assert [t.version for t in txns] == VERSIONS
    assert ledger.answered_by == node.archive_url
    with (
        _client(node, archive=False) as client,
        pytest.raises(ledgerkit.PrunedRangeError) as refused,
    ):
        client.account_transactions_bcs(_dev(node), start=1)
    assert refused.value.missing == range(1, 4)


def test_a_start_the_node_keeps_is_answered_by_the_node(node: LocalNode) -> None:
    with _client(node, archive=True) as client:
        txns, ledger = client.account_transactions(_dev(node), start=4, limit=3)
    assert _sequences(txns) == [4, 5, 6]
    assert ledger.answered_by == node.url


@pytest.mark.parametrize("start", [0, 2, None])
def test_without_an_archive_the_gap_is_refused_naming_the_missing_range(
    node: LocalNode, start: int | None
) -> None:
    with (
        _client(node, archive=False) as client,
        pytest.raises(ledgerkit.PrunedRangeError) as refused,
    ):
        client.account_transactions(_dev(node), start=start)
    first = start or 0
    assert refused.value.missing == range(first, 4)
    assert f"{first}..3" in str(refused.value)
    assert isinstance(refused.value, ledgerkit.PrunedError)
    assert refused.value.oldest_version == OLDEST


def test_the_end_of_an_accounts_list_is_no_gap(node: LocalNode) -> None:
    # Past the newest: the node answers [], and the account's sequence number (10) says
    # nothing is missing.
    for archive in (True, False):
        with _client(node, archive=archive) as client:
            txns, ledger = client.account_transactions(_dev(node), start=10)
        assert txns == []
        assert ledger.answered_by == node.url


def test_the_async_client_completes_and_refuses_the_same(node: LocalNode) -> None:
    async def run() -> tuple[list[int], range]:
        async with _async_client(node, archive=True) as client:
            txns = (await client.account_transactions(_dev(node), start=0)).value
        async with _async_client(node, archive=False) as client:
            with pytest.raises(ledgerkit.PrunedRangeError) as refused:
                await client.account_transactions(_dev(node), start=0)
        return _sequences(txns), refused.value.missing

    assert asyncio.run(run()) == (list(range(10)), range(4))


def test_an_event_range_from_a_pruned_start_is_read_from_the_archive(node: LocalNode) -> None:
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        refused = http.get("/accounts/0x1/events/2", params={"start": 0, "limit": 100})
        newest = http.get("/accounts/0x1/events/2", params={"limit": 100})
        inside = http.get("/accounts/0x1/events/2", params={"limit": 5})
    assert refused.status_code == newest.status_code == 410
    assert refused.json()["error_code"] == newest.json()["error_code"] == "version_pruned"
    assert [int(e["sequence_number"]) for e in inside.json()] == [9, 10, 11, 12, 13]
    with _client(node, archive=True) as client:
        events, ledger = client.events_by_creation_number("0x1", 2, start=0, limit=100)
        walked = [e.sequence_number for e, _ in client.iter_events("0x1", 2, forward=True)]
        newest_first = [e.sequence_number for e, _ in client.iter_events("0x1", 2, limit=4)]
    assert _sequences(events) == list(range(14))
    assert ledger.answered_by == node.archive_url
    assert walked == list(range(14))
    assert newest_first == list(range(13, -1, -1))
    # Without archive_url, the archive the 410 names is learned and asked, and then
    # completes an account's transactions too.
    with _client(node, archive=False) as client:
        events, ledger = client.events_by_creation_number("0x1", 2, start=0, limit=100)
        assert (_sequences(events), ledger.answered_by) == (list(range(14)), node.archive_url)
        assert _sequences(client.account_transactions(_dev(node)).value) == list(range(10))


def test_the_events_extraction_reads_the_pruned_part_from_the_archive(
    node: LocalNode, tmp_path: Path
) -> None:
    with _client(node, archive=True) as client:
        summary = extract_events(client, tmp_path, "0x1", 2, start=0, stop=14, progress=False)
    assert summary.rows_written == 14
    events = pd.read_parquet(tmp_path / "events")
    assert events["sequence_number"].tolist() == list(range(14))


def test_account_activity_reads_the_pruned_versions_from_the_archive(
    node: LocalNode, tmp_path: Path
) -> None:
    # The activity is a scan by version: the versions the fullnode no longer keeps are
    # read from the archive, so every transfer the account sent is a row.
    with _client(node, archive=True) as client:
        rows = ledgerkit.account_activity(
            client, _dev(node), start_version=0, dataset=tmp_path / "activity", progress=False
        )
    sent = rows[rows["roles"].astype(str).str.contains("sender")]
    assert sorted(int(v) for v in sent["version"].unique()) == VERSIONS


# -- transaction summaries, a list by version -------------------------------------------------


def _summary_versions(items: list[Any]) -> list[int]:
    return [int(item.version) for item in items]


def test_the_fullnode_answers_only_the_summaries_it_keeps_without_an_error(
    node: LocalNode,
) -> None:
    path = f"/accounts/{_dev(node)}/transaction_summaries"
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        from_zero = http.get(path, params={"start_version": 0})
        newest = http.get(path)
        below = http.get(path, params={"end_version": 28})
    for answer in (from_zero, newest):
        assert answer.status_code == 200
        assert [int(s["version"]) for s in answer.json()] == VERSIONS[4:]
        assert [s["replay_protector"] for s in answer.json()] == [
            {"type": "sequence_number", "value": str(n)} for n in range(4, 10)
        ]
    assert (below.status_code, below.json()) == (200, [])
    with httpx.Client(base_url=node.archive_url, timeout=30.0) as http:
        every = http.get(path, params={"start_version": 0}).json()
        txns = http.get(f"/accounts/{_dev(node)}/transactions", params={"start": 0}).json()
    assert [int(s["version"]) for s in every] == VERSIONS
    assert [s["transaction_hash"] for s in every] == [t["hash"] for t in txns]


@pytest.mark.parametrize(
    ("asked", "versions"),
    [
        ({"start_version": 0}, VERSIONS),
        ({"start_version": 20, "limit": 3}, [22, 25, 28]),
        ({}, VERSIONS),
        ({"end_version": 28}, [19, 22, 25, 28]),
    ],
)
def test_the_client_completes_summaries_from_the_archive(
    node: LocalNode, asked: dict[str, int], versions: list[int]
) -> None:
    with _client(node, archive=True) as client:
        items, ledger = client.account_transaction_summaries(_dev(node), **asked)
    assert _summary_versions(items) == versions
    assert [item.sequence_number for item in items] == [VERSIONS.index(v) for v in versions]
    assert [item.nonce for item in items] == [None] * len(versions)
    assert ledger.answered_by == node.archive_url


@pytest.mark.parametrize(
    ("asked", "versions"),
    [
        ({"start_version": 31, "limit": 3}, [31, 34, 37]),
        ({"start_version": 30}, VERSIONS[4:]),
        ({"end_version": 46, "limit": 2}, [43, 46]),
        ({"limit": 6}, VERSIONS[4:]),
    ],
)
def test_summaries_the_node_keeps_whole_are_answered_by_the_node(
    node: LocalNode, asked: dict[str, int], versions: list[int]
) -> None:
    for archive in (True, False):
        with _client(node, archive=archive) as client:
            items, ledger = client.account_transaction_summaries(_dev(node), **asked)
        assert _summary_versions(items) == versions
        assert ledger.answered_by == node.url


@pytest.mark.parametrize(
    ("asked", "missing"),
    [
        ({"start_version": 0}, range(30)),
        ({"start_version": 20}, range(20, 30)),
        ({}, range(30)),
        ({"limit": 7}, range(30)),
        ({"end_version": 28}, range(29)),
        ({"end_version": 40, "limit": 5}, range(30)),
    ],
)
def test_without_an_archive_summaries_below_the_oldest_version_are_refused(
    node: LocalNode, asked: dict[str, int], missing: range
) -> None:
    with (
        _client(node, archive=False) as client,
        pytest.raises(ledgerkit.PrunedRangeError) as refused,
    ):
        client.account_transaction_summaries(_dev(node), **asked)
    assert refused.value.missing == missing
    assert refused.value.details["missing_unit"] == "version"
    assert f"versions {missing.start}..{missing.stop - 1}" in str(refused.value)
    assert refused.value.oldest_version == OLDEST


def test_the_async_client_completes_and_refuses_summaries_the_same(node: LocalNode) -> None:
    async def run() -> tuple[list[int], range, list[int]]:
        async with _async_client(node, archive=True) as client:
            items = (await client.account_transaction_summaries(_dev(node))).value
            walked = [s.version async for s, _ in client.iter_account_transaction_summaries(
                _dev(node), limit=4
            )]  # fmt: skip
        async with _async_client(node, archive=False) as client:
            with pytest.raises(ledgerkit.PrunedRangeError) as refused:
                await client.account_transaction_summaries(_dev(node), start_version=0)
        return _summary_versions(items), refused.value.missing, walked

    assert asyncio.run(run()) == (VERSIONS, range(30), VERSIONS)


def test_the_summaries_walk_reads_the_pruned_pages_from_the_archive(node: LocalNode) -> None:
    with _client(node, archive=True) as client:
        walked = [s.version for s, _ in client.iter_account_transaction_summaries(_dev(node))]
        paged = client.iter_account_transaction_summaries(_dev(node), 20, 41, limit=2)
        in_range = [s.version for s, _ in paged]
    assert walked == VERSIONS
    assert in_range == [22, 25, 28, 31, 34, 37, 40]
    with (
        _client(node, archive=False) as client,
        pytest.raises(ledgerkit.PrunedRangeError),
    ):
        list(client.iter_account_transaction_summaries(_dev(node)))
