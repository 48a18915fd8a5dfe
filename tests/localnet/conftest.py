"""Fixtures shared by the local node's tests: one running node per session."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from ledgerkit.localnet import LocalNode

SEED = 7
BLOCKS = 40


@pytest.fixture(scope="session")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client
