"""What the extraction tests share: the size of the session node's chain, an httpx
transport in front of the node that counts requests and injects faults, and a node that
wants an api key (a proxy in front of the session node)."""

from __future__ import annotations

import http.client
import json
import random
import threading
import urllib.parse
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import httpx
import pandas as pd

#: 120 blocks of seed 7 (the ``node`` fixture of conftest.py): versions 0..913, heights 0..120,
#: as the node's ``GET /`` says (ledger_version 913, block_height 120).
VERSIONS = 914

#: The key the ``keyed`` node wants (made up; no other string of the tests contains it).
API_KEY = "lk-test-9f3c2e71d4b8a6059e1f"


Rewrite = Callable[[httpx.Request, int], httpx.Response | None]


async def edited(
    request: httpx.Request, response: httpx.Response, edit: Callable[[Any], Any]
) -> httpx.Response:
    """The node's answer to ``request`` with its JSON rewritten by ``edit``: a 200 that
    keeps the node's ``X-`` headers."""
    await response.aread()
    body = edit(json.loads(response.content))
    headers = {k: v for k, v in response.headers.items() if k.lower().startswith("x-")}
    return httpx.Response(200, json=body, headers=headers, request=request)


class FaultyTransport(httpx.AsyncBaseTransport):
    """Forwards to the real node; counts the ``/transactions`` page requests, and at a
    seeded ``rate`` answers 429 (Retry-After 0), 503 or drops the connection instead.

    ``after`` optionally maps (request, number of the page request) to an answer of its
    own (a hard failure, say); ``edit`` may rewrite a page's JSON list on the way back.
    """

    def __init__(
        self,
        *,
        rate: float = 0.0,
        seed: int = 0,
        after: Rewrite | None = None,
        edit: Callable[[list[object]], list[object]] | None = None,
    ) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self._random = random.Random(seed)
        self.rate = rate
        self.after = after
        self.edit = edit
        self.pages = 0
        self.faults = {"429": 0, "503": 0, "drop": 0}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        is_page = request.url.path.endswith("/transactions")
        if is_page:
            self.pages += 1
            if self.after is not None:
                answer = self.after(request, self.pages)
                if answer is not None:
                    return answer
        if self._random.random() < self.rate:
            fault = ("429", "503", "drop")[sum(self.faults.values()) % 3]  # each kind in turn
            self.faults[fault] += 1
            if fault == "drop":
                raise httpx.ConnectError("injected: connection dropped", request=request)
            record = {"message": f"injected {fault}", "error_code": None, "vm_error_code": None}
            headers = {"Retry-After": "0"} if fault == "429" else {}
            return httpx.Response(int(fault), json=record, headers=headers, request=request)
        response = await self._inner.handle_async_request(request)
        if is_page and self.edit is not None:
            return await edited(request, response, self.edit)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def invalid_input(request: httpx.Request) -> httpx.Response:
    """The node's 400 refusal, which is never retried: a hard failure."""
    record = {"message": "injected hard failure", "error_code": "invalid_input"}
    return httpx.Response(400, json=record, request=request)


class KeyedNode:
    """A node that wants ``Authorization: Bearer <key>``: an HTTP proxy on 127.0.0.1 in
    front of ``upstream`` (a node's API root) that answers any other request with a 401 in
    the node's error record. ``passed`` and ``refused`` count the requests; ``seen`` holds
    every Authorization header value received (to show what was sent)."""

    def __init__(self, upstream: str, key: str) -> None:
        self.key = key
        self.passed = 0
        self.refused = 0
        self.seen: set[str] = set()
        target = urllib.parse.urlsplit(upstream)
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self) -> None:
                given = self.headers.get("Authorization")
                with owner._lock:
                    if given is not None:
                        owner.seen.add(given)
                    ok = given == f"Bearer {owner.key}"
                    owner.passed += ok
                    owner.refused += not ok
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                if not ok:
                    record = {"message": "an api key is required", "error_code": None}
                    self._answer(401, [("Content-Type", "application/json")], json.dumps(record))
                    return
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
                try:
                    names = ("Accept", "Content-Type", "User-Agent")
                    sent = {n: self.headers[n] for n in names if self.headers.get(n)}
                    upstream.request(self.command, self.path, body=body, headers=sent)
                    answer = upstream.getresponse()
                    data = answer.read()
                    hop = {"connection", "transfer-encoding", "content-length", "keep-alive"}
                    kept = [(k, v) for k, v in answer.getheaders() if k.lower() not in hop]
                    self._answer(answer.status, kept, data)
                finally:
                    upstream.close()

            def _answer(
                self, status: int, headers: list[tuple[str, str]], body: str | bytes
            ) -> None:
                data = body.encode() if isinstance(body, str) else body
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True

            def do_GET(self) -> None:
                self._forward()

            def do_POST(self) -> None:
                self._forward()

            def log_message(self, format: str, *args: object) -> None:
                pass  # quiet: pytest shows stderr of failing tests

        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{port}{target.path}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> KeyedNode:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


def as_read_back(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as a Parquet reader gets it back: pyarrow reads a categorical column
    without categories (every value missing, as ``fee_payer`` on a chain without fee
    payers) with object categories instead of text ones; nothing else changes."""
    out = frame.copy()
    for name in out.columns:
        dtype = out[name].dtype
        if isinstance(dtype, pd.CategoricalDtype) and len(dtype.categories) == 0:
            out[name] = out[name].cat.set_categories(pd.Index([], dtype=object))
    return out
