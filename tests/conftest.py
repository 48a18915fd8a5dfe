"""Settings of the whole suite.

Generated chains are cached in a directory of this run's own, set before anything starts
a node, so in-process nodes and node subprocesses (which inherit the environment) share
it, and the user's own chain cache is never touched.

Hypothesis runs without its per-example deadline: a deadline is a timing assertion, and
the first example of a test may pay for an import or a warm-up on a busy machine.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from hypothesis import settings

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
