"""A call on a closed client raises ``ClientClosedError`` (a ``LedgerError``) and sends
nothing: reads, pages, flows, ``send``, with the answer cache on, blocking and asyncio,
over httpx and over aiohttp; the faucet and docs clients too. So does a call that was
already waiting, held by a 429 or for a free slot, when another thread or task closed
the client: it never sees httpx's or aiohttp's own error for a closed client."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from client_fakes import META, FakeClock, FakeNode, answer, error

from ledgerkit import (
    AsyncDocsClient,
    AsyncFaucetClient,
    ClientClosedError,
    DocsClient,
    FaucetClient,
    LedgerError,
)
from ledgerkit.client import AiohttpTransport, AsyncClient, Client, calls
from ledgerkit.client._pacing import AsyncLimiter, Limiter
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


# -- closed by another thread or task while a call waits ---------------------------------------

#: Bounds every wait of these tests for the other side, so that a bug fails them instead
#: of hanging them; nothing is timed.
PATIENCE = 60.0

#: The node's 429: every request of the client is to wait 5 s.
HOLD: tuple[int, dict[str, Any], dict[str, str]] = (
    429,
    {"message": "slow down", "error_code": "rate_limited", "vm_error_code": None},
    {"Retry-After": "5"},
)
ANSWER: tuple[int, dict[str, Any], dict[str, str]] = (200, LEDGER, {})


class GatedClock(FakeClock):
    """A fake clock whose sleeps last until the test wakes them (``sleeping`` says one
    has begun)."""

    def __init__(self) -> None:
        super().__init__()
        self.sleeping = threading.Event()
        self.wake = threading.Event()

    def sleep(self, seconds: float) -> None:
        self.sleeping.set()
        assert self.wake.wait(PATIENCE), "never woken"
        super().sleep(seconds)


class AsyncGatedClock(FakeClock):
    """The same for the async client, on asyncio events."""

    def __init__(self) -> None:
        super().__init__()
        self.sleeping = asyncio.Event()
        self.wake = asyncio.Event()

    async def sleep(self, seconds: float) -> None:  # type: ignore[override]
        self.sleeping.set()
        await asyncio.wait_for(self.wake.wait(), PATIENCE)
        self.sleeps.append(seconds)
        self.now += seconds


class WatchedSlots(threading.BoundedSemaphore):
    """The client's slots, saying when a caller finds none free."""

    def __init__(self, value: int) -> None:
        super().__init__(value)
        self.wanted = threading.Event()

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool:
        if super().acquire(blocking=False):
            return True
        self.wanted.set()
        return super().acquire(blocking, timeout)


