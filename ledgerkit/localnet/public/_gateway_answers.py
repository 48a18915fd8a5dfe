"""What the public profile's gateways share: who is calling, what a request costs, and
the error records they answer with before a request reaches the node.

A gateway's own answers (401, 429, 503 ``overloaded``, 400 for a chunked body) carry the
node's error record but no ledger headers: public gateways and a node's admission layer
answer them before any ledger is read.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

import orjson
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.routing import compile_path
from starlette.types import Scope

from ledgerkit._endpoints import SERVICES, operations_of

__all__ = [
    "OVERLOADED",
    "UNAUTHORIZED",
    "Bearer",
    "caller_address",
    "gateway_answer",
    "is_page_read",
    "request_cost",
]

#: ``error_code`` of a request shed under load (aptos-core's memory admission; outside the
#: spec's list of codes).
OVERLOADED: Final = "overloaded"
#: ``error_code`` of a refused API key. The public gateway's own code is not published;
#: this one is the profile's, outside the spec's list, so clients go by the status.
UNAUTHORIZED: Final = "unauthorized"

_BASE: Final = SERVICES["node"].base_path
#: Paths of the list endpoints (a GET answering an array): the page reads.
_PAGE_PATHS: Final = tuple(
    compile_path(_BASE + op.path)[0]
    for op in operations_of("node")
    if op.method == "GET" and op.answer.startswith("[")
)
_BEARER: Final = re.compile(r"Bearer[ \t]+(\S+)[ \t]*", re.IGNORECASE)


def is_page_read(method: str, path: str) -> bool:
    """Whether ``method path`` lists a page (transactions, events, resources...)."""
    return method == "GET" and any(pattern.match(path) for pattern in _PAGE_PATHS)


def request_cost(scope: Scope, page_cost: int) -> int:
    """Compute units a request costs: ``page_cost`` for a page read, else 1."""
    return page_cost if is_page_read(scope["method"], scope["path"]) else 1


def caller_address(scope: Scope) -> str:
    """The client address a request came from (its host, without the port)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class Bearer:
    """The ``Authorization`` a request carries: no header, a bearer key, or something else.

    Attributes
    ----------
    present : bool
        The request has an ``Authorization`` header.
    key : str or None
        The bearer key, when there is exactly one well-formed ``Bearer`` header.
    """

    __slots__ = ("key", "present")

    def __init__(self, scope: Scope) -> None:
        values = Headers(scope=scope).getlist("authorization")
        self.present = bool(values)
        found = _BEARER.fullmatch(values[0]) if len(values) == 1 else None
        self.key = found[1] if found else None

    def caller(self) -> str:
        """A name of the key to meter it by, which is not the key itself."""
        digest = hashlib.sha256((self.key or "").encode()).hexdigest()
        return f"key:{digest[:16]}"

    def __repr__(self) -> str:  # the key stays out of reprs
        return f"Bearer(present={self.present})"


def gateway_answer(
    status: int, code: str, message: str, *, headers: dict[str, str] | None = None
) -> Response:
    """The node's error record ``{message, error_code}`` with ``status``."""
    body = orjson.dumps({"message": message, "error_code": code})
    return Response(body, status_code=status, media_type="application/json", headers=headers)
