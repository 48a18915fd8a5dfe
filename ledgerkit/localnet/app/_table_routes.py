"""Table items, by typed JSON key or by BCS key."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ledgerkit._errors import ErrorCode, InputError
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.app._http import (
    Endpoint,
    NodeState,
    bcs_response,
    blocking,
    endpoint,
    invalid,
    json_response,
    negotiate,
    parse_move_type,
    path_address,
    query_u64,
    read_json,
)
from ledgerkit.types import HexBytes, LedgerMeta

__all__ = ["handlers"]


def _version(request: Request, meta: LedgerMeta) -> int:
    version = query_u64(request, "ledger_version")
    return meta.ledger_version if version is None else version


async def item(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    handle = path_address(request, "table_handle")
    body = await read_json(request, node.config.max_body_bytes)
    if not isinstance(body, dict) or not {"key_type", "value_type", "key"} <= body.keys():
        raise invalid("the body must be an object with key_type, value_type and key")
    key_type = parse_move_type(body["key_type"], "key_type")
    value_type = parse_move_type(body["value_type"], "value_type")
    value, encoded = await blocking(
        node.ledger.reads.table_item,
        handle,
        key_type,
        value_type,
        body["key"],
        _version(request, meta),
    )
    if bcs:
        return bcs_response(encoded, meta)
    return json_response(value, meta)


async def raw_item(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    handle = path_address(request, "table_handle")
    body = await read_json(request, node.config.max_body_bytes)
    if not isinstance(body, dict) or not isinstance(body.get("key"), str):
        raise invalid('the body must be {"key": "0x<hex of the BCS-encoded key>"}')
    try:
        key = bytes(HexBytes.parse(body["key"]))
    except InputError as exc:
        raise invalid(f"key: {exc}") from None
    if "bcs" in node.config.disabled:  # the answer is BCS whatever the client accepts
        raise NodeError(ErrorCode.API_DISABLED, "BCS output is disabled on this node")
    value = await blocking(node.ledger.reads.raw_table_item, handle, key, _version(request, meta))
    return bcs_response(value, meta)


def handlers() -> dict[str, Endpoint]:
    """This module's handlers, by operation id of the endpoint table."""
    return {
        "get_table_item": endpoint("tables", item),
        "get_raw_table_item": endpoint("tables", raw_item),
    }
