"""The archive's front: anonymous reads only, and a record of every request received.

Real archive nodes sit at another origin than the fullnode; an API key issued for the
fullnode's origin is refused there with 401, and anonymous reads are served. The archive
knows no keys at all, so any ``Authorization`` answers 401. Its record,
:class:`RequestLog`, lets tests see what a client sent there (which headers, which key).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet.public._compute_meter import ComputeMeter
from ledgerkit.localnet.public._gateway_answers import (
    UNAUTHORIZED,
    Bearer,
    caller_address,
    gateway_answer,
    request_cost,
)
from ledgerkit.localnet.public._public_settings import PublicSettings

__all__ = ["ArchiveGate", "ReceivedRequest", "RequestLog"]

#: ``(method, path and query, headers with lower-case names)``.
ReceivedRequest = tuple[str, str, dict[str, str]]
_MAX_TARGET_CHARS: Final = 8_192


class RequestLog:
    """The newest ``maxlen`` requests received, safe to read from any thread."""

    def __init__(self, maxlen: int) -> None:
        self._items: deque[ReceivedRequest] = deque(maxlen=maxlen)
        self._lock = threading.Lock()

    def record(self, scope: Scope) -> None:
        """Keep ``scope``'s method, path and query, and headers (names lower-cased; a
        repeated header's values joined by ``", "``)."""
        target = scope.get("raw_path") or scope["path"].encode()
        if scope.get("query_string"):
            target += b"?" + scope["query_string"]
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope["headers"]:
            name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        text = target.decode("latin-1")[:_MAX_TARGET_CHARS]
        with self._lock:
            self._items.append((scope["method"], text, headers))

    def snapshot(self) -> list[ReceivedRequest]:
        """The requests kept, oldest first."""
        with self._lock:
            return list(self._items)


class ArchiveGate:
    """ASGI middleware in front of the archive: records, refuses keys, meters if asked.

    Parameters
    ----------
    app : ASGI app
        The node API over the whole history.
    settings : PublicSettings
        ``archive_budget`` (with ``window_seconds`` and ``page_cost``) when the archive
        is metered.
    received : RequestLog
        Where each request is recorded.
    """

    def __init__(self, app: ASGIApp, *, settings: PublicSettings, received: RequestLog) -> None:
        self.app = app
        self._settings = settings
        self.received = received
        self._meter = (
            None
            if settings.archive_budget is None
            else ComputeMeter(
                window_seconds=settings.window_seconds, max_callers=settings.max_callers
            )
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.received.record(scope)
        if Bearer(scope).present:
            answer = gateway_answer(401, UNAUTHORIZED, "Unauthorized: API key not found")
            await answer(scope, receive, send)
            return
        budget = self._settings.archive_budget
        if self._meter is not None and budget is not None:
            cost = request_cost(scope, self._settings.page_cost)
            wait = self._meter.charge(caller_address(scope), cost=cost, budget=budget)
            if wait is not None:
                message = f"Rate limit exceeded: retry in {wait} s"
                headers = {"Retry-After": str(wait)}
                answer = gateway_answer(429, ErrorCode.RATE_LIMITED.value, message, headers=headers)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)
