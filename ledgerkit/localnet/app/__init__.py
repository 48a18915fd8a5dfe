"""The embedded node's HTTP app: an app factory and one module per REST tag.

``create_app(ledger)`` returns a Starlette app serving the node API under ``/v1``.
Handlers are small; the ledger (``ledgerkit.localnet._ledger.Ledger``) does the work,
and every answer, errors included, carries the ``X-NODE-*`` headers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, Router

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
from ledgerkit.localnet.app._http import NodeState, endpoint, error_response

__all__ = ["create_app"]


def create_app(ledger: Any, *, on_submit: Callable[[], None] | None = None) -> Starlette:
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
        if status == 404:
            message = f"no such endpoint: {request.method} {request.url.path}"
        elif status == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        else:
            message = str(getattr(exc, "detail", "")) or "request refused"
        error = NodeError(ErrorCode.WEB_FRAMEWORK_ERROR, message, status=status)
        node: NodeState = request.app.state.node
        return error_response(error, node.ledger.meta())

    # No trailing-slash redirects: a bare 307 would carry neither the ledger headers nor
    # the error record. ``/v1`` itself is the ledger info, as ``/v1/`` is.
    api = Router(routes=routes, redirect_slashes=False)
    app = Starlette(
        routes=[
            Route("/v1", endpoint(None, _general.index), methods=["GET"]),
            Mount("/v1", app=api),
        ],
        exception_handlers={HTTPException: http_error},
    )
    app.router.redirect_slashes = False
    app.state.node = NodeState(ledger, on_submit)
    return app
