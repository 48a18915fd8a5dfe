"""Settings of the whole suite.

Generated chains are cached in a directory of this run's own, set before anything starts
a node, so in-process nodes and node subprocesses (which inherit the environment) share
it, and the user's own chain cache is never touched.

Hypothesis runs without its per-example deadline: a deadline is a timing assertion, and
the first example of a test may pay for an import or a warm-up on a busy machine.

``node`` is the embedded node of the whole run: seed 7, 40 blocks, with its services.
Tests of every folder share it, so none may count on the ledger, or a dev account's
balance, staying as generated. A test module that needs a chain or settings of its own, or
a ledger nobody else writes to, asks ``make_node``: ``make_node(seed=11, blocks=5)``
starts a node, stopped when the run ends.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any, Protocol

import pytest
from hypothesis import settings

from ledgerkit.localnet import LocalNode

#: The chain of the run's shared node.
NODE_SEED = 7
NODE_BLOCKS = 40

CHAIN_CACHE_ENV = "LEDGERKIT_CHAIN_CACHE"
_created: list[str] = []

settings.register_profile("ledgerkit", deadline=None)
settings.load_profile("ledgerkit")


def pytest_configure(config: pytest.Config) -> None:
    directory = tempfile.mkdtemp(prefix="ledgerkit-test-chains-")
    _created.append(directory)
    os.environ[CHAIN_CACHE_ENV] = directory


def pytest_unconfigure(config: pytest.Config) -> None:
    for directory in _created:
        shutil.rmtree(directory, ignore_errors=True)


class MakeNode(Protocol):
    """``make_node(**settings)``: a started :class:`LocalNode` of those settings."""

    def __call__(self, **settings: Any) -> LocalNode: ...


@pytest.fixture(scope="session")
def make_node() -> Iterator[MakeNode]:
    """Starts a node of its own for each call (any :class:`LocalNode` keyword); all of
    them stop when the run ends."""
    started: list[LocalNode] = []

    def make(**settings: Any) -> LocalNode:
        running = LocalNode(**settings).start()
        started.append(running)
        return running

    try:
        yield make
    finally:
        for running in reversed(started):
            running.stop()


@pytest.fixture(scope="session")
def node(make_node: MakeNode) -> LocalNode:
    """The run's shared embedded node: seed 7, 40 blocks, faucet and services on."""
    return make_node(seed=NODE_SEED, blocks=NODE_BLOCKS)
