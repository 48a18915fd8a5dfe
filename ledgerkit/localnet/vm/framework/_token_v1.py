"""``0x3::token``: the token standard v1's collections, token data and token stores.

A creator's ``Collections`` resource holds two tables (collection data by name, token
data by :data:`TOKEN_DATA_ID`); an owner's ``TokenStore`` holds one (tokens by
``TokenId``). Amounts, checks and abort codes follow ``aptos-token``'s ``token.move``; the
framework emits module events today (``CreateCollection``, ``TokenDataCreation``,
``Mint``, ``TokenDeposit``, ``TokenWithdraw``...) and leaves the resources' event
handles at counter 0, and so does this node. Table handles are derived, as the demo
module's are: ``SHA3-256("ledgerkit::" ‖ module ‖ "::" ‖ field ‖ owner)``, so the same
chain always has the same handles (a node derives them from the creating transaction).

This module holds the state operations the others share (ids, property maps, stores,
withdraw and deposit) and the creating entry functions; ``_token_v1_changes`` the
transfers, mutations and burns, ``_token_v1_offers`` the ``token_transfers`` module.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import ensure_account
from ledgerkit.localnet.vm.framework._context import Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._move_values import string_length
from ledgerkit.localnet.vm.framework._state_keys import table_handle
from ledgerkit.types import U64_MAX, Address, MoveType

__all__ = [
    "COLLECTIONS",
    "STRING",
    "TOKEN",
    "TOKEN_DATA",
    "TOKEN_DATA_ID",
    "TOKEN_ID",
    "TOKEN_STORE",
    "abort",
    "balance_of",
    "deposit_token",
    "direct_deposit",
    "empty_properties",
    "ensure_account",
    "initialize_token_store",
    "mint_token",
    "mutability",
    "new_properties",
    "read_bool_property",
    "token_data_id",
    "token_data_of",
    "token_id",
    "update_properties",
    "withdraw",
]

COLLECTIONS: Final = "0x3::token::Collections"
TOKEN_STORE: Final = "0x3::token::TokenStore"
TOKEN: Final = "0x3::token::Token"
TOKEN_ID: Final = "0x3::token::TokenId"
TOKEN_DATA: Final = "0x3::token::TokenData"
TOKEN_DATA_ID: Final = "0x3::token::TokenDataId"
COLLECTION_DATA: Final = "0x3::token::CollectionData"
STRING: Final = "0x1::string::String"
_MODULE: Final = "0x3::token"
MAX_COLLECTION_NAME_LENGTH: Final = 128
MAX_NFT_NAME_LENGTH: Final = 128
MAX_URI_LENGTH: Final = 512
MAX_PROPERTY_MAP_SIZE: Final = 1000
MAX_PROPERTY_NAME_LENGTH: Final = 128
#: mutate_setting indices of a token (maximum, uri, royalty, description, properties) and of a
#: collection (description, uri, maximum).
TOKEN_MUTABLE_FIELDS: Final = ("maximum", "uri", "royalty", "description", "properties")
COLLECTION_MUTABLE_FIELDS: Final = ("description", "uri", "maximum")


def abort(code: int, name: str) -> Exception:
    """``0x3::token`` aborting with ``code`` (checked to be ``name``)."""
    return Context.abort(_MODULE, code, name)


def token_data_id(creator: Address, collection: str, name: str) -> dict[str, Any]:
    return {"creator": creator.standard, "collection": collection, "name": name}


def token_id(data_id: dict[str, Any], property_version: int) -> dict[str, Any]:
    return {"token_data_id": data_id, "property_version": str(property_version)}


def empty_properties() -> dict[str, Any]:
    return {"map": {"data": []}}


def new_properties(keys: list[str], values: list[str], types: list[str]) -> dict[str, Any]:
    """``0x3::property_map::new``: entries in the order given, types not checked."""
    if len(keys) > MAX_PROPERTY_MAP_SIZE:
        raise Context.abort("0x3::property_map", 0x10002, "EPROPERTY_NUMBER_EXCEED_LIMIT")
    if len(keys) != len(values):
        raise Context.abort("0x3::property_map", 0x10004, "EKEY_COUNT_NOT_MATCH_VALUE_COUNT")
    if len(keys) != len(types):
        raise Context.abort("0x3::property_map", 0x10005, "EKEY_COUNT_NOT_MATCH_TYPE_COUNT")
    data: list[dict[str, Any]] = []
    for key, value, kind in zip(keys, values, types, strict=True):
        if string_length(key) > MAX_PROPERTY_NAME_LENGTH:
            raise Context.abort("0x3::property_map", 0x10007, "EPROPERTY_MAP_NAME_TOO_LONG")
        if any(entry["key"] == key for entry in data):
            raise Context.abort("simple_map", 0x10001, "EKEY_ALREADY_EXISTS")
        data.append({"key": key, "value": {"value": value, "type": kind}})
    return {"map": {"data": data}}


def update_properties(
    properties: dict[str, Any], keys: list[str], values: list[str], types: list[str]
) -> None:
    """``property_map::update_property_map``: replace or add each key, in place."""
    if len(keys) != len(values):
        raise Context.abort("0x3::property_map", 0x30004, "EKEY_COUNT_NOT_MATCH_VALUE_COUNT")
    if len(keys) != len(types):
        raise Context.abort("0x3::property_map", 0x30005, "EKEY_COUNT_NOT_MATCH_TYPE_COUNT")
    data = properties["map"]["data"]
    for key, value, kind in zip(keys, values, types, strict=True):
        entry = {"value": value, "type": kind}
        found = next((item for item in data if item["key"] == key), None)
        if found is not None:
            found["value"] = entry
            continue
        if string_length(key) > MAX_PROPERTY_NAME_LENGTH:
            raise Context.abort("0x3::property_map", 0x10007, "EPROPERTY_MAP_NAME_TOO_LONG")
        if len(data) >= MAX_PROPERTY_MAP_SIZE:
            raise Context.abort("0x3::property_map", 0x30002, "EPROPERTY_NUMBER_EXCEED_LIMIT")
        data.append({"key": key, "value": entry})


def read_bool_property(properties: dict[str, Any], key: str) -> bool | None:
    """The bool under ``key`` (``property_map::read_bool``), None when the key is absent."""
    found = next((item for item in properties["map"]["data"] if item["key"] == key), None)
    if found is None:
        return None
    if found["value"]["type"] != "bool":
        raise Context.abort("0x3::property_map", 0x30006, "ETYPE_NOT_MATCH")
    raw: str = found["value"]["value"]
    if raw not in ("0x00", "0x01"):
        raise Context.abort("from_bcs", 0x10001)
    return raw == "0x01"


def mutability(setting: list[bool], fields: tuple[str, ...]) -> dict[str, bool]:
    """A mutability config from a ``mutate_setting`` vector (too short: the VM's error
    for a vector index out of range)."""
    if len(setting) < len(fields):
        raise VMStatusError("VECTOR_OPERATION_ERROR")
    return {name: bool(setting[i]) for i, name in enumerate(fields)}


def _handle(data: Any, field: str) -> Address:
    return Address.parse(data[field]["handle"])


# -- stores -----------------------------------------------------------------------------------


def initialize_token_store(ctx: Context, owner: Address) -> Any:
    store = ctx.resource(owner, TOKEN_STORE)
    if store is None:
        ensure_account(ctx, owner)
        store = {
            "tokens": {"handle": table_handle("token", "tokens", owner).standard},
            "direct_transfer": False,
            "deposit_events": ctx.new_handle(owner),
            "withdraw_events": ctx.new_handle(owner),
            "burn_events": ctx.new_handle(owner),
            "mutate_token_property_events": ctx.new_handle(owner),
        }
        ctx.put(owner, TOKEN_STORE, store)
    return store


def balance_of(ctx: Context, owner: Address, tid: dict[str, Any]) -> int:
    store = ctx.resource(owner, TOKEN_STORE)
    if store is None:
        return 0
    token = ctx.table_get(_handle(store, "tokens"), TOKEN_ID, tid)
    return 0 if token is None else int(token["amount"])


def direct_deposit(ctx: Context, owner: Address, token: dict[str, Any]) -> None:
    """Add ``token`` to ``owner``'s store (which must exist), merging with what is there."""
    if int(token["amount"]) == 0:
        raise abort(0x10021, "ETOKEN_CANNOT_HAVE_ZERO_AMOUNT")
    store = ctx.resource(owner, TOKEN_STORE)
    if store is None:
        raise VMStatusError("MISSING_DATA")
    ctx.emit_module(
        "0x3::token::TokenDeposit",
        {"account": owner.standard, "id": token["id"], "amount": token["amount"]},
    )
    tokens = _handle(store, "tokens")
    held = ctx.table_get(tokens, TOKEN_ID, token["id"])
    if held is not None:
        total = int(held["amount"]) + int(token["amount"])
        if total > U64_MAX:
            raise VMStatusError("ARITHMETIC_ERROR")
        token = {**held, "amount": str(total)}
    ctx.table_put(tokens, TOKEN_ID, TOKEN, token["id"], token)


