"""Digital assets at ``0x4``: collections, tokens, royalties and the ``aptos_token``
entry functions and views over them, as Python bodies over a :class:`Context`.

A collection is the named object ``SHA3-256(creator ‖ name ‖ 0xFE)`` holding
``Collection``, ``ConcurrentSupply``, ``Royalty`` and ``AptosCollection``; a token minted
by ``aptos_token::mint`` is an unnamed object of the transaction holding
``TokenIdentifiers``, ``Token``, ``AptosToken`` and ``PropertyMap``. Checks run in the
framework's order and abort with its codes; events are the module events emitted today
(``collection::Mint`` / ``Burn`` / ``Mutation``, ``token::Mutation``, ``object::Transfer``).
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework import _property_map as props
from ledgerkit.localnet.vm.framework._context import Context, native
from ledgerkit.localnet.vm.framework._move_values import string_length
from ledgerkit.localnet.vm.framework._object_module import (
    OBJECT_CORE,
    UNTRANSFERABLE,
    create_object,
    named_object_address,
    new_object_handle,
    object_arg,
    owner_of,
    set_ungated,
    transfer_with_ref,
)
from ledgerkit.types import U64_MAX, Address, MoveType

__all__ = [
    "COLLECTION",
    "TOKEN",
    "aptos_collection",
    "collection_address",
    "collection_data",
    "derived_string",
    "token_data",
]

COLLECTION: Final = "0x4::collection::Collection"
SUPPLY: Final = "0x4::collection::ConcurrentSupply"
ROYALTY: Final = "0x4::royalty::Royalty"
TOKEN: Final = "0x4::token::Token"
TOKEN_IDS: Final = "0x4::token::TokenIdentifiers"
APTOS_COLLECTION: Final = "0x4::aptos_token::AptosCollection"
APTOS_TOKEN: Final = "0x4::aptos_token::AptosToken"
_AT: Final = "0x4::aptos_token"


def _none() -> dict[str, list[Any]]:
    return {"vec": []}


def _some(value: Any) -> dict[str, Any]:
    return {"vec": [value]}


def collection_address(ctx: Context, creator: Address, name: str) -> Address:
    """``collection::create_collection_address`` (the name is the seed, 128 bytes at most)."""
    if string_length(name) > 128:
        raise ctx.abort("0x4::collection", 0x20003, "ECOLLECTION_NAME_TOO_LONG")
    return named_object_address(creator, name.encode())


def derived_string(value: str) -> dict[str, str]:
    """``aggregator_v2::create_derived_string``: the value zero-padded so that its BCS
    takes ``max(bcs(value) + 1, 22)`` bytes."""
    size = string_length(value)
    bcs_size = size + len(_uleb(size))
    width = max(bcs_size + 1, 22)
    return {"value": value, "padding": "0x" + "00" * (width - bcs_size - 1)}


def _uleb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _royalty(ctx: Context, numerator: int, denominator: int, payee: Address) -> dict[str, str]:
    if denominator == 0:
        raise ctx.abort("0x4::royalty", 0x20003, "EROYALTY_DENOMINATOR_IS_ZERO")
    if numerator > denominator:
        raise ctx.abort("0x4::royalty", 0x20002, "EROYALTY_EXCEEDS_MAXIMUM")
    return {
        "numerator": str(numerator),
        "denominator": str(denominator),
        "payee_address": payee.standard,
    }


# -- collection ---------------------------------------------------------------------------------


@native("aptos_token", "create_collection", address=4)
def _create_collection(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    description, max_supply, name, uri = args[0], int(args[1]), args[2], args[3]
    flags = args[4:13]
    creator = ctx.signer
    royalty = _royalty(ctx, int(args[13]), int(args[14]), creator)
    if max_supply == 0:
        raise ctx.abort("0x4::collection", 0x10006, "EMAX_SUPPLY_CANNOT_BE_ZERO")
    address = collection_address(ctx, creator, name)
    create_object(ctx, address, creator)
    if string_length(uri) > 512:
        raise ctx.abort("0x4::collection", 0x20004, "EURI_TOO_LONG")
    if string_length(description) > 2048:
        raise ctx.abort("0x4::collection", 0x20005, "EDESCRIPTION_TOO_LONG")
    handle = new_object_handle(ctx, address)
    ctx.put(
        address,
        COLLECTION,
        {
            "creator": creator.standard,
            "description": description,
            "name": name,
            "uri": uri,
            "mutation_events": handle,
        },
    )
    ctx.put(
        address,
        SUPPLY,
        {
            "current_supply": {"value": "0", "max_value": str(max_supply)},
            "total_minted": {"value": "0", "max_value": str(U64_MAX)},
        },
    )
    ctx.put(address, ROYALTY, royalty)
    set_ungated(ctx, address, False)
    (mut_description, mut_royalty, mut_uri, *token_flags) = flags
    aptos_collection: dict[str, Any] = {
        "mutator_ref": _some({"self": address.standard}) if mut_description or mut_uri else _none(),
        "royalty_mutator_ref": _some({"inner": {"self": address.standard}})
        if mut_royalty
        else _none(),
        "mutable_description": mut_description,
        "mutable_uri": mut_uri,
    }
    for field, flag in zip(
        (
            "mutable_token_description",
            "mutable_token_name",
            "mutable_token_properties",
            "mutable_token_uri",
            "tokens_burnable_by_creator",
            "tokens_freezable_by_creator",
        ),
        token_flags,
        strict=True,
    ):
        aptos_collection[field] = flag
    ctx.put(address, APTOS_COLLECTION, aptos_collection)


def collection_data(ctx: Context, address: Address) -> Any:
    collection = ctx.resource(address, COLLECTION)
    if collection is None:
        raise ctx.abort("0x4::collection", 0x60001, "ECOLLECTION_DOES_NOT_EXIST")
    return collection


def aptos_collection(ctx: Context, address: Address) -> Any:
    found = ctx.resource(address, APTOS_COLLECTION)
    if found is None:
        raise ctx.abort(_AT, 0x60001, "ECOLLECTION_DOES_NOT_EXIST")
    return found


def _authorized_collection(ctx: Context, address: Address) -> Any:
    found = aptos_collection(ctx, address)
    if Address.parse(collection_data(ctx, address)["creator"]) != ctx.signer:
        raise ctx.abort(_AT, 0x50003, "ENOT_CREATOR")
    return found


def _set_collection_field(field: str, flag: str, limit: int, code: int, name: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
        address = object_arg(ctx, args[0], ty[0])
        if not _authorized_collection(ctx, address)[flag]:
            raise ctx.abort(_AT, 0x50004, "EFIELD_NOT_MUTABLE")
        value = args[1]
        if string_length(value) > limit:
            raise ctx.abort("0x4::collection", code, name)
        collection = collection_data(ctx, address)
        ctx.emit_module(
            "0x4::collection::Mutation",
            {
                "mutated_field_name": field,
                "collection": {"inner": address.standard},
                "old_value": collection[field],
                "new_value": value,
            },
        )
        collection[field] = value
        ctx.put(address, COLLECTION, collection)

    native("aptos_token", f"set_collection_{field}", address=4)(body)


_set_collection_field("description", "mutable_description", 2048, 0x20005, "EDESCRIPTION_TOO_LONG")
_set_collection_field("uri", "mutable_uri", 512, 0x20004, "EURI_TOO_LONG")


@native("aptos_token", "set_collection_royalties_call", address=4)
def _set_royalties(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = object_arg(ctx, args[0], ty[0])
    royalty = _royalty(ctx, int(args[1]), int(args[2]), Address.parse(args[3]))
    if not _authorized_collection(ctx, address)["royalty_mutator_ref"]["vec"]:
        raise ctx.abort(_AT, 0x50004, "EFIELD_NOT_MUTABLE")
    ctx.put(address, ROYALTY, royalty)


# -- minting and burning ---------------------------------------------------------------------------


def _mint(ctx: Context, args: list[Any]) -> tuple[Address, Any]:
    collection_name, description, name, uri, keys, types, values = args[:7]
    creator = ctx.signer
    token = ctx.auid_address()
    create_object(ctx, token, creator)
    collection = collection_address(ctx, creator, collection_name)
    object_arg(ctx, collection.standard, COLLECTION)
    if Address.parse(collection_data(ctx, collection)["creator"]) != creator:
        raise ctx.abort("0x4::token", 0x40002, "ENOT_CREATOR")
    if string_length(name) > 128:
        raise ctx.abort("0x4::token", 0x20004, "ETOKEN_NAME_TOO_LONG")
    if string_length(description) > 2048:
        raise ctx.abort("0x4::token", 0x20006, "EDESCRIPTION_TOO_LONG")
    if string_length(uri) > 512:
        raise ctx.abort("0x4::token", 0x20005, "EURI_TOO_LONG")
    supply = ctx.resource(collection, SUPPLY)
    index = 0
    if supply is not None:
        current = int(supply["current_supply"]["value"]) + 1
        if current > int(supply["current_supply"]["max_value"]):
            raise ctx.abort("0x4::collection", 0x20002, "ECOLLECTION_SUPPLY_EXCEEDED")
        index = int(supply["total_minted"]["value"]) + 1
        supply["current_supply"]["value"] = str(current)
        supply["total_minted"]["value"] = str(index)
        ctx.put(collection, SUPPLY, supply)
        ctx.emit_module(
            "0x4::collection::Mint",
            {
                "collection": collection.standard,
                "index": {"value": str(index)},
                "token": token.standard,
            },
        )
    ctx.put(token, TOKEN_IDS, {"index": {"value": str(index)}, "name": derived_string(name)})
    ctx.put(
        token,
        TOKEN,
        {
            "collection": {"inner": collection.standard},
            "index": "0",
            "description": description,
            "name": "",
            "uri": uri,
            "mutation_events": new_object_handle(ctx, token),
        },
    )
    object_arg(ctx, collection.standard, APTOS_COLLECTION)
    flags = aptos_collection(ctx, collection)
    mutable = (
        flags["mutable_token_description"]
        or flags["mutable_token_name"]
        or flags["mutable_token_uri"]
    )
    burn_ref = {"inner": _some({"self": token.standard}), "self": _none()}
    aptos_token = {
        "burn_ref": _some(burn_ref) if flags["tokens_burnable_by_creator"] else _none(),
        "transfer_ref": _none(),
        "mutator_ref": _some({"self": token.standard}) if mutable else _none(),
        "property_mutator_ref": {"self": token.standard},
    }
    ctx.put(token, APTOS_TOKEN, aptos_token)
    ctx.put(token, props.PROPERTY_MAP, props.prepare_input(ctx, keys, types, values))
    return token, flags


@native("aptos_token", "mint", address=4)
def _mint_entry(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    token, flags = _mint(ctx, args)
    if flags["tokens_freezable_by_creator"]:
        aptos_token = ctx.resource(token, APTOS_TOKEN)
        aptos_token["transfer_ref"] = _some({"self": token.standard})
        ctx.put(token, APTOS_TOKEN, aptos_token)


@native("aptos_token", "mint_soul_bound", address=4)
def _mint_soul_bound(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    token, _ = _mint(ctx, args)
    transfer_with_ref(ctx, token, Address.parse(args[7]))
    set_ungated(ctx, token, False)


def token_data(ctx: Context, token: Address) -> Any:
    found = ctx.resource(token, TOKEN)
    if found is None:
        raise ctx.abort("0x4::token", 0x60001, "ETOKEN_DOES_NOT_EXIST")
    return found


def _token_collection(ctx: Context, token: Address) -> Address:
    return Address.parse(token_data(ctx, token)["collection"]["inner"])


def _authorized_token(ctx: Context, token: Address) -> Any:
    aptos_token = ctx.resource(token, APTOS_TOKEN)
    if aptos_token is None:
        raise ctx.abort(_AT, 0x60002, "ETOKEN_DOES_NOT_EXIST")
    creator = collection_data(ctx, _token_collection(ctx, token))["creator"]
    if Address.parse(creator) != ctx.signer:
        raise ctx.abort(_AT, 0x50003, "ENOT_CREATOR")
    return aptos_token


@native("aptos_token", "burn", address=4)
def _burn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    token = object_arg(ctx, args[0], ty[0])
    aptos_token = _authorized_token(ctx, token)
    burn_ref = aptos_token["burn_ref"]["vec"]
    if not burn_ref:
        raise ctx.abort(_AT, 0x50005, "ETOKEN_NOT_BURNABLE")
    ctx.delete(token, APTOS_TOKEN)
    if not ctx.exists(token, props.PROPERTY_MAP):
        raise ctx.abort("0x4::property_map", 0x60001, "EPROPERTY_MAP_DOES_NOT_EXIST")
    ctx.delete(token, props.PROPERTY_MAP)
    object_arg(ctx, token.standard, TOKEN)
    previous_owner = owner_of(ctx, token)
    if burn_ref[0]["inner"]["vec"]:
        ctx.delete(token, OBJECT_CORE)
        if ctx.exists(token, UNTRANSFERABLE):
            ctx.delete(token, UNTRANSFERABLE)
    if ctx.exists(token, ROYALTY):
        ctx.delete(token, ROYALTY)
    data = token_data(ctx, token)
    ctx.delete(token, TOKEN)
    index = int(data["index"])
    identifiers = ctx.resource(token, TOKEN_IDS)
    if identifiers is not None:
        index = int(identifiers["index"]["value"])
        ctx.delete(token, TOKEN_IDS)
    collection = Address.parse(data["collection"]["inner"])
    supply = ctx.resource(collection, SUPPLY)
    if supply is not None:
        supply["current_supply"]["value"] = str(int(supply["current_supply"]["value"]) - 1)
        ctx.put(collection, SUPPLY, supply)
        ctx.emit_module(
            "0x4::collection::Burn",
            {
                "collection": collection.standard,
                "index": str(index),
                "token": token.standard,
                "previous_owner": previous_owner.standard,
            },
        )


def _freeze(allowed: bool) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
        token = object_arg(ctx, args[0], ty[0])
        aptos_token = _authorized_token(ctx, token)
        flags = aptos_collection(ctx, _token_collection(ctx, token))
        if not (flags["tokens_freezable_by_creator"] and aptos_token["transfer_ref"]["vec"]):
            raise ctx.abort(_AT, 0x50004, "EFIELD_NOT_MUTABLE")
        set_ungated(ctx, token, allowed)

    native("aptos_token", "unfreeze_transfer" if allowed else "freeze_transfer", address=4)(body)


_freeze(False)
_freeze(True)


# -- token mutators ------------------------------------------------------------------------------


def _set_token_field(field: str, limit: int, code: int, name: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
        token = object_arg(ctx, args[0], ty[0])
        if not aptos_collection(ctx, _token_collection(ctx, token))[f"mutable_token_{field}"]:
            raise ctx.abort(_AT, 0x50004, "EFIELD_NOT_MUTABLE")
        _authorized_token(ctx, token)
        value = args[1]
        if string_length(value) > limit:
            raise ctx.abort("0x4::token", code, name)
        data = token_data(ctx, token)
        identifiers = ctx.resource(token, TOKEN_IDS) if field == "name" else None
        if identifiers is not None:
            old = identifiers["name"]["value"]
            identifiers["name"] = derived_string(value)
            ctx.put(token, TOKEN_IDS, identifiers)
        else:
            old = data[field]
            data[field] = value
            ctx.put(token, TOKEN, data)
        ctx.emit_module(
            "0x4::token::Mutation",
            {
                "token_address": token.standard,
                "mutated_field_name": field,
                "old_value": old,
                "new_value": value,
            },
        )

    native("aptos_token", f"set_{field}", address=4)(body)


_set_token_field("description", 2048, 0x20006, "EDESCRIPTION_TOO_LONG")
_set_token_field("name", 128, 0x20004, "ETOKEN_NAME_TOO_LONG")
_set_token_field("uri", 512, 0x20005, "EURI_TOO_LONG")


def _properties_target(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> Address:
    token = object_arg(ctx, args[0], ty[0])
    _authorized_token(ctx, token)
    if not aptos_collection(ctx, _token_collection(ctx, token))["mutable_token_properties"]:
        raise ctx.abort(_AT, 0x50006, "EPROPERTIES_NOT_MUTABLE")
    return token


@native("aptos_token", "add_property", address=4)
def _add_property(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    token = _properties_target(ctx, ty, args)
    props.add(ctx, token, args[1], *props.checked(ctx, args[2], args[3]))


@native("aptos_token", "add_typed_property", address=4)
def _add_typed_property(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    token = _properties_target(ctx, ty, args)
    props.add(ctx, token, args[1], *props.typed_value(ctx, ty[1], args[2]))


@native("aptos_token", "update_property", address=4)
def _update_property(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    token = _properties_target(ctx, ty, args)
    props.update(ctx, token, args[1], *props.checked(ctx, args[2], args[3]))


@native("aptos_token", "update_typed_property", address=4)
def _update_typed_property(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    token = _properties_target(ctx, ty, args)
    props.update(ctx, token, args[1], *props.typed_value(ctx, ty[1], args[2]))


@native("aptos_token", "remove_property", address=4)
def _remove_property(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    props.remove(ctx, _properties_target(ctx, ty, args), args[1])
