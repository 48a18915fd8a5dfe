"""``0x1::multisig_account``: accounts whose owners vote on chain for the calls it makes.

A multisig account is a resource account derived from its creator's address and the
sequence number of the creating transaction:
``SHA3-256(creator ‖ "aptos_framework::multisig_account" ‖ u64_le(seq) ‖ 0xFF)``; its
authentication key is 32 zero bytes, so only the multisig flow moves it. An existing
account can also make itself one (``create_with_existing_account_call``, keeping its key,
or ``..._and_revoke_auth_key_call``, zeroing it). Its ``MultisigAccount`` holds the
owners, the number of approvals a call needs, the metadata and a table of the pending
calls by sequence number (from 1). Owners create calls (the
payload's BCS, or only its SHA3-256), vote for or against them; an owner then runs the
next one with a multisig payload (see :mod:`ledgerkit.localnet.vm._multisig`), or
resolves it as rejected once enough owners rejected it.

The table's handle is this node's own derivation (``SHA3-256("ledgerkit::multisig_account
::transactions" ‖ account)``), so a chain is the same each time it is generated. Every
event is a module event, as on current networks. The entry functions that change owners
and the threshold are private: they run as the multisig account, through a call its
owners approved. Views and the executor's checks are in :mod:`._multisig_views`.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import account_data, ensure_account
from ledgerkit.localnet.vm.framework._context import ACCOUNT, Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._multisig_specs import HANDLE_FIELDS
from ledgerkit.localnet.vm.framework._state_keys import table_handle
from ledgerkit.types import Address, MoveType

__all__ = [
    "MAX_PENDING_TRANSACTIONS",
    "MODULE",
    "MULTISIG_ACCOUNT_TYPE",
    "TXN_TYPE",
    "count_votes",
    "load_account",
    "multisig_address",
    "remove_executed",
    "require_owner",
    "transaction_of",
]

MODULE: Final = "multisig_account"
MULTISIG_ACCOUNT_TYPE: Final = "0x1::multisig_account::MultisigAccount"
TXN_TYPE: Final = "0x1::multisig_account::MultisigTransaction"
DOMAIN_SEPARATOR: Final = b"aptos_framework::multisig_account"
MAX_PENDING_TRANSACTIONS: Final = 20
_EVENT: Final = "0x1::multisig_account::"


def multisig_address(creator: Address, sequence_number: int) -> Address:
    """The address of the multisig account ``creator`` makes at ``sequence_number``."""
    seed = DOMAIN_SEPARATOR + sequence_number.to_bytes(8, "little")
    return Address(hashlib.sha3_256(bytes(creator) + seed + b"\xff").digest())


def _table_handle(account: Address) -> Address:
    return table_handle("multisig_account", "transactions", account)


# -- state --------------------------------------------------------------------------------------


def load_account(ctx: Context, account: Address) -> Any:
    """The ``MultisigAccount`` at ``account``; aborts ``EACCOUNT_NOT_MULTISIG`` without one."""
    data = ctx.resource(account, MULTISIG_ACCOUNT_TYPE)
    if data is None:
        raise ctx.abort(MODULE, 0x307D2, "EACCOUNT_NOT_MULTISIG")
    return data


def _owners(data: Any) -> list[Address]:
    return [Address.parse(o) for o in data["owners"]]


def require_owner(ctx: Context, data: Any, owner: Address) -> None:
    if owner not in _owners(data):
        raise ctx.abort(MODULE, 0x507D3, "ENOT_OWNER")


def transaction_of(ctx: Context, account: Address, sequence_number: int) -> Any:
    """The pending call ``sequence_number`` (None when there is none in the table)."""
    return ctx.table_get(_table_handle(account), "u64", str(sequence_number))


def _put_transaction(ctx: Context, account: Address, sequence_number: int, txn: Any) -> None:
    ctx.table_put(_table_handle(account), "u64", TXN_TYPE, str(sequence_number), txn)


def _votes(txn: Any) -> dict[Address, bool]:
    return {Address.parse(e["key"]): bool(e["value"]) for e in txn["votes"]["data"]}


def count_votes(data: Any, txn: Any) -> tuple[int, int]:
    """Approvals and rejections among the current owners."""
    owners = set(_owners(data))
    votes = _votes(txn)
    approvals = sum(1 for o, v in votes.items() if o in owners and v)
    return approvals, sum(1 for o, v in votes.items() if o in owners and not v)


def remove_executed(ctx: Context, account: Address, data: Any) -> tuple[int, int, int]:
    """Drop the next call from the table and count it resolved: its sequence number,
    approvals and rejections (``data`` is put back)."""
    sequence = int(data["last_executed_sequence_number"]) + 1
    txn = transaction_of(ctx, account, sequence)
    if txn is None:
        raise ctx.abort("table", 0x6507)
    ctx.table_put(_table_handle(account), "u64", TXN_TYPE, str(sequence), None)
    data["last_executed_sequence_number"] = str(sequence)
    ctx.put(account, MULTISIG_ACCOUNT_TYPE, data)
    return (sequence, *count_votes(data, txn))


def _emit(ctx: Context, name: str, account: Address, **fields: Any) -> None:
    ctx.emit_module(_EVENT + name, {"multisig_account": account.standard, **fields})


# -- creation -----------------------------------------------------------------------------------


def _create_resource_account(ctx: Context, creator: Address) -> Address:
    sequence = int(ensure_account(ctx, creator)["sequence_number"])
    address = multisig_address(creator, sequence)
    account = ctx.resource(address, ACCOUNT)
    if account is None:
        account = account_data(address, bytes(32))
    elif account["signer_capability_offer"]["for"]["vec"]:
        raise ctx.abort("account", 0x8000F, "ERESOURCE_ACCCOUNT_EXISTS")
    elif int(account["sequence_number"]) != 0:
        raise ctx.abort("account", 0x30010, "EACCOUNT_ALREADY_USED")
    account["authentication_key"] = "0x" + bytes(32).hex()
    account["signer_capability_offer"] = {"for": {"vec": [address.standard]}}
    ctx.put(address, ACCOUNT, account)
    return address


def _validate_owners(ctx: Context, owners: list[Address], account: Address) -> None:
    seen: set[Address] = set()
    for owner in owners:
        if owner == account:
            raise ctx.abort(MODULE, 0x1000D, "EOWNER_CANNOT_BE_MULTISIG_ACCOUNT_ITSELF")
        if owner in seen:
            raise ctx.abort(MODULE, 0x10001, "EDUPLICATE_OWNER")
        seen.add(owner)


def _metadata(ctx: Context, keys: list[str], values: list[str]) -> dict[str, Any]:
    if len(keys) != len(values):
        raise ctx.abort(MODULE, 0x1000F, "ENUMBER_OF_METADATA_KEYS_AND_VALUES_DONT_MATCH")
    if len(set(keys)) != len(keys):
        raise ctx.abort(MODULE, 0x10010, "EDUPLICATE_METADATA_KEY")
    return {"data": [{"key": k, "value": v} for k, v in zip(keys, values, strict=True)]}


def _install(
    ctx: Context,
    account: Address,
    owners: list[Address],
    required: Any,
    metadata: tuple[Any, Any],
    *,
    signer_cap: bool,
) -> None:
    """Publish the ``MultisigAccount`` at ``account`` (create_with_owners_internal)."""
    k = int(required)
    if not 0 < k <= len(owners):
        raise ctx.abort(MODULE, 0x1000B, "EINVALID_SIGNATURES_REQUIRED")
    _validate_owners(ctx, owners, account)
    if ctx.exists(account, MULTISIG_ACCOUNT_TYPE):
        raise VMStatusError("RESOURCE_ALREADY_EXISTS")  # move_to over an existing one
    data: dict[str, Any] = {
        "owners": [o.standard for o in owners],
        "num_signatures_required": str(k),
        "transactions": {"handle": _table_handle(account).standard},
        "last_executed_sequence_number": "0",
        "next_sequence_number": "1",
        "signer_cap": {"vec": [{"account": account.standard}] if signer_cap else []},
        "metadata": {"data": []},
    }
    data.update({name: ctx.new_handle(account) for name in HANDLE_FIELDS})
    data["metadata"] = _metadata(ctx, list(metadata[0]), list(metadata[1]))
    ctx.put(account, MULTISIG_ACCOUNT_TYPE, data)


def _create(ctx: Context, others: list[Any], required: Any, keys: Any, values: Any) -> Address:
    account = _create_resource_account(ctx, ctx.signer)
    owners = [Address.parse(o) for o in others] + [ctx.signer]
    _install(ctx, account, owners, required, (keys, values), signer_cap=True)
    return account


@native(MODULE, "create_with_existing_account_call")
def _adopt(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    owners, required, keys, values = args
    _install(ctx, ctx.signer, _addresses(owners), required, (keys, values), signer_cap=False)


@native(MODULE, "create_with_existing_account_and_revoke_auth_key_call")
def _adopt_and_revoke(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _adopt(ctx, ty, args)
    # only the multisig flow moves the account from now on: no key, no capability offered
    account = ensure_account(ctx, ctx.signer)
    account["authentication_key"] = "0x" + bytes(32).hex()
    account["signer_capability_offer"] = {"for": {"vec": []}}
    account["rotation_capability_offer"] = {"for": {"vec": []}}
    ctx.put(ctx.signer, ACCOUNT, account)


@native(MODULE, "create")
def _create_alone(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _create(ctx, [], *args)


@native(MODULE, "create_with_owners")
def _create_with_owners(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _create(ctx, *args)


@native(MODULE, "create_with_owners_then_remove_bootstrapper")
def _create_then_remove(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    owners, required, keys, values = args
    account = _create(ctx, owners, required, keys, values)
    _update_owner_schema(ctx, account, [], [ctx.signer], None)
    if len(owners) < int(required):
        raise ctx.abort(MODULE, 0x30005, "ENOT_ENOUGH_OWNERS")


# -- owners and threshold -----------------------------------------------------------------------


def _update_owner_schema(
    ctx: Context,
    account: Address,
    new_owners: list[Address],
    to_remove: list[Address],
    required: int | None,
) -> None:
    data = load_account(ctx, account)
    if set(new_owners) & set(to_remove):
        raise ctx.abort(MODULE, 0x10012, "EOWNERS_TO_REMOVE_NEW_OWNERS_OVERLAP")
    owners = _owners(data)
    if new_owners:
        owners += new_owners
        _validate_owners(ctx, owners, account)
        _emit(ctx, "AddOwners", account, owners_added=[o.standard for o in new_owners])
    removed = []
    for owner in to_remove:
        if owner in owners:
            at = owners.index(owner)
            owners[at] = owners[-1]  # as vector::swap_remove: the last owner takes its place
            owners.pop()
            removed.append(owner.standard)
    if removed:
        _emit(ctx, "RemoveOwners", account, owners_removed=removed)
    data["owners"] = [o.standard for o in owners]
    if required is not None:
        if required <= 0:
            raise ctx.abort(MODULE, 0x1000B, "EINVALID_SIGNATURES_REQUIRED")
        old = int(data["num_signatures_required"])
        if required != old:
            data["num_signatures_required"] = str(required)
            _emit(
                ctx,
                "UpdateSignaturesRequired",
                account,
                old_num_signatures_required=str(old),
                new_num_signatures_required=str(required),
            )
    if len(owners) < int(data["num_signatures_required"]):
        raise ctx.abort(MODULE, 0x30005, "ENOT_ENOUGH_OWNERS")
    ctx.put(account, MULTISIG_ACCOUNT_TYPE, data)


def _addresses(values: Any) -> list[Address]:
    return [Address.parse(v) for v in values]


def _schema_entry(name: str, shape: str) -> None:
    """Register one private entry function that changes the owners or the threshold.

    ``shape`` names the arguments in order: ``a`` an owner to add, ``A`` owners to add,
    ``r`` / ``R`` to remove, ``k`` the new threshold.
    """

    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
        add: list[Address] = []
        remove: list[Address] = []
        required = None
        for kind, value in zip(shape, args, strict=True):
            if kind == "a":
                add.append(Address.parse(value))
            elif kind == "A":
                add += _addresses(value)
            elif kind == "r":
                remove.append(Address.parse(value))
            elif kind == "R":
                remove += _addresses(value)
            else:
                required = int(value)
        _update_owner_schema(ctx, ctx.signer, add, remove, required)

    native(MODULE, name)(body)


for _name, _shape in (
    ("add_owner", "a"),
    ("add_owners", "A"),
    ("add_owners_and_update_signatures_required", "Ak"),
    ("remove_owner", "r"),
    ("remove_owners", "R"),
    ("swap_owner", "ar"),
    ("swap_owners", "AR"),
    ("swap_owners_and_update_signatures_required", "ARk"),
    ("update_signatures_required", "k"),
):
    _schema_entry(_name, _shape)


@native(MODULE, "update_metadata")
def _update_metadata(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    data = load_account(ctx, ctx.signer)
    old = data["metadata"]
    data["metadata"] = _metadata(ctx, list(args[0]), list(args[1]))
    ctx.put(ctx.signer, MULTISIG_ACCOUNT_TYPE, data)
    _emit(ctx, "MetadataUpdated", ctx.signer, old_metadata=old, new_metadata=data["metadata"])


# -- calls and votes ----------------------------------------------------------------------------


def _add_transaction(
    ctx: Context, account: Address, payload: str | None, payload_hash: str | None
) -> None:
    data = load_account(ctx, account)
    require_owner(ctx, data, ctx.signer)
    last, following = int(data["last_executed_sequence_number"]), int(data["next_sequence_number"])
    if following - last - 1 >= MAX_PENDING_TRANSACTIONS:
        raise ctx.abort(MODULE, 0x30013, "EMAX_PENDING_TRANSACTIONS_EXCEEDED")
    txn = {
        "payload": {"vec": [] if payload is None else [payload]},
        "payload_hash": {"vec": [] if payload_hash is None else [payload_hash]},
        "votes": {"data": [{"key": ctx.signer.standard, "value": True}]},
        "creator": ctx.signer.standard,
        "creation_time_secs": str(ctx.timestamp_usec // 1_000_000),
    }
    data["next_sequence_number"] = str(following + 1)
    _put_transaction(ctx, account, following, txn)
    ctx.put(account, MULTISIG_ACCOUNT_TYPE, data)
    _emit(
        ctx,
        "CreateTransaction",
        account,
        creator=ctx.signer.standard,
        sequence_number=str(following),
        transaction=txn,
    )


@native(MODULE, "create_transaction")
def _create_transaction(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    account, payload = Address.parse(args[0]), args[1]
    if payload == "0x":
        raise ctx.abort(MODULE, 0x10004, "EPAYLOAD_CANNOT_BE_EMPTY")
    _add_transaction(ctx, account, payload, None)


@native(MODULE, "create_transaction_with_hash")
def _create_transaction_with_hash(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    account, payload_hash = Address.parse(args[0]), args[1]
    if len(payload_hash) != 2 + 64:
        raise ctx.abort(MODULE, 0x1000C, "EINVALID_PAYLOAD_HASH")
    _add_transaction(ctx, account, None, payload_hash)


def vote(ctx: Context, owner: Address, account: Address, sequence: int, approved: bool) -> None:
    """Record ``owner``'s vote on call ``sequence`` (a new vote replaces the old one)."""
    data = load_account(ctx, account)
    require_owner(ctx, data, owner)
    txn = transaction_of(ctx, account, sequence)
    if txn is None:
        raise ctx.abort(MODULE, 0x607D6, "ETRANSACTION_NOT_FOUND")
    votes = _votes(txn)
    votes[owner] = approved
    txn["votes"] = {"data": [{"key": o.standard, "value": v} for o, v in votes.items()]}
    _put_transaction(ctx, account, sequence, txn)
    _emit(
        ctx,
        "Vote",
        account,
        owner=owner.standard,
        sequence_number=str(sequence),
        approved=approved,
    )


