"""What a ``TransferRef`` or ``BurnRef`` does beyond :mod:`._fungible_api`, and the ref
and metadata views: ``fungible_asset::withdraw_with_ref`` / ``deposit_with_ref`` /
``transfer_with_ref`` / ``burn_from``, their ``primary_fungible_store`` forms,
``*_ref_metadata``, ``icon_uri`` / ``project_uri`` and ``is_balance_at_least``.

A transfer ref moves an asset whether its stores are frozen or not and whoever owns them;
it must be the ref of the store's asset.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import (
    FUNGIBLE_STORE,
    METADATA,
    primary_store_address,
)
from ledgerkit.localnet.vm.framework._context import Context, native
from ledgerkit.localnet.vm.framework._fungible_api import (
    burn_asset,
    ensure_primary_store,
    store_deposit,
    store_withdraw,
)
from ledgerkit.localnet.vm.framework._object_module import OBJECT_CORE
from ledgerkit.types import Address, MoveType

__all__: list[str] = []

_FA: Final = "fungible_asset"
_PFS: Final = "primary_fungible_store"


def _address(value: Any) -> Address:
    return Address.parse(value["inner"] if isinstance(value, dict) else value)


def _ref_metadata(ref: dict[str, Any]) -> Address:
    return _address(ref["metadata"])


def withdraw_with_ref(ctx: Context, ref: dict[str, Any], store: Address, amount: int) -> Any:
    """``fungible_asset::withdraw_with_ref``: the ref must be the store's asset's."""
    held = ctx.resource(store, FUNGIBLE_STORE)
    if held is None:
        raise ctx.abort(_FA, 0x60017, "EFUNGIBLE_STORE_EXISTENCE")
    if _ref_metadata(ref) != _address(held["metadata"]):
        raise ctx.abort(_FA, 0x10009, "ETRANSFER_REF_AND_STORE_MISMATCH")
    return store_withdraw(ctx, store, amount)


def deposit_with_ref(
    ctx: Context, ref: dict[str, Any], store: Address, asset: dict[str, Any]
) -> None:
    """``fungible_asset::deposit_with_ref``: the ref must be the asset's."""
    if _ref_metadata(ref) != _address(asset["metadata"]):
        raise ctx.abort(_FA, 0x10002, "ETRANSFER_REF_AND_FUNGIBLE_ASSET_MISMATCH")
    store_deposit(ctx, store, asset)


@native(_FA, "withdraw_with_ref")
def _withdraw_with_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [withdraw_with_ref(ctx, args[0], _address(args[1]), int(args[2]))]


@native(_FA, "deposit_with_ref")
def _deposit_with_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    deposit_with_ref(ctx, args[0], _address(args[1]), args[2])


@native(_FA, "transfer_with_ref")
def _transfer_with_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    asset = withdraw_with_ref(ctx, args[0], _address(args[1]), int(args[3]))
    deposit_with_ref(ctx, args[0], _address(args[2]), asset)


@native(_FA, "burn_from")
def _burn_from(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    asset = store_withdraw(ctx, _address(args[1]), int(args[2]))
    if _ref_metadata(args[0]) != _address(asset["metadata"]):
        raise ctx.abort(_FA, 0x1000D, "EBURN_REF_AND_FUNGIBLE_ASSET_MISMATCH")
    burn_asset(ctx, asset)


def _ref_metadata_view(name: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        return [args[0]["metadata"]]

    native(_FA, name)(body)


for _kind in ("mint", "burn", "transfer"):
    _ref_metadata_view(f"{_kind}_ref_metadata")


def _uri_view(field: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        metadata = ctx.resource(_address(args[0]), METADATA)
        if metadata is None:
            raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
        return [metadata[field]]

    native(_FA, field)(body)


for _field in ("icon_uri", "project_uri"):
    _uri_view(_field)


@native(_FA, "is_balance_at_least")
def _is_balance_at_least(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = ctx.resource(_address(args[0]), FUNGIBLE_STORE)
    if store is None:
        raise ctx.abort(_FA, 0x60017, "EFUNGIBLE_STORE_EXISTENCE")
    return [int(store["balance"]) >= int(args[1])]


@native(_PFS, "is_balance_at_least")
def _pfs_is_balance_at_least(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = primary_store_address(Address.parse(args[0]), _address(args[1]))
    store = ctx.resource(address, FUNGIBLE_STORE)
    if store is None:
        return [int(args[2]) == 0]
    return [int(store["balance"]) >= int(args[2])]


@native(_PFS, "withdraw_with_ref")
def _pfs_withdraw_with_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    ref = args[0]
    store = primary_store_address(Address.parse(args[1]), _ref_metadata(ref))
    if not ctx.exists(store, OBJECT_CORE):
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    return [withdraw_with_ref(ctx, ref, store, int(args[2]))]


@native(_PFS, "deposit_with_ref")
def _pfs_deposit_with_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    ref = args[0]
    store = ensure_primary_store(ctx, Address.parse(args[1]), _ref_metadata(ref))
    deposit_with_ref(ctx, ref, store, args[2])
