"""``0x1::coin``'s functions for any coin type, as Python bodies over a :class:`Context`.

A coin type may be declared by a framework module or by a published one; its
``CoinInfo<T>`` lives at the type's address, put there by ``coin::initialize`` signed by
that account. Values in the API's JSON form: ``Coin<T>`` is ``{"value": "n"}``, a
capability ``{"dummy_field": false}``; a ``&mut Coin<T>`` argument is changed in place.

Balances are fungible assets, as on a chain migrated to them: a coin deposited becomes
its paired asset (its count leaves ``CoinInfo.supply`` and joins the asset's supply), a
withdrawal turns the asset back into a coin. A coin's paired metadata object is made on
first need, as the framework makes it: the named object of ``0xa`` whose seed is the
coin's type name, holding ``Metadata``, an unlimited ``ConcurrentSupply`` and
``PairedCoinType``, with the ``Creation`` and ``PairCreation`` events (APT's is ``0xa``
itself, made at genesis).
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import (
    APT_METADATA,
    APT_TYPE,
    METADATA,
    PAIRED_COIN_TYPE,
    store_balance,
    transfer_asset,
    type_info,
)
from ledgerkit.localnet.vm.framework._coin_modules import coin_info_supply, monitored_supply
from ledgerkit.localnet.vm.framework._context import Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._fungible_api import (
    add_fungibility,
    burn_asset,
    ensure_primary_store,
    mint_asset,
    owned_withdraw,
    primary_deposit,
)
from ledgerkit.localnet.vm.framework._module_specs import MODULES
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.localnet.vm.framework._object_module import create_object
from ledgerkit.types import U64_MAX, Address, MoveType, StructTag, paired_metadata_address

__all__ = [
    "CAPABILITY",
    "burn_coin",
    "coin_info",
    "deposit_coin",
    "initialize_coin",
    "mint_coin",
    "resolve_coin",
    "withdraw_coin",
]

CAPABILITY: Final = {"dummy_field": False}
_FRAMEWORK: Final = Address.from_int(1)
_FA_CREATOR: Final = Address.from_int(0xA)
_MAX_NAME: Final = 32
_MAX_SYMBOL: Final = 32
_MAX_DECIMALS: Final = 32
_STRUCTS: Final = frozenset(
    (module.address, module.name, struct.name) for module in MODULES for struct in module.structs
)
_MODULES: Final = frozenset((module.address, module.name) for module in MODULES)


def resolve_coin(ctx: Context, coin: MoveType) -> StructTag:
    """The coin type, once it names a struct of a module on chain (the framework's or a
    published one)."""
    if not isinstance(coin, StructTag):
        raise VMStatusError("TYPE_RESOLUTION_FAILURE")
    if (coin.address, coin.module) in _MODULES:
        if (coin.address, coin.module, coin.name) not in _STRUCTS:
            raise VMStatusError("TYPE_RESOLUTION_FAILURE")
        return coin
    code = ctx.module_code(coin.address, coin.module)
    if code is None:
        raise VMStatusError("LINKER_ERROR")
    from ledgerkit.localnet.vm.move import stored_module

    module = stored_module(code)
    if module is None or module.find_struct_def(coin.name) is None:
        raise VMStatusError("TYPE_RESOLUTION_FAILURE")
    return coin


def _info_tag(coin: StructTag) -> str:
    return render_type(StructTag(_FRAMEWORK, "coin", "CoinInfo", (coin,)))


def coin_info(ctx: Context, coin: StructTag) -> Any:
    """``CoinInfo<coin>`` at the coin type's address, or None."""
    return ctx.resource(coin.address, _info_tag(coin))


def _info_or_abort(ctx: Context, coin: StructTag) -> Any:
    info = coin_info(ctx, coin)
    if info is None:
        raise ctx.abort("coin", 0x60003, "ECOIN_INFO_NOT_PUBLISHED")
    return info


def _count(ctx: Context, coin: StructTag, delta: int) -> None:
    """Move ``CoinInfo``'s count of coins held as ``Coin`` values by ``delta``."""
    info = coin_info(ctx, coin)
    if info is None:
        raise VMStatusError("MISSING_DATA")
    count = coin_info_supply(info)
    if count is None or delta == 0:
        return
    if count + delta < 0:
        raise ctx.abort("optional_aggregator", 0x20002)
    info["supply"] = monitored_supply(count + delta)
    ctx.put(coin.address, _info_tag(coin), info)


