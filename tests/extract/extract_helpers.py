"""What the extraction tests share: the size of the session node's chain, and an httpx
transport in front of the node that counts requests and injects faults."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import httpx

#: 120 blocks of seed 7 (the ``node`` fixture of conftest.py): versions 0..913, heights 0..120.
VERSIONS = 914


Rewrite = Callable[[httpx.Request, int], httpx.Response | None]


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
            await response.aread()
            body = self.edit(json.loads(response.content))
            headers = {k: v for k, v in response.headers.items() if k.lower().startswith("x-")}
            return httpx.Response(200, json=body, headers=headers, request=request)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def invalid_input(request: httpx.Request) -> httpx.Response:
    """The node's 400 refusal, which is never retried: a hard failure."""
    record = {"message": "injected hard failure", "error_code": "invalid_input"}
    return httpx.Response(400, json=record, request=request)
