"""The public fullnode's gateway: API keys, compute units, load shedding, chunked bodies,
and the archive's address on pruned answers.

:class:`FullnodeGateway` is ASGI middleware inside the node's CORS layer (so browsers can
read its answers, and preflights cost nothing). A request goes through, in order:

1. its key: an ``Authorization`` other than ``Bearer <the node's key>`` answers 401;
2. the meter: the request costs ``page_cost`` units (a page read) or 1, charged to the
   key or to the client address; past the budget it answers 429 with ``Retry-After``;
3. load shedding: ``overload_rate`` of the requests answer 503 ``overloaded``, drawn
   from a seeded generator (the health check is exempt, as on real nodes);
4. a POST carrying ``Transfer-Encoding`` answers 400, as real nodes refuse chunked bodies;
5. the node; a 410 ``version_pruned`` / ``block_pruned`` record it answers gains the
   public gateway's ``hint``, ``oldest_ledger_version`` and ``archival_endpoint``.
"""

from __future__ import annotations

import hmac
import random
import threading
from typing import Final

import orjson
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet.public._compute_meter import ComputeMeter
from ledgerkit.localnet.public._gateway_answers import (
    OVERLOADED,
    UNAUTHORIZED,
    Bearer,
    caller_address,
    gateway_answer,
    request_cost,
)
from ledgerkit.localnet.public._public_settings import PublicSettings

__all__ = ["PRUNED_CODES", "FullnodeGateway"]

#: Error codes whose 410 record gains the archive's address.
PRUNED_CODES: Final = frozenset({ErrorCode.VERSION_PRUNED.value, ErrorCode.BLOCK_PRUNED.value})
_HEALTH_SUFFIX: Final = "/-/healthy"
_OLDEST_HEADER: Final = "x-aptos-ledger-oldest-version"


class FullnodeGateway:
    """ASGI middleware: the public gateway in front of the pruned fullnode.

    Parameters
    ----------
    app : ASGI app
        The node API.
    settings : PublicSettings
        Budgets, window, page cost and overload rate.
    api_key : str
        The key the node issues (sent as ``Authorization: Bearer <key>``).
    archive_url : str
        The archive's ``/v1`` URL, named in pruned answers.
    seed : int
        Seed of the overload draws.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        settings: PublicSettings,
        api_key: str,
        archive_url: str,
        seed: int,
    ) -> None:
        self.app = app
        self._settings = settings
        self._key = api_key.encode()
        self._archive_url = archive_url
        self._meter = ComputeMeter(
            window_seconds=settings.window_seconds, max_callers=settings.max_callers
        )
        self._draws = random.Random(seed)
        self._draw_lock = threading.Lock()

    def __repr__(self) -> str:  # the key stays out of reprs
        return f"FullnodeGateway(archive_url={self._archive_url!r})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        settings = self._settings
        bearer = Bearer(scope)
        if bearer.present:
            key = bearer.key
            if key is None or not hmac.compare_digest(key.encode(), self._key):
                answer = gateway_answer(401, UNAUTHORIZED, "Unauthorized: API key not found")
                await answer(scope, receive, send)
                return
            caller, budget = bearer.caller(), settings.key_budget
        else:
            caller, budget = caller_address(scope), settings.budget
        cost = request_cost(scope, settings.page_cost)
        wait = self._meter.charge(caller, cost=cost, budget=budget)
        if wait is not None:
            message = (
                f"Rate limit exceeded: {budget} compute units per {settings.window_seconds:g} s "
                f"are spent; retry in {wait} s"
                + ("" if bearer.present else ", or send an API key for a larger budget")
            )
            answer = gateway_answer(
                429, ErrorCode.RATE_LIMITED.value, message, headers={"Retry-After": str(wait)}
            )
            await answer(scope, receive, send)
            return
        if self._shed(scope):
            message = "Server is shedding load; please retry shortly"
            await gateway_answer(503, OVERLOADED, message)(scope, receive, send)
            return
        if scope["method"] == "POST" and "transfer-encoding" in Headers(scope=scope):
            message = "Transfer-Encoding is not supported"
            answer = gateway_answer(400, ErrorCode.WEB_FRAMEWORK_ERROR.value, message)
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, self._pruned_hint(send))

    def _shed(self, scope: Scope) -> bool:
        """Whether this request is shed: one draw per request, in arrival order."""
        rate = self._settings.overload_rate
        if rate <= 0.0 or str(scope["path"]).endswith(_HEALTH_SUFFIX):
            return False
        with self._draw_lock:
            return self._draws.random() < rate

    def _pruned_hint(self, send: Send) -> Send:
        """``send``, adding the archive's address to a 410 pruned record on the way."""
        start: Message | None = None
        chunks: list[bytes] = []

        async def relay(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start" and message["status"] == 410:
                start = message
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            headers = MutableHeaders(raw=list(start["headers"]))
            body = self._with_archive(b"".join(chunks), headers.get(_OLDEST_HEADER))
            headers["content-length"] = str(len(body))
            await send({**start, "headers": headers.raw})
            await send({"type": "http.response.body", "body": body})

        return relay

    def _with_archive(self, body: bytes, oldest: str | None) -> bytes:
        try:
            record = orjson.loads(body)
        except orjson.JSONDecodeError:
            return body
        if not isinstance(record, dict) or record.get("error_code") not in PRUNED_CODES:
            return body
        where = f" (versions from {oldest})" if oldest is not None else ""
        record["hint"] = (
            f"This fullnode keeps only recent history{where}; older data is served by the "
            f"archive at {self._archive_url}, without this node's API key."
        )
        if oldest is not None:
            record["oldest_ledger_version"] = oldest
        record["archival_endpoint"] = self._archive_url
        return orjson.dumps(record)
