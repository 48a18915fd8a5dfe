"""``0x3::token`` entry functions that move, change or burn tokens v1.

Direct transfers (two signers, or an opted-in receiver), the property mutation that gives
each token of property version 0 a version of its own, and the two burns; checks, their
order and abort codes as in ``aptos-token``'s ``token.move``.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._token_v1 import (
    STRING,
    TOKEN,
    TOKEN_DATA,
    TOKEN_DATA_ID,
    TOKEN_ID,
    TOKEN_STORE,
    abort,
    deposit_token,
    direct_deposit,
    initialize_token_store,
    read_bool_property,
    token_data_id,
    token_data_of,
    token_id,
    update_properties,
    withdraw,
)
from ledgerkit.types import Address, MoveType

__all__: list[str] = []

_BURNABLE_BY_CREATOR: Final = "TOKEN_BURNABLE_BY_CREATOR"
_BURNABLE_BY_OWNER: Final = "TOKEN_BURNABLE_BY_OWNER"
_PROPERTY_MUTABLE: Final = "TOKEN_PROPERTY_MUTATBLE"  # sic, the framework's spelling
_RESERVED_PREFIX: Final = "TOKEN_"


def _tid(creator: Any, collection: str, name: str, version: Any) -> dict[str, Any]:
    return token_id(token_data_id(Address.parse(creator), collection, name), int(version))


@native("token", "direct_transfer_script", address=3)
def _direct_transfer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    creator, collection, name, version, amount = args
    sender, receiver = ctx.signers[0], ctx.signers[1]
    token = withdraw(ctx, sender, _tid(creator, collection, name, version), int(amount))
    deposit_token(ctx, receiver, token)


@native("token", "opt_in_direct_transfer", address=3)
def _opt_in(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    opt_in = bool(args[0])
    owner = ctx.signer
    store = initialize_token_store(ctx, owner)
    ctx.put(owner, TOKEN_STORE, {**store, "direct_transfer": opt_in})
    ctx.emit_module(
        "0x3::token_event_store::OptInTransfer",
        {"account_address": owner.standard, "opt_in": opt_in},
    )


@native("token", "transfer_with_opt_in", address=3)
def _transfer_with_opt_in(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    creator, collection, name, version, to, amount = args
    receiver = Address.parse(to)
    store = ctx.resource(receiver, TOKEN_STORE)
    if store is None:
        raise VMStatusError("MISSING_DATA")
    if not store["direct_transfer"]:
        raise abort(0x50010, "EUSER_NOT_OPT_IN_DIRECT_TRANSFER")
    token = withdraw(ctx, ctx.signer, _tid(creator, collection, name, version), int(amount))
    direct_deposit(ctx, receiver, token)


def _check_property_keys(keys: list[str]) -> None:
    for key in keys:
        if key.encode()[:6] == _RESERVED_PREFIX.encode():
            raise abort(0x50028, "EPROPERTY_RESERVED_BY_STANDARD")


def _update_held(ctx: Context, owner: Address, tid: dict[str, Any], changes: list[Any]) -> None:
    """Write ``changes`` (keys, values, types) into the properties of the token held."""
    store = ctx.resource(owner, TOKEN_STORE)
    tokens = Address.parse(store["tokens"]["handle"])
    held = ctx.table_get(tokens, TOKEN_ID, tid)
    if held is None:
        raise abort(0x6000F, "ENO_TOKEN_IN_TOKEN_STORE")
    _check_property_keys(changes[0])
    properties = {"map": {"data": [dict(e) for e in held["token_properties"]["map"]["data"]]}}
    update_properties(properties, list(changes[0]), list(changes[1]), list(changes[2]))
    ctx.table_put(tokens, TOKEN_ID, TOKEN, tid, {**held, "token_properties": properties})


def _mutate_one(ctx: Context, owner: Address, tid: dict[str, Any], changes: list[Any]) -> None:
    data_id = tid["token_data_id"]
    _, table, data = token_data_of(ctx, data_id)
    # Immutable default properties still let tokens change when the creator said so.
    if not data["mutability_config"]["properties"] and not read_bool_property(
        data["default_properties"], _PROPERTY_MUTABLE
    ):
        raise abort(0x5000D, "EFIELD_NOT_MUTABLE")
    event = {"account": owner.standard, "old_id": tid}
    if int(tid["property_version"]) == 0:
        withdraw(ctx, owner, tid, 1)
        version = int(data["largest_property_version"]) + 1
        new_id = token_id(data_id, version)
        token = {"id": new_id, "amount": "1", "token_properties": data["default_properties"]}
        direct_deposit(ctx, owner, token)
        _update_held(ctx, owner, new_id, changes)
        data = {**data, "largest_property_version": str(version)}
        ctx.table_put(table, TOKEN_DATA_ID, TOKEN_DATA, data_id, data)
    else:
        new_id = tid
        _update_held(ctx, owner, tid, changes)
    keys, values, types = (list(c) for c in changes)
    ctx.emit_module(
        "0x3::token::MutatePropertyMap",
        {**event, "new_id": new_id, "keys": keys, "values": values, "types": types},
    )


@native("token", "mutate_token_properties", address=3)
def _mutate_token_properties(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    owner_arg, creator, collection, name, version, amount = args[:6]
    if Address.parse(creator) != ctx.signer:
        raise abort(0x6000E, "ENO_MUTATE_CAPABILITY")
    tid = _tid(creator, collection, name, version)
    for _ in range(int(amount)):
        _mutate_one(ctx, Address.parse(owner_arg), tid, args[6:9])


def _burn(
    ctx: Context, owner: Address, tid: dict[str, Any], amount: int, *, by_owner: bool
) -> None:
    if amount == 0:
        raise abort(0x1001D, "ENO_BURN_TOKEN_WITH_ZERO_AMOUNT")
    data_id = tid["token_data_id"]
    collections, table, data = token_data_of(ctx, data_id)
    flag = _BURNABLE_BY_OWNER if by_owner else _BURNABLE_BY_CREATOR
    if not read_bool_property(data["default_properties"], flag):
        if by_owner:
            raise abort(0x5001E, "EOWNER_CANNOT_BURN_TOKEN")
        raise abort(0x5001F, "ECREATOR_CANNOT_BURN_TOKEN")
    burned = int(withdraw(ctx, owner, tid, amount)["amount"])
    ctx.emit_module(
        "0x3::token::Burn", {"account": owner.standard, "id": tid, "amount": str(burned)}
    )
    if int(data["maximum"]) == 0:
        return
    supply = int(data["supply"]) - burned
    if supply > 0:
        ctx.table_put(table, TOKEN_DATA_ID, TOKEN_DATA, data_id, {**data, "supply": str(supply)})
        return
    ctx.table_put(table, TOKEN_DATA_ID, TOKEN_DATA, data_id, None)
    collection_table = Address.parse(collections["collection_data"]["handle"])
    collection = ctx.table_get(collection_table, STRING, data_id["collection"])
    if int(collection["maximum"]) > 0:
        left = int(collection["supply"]) - 1
        kept = None if left == 0 else {**collection, "supply": str(left)}
        ctx.table_put(
            collection_table, STRING, "0x3::token::CollectionData", data_id["collection"], kept
        )


@native("token", "burn", address=3)
def _burn_by_owner(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    creator, collection, name, version, amount = args
    tid = _tid(creator, collection, name, version)
    _burn(ctx, ctx.signer, tid, int(amount), by_owner=True)


@native("token", "burn_by_creator", address=3)
def _burn_by_creator(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    owner, collection, name, version, amount = args
    tid = _tid(ctx.signer.standard, collection, name, version)
    _burn(ctx, Address.parse(owner), tid, int(amount), by_owner=False)
