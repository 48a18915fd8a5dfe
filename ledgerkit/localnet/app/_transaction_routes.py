"""Transactions: listing, lookup by version and hash, submission (one or a batch),
simulation, encoding."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response

from ledgerkit._endpoints import MAX_BATCH_TRANSACTIONS
from ledgerkit._errors import BCSError, ErrorCode
from ledgerkit.bcs import Deserializer, SignedTransaction
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.app._http import (
    SIGNED_TXN_BCS,
    Endpoint,
    NodeState,
    bcs_response,
    blocking,
    content_type,
    endpoint,
    invalid,
    json_response,
    meta_headers,
    negotiate,
    path_u64,
    query_bool,
    query_limit,
    query_u64,
    read_body,
    read_json,
    wants_bcs,
)
from ledgerkit.localnet.app._request_limits import echo
from ledgerkit.types import LedgerMeta

__all__ = ["handlers"]

TXN_PAGE: Final = 25
TXN_PAGE_MAX: Final = 100
WAIT_TIMEOUT_SECONDS: Final = 1.0
WAIT_POLL_SECONDS: Final = 0.02
_HEX: Final = frozenset("0123456789abcdefABCDEF")


def _hash(request: Request) -> bytes:
    text = request.path_params["txn_hash"]
    digits = text[2:] if text.startswith("0x") else text
    if len(digits) != 64 or not _HEX.issuperset(digits):
        raise invalid(f"a transaction hash is 32 bytes of hex, got {echo(text)}")
    return bytes.fromhex(digits)


async def list_transactions(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    start = query_u64(request, "start")
    limit = query_limit(request, default=TXN_PAGE, maximum=TXN_PAGE_MAX)
    if bcs:
        page = await blocking(node.ledger.reads.transactions, start, limit)
        return bcs_response(await blocking(node.ledger.transactions_bcs, page), meta)
    return json_response(
        None, meta, raw=await blocking(node.ledger.reads.transactions_json, start, limit)
    )


async def _one(node: NodeState, txn: dict[str, Any], meta: LedgerMeta, *, bcs: bool) -> Response:
    """One transaction in the answer's format: JSON, or BCS ``TransactionData``."""
    if not bcs:
        return json_response(txn, meta)
    data = await blocking(node.ledger.transaction_data, txn)
    return bcs_response(data.to_bcs(), meta)


