"""Secrets stay secret: an api key that cannot be sent is refused up front (never sent,
never retried, never quoted), and no log record of ledgerkit, httpx, httpcore or aiohttp,
no exception and no repr writes the api key or a token in the URL path, through the sync
client, the async client and the aiohttp transport, every logger at DEBUG."""

from __future__ import annotations

import asyncio
import logging
import socket
import socketserver
import threading
import traceback
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from client_fakes import LEDGER_INFO, META, FakeClock, FakeNode, answer

from ledgerkit import InputError, LedgerError
from ledgerkit.client import AiohttpTransport, AsyncClient, Client, Retry

TOKEN = "tok-5ecret-0123456789abcdef"
API_KEY = "key-5ecret-fedcba9876543210"
SECRETS = (TOKEN, API_KEY)
LOGGERS = ("", "ledgerkit", "httpx", "httpcore", "aiohttp")
NO_WAIT = Retry(total=2, backoff=0.0)


# -- keys that cannot be sent ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "fault"),
    [
        (API_KEY + "\n", "newline"),
        (API_KEY + "\r\n", "newline"),
        ("key-5ecret-\u00e9-fedcba9876543210", "non-ASCII"),
        ("key-5ecret-\x00-fedcba9876543210", "control character"),
        (" " + API_KEY, "whitespace"),
    ],
)
@pytest.mark.parametrize("make", [Client, AsyncClient])
def test_an_unsendable_api_key_is_refused_without_showing_it(
    make: Callable[..., Any], key: str, fault: str
) -> None:
    with pytest.raises(InputError, match=fault) as caught:
        make("http://node.test/v1", api_key=key, cache=False)
    assert "api_key" in str(caught.value)
    assert "5ecret" not in _exception_text(caught.value)


@pytest.mark.parametrize("value", [API_KEY + "\n", "key-5ecret-\u00e9"])
def test_an_unsendable_header_is_refused_by_name_only(value: str) -> None:
    with pytest.raises(InputError, match="X-Api-Key") as caught:
        Client("http://node.test/v1", headers={"X-Api-Key": value}, cache=False)
    assert "5ecret" not in _exception_text(caught.value)


def test_a_request_the_http_stack_cannot_send_is_not_retried() -> None:
    node = FakeNode()

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.LocalProtocolError(f"Illegal header value {API_KEY!r}")

    node.on("GET", "/", refuse)
    clock = FakeClock()
    with node.client(clock=clock) as client, pytest.raises(InputError) as caught:
        client.ledger_info()
    assert len(node.requests) == 1
    assert clock.sleeps == []
    assert API_KEY not in str(caught.value)


# -- a node behind a token, every logger listening -------------------------------------------


class _Handler(socketserver.StreamRequestHandler):
    """A node whose API lives under ``/<TOKEN>/v1`` and wants ``Bearer <API_KEY>``."""

    def handle(self) -> None:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.request.recv(65536)
            if not chunk:
                return
            head += chunk
        line, *lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        _, target, _ = line.split(" ")
        headers = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines)}
        seen = self.server.seen  # type: ignore[attr-defined]
        seen.append((target, headers.get("authorization")))
        path = target.split("?", 1)[0]
        if headers.get("authorization") != f"Bearer {API_KEY}":
            self._send(401, b'{"message": "no key", "error_code": "web_framework_error"}')
        elif path in (f"/{TOKEN}/v1", f"/{TOKEN}/v1/"):
            import json

            self._send(200, json.dumps(LEDGER_INFO).encode())
        elif path.endswith("/by_version/1"):
            self._send(503, b'{"message": "busy", "error_code": null}', b"Retry-After: 0\r\n")
        elif path.endswith("/by_version/2"):
            self.request.sendall(b"NONSENSE\r\n\r\n")  # not HTTP: a protocol error
        else:  # a framework that echoes the path it does not know
            body = f'{{"message": "no route {path}", "error_code": "web_framework_error"}}'
            self._send(404, body.encode())

    def _send(self, status: int, body: bytes, extra: bytes = b"") -> None:
        headers = "".join(f"{k}: {v}\r\n" for k, v in META.to_headers("X-APTOS-").items())
        self.request.sendall(
            f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nConnection: close\r\n"
            f"{headers}Content-Length: {len(body)}\r\n".encode()
            + extra
            + b"\r\n"
            + body
        )


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@pytest.fixture
def token_node() -> Iterator[tuple[str, list[tuple[str, str | None]]]]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{TOKEN}/v1", server.seen  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _exception_text(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc)) + repr(exc) + repr(exc.args)


