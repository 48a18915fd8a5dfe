"""The bulk path: an ``AsyncClient`` over an ``AiohttpTransport`` hands each request to
aiohttp itself and reads the answer whole, and still behaves as every client does: the
same headers, ledger metadata, error classes, retries, limits and redaction. Checked
against a raw HTTP/1.1 server on a local port, side by side with ``Client.send``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from client_fakes import AsyncFakeClock, user_transaction

import ledgerkit
from ledgerkit import TransportError
from ledgerkit.client import AiohttpTransport, AsyncClient, Client, Retry, calls

KEY = "lk-bulk-5d1e77a0c39b42f8"  # made up; no other string of the tests contains it
HEADERS = (
    b"X-NODE-CHAIN-ID: 4\r\nX-NODE-LEDGER-VERSION: 18446744073709551615\r\n"
    b"X-NODE-LEDGER-OLDEST-VERSION: 0\r\nX-NODE-LEDGER-TIMESTAMPUSEC: 1\r\n"
    b"X-NODE-EPOCH: 1\r\nX-NODE-BLOCK-HEIGHT: 7\r\nX-NODE-OLDEST-BLOCK-HEIGHT: 0\r\n"
)
PAGE = json.dumps([user_transaction(5)]).encode()

#: What the server answers to the n-th request (counted from 1): the bytes of an answer,
#: or None to hang up without a word.
Reply = Callable[[int, bytes], Awaitable[bytes | None]]


class Cut(bytes):
    """Bytes the server writes before it closes the connection (an answer cut short)."""


def http(status: int, body: bytes, *, extra: bytes = b"", ledger: bool = True) -> bytes:
    reason = {200: b"OK", 429: b"Too Many Requests", 503: b"Service Unavailable"}
    return (
        b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
        % (status, reason.get(status, b"Error"))
        + (HEADERS if ledger else b"")
        + extra
        + b"Content-Length: %d\r\n\r\n" % len(body)
        + body
    )


def refusal(status: int, code: str | None, message: str = "no", *, extra: bytes = b"") -> bytes:
    record = {"message": message, "error_code": code, "vm_error_code": None}
    return http(status, json.dumps(record).encode(), extra=extra)


class Server:
    """A raw HTTP/1.1 server: keeps connections alive, hands every request head to
    ``reply``, and counts requests and those in flight."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.heads: list[bytes] = []
        self.in_flight = 0
        self.peak = 0
        self.port = 0
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> Server:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                self.heads.append(head)
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
                try:
                    data = await self.reply(len(self.heads), head)
                finally:
                    self.in_flight -= 1
                if data is None:
                    return
                writer.write(data)
                await writer.drain()
                if isinstance(data, Cut):
                    return
        finally:
            writer.close()


@pytest.fixture(autouse=True)
def _no_httpx_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request of these tests takes the bulk path: the transport's httpx door fails."""

    async def refuse(self: AiohttpTransport, request: object) -> None:
        raise AssertionError("the AsyncClient went through httpx")

    monkeypatch.setattr(AiohttpTransport, "handle_async_request", refuse)


def header(head: bytes, name: str) -> str | None:
    for line in head.decode("latin-1").split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return None


def bulk(url: str, **options: Any) -> AsyncClient:
    options.setdefault("cache", False)
    return AsyncClient(url, transport=AiohttpTransport(), **options)


def run(reply: Reply, check: Callable[[Server], Awaitable[Any]]) -> tuple[Any, Server]:
    async def main() -> tuple[Any, Server]:
        async with Server(reply) as server:
            return await check(server), server

    return asyncio.run(main())


def always(data: bytes) -> Reply:
    async def reply(n: int, head: bytes) -> bytes:
        return data

    return reply


def test_a_page_arrives_as_bytes_with_its_ledger_metadata_and_the_clients_headers() -> None:
    async def check(server: Server) -> Any:
        async with bulk(server.url, api_key=KEY, headers={"X-Team": "ledger"}) as client:
            return await client.send(calls.transactions(start=0, limit=1), decoder=bytes)

    result, server = run(always(http(200, PAGE)), check)
    assert result.value == PAGE
    assert result.ledger.chain_id == 4
    assert result.ledger.ledger_version == 2**64 - 1
    assert result.ledger.block_height == 7
    (head,) = server.heads
    assert head.startswith(b"GET /v1/transactions?limit=1&start=0 HTTP/1.1\r\n")
    assert header(head, "Authorization") == f"Bearer {KEY}"
    assert header(head, "X-Team") == "ledger"
    assert header(head, "User-Agent") == "ledgerkit-client"
    assert header(head, "Accept") == "application/json"
    assert header(head, "Cookie") is None


def test_the_methods_decode_over_it_as_over_httpx() -> None:
    async def check(server: Server) -> Any:
        async with bulk(server.url) as client:
            return await client.transactions(start=0, limit=1)

    result, _ = run(always(http(200, PAGE)), check)
    assert [t.version for t in result.value] == [5]


REFUSALS = [
    (refusal(400, "invalid_input"), ledgerkit.InvalidInputError),
    (refusal(404, "transaction_not_found"), ledgerkit.TransactionNotFoundError),
    (refusal(404, None), ledgerkit.NotFoundError),
    (refusal(410, "version_pruned"), ledgerkit.VersionPrunedError),
    (refusal(429, None, extra=b"Retry-After: 0\r\n"), ledgerkit.RateLimitedError),
    (refusal(503, None), ledgerkit.ServiceUnavailableError),
    (http(502, b"<html>bad gateway</html>", ledger=False), ledgerkit.ServerError),
]


