"""A call on a closed client raises ``ClientClosedError`` (a ``LedgerError``) and sends
nothing: reads, pages, flows, ``send``, with the answer cache on, blocking and asyncio,
over httpx and over aiohttp; the faucet and docs clients too."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from client_fakes import FakeNode, answer

from ledgerkit import (
    AsyncDocsClient,
    AsyncFaucetClient,
    ClientClosedError,
    DocsClient,
    FaucetClient,
    LedgerError,
)
from ledgerkit.client import AiohttpTransport, AsyncClient, Client, calls
from ledgerkit.localnet import LocalNode

LEDGER = {
    "chain_id": 2,
    "epoch": "7",
    "ledger_version": "5000",
    "oldest_ledger_version": "100",
    "ledger_timestamp": "1700000000123456",
    "node_role": "full_node",
    "oldest_block_height": "20",
    "block_height": "900",
}

#: What a user calls, on a blocking client.
CALLS: list[tuple[str, Callable[[Client], Any]]] = [
    ("ledger_info", lambda c: c.ledger_info()),
    ("account", lambda c: c.account("0x1")),
    ("iter_transactions", lambda c: list(c.iter_transactions(0, 10))),
    ("transaction_by_version", lambda c: c.transaction_by_version(3)),
    ("chain_identity", lambda c: c.chain_identity()),
    ("send", lambda c: c.send(calls.ledger_info())),
    ("build_transaction", lambda c: c.build_transaction("0x1", "0x1::coin::transfer", [])),
]


def fake_node() -> FakeNode:
    fake = FakeNode()
    fake.on("GET", "/", answer(LEDGER))
    return fake


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[n for n, _ in CALLS])
def test_a_closed_client_refuses_every_call(
    name: str, call: Callable[[Client], Any], tmp_path: Path
) -> None:
    fake = fake_node()
    client = fake.client(cache=tmp_path / "cache")
    assert client.ledger_info().value.block_height == 900  # it worked while open
    client.close()
    sent = len(fake.requests)
    with pytest.raises(ClientClosedError, match="Client is closed") as caught:
        call(client)
    assert isinstance(caught.value, LedgerError)
    assert isinstance(caught.value, RuntimeError)  # as httpx's own said before
    assert len(fake.requests) == sent  # nothing was sent


def test_the_with_block_closes_it() -> None:
    fake = fake_node()
    with fake.client() as client:
        client.ledger_info()
    with pytest.raises(ClientClosedError, match=r"GET http://node\.test/v1/"):
        client.ledger_info()


def test_closing_twice_is_harmless() -> None:
    client = fake_node().client()
    client.close()
    client.close()
    with pytest.raises(ClientClosedError):
        client.ledger_info()


def test_a_closed_async_client_refuses_every_call(tmp_path: Path) -> None:
    fake = fake_node()

    async def run() -> list[BaseException]:
        client = fake.async_client(cache=tmp_path / "cache")
        await client.ledger_info()
        await client.aclose()
        caught: list[BaseException] = []
        attempts: list[Callable[[], Any]] = [
            lambda: client.ledger_info(),
            lambda: client.chain_identity(),
            lambda: client.send(calls.ledger_info()),
            lambda: client.build_transaction("0x1", "0x1::coin::transfer", []),
        ]
        for attempt in attempts:
            try:
                await attempt()
            except BaseException as exc:
                caught.append(exc)
        try:
            async for _ in client.iter_transactions(0, 10):
                pass
        except BaseException as exc:
            caught.append(exc)
        return caught

    sent_before_close = 1
    caught = asyncio.run(run())
    assert len(caught) == 5
    assert all(isinstance(exc, ClientClosedError) for exc in caught), caught
    assert all("AsyncClient is closed" in str(exc) for exc in caught)
    assert len(fake.requests) == sent_before_close


def test_a_closed_client_over_aiohttp_opens_nothing_again(node: LocalNode) -> None:
    async def run() -> tuple[int, BaseException | None]:
        transport = AiohttpTransport()
        client = AsyncClient(node.url, cache=False, transport=transport)
        chain_id = (await client.ledger_info()).value.chain_id
        await client.aclose()
        try:
            await client.ledger_info()
        except BaseException as exc:
            return chain_id, exc
        return chain_id, None

    chain_id, raised = asyncio.run(run())
    assert chain_id == 4
    assert isinstance(raised, ClientClosedError)


def test_a_closed_faucet_client() -> None:
    def never(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"sent {request.url}")

    faucet = FaucetClient("http://faucet.test", transport=httpx.MockTransport(never))
    faucet.close()
    with pytest.raises(ClientClosedError, match="FaucetClient is closed"):
        faucet.fund("0x1", wait=False)

    async def run() -> None:
        client = AsyncFaucetClient("http://faucet.test", transport=httpx.MockTransport(never))
        await client.aclose()
        await client.fund("0x1", wait=False)

    with pytest.raises(ClientClosedError, match="AsyncFaucetClient is closed"):
        asyncio.run(run())


def test_a_closed_docs_client() -> None:
    def never(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"sent {request.url}")

    docs = DocsClient("https://docs.test", transport=httpx.MockTransport(never))
    docs.close()
    with pytest.raises(ClientClosedError, match="DocsClient is closed"):
        docs.page("/guide")

    async def run() -> None:
        client = AsyncDocsClient("https://docs.test", transport=httpx.MockTransport(never))
        await client.aclose()
        await client.page("/guide")

    with pytest.raises(ClientClosedError, match="AsyncDocsClient is closed"):
        asyncio.run(run())
