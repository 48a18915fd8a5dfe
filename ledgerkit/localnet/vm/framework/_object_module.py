"""``0x1::object`` beyond the primary stores: creating objects, ``Object<T>`` arguments,
ownership transfers (``transfer``, ``transfer_call``, ``transfer_to_object``), the soft
burn and its undoing, and the ownership views.

An object is an address holding ``ObjectCore``; its other resources (members of the
``ObjectGroup`` resource group, written whole: :mod:`._resource_groups`) sit beside it.
Named objects live at ``SHA3-256(creator ‖ seed ‖ 0xFE)``, unnamed ones at the
transaction's unique addresses (:meth:`Context.auid_address`).
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import Context, native
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.types import Address, MoveType

__all__ = [
    "OBJECT_CORE",
    "UNTRANSFERABLE",
    "create_object",
    "named_object_address",
    "new_object_handle",
    "object_arg",
    "owner_of",
    "set_ungated",
    "transfer_raw",
    "transfer_with_ref",
]

OBJECT_CORE: Final = "0x1::object::ObjectCore"
TOMBSTONE: Final = "0x1::object::TombStone"
UNTRANSFERABLE: Final = "0x1::object::Untransferable"
_GUID_START: Final = 0x4000000000000
_MAX_NESTING: Final = 8
_BURN_ADDRESS: Final = Address(b"\xff" * 32)


def named_object_address(creator: Address, seed: bytes) -> Address:
    """``object::create_object_address``: ``SHA3-256(creator ‖ seed ‖ 0xFE)``."""
    return Address(hashlib.sha3_256(bytes(creator) + seed + b"\xfe").digest())


def create_object(ctx: Context, address: Address, owner: Address) -> dict[str, Any]:
    """Write a new ``ObjectCore`` at ``address`` owned by ``owner`` (ungated transfers on);
    aborts ``EOBJECT_EXISTS`` when one is there."""
    if ctx.exists(address, OBJECT_CORE):
        raise ctx.abort("object", 0x80001, "EOBJECT_EXISTS")
    core = {
        "guid_creation_num": str(_GUID_START + 1),
        "owner": owner.standard,
        "allow_ungated_transfer": True,
        "transfer_events": {
            "counter": "0",
            "guid": {"id": {"creation_num": str(_GUID_START), "addr": address.standard}},
        },
    }
    ctx.put(address, OBJECT_CORE, core)
    return core


def new_object_handle(ctx: Context, address: Address) -> dict[str, Any]:
    """``object::new_event_handle``: a handle on the object's next GUID."""
    core = ctx.resource(address, OBJECT_CORE)
    number = int(core["guid_creation_num"])
    core["guid_creation_num"] = str(number + 1)
    ctx.put(address, OBJECT_CORE, core)
    return {
        "counter": "0",
        "guid": {"id": {"creation_num": str(number), "addr": address.standard}},
    }


def object_arg(ctx: Context, value: Any, resource: MoveType | str) -> Address:
    """The address of an ``Object<T>`` argument, checked as the VM builds it
    (``address_to_object<T>``): ``ObjectCore`` there, then ``T`` there."""
    address = Address.parse(value["inner"] if isinstance(value, dict) else value)
    if not ctx.exists(address, OBJECT_CORE):
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    tag = resource if isinstance(resource, str) else render_type(resource)
    if not ctx.exists(address, tag):
        raise ctx.abort("object", 0x60007, "ERESOURCE_DOES_NOT_EXIST")
    return address


def owner_of(ctx: Context, address: Address) -> Address:
    core = ctx.resource(address, OBJECT_CORE)
    if core is None:
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    return Address.parse(core["owner"])


def _set_owner(ctx: Context, address: Address, to: Address, *, always: bool = False) -> None:
    core = ctx.resource(address, OBJECT_CORE)
    old = Address.parse(core["owner"])
    if old == to and not always:
        return
    ctx.emit_module(
        "0x1::object::Transfer",
        {"object": address.standard, "from": old.standard, "to": to.standard},
    )
    core["owner"] = to.standard
    ctx.put(address, OBJECT_CORE, core)


def transfer_with_ref(
    ctx: Context, address: Address, to: Address, *, owner: Address | None = None
) -> None:
    """``transfer_with_ref`` of a linear transfer ref: emits ``Transfer`` even when the
    owner does not change. ``owner`` is the ref's (the owner when it was made: aborts
    ``ENOT_OBJECT_OWNER`` when that changed since); None: one taken just now."""
    if ctx.exists(address, UNTRANSFERABLE):
        raise ctx.abort("object", 0x50009, "EOBJECT_NOT_TRANSFERRABLE")
    if ctx.exists(address, TOMBSTONE):
        ctx.delete(address, TOMBSTONE)
    if owner is not None and owner_of(ctx, address) != owner:
        raise ctx.abort("object", 0x50004, "ENOT_OBJECT_OWNER")
    _set_owner(ctx, address, to, always=True)


