"""A notebook's reads recorded against an embedded node of this module's own, the node
stopped, then replayed: the same frames, the same values and the same extraction dataset,
with nothing listening.

The expected values are what the live node answered while recording.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ledgerkit
from ledgerkit import Client, HistoryMismatchError, SnapshotMissError, TransportError, frames
from ledgerkit.client.snapshot import snapshot_of
from ledgerkit.extract import extract, fetch_transactions

APT = "0x1::aptos_coin::AptosCoin"
STOP = 30  # transactions read and extracted


@dataclass(frozen=True)
class Recorded:
    """What the live node answered, and where the snapshot of it is."""

    path: Path
    url: str
    alice: str
    transactions: pd.DataFrame
    events: pd.DataFrame
    blocks: pd.DataFrame
    resources: pd.DataFrame
    balance: list[Any]
    bcs: bytes
    head: int
    dataset: pd.DataFrame
    fetched: list[Any]
    bulk_block: Any
    async_transaction: Any


def _read(client: Client, alice: str) -> dict[str, Any]:
    """What the notebook reads, the same way live and replayed."""
    transactions = [txn for txn, _ in client.iter_transactions(0, STOP)]
    return {
        "transactions": frames.transactions_to_frame(transactions),
        "events": frames.events_to_frame(transactions),
        "blocks": frames.blocks_to_frame([client.block_by_height(h).value for h in range(3)]),
        "resources": frames.resources_to_frame(client.account_resources(alice)),
        "balance": client.view_json("0x1::coin::balance", [APT], [alice]).value,
        "bcs": client.transaction_by_version_bcs(2).value,
    }


async def _read_async(client: Any) -> tuple[Any, Any]:
    """One read over the bulk path (aiohttp), one over httpx."""
    async with client.async_client(bulk=True) as bulk:
        block = (await bulk.block_by_height(1, with_transactions=True)).value
    async with client.async_client() as plain:
        transaction = (await plain.transaction_by_version(3)).value
    return block, transaction


def _dataset(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "transactions").sort_values("version", ignore_index=True)


@pytest.fixture(scope="module")
def recorded(make_node: Any, tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    node = make_node(seed=23, blocks=8, services=False)
    work = tmp_path_factory.mktemp("recorded")
    path = work / "analysis.snapshot"
    alice = str(node.dev_accounts[0].address)
    with ledgerkit.connect(node.url, record=path) as client:
        assert client.snapshot is not None
        assert not client.snapshot.replaying
        reads = _read(client, alice)
        head = client.ledger_info().value.ledger_version
        extract(
            "transactions",
            client,
            work / "live",
            start=0,
            stop=STOP,
            partition_size=10,
            progress=False,
        )
        fetched = fetch_transactions(client, 5, 12)
        bulk_block, async_transaction = asyncio.run(_read_async(client))
    url = node.url
    node.stop()
    with pytest.raises(TransportError), Client(url, retries=0, cache=False) as gone:
        gone.ledger_info()  # nothing listens any more
    return Recorded(
        path=path,
        url=url,
        alice=alice,
        head=head,
        dataset=_dataset(work / "live"),
        fetched=fetched,
        bulk_block=bulk_block,
        async_transaction=async_transaction,
        **reads,
    )


def test_the_replay_gives_the_same_frames_and_values(recorded: Recorded) -> None:
    with ledgerkit.connect(replay=recorded.path) as client:
        assert client.base_url == recorded.url
        reads = _read(client, recorded.alice)
        assert client.ledger_info().value.ledger_version == recorded.head
    for name in ("transactions", "events", "blocks", "resources"):
        pd.testing.assert_frame_equal(reads[name], getattr(recorded, name))
    assert len(reads["transactions"]) == STOP
    assert reads["balance"] == recorded.balance
    assert reads["bcs"] == recorded.bcs


def test_an_extraction_given_a_replaying_client_writes_the_same_dataset(
    recorded: Recorded, tmp_path: Path
) -> None:
    with ledgerkit.connect(replay=recorded.path) as client:
        summary = extract(
            "transactions",
            client,
            tmp_path / "replayed",
            start=0,
            stop=STOP,
            partition_size=10,
            progress=False,
        )
        fetched = fetch_transactions(client, 5, 12)
    assert (summary.partitions, summary.written, summary.rows_written) == (3, 3, STOP)
    pd.testing.assert_frame_equal(_dataset(tmp_path / "replayed"), recorded.dataset)
    assert fetched == recorded.fetched


def test_async_clients_of_the_snapshot_replay_the_bulk_and_the_httpx_reads(
    recorded: Recorded,
) -> None:
    with ledgerkit.connect(replay=recorded.path) as client:
        block, transaction = asyncio.run(_read_async(client))
    assert block == recorded.bulk_block
    assert transaction == recorded.async_transaction


def test_a_read_recorded_over_one_path_replays_over_the_other(recorded: Recorded) -> None:
    """The bulk path (aiohttp, no httpx objects) and httpx file a request under one key:
    a read recorded over either is answered over the other."""

    async def bulk_read() -> Any:
        async with client.async_client(bulk=True) as bulk:
            return (await bulk.block_by_height(1)).value  # recorded over httpx

    with ledgerkit.connect(replay=recorded.path) as client:
        over_bulk = asyncio.run(bulk_read())
        over_httpx = client.block_by_height(1, with_transactions=True).value  # over aiohttp
    assert over_httpx == recorded.bulk_block
    expected = recorded.blocks.iloc[[1]].reset_index(drop=True)
    pd.testing.assert_frame_equal(frames.blocks_to_frame([over_bulk]), expected)


def test_a_read_the_notebook_never_made_is_a_miss_naming_it(recorded: Recorded) -> None:
    with ledgerkit.connect(replay=recorded.path) as client:
        assert snapshot_of(client) is client.snapshot
        with pytest.raises(SnapshotMissError) as caught:
            client.block_by_height(7)
    assert str(caught.value).startswith(f"GET {recorded.url}/blocks/by_height/7")


def test_a_replayed_dataset_grown_against_a_node_of_another_history_is_refused(
    recorded: Recorded, make_node: Any, tmp_path: Path
) -> None:
    """The same check as against a live node: the dataset extracted from the replay
    records the recorded node's head and its accumulator root; a node of the same seed
    (the same genesis) whose history parted from the recorded one refuses to grow it."""
    out = tmp_path / "replayed"
    with ledgerkit.connect(replay=recorded.path) as client:
        extract("transactions", client, out, start=0, stop=STOP, partition_size=10,
                progress=False)  # fmt: skip
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["history"]["version"] == recorded.head
    other = make_node(seed=23, blocks=2, services=False)
    alice, bob = other.dev_accounts[:2]
    with Client(other.url, cache=False) as live:
        assert live.chain_identity().value.genesis_hash == manifest["genesis_hash"]
        live.transfer(alice.private_key, bob.address, 999)
    with pytest.raises(HistoryMismatchError, match=f"at version {recorded.head} "):
        extract("transactions", other.url, out, start=0, stop="head", partition_size=10,
                progress=False)  # fmt: skip
