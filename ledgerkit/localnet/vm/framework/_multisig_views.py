"""``0x1::multisig_account``'s views, and the steps the executor runs for a multisig payload.

The views answer as the framework's do: a call number outside ``1 .. next - 1`` aborts
``EINVALID_SEQUENCE_NUMBER``; a call already resolved is gone from the table, so reading it
aborts in ``0x1::table`` (``0x6507``); an address without a ``MultisigAccount`` is
``MISSING_DATA``.

For a multisig payload the executor checks :func:`validate_multisig_transaction` (the
framework's prologue step), takes the call from :func:`next_payload`, runs it as the
multisig account and then records it with :func:`execution_cleanup`, whether it
succeeded or failed.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ledgerkit.localnet.vm.framework._context import ACCOUNT, Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._multisig_account import (
    MAX_PENDING_TRANSACTIONS,
    MODULE,
    MULTISIG_ACCOUNT_TYPE,
    count_votes,
    load_account,
    multisig_address,
    remove_executed,
    require_owner,
    transaction_of,
)
from ledgerkit.types import Address, MoveType

__all__ = ["execution_cleanup", "next_payload", "validate_multisig_transaction"]


def _data(ctx: Context, account: Any) -> Any:
    data = ctx.resource(Address.parse(account), MULTISIG_ACCOUNT_TYPE)
    if data is None:
        raise VMStatusError("MISSING_DATA")
    return data


def _valid_sequence(ctx: Context, data: Any, sequence: int) -> None:
    if not 0 < sequence < int(data["next_sequence_number"]):
        raise ctx.abort(MODULE, 0x10011, "EINVALID_SEQUENCE_NUMBER")


def _borrow(ctx: Context, account: Address, sequence: int) -> Any:
    txn = transaction_of(ctx, account, sequence)
    if txn is None:
        raise ctx.abort("table", 0x6507)
    return txn


def _voted(txn: Any, owner: Address) -> bool | None:
    for entry in txn["votes"]["data"]:
        if Address.parse(entry["key"]) == owner:
            return bool(entry["value"])
    return None


def _field(name: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        return [_data(ctx, args[0])[name]]

    native(MODULE, name)(body)


_field("owners")
_field("num_signatures_required")
_field("metadata")
_field("next_sequence_number")


@native(MODULE, "last_resolved_sequence_number")
def _last_resolved(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_data(ctx, args[0])["last_executed_sequence_number"]]


@native(MODULE, "is_owner")
def _is_owner(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    owners = [Address.parse(o) for o in _data(ctx, args[1])["owners"]]
    return [Address.parse(args[0]) in owners]


@native(MODULE, "get_next_multisig_account_address")
def _next_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    creator = Address.parse(args[0])
    account = ctx.resource(creator, ACCOUNT)
    # as account::get_sequence_number: 0 for an address without an account
    sequence = 0 if account is None else int(account["sequence_number"])
    return [multisig_address(creator, sequence).standard]


@native(MODULE, "get_transaction")
def _get_transaction(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    data, sequence = _data(ctx, args[0]), int(args[1])
    _valid_sequence(ctx, data, sequence)
    return [_borrow(ctx, Address.parse(args[0]), sequence)]


@native(MODULE, "get_pending_transactions")
def _pending(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    data, account = _data(ctx, args[0]), Address.parse(args[0])
    first = int(data["last_executed_sequence_number"]) + 1
    return [[_borrow(ctx, account, s) for s in range(first, int(data["next_sequence_number"]))]]


@native(MODULE, "available_transaction_queue_capacity")
def _capacity(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    data = _data(ctx, args[0])
    pending = int(data["next_sequence_number"]) - int(data["last_executed_sequence_number"]) - 1
    return [str(max(MAX_PENDING_TRANSACTIONS - pending, 0))]


@native(MODULE, "vote")
def _vote_view(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    data, sequence = _data(ctx, args[0]), int(args[1])
    _valid_sequence(ctx, data, sequence)
    voted = _voted(_borrow(ctx, Address.parse(args[0]), sequence), Address.parse(args[2]))
    return [voted is not None, bool(voted)]


def next_payload(ctx: Context, account: Address, provided: bytes) -> bytes:
    """The call to run next: the stored payload, else the one the transaction carries."""
    data = load_account(ctx, account)
    txn = _borrow(ctx, account, int(data["last_executed_sequence_number"]) + 1)
    stored = txn["payload"]["vec"]
    return bytes.fromhex(stored[0][2:]) if stored else provided


def _resolvable(ctx: Context, args: list[Any], owner: Address | None, approve: bool) -> list[Any]:
    data, sequence = _data(ctx, args[0]), int(args[1])
    _valid_sequence(ctx, data, sequence)
    txn = _borrow(ctx, Address.parse(args[0]), sequence)
    approvals, rejections = count_votes(data, txn)
    count = approvals if approve else rejections
    is_owner = True
    if owner is not None:
        count += _voted(txn, owner) is not approve
        is_owner = owner in [Address.parse(o) for o in data["owners"]]
    return [
        is_owner
        and sequence == int(data["last_executed_sequence_number"]) + 1
        and count >= int(data["num_signatures_required"])
    ]


@native(MODULE, "can_be_executed")
def _can_be_executed(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return _resolvable(ctx, args, None, True)


@native(MODULE, "can_be_rejected")
def _can_be_rejected(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return _resolvable(ctx, args, None, False)


@native(MODULE, "can_execute")
def _can_execute(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return _resolvable(ctx, args[1:], Address.parse(args[0]), True)


@native(MODULE, "can_reject")
def _can_reject(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return _resolvable(ctx, args[1:], Address.parse(args[0]), False)


@native(MODULE, "get_next_transaction_payload")
def _next_payload_view(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _data(ctx, args[0])  # borrow_global: MISSING_DATA without a MultisigAccount
    payload = next_payload(ctx, Address.parse(args[0]), bytes.fromhex(args[1][2:]))
    return ["0x" + payload.hex()]


# -- the multisig payload's steps ---------------------------------------------------------------


def validate_multisig_transaction(
    ctx: Context, owner: Address, account: Address, provided: bytes
) -> None:
    """The checks before an owner runs the next call: it exists, ``owner`` may run it
    (enough approvals counting its own), and the payload matches what was stored."""
    data = load_account(ctx, account)
    require_owner(ctx, data, owner)
    sequence = int(data["last_executed_sequence_number"]) + 1
    txn = transaction_of(ctx, account, sequence)
    if txn is None:
        raise ctx.abort(MODULE, 0x607D6, "ETRANSACTION_NOT_FOUND")
    approvals, _ = count_votes(data, txn)
    approvals += _voted(txn, owner) is not True
    if approvals < int(data["num_signatures_required"]):
        raise ctx.abort(MODULE, 0x107D9, "ENOT_ENOUGH_APPROVALS")
    payload_hash = txn["payload_hash"]["vec"]
    if payload_hash and "0x" + hashlib.sha3_256(provided).hexdigest() != payload_hash[0]:
        raise ctx.abort(MODULE, 0x107D8, "EPAYLOAD_DOES_NOT_MATCH_HASH")
    stored = txn["payload"]["vec"]
    if stored and provided and stored[0] != "0x" + provided.hex():
        raise ctx.abort(MODULE, 0x107DA, "EPAYLOAD_DOES_NOT_MATCH")


def execution_cleanup(
    ctx: Context,
    executor: Address,
    account: Address,
    payload: bytes,
    error: dict[str, Any] | None,
) -> None:
    """Resolve the call that ran: the executor's implicit approval (a ``Vote``), then
    ``TransactionExecutionSucceeded`` or, with ``error``, ``TransactionExecutionFailed``."""
    data = load_account(ctx, account)
    sequence = int(data["last_executed_sequence_number"]) + 1
    implicit = _voted(_borrow(ctx, account, sequence), executor) is not True
    sequence, approvals, _ = remove_executed(ctx, account, data)
    fields: dict[str, Any] = {"multisig_account": account.standard}
    if implicit:
        ctx.emit_module(
            "0x1::multisig_account::Vote",
            {
                **fields,
                "owner": executor.standard,
                "sequence_number": str(sequence),
                "approved": True,
            },
        )
        approvals += 1
    fields.update(
        executor=executor.standard,
        sequence_number=str(sequence),
        transaction_payload="0x" + payload.hex(),
        num_approvals=str(approvals),
    )
    if error is None:
        ctx.emit_module("0x1::multisig_account::TransactionExecutionSucceeded", fields)
    else:
        fields["execution_error"] = error
        ctx.emit_module("0x1::multisig_account::TransactionExecutionFailed", fields)
