"""Fixtures of the interop tests: one embedded node for the session, a plain HTTP client that
reads it independently of the SDKs under test, and the dev accounts each test may spend from.

Each test that moves coins has dev accounts of its own, so the tests pass in any order and
alone; the read-only account is never sent from or paid to, so its balance stays the genesis
amount.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from cli_node import DEFAULT_PORTS, CliNode, busy_ports, cli_node, in_ci
from ts_sdks import SDKS, TsRunner, TsSdk, node_for

from ledgerkit.localnet import LocalNode

SEED = 7
BLOCKS = 40


@pytest.fixture(scope="session")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of the interop tests' own: the accounts they spend and the read-only one
    are touched by nobody else."""
    return make_node(seed=SEED, blocks=BLOCKS)


@pytest.fixture(scope="session")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="session")
def dev(node: LocalNode) -> list[Any]:
    """The node's dev accounts and who spends them.

    0 and 1: the Python SDK's transfer (1 also funds its secp256k1 account, paying 0);
    2, 3 and 4: the TypeScript SDK's transfers (3 also funds its single-key accounts,
    paying 2); 5 and 6: the Python SDK's AIP-80 transfer; 7: read only, never touched.
    """
    accounts = node.dev_accounts
    assert len(accounts) >= 8, "the interop tests need the default eight dev accounts"
    return accounts


@pytest.fixture(scope="session")
def busy_sender(http: httpx.Client) -> str:
    """A sender of the generated chain with at least two committed transactions."""
    start = 0
    for _ in range(20):  # bounded: the first pages of a generated chain have one
        page = http.get("/transactions", params={"start": start, "limit": 100})
        assert page.status_code == 200, page.text
        items = page.json()
        for txn in items:
            if txn["type"] == "user_transaction" and txn["sequence_number"] == "1":
                sender: str = txn["sender"]
                return sender
        if not items:
            break
        start += len(items)
    pytest.fail("no sender with two transactions in the generated chain")


@pytest.fixture(scope="session")
def default_node(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CliNode]:
    """``ledgerkit node`` started with no flags, as a user starts it for the SDKs'
    tutorials: the node API on 127.0.0.1:8080, the faucet on :8081, the indexer on :8090.

    Skips (fails in CI) when something else already listens on one of those ports.
    """
    busy = busy_ports()
    if busy:
        message = f"ports {busy} are taken: `ledgerkit node` with no flags needs {DEFAULT_PORTS}"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    with cli_node(cwd=tmp_path_factory.mktemp("default-node")) as started:
        assert (started.node_url, started.faucet_url, started.indexer_url) == (
            "http://127.0.0.1:8080/v1",
            "http://127.0.0.1:8081",
            "http://127.0.0.1:8090/v1/graphql",
        ), started.banner
        yield started


@pytest.fixture(scope="session", params=SDKS, ids=[sdk.line for sdk in SDKS])
def ts(request: pytest.FixtureRequest) -> TsRunner:
    """Each release of the TypeScript SDK in turn (6.3, 7.3), with the ``node`` it runs
    under; skips (fails in CI) without one new enough, fails when the SDK is not installed."""
    sdk: TsSdk = request.param
    return TsRunner(sdk, node_for(sdk))