@pytest.mark.parametrize(("answer", "expected"), REFUSALS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_refusal_raises_what_client_send_raises(
    answer: bytes, expected: type[ledgerkit.NodeAPIError]
) -> None:
    async def check(server: Server) -> tuple[BaseException, BaseException]:
        call = calls.transactions(start=0, limit=1)
        async with bulk(server.url, retries=0) as client:
            with pytest.raises(ledgerkit.NodeAPIError) as over_aiohttp:
                await client.send(call, decoder=bytes)

        def blocking() -> None:
            with Client(server.url, retries=0, cache=False) as sync:
                sync.send(call, decoder=bytes)

        with pytest.raises(ledgerkit.NodeAPIError) as over_httpx:
            await asyncio.to_thread(blocking)
        return over_aiohttp.value, over_httpx.value

    (fast, plain), _ = run(always(answer), check)
    assert type(fast) is expected
    assert type(plain) is expected
    assert fast.status == plain.status
    assert fast.error_code == plain.error_code
    assert str(fast) == str(plain)
    assert fast.ledger == plain.ledger


@pytest.mark.parametrize(
    "first",
    [
        refusal(429, None, extra=b"Retry-After: 2\r\n"),
        refusal(503, None),
        None,  # a dropped connection
        Cut(http(200, PAGE)[:-10]),  # a body cut short
    ],
    ids=["429", "503", "dropped", "cut-body"],
)
def test_a_get_is_retried_after_429_503_and_a_dropped_connection(first: bytes | None) -> None:
    clock = AsyncFakeClock()

    # aiohttp itself sends a GET again, once, when the connection closes before the
    # answer (RFC 9112, 9.3.1): the client's own retry comes after that.
    failures = 2 if first is None else 1

    async def reply(n: int, head: bytes) -> bytes | None:
        return first if n <= failures else http(200, PAGE)

    async def check(server: Server) -> Any:
        async with bulk(server.url, retries=Retry(total=2, backoff=0.5), clock=clock) as client:
            return await client.send(calls.transactions(start=0, limit=1), decoder=bytes)

    result, server = run(reply, check)
    assert result.value == PAGE
    assert len(server.heads) == failures + 1
    assert len(clock.sleeps) == 1
    if first is not None and b"Retry-After" in first:
        assert clock.sleeps == [2.0]  # the node's word, exactly


def test_a_cut_body_is_a_transport_error_never_a_short_page() -> None:
    async def check(server: Server) -> Any:
        async with bulk(server.url, retries=0) as client:
            return await client.send(calls.transactions(start=0, limit=1), decoder=bytes)

    with pytest.raises(TransportError, match="RemoteProtocolError") as caught:
        run(always(Cut(http(200, PAGE)[:-10])), check)
    assert not isinstance(caught.value, ledgerkit.RequestTimeoutError)


def test_a_submission_is_never_sent_twice() -> None:
    async def check(server: Server) -> Any:
        async with bulk(server.url, retries=Retry(total=3, backoff=0.0)) as client:
            with pytest.raises(ledgerkit.ServerError):
                await client.send(calls.submit_transaction({"signature": {}}))

    _, server = run(always(refusal(503, None)), check)
    assert len(server.heads) == 1
    assert server.heads[0].startswith(b"POST /v1/transactions HTTP/1.1\r\n")


def test_the_api_key_is_in_no_error_and_no_log_record(caplog: pytest.LogCaptureFixture) -> None:
    # A node (or a proxy before it) that echoes what it was sent, key and all.
    async def echo(n: int, head: bytes) -> bytes | None:
        if n == 1:
            return None  # a dropped connection first: logged, then retried
        return refusal(401, None, f"refused: {head.decode('latin-1')}")

    async def check(server: Server) -> Any:
        async with bulk(server.url, api_key=KEY, retries=Retry(total=1, backoff=0.0)) as client:
            return await client.send(calls.transactions(start=0, limit=1), decoder=bytes)

    with caplog.at_level(logging.DEBUG), pytest.raises(ledgerkit.NodeAPIError) as caught:
        run(echo, check)
    assert caught.value.status == 401
    assert "refused: GET /v1/transactions" in str(caught.value)
    assert KEY not in str(caught.value)
    assert KEY not in repr(caught.value)
    assert caplog.records  # the retry and the answers were logged
    for record in caplog.records:
        assert KEY not in record.getMessage()


def test_max_concurrency_holds_over_it() -> None:
    async def slow(n: int, head: bytes) -> bytes:
        await asyncio.sleep(0.01)  # overlap the requests; nothing is timed
        return http(200, PAGE)

    async def check(server: Server) -> Any:
        async with bulk(server.url, max_concurrency=3) as client:
            return await asyncio.gather(
                *(
                    client.send(calls.transactions(start=i, limit=1), decoder=bytes)
                    for i in range(12)
                )
            )

    results, server = run(slow, check)
    assert len(results) == 12
    assert len(server.heads) == 12
    assert server.peak == 3


def test_max_rps_spaces_request_starts_over_it() -> None:
    clock = AsyncFakeClock()
    starts: list[float] = []

    async def stamp(n: int, head: bytes) -> bytes:
        starts.append(clock.now)
        return http(200, PAGE)

    async def check(server: Server) -> Any:
        async with bulk(server.url, max_rps=4, clock=clock) as client:
            for i in range(6):
                await client.send(calls.transactions(start=i, limit=1), decoder=bytes)

    run(stamp, check)
    assert starts == [0.0, 0.25, 0.5, 0.75, 1.0, 1.25]
