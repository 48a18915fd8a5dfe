"""Settings of the whole suite: generated chains are cached in a directory of this run's own.

Set before anything starts a node, so in-process nodes and node subprocesses (which
inherit the environment) share it, and the user's own chain cache is never touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

CHAIN_CACHE_ENV = "LEDGERKIT_CHAIN_CACHE"
_created: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    directory = tempfile.mkdtemp(prefix="ledgerkit-test-chains-")
    _created.append(directory)
    os.environ[CHAIN_CACHE_ENV] = directory


def pytest_unconfigure(config: pytest.Config) -> None:
    for directory in _created:
        shutil.rmtree(directory, ignore_errors=True)
