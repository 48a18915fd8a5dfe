"""``0x1::managed_coin``, ``coin``'s registration views and ``aptos_account``'s public
functions for coins and assets, as Python bodies over a :class:`Context`.

``managed_coin`` works on a coin type declared by the signer's own (published) module:
``initialize`` puts ``CoinInfo<T>`` and ``Capabilities<T>`` at the signer; ``mint``,
``burn`` and ``destroy_caps`` need those capabilities.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import APT_TYPE, create_account, transfer_apt
from ledgerkit.localnet.vm.framework._coin_api import (
    CAPABILITY,
    burn_coin,
    coin_info,
    deposit_coin,
    initialize_coin,
    mint_coin,
    resolve_coin,
    withdraw_coin,
)
from ledgerkit.localnet.vm.framework._coin_modules import coin_info_supply
from ledgerkit.localnet.vm.framework._context import ACCOUNT, Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._fungible_api import primary_deposit
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.types import Address, MoveType, StructTag

__all__: list[str] = []

_FRAMEWORK: Final = Address.from_int(1)
_APT: Final = StructTag(_FRAMEWORK, "aptos_coin", "AptosCoin")


def _capabilities_tag(coin: StructTag) -> str:
    return render_type(StructTag(_FRAMEWORK, "managed_coin", "Capabilities", (coin,)))


def _require_capabilities(ctx: Context, coin: StructTag) -> None:
    if not ctx.exists(ctx.signer, _capabilities_tag(coin)):
        raise ctx.abort("managed_coin", 0x60001, "ENO_CAPABILITIES")


def _utf8(ctx: Context, text: str) -> str:
    try:
        return bytes.fromhex(text[2:]).decode("utf-8")
    except (UnicodeDecodeError, ValueError):
        raise ctx.abort("string", 0x10001, "EINVALID_UTF8") from None


def _registered(ctx: Context, coin: StructTag) -> None:
    """``coin::is_account_registered``: true once the coin type is initialized."""
    if coin_info(ctx, coin) is None:
        raise ctx.abort("coin", 0x10003, "ECOIN_INFO_NOT_PUBLISHED")


# -- managed_coin -----------------------------------------------------------------------------


@native("managed_coin", "initialize")
def _initialize(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    coin = resolve_coin(ctx, ty[0])
    name, symbol = _utf8(ctx, args[0]), _utf8(ctx, args[1])
    initialize_coin(ctx, coin, [name, symbol, args[2], args[3]])
    caps = {"burn_cap": CAPABILITY, "freeze_cap": CAPABILITY, "mint_cap": CAPABILITY}
    ctx.put(ctx.signer, _capabilities_tag(coin), caps)


@native("managed_coin", "mint")
def _mint(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    coin = resolve_coin(ctx, ty[0])
    _require_capabilities(ctx, coin)
    deposit_coin(ctx, coin, Address.parse(args[0]), mint_coin(ctx, coin, int(args[1])))


@native("managed_coin", "burn")
def _burn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    coin = resolve_coin(ctx, ty[0])
    _require_capabilities(ctx, coin)
    burn_coin(ctx, coin, withdraw_coin(ctx, coin, int(args[0])))


@native("managed_coin", "destroy_caps")
def _destroy_caps(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    coin = resolve_coin(ctx, ty[0])
    _require_capabilities(ctx, coin)
    ctx.delete(ctx.signer, _capabilities_tag(coin))


@native("managed_coin", "register")
def _register(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    # coin::register: balances are primary stores, made on first deposit.
    _registered(ctx, resolve_coin(ctx, ty[0]))


# -- coin views -------------------------------------------------------------------------------


@native("coin", "coin_supply")
def _coin_supply(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    info = coin_info(ctx, resolve_coin(ctx, ty[0]))
    if info is None:
        raise VMStatusError("MISSING_DATA")
    count = coin_info_supply(info)
    return [{"vec": [] if count is None else [str(count)]}]


@native("coin", "is_account_registered")
def _is_registered(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    _registered(ctx, resolve_coin(ctx, ty[0]))
    return [True]


# -- aptos_account ----------------------------------------------------------------------------


def _assert_exists(ctx: Context, address: Address) -> None:
    if not ctx.exists(address, ACCOUNT):
        raise ctx.abort("aptos_account", 0x60001, "EACCOUNT_NOT_FOUND")


@native("aptos_account", "assert_account_exists")
def _aa_assert_exists(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _assert_exists(ctx, Address.parse(args[0]))


@native("aptos_account", "assert_account_is_registered_for_apt")
def _aa_assert_apt(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _assert_exists(ctx, Address.parse(args[0]))
    _registered(ctx, _APT)


@native("aptos_account", "can_receive_direct_coin_transfers")
def _aa_can_receive(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    """No account here opts out of direct transfers (no ``DirectTransferConfig``)."""
    return [True]


def _ensure_account(ctx: Context, address: Address) -> None:
    if not ctx.exists(address, ACCOUNT):
        create_account(ctx, address)


@native("aptos_account", "deposit_coins")
def _aa_deposit_coins(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    coin, to = resolve_coin(ctx, ty[0]), Address.parse(args[0])
    _ensure_account(ctx, to)
    _registered(ctx, coin)
    deposit_coin(ctx, coin, to, args[1])


@native("aptos_account", "deposit_fungible_assets")
def _aa_deposit_assets(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    to = Address.parse(args[0])
    _ensure_account(ctx, to)
    primary_deposit(ctx, to, args[1])


@native("aptos_account", "transfer_coins")
def _aa_transfer_coins(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """``deposit_coins(to, coin::withdraw(from, amount))``; APT moves between the two
    primary stores directly (the same stores and events, no coin count written)."""
    coin, to, amount = resolve_coin(ctx, ty[0]), Address.parse(args[0]), int(args[1])
    if coin_info(ctx, coin) is None:
        raise ctx.abort("coin", 0x60003, "ECOIN_INFO_NOT_PUBLISHED")
    if render_type(coin) == APT_TYPE:
        transfer_apt(ctx, to, amount)
        return
    value = withdraw_coin(ctx, coin, amount)
    _ensure_account(ctx, to)
    deposit_coin(ctx, coin, to, value)
