"""The embedded node's HTTP app: an app factory and one module per REST tag.

``create_app(ledger)`` returns a Starlette app serving the node API under ``/v1``. Its
routes are the node's rows of the endpoint table (``ledgerkit._endpoints``), each paired
by operation id with the handler a per-tag module offers (``handlers()``), so a path is
written once, in the table. Handlers are small; the ledger
(``ledgerkit.localnet.ledger.Ledger``) does the work, and every answer, errors
included, carries the ``X-NODE-*`` headers and their ``X-APTOS-*`` twins.
Cross-origin requests are answered as public nodes answer them (see ``_cors``).

* ``_general_routes``, ``_account_routes``, ``_event_routes``, ``_transaction_routes``,
  ``_table_routes``, ``_view_routes``, ``_block_routes``: one module per REST tag;
* ``_http``: what every endpoint shares (metadata headers, responses, negotiation, the
  error record, parameters); ``_request_limits``: how much one request may ask;
* ``_ledger_protocol``: :class:`AppLedger`, what the handlers ask of the ledger;
* ``_cors``: cross-origin requests; ``openapi``: the node's OpenAPI document.

Exports :func:`create_app`, :func:`handlers`, and for the server :func:`meta_headers` and
:data:`MAX_ECHO_CHARS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, Router

from ledgerkit._endpoints import SERVICES, operations_of
from ledgerkit._errors import ErrorCode
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.app import (
    _account_routes,
    _block_routes,
    _event_routes,
    _general_routes,
    _table_routes,
    _transaction_routes,
    _view_routes,
)
from ledgerkit.localnet.app._cors import CorsMiddleware
from ledgerkit.localnet.app._http import Endpoint, NodeState, error_response, meta_headers
from ledgerkit.localnet.app._ledger_protocol import AppLedger
from ledgerkit.localnet.app._request_limits import MAX_ECHO_CHARS

__all__ = ["MAX_ECHO_CHARS", "create_app", "handlers", "meta_headers"]


def handlers() -> dict[str, Endpoint]:
    """Every handler of the node API, by operation id of the endpoint table."""
    return {
        **_general_routes.handlers(),
        **_account_routes.handlers(),
        **_event_routes.handlers(),
        **_transaction_routes.handlers(),
        **_table_routes.handlers(),
        **_view_routes.handlers(),
        **_block_routes.handlers(),
    }


def _routes(by_id: Mapping[str, Endpoint]) -> list[Route]:
    """The node's rows of the endpoint table, each with its handler."""
    rows = operations_of("node")
    unpaired = sorted({op.id for op in rows} ^ set(by_id))
    if unpaired:  # a row without a handler, or a handler without a row
        raise RuntimeError(f"endpoint table and node handlers disagree on {unpaired}")
    return [Route(op.path, by_id[op.id], methods=[op.method]) for op in rows]


def create_app(
    ledger: AppLedger,
    *,
    on_submit: Callable[[], None] | None = None,
    middleware: Sequence[Middleware] = (),
) -> Starlette:
    """The node API over ``ledger``, under ``/v1``.

    ``on_submit`` is called after each accepted submission (the block producer uses it
    to make the next block promptly). ``middleware`` runs inside the CORS layer, in the
    order given (a gateway in front of the node: its answers are marked for browsers,
    and preflights never reach it).
    """
    by_id = handlers()
    routes = _routes(by_id)
    base = SERVICES["node"].base_path

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
    # the error record. ``/v1`` itself is the ledger info, as ``/v1/`` is: the one route
    # beyond the table.
    api = Router(routes=routes, redirect_slashes=False)
    app = Starlette(
        routes=[
            Route(base, by_id["get_ledger_info"], methods=["GET"]),
            Mount(base, app=api),
        ],
        exception_handlers={HTTPException: http_error},
        middleware=[Middleware(CorsMiddleware, meta=ledger.meta), *middleware],
    )
    app.router.redirect_slashes = False
    app.state.node = NodeState(ledger, on_submit)
    return app


def _methods_at(routes: Sequence[BaseRoute], path: str) -> list[str]:
    """Every method some route serves at ``path`` (under ``/v1``), for ``Allow``."""
    inner = path.removeprefix(SERVICES["node"].base_path) or "/"
    methods: set[str] = set()
    for route in routes:
        if isinstance(route, Route) and route.methods and route.path_regex.match(inner):
            methods |= route.methods
    return sorted(methods)
