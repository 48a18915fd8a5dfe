"""Fixtures of the transaction toolkit's tests: a plain HTTP client that reads the run's
shared node (``node``, from tests/conftest.py) independently of the code under test, a
client whose transport counts what it sends, and fresh funded accounts so each test
spends only its own coins.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tx_helpers import LDT, Counting

from ledgerkit import Client, Ed25519PrivateKey
from ledgerkit.localnet import LocalNode


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="session")
def funder_client(node: LocalNode) -> Iterator[Client]:
    with Client(node.url, cache=False) as client:
        yield client


@pytest.fixture
def counting() -> Counting:
    return Counting()


@pytest.fixture
def client(node: LocalNode, counting: Counting) -> Iterator[Client]:
    with Client(node.url, cache=False, transport=counting) as c:
        yield c


@pytest.fixture
def fund(node: LocalNode, funder_client: Client) -> Any:
    """``fund(apt, ldt=0)``: a fresh Ed25519 key whose account holds exactly that much."""
    funder = node.dev_accounts[7]

    def make(apt: int, ldt: int = 0) -> Ed25519PrivateKey:
        key = Ed25519PrivateKey.generate()
        sent = funder_client.transfer(funder, key.address(), apt)
        assert sent.value.success, sent.value.vm_status
        if ldt:
            sent = funder_client.transfer(funder, key.address(), ldt, asset=LDT)
            assert sent.value.success, sent.value.vm_status
        return key

    return make
