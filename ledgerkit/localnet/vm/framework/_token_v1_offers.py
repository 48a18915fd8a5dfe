"""``0x3::token_transfers``: offering a token v1 to an address, claiming and cancelling.

An offer moves the tokens out of the sender's store into the sender's ``PendingClaims``
table, keyed by ``TokenOfferId {to_addr, token_id}``; a claim by the receiver or a
cancel by the sender takes them out again into a store. Events are the module events
``Offer``, ``Claim`` and ``CancelOffer``; the handles stay at counter 0.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._state_keys import table_handle
from ledgerkit.localnet.vm.framework._token_v1 import (
    TOKEN,
    deposit_token,
    ensure_account,
    token_data_id,
    token_id,
    withdraw,
)
from ledgerkit.types import U64_MAX, Address, MoveType

__all__ = ["PENDING_CLAIMS", "TOKEN_OFFER_ID"]

PENDING_CLAIMS: Final = "0x3::token_transfers::PendingClaims"
TOKEN_OFFER_ID: Final = "0x3::token_transfers::TokenOfferId"
_MODULE: Final = "0x3::token_transfers"
#: ``0x1::table``'s native abort for a missing key: ``(101 << 8) + 7``.
_TABLE_NOT_FOUND: Final = 0x6507


def _tid(creator: Any, collection: str, name: str, version: Any) -> dict[str, Any]:
    return token_id(token_data_id(Address.parse(creator), collection, name), int(version))


def _claims_table(ctx: Context, sender: Address) -> Address:
    """The sender's pending claims table (raw abort 1 when it has never offered)."""
    claims = ctx.resource(sender, PENDING_CLAIMS)
    if claims is None:
        raise ctx.abort(_MODULE, 1, "ETOKEN_OFFER_NOT_EXIST")
    return Address.parse(claims["pending_claims"]["handle"])


def _event(kind: str, sender: Address, receiver: Address, tid: Any, amount: Any) -> tuple[str, Any]:
    data = {
        "account": sender.standard,
        "to_address": receiver.standard,
        "token_id": tid,
        "amount": str(amount),
    }
    return f"0x3::token_transfers::{kind}", data


@native("token_transfers", "offer_script", address=3)
def _offer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    to, creator, collection, name, version, amount = args
    sender, receiver = ctx.signer, Address.parse(to)
    claims = ctx.resource(sender, PENDING_CLAIMS)
    if claims is None:
        ensure_account(ctx, sender)
        claims = {
            "pending_claims": {
                "handle": table_handle("token_transfers", "pending_claims", sender).standard
            },
            "offer_events": ctx.new_handle(sender),
            "cancel_offer_events": ctx.new_handle(sender),
            "claim_events": ctx.new_handle(sender),
        }
        ctx.put(sender, PENDING_CLAIMS, claims)
    table = Address.parse(claims["pending_claims"]["handle"])
    tid = _tid(creator, collection, name, version)
    offer_id = {"to_addr": receiver.standard, "token_id": tid}
    token = withdraw(ctx, sender, tid, int(amount))
    pending = ctx.table_get(table, TOKEN_OFFER_ID, offer_id)
    if pending is not None:
        total = int(pending["amount"]) + int(token["amount"])
        if total > U64_MAX:
            raise VMStatusError("ARITHMETIC_ERROR")
        token = {**pending, "amount": str(total)}
    ctx.table_put(table, TOKEN_OFFER_ID, TOKEN, offer_id, token)
    ctx.emit_module(*_event("Offer", sender, receiver, tid, amount))


@native("token_transfers", "claim_script", address=3)
def _claim(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    offered_by, creator, collection, name, version = args
    sender, receiver = Address.parse(offered_by), ctx.signer
    table = _claims_table(ctx, sender)
    tid = _tid(creator, collection, name, version)
    offer_id = {"to_addr": receiver.standard, "token_id": tid}
    token = ctx.table_get(table, TOKEN_OFFER_ID, offer_id)
    if token is None:
        raise ctx.abort(_MODULE, 0x60001, "ETOKEN_OFFER_NOT_EXIST")
    ctx.table_put(table, TOKEN_OFFER_ID, TOKEN, offer_id, None)
    deposit_token(ctx, receiver, token)
    ctx.emit_module(*_event("Claim", sender, receiver, tid, token["amount"]))


@native("token_transfers", "cancel_offer_script", address=3)
def _cancel_offer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    to, creator, collection, name, version = args
    sender, receiver = ctx.signer, Address.parse(to)
    tid = _tid(creator, collection, name, version)
    offer_id = {"to_addr": receiver.standard, "token_id": tid}
    table = _claims_table(ctx, sender)
    token = ctx.table_get(table, TOKEN_OFFER_ID, offer_id)
    if token is None:
        raise ctx.abort("table", _TABLE_NOT_FOUND)
    ctx.table_put(table, TOKEN_OFFER_ID, TOKEN, offer_id, None)
    deposit_token(ctx, sender, token)
    ctx.emit_module(*_event("CancelOffer", sender, receiver, tid, token["amount"]))
