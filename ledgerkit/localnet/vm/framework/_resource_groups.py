"""Resource groups: an object's resources are one state item, written and listed whole.

The members of ``0x1::object::ObjectGroup`` (the structs the framework declares with
``#[resource_group_member(group = aptos_framework::object::ObjectGroup)]``: ``ObjectCore``,
``FungibleStore``, ``Metadata``, ``ConcurrentSupply``, ``DeriveRefPod``, the digital
asset package's ``Token``, ``Collection``...) live at an object's address in one state
slot, the group, whose state key is ``AccessPath {address, Path::ResourceGroup(group)}``
and whose value is the BCS map from each member's struct tag to its BCS, in struct tag
order. A transaction that changes any member writes the whole group; a node's API lists
that write as one ``write_resource`` per member present, each with the group's
``state_key_hash``, in the map's order; a group left without members is deleted, listed
as one ``delete_resource`` of ``0x1::object::ObjectGroup``.

This node stores each member under its own key (reads and listings stay per resource),
and makes the group whole where it counts: :func:`expand_groups` writes every member
present at each address a transaction wrote a member of, before the transaction is
metered and listed.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

from ledgerkit.localnet.vm.framework._state_keys import RESOURCE, resource_key
from ledgerkit.types import StructTag

if TYPE_CHECKING:
    from ledgerkit.localnet.vm.framework._context import Context

__all__ = [
    "GROUP_MEMBERS",
    "OBJECT_GROUP",
    "expand_groups",
    "is_group_member",
    "member_order",
]

OBJECT_GROUP: Final = "0x1::object::ObjectGroup"
#: The ``ObjectGroup`` members this node's framework writes, in struct tag order (the
#: order of the group's map and of a node's listing).
GROUP_MEMBERS: Final = (
    "0x1::coin::PairedCoinType",
    "0x1::fungible_asset::ConcurrentSupply",
    "0x1::fungible_asset::FungibleStore",
    "0x1::fungible_asset::Metadata",
    "0x1::fungible_asset::Supply",
    "0x1::object::ObjectCore",
    "0x1::object::TombStone",
    "0x1::object::Untransferable",
    "0x1::object_code_deployment::ManagingRefs",
    "0x1::primary_fungible_store::DeriveRefPod",
    "0x4::aptos_token::AptosCollection",
    "0x4::aptos_token::AptosToken",
    "0x4::collection::Collection",
    "0x4::collection::ConcurrentSupply",
    "0x4::collection::FixedSupply",
    "0x4::collection::UnlimitedSupply",
    "0x4::property_map::PropertyMap",
    "0x4::royalty::Royalty",
    "0x4::token::Token",
    "0x4::token::TokenIdentifiers",
)
_MEMBERS: Final = frozenset(GROUP_MEMBERS)
#: Members that only ever sit beside another (an asset's supply and refs beside its
#: ``Metadata``, a token's or a collection's parts beside its ``Token`` or ``Collection``),
#: looked for only where that one is or was: the others are always looked for.
_BESIDE: Final = {
    "0x1::fungible_asset::Metadata": (
        "0x1::coin::PairedCoinType",
        "0x1::fungible_asset::ConcurrentSupply",
        "0x1::fungible_asset::Supply",
        "0x1::primary_fungible_store::DeriveRefPod",
    ),
    "0x4::token::Token": (
        "0x4::aptos_token::AptosToken",
        "0x4::property_map::PropertyMap",
        "0x4::royalty::Royalty",
        "0x4::token::TokenIdentifiers",
    ),
    "0x4::collection::Collection": (
        "0x4::aptos_token::AptosCollection",
        "0x4::collection::ConcurrentSupply",
        "0x4::collection::FixedSupply",
        "0x4::collection::UnlimitedSupply",
        "0x4::property_map::PropertyMap",
        "0x4::royalty::Royalty",
    ),
}
_ALWAYS: Final = tuple(
    tag for tag in GROUP_MEMBERS if not any(tag in beside for beside in _BESIDE.values())
)


def is_group_member(tag: str) -> bool:
    """Whether the resource ``tag`` (canonical text) is an ``ObjectGroup`` member."""
    return tag in _MEMBERS


@functools.lru_cache(maxsize=1024)
def member_order(tag: str) -> bytes:
    """A sort key putting struct tags in the ledger's order: address bytes, then module
    and struct names (byte order, a name before its extensions), then type arguments."""
    parsed = StructTag.parse(tag)
    args = tag[tag.index("<") :] if "<" in tag else ""
    return b"\x00".join(
        (bytes(parsed.address), parsed.module.encode(), parsed.name.encode(), args.encode())
    )


def expand_groups(ctx: Context) -> None:
    """Write every member present at each address ``ctx`` wrote a member of (the members
    it did not change are read without being charged: the group is one item, already
    read when one of its members was)."""
    touched = {
        w.address for w in list(ctx.writes.values()) if w.kind == RESOURCE and w.path in _MEMBERS
    }
    for address in sorted(touched, key=bytes):
        anchors = [
            tag
            for tag in _BESIDE
            if resource_key(address, tag) in ctx.writes
            or ctx.resource(address, tag, counted=False) is not None
        ]
        wanted = set(_ALWAYS).union(*(_BESIDE[tag] for tag in anchors))
        for tag in GROUP_MEMBERS:
            if tag not in wanted or resource_key(address, tag) in ctx.writes:
                continue
            value = ctx.resource(address, tag, counted=False)
            if value is not None:
                ctx.put(address, tag, value)