class AsyncWatchedSlots(asyncio.Semaphore):
    """The same for the async client."""

    def __init__(self, value: int) -> None:
        super().__init__(value)
        self.wanted = asyncio.Event()

    async def acquire(self) -> bool:
        if self.locked():
            self.wanted.set()
        return await super().acquire()


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """Start ``call`` in a thread; the list gets what it returned or raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_call_held_by_a_429_when_another_thread_closes_the_client() -> None:
    fake = FakeNode()
    fake.on("GET", "/", error(429, "rate_limited", "slow down", headers={"Retry-After": "5"}))
    clock = GatedClock()
    client = fake.client(clock=clock)
    thread, outcome = in_thread(client.ledger_info)
    assert clock.sleeping.wait(PATIENCE)  # held: the node said to come back in 5 s
    client.close()
    clock.wake.set()
    thread.join(PATIENCE)
    [raised] = outcome
    assert isinstance(raised, ClientClosedError), repr(raised)
    assert "Client is closed" in str(raised)
    assert clock.sleeps == [5.0]  # it waited the hold out, then found the client closed
    assert len(fake.requests) == 1


def test_a_call_waiting_for_a_slot_when_another_thread_closes_the_client() -> None:
    started, finish = threading.Event(), threading.Event()

    def slow(request: httpx.Request) -> httpx.Response:
        started.set()
        assert finish.wait(PATIENCE)
        return answer(LEDGER)

    fake = FakeNode()
    fake.on("GET", "/", slow)
    client = fake.client(max_concurrency=1)
    assert isinstance(client._limiter, Limiter)
    slots = client._limiter._slots = WatchedSlots(1)
    first, first_outcome = in_thread(client.ledger_info)
    assert started.wait(PATIENCE)  # the first call holds the only slot
    second, second_outcome = in_thread(client.ledger_info)
    assert slots.wanted.wait(PATIENCE)  # the second waits for it
    client.close()
    finish.set()
    first.join(PATIENCE)
    second.join(PATIENCE)
    [answered] = first_outcome
    assert answered.value.block_height == 900  # an answer already on its way is read
    [raised] = second_outcome
    assert isinstance(raised, ClientClosedError), repr(raised)
    assert "Client is closed" in str(raised)
    assert len(fake.requests) == 1


#: What the test node answers next, awaited (it may wait for the test).
Reply = Callable[[], Awaitable[tuple[int, dict[str, Any], dict[str, str]]]]


@contextlib.asynccontextmanager
async def async_node(
    kind: str, reply: Reply, **options: Any
) -> AsyncIterator[tuple[AsyncClient, list[str]]]:
    """An ``AsyncClient`` of a node that answers ``GET /`` with ``reply()`` and lists the
    requests it receives: through ``httpx.MockTransport``, or over a local port through
    an ``AiohttpTransport`` (the client then hands requests to aiohttp itself)."""
    received: list[str] = []

    async def mock(request: httpx.Request) -> httpx.Response:
        received.append(request.url.path)
        status, body, headers = await reply()
        return answer(body, status=status, headers=headers)

    async def serve(request: web.Request) -> web.Response:
        received.append(request.path)
        status, body, headers = await reply()
        headers = {**META.to_headers(), **headers}
        return web.json_response(body, status=status, headers=headers)

    async with contextlib.AsyncExitStack() as stack:
        if kind == "httpx":
            url, transport = "http://node.test/v1", httpx.MockTransport(mock)
        else:
            app = web.Application()
            app.router.add_get("/v1/", serve)
            server = await stack.enter_async_context(TestServer(app))
            url, transport = str(server.make_url("/v1")), AiohttpTransport()
        client = AsyncClient(url, transport=transport, cache=False, **options)
        stack.push_async_callback(client.aclose)
        yield client, received


@pytest.mark.parametrize("kind", ["httpx", "aiohttp"])
def test_a_call_held_by_a_429_when_another_task_closes_the_client(kind: str) -> None:
    clock = AsyncGatedClock()
    replies = iter([HOLD])

    async def reply() -> tuple[int, dict[str, Any], dict[str, str]]:
        return next(replies, ANSWER)

    async def run() -> tuple[list[Any], list[str]]:
        async with async_node(kind, reply, clock=clock) as (client, received):
            call = asyncio.create_task(client.ledger_info())
            await asyncio.wait_for(clock.sleeping.wait(), PATIENCE)  # held for 5 s
            await client.aclose()
            clock.wake.set()
            outcome = await asyncio.gather(call, return_exceptions=True)
            return outcome, received

    [raised], received = asyncio.run(run())
    assert isinstance(raised, ClientClosedError), repr(raised)
    assert "AsyncClient is closed" in str(raised)
    assert clock.sleeps == [5.0]
    assert received == ["/v1/"]  # nothing was sent after the close


@pytest.mark.parametrize("kind", ["httpx", "aiohttp"])
def test_a_call_waiting_for_a_slot_when_another_task_closes_the_client(kind: str) -> None:
    slots = AsyncWatchedSlots(1)  # the client's, watched
    started, finish = asyncio.Event(), asyncio.Event()

    async def reply() -> tuple[int, dict[str, Any], dict[str, str]]:
        started.set()
        await asyncio.wait_for(finish.wait(), PATIENCE)
        return ANSWER

    async def run() -> tuple[list[Any], list[str]]:
        async with async_node(kind, reply, max_concurrency=1) as (client, received):
            assert isinstance(client._limiter, AsyncLimiter)
            client._limiter._slots = slots
            first = asyncio.create_task(client.ledger_info())
            await asyncio.wait_for(started.wait(), PATIENCE)  # it holds the only slot
            second = asyncio.create_task(client.ledger_info())
            await asyncio.wait_for(slots.wanted.wait(), PATIENCE)  # it waits for one
            await client.aclose()
            finish.set()
            outcome = await asyncio.gather(first, second, return_exceptions=True)
            return outcome, received

    [first, raised], received = asyncio.run(run())
    # The first was in flight: it has its answer, or fails as a ledgerkit error.
    assert not isinstance(first, BaseException) or isinstance(first, LedgerError), repr(first)
    assert isinstance(raised, ClientClosedError), repr(raised)
    assert "AsyncClient is closed" in str(raised)
    assert received == ["/v1/"]
