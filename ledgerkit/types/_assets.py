"""Where the framework keeps an asset's metadata: the address of the fungible-asset
metadata object paired with a coin type, known from the coin type alone.

A coin ``T`` is paired (``0x1::coin::paired_metadata<T>``) with the metadata object the
framework places at a fixed address: ``0xa`` for APT, else the named object of ``0xa``
whose seed is the coin's type name (``SHA3-256(0xa ‖ type_name ‖ 0xFE)``, ``type_name``
as Move's ``type_info::type_name`` writes it: short addresses, ``", "`` between type
arguments). Plain data about addresses, so it sits with them on the ground floor: the
client's holdings and the frames' asset keys both read it.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Final

from ledgerkit._errors import InputError, LedgerError
from ledgerkit.types._address import Address
from ledgerkit.types._movetype import MoveType, StructTag

__all__ = ["APT_COIN", "APT_METADATA", "canonical_coin_type", "paired_metadata_address"]

#: APT as a coin type.
APT_COIN: Final = "0x1::aptos_coin::AptosCoin"
#: APT's fungible-asset metadata address (long form): its ``asset`` key.
APT_METADATA: Final = Address.from_int(0xA).long
_FUNGIBLE_ASSET_CREATOR: Final = bytes(Address.from_int(0xA))
_NAMED_OBJECT: Final = b"\xfe"


@functools.lru_cache(maxsize=1024)
def canonical_coin_type(coin_type: str) -> str:
    """``coin_type`` written as the node writes a struct type (short addresses).

    Raises
    ------
    InputError
        ``coin_type`` is not a struct type.
    """
    try:
        parsed = MoveType.parse(coin_type)
    except LedgerError as exc:
        raise InputError(f"not a coin type: {coin_type!r}") from exc
    if not isinstance(parsed, StructTag):
        raise InputError(f"a coin type is a struct type, got {coin_type!r}")
    return str(parsed)


@functools.lru_cache(maxsize=1024)
def paired_metadata_address(coin_type: str) -> str:
    """The address (long form) of the fungible-asset metadata paired with the coin
    ``coin_type``: ``0xa`` for APT, else ``SHA3-256(0xa ‖ type_name ‖ 0xFE)``.

    Raises
    ------
    InputError
        ``coin_type`` is not a struct type.

    Examples
    --------
    >>> paired_metadata_address("0x1::aptos_coin::AptosCoin")[-4:]
    '000a'
    """
    name = canonical_coin_type(coin_type)
    if name == APT_COIN:
        return APT_METADATA
    seed = name.encode()
    return Address(hashlib.sha3_256(_FUNGIBLE_ASSET_CREATOR + seed + _NAMED_OBJECT).digest()).long