def _vote_entry(name: str, approved: bool | None) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
        choice = bool(args[2]) if approved is None else approved
        vote(ctx, ctx.signer, Address.parse(args[0]), int(args[1]), choice)

    native(MODULE, name)(body)


_vote_entry("approve_transaction", True)
_vote_entry("reject_transaction", False)
_vote_entry("vote_transanction", None)
_vote_entry("vote_transaction", None)


@native(MODULE, "vote_transactions")
def _vote_transactions(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    account, first, last, approved = Address.parse(args[0]), int(args[1]), int(args[2]), args[3]
    for sequence in range(first, last + 1):
        vote(ctx, ctx.signer, account, sequence, bool(approved))


def execute_rejected(ctx: Context, owner: Address, account: Address) -> None:
    """Resolve the next call as rejected (``owner`` rejecting it if it has not yet)."""
    data = load_account(ctx, account)
    require_owner(ctx, data, owner)
    sequence = int(data["last_executed_sequence_number"]) + 1
    if sequence >= int(data["next_sequence_number"]):
        raise ctx.abort(MODULE, 0x10011, "EINVALID_SEQUENCE_NUMBER")
    txn = transaction_of(ctx, account, sequence)
    if txn is not None and _votes(txn).get(owner) is not False:
        vote(ctx, owner, account, sequence, False)
    data = load_account(ctx, account)
    sequence, _, rejections = remove_executed(ctx, account, data)
    if rejections < int(data["num_signatures_required"]):
        raise ctx.abort(MODULE, 0x3000A, "ENOT_ENOUGH_REJECTIONS")
    _emit(
        ctx,
        "ExecuteRejectedTransaction",
        account,
        sequence_number=str(sequence),
        num_rejections=str(rejections),
        executor=owner.standard,
    )


@native(MODULE, "execute_rejected_transaction")
def _execute_rejected(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    execute_rejected(ctx, ctx.signer, Address.parse(args[0]))


@native(MODULE, "execute_rejected_transactions")
def _execute_rejected_many(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    account, final = Address.parse(args[0]), int(args[1])
    data = load_account(ctx, account)
    last = int(data["last_executed_sequence_number"])
    if not last < final < int(data["next_sequence_number"]):
        raise ctx.abort(MODULE, 0x10011, "EINVALID_SEQUENCE_NUMBER")
    for _ in range(final - last):
        execute_rejected(ctx, ctx.signer, account)
