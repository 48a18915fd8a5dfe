"""Fixtures of the explorers' headless tests.

* ``scene``: the chain of ``recorded_chain``, made on a node of its own and recorded once
  per run;
* ``client``: that recording replayed (``ledgerkit.connect(replay=...)``), each read the
  explorers make logged (``recorded_chain.ReadLog``);
* ``fake``: the fake ``ReadClient`` of ``fake_read_client``, for the few answers the
  embedded node cannot give;
* ``no_node``: the guard that fails a test starting a node or reaching the network.

A module whose every test runs without a node asks for the guard once:
``pytestmark = pytest.mark.usefixtures("no_node")``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fake_read_client import FakeReadClient
from recorded_chain import BLOCKS, SEED, ReadLog, Scene, make_scene

import ledgerkit
from ledgerkit.localnet import LocalNode


@pytest.fixture
def no_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if it would start a node or send a request over the network."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a headless explorer test started a LocalNode")

    def offline(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a headless explorer test reached for the network")

    monkeypatch.setattr(LocalNode, "__init__", refuse)
    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", offline)
    monkeypatch.setattr(httpx.AsyncHTTPTransport, "handle_async_request", offline)


@pytest.fixture(scope="session")
def scene(make_node: Any, tmp_path_factory: pytest.TempPathFactory) -> Scene:
    """The recorded chain: its facts, and the snapshot of what the explorers read."""
    node = make_node(seed=SEED, blocks=BLOCKS, services=False)
    path = tmp_path_factory.mktemp("recorded") / "explorers.snapshot"
    return make_scene(node, path)


@pytest.fixture
def client(scene: Scene, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[ReadLog]:
    """The recorded chain replayed, no call logged yet; an account's scanned activity is
    kept in the test's own directory."""
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path / "cache"))
    with ledgerkit.connect(replay=scene.snapshot) as replayed:
        yield ReadLog(replayed)


@pytest.fixture
def fake() -> FakeReadClient:
    """A fresh fake client: the answers of ``fake_read_client``, no call logged yet."""
    return FakeReadClient()
