"""Fixtures of the client's tests: no test writes to the user's cache directory, and one
embedded node serves the integration tests of the session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ledgerkit.localnet import LocalNode


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def node() -> Iterator[LocalNode]:
    with LocalNode(seed=7, blocks=40) as running:
        yield running
