"""Coin supply: how a ``CoinInfo`` counts the coins of its type.

``CoinInfo<T>.supply`` counts the coins of ``T`` that exist as ``Coin`` values. On a
chain whose balances are all fungible assets (this one) a coin minted is deposited at
once, which turns it into the paired asset and takes it off that count: APT's
``CoinInfo`` integer stays 0 from genesis on, fees burn from the asset, and the total is
``coin::supply`` (the count plus the paired asset's supply).

The ``coin`` bodies are in :mod:`._coin_api`, ``managed_coin``'s in :mod:`._managed_coin`.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["U128_MAX", "coin_info_supply", "monitored_supply"]

U128_MAX: Final = (1 << 128) - 1


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
