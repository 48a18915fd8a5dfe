"""What every endpoint shares: metadata headers, JSON and BCS responses, content
negotiation, the error record, parameter parsing and body limits.

Every answer carries the ledger position twice: as the spec's ``X-NODE-*`` headers and
as the ``X-APTOS-*`` twins public nodes send, which their clients read.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ledgerkit._errors import ErrorCode, InputError
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.app._ledger_protocol import AppLedger
from ledgerkit.localnet.app._request_limits import ShapeError, check_json_shape, cut_message, echo
from ledgerkit.types import Address, LedgerMeta, MoveType, StructTag, parse_uint

__all__ = [
    "BCS",
    "HEADER_FAMILIES",
    "JSON",
    "Endpoint",
    "NodeState",
    "bcs_response",
    "blocking",
    "endpoint",
    "error_response",
    "json_response",
    "meta_headers",
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
T = TypeVar("T")

#: Header prefixes of the ledger position: the spec's, then public nodes' twins.
HEADER_FAMILIES: Final = ("X-NODE-", "X-APTOS-")

#: Run a blocking call (decoding, encoding, executing, large reads) in a worker thread,
#: so that one heavy request does not hold up every other client of the node.
blocking = run_in_threadpool


class NodeState:
    """What the app needs from its host: the ledger and a nudge for the block producer."""

    def __init__(self, ledger: AppLedger, on_submit: Callable[[], None] | None = None) -> None:
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


def meta_headers(meta: LedgerMeta | None) -> dict[str, str]:
    """The ledger position in both header families; none when it is not known."""
    if meta is None:
        return {}
    headers: dict[str, str] = {}
    for prefix in HEADER_FAMILIES:
        headers |= meta.to_headers(prefix)
    return headers


def json_response(
    body: Any, meta: LedgerMeta | None, *, status: int = 200, raw: bytes | None = None
) -> Response:
    """A JSON response with the ledger headers; ``raw`` is already-serialized JSON."""
    content = raw if raw is not None else orjson.dumps(body)
    return Response(content, status_code=status, media_type=JSON, headers=meta_headers(meta))


def bcs_response(body: bytes, meta: LedgerMeta | None, *, status: int = 200) -> Response:
    """A BCS response with the ledger headers."""
    return Response(body, status_code=status, media_type=BCS, headers=meta_headers(meta))


def error_response(error: NodeError, meta: LedgerMeta | None) -> Response:
    """The node's error record, with whatever ledger headers are known; a message longer
    than ``MAX_MESSAGE_CHARS`` is cut."""
    record = error.record()
    record["message"] = cut_message(error.message)
    return Response(
        orjson.dumps(record),
        status_code=error.status,
        media_type=JSON,
        headers=meta_headers(meta),
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


def _parsed(text: str, parse: Callable[[str], T], what: str) -> T:
    """``parse(text)``; a refusal quotes the text and names it ``what``."""
    try:
        return parse(text)
    except InputError as exc:
        raise invalid(f"invalid {what} {echo(text)}: {exc}") from None


def _u64(text: str, name: str) -> int:
    try:
        return parse_uint(text, 64, what=name)
    except InputError as exc:
        raise invalid(str(exc)) from None


def path_address(request: Request, name: str = "address") -> Address:
    return _parsed(request.path_params[name], Address.parse, name)


def path_u64(request: Request, name: str) -> int:
    return _u64(request.path_params[name], name)


def path_struct_tag(request: Request, name: str) -> StructTag:
    return _parsed(request.path_params[name], StructTag.parse, "struct tag")


def parse_move_type(text: object, what: str) -> MoveType:
    if not isinstance(text, str):
        raise invalid(f"{what} must be a Move type string, got {type(text).__name__}")
    return _parsed(text, MoveType.parse, what)


def query_u64(request: Request, name: str) -> int | None:
    text = request.query_params.get(name)
    return None if text is None else _u64(text, name)


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
        ErrorCode.WEB_FRAMEWORK_ERROR,
        f"query parameter {name} must be true or false, got {echo(text)}",
    )


def query_limit(request: Request, *, default: int, maximum: int) -> int:
    """The page size: a u16, not zero; larger than the maximum is clamped to it.

    The digits are counted before any conversion: Python refuses (with ``ValueError``) to
    turn more than 4,300 digits into an int, and a u16 never needs more than five.
    """
    text = request.query_params.get("limit")
    if text is None:
        return default
    digits = text.lstrip("0") or "0"
    if not (text.isascii() and text.isdigit()) or len(digits) > 5 or int(digits) > 0xFFFF:
        raise invalid(f"limit must be an integer from 1 to 65535, got {echo(text)}")
    value = int(digits)
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
            f"this endpoint takes {JSON} bodies, not {echo(kind)}",
        )
    if not body:
        raise invalid("the request body is empty; a JSON body is required")
    return await blocking(parse_json, body)


def parse_json(body: bytes) -> Any:
    """A JSON body within the node's nesting and size limits, or a 400 that says which."""
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise invalid(f"the body is not valid JSON: {exc}") from None
    try:
        check_json_shape(value)
    except ShapeError as exc:
        raise invalid(str(exc)) from None
    return value


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
