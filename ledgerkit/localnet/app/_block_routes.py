"""Blocks by height and by version, optionally with their transactions."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ledgerkit.localnet.app._http import (
    Endpoint,
    NodeState,
    endpoint,
    json_response,
    negotiate,
    path_u64,
    query_bool,
)
from ledgerkit.types import LedgerMeta

__all__ = ["handlers"]


async def by_height(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    height = path_u64(request, "block_height")
    with_txns = query_bool(request, "with_transactions")
    return json_response(node.ledger.reads.block_by_height(height, with_txns), meta)


async def by_version(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    version = path_u64(request, "version")
    with_txns = query_bool(request, "with_transactions")
    return json_response(node.ledger.reads.block_by_version(version, with_txns), meta)


def handlers() -> dict[str, Endpoint]:
    """This module's handlers, by operation id of the endpoint table."""
    return {
        "get_block_by_height": endpoint("blocks", by_height),
        "get_block_by_version": endpoint("blocks", by_version),
    }