def deposit_token(ctx: Context, owner: Address, token: dict[str, Any]) -> None:
    """``token::deposit_token``: the signer's store is made when it has none."""
    initialize_token_store(ctx, owner)
    direct_deposit(ctx, owner, token)


def withdraw(ctx: Context, owner: Address, tid: dict[str, Any], amount: int) -> dict[str, Any]:
    """Take ``amount`` of ``tid`` from ``owner``'s store: the token taken (a part carries no
    properties, the whole carries its own)."""
    if amount == 0:
        raise abort(0x10011, "EWITHDRAW_ZERO")
    if balance_of(ctx, owner, tid) < amount:
        raise abort(0x10005, "EINSUFFICIENT_BALANCE")
    ctx.emit_module(
        "0x3::token::TokenWithdraw", {"account": owner.standard, "id": tid, "amount": str(amount)}
    )
    tokens = _handle(ctx.resource(owner, TOKEN_STORE), "tokens")
    held = ctx.table_get(tokens, TOKEN_ID, tid)
    if int(held["amount"]) > amount:
        ctx.table_put(
            tokens, TOKEN_ID, TOKEN, tid, {**held, "amount": str(int(held["amount"]) - amount)}
        )
        return {"id": tid, "amount": str(amount), "token_properties": empty_properties()}
    ctx.table_put(tokens, TOKEN_ID, TOKEN, tid, None)
    return dict(held)


