"""Fixtures of the model tests: one embedded node per session that nobody writes to, and
its answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from ledgerkit.localnet import LocalNode

SEED = 7
BLOCKS = 40


@pytest.fixture(scope="session")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of the model tests' own, holding exactly the generated chain they read (a
    test that writes starts yet another node)."""
    return make_node(seed=SEED, blocks=BLOCKS)


@pytest.fixture(scope="session")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client
