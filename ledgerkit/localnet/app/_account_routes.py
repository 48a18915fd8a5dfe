"""Accounts: the account, its resources, modules, balances and transactions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response

from ledgerkit._errors import InputError
from ledgerkit.bcs import IndexedTransactionSummary, Serializer, serialize_struct_tag
from ledgerkit.localnet.app._http import (
    Endpoint,
    NodeState,
    bcs_response,
    blocking,
    endpoint,
    invalid,
    json_response,
    negotiate,
    path_address,
    path_struct_tag,
    query_limit,
    query_u64,
)
from ledgerkit.localnet.app._request_limits import echo
from ledgerkit.localnet.ledger import Module, Page, Resource
from ledgerkit.types import Address, LedgerMeta, StructTag, is_identifier

__all__ = ["handlers"]

STATE_PAGE: Final = 9999
TXN_PAGE: Final = 25
TXN_PAGE_MAX: Final = 100


def version_of(request: Request, meta: LedgerMeta) -> int:
    """The ``ledger_version`` asked for, or the version this answer is pinned to."""
    version = query_u64(request, "ledger_version")
    return meta.ledger_version if version is None else version


def _join(items: list[bytes]) -> bytes:
    return b"[" + b",".join(items) + b"]"


async def account(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    negotiate(request, node, bcs_supported=False)
    address = path_address(request)
    return json_response(node.ledger.reads.account(address, version_of(request, meta)), meta)


def _cursor(request: Request) -> str | None:
    start = request.query_params.get("start")
    if start is not None and (not start or not all(c in "0123456789abcdefx" for c in start)):
        raise invalid(f"start must be a cursor from a previous X-NODE-CURSOR, got {echo(start)}")
    return start


async def _state_page(
    request: Request,
    meta: LedgerMeta,
    read: Callable[[Address, int | None, str | None, int], Page],
) -> tuple[Page, LedgerMeta]:
    """One page of an account's resources or modules (``read``), and the metadata to
    answer it with (the cursor of the next page, when there is one)."""
    address = path_address(request)
    limit = query_limit(request, default=STATE_PAGE, maximum=STATE_PAGE)
    version = version_of(request, meta)
    page = await blocking(read, address, version, _cursor(request), limit)
    return page, meta if page.cursor is None else replace(meta, cursor=page.cursor)


def _stored(item: Resource | Module, bcs: bool, meta: LedgerMeta) -> Response:
    """One resource or module, in BCS or in the JSON stored with it."""
    if bcs:
        return bcs_response(item.bcs, meta)
    return json_response(None, meta, raw=item.json)


async def resources(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    page, headed = await _state_page(request, meta, node.ledger.reads.resources)
    if bcs:
        # BTreeMap<StructTag, bytes>: entries ordered by the key's bytes.
        entries = []
        for item in page.items:
            key = Serializer()
            serialize_struct_tag(key, item.tag)
            entries.append((key.output(), item.bcs))
        entries.sort()
        s = Serializer()
        s.uleb128(len(entries))
        for key_bytes, value in entries:
            s.fixed_bytes(key_bytes)
            s.var_bytes(value)
        return bcs_response(s.output(), headed)
    return json_response(None, headed, raw=_join([item.json for item in page.items]))


async def resource(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    address = path_address(request)
    tag = path_struct_tag(request, "resource_type")
    return _stored(node.ledger.reads.resource(address, tag, version_of(request, meta)), bcs, meta)


async def modules(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    page, headed = await _state_page(request, meta, node.ledger.reads.modules)
    if bcs:
        s = Serializer()
        s.sequence([item.bcs for item in page.items], s.var_bytes)
        return bcs_response(s.output(), headed)
    return json_response(None, headed, raw=_join([item.json for item in page.items]))


async def module(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    address = path_address(request)
    name = request.path_params["module_name"]
    if not is_identifier(name):
        raise invalid(f"{echo(name)} is not a module name")
    return _stored(node.ledger.reads.module(address, name, version_of(request, meta)), bcs, meta)


async def balance(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    address = path_address(request)
    text = request.path_params["asset_type"]
    asset: Address | StructTag
    try:
        asset = StructTag.parse(text) if "::" in text else Address.parse(text)
    except InputError as exc:
        raise invalid(f"asset_type must be a coin struct tag or an address: {exc}") from None
    amount = node.ledger.reads.balance(address, asset, version_of(request, meta))
    if bcs:
        s = Serializer()
        s.u64(amount)
        return bcs_response(s.output(), meta)
    return json_response(amount, meta)


async def account_transactions(request: Request, node: NodeState, meta: LedgerMeta) -> Response:
    bcs = negotiate(request, node, bcs_supported=True)
    address = path_address(request)
    start = query_u64(request, "start")
    limit = query_limit(request, default=TXN_PAGE, maximum=TXN_PAGE_MAX)
    txns = node.ledger.reads.account_transactions(address, start, limit)
    if bcs:  # a BCS sequence of committed transactions, as a listing answers
        return bcs_response(await blocking(node.ledger.transactions_bcs, txns), meta)
    return json_response(txns, meta)


async def account_transaction_summaries(
    request: Request, node: NodeState, meta: LedgerMeta
) -> Response:
    """Without ``limit`` the node's largest page, as aptos-core answers this one."""
    bcs = negotiate(request, node, bcs_supported=True)
    address = path_address(request)
    start, end = query_u64(request, "start_version"), query_u64(request, "end_version")
    limit = query_limit(request, default=TXN_PAGE_MAX, maximum=TXN_PAGE_MAX)
    items = node.ledger.reads.account_transaction_summaries(address, start, end, limit)
    if not bcs:
        return json_response(items, meta)
    s = Serializer()
    s.sequence(items, lambda item: _summary(item).serialize(s))
    return bcs_response(s.output(), meta)


def _summary(item: dict[str, Any]) -> IndexedTransactionSummary:
    protector = item["replay_protector"]
    return IndexedTransactionSummary(
        Address.parse(item["sender"]),
        int(item["version"]),
        bytes.fromhex(item["transaction_hash"][2:]),
        protector["type"],
        int(protector["value"]),
    )


def handlers() -> dict[str, Endpoint]:
    """This module's handlers, by operation id of the endpoint table."""
    group = "accounts"
    return {
        "get_account": endpoint(group, account),
        "get_account_resources": endpoint(group, resources),
        "get_account_resource": endpoint(group, resource),
        "get_account_modules": endpoint(group, modules),
        "get_account_module": endpoint(group, module),
        "get_account_balance": endpoint(group, balance),
        "get_account_transactions": endpoint("transactions", account_transactions),
        "get_account_transaction_summaries": endpoint(
            "transactions", account_transaction_summaries
        ),
    }
