"""The official SDKs' faucet clients against the faucet of ``ledgerkit node``, started as a
user starts it (here on free ports): the Python SDK's ``FaucetClient.fund_account``
(``POST /mint``) and the TypeScript SDK's ``fundAccount`` (``POST /fund``, through
``ts/scenarios.mjs``, 6.3 and 7.3) work unchanged, as against the faucet of a local network, and the
balance is the amount asked (written out).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Final

import httpx
import pytest
from aptos_sdk.account import Account
from aptos_sdk.async_client import FaucetClient, RestClient
from cli_node import CliNode, cli_node
from ts_sdks import TsRunner

pytestmark = [pytest.mark.interop, pytest.mark.timeout(300)]

FREE_PORTS: Final = ("--port", "0", "--faucet-port", "0", "--indexer-port", "0")


@pytest.fixture(scope="module")
def urls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """``(node API, faucet)`` of a ``ledgerkit node`` started for this module."""
    cwd = tmp_path_factory.mktemp("faucet-node")
    with cli_node(*FREE_PORTS, "--blocks", "2", "--dev-accounts", "1", cwd=cwd) as started:
        yield started.node_url, started.faucet_url


def test_fund_account_of_the_python_sdk_creates_and_funds(urls: tuple[str, str]) -> None:
    node_url, faucet_url = urls

    async def scenario() -> tuple[int, int, bool]:
        rest = RestClient(node_url)
        faucet = FaucetClient(faucet_url, rest)
        try:
            alice = Account.generate()
            # As the SDK's examples: 100,000,000 octas (1 APT), then 20 APT more, waited for.
            await faucet.fund_account(alice.address(), 100_000_000)
            first = await rest.account_balance(alice.address())
            await faucet.fund_account(alice.address(), 2_000_000_000)
            then = await rest.account_balance(alice.address())
            return first, then, await faucet.healthy()
        finally:
            await rest.close()

    first, then, healthy = asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    assert (first, then, healthy) == (100_000_000, 2_100_000_000, True)


def test_fund_account_of_the_typescript_sdk_creates_and_funds(
    ts: TsRunner, urls: tuple[str, str]
) -> None:
    node_url, faucet_url = urls
    recipient = str(Account.generate().address())  # no account yet: the funding creates it
    results = ts.run(
        "scenarios.mjs", "fund", node_url, faucet_url, recipient, "250000000", timeout=150
    )
    assert results["fund"]["ok"], results["fund"]
    assert results["fund"]["value"]["success"] is True
    assert results["balance"] == {"ok": True, "value": "250000000"}


def test_ledgerkit_node_with_no_flags_answers_on_the_local_network_ports(
    default_node: CliNode,
) -> None:
    """What the SDKs' ``Network.LOCAL`` settings reach: the node API on 8080, the faucet's
    ``tap:ok`` on 8081 and the indexer's ``processor_status`` on 8090."""
    with httpx.Client(timeout=30.0) as http:
        ledger = http.get("http://127.0.0.1:8080/v1")
        tap = http.get("http://127.0.0.1:8081/")
        status = http.post(
            "http://127.0.0.1:8090/v1/graphql",
            json={"query": "{ processor_status(limit: 1) { last_success_version } }"},
        )
    assert ledger.status_code == 200
    assert ledger.json()["chain_id"] == 4
    assert (tap.status_code, tap.text) == (200, "tap:ok")
    assert status.status_code == 200
    assert int(status.json()["data"]["processor_status"][0]["last_success_version"]) >= 0
