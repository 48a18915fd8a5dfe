"""Coin supply and ``0x1::managed_coin``, as Python bodies over a :class:`Context`.

``CoinInfo<T>.supply`` counts the coins of ``T`` that exist as ``Coin`` values. On a
chain whose balances are all fungible assets (this one) a coin minted is deposited at
once, which turns it into the paired asset and takes it off that count: APT's
``CoinInfo`` integer stays 0 from genesis on, fees burn from the asset, and the total is
``coin::supply`` (the count plus the paired asset's supply).

``managed_coin`` works on coin types declared by the caller's own module. This node runs
the framework's modules only and publishes none, so no caller can declare one: the entry
functions run up to the check that stops them, with the framework's abort codes.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._module_specs import MODULES
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.types import Address, MoveType, StructTag

__all__ = ["U128_MAX", "coin_info_supply", "monitored_supply"]

U128_MAX: Final = (1 << 128) - 1
_FRAMEWORK: Final = Address.from_int(1)
_STRUCTS: Final = frozenset(
    (module.address, module.name, struct.name) for module in MODULES for struct in module.structs
)
_MODULES: Final = frozenset((module.address, module.name) for module in MODULES)


def monitored_supply(value: int = 0) -> dict[str, Any]:
    """A ``CoinInfo.supply`` that counts coins in a plain integer (not a parallel
    aggregator), as ``coin::initialize`` with ``monitor_supply`` makes it."""
    integer = {"value": str(value), "limit": str(U128_MAX)}
    return {"vec": [{"aggregator": {"vec": []}, "integer": {"vec": [integer]}}]}


def coin_info_supply(info: dict[str, Any]) -> int | None:
    """The coin count of a ``CoinInfo``: None when it keeps none."""
    if not info["supply"]["vec"]:
        return None
    optional = info["supply"]["vec"][0]
    return int(optional["integer"]["vec"][0]["value"])


def _resolve(coin: MoveType) -> StructTag:
    """The coin type, once it names a struct of a module the chain holds."""
    if not isinstance(coin, StructTag):
        raise VMStatusError("TYPE_RESOLUTION_FAILURE")
    if (coin.address, coin.module) not in _MODULES:
        raise VMStatusError("LINKER_ERROR")
    if (coin.address, coin.module, coin.name) not in _STRUCTS:
        raise VMStatusError("TYPE_RESOLUTION_FAILURE")
    return coin


def _coin_info(ctx: Context, coin: StructTag) -> Any:
    return ctx.resource(
        coin.address, render_type(StructTag(_FRAMEWORK, "coin", "CoinInfo", (coin,)))
    )


@native("coin", "coin_supply")
def _coin_supply(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    info = _coin_info(ctx, _resolve(ty[0]))
    if info is None:
        raise VMStatusError("MISSING_DATA")
    count = coin_info_supply(info)
    return [{"vec": [] if count is None else [str(count)]}]


@native("coin", "is_account_registered")
def _is_registered(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    if _coin_info(ctx, _resolve(ty[0])) is None:
        raise ctx.abort("coin", 0x10003, "ECOIN_INFO_NOT_PUBLISHED")
    return [True]


def _capabilities(ctx: Context, coin: StructTag) -> None:
    tag = render_type(StructTag(_FRAMEWORK, "managed_coin", "Capabilities", (coin,)))
    if not ctx.exists(ctx.signer, tag):
        raise ctx.abort("managed_coin", 0x60001, "ENO_CAPABILITIES")


@native("managed_coin", "initialize")
def _initialize(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    coin = _resolve(ty[0])
    for text in args[:2]:
        try:
            bytes.fromhex(text[2:]).decode("utf-8")
        except UnicodeDecodeError:
            raise ctx.abort("string", 0x10001, "EINVALID_UTF8") from None
    # coin::initialize: only the account that declares the coin type may.
    if coin.address != ctx.signer:
        raise ctx.abort("coin", 0x10001, "ECOIN_INFO_ADDRESS_MISMATCH")
    raise VMStatusError("LINKER_ERROR")  # unreachable: no account's module is on chain


@native("managed_coin", "mint")
def _mint(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _capabilities(ctx, _resolve(ty[0]))


@native("managed_coin", "burn")
def _burn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _capabilities(ctx, _resolve(ty[0]))


@native("managed_coin", "destroy_caps")
def _destroy_caps(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _capabilities(ctx, _resolve(ty[0]))


@native("managed_coin", "register")
def _register(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    # coin::register: nothing to do for a coin type that exists (balances are fungible
    # assets, stores are made on first deposit); a type without CoinInfo aborts.
    _is_registered(ctx, ty, [ctx.signer.standard])
