"""What every endpoint shares: metadata headers, JSON and BCS responses, content
negotiation, the error record, parameter parsing and body limits."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

import orjson
from starlette.requests import Request
from starlette.responses import Response

from ledgerkit._errors import ErrorCode, InputError
from ledgerkit.localnet._errors import NodeError
from ledgerkit.types import Address, LedgerMeta, MoveType, StructTag, parse_uint

__all__ = [
    "BCS",
    "JSON",
    "Endpoint",
    "NodeState",
    "bcs_response",
    "endpoint",
    "error_response",
    "json_response",
    "negotiate",
    "path_address",
    "path_struct_tag",
    "path_u64",
    "query_bool",
    "query_limit",
    "query_u64",
    "read_body",
    "read_json",
    "wants_bcs",
]

JSON: Final = "application/json"
BCS: Final = "application/x-bcs"
SIGNED_TXN_BCS: Final = "application/x.aptos.signed_transaction+bcs"
VIEW_BCS: Final = "application/x.aptos.view_function+bcs"

Endpoint = Callable[[Request], Awaitable[Response]]


class NodeState:
    """What the app needs from its host: the ledger and a nudge for the block producer."""

    def __init__(self, ledger: Any, on_submit: Callable[[], None] | None = None) -> None:
        self.ledger = ledger
        self.on_submit = on_submit or (lambda: None)
        self.config = ledger.config


def state_of(request: Request) -> NodeState:
    state: NodeState = request.app.state.node
    return state


Handler = Callable[[Request, NodeState, LedgerMeta], Awaitable[Response]]
_log = logging.getLogger("ledgerkit.localnet")


def endpoint(group: str | None, handler: Handler) -> Endpoint:
    """Wrap a handler: switched-off groups answer 403, errors become the error record.

    The handler gets the ledger position the request is answered at; it passes
    ``meta.ledger_version`` down for "latest" so data and headers agree.
    """

    async def run(request: Request) -> Response:
        node = state_of(request)
        meta: LedgerMeta | None = None
        try:
            meta = node.ledger.meta()
            if group is not None and group in node.config.disabled:
                raise NodeError(ErrorCode.API_DISABLED, f"the {group} API is disabled on this node")
            assert meta is not None
            return await handler(request, node, meta)
        except NodeError as error:
            return error_response(error, meta)
        except Exception:  # the node must answer with its record, never a bare 500 page
            _log.exception("internal error answering %s %s", request.method, request.url.path)
            internal = NodeError(ErrorCode.INTERNAL_ERROR, "internal error; see the node's log")
            return error_response(internal, meta)

    return run


def _headers(meta: LedgerMeta | None) -> dict[str, str]:
    return meta.to_headers() if meta is not None else {}


def json_response(
    body: Any, meta: LedgerMeta | None, *, status: int = 200, raw: bytes | None = None
) -> Response:
    """A JSON response with the ledger headers; ``raw`` is already-serialized JSON."""
    content = raw if raw is not None else orjson.dumps(body)
    return Response(content, status_code=status, media_type=JSON, headers=_headers(meta))


def bcs_response(body: bytes, meta: LedgerMeta | None, *, status: int = 200) -> Response:
    """A BCS response with the ledger headers."""
    return Response(body, status_code=status, media_type=BCS, headers=_headers(meta))


def error_response(error: NodeError, meta: LedgerMeta | None) -> Response:
    """The node's error record, with whatever ledger headers are known."""
    return Response(
        orjson.dumps(error.record()),
        status_code=error.status,
        media_type=JSON,
        headers=_headers(meta),
    )


def wants_bcs(request: Request) -> bool:
    """True when the Accept list names BCS before JSON (anything else means JSON)."""
    accept = request.headers.get("accept")
    if not accept:
        return False
    for part in accept.split(","):
        media = part.split(";", 1)[0].strip().lower()
        if media == JSON:
            return False
        if media == BCS:
            return True
    return False


# -- parameters -----------------------------------------------------------------------------


def invalid(message: str) -> NodeError:
    return NodeError(ErrorCode.INVALID_INPUT, message)


def path_address(request: Request, name: str = "address") -> Address:
    text = request.path_params[name]
    try:
        return Address.parse(text)
    except InputError as exc:
        raise invalid(f"invalid {name} {text!r}: {exc}") from None


def path_u64(request: Request, name: str) -> int:
    text = request.path_params[name]
    try:
        return parse_uint(text, 64, what=name)
    except InputError as exc:
        raise invalid(str(exc)) from None


def path_struct_tag(request: Request, name: str) -> StructTag:
    text = request.path_params[name]
    try:
        return StructTag.parse(text)
    except InputError as exc:
        raise invalid(f"invalid struct tag {text!r}: {exc}") from None


def parse_move_type(text: object, what: str) -> MoveType:
    if not isinstance(text, str):
        raise invalid(f"{what} must be a Move type string, got {type(text).__name__}")
    try:
        return MoveType.parse(text)
    except InputError as exc:
        raise invalid(f"invalid {what} {text!r}: {exc}") from None


def query_u64(request: Request, name: str) -> int | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    try:
        return parse_uint(text, 64, what=name)
    except InputError as exc:
        raise invalid(str(exc)) from None


def query_bool(request: Request, name: str) -> bool:
    text = request.query_params.get(name)
    if text is None:
        return False
    lowered = text.lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    raise NodeError(
        ErrorCode.WEB_FRAMEWORK_ERROR, f"query parameter {name} must be true or false, got {text!r}"
    )


def query_limit(request: Request, *, default: int, maximum: int) -> int:
    """The page size: a u16, not zero; larger than the maximum is clamped to it."""
    text = request.query_params.get("limit")
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) > 0xFFFF:
        raise NodeError(
            ErrorCode.WEB_FRAMEWORK_ERROR, f"limit must be an integer from 1 to 65535, got {text!r}"
        )
    value = int(text)
    if value == 0:
        raise invalid("limit must not be zero")
    return min(value, maximum)


# -- bodies ---------------------------------------------------------------------------------


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 past ``limit`` bytes (declared or streamed)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(limit: int) -> NodeError:
    return NodeError(
        ErrorCode.WEB_FRAMEWORK_ERROR,
        f"request body larger than the limit of {limit} bytes",
        status=413,
    )


def content_type(request: Request) -> str:
    return request.headers.get("content-type", JSON).split(";", 1)[0].strip().lower()


async def read_json(request: Request, limit: int) -> Any:
    """A JSON request body; anything else is a 400 that says what was wrong."""
    body = await read_body(request, limit)
    kind = content_type(request)
    if kind != JSON:
        raise NodeError(
            ErrorCode.WEB_FRAMEWORK_ERROR,
            f"this endpoint takes {JSON} bodies, not {kind!r}",
        )
    if not body:
        raise invalid("the request body is empty; a JSON body is required")
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise invalid(f"the body is not valid JSON: {exc}") from None


def negotiate(request: Request, node: NodeState, *, bcs_supported: bool) -> bool:
    """True to answer in BCS. Refuses what this endpoint or node does not serve."""
    bcs = wants_bcs(request)
    if bcs and not bcs_supported:
        raise NodeError(ErrorCode.BCS_NOT_SUPPORTED, "this endpoint does not answer in BCS")
    if bcs and "bcs" in node.config.disabled:
        raise NodeError(ErrorCode.API_DISABLED, "BCS output is disabled on this node")
    if not bcs and "json" in node.config.disabled:
        raise NodeError(ErrorCode.API_DISABLED, "JSON output is disabled on this node")
    return bcs
