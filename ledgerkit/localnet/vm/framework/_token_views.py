"""The ``#[view]`` functions of the digital asset modules at ``0x4``: a collection's
count and fields, a token's fields and royalty, and what ``aptos_token`` lets a
collection's creator change."""

from __future__ import annotations

import hashlib
from typing import Any

from ledgerkit.localnet.vm.framework import _token_objects as objects
from ledgerkit.localnet.vm.framework._context import Context, native
from ledgerkit.localnet.vm.framework._object_module import object_arg
from ledgerkit.types import Address, MoveType

__all__: list[str] = []


def _token(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> tuple[Address, Any]:
    address = object_arg(ctx, args[0], ty[0])
    return address, objects.token_data(ctx, address)


def _collection_field(field: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        address = object_arg(ctx, args[0], ty[0])
        return [objects.collection_data(ctx, address)[field]]

    native("collection", field, address=4)(body)


for _field in ("creator", "description", "name", "uri"):
    _collection_field(_field)


@native("collection", "count", address=4)
def _count(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = object_arg(ctx, args[0], ty[0])
    objects.collection_data(ctx, address)
    supply = ctx.resource(address, objects.SUPPLY)
    return [{"vec": [] if supply is None else [supply["current_supply"]["value"]]}]


@native("token", "creator", address=4)
def _creator(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _, token = _token(ctx, ty, args)
    collection = Address.parse(token["collection"]["inner"])
    return [objects.collection_data(ctx, collection)["creator"]]


@native("token", "collection_name", address=4)
def _collection_name(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _, token = _token(ctx, ty, args)
    collection = Address.parse(token["collection"]["inner"])
    return [objects.collection_data(ctx, collection)["name"]]


@native("token", "collection_object", address=4)
def _collection_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_token(ctx, ty, args)[1]["collection"]]


@native("token", "description", address=4)
def _description(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_token(ctx, ty, args)[1]["description"]]


@native("token", "uri", address=4)
def _uri(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_token(ctx, ty, args)[1]["uri"]]


@native("token", "name", address=4)
def _name(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address, token = _token(ctx, ty, args)
    identifiers = ctx.resource(address, objects.TOKEN_IDS)
    return [token["name"] if identifiers is None else identifiers["name"]["value"]]


@native("token", "index", address=4)
def _index(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = object_arg(ctx, args[0], ty[0])
    identifiers = ctx.resource(address, objects.TOKEN_IDS)
    if identifiers is not None:
        return [identifiers["index"]["value"]]
    return [objects.token_data(ctx, address)["index"]]


@native("token", "royalty", address=4)
def _royalty(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address, token = _token(ctx, ty, args)
    own = ctx.resource(address, objects.ROYALTY)
    if own is not None:
        return [{"vec": [own]}]
    collection = ctx.resource(Address.parse(token["collection"]["inner"]), objects.ROYALTY)
    return [{"vec": [] if collection is None else [collection]}]


@native("token", "create_token_address_with_seed", address=4)
def _address_with_seed(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    creator, collection, name, seed = args
    if len(seed.encode()) > 128:
        raise ctx.abort("0x4::token", 0x20007, "ESEED_TOO_LONG")
    material = bytes(Address.parse(creator)) + f"{collection}::{name}{seed}".encode() + b"\xfe"
    return [Address(hashlib.sha3_256(material).digest()).standard]


@native("aptos_token", "is_burnable", address=4)
def _is_burnable(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    aptos_token = ctx.resource(object_arg(ctx, args[0], ty[0]), objects.APTOS_TOKEN)
    if aptos_token is None:
        raise ctx.abort("0x4::aptos_token", 0x60002, "ETOKEN_DOES_NOT_EXIST")
    return [bool(aptos_token["burn_ref"]["vec"])]


def _collection_flag(name: str, field: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        collection = Address.parse(_token(ctx, ty, args)[1]["collection"]["inner"])
        return [objects.aptos_collection(ctx, collection)[field]]

    native("aptos_token", name, address=4)(body)


for _name_, _flag in (
    ("are_properties_mutable", "mutable_token_properties"),
    ("is_freezable_by_creator", "tokens_freezable_by_creator"),
    ("is_mutable_description", "mutable_token_description"),
    ("is_mutable_name", "mutable_token_name"),
    ("is_mutable_uri", "mutable_token_uri"),
):
    _collection_flag(_name_, _flag)
