"""General endpoints: ledger info, health, the node's basic info and the OpenAPI document."""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.app._http import Endpoint, NodeState, endpoint, json_response, negotiate
from ledgerkit.types import LedgerMeta, parse_uint

__all__ = ["NODE_INFO", "handlers"]

#: ``GET /info``: what an aptos-core node answers there (``api/src/basic.rs``: its state
#: sync modes, whether its storage is sharded, its internal indexer's configuration), as
#: a node that makes its chain from genesis and indexes transactions, events and state
#: keys itself would. Validator and fullnode network peer ids, which a node adds per
#: network it runs, are left out: this node joins no network.
NODE_INFO: Final[dict[str, Any]] = {
    "bootstrapping_mode": "ExecuteOrApplyFromGenesis",
    "continuous_syncing_mode": "ExecuteTransactionsOrApplyOutputs",
    "new_storage_format": True,
    "internal_indexer_config": {
        "enable_transaction": True,
        "enable_event": True,
        "enable_event_v2_translation": False,
        "event_v2_translation_ignores_below_version": 0,
        "enable_statekeys": True,
        "batch_size": 10_000,
    },
}


async def index(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    return json_response(node.ledger.index(), meta)


async def healthy(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    text = request.query_params.get("duration_secs")
    duration = None
    if text is not None:
        try:
            duration = parse_uint(text, 32, what="duration_secs")
        except ValueError as exc:
            raise NodeError(ErrorCode.WEB_FRAMEWORK_ERROR, str(exc)) from None
    node.ledger.health(duration, node.ledger.now_usec())
    return json_response({"message": "ledgerkit-localnet:ok"}, meta)


async def info(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    # Like the document, it takes no input and answers JSON whatever is asked.
    return json_response(NODE_INFO, meta)


async def spec_json(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    from ledgerkit.localnet.app.openapi import openapi_document

    return json_response(openapi_document(), meta)


def handlers() -> dict[str, Endpoint]:
    """This module's handlers, by operation id of the endpoint table."""
    return {
        "get_ledger_info": endpoint(None, index),
        "healthy": endpoint(None, healthy),
        "get_openapi_document": endpoint(None, spec_json),
        "info": endpoint(None, info),
    }
