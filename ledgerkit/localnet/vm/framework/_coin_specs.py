"""Coin modules beside ``0x1::coin``, declared: the supply counters a ``CoinInfo`` holds
(``optional_aggregator`` and the first ``aggregator``) and ``managed_coin``.

A coin's ``CoinInfo.supply`` is an ``Option<OptionalAggregator>``: either a parallel
aggregator (its value in an aggregator table) or a plain ``Integer {value, limit}``, as
the Aptos framework declares them. Bodies are in :mod:`._coin_modules`.
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec

__all__ = ["AGGREGATOR", "MANAGED_COIN", "OPTIONAL_AGGREGATOR"]

_ANY: Final = ((),)
_STORE: Final = ("store",)

AGGREGATOR: Final = ModuleSpec(
    "aggregator",
    structs=(
        StructSpec(
            "Aggregator",
            _STORE,
            (("handle", "address"), ("key", "address"), ("limit", "u128")),
        ),
    ),
)

OPTIONAL_AGGREGATOR: Final = ModuleSpec(
    "optional_aggregator",
    structs=(
        StructSpec("Integer", _STORE, (("value", "u128"), ("limit", "u128"))),
        StructSpec(
            "OptionalAggregator",
            _STORE,
            (
                ("aggregator", "0x1::option::Option<0x1::aggregator::Aggregator>"),
                ("integer", "0x1::option::Option<0x1::optional_aggregator::Integer>"),
            ),
        ),
    ),
)


def _entry(name: str, *params: str) -> FunctionSpec:
    return FunctionSpec(name, ("&signer", *params), generics=_ANY, entry=True)


MANAGED_COIN: Final = ModuleSpec(
    "managed_coin",
    structs=(
        StructSpec(
            "Capabilities",
            ("key",),
            (
                ("burn_cap", "0x1::coin::BurnCapability<T0>"),
                ("freeze_cap", "0x1::coin::FreezeCapability<T0>"),
                ("mint_cap", "0x1::coin::MintCapability<T0>"),
            ),
            _ANY,
        ),
    ),
    functions=(
        _entry("burn", "u64"),
        _entry("destroy_caps"),
        _entry("initialize", "vector<u8>", "vector<u8>", "u8", "bool"),
        _entry("mint", "address", "u64"),
        _entry("register"),
    ),
)
