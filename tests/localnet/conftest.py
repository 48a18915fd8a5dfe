"""Fixtures shared by the local node's tests: a plain HTTP client of the run's shared
node (``node``, seed 7 and 40 blocks, from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from ledgerkit.localnet import LocalNode


@pytest.fixture(scope="session")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client