def set_ungated(ctx: Context, address: Address, allowed: bool) -> None:
    """``disable_ungated_transfer`` / ``enable_ungated_transfer`` (the latter refused for
    an untransferable object)."""
    if allowed and ctx.exists(address, UNTRANSFERABLE):
        raise ctx.abort("object", 0x50009, "EOBJECT_NOT_TRANSFERRABLE")
    core = ctx.resource(address, OBJECT_CORE)
    core["allow_ungated_transfer"] = allowed
    ctx.put(address, OBJECT_CORE, core)


def _verify_ungated(ctx: Context, owner: Address, address: Address) -> None:
    core = ctx.resource(address, OBJECT_CORE)
    if core is None:
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    if not core["allow_ungated_transfer"]:
        raise ctx.abort("object", 0x50003, "ENO_UNGATED_TRANSFERS")
    current = Address.parse(core["owner"])
    count = 0
    while current != owner:
        count += 1
        if count >= _MAX_NESTING:
            raise ctx.abort("object", 0x20006, "EMAXIMUM_NESTING")
        parent = ctx.resource(current, OBJECT_CORE)
        if parent is None:
            raise ctx.abort("object", 0x50004, "ENOT_OBJECT_OWNER")
        if not parent["allow_ungated_transfer"]:
            raise ctx.abort("object", 0x50003, "ENO_UNGATED_TRANSFERS")
        current = Address.parse(parent["owner"])


def transfer_raw(ctx: Context, owner: Address, address: Address, to: Address) -> None:
    """``object::transfer_raw`` by ``owner`` (the signer): ungated transfers all the way
    up to it, then ``Transfer`` and the new owner unless ``to`` owns it already."""
    _verify_ungated(ctx, owner, address)
    _set_owner(ctx, address, to)


@native("object", "transfer_call")
def _transfer_call(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    transfer_raw(ctx, ctx.signer, Address.parse(args[0]), Address.parse(args[1]))


@native("object", "transfer")
def _transfer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    transfer_raw(ctx, ctx.signer, object_arg(ctx, args[0], ty[0]), Address.parse(args[1]))


@native("object", "transfer_to_object")
def _transfer_to_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = object_arg(ctx, args[0], ty[0])
    transfer_raw(ctx, ctx.signer, address, object_arg(ctx, args[1], ty[1]))


@native("object", "burn")
def _burn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = object_arg(ctx, args[0], ty[0])
    if owner_of(ctx, address) != ctx.signer:
        raise ctx.abort("object", 0x50004, "ENOT_OBJECT_OWNER")
    if ctx.exists(address, TOMBSTONE):
        raise ctx.abort("object", 10, "EOBJECT_ALREADY_BURNT")
    ctx.put(address, TOMBSTONE, {"original_owner": ctx.signer.standard})


@native("object", "unburn")
def _unburn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = object_arg(ctx, args[0], ty[0])
    tomb = ctx.resource(address, TOMBSTONE)
    if tomb is None:
        raise ctx.abort("object", 0x10008, "EOBJECT_NOT_BURNT")
    owner = owner_of(ctx, address)
    if owner == ctx.signer:
        ctx.delete(address, TOMBSTONE)
        return
    if owner != _BURN_ADDRESS:
        raise ctx.abort("object", 0x50004, "ENOT_OBJECT_OWNER")
    ctx.delete(address, TOMBSTONE)
    if Address.parse(tomb["original_owner"]) != ctx.signer:
        raise ctx.abort("object", 0x50004, "ENOT_OBJECT_OWNER")
    _set_owner(ctx, address, ctx.signer, always=True)


@native("object", "is_burnt")
def _is_burnt(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.exists(object_arg(ctx, args[0], ty[0]), TOMBSTONE)]


@native("object", "is_untransferable")
def _is_untransferable(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.exists(object_arg(ctx, args[0], ty[0]), UNTRANSFERABLE)]


@native("object", "owner")
def _owner(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [owner_of(ctx, object_arg(ctx, args[0], ty[0])).standard]


@native("object", "is_owner")
def _is_owner(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [owner_of(ctx, object_arg(ctx, args[0], ty[0])) == Address.parse(args[1])]


@native("object", "owns")
def _owns(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    current = object_arg(ctx, args[0], ty[0])
    owner = Address.parse(args[1])
    if current == owner:
        return [True]
    current = owner_of(ctx, current)
    count = 0
    while current != owner:
        count += 1
        if count >= _MAX_NESTING:
            raise ctx.abort("object", 0x20006, "EMAXIMUM_NESTING")
        core = ctx.resource(current, OBJECT_CORE)
        if core is None:
            return [False]
        current = Address.parse(core["owner"])
    return [True]


@native("object", "root_owner")
def _root_owner(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    owner = owner_of(ctx, object_arg(ctx, args[0], ty[0]))
    while ctx.exists(owner, OBJECT_CORE):
        owner = owner_of(ctx, owner)
    return [owner.standard]
