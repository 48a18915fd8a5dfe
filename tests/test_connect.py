"""``ledgerkit.connect`` and the sync client where notebooks use them: a fresh process with
no configuration gets the embedded node; a configured URL wins; closing what ``connect()``
returned stops the node it started, and a plain client owns no node; the sync client works
inside a running event loop (as in a Jupyter kernel)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import httpx
import pytest

import ledgerkit
from ledgerkit.client import Client
from ledgerkit.localnet import LocalNode

_FRESH = """
import json, ledgerkit
client = ledgerkit.connect()
info, ledger = client.ledger_info()
print(json.dumps({
    "chain_id": info.chain_id,
    "role": info.node_role,
    "url": client.base_url,
    "embedded": client.node is not None and client.node.url == client.base_url,
    "funded": len(client.node.dev_accounts),
    "ledger_version": ledger.ledger_version,
    "cache": client.config.cache is not None,
}))
client.close()
"""


def test_connect_in_a_fresh_process_starts_the_embedded_node() -> None:
    env = {k: v for k, v in os.environ.items() if k != "LEDGERKIT_NODE_URL"}
    done = subprocess.run(
        [sys.executable, "-c", _FRESH],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["chain_id"] == 4
    assert answer["role"] == "full_node"
    assert answer["url"].startswith("http://127.0.0.1:")
    assert answer["url"].endswith("/v1")
    assert answer["embedded"] is True
    assert answer["funded"] > 0
    assert answer["ledger_version"] > 0
    assert answer["cache"] is False  # its ledger is a temporary file


def test_connect_uses_the_configured_url(node: LocalNode, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_NODE_URL", node.url)
    with ledgerkit.connect(timeout=10) as client:
        assert client.base_url == node.url
        assert client.node is None
        assert client.timeout == 10
        assert client.ledger_info().value.chain_id == 4
    with ledgerkit.connect("http://elsewhere.test/v1", cache=False) as client:
        assert client.base_url == "http://elsewhere.test/v1"


def test_the_embedded_node_stops_with_its_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDGERKIT_NODE_URL", raising=False)
    client = ledgerkit.connect(retries=0)
    embedded = client.node
    assert isinstance(embedded, LocalNode)
    assert client.ledger_info().ledger.chain_id == 4
    # Its indexer is the client's: account_assets and graphql ask it.
    assert client.indexer_url == embedded.indexer_url
    assert client.indexer_url is not None
    assert client.indexer_url.endswith("/v1/graphql")
    url = client.base_url
    client.close()
    assert client.node is None
    with pytest.raises(httpx.ConnectError):
        httpx.get(url + "/", timeout=5)


def test_the_sync_client_works_inside_a_running_event_loop(node: LocalNode) -> None:
    async def notebook_cell() -> int:
        with Client(node.url) as client:  # what a Jupyter kernel does: a loop is running
            assert asyncio.get_running_loop().is_running()
            return client.ledger_info().value.chain_id

    assert asyncio.run(notebook_cell()) == 4


def test_the_front_door_hands_out_the_client_lazily() -> None:
    from ledgerkit.client import AsyncClient, connect

    assert ledgerkit.Client is Client
    assert ledgerkit.AsyncClient is AsyncClient
    assert ledgerkit.connect is connect


def test_leaving_the_with_block_stops_the_node_connect_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LEDGERKIT_NODE_URL", raising=False)
    with ledgerkit.connect(retries=0) as client:
        assert isinstance(client, Client)
        assert isinstance(client.node, LocalNode)
        url = client.base_url
        assert httpx.get(url + "/", timeout=5).status_code == 200
    assert client.node is None
    with pytest.raises(httpx.ConnectError):
        httpx.get(url + "/", timeout=5)


def test_a_client_never_owns_a_node(node: LocalNode) -> None:
    client = Client(node.url, retries=0)
    assert not hasattr(client, "node")
    client.close()
    # Closing a client leaves the node it spoke to serving.
    assert httpx.get(node.url + "/", timeout=5).status_code == 200


def test_connect_again_reuses_the_running_embedded_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDGERKIT_NODE_URL", raising=False)
    first = ledgerkit.connect(retries=0)
    # A notebook cell run again: the first client is never closed.
    second = ledgerkit.connect(retries=0)
    try:
        assert second.node is first.node
        assert second.base_url == first.base_url
        assert (
            second.ledger_info().value.ledger_version >= first.ledger_info().ledger.ledger_version
        )
    finally:
        url = first.base_url
        first.close()
    # The node serves the client still using it ...
    assert httpx.get(url + "/", timeout=5).status_code == 200
    assert second.ledger_info().value.chain_id == 4
    second.close()
    # ... and stops with the last one: no embedded node is left running.
    with pytest.raises(httpx.ConnectError):
        httpx.get(url + "/", timeout=5)


def test_after_the_last_client_a_new_node_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDGERKIT_NODE_URL", raising=False)
    with ledgerkit.connect(retries=0) as first:
        old = first.node
    with ledgerkit.connect(retries=0) as again:
        assert again.node is not None
        assert again.node is not old
        assert again.ledger_info().value.chain_id == 4


def test_a_node_stopped_by_hand_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEDGERKIT_NODE_URL", raising=False)
    first = ledgerkit.connect(retries=0)
    assert first.node is not None
    first.node.stop()
    with ledgerkit.connect(retries=0) as second:
        assert second.node is not first.node
        assert second.ledger_info().value.chain_id == 4
    first.close()  # nothing left to stop