def token_data_of(ctx: Context, data_id: dict[str, Any]) -> tuple[Any, Address, Any]:
    """``(Collections, token data table, TokenData)`` of ``data_id``: 0x60001 / 0x6000A
    when either is missing."""
    creator = Address.parse(data_id["creator"])
    collections = ctx.resource(creator, COLLECTIONS)
    if collections is None:
        raise abort(0x60001, "ECOLLECTIONS_NOT_PUBLISHED")
    table = _handle(collections, "token_data")
    data = ctx.table_get(table, TOKEN_DATA_ID, data_id)
    if data is None:
        raise abort(0x6000A, "ETOKEN_DATA_NOT_PUBLISHED")
    return collections, table, data


# -- creating ---------------------------------------------------------------------------------


@native("token", "create_collection_script", address=3)
def _create_collection(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    name, description, uri, maximum, setting = args
    maximum = int(maximum)
    if string_length(name) > MAX_COLLECTION_NAME_LENGTH:
        raise abort(0x10019, "ECOLLECTION_NAME_TOO_LONG")
    if string_length(uri) > MAX_URI_LENGTH:
        raise abort(0x1001B, "EURI_TOO_LONG")
    creator = ctx.signer
    collections = ctx.resource(creator, COLLECTIONS)
    if collections is None:
        ensure_account(ctx, creator)
        collections = {
            "collection_data": {
                "handle": table_handle("token", "collection_data", creator).standard
            },
            "token_data": {"handle": table_handle("token", "token_data", creator).standard},
            "create_collection_events": ctx.new_handle(creator),
            "create_token_data_events": ctx.new_handle(creator),
            "mint_token_events": ctx.new_handle(creator),
        }
        ctx.put(creator, COLLECTIONS, collections)
    table = _handle(collections, "collection_data")
    if ctx.table_get(table, STRING, name) is not None:
        raise abort(0x80003, "ECOLLECTION_ALREADY_EXISTS")
    collection = {
        "description": description,
        "name": name,
        "uri": uri,
        "supply": "0",
        "maximum": str(maximum),
        "mutability_config": mutability(setting, COLLECTION_MUTABLE_FIELDS),
    }
    ctx.table_put(table, STRING, COLLECTION_DATA, name, collection)
    ctx.emit_module(
        "0x3::token::CreateCollection",
        {
            "creator": creator.standard,
            "collection_name": name,
            "uri": uri,
            "description": description,
            "maximum": str(maximum),
        },
    )


def _create_token_data(ctx: Context, args: list[Any], config: dict[str, bool]) -> dict[str, Any]:
    """``token::create_tokendata``: checks, the collection's supply, the new token data."""
    collection, name, description, _, maximum, uri, payee = args[:7]
    maximum, denominator, numerator = int(maximum), int(args[7]), int(args[8])
    keys, values, types = args[10:13]
    if string_length(name) > MAX_NFT_NAME_LENGTH:
        raise abort(0x1001A, "ENFT_NAME_TOO_LONG")
    if string_length(collection) > MAX_COLLECTION_NAME_LENGTH:
        raise abort(0x10019, "ECOLLECTION_NAME_TOO_LONG")
    if string_length(uri) > MAX_URI_LENGTH:
        raise abort(0x1001B, "EURI_TOO_LONG")
    if numerator > denominator:
        raise abort(0x10022, "EINVALID_ROYALTY_NUMERATOR_DENOMINATOR")
    creator = ctx.signer
    collections = ctx.resource(creator, COLLECTIONS)
    if collections is None:
        raise abort(0x60001, "ECOLLECTIONS_NOT_PUBLISHED")
    data_id = token_data_id(creator, collection, name)
    collection_table = _handle(collections, "collection_data")
    collection_data = ctx.table_get(collection_table, STRING, collection)
    if collection_data is None:
        raise abort(0x60002, "ECOLLECTION_NOT_PUBLISHED")
    data_table = _handle(collections, "token_data")
    if ctx.table_get(data_table, TOKEN_DATA_ID, data_id) is not None:
        raise abort(0x80009, "ETOKEN_DATA_ALREADY_EXISTS")
    if int(collection_data["maximum"]) > 0:
        supply = int(collection_data["supply"]) + 1
        if supply > int(collection_data["maximum"]):
            raise abort(0x10004, "ECREATE_WOULD_EXCEED_COLLECTION_MAXIMUM")
        collection_data = {**collection_data, "supply": str(supply)}
        ctx.table_put(collection_table, STRING, COLLECTION_DATA, collection, collection_data)
    payee_address = Address.parse(payee).standard
    data = {
        "maximum": str(maximum),
        "largest_property_version": "0",
        "supply": "0",
        "uri": uri,
        "royalty": {
            "royalty_points_numerator": str(numerator),
            "royalty_points_denominator": str(denominator),
            "payee_address": payee_address,
        },
        "name": name,
        "description": description,
        "default_properties": new_properties(list(keys), list(values), list(types)),
        "mutability_config": config,
    }
    ctx.table_put(data_table, TOKEN_DATA_ID, TOKEN_DATA, data_id, data)
    ctx.emit_module(
        "0x3::token::TokenDataCreation",
        {
            "creator": creator.standard,
            "id": data_id,
            "description": description,
            "maximum": str(maximum),
            "uri": uri,
            "royalty_payee_address": payee_address,
            "royalty_points_denominator": str(denominator),
            "royalty_points_numerator": str(numerator),
            "name": name,
            "mutability_config": config,
            "property_keys": list(keys),
            "property_values": list(values),
            "property_types": list(types),
        },
    )
    return data_id


def mint_token(ctx: Context, data_id: dict[str, Any], amount: int) -> None:
    """``token::mint_token``: more of ``data_id`` at property version 0, to its creator."""
    creator = Address.parse(data_id["creator"])
    if creator != ctx.signer:
        raise abort(0x50013, "ENO_MINT_CAPABILITY")
    collections = ctx.resource(creator, COLLECTIONS)
    if collections is None:
        raise VMStatusError("MISSING_DATA")
    table = _handle(collections, "token_data")
    data = ctx.table_get(table, TOKEN_DATA_ID, data_id)
    if data is None:
        raise abort(0x6000A, "ETOKEN_DATA_NOT_PUBLISHED")
    if int(data["maximum"]) > 0:
        supply = int(data["supply"]) + amount
        if supply > int(data["maximum"]):
            raise abort(0x10007, "EMINT_WOULD_EXCEED_TOKEN_MAXIMUM")
        ctx.table_put(table, TOKEN_DATA_ID, TOKEN_DATA, data_id, {**data, "supply": str(supply)})
    ctx.emit_module(
        "0x3::token::Mint", {"creator": creator.standard, "id": data_id, "amount": str(amount)}
    )
    token = {
        "id": token_id(data_id, 0),
        "amount": str(amount),
        "token_properties": empty_properties(),
    }
    deposit_token(ctx, creator, token)


@native("token", "create_token_script", address=3)
def _create_token(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    config = mutability(args[9], TOKEN_MUTABLE_FIELDS)
    data_id = _create_token_data(ctx, args, config)
    mint_token(ctx, data_id, int(args[3]))


@native("token", "mint_script", address=3)
def _mint_script(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    creator, collection, name, amount = args
    data_id = token_data_id(Address.parse(creator), collection, name)
    if Address.parse(creator) != ctx.signer:
        raise abort(0x50013, "ENO_MINT_CAPABILITY")
    mint_token(ctx, data_id, int(amount))


@native("token", "initialize_token_script", address=3)
def _initialize_token_script(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    raise ctx.abort(_MODULE, 0)


@native("token", "get_collection_mutability_config", address=3)
def _collection_mutability(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    creator, name = Address.parse(args[0]), args[1]
    collections = ctx.resource(creator, COLLECTIONS)
    if collections is None:
        raise abort(0x60001, "ECOLLECTIONS_NOT_PUBLISHED")
    collection = ctx.table_get(_handle(collections, "collection_data"), STRING, name)
    if collection is None:
        raise abort(0x60002, "ECOLLECTION_NOT_PUBLISHED")
    return [collection["mutability_config"]]
