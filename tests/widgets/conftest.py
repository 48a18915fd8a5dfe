"""Fixtures of the explorers' headless tests: the fake ``ReadClient`` of
``fake_read_client``, and ``no_node``, the guard that fails a test starting a node.

A module whose every test runs without a node asks for the guard once:
``pytestmark = pytest.mark.usefixtures("no_node")``.
"""

from __future__ import annotations

from typing import Any

import pytest
from fake_read_client import FakeReadClient

from ledgerkit.localnet import LocalNode


@pytest.fixture
def no_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if it would start a node."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a headless explorer test started a LocalNode")

    monkeypatch.setattr(LocalNode, "__init__", refuse)


@pytest.fixture
def client() -> FakeReadClient:
    """A fresh fake client: the chain of ``fake_read_client``, no call logged yet."""
    return FakeReadClient()
