"""The public (non-entry) functions of the coin and fungible asset modules, declared.

Published Move code calls these: ``coin::initialize`` / ``mint`` / ``deposit``,
``fungible_asset::mint`` / ``deposit``, ``primary_fungible_store::mint`` and so on.
Parameter and return types are those the Aptos framework declares, so a call from
bytecode converts its values by them; the ABIs list them as public, not entry. The
bodies are in :mod:`._coin_api` and :mod:`._fungible_api`.

Also here: the structs those functions pass around (``FungibleAsset`` and the refs) and
``fungible_asset``'s ``Creation`` and ``Frozen`` events, and the
``dispatchable_fungible_asset`` module.
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec

__all__ = [
    "APTOS_ACCOUNT_API",
    "COIN_API",
    "DISPATCHABLE_FUNGIBLE_ASSET",
    "FUNGIBLE_ASSET_API",
    "FUNGIBLE_ASSET_STRUCTS",
    "PRIMARY_FUNGIBLE_STORE_API",
]

_ANY: Final = ((),)
_KEYED: Final = (("key",),)
_DROP_STORE: Final = ("drop", "store")

_STRING: Final = "0x1::string::String"
_COIN: Final = "0x1::coin::Coin<T0>"
_FA: Final = "0x1::fungible_asset::FungibleAsset"
_META: Final = "0x1::object::Object<0x1::fungible_asset::Metadata>"
_STORE_OBJ: Final = "0x1::object::Object<0x1::fungible_asset::FungibleStore>"
_OBJ: Final = "0x1::object::Object<T0>"
_CREF: Final = "&0x1::object::ConstructorRef"
_MINT_REF: Final = "0x1::fungible_asset::MintRef"
_BURN_REF: Final = "0x1::fungible_asset::BurnRef"
_TRANSFER_REF: Final = "0x1::fungible_asset::TransferRef"


def _fn(
    name: str,
    params: tuple[str, ...] = (),
    returns: tuple[str, ...] = (),
    generics: tuple[tuple[str, ...], ...] = (),
    *,
    view: bool = False,
) -> FunctionSpec:
    return FunctionSpec(name, params, returns, generics, view=view)


def _entry_transfer() -> FunctionSpec:
    """``transfer<T: key>(&signer, Object<T>, Object<T>, u64)``: store to store, an entry
    function in both modules that declare it."""
    return FunctionSpec("transfer", ("&signer", _OBJ, _OBJ, "u64"), (), _KEYED, entry=True)


def _cap(kind: str) -> str:
    return f"0x1::coin::{kind}Capability<T0>"


COIN_API: Final = (
    _fn("burn", (_COIN, "&" + _cap("Burn")), (), _ANY),
    _fn("deposit", ("address", _COIN), (), _ANY),
    _fn("destroy_burn_cap", (_cap("Burn"),), (), _ANY),
    _fn("destroy_freeze_cap", (_cap("Freeze"),), (), _ANY),
    _fn("destroy_mint_cap", (_cap("Mint"),), (), _ANY),
    _fn("destroy_zero", (_COIN,), (), _ANY),
    _fn("extract", ("&mut " + _COIN, "u64"), (_COIN,), _ANY),
    _fn(
        "initialize",
        ("&signer", _STRING, _STRING, "u8", "bool"),
        (_cap("Burn"), _cap("Freeze"), _cap("Mint")),
        _ANY,
    ),
    _fn("is_coin_initialized", (), ("bool",), _ANY, view=True),
    _fn("merge", ("&mut " + _COIN, _COIN), (), _ANY),
    _fn("mint", ("u64", "&" + _cap("Mint")), (_COIN,), _ANY),
    _fn("register", ("&signer",), (), _ANY),
    _fn("value", ("&" + _COIN,), ("u64",), _ANY),
    _fn("withdraw", ("&signer", "u64"), (_COIN,), _ANY),
    _fn("zero", (), (_COIN,), _ANY),
)

_METADATA_ARGS: Final = (
    "0x1::option::Option<u128>",
    _STRING,
    _STRING,
    "u8",
    _STRING,
    _STRING,
)

FUNGIBLE_ASSET_API: Final = (
    _fn("add_fungibility", (_CREF, *_METADATA_ARGS), (_META,)),
    _fn("amount", ("&" + _FA,), ("u64",)),
    _fn("asset_metadata", ("&" + _FA,), (_META,)),
    _fn("burn", ("&" + _BURN_REF, _FA)),
    _fn("deposit", (_OBJ, _FA), (), _KEYED),
    _fn("destroy_zero", (_FA,)),
    _fn("extract", ("&mut " + _FA, "u64"), (_FA,)),
    _fn("generate_burn_ref", (_CREF,), (_BURN_REF,)),
    _fn("generate_mint_ref", (_CREF,), (_MINT_REF,)),
    _fn("generate_transfer_ref", (_CREF,), (_TRANSFER_REF,)),
    _fn("merge", ("&mut " + _FA, _FA)),
    _fn("metadata_from_asset", ("&" + _FA,), (_META,)),
    _fn("mint", ("&" + _MINT_REF, "u64"), (_FA,)),
    _fn("mint_to", ("&" + _MINT_REF, _OBJ, "u64"), (), _KEYED),
    _fn("set_frozen_flag", ("&" + _TRANSFER_REF, _OBJ, "bool"), (), _KEYED),
    _fn("store_exists", ("address",), ("bool",), view=True),
    _entry_transfer(),
    _fn("withdraw", ("&signer", _OBJ, "u64"), (_FA,), _KEYED),
    _fn("zero", (_OBJ,), (_FA,), _KEYED),
    # transfer and burn refs, ref and metadata views (bodies in ._fungible_refs)
    _fn("burn_from", ("&" + _BURN_REF, _OBJ, "u64"), (), _KEYED),
    _fn("burn_ref_metadata", ("&" + _BURN_REF,), (_META,)),
    _fn("deposit_with_ref", ("&" + _TRANSFER_REF, _OBJ, _FA), (), _KEYED),
    _fn("icon_uri", (_OBJ,), (_STRING,), _KEYED, view=True),
    _fn("is_balance_at_least", (_OBJ, "u64"), ("bool",), _KEYED, view=True),
    _fn("mint_ref_metadata", ("&" + _MINT_REF,), (_META,)),
    _fn("project_uri", (_OBJ,), (_STRING,), _KEYED, view=True),
    _fn("transfer_ref_metadata", ("&" + _TRANSFER_REF,), (_META,)),
    _fn("transfer_with_ref", ("&" + _TRANSFER_REF, _OBJ, _OBJ, "u64"), (), _KEYED),
    _fn("withdraw_with_ref", ("&" + _TRANSFER_REF, _OBJ, "u64"), (_FA,), _KEYED),
)

PRIMARY_FUNGIBLE_STORE_API: Final = (
    _fn("burn", ("&" + _BURN_REF, "address", "u64")),
    _fn("create_primary_store_enabled_fungible_asset", (_CREF, *_METADATA_ARGS)),
    _fn("deposit", ("address", _FA)),
    _fn("ensure_primary_store_exists", ("address", _OBJ), (_STORE_OBJ,), _KEYED),
    _fn("is_frozen", ("address", _OBJ), ("bool",), _KEYED, view=True),
    _fn("mint", ("&" + _MINT_REF, "address", "u64")),
    _fn("primary_store", ("address", _OBJ), (_STORE_OBJ,), _KEYED, view=True),
    _fn("set_frozen_flag", ("&" + _TRANSFER_REF, "address", "bool")),
    _fn("transfer_with_ref", ("&" + _TRANSFER_REF, "address", "address", "u64")),
    _fn("withdraw", ("&signer", _OBJ, "u64"), (_FA,), _KEYED),
    _fn("deposit_with_ref", ("&" + _TRANSFER_REF, "address", _FA)),
    _fn("is_balance_at_least", ("address", _OBJ, "u64"), ("bool",), _KEYED, view=True),
    _fn("withdraw_with_ref", ("&" + _TRANSFER_REF, "address", "u64"), (_FA,)),
)

APTOS_ACCOUNT_API: Final = (
    _fn("assert_account_exists", ("address",)),
    _fn("assert_account_is_registered_for_apt", ("address",)),
    _fn("can_receive_direct_coin_transfers", ("address",), ("bool",)),
    _fn("deposit_coins", ("address", _COIN), (), _ANY),
    _fn("deposit_fungible_assets", ("address", _FA)),
)

_METADATA_FIELD: Final = (("metadata", _META),)

FUNGIBLE_ASSET_STRUCTS: Final = (
    StructSpec("BurnRef", _DROP_STORE, _METADATA_FIELD),
    StructSpec(
        "Creation",
        _DROP_STORE,
        (
            ("metadata", "address"),
            ("name", _STRING),
            ("symbol", _STRING),
            ("decimals", "u8"),
            ("icon_uri", _STRING),
            ("project_uri", _STRING),
            ("maximum_supply", "0x1::option::Option<u128>"),
        ),
        is_event=True,
    ),
    StructSpec("Frozen", _DROP_STORE, (("store", "address"), ("frozen", "bool")), is_event=True),
    StructSpec("FungibleAsset", (), (("metadata", _META), ("amount", "u64"))),
    StructSpec("MintRef", _DROP_STORE, _METADATA_FIELD),
    StructSpec("TransferRef", _DROP_STORE, _METADATA_FIELD),
)

#: Hooks are not modelled: every asset here is plain, and these move it as
#: ``fungible_asset`` does.
DISPATCHABLE_FUNGIBLE_ASSET: Final = ModuleSpec(
    "dispatchable_fungible_asset",
    functions=(
        _fn("deposit", (_OBJ, _FA), (), _KEYED),
        _entry_transfer(),
        _fn("withdraw", ("&signer", _OBJ, "u64"), (_FA,), _KEYED),
    ),
)
