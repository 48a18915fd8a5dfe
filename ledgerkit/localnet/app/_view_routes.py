"""View functions and the gas price estimate."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ledgerkit._errors import BCSError, InputError
from ledgerkit.bcs import EntryFunction, Serializer
from ledgerkit.localnet.app._http import (
    VIEW_BCS,
    Endpoint,
    NodeState,
    bcs_response,
    blocking,
    content_type,
    endpoint,
    invalid,
    json_response,
    negotiate,
    parse_move_type,
    query_u64,
    read_body,
    read_json,
)
from ledgerkit.types import EntryFunctionId, LedgerMeta

__all__ = ["handlers"]


async def view(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    version = query_u64(request, "ledger_version")
    version = meta.ledger_version if version is None else version
    if content_type(request) == VIEW_BCS:
        body = await read_body(request, node.config.max_body_bytes)
        try:
            payload = await blocking(EntryFunction.from_bcs, body)
        except BCSError as exc:
            raise invalid(f"the body is not a BCS view request: {exc}") from None
        result = await blocking(
            node.ledger.views.view_function,
            payload.function_id,
            list(payload.type_args),
            list(payload.args),
            version,
            bcs_args=True,
        )
    else:
        request_body = await read_json(request, node.config.max_body_bytes)
        function, type_args, args = _parse_view_request(request_body)
        result = await blocking(
            node.ledger.views.view_function, function, type_args, args, version, bcs_args=False
        )
    headed = replace(meta, gas_used=result.gas_used)
    if bcs:
        return bcs_response(result.encoded, headed)
    return json_response(result.values, headed)


def _parse_view_request(body: Any) -> tuple[EntryFunctionId, list[Any], list[Any]]:
    if not isinstance(body, dict):
        raise invalid("the body must be an object with function, type_arguments and arguments")
    missing = {"function", "type_arguments", "arguments"} - body.keys()
    if missing:
        raise invalid(f"the view request lacks {sorted(missing)}")
    try:
        function = EntryFunctionId.parse(body["function"])
    except InputError as exc:
        raise invalid(f"function: {exc}") from None
    if not isinstance(body["type_arguments"], list) or not isinstance(body["arguments"], list):
        raise invalid("type_arguments and arguments must be arrays")
    types = [parse_move_type(t, "type argument") for t in body["type_arguments"]]
    return function, types, body["arguments"]


async def estimate_gas_price(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    estimate = node.ledger.estimate_gas_price()
    if bcs:
        s = Serializer()
        s.u64(estimate["gas_estimate"])
        return bcs_response(s.output(), meta)
    return json_response(estimate, meta)


def handlers() -> dict[str, Endpoint]:
    """This module's handlers, by operation id of the endpoint table."""
    return {
        "view": endpoint("view", view),
        "estimate_gas_price": endpoint("gas", estimate_gas_price),
    }
