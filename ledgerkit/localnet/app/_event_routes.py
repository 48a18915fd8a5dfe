"""Event streams: by creation number, and by the struct and field that hold the handle."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from ledgerkit.localnet.app._http import (
    Endpoint,
    NodeState,
    endpoint,
    invalid,
    json_response,
    negotiate,
    path_address,
    path_struct_tag,
    path_u64,
    query_limit,
    query_u64,
)
from ledgerkit.localnet.app._request_limits import echo
from ledgerkit.types import LedgerMeta, is_identifier

__all__ = ["handlers"]

EVENT_PAGE: Final = 25
EVENT_PAGE_MAX: Final = 100


async def by_creation_number(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    address = path_address(request)
    creation_number = path_u64(request, "creation_number")
    start = query_u64(request, "start")
    limit = query_limit(request, default=EVENT_PAGE, maximum=EVENT_PAGE_MAX)
    events = node.ledger.reads.events_by_creation_number(address, creation_number, start, limit)
    return json_response(events, meta)


async def by_handle(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    address = path_address(request)
    handle = path_struct_tag(request, "event_handle")
    field_name = request.path_params["field_name"]
    if not is_identifier(field_name):
        raise invalid(f"{echo(field_name)} is not a field name")
    start = query_u64(request, "start")
    limit = query_limit(request, default=EVENT_PAGE, maximum=EVENT_PAGE_MAX)
    events = node.ledger.reads.events_by_handle(address, handle, field_name, start, limit)
    return json_response(events, meta)


def handlers() -> dict[str, Endpoint]:
    """This module's handlers, by operation id of the endpoint table."""
    return {
        "get_events_by_creation_number": endpoint("events", by_creation_number),
        "get_events_by_event_handle": endpoint("events", by_handle),
    }
