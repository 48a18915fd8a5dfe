"""Bulk extraction from a node that wants an api key: given as ``api_key=``, as
``headers=``, or as a configured client; without it the node refuses, and the key shows in
no repr, error or log record."""

from __future__ import annotations

import asyncio
import logging
import pickle
from pathlib import Path

import pandas as pd
import pytest
from extract_helpers import API_KEY, KeyedNode

from ledgerkit import AsyncClient, Client, InputError, NodeAPIError
from ledgerkit.extract import (
    aextract_events,
    extract_blocks,
    extract_events,
    extract_transactions,
    fetch_transactions,
)
from ledgerkit.extract._options import node_access
from ledgerkit.localnet import LocalNode

BLOCK_EVENTS = ("0x1", 2)  # 0x1::block::NewBlockEvent, one a block


def test_the_keyed_node_refuses_an_extraction_without_the_key(
    keyed: KeyedNode, tmp_path: Path
) -> None:
    with pytest.raises(NodeAPIError) as caught:
        extract_transactions(keyed.url, tmp_path, start=0, stop=100, progress=False, retries=0)
    assert caught.value.status == 401
    with pytest.raises(NodeAPIError) as caught:
        extract_transactions(
            keyed.url, tmp_path, start=0, stop=100, progress=False, api_key="lk-wrong-key"
        )
    assert caught.value.status == 401


def test_transactions_with_an_api_key_equal_those_read_without_one(
    keyed: KeyedNode, node: LocalNode, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    summary = extract_transactions(
        keyed.url, tmp_path / "keyed", start=0, stop=300, partition_size=100, api_key=API_KEY
    )
    assert (summary.partitions, summary.written, summary.rows_written) == (3, 3, 300)
    extract_transactions(node.url, tmp_path / "open", start=0, stop=300, partition_size=100)
    pd.testing.assert_frame_equal(
        pd.read_parquet(tmp_path / "keyed" / "transactions"),
        pd.read_parquet(tmp_path / "open" / "transactions"),
    )
    assert keyed.seen <= {f"Bearer {API_KEY}", "Bearer lk-wrong-key"}
    assert API_KEY not in repr(summary)
    assert not [r for r in caplog.records if API_KEY in r.getMessage()]


def test_blocks_with_a_configured_client(keyed: KeyedNode, tmp_path: Path) -> None:
    with Client(keyed.url, api_key=API_KEY) as client:
        summary = extract_blocks(client, tmp_path, start=0, stop=30, partition_size=10)
    assert (summary.partitions, summary.rows_written) == (3, 30)
    heights = pd.read_parquet(tmp_path / "blocks")["block_height"].tolist()
    assert heights == list(range(30))


def test_events_with_the_key_in_headers(keyed: KeyedNode, tmp_path: Path) -> None:
    address, number = BLOCK_EVENTS
    headers = {"Authorization": f"Bearer {API_KEY}"}
    summary = extract_events(
        keyed.url, tmp_path, address, number, start=0, stop=40, headers=headers, progress=False
    )
    assert summary.rows_written == 40
    events = pd.read_parquet(tmp_path / "events")
    assert events["sequence_number"].tolist() == list(range(40))
    assert set(events["type"]) == {"0x1::block::NewBlockEvent"}


def test_the_coroutine_twin_takes_an_async_client(keyed: KeyedNode, tmp_path: Path) -> None:
    address, number = BLOCK_EVENTS

    async def run() -> int:
        async with AsyncClient(keyed.url, api_key=API_KEY) as client:
            summary = await aextract_events(
                client, tmp_path, address, number, start=5, stop=25, progress=False
            )
        return summary.rows_written

    assert asyncio.run(run()) == 20


def test_fetch_transactions_with_an_api_key(keyed: KeyedNode) -> None:
    records = fetch_transactions(keyed.url, 50, 250, api_key=API_KEY)
    assert [r.version for r in records] == list(range(50, 250))


def test_an_api_key_given_beside_a_client_replaces_the_clients(
    keyed: KeyedNode, tmp_path: Path
) -> None:
    with Client(keyed.url, api_key="lk-wrong-key") as client:
        summary = extract_blocks(client, tmp_path, start=0, stop=5, api_key=API_KEY)
    assert summary.rows_written == 5


def test_a_malformed_key_is_refused_before_anything_is_sent(
    keyed: KeyedNode, tmp_path: Path
) -> None:
    before = keyed.passed + keyed.refused
    bad = API_KEY + "\n"  # as read from a file, unstripped
    with pytest.raises(InputError, match="newline") as caught:
        extract_transactions(keyed.url, tmp_path, start=0, stop=10, api_key=bad)
    assert API_KEY not in str(caught.value)
    assert keyed.passed + keyed.refused == before
    assert not list(tmp_path.iterdir())


def test_the_node_access_is_redacted_in_its_repr_and_pickles_whole() -> None:
    access = node_access(
        "http://127.0.0.1:9/v1", api_key=API_KEY, headers={"X-Api-Token": "lk-header-secret"}
    )
    shown = repr(access)
    assert shown == (
        "NodeAccess('http://127.0.0.1:9/v1', api_key=<redacted>, headers=<X-Api-Token: redacted>)"
    )
    assert API_KEY not in shown
    assert "lk-header-secret" not in shown
    again = pickle.loads(pickle.dumps(access))
    assert again.api_key == API_KEY
    assert dict(again.headers) == {"X-Api-Token": "lk-header-secret"}


def test_a_client_config_keeps_its_key_out_of_its_repr() -> None:
    with Client("http://127.0.0.1:9/v1", api_key=API_KEY) as client:
        assert client.config.api_key == API_KEY
        assert API_KEY not in repr(client.config)
