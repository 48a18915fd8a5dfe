"""The ABIs of published modules as a transaction's JSON reads them: from the state a
``read`` function sees (the chain as of one version, or a block being built)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from ledgerkit.localnet.vm.framework import module_key
from ledgerkit.types import Address

__all__ = ["module_abi_reader"]


def module_abi_reader(
    read: Callable[[bytes], tuple[bytes, bytes] | None],
) -> Callable[[Address, str], dict[str, Any] | None]:
    """The ABI JSON of a published module by (address, name) in the state ``read`` reads
    (its stored JSON and BCS by state key), or None when there is no such module."""

    def abi_of(address: Address, name: str) -> dict[str, Any] | None:
        found = read(module_key(address, name))
        if found is None:
            return None
        try:
            abi = orjson.loads(found[0]).get("abi")
        except (orjson.JSONDecodeError, AttributeError):
            return None
        return abi if isinstance(abi, dict) else None

    return abi_of
