"""Public functions of ``account``, ``event``, ``guid``, ``type_info`` and
``transaction_context`` that Move code calls: resource accounts and signer capabilities,
GUIDs and event handles, handle events, type names, the transaction's hash, sender,
unique addresses and whether it is orderless.

The node has no Move framework bytecode, so these are Python bodies over JSON values
(see :mod:`._object_refs` for the JSON of signers, refs and handles). Also:

* ``SignerCapability``: ``{"account": addr}``; ``guid::ID``:
  ``{"creation_num": "n", "addr": addr}``; ``AUID``: ``{"unique_address": addr}``;
  ``TypeInfo``: ``{"account_address": addr, "module_name": "0x..", "struct_name": "0x.."}``.
* A tuple return is the list of its values: ``create_resource_account`` returns
  ``[signer address, SignerCapability]``.
* ``&mut`` parameters are changed in place: ``event::emit_event`` bumps the handle's
  ``counter`` in ``args[0]``, and the bridge writes the handle back where it came from.
* ``event::guid`` returns the handle's ``guid`` object itself (the bridge answers a
  reference to the ``guid`` field of the handle it passed).
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import account_data, ensure_account
from ledgerkit.localnet.vm.framework._context import ACCOUNT, Context, native
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.types import Address, MoveType, StructTag, VectorType

__all__ = ["canonical_type", "next_guid", "resource_account_address"]

_RESOURCE_SCHEME: Final = b"\xff"
_MAX_GUID_CREATION_NUM: Final = 0x4000000000000
_ZERO_AUTH_KEY: Final = "0x" + "00" * 32


def resource_account_address(source: Address, seed: bytes) -> Address:
    """``account::create_resource_address``: SHA3-256(source ‖ seed ‖ 0xFF)."""
    return Address(hashlib.sha3_256(bytes(source) + seed + _RESOURCE_SCHEME).digest())


def next_guid(ctx: Context, address: Address) -> dict[str, Any]:
    """``account::create_guid``: the account's next GUID (the account is made first when
    there is none, as with default account resources), at most 2^50 of them."""
    ensure_account(ctx, address)
    guid = ctx.new_guid(address)
    if int(ctx.resource(address, ACCOUNT)["guid_creation_num"]) >= _MAX_GUID_CREATION_NUM:
        raise ctx.abort("account", 0x20014, "EEXCEEDED_MAX_GUID_CREATION_NUM")
    return guid


def canonical_type(t: MoveType) -> str:
    """A type as ``type_info::type_name`` spells it: addresses short (``0x1``, ``0xcafe``)."""
    if isinstance(t, StructTag):
        return f"{t.address.short}::{t.module}::{t.name}" + _type_args(t)
    if isinstance(t, VectorType):
        return f"vector<{canonical_type(t.element)}>"
    return str(t)


def _type_args(t: StructTag) -> str:
    if not t.type_args:
        return ""
    return "<" + ", ".join(canonical_type(a) for a in t.type_args) + ">"


def _hex(data: bytes) -> str:
    return "0x" + data.hex()


def _seed(value: Any) -> bytes:
    return bytes.fromhex(str(value).removeprefix("0x"))


# -- account --------------------------------------------------------------------------------


@native("account", "create_resource_address")
def _resource_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [resource_account_address(Address.parse(args[0]), _seed(args[1])).standard]


@native("account", "create_resource_account")
def _resource_account(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = resource_account_address(Address.parse(args[0]), _seed(args[1]))
    account = ctx.resource(address, ACCOUNT)
    if account is None:
        account = account_data(address, bytes(address))
    else:
        if account["signer_capability_offer"]["for"]["vec"]:
            raise ctx.abort("account", 0x8000F, "ERESOURCE_ACCCOUNT_EXISTS")
        if int(account["sequence_number"]) != 0:
            raise ctx.abort("account", 0x30010, "EACCOUNT_ALREADY_USED")
    account["authentication_key"] = _ZERO_AUTH_KEY
    account["signer_capability_offer"] = {"for": {"vec": [address.standard]}}
    ctx.put(address, ACCOUNT, account)
    return [address.standard, {"account": address.standard}]


@native("account", "create_signer_with_capability")
def _signer_with_capability(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [Address.parse(args[0]["account"]).standard]


@native("account", "get_signer_capability_address")
def _capability_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [Address.parse(args[0]["account"]).standard]


@native("account", "create_guid")
def _account_guid(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [next_guid(ctx, Address.parse(args[0]))]


@native("account", "new_event_handle")
def _account_handle(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [{"counter": "0", "guid": next_guid(ctx, Address.parse(args[0]))}]


# -- event ----------------------------------------------------------------------------------


@native("event", "emit_event")
def _emit_event(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    ctx.emit(args[0], render_type(ty[0]), args[1])


@native("event", "counter")
def _counter(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [str(args[0]["counter"])]


@native("event", "guid")
def _guid(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [args[0]["guid"]]


# -- guid -----------------------------------------------------------------------------------


def _id(value: Any) -> dict[str, str]:
    return {
        "creation_num": str(int(value["creation_num"])),
        "addr": Address.parse(value["addr"]).standard,
    }


@native("guid", "create_id")
def _create_id(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_id({"addr": args[0], "creation_num": args[1]})]


@native("guid", "id")
def _guid_id(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_id(args[0]["id"])]


@native("guid", "creator_address")
def _creator(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_id(args[0]["id"])["addr"]]


@native("guid", "creation_num")
def _creation_num(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_id(args[0]["id"])["creation_num"]]


@native("guid", "id_creator_address")
def _id_creator(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_id(args[0])["addr"]]


@native("guid", "id_creation_num")
def _id_number(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_id(args[0])["creation_num"]]


@native("guid", "eq_id")
def _eq_id(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_id(args[0]["id"]) == _id(args[1])]


# -- type_info ------------------------------------------------------------------------------


@native("type_info", "type_of")
def _type_of(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    t = ty[0]
    if not isinstance(t, StructTag):  # the native's "expected a struct type" abort
        raise ctx.abort("type_info", 1)
    return [
        {
            "account_address": t.address.standard,
            "module_name": _hex(t.module.encode()),
            "struct_name": _hex((t.name + _type_args(t)).encode()),
        }
    ]


@native("type_info", "type_name")
def _type_name(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [canonical_type(ty[0])]


@native("type_info", "account_address")
def _ti_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [Address.parse(args[0]["account_address"]).standard]


@native("type_info", "module_name")
def _ti_module(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [args[0]["module_name"]]


@native("type_info", "struct_name")
def _ti_struct(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [args[0]["struct_name"]]


@native("type_info", "chain_id")
def _ti_chain_id(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.chain_id]


# -- transaction_context --------------------------------------------------------------------


def _in_transaction(ctx: Context) -> None:
    if not ctx.signers:  # a view: no user transaction
        raise ctx.abort("transaction_context", 0x30001)


@native("transaction_context", "get_transaction_hash")
def _txn_hash(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_hex(ctx.txn_hash)]


@native("transaction_context", "generate_auid_address")
def _auid_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.auid_address().standard]


@native("transaction_context", "generate_auid")
def _generate_auid(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [{"unique_address": ctx.auid_address().standard}]


@native("transaction_context", "auid_address")
def _auid_of(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [Address.parse(args[0]["unique_address"]).standard]


@native("transaction_context", "sender")
def _sender(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _in_transaction(ctx)
    return [ctx.signers[0].standard]


@native("transaction_context", "secondary_signers")
def _secondary(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _in_transaction(ctx)
    return [[a.standard for a in ctx.signers[1:]]]


@native("transaction_context", "chain_id")
def _tc_chain_id(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _in_transaction(ctx)
    return [ctx.chain_id]


@native("transaction_context", "is_orderless_txn")
def _is_orderless(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _in_transaction(ctx)
    return [ctx.orderless]
