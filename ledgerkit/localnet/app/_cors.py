"""Cross-origin requests, answered as public nodes answer them.

The request's ``Origin`` is echoed back (never ``*``: browser clients send credentials),
with ``Access-Control-Allow-Credentials: true`` and ``Vary: Origin``. A preflight for GET
or POST is granted for any request header and cached for a day; one for any other method
is refused with 403 and the node's error record. ``Access-Control-Expose-Headers`` lists
the ledger headers of both families so that browser code can read them: ledgerkit's own
addition, public nodes do not send it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.app._http import HEADER_FAMILIES, error_response, meta_headers
from ledgerkit.types import LedgerMeta

__all__ = ["ALLOWED_METHODS", "EXPOSED_HEADERS", "MAX_AGE_SECONDS", "CorsMiddleware"]

#: Methods a cross-origin request may use.
ALLOWED_METHODS: Final = ("GET", "POST")
#: How long a browser may cache a granted preflight.
MAX_AGE_SECONDS: Final = 86400
_METADATA: Final = (
    "CHAIN-ID",
    "LEDGER-VERSION",
    "LEDGER-OLDEST-VERSION",
    "LEDGER-TIMESTAMPUSEC",
    "EPOCH",
    "BLOCK-HEIGHT",
    "OLDEST-BLOCK-HEIGHT",
    "GAS-USED",
    "CURSOR",
    "TXN-ENCRYPTION-KEY",
)
#: The response headers browser code may read: the ledger position in both families.
EXPOSED_HEADERS: Final = tuple(prefix + name for prefix in HEADER_FAMILIES for name in _METADATA)


class CorsMiddleware:
    """ASGI middleware: answers preflights itself and marks every other answer.

    Parameters
    ----------
    app : ASGI app
        The node API.
    meta : callable
        The ledger position now, for the headers of the answers made here.
    """

    def __init__(self, app: ASGIApp, *, meta: Callable[[], LedgerMeta]) -> None:
        self.app = app
        self.meta = meta

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if (
            scope["method"] == "OPTIONS"
            and origin is not None
            and "access-control-request-method" in headers
        ):
            await self._preflight(origin, headers)(scope, receive, send)
            return

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                mark(MutableHeaders(scope=message), origin)
            await send(message)

        await self.app(scope, receive, marked)

    def _preflight(self, origin: str, headers: Headers) -> Response:
        method = headers["access-control-request-method"].strip().upper()
        if method not in ALLOWED_METHODS:
            refusal = NodeError(
                ErrorCode.WEB_FRAMEWORK_ERROR,
                f"cross-origin {method or 'requests'} requests are not allowed; "
                f"allowed: {', '.join(ALLOWED_METHODS)}",
                status=403,
            )
            response = error_response(refusal, self.meta())
            response.headers["Vary"] = "Origin"
            return response
        response = Response(status_code=200, headers=meta_headers(self.meta()))
        granted = response.headers
        mark(granted, origin)
        granted["Access-Control-Allow-Methods"] = ", ".join(ALLOWED_METHODS)
        granted["Access-Control-Max-Age"] = str(MAX_AGE_SECONDS)
        asked = headers.get("access-control-request-headers")
        if asked:
            granted["Access-Control-Allow-Headers"] = asked
        granted.add_vary_header("Access-Control-Request-Method")
        granted.add_vary_header("Access-Control-Request-Headers")
        return response


def mark(headers: MutableHeaders, origin: str | None) -> None:
    """Add the CORS headers of an answer to a request from ``origin`` (none: only Vary)."""
    headers.add_vary_header("Origin")
    if origin is None:
        return
    headers["Access-Control-Allow-Origin"] = origin
    headers["Access-Control-Allow-Credentials"] = "true"
    headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED_HEADERS)
