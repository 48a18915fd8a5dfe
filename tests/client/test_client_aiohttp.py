"""The aiohttp transport fails the way httpx's own does: each kind of network failure
becomes the same error of ours, retried the same way; bodies arrive whole, compressed
ones decoded. (That it answers every endpoint like the default transport is checked in
``test_client_node.py``.)"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from ledgerkit import RequestTimeoutError, TransportError
from ledgerkit.client import AiohttpTransport, AsyncClient, Retry

LEDGER = {
    "chain_id": 4,
    "epoch": "1",
    "ledger_version": "18446744073709551615",
    "oldest_ledger_version": "0",
    "ledger_timestamp": "1",
    "node_role": "full_node",
    "oldest_block_height": "0",
    "block_height": "7",
}
HEADERS = (
    b"X-NODE-CHAIN-ID: 4\r\nX-NODE-LEDGER-VERSION: 18446744073709551615\r\n"
    b"X-NODE-LEDGER-OLDEST-VERSION: 0\r\nX-NODE-LEDGER-TIMESTAMPUSEC: 1\r\n"
    b"X-NODE-EPOCH: 1\r\nX-NODE-BLOCK-HEIGHT: 7\r\nX-NODE-OLDEST-BLOCK-HEIGHT: 0\r\n"
)

HEADS: list[bytes] = []  # the request heads the test servers read, newest last

Handler = Callable[[int, asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def answer(body: bytes, *, extra: bytes = b"") -> bytes:
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + HEADERS
        + extra
        + b"Content-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


async def serve(
    handler: Handler, check: Callable[[AsyncClient], Awaitable[Any]], **opts: Any
) -> Any:
    """Run ``check`` with a client on an aiohttp transport against a server whose n-th
    connection is handled by ``handler(n, reader, writer)``."""
    count = 0

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal count
        count += 1
        try:
            HEADS.append(await reader.readuntil(b"\r\n\r\n"))
            await handler(count, reader, writer)
        finally:
            writer.close()

    server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        transport = AiohttpTransport(max_connections=2)
        async with AsyncClient(
            f"http://127.0.0.1:{port}/v1", transport=transport, **opts
        ) as client:
            return await check(client)
    finally:
        server.close()


def run(handler: Handler, **opts: Any) -> Any:
    async def check(client: AsyncClient) -> Any:
        return await client.ledger_info()

    return asyncio.run(serve(handler, check, **opts))


def test_a_plain_answer_is_decoded_with_its_headers() -> None:
    async def ok(n: int, reader: Any, writer: asyncio.StreamWriter) -> None:
        writer.write(answer(json.dumps(LEDGER).encode()))
        await writer.drain()

    result = run(ok)
    assert result.value.ledger_version == 2**64 - 1
    assert result.ledger.block_height == 7


def test_a_gzip_body_is_decoded() -> None:
    async def zipped(n: int, reader: Any, writer: asyncio.StreamWriter) -> None:
        writer.write(
            answer(gzip.compress(json.dumps(LEDGER).encode()), extra=b"Content-Encoding: gzip\r\n")
        )
        await writer.drain()

    assert run(zipped).value.chain_id == 4


def test_a_closed_port_is_a_transport_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def check() -> None:
        transport = AiohttpTransport()
        async with AsyncClient(
            f"http://127.0.0.1:{port}/v1", transport=transport, retries=0
        ) as client:
            await client.ledger_info()

    with pytest.raises(TransportError, match="ConnectError"):
        asyncio.run(check())


async def _hang_up(n: int, reader: Any, writer: asyncio.StreamWriter) -> None:
    return  # closes the connection without a word


async def _cut_short(n: int, reader: Any, writer: asyncio.StreamWriter) -> None:
    whole = answer(json.dumps(LEDGER).encode())
    writer.write(whole[: len(whole) - 20])
    await writer.drain()


@pytest.mark.parametrize("handler", [_hang_up, _cut_short], ids=["hang-up", "cut-short"])
def test_a_dropped_connection_is_a_transport_error(handler: Handler) -> None:
    with pytest.raises(TransportError, match="RemoteProtocolError") as caught:
        run(handler, retries=0)
    assert not isinstance(caught.value, RequestTimeoutError)


@pytest.mark.parametrize("handler", [_hang_up, _cut_short], ids=["hang-up", "cut-short"])
def test_a_dropped_connection_is_retried(handler: Handler) -> None:
    async def once_then_ok(n: int, reader: Any, writer: asyncio.StreamWriter) -> None:
        if n == 1:
            await handler(n, reader, writer)
        else:
            writer.write(answer(json.dumps(LEDGER).encode()))
            await writer.drain()

    assert run(once_then_ok, retries=Retry(total=2, backoff=0.01)).value.block_height == 7


def test_a_stalled_node_is_a_timeout() -> None:
    async def stall(n: int, reader: Any, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(5)

    with pytest.raises(RequestTimeoutError, match="ReadTimeout"):
        run(stall, retries=0, timeout=0.3)


def test_a_request_body_arrives_whole() -> None:
    seen: list[bytes] = []

    async def echo(n: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        lines = HEADS[-1].lower().split(b"\r\n")
        length = next(int(line[15:]) for line in lines if line.startswith(b"content-length:"))
        seen.append(await reader.readexactly(length))
        writer.write(answer(b'["1"]'))
        await writer.drain()

    async def check(client: AsyncClient) -> Any:
        return await client.view_json("0x1::coin::balance", ["0x1::aptos_coin::AptosCoin"], ["0x1"])

    result = asyncio.run(serve(echo, check))
    assert result.value == ["1"]
    assert json.loads(seen[0]) == {
        "function": "0x1::coin::balance",
        "type_arguments": ["0x1::aptos_coin::AptosCoin"],
        "arguments": ["0x1"],
    }


def test_proxies_are_read_from_the_environment_only_when_it_names_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from ledgerkit.client._aiohttp import _environment_has_proxies

    monkeypatch.setenv("HOME", str(tmp_path))
    for name in list(os.environ):
        if name.lower() in {
            "http_proxy",
            "https_proxy",
            "all_proxy",
            "ws_proxy",
            "wss_proxy",
            "netrc",
        }:
            monkeypatch.delenv(name)
    assert not _environment_has_proxies()
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.test:3128")
    assert _environment_has_proxies()
    monkeypatch.delenv("HTTPS_PROXY")
    (tmp_path / ".netrc").write_text("machine node.test login me password pw\n")
    assert _environment_has_proxies()
