"""Fixtures of the transaction toolkit's tests: one embedded node for the session, a plain
HTTP client that reads it independently of the code under test, a client whose transport
counts what it sends, and fresh funded accounts so each test spends only its own coins.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import httpx
import pytest

from ledgerkit import Client, Ed25519PrivateKey
from ledgerkit.localnet import LocalNode

APT: Final = "0x1::aptos_coin::AptosCoin"
#: The demo token's metadata object, as the node documents it: SHA3-256(0x1 ‖ seed ‖ 0xFE).
LDT: Final = (
    "0x" + hashlib.sha3_256(bytes(31) + b"\x01" + b"ledgerkit::demo_token" + b"\xfe").hexdigest()
)


class Counting(httpx.HTTPTransport):
    """A real transport that keeps ``(method, path)`` of every request it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, str]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((request.method, request.url.path))
        return super().handle_request(request)

    def count(self, method: str, fragment: str = "") -> int:
        return sum(1 for m, path in self.sent if m == method and fragment in path)


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def node() -> Iterator[LocalNode]:
    with LocalNode(seed=7, blocks=40) as running:
        yield running


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


def balance(http: httpx.Client, address: object, asset: str = APT) -> int:
    """The balance as the node's own balance endpoint says, read over plain HTTP."""
    answer = http.get(f"/accounts/{address}/balance/{asset}")
    assert answer.status_code == 200, answer.text
    return int(answer.json())
