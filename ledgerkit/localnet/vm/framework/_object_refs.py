"""``0x1::object``'s public functions for Move code: creating objects, the refs a
constructor hands out and what they allow, ``Object<T>`` from an address and back.

These run when published Move code calls into ``object`` (the node has no Move
framework bytecode: every framework function is a Python body over JSON values, see
:mod:`._context`). The JSON each side of the call, which the interpreter's bridge
converts Move values to and from:

* ``signer`` / ``&signer``: the signer's address (``"0x..."``); a body returning
  ``signer`` returns that address and the bridge makes a signer value of it. As for
  every body, the leading signer parameters are not in ``args``: the body reads them
  from ``ctx.signers``, which the bridge sets to the signers the Move code passed.
* ``ConstructorRef``: ``{"self": addr, "can_delete": bool}``; ``DeleteRef``,
  ``ExtendRef``, ``TransferRef``, ``DeriveRef``: ``{"self": addr}``;
  ``LinearTransferRef``: ``{"self": addr, "owner": addr}``; ``Object<T>``:
  ``{"inner": addr}``; ``GUID``: ``{"id": {"creation_num": "n", "addr": addr}}``;
  ``EventHandle<T>``: ``{"counter": "n", "guid": GUID}``. A ``&T`` parameter is T's JSON.

Objects are written as :mod:`._object_module` writes them (``create_object``); a
transaction that writes an object writes its whole resource group (:mod:`._resource_groups`).
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from ledgerkit.localnet.vm.framework._account_public import next_guid
from ledgerkit.localnet.vm.framework._context import Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.localnet.vm.framework._object_module import (
    OBJECT_CORE,
    UNTRANSFERABLE,
    create_object,
    named_object_address,
    new_object_handle,
    object_arg,
    owner_of,
    set_ungated,
    transfer_raw,
    transfer_with_ref,
)
from ledgerkit.types import Address, MoveType

__all__ = ["guid_object_address", "user_derived_address"]

_DERIVED_SCHEME: Final = b"\xfc"
_GUID_SCHEME: Final = b"\xfd"


def guid_object_address(source: Address, creation_num: int) -> Address:
    """``object::create_guid_object_address``: SHA3-256 of the BCS of ``guid::ID``
    (``creation_num`` as u64 then ``addr``) and ``0xFD``."""
    data = creation_num.to_bytes(8, "little") + bytes(source) + _GUID_SCHEME
    return Address(hashlib.sha3_256(data).digest())


def user_derived_address(source: Address, derive_from: Address) -> Address:
    """``object::create_user_derived_object_address``: SHA3-256(source ‖ derive_from ‖ 0xFC)."""
    return Address(hashlib.sha3_256(bytes(source) + bytes(derive_from) + _DERIVED_SCHEME).digest())


def _address(value: Any) -> Address:
    return Address.parse(value)


def _self(ref: Any) -> Address:
    return Address.parse(ref["self"])


def _constructor(ctx: Context, creator: Address, address: Address, can_delete: bool) -> list[Any]:
    create_object(ctx, address, creator)
    return [{"self": address.standard, "can_delete": can_delete}]


def _object(address: Address) -> dict[str, Any]:
    return {"inner": address.standard}


# -- addresses ------------------------------------------------------------------------------


@native("object", "create_object_address")
def _create_object_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    seed = bytes.fromhex(args[1].removeprefix("0x"))
    return [named_object_address(_address(args[0]), seed).standard]


@native("object", "create_user_derived_object_address")
def _derived_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [user_derived_address(_address(args[0]), _address(args[1])).standard]


@native("object", "create_guid_object_address")
def _guid_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [guid_object_address(_address(args[0]), int(args[1])).standard]


@native("object", "address_to_object")
def _address_to_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_object(object_arg(ctx, args[0], ty[0]))]


@native("object", "convert")
def _convert(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_object(object_arg(ctx, args[0]["inner"], ty[1]))]


@native("object", "object_address")
def _object_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_address(args[0]["inner"]).standard]


@native("object", "object_exists")
def _object_exists(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = _address(args[0])
    return [ctx.exists(address, OBJECT_CORE) and ctx.exists(address, render_type(ty[0]))]


@native("object", "ungated_transfer_allowed")
def _ungated_allowed(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    core = ctx.resource(_address(args[0]["inner"]), OBJECT_CORE)
    if core is None:  # only the core is checked here, not T
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    return [bool(core["allow_ungated_transfer"])]


# -- creation -------------------------------------------------------------------------------


@native("object", "create_named_object")
def _create_named(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    creator = ctx.signer
    seed = bytes.fromhex(args[0].removeprefix("0x"))
    return _constructor(ctx, creator, named_object_address(creator, seed), False)


@native("object", "create_user_derived_object")
def _create_derived(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    creator = _address(args[0])
    return _constructor(ctx, creator, user_derived_address(creator, _self(args[1])), False)


@native("object", "create_object")
def _create_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return _constructor(ctx, _address(args[0]), ctx.auid_address(), True)


@native("object", "create_sticky_object")
def _create_sticky(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return _constructor(ctx, _address(args[0]), ctx.auid_address(), False)


@native("object", "create_object_from_account")
def _from_account(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    creator = ctx.signer
    number = int(next_guid(ctx, creator)["id"]["creation_num"])
    return _constructor(ctx, creator, guid_object_address(creator, number), True)


@native("object", "create_object_from_object")
def _from_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    creator = ctx.signer
    number = int(_object_guid(ctx, creator)["id"]["creation_num"])
    return _constructor(ctx, creator, guid_object_address(creator, number), True)


def _object_guid(ctx: Context, address: Address) -> dict[str, Any]:
    _core(ctx, address)
    guid: dict[str, Any] = new_object_handle(ctx, address)["guid"]
    return guid


@native("object", "create_guid")
def _create_guid(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_object_guid(ctx, ctx.signer)]


@native("object", "new_event_handle")
def _new_event_handle(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [{"counter": "0", "guid": _object_guid(ctx, ctx.signer)}]


# -- the constructor's refs -----------------------------------------------------------------


@native("object", "generate_delete_ref")
def _delete_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    if not args[0]["can_delete"]:
        raise ctx.abort("object", 0x50005, "ECANNOT_DELETE")
    return [{"self": _self(args[0]).standard}]


@native("object", "generate_extend_ref")
def _extend_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [{"self": _self(args[0]).standard}]


@native("object", "generate_derive_ref")
def _derive_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [{"self": _self(args[0]).standard}]


@native("object", "generate_transfer_ref")
def _transfer_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = _self(args[0])
    if ctx.exists(address, UNTRANSFERABLE):
        raise ctx.abort("object", 0x50009, "EOBJECT_NOT_TRANSFERRABLE")
    return [{"self": address.standard}]


@native("object", "generate_signer")
def _generate_signer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_self(args[0]).standard]


@native("object", "generate_signer_for_extending")
def _signer_for_extending(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_self(args[0]).standard]


@native("object", "address_from_constructor_ref")
def _from_constructor(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_self(args[0]).standard]


@native("object", "address_from_delete_ref")
def _from_delete_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_self(args[0]).standard]


@native("object", "address_from_extend_ref")
def _from_extend_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_self(args[0]).standard]


@native("object", "object_from_constructor_ref")
def _object_from_ctor(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_object(object_arg(ctx, args[0]["self"], ty[0]))]


@native("object", "object_from_delete_ref")
def _object_from_delete(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_object(object_arg(ctx, args[0]["self"], ty[0]))]


@native("object", "can_generate_delete_ref")
def _can_delete(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [bool(args[0]["can_delete"])]


# -- what the refs do -----------------------------------------------------------------------


def _core(ctx: Context, address: Address) -> dict[str, Any]:
    core = ctx.resource(address, OBJECT_CORE)
    if core is None:  # borrow_global / move_from of a missing resource: not an abort
        raise VMStatusError("MISSING_DATA", f"no ObjectCore at {address}")
    result: dict[str, Any] = core
    return result


@native("object", "delete")
def _delete(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = _self(args[0])
    _core(ctx, address)
    ctx.delete(address, OBJECT_CORE)
    if ctx.exists(address, UNTRANSFERABLE):
        ctx.delete(address, UNTRANSFERABLE)


@native("object", "set_untransferable")
def _set_untransferable(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = _self(args[0])
    core = _core(ctx, address)
    core["allow_ungated_transfer"] = False
    ctx.put(address, OBJECT_CORE, core)
    if ctx.exists(address, UNTRANSFERABLE):  # move_to of a resource already there
        raise VMStatusError("RESOURCE_ALREADY_EXISTS", f"Untransferable at {address}")
    ctx.put(address, UNTRANSFERABLE, {"dummy_field": False})


@native("object", "disable_ungated_transfer")
def _disable_ungated(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = _self(args[0])
    _core(ctx, address)
    set_ungated(ctx, address, False)


@native("object", "enable_ungated_transfer")
def _enable_ungated(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = _self(args[0])
    _core(ctx, address)
    set_ungated(ctx, address, True)


@native("object", "generate_linear_transfer_ref")
def _linear_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = _self(args[0])
    if ctx.exists(address, UNTRANSFERABLE):
        raise ctx.abort("object", 0x50009, "EOBJECT_NOT_TRANSFERRABLE")
    return [{"self": address.standard, "owner": owner_of(ctx, address).standard}]


@native("object", "transfer_with_ref")
def _transfer_with_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    ref = args[0]
    address = _self(ref)
    _core(ctx, address)
    transfer_with_ref(ctx, address, _address(args[1]), owner=_address(ref["owner"]))


@native("object", "transfer_with_constructor_ref")
def _transfer_with_ctor(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = _self(args[0])
    if ctx.exists(address, UNTRANSFERABLE):
        raise ctx.abort("object", 0x50009, "EOBJECT_NOT_TRANSFERRABLE")
    transfer_with_ref(ctx, address, _address(args[1]), owner=owner_of(ctx, address))


@native("object", "transfer_raw")
def _transfer_raw(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    transfer_raw(ctx, ctx.signer, _address(args[0]), _address(args[1]))
