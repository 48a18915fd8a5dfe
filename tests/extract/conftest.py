"""Fixtures of the extraction tests: one small embedded node for the session, the same
node behind a proxy that wants an api key, and a private cache directory for every test.
What tests import lives in extract_helpers.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from extract_helpers import API_KEY, KeyedNode

from ledgerkit.localnet import LocalNode


@pytest.fixture(scope="session")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of the extraction tests' own, which nobody else writes to: 120 blocks of
    seed 7, so extract_helpers.VERSIONS versions, heights 0..120."""
    return make_node(seed=7, blocks=120)


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def keyed(node: LocalNode) -> Iterator[KeyedNode]:
    """The session node behind a proxy that refuses requests without ``Bearer API_KEY``."""
    with KeyedNode(node.url, API_KEY) as proxy:
        yield proxy
