"""The embedded node's HTTP app: an app factory and one module per REST tag.

``create_app(ledger)`` returns a Starlette app serving the node API under ``/v1``.
Handlers are small; the ledger (``ledgerkit.localnet._ledger.Ledger``) does the work,
and every answer, errors included, carries the ``X-NODE-*`` headers and their
``X-APTOS-*`` twins. Cross-origin requests are answered as public nodes answer them
(see ``_cors``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, Router

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet._errors import NodeError
from ledgerkit.localnet.app import (
    _accounts,
    _blocks,
    _events,
    _general,
    _tables,
    _transactions,
    _view,
)
from ledgerkit.localnet.app._cors import CorsMiddleware
from ledgerkit.localnet.app._http import NodeState, endpoint, error_response
from ledgerkit.localnet.app._ledger import AppLedger

__all__ = ["create_app"]


def create_app(ledger: AppLedger, *, on_submit: Callable[[], None] | None = None) -> Starlette:
    """The node API over ``ledger``, under ``/v1``.

    ``on_submit`` is called after each accepted submission (the block producer uses it
    to make the next block promptly).
    """
    routes = [
        *_general.routes(),
        *_accounts.routes(),
        *_events.routes(),
        *_transactions.routes(),
        *_tables.routes(),
        *_view.routes(),
        *_blocks.routes(),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        path = request.url.path  # a long one is cut with the whole message
        allow = ""
        if status == 404:
            message = f"no such endpoint: {request.method} {path}"
        elif status == 405:
            allow = ", ".join(_methods_at(routes, request.url.path))
            message = f"{request.method} is not allowed on {path}; allowed: {allow}"
        else:
            message = str(getattr(exc, "detail", "")) or "request refused"
        error = NodeError(ErrorCode.WEB_FRAMEWORK_ERROR, message, status=status)
        node: NodeState = request.app.state.node
        response = error_response(error, node.ledger.meta())
        if allow:
            response.headers["Allow"] = allow
        return response

    # No trailing-slash redirects: a bare 307 would carry neither the ledger headers nor
    # the error record. ``/v1`` itself is the ledger info, as ``/v1/`` is.
    api = Router(routes=routes, redirect_slashes=False)
    app = Starlette(
        routes=[
            Route("/v1", endpoint(None, _general.index), methods=["GET"]),
            Mount("/v1", app=api),
        ],
        exception_handlers={HTTPException: http_error},
        middleware=[Middleware(CorsMiddleware, meta=ledger.meta)],
    )
    app.router.redirect_slashes = False
    app.state.node = NodeState(ledger, on_submit)
    return app


def _methods_at(routes: Sequence[BaseRoute], path: str) -> list[str]:
    """Every method some route serves at ``path`` (under ``/v1``), for ``Allow``."""
    inner = path.removeprefix("/v1") or "/"
    methods: set[str] = set()
    for route in routes:
        if isinstance(route, Route) and route.methods and route.path_regex.match(inner):
            methods |= route.methods
    return sorted(methods)