def paired_metadata(ctx: Context, coin: StructTag, *, create: bool = False) -> Address | None:
    """The coin's paired metadata object; made first when ``create`` and there is none."""
    if render_type(coin) == APT_TYPE:
        return APT_METADATA
    address = Address.parse(paired_metadata_address(render_type(coin)))
    if ctx.exists(address, METADATA) or not create:
        return address if ctx.exists(address, METADATA) else None
    info = coin_info(ctx, coin)
    if info is None:
        raise VMStatusError("MISSING_DATA")
    create_object(ctx, address, _FA_CREATOR)
    fields = [{"vec": []}, info["name"], info["symbol"], info["decimals"], "", ""]
    add_fungibility(ctx, {"self": address.standard, "can_delete": False}, fields)
    coin_type = type_info(render_type(coin))
    ctx.put(address, PAIRED_COIN_TYPE, {"type": coin_type})
    pair = {"coin_type": coin_type, "fungible_asset_metadata_address": address.standard}
    ctx.emit_module("0x1::coin::PairCreation", pair)
    return address


# -- operations other modules reuse -----------------------------------------------------------


def initialize_coin(ctx: Context, coin: StructTag, args: list[Any]) -> None:
    """``coin::initialize``: ``CoinInfo`` at the signer, who must declare the coin type."""
    name, symbol, decimals, monitor = args
    if coin.address != ctx.signer:
        raise ctx.abort("coin", 0x10001, "ECOIN_INFO_ADDRESS_MISMATCH")
    if coin_info(ctx, coin) is not None:
        raise ctx.abort("coin", 0x80002, "ECOIN_INFO_ALREADY_PUBLISHED")
    if len(name.encode()) > _MAX_NAME:
        raise ctx.abort("coin", 0x1000C, "ECOIN_NAME_TOO_LONG")
    if len(symbol.encode()) > _MAX_SYMBOL:
        raise ctx.abort("coin", 0x1000D, "ECOIN_SYMBOL_TOO_LONG")
    if int(decimals) > _MAX_DECIMALS:
        raise ctx.abort("coin", 0x1001D, "ECOIN_DECIMALS_TOO_LARGE")
    supply = monitored_supply() if monitor else {"vec": []}
    info = {"name": name, "symbol": symbol, "decimals": int(decimals), "supply": supply}
    ctx.put(coin.address, _info_tag(coin), info)


def mint_coin(ctx: Context, coin: StructTag, amount: int) -> dict[str, Any]:
    """``coin::mint``: a new ``Coin`` (counted in the supply)."""
    if amount != 0:
        _count(ctx, coin, amount)
    return {"value": str(amount)}


def burn_coin(ctx: Context, coin: StructTag, value: dict[str, Any]) -> None:
    """``coin::burn``: the coin is gone (and off the count)."""
    _count(ctx, coin, -int(value["value"]))


def deposit_coin(ctx: Context, coin: StructTag, owner: Address, value: dict[str, Any]) -> None:
    """``coin::deposit``: the coin becomes its paired asset in ``owner``'s primary store."""
    metadata = paired_metadata(ctx, coin, create=True)
    assert metadata is not None
    amount = int(value["value"])
    _count(ctx, coin, -amount)
    primary_deposit(ctx, owner, mint_asset(ctx, metadata, amount))


def withdraw_coin(ctx: Context, coin: StructTag, amount: int) -> dict[str, Any]:
    """``coin::withdraw``: out of the signer's primary store of the paired asset, as a coin."""
    metadata = paired_metadata(ctx, coin, create=True)
    assert metadata is not None
    store = ensure_primary_store(ctx, ctx.signer, metadata)
    burn_asset(ctx, owned_withdraw(ctx, store, amount))
    return mint_coin(ctx, coin, amount)


# -- coin: values -----------------------------------------------------------------------------


