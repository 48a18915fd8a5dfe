"""A ``LocalNode`` held on to: each attribute before its first start, while it runs and
once stopped; ``start``, ``stop`` and ``with`` repeated in every order; and a notebook's
replay that reads the node's URLs after it stopped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from node_http_helpers import ok, submit, transfer, wait

import ledgerkit
from ledgerkit import LedgerError, LocalNodeError, NodeStoppedError
from ledgerkit.localnet import LocalNode, NodeConfig, PublicSettings
from ledgerkit.types import Address

SEED = 29
BLOCKS = 3
API = re.compile(r"http://127\.0\.0\.1:(\d+)/v1")
ROOT = re.compile(r"http://127\.0\.0\.1:(\d+)")
RECIPIENT = Address.parse("0x" + "3c" * 32)

#: What a node with services knows only once started (raising before).
LEARNT = ["url", "faucet_url", "docs_url", "issuers", "identity", "dev_accounts"]
#: ... and a public node.
LEARNT_PUBLIC = ["url", "archive_url", "api_key", "dev_accounts"]


def _port(pattern: re.Pattern[str], url: Any) -> int:
    assert isinstance(url, str)
    found = pattern.fullmatch(url)
    assert found is not None, url
    return int(found.group(1))


def _refused(url: str) -> bool:
    try:
        httpx.get(url, timeout=5.0)
    except httpx.TransportError:
        return True
    return False


def test_the_error_of_a_stopped_node_is_in_the_tree() -> None:
    assert issubclass(NodeStoppedError, LocalNodeError)
    assert issubclass(LocalNodeError, LedgerError)
    assert issubclass(LocalNodeError, RuntimeError)
    assert ledgerkit.NodeStoppedError is NodeStoppedError


@pytest.mark.parametrize("name", [*LEARNT, "ledger"])
def test_before_its_first_start_a_node_knows_none_of_its_urls(name: str) -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS)
    with pytest.raises(NodeStoppedError, match=rf"LocalNode\.{name} .*stopped") as refused:
        getattr(node, name)
    assert "start()" in str(refused.value)


def test_before_its_first_start_a_node_knows_its_settings() -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS, dev_accounts=3)
    assert node.config == NodeConfig(seed=SEED, blocks=BLOCKS, dev_accounts=3)
    assert node.profile == "local"
    assert node.public is None
    assert node.running is False
    assert node.archive_url is None  # the local profile has none, started or not
    assert node.api_key is None
    assert node.archive_received == []
    assert repr(node) == "LocalNode(seed=29, not started)"
    node.stop()  # stopping a node never started does nothing
    assert node.running is False


@pytest.mark.parametrize("name", LEARNT_PUBLIC)
def test_before_its_first_start_a_public_node_knows_no_url_and_no_key(name: str) -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS, profile="public", services=False)
    with pytest.raises(NodeStoppedError, match="stopped"):
        getattr(node, name)
    assert (node.faucet_url, node.docs_url, node.issuers, node.identity) == (None, None, {}, None)
    assert node.public == PublicSettings()


def test_without_services_signing_in_is_refused_and_never_started_is_stopped() -> None:
    bare = LocalNode(seed=SEED, blocks=BLOCKS, services=False)
    with pytest.raises(LocalNodeError, match="services=False") as refused:
        bare.sign_in("ada@example.com")
    assert not isinstance(refused.value, NodeStoppedError)
    with pytest.raises(NodeStoppedError, match="stopped"):
        LocalNode(seed=SEED, blocks=BLOCKS).sign_in("ada@example.com")


def test_each_attribute_while_running_and_once_stopped(tmp_path: Path) -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS, dev_accounts=3, db=tmp_path / "l.sqlite3")
    node.start()
    try:
        running = {name: getattr(node, name) for name in LEARNT}
        port = _port(API, node.url)
        faucet_port = _port(ROOT, node.faucet_url)
        docs_port = _port(ROOT, node.docs_url)
        identity_root = node.issuers["project"].removesuffix("/project")
        assert node.issuers == {
            "project": f"{identity_root}/project",
            "accounts": f"{identity_root}/accounts",
        }
        assert len({port, faucet_port, docs_port, _port(ROOT, identity_root)}) == 4
        assert node.running is True
        assert node.archive_url is None
        assert node.api_key is None
        assert len(node.dev_accounts) == 3
        assert node.identity is not None
        assert node.ledger is not None
        assert repr(node) == f"LocalNode(seed=29, running at http://127.0.0.1:{port}/v1)"
        assert ok(httpx.get(f"{node.url}/", timeout=30.0))["chain_id"] == 4
    finally:
        node.stop()

    assert node.running is False
    assert {name: getattr(node, name) for name in LEARNT} == running
    assert node.url == f"http://127.0.0.1:{port}/v1"
    assert node.faucet_url == f"http://127.0.0.1:{faucet_port}"
    assert node.docs_url == f"http://127.0.0.1:{docs_port}"
    assert [str(a.address) for a in node.dev_accounts] == [
        str(a.address) for a in running["dev_accounts"]
    ]
    assert node.config.seed == SEED
    assert repr(node) == f"LocalNode(seed=29, stopped, was at http://127.0.0.1:{port}/v1)"
    with pytest.raises(NodeStoppedError, match=r"LocalNode\.ledger .*stopped"):
        _ = node.ledger
    assert _refused(f"{node.url}/")


def test_a_public_node_keeps_its_urls_and_key_once_stopped() -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS, profile="public", services=False)
    with node:
        url, archive_url, key = node.url, node.archive_url, node.api_key
        port, archive_port = _port(API, url), _port(API, archive_url)
        assert port != archive_port
        assert isinstance(key, str)
        assert key
        window = node.public.prune_window if node.public is not None else None
        assert isinstance(window, int)
    assert node.url == f"http://127.0.0.1:{port}/v1"
    assert node.archive_url == f"http://127.0.0.1:{archive_port}/v1"
    assert node.api_key == key
    assert key not in repr(node)
    assert node.public is not None
    assert node.public.prune_window == window
    assert (node.faucet_url, node.docs_url, node.issuers, node.identity) == (None, None, {}, None)


def test_start_and_stop_repeated_and_a_restart_at_the_same_urls(tmp_path: Path) -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS, profile="public", db=tmp_path / "l.sqlite3")
    assert node.start() is node
    assert node.start() is node  # already running: nothing more
    url, archive_url, key, faucet = node.url, node.archive_url, node.api_key, node.faucet_url
    identity, accounts = node.identity, node.dev_accounts
    with httpx.Client(base_url=url, timeout=30.0) as http:
        dev = accounts[0]
        headers = {"Authorization": f"Bearer {key}"}
        http.headers.update(headers)
        committed = wait(
            http, submit(http, transfer(http, dev, RECIPIENT, 7).sign(dev.private_key))["hash"]
        )
        assert committed["success"] is True
    node.stop()
    node.stop()  # already stopped: nothing more
    assert _refused(f"{url}/")

    node.start()  # again, at the same URLs, with the same key, on the same file
    try:
        assert (node.url, node.archive_url, node.api_key, node.faucet_url) == (
            url,
            archive_url,
            key,
            faucet,
        )
        assert node.identity is identity
        assert [a.address for a in node.dev_accounts] == [a.address for a in accounts]
        with httpx.Client(base_url=url, timeout=30.0, headers=headers) as http:
            again = ok(http.get(f"/transactions/by_hash/{committed['hash']}"))
            assert again == committed
        with httpx.Client(base_url=archive_url or "", timeout=30.0) as archive:
            assert ok(archive.get("/"))["oldest_ledger_version"] == "0"
    finally:
        node.stop()


def test_a_temporary_ledger_restarts_as_the_same_chain() -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS, services=False)
    with node, httpx.Client(base_url=node.url, timeout=30.0) as http:
        first = ok(http.get("/blocks/by_height/2"))
    with node, httpx.Client(base_url=node.url, timeout=30.0) as http:  # with after stop
        assert ok(http.get("/blocks/by_height/2")) == first
    assert node.running is False


def test_an_inner_with_leaves_the_node_to_the_outer_one() -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS, services=False)
    with node:
        with node:
            assert node.running is True
        assert node.running is True  # the inner block did not start it, so did not stop it
        assert ok(httpx.get(f"{node.url}/", timeout=30.0))["chain_id"] == 4
    assert node.running is False


def test_a_replay_reads_the_urls_of_a_stopped_node(tmp_path: Path) -> None:
    path = tmp_path / "archive.snapshot"
    node = LocalNode(seed=SEED, blocks=BLOCKS, profile="public", services=False)
    with node:
        archive_url = node.archive_url
        assert archive_url is not None
        with ledgerkit.connect(archive_url, record=path) as live:
            recorded = live.ledger_info().value
            first = live.block_by_height(1).value
    assert recorded.oldest_ledger_version == 0

    # The notebook runs again later, the node long stopped: its URLs are still what they were.
    assert node.archive_url == archive_url
    with ledgerkit.connect(node.archive_url, replay=path) as replayed:
        assert replayed.base_url == archive_url
        assert replayed.ledger_info().value == recorded
        assert replayed.block_by_height(1).value == first


def test_a_token_signed_while_stopped_is_good_once_the_node_runs_again() -> None:
    node = LocalNode(seed=SEED, blocks=BLOCKS)
    with node:
        pass
    token = node.sign_in("later@example.com")  # the same identity provider, its same keys
    body = {"address": "0x" + "5d" * 32, "amount": 1}
    headers = {"Authorization": f"Bearer {token}", "x-is-jwt": "true"}
    with node, httpx.Client(timeout=30.0) as http:
        funded = http.post(f"{node.faucet_url}/fund", json=body, headers=headers)
    assert funded.status_code == 200
