"""Fixtures of the client's tests: no test writes to the user's cache directory, and one
embedded node of their own serves the integration tests of the session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ledgerkit.localnet import LocalNode


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of the client tests' own (seed 7, 40 blocks): they read event streams and
    pages of the chain whole, so the writes of other folders' tests must not reach it."""
    return make_node(seed=7, blocks=40)