async def by_version(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    version = path_u64(request, "txn_version")
    return await _one(node, node.ledger.reads.transaction_by_version(version), meta, bcs=bcs)


async def by_hash(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    return await _one(node, node.ledger.transaction_by_hash(_hash(request)), meta, bcs=bcs)


async def wait_by_hash(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    """Long poll: answer as soon as the transaction is committed, or after about a second;
    an unknown hash answers 404 at once.

    "Committed" means the ledger position this node answers at includes it: the block's
    rows reach the store a moment before the ledger head moves, and a client that reads
    right after waiting must see the transaction's effects.
    """
    bcs = negotiate(request, node, bcs_supported=True)
    digest = _hash(request)
    deadline = time.monotonic() + WAIT_TIMEOUT_SECONDS
    while True:
        # A hash neither pending nor committed answers 404 at once, as on a public node:
        # only a pending transaction is waited for.
        found = node.ledger.transaction_by_hash(digest)
        now = node.ledger.meta()
        if found.get("type") == "pending_transaction" or _beyond(found, now):
            if time.monotonic() > deadline:
                return await _one(node, found, now, bcs=bcs)
        else:
            return await _one(node, found, now, bcs=bcs)
        await asyncio.sleep(WAIT_POLL_SECONDS)


def _beyond(txn: dict[str, Any], meta: LedgerMeta) -> bool:
    """True while a committed transaction is newer than the ledger position answered at."""
    version = txn.get("version")
    return isinstance(version, str) and version.isdigit() and int(version) > meta.ledger_version


async def auxiliary_info(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    start = query_u64(request, "start_version")
    if start is None:
        raise invalid("start_version is required")
    limit = query_limit(request, default=TXN_PAGE, maximum=TXN_PAGE_MAX)
    return json_response(node.ledger.reads.auxiliary_info(start, limit), meta)


async def _signed_body(request: Request, node: NodeState, *, simulation: bool) -> SignedTransaction:
    if content_type(request) == SIGNED_TXN_BCS:
        body = await read_body(request, node.config.max_body_bytes)
        try:
            return await blocking(SignedTransaction.from_bcs, body)
        except BCSError as exc:
            raise invalid(f"the body is not a BCS signed transaction: {exc}") from None
    request_body: Any = await read_json(request, node.config.max_body_bytes)
    if not isinstance(request_body, dict):
        raise invalid("the body must be a transaction object")
    signed: SignedTransaction = await blocking(
        node.ledger.signed_from_json, request_body, simulation=simulation
    )
    return signed


async def submit(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    if "submit" in node.config.disabled:
        raise NodeError(ErrorCode.API_DISABLED, "transaction submission is disabled on this node")
    bcs = negotiate(request, node, bcs_supported=True)
    signed = await _signed_body(request, node, simulation=False)
    pending = await blocking(node.ledger.submit, signed)
    node.on_submit()
    if bcs:  # a BCS answer is empty: the client computes the hash itself
        return Response(
            b"", status_code=202, media_type="application/x-bcs", headers=meta_headers(meta)
        )
    return json_response(pending, meta, status=202)


async def _signed_batch(request: Request, node: NodeState) -> list[SignedTransaction]:
    """The transactions of a batch: a BCS sequence of signed transactions, or a JSON array
    of submit requests. Any one that does not parse refuses the whole batch (400)."""
    batch: list[SignedTransaction]
    if content_type(request) == SIGNED_TXN_BCS:
        body = await read_body(request, node.config.max_body_bytes)
        batch = await blocking(_batch_from_bcs, body)
    else:
        requests: Any = await read_json(request, node.config.max_body_bytes)
        if not isinstance(requests, list):
            raise invalid("the body must be an array of transaction objects")
        _check_batch_size(len(requests))
        batch = await blocking(_batch_from_json, node, requests)
    return batch


def _batch_from_bcs(body: bytes) -> list[SignedTransaction]:
    try:
        reader = Deserializer(body)
        count = reader.length()
        _check_batch_size(count)  # before parsing: the count alone can refuse the batch
        batch = [SignedTransaction.deserialize(reader) for _ in range(count)]
        reader.finish()
    except BCSError as exc:
        raise invalid(f"the body is not a BCS sequence of signed transactions: {exc}") from None
    return batch


def _batch_from_json(node: NodeState, requests: list[Any]) -> list[SignedTransaction]:
    batch = []
    for index, item in enumerate(requests):
        if not isinstance(item, dict):
            raise invalid(f"transaction {index}: must be a transaction object")
        try:
            batch.append(node.ledger.signed_from_json(item, simulation=False))
        except NodeError as error:
            raise invalid(f"transaction {index}: {error.message}") from None
    return batch


def _admit_batch(node: NodeState, batch: list[SignedTransaction]) -> list[dict[str, Any]]:
    failures: list[dict[str, Any]] = []
    for index, signed in enumerate(batch):
        try:
            node.ledger.submit(signed)
        except NodeError as error:
            failures.append({"error": error.record(), "transaction_index": index})
    return failures


def _check_batch_size(size: int) -> None:
    if size > MAX_BATCH_TRANSACTIONS:
        raise invalid(
            f"Submitted too many transactions: {size}, while limit is {MAX_BATCH_TRANSACTIONS}"
        )


async def submit_batch(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    """Each transaction goes through the same admission as a single submission.

    202 when all were accepted; 206 listing the refused ones by index otherwise; 507 when
    the mempool is full and took none of them.
    """
    if "submit" in node.config.disabled:
        raise NodeError(ErrorCode.API_DISABLED, "transaction submission is disabled on this node")
    negotiate(request, node, bcs_supported=False)  # JSON answers only here
    batch = await _signed_batch(request, node)
    failures = await blocking(_admit_batch, node, batch)
    if len(failures) < len(batch):
        node.on_submit()
    elif failures and all(
        f["error"]["error_code"] == ErrorCode.MEMPOOL_IS_FULL.value for f in failures
    ):
        raise NodeError(ErrorCode.MEMPOOL_IS_FULL, "the mempool is full; no transaction was taken")
    status = 206 if failures else 202
    return json_response({"transaction_failures": failures}, meta, status=status)


async def simulate(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    if "simulate" in node.config.disabled:
        raise NodeError(ErrorCode.API_DISABLED, "simulation is disabled on this node")
    negotiate(request, node, bcs_supported=False)
    flags = {
        name: query_bool(request, name)
        for name in (
            "estimate_gas_unit_price",
            "estimate_max_gas_amount",
            "estimate_prioritized_gas_unit_price",
        )
    }
    signed = await _signed_body(request, node, simulation=True)
    results, gas_used = await blocking(node.ledger.simulate, signed, **flags)
    return json_response(results, replace(meta, gas_used=gas_used))


async def encode_submission(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    if "encode_submission" in node.config.disabled:
        raise NodeError(ErrorCode.API_DISABLED, "encode_submission is disabled on this node")
    if wants_bcs(request):
        raise NodeError(ErrorCode.BCS_NOT_SUPPORTED, "encode_submission answers in JSON only")
    negotiate(request, node, bcs_supported=False)
    body = await read_json(request, node.config.max_body_bytes)
    if not isinstance(body, dict):
        raise invalid("the body must be an encode-submission request object")
    message: bytes = await blocking(node.ledger.encode_submission, body)
    return json_response("0x" + message.hex(), meta)


def handlers() -> dict[str, Endpoint]:
    """This module's handlers, by operation id of the endpoint table."""
    group = "transactions"
    return {
        "get_transactions": endpoint(group, list_transactions),
        "submit_transaction": endpoint(group, submit),
        "get_transaction_by_hash": endpoint(group, by_hash),
        "wait_transaction_by_hash": endpoint(group, wait_by_hash),
        "get_transaction_by_version": endpoint(group, by_version),
        "get_transactions_auxiliary_info": endpoint(group, auxiliary_info),
        "submit_batch_transactions": endpoint(group, submit_batch),
        "simulate_transaction": endpoint(group, simulate),
        "encode_submission": endpoint(group, encode_submission),
    }