def _calls() -> list[Callable[[Any], Any]]:
    """What each client does: an answer, a 503 retried to the end, a protocol error
    retried to the end, a 404 whose message echoes the path."""
    return [
        lambda c: c.ledger_info(),
        lambda c: c.transaction_by_version(1),
        lambda c: c.transaction_by_version(2),
        lambda c: c.transaction_by_version(3),
    ]


def _run_sync(url: str, **options: Any) -> list[str]:
    shown: list[str] = []
    with Client(url, api_key=API_KEY, retries=NO_WAIT, timeout=10, **options) as client:
        shown += [repr(client), str(client), repr(client.config)]
        for call in _calls():
            try:
                call(client)
            except LedgerError as exc:
                shown.append(_exception_text(exc))
    return shown


def _run_async(url: str, **options: Any) -> list[str]:
    async def main() -> list[str]:
        shown: list[str] = []
        async with AsyncClient(
            url, api_key=API_KEY, retries=NO_WAIT, timeout=10, **options
        ) as client:
            shown += [repr(client), str(client), repr(client.config)]
            for call in _calls():
                try:
                    await call(client)
                except LedgerError as exc:
                    shown.append(_exception_text(exc))
        return shown

    return asyncio.run(main())


def _records_text(records: list[logging.LogRecord]) -> list[str]:
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    texts = []
    for record in records:
        texts += [record.getMessage(), formatter.format(record), repr(record.args)]
        if record.exc_info:
            texts.append(formatter.formatException(record.exc_info))
    return texts


@pytest.mark.parametrize("path", ["sync", "async", "aiohttp"])
def test_no_log_record_exception_or_repr_shows_a_secret(
    path: str,
    token_node: tuple[str, list[tuple[str, str | None]]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    url, seen = token_node
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name or None)
    if path == "sync":
        shown = _run_sync(url, cache=False)
        shown += _run_sync(f"http://127.0.0.1:{_closed_port()}/{TOKEN}/v1", cache=False)
    elif path == "async":
        shown = _run_async(url, cache=False)
        shown += _run_async(f"http://127.0.0.1:{_closed_port()}/{TOKEN}/v1", cache=False)
    else:
        shown = _run_async(url, cache=False, transport=AiohttpTransport())
        closed = f"http://127.0.0.1:{_closed_port()}/{TOKEN}/v1"
        shown += _run_async(closed, cache=False, transport=AiohttpTransport())
    # The secrets were used: every request reached the node under the token, with the key.
    assert seen
    assert all(target.startswith(f"/{TOKEN}/v1") for target, _ in seen)
    assert all(auth == f"Bearer {API_KEY}" for _, auth in seen)
    # The retries of the 503 and of the protocol error ran and were logged.
    assert sum(target.endswith("/by_version/1") for target, _ in seen) == 3
    assert sum(target.endswith("/by_version/2") for target, _ in seen) == 3
    logged = _records_text(caplog.records)
    assert any("retrying" in text for text in logged)
    if path != "aiohttp":
        assert any(r.name == "httpx" for r in caplog.records)  # its request line was kept
    for text in shown + logged:
        for secret in SECRETS:
            assert secret not in text


def test_other_users_of_httpx_keep_their_log_lines(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="httpx")
    mine = Client(f"http://node.test/{TOKEN}/v1", api_key=API_KEY, cache=False)
    try:
        other = httpx.Client(transport=httpx.MockTransport(lambda r: answer(LEDGER_INFO)))
        other.get("http://elsewhere.test/some-long-path-segment/v1/")
        other.close()
    finally:
        mine.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "httpx"]
    assert any("http://elsewhere.test/some-long-path-segment/v1/" in line for line in lines)