@native("coin", "initialize")
def _initialize(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    initialize_coin(ctx, resolve_coin(ctx, ty[0]), args)
    return [dict(CAPABILITY), dict(CAPABILITY), dict(CAPABILITY)]


@native("coin", "mint")
def _mint(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [mint_coin(ctx, resolve_coin(ctx, ty[0]), int(args[0]))]


@native("coin", "burn")
def _burn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    burn_coin(ctx, resolve_coin(ctx, ty[0]), args[0])


@native("coin", "deposit")
def _deposit(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    deposit_coin(ctx, resolve_coin(ctx, ty[0]), Address.parse(args[0]), args[1])


@native("coin", "withdraw")
def _withdraw(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [withdraw_coin(ctx, resolve_coin(ctx, ty[0]), int(args[0]))]


@native("coin", "value")
def _value(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [args[0]["value"]]


@native("coin", "zero")
def _zero(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [{"value": "0"}]


@native("coin", "merge")
def _merge(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    total = int(args[0]["value"]) + int(args[1]["value"])
    if total > U64_MAX:
        raise VMStatusError("ARITHMETIC_ERROR")
    args[0]["value"] = str(total)


@native("coin", "extract")
def _extract(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    coin, amount = args[0], int(args[1])
    if int(coin["value"]) < amount:
        raise ctx.abort("coin", 0x10006, "EINSUFFICIENT_BALANCE")
    coin["value"] = str(int(coin["value"]) - amount)
    return [{"value": str(amount)}]


@native("coin", "destroy_zero")
def _destroy_zero(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    if int(args[0]["value"]) != 0:
        raise ctx.abort("coin", 0x10007, "EDESTRUCTION_OF_NONZERO_TOKEN")


def _destroy_cap(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """A capability has no fields: destroying one changes nothing."""


for _cap in ("burn", "freeze", "mint"):
    native("coin", f"destroy_{_cap}_cap")(_destroy_cap)


# -- coin: state ------------------------------------------------------------------------------


@native("coin", "register")
def _register(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """Nothing to make (balances are primary stores); a coin type not initialized aborts."""
    if coin_info(ctx, resolve_coin(ctx, ty[0])) is None:
        raise ctx.abort("coin", 0x10003, "ECOIN_INFO_NOT_PUBLISHED")


@native("coin", "is_coin_initialized")
def _is_initialized(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [coin_info(ctx, resolve_coin(ctx, ty[0])) is not None]


@native("coin", "transfer")
def _transfer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """Out of the signer's primary store of the paired asset into the recipient's, made
    when missing: any address receives, an account or not (there is no ``CoinStore``)."""
    coin = resolve_coin(ctx, ty[0])
    to, amount = Address.parse(args[0]), int(args[1])
    if render_type(coin) == APT_TYPE:
        transfer_asset(ctx, ctx.signer, to, APT_METADATA, amount)
        return
    metadata = paired_metadata(ctx, coin, create=True)
    assert metadata is not None
    store = ensure_primary_store(ctx, ctx.signer, metadata)
    primary_deposit(ctx, to, owned_withdraw(ctx, store, amount))


@native("coin", "balance")
def _balance(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    metadata = paired_metadata(ctx, resolve_coin(ctx, ty[0]))
    owner = Address.parse(args[0])
    return [str(0 if metadata is None else store_balance(ctx, owner, metadata))]


def _info_field(field: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        # No type resolution first: a type that names nothing has no CoinInfo either.
        if not isinstance(ty[0], StructTag):
            raise VMStatusError("TYPE_RESOLUTION_FAILURE")
        return [_info_or_abort(ctx, ty[0])[field]]

    native("coin", field)(body)


for _field in ("name", "symbol", "decimals"):
    _info_field(_field)


@native("coin", "supply")
def _supply(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    """Coins held as ``Coin`` values (``CoinInfo``'s count) and the paired asset's supply."""
    coin = resolve_coin(ctx, ty[0])
    count = coin_info_supply(_info_or_abort(ctx, coin))
    if count is None:
        return [{"vec": []}]
    metadata = paired_metadata(ctx, coin)
    paired = 0
    if metadata is not None:
        concurrent = ctx.resource(metadata, "0x1::fungible_asset::ConcurrentSupply")
        paired = 0 if concurrent is None else int(concurrent["current"]["value"])
    return [{"vec": [str(count + paired)]}]


@native("coin", "paired_metadata")
def _paired(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    metadata = paired_metadata(ctx, resolve_coin(ctx, ty[0]))
    return [{"vec": [] if metadata is None else [{"inner": metadata.standard}]}]


@native("coin", "paired_coin")
def _paired_coin(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = Address.parse(args[0]["inner"] if isinstance(args[0], dict) else args[0])
    if not ctx.exists(address, METADATA):
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    paired = ctx.resource(address, PAIRED_COIN_TYPE)
    return [{"vec": [] if paired is None else [paired["type"]]}]
