"""One name per asset, in every frame that names assets: the ``asset`` key, with the
``coin_type`` and ``metadata`` columns beside it.

The key is the address of the asset's fungible-asset metadata object, long form. A
fungible asset is its metadata; a coin ``T`` is keyed by the metadata it is paired with
(``0x1::coin::paired_metadata<T>``), which the framework places at an address fixed by
the coin type alone: ``0xa`` for APT, else the named object of ``0xa`` whose seed is the
coin's type name (``SHA3-256(0xa ‖ type_name ‖ 0xFE)``, ``type_name`` as Move's
``type_info::type_name`` writes it: short addresses, ``", "`` between type arguments).
So the key is known without asking the node, is the same before and after a coin is
migrated to its fungible asset, and a coin's balance (which counts its paired fungible
asset) and a movement of either join on it. A coin never paired still has that address
as its key, though no object lives there yet.
"""

from __future__ import annotations

from typing import NamedTuple

from ledgerkit._errors import InputError
from ledgerkit.types import (
    APT_COIN,
    APT_METADATA,
    Address,
    canonical_coin_type,
    paired_metadata_address,
)

__all__ = ["APT_COIN", "APT_METADATA", "AssetKey", "asset_key", "paired_metadata_address"]


class AssetKey(NamedTuple):
    """An asset's names: ``asset`` (the key), ``coin_type`` and ``metadata``.

    ``coin_type`` is None for a fungible asset not known to be paired with a coin;
    ``metadata`` is the key itself, long form.
    """

    asset: str
    coin_type: str | None
    metadata: str


def asset_key(*, coin_type: str | None = None, metadata: str | Address | None = None) -> AssetKey:
    """The names of an asset given as a coin type or as a metadata address (or both).

    Parameters
    ----------
    coin_type : str, optional
        A coin type (``0x1::aptos_coin::AptosCoin``); its key is its paired metadata
        address (:func:`paired_metadata_address`).
    metadata : str or Address, optional
        A fungible asset's metadata address; ``0xa`` is known to be APT's pair.

    Raises
    ------
    InputError
        Neither given, or a coin type and a metadata address that are not a pair.

    Examples
    --------
    >>> asset_key(coin_type="0x1::aptos_coin::AptosCoin").asset[-4:]
    '000a'
    """
    if coin_type is None and metadata is None:
        raise InputError("asset_key takes a coin type or a metadata address")
    coin = None if coin_type is None else canonical_coin_type(coin_type)
    if metadata is None:
        assert coin is not None
        return AssetKey(paired_metadata_address(coin), coin, paired_metadata_address(coin))
    long = Address.parse(metadata).long if isinstance(metadata, str) else metadata.long
    if coin is not None and paired_metadata_address(coin) != long:
        raise InputError(f"{coin} is paired with {paired_metadata_address(coin)}, not {long}")
    if coin is None and long == APT_METADATA:
        coin = APT_COIN
    return AssetKey(long, coin, long)
