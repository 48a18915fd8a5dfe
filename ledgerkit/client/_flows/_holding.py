"""What ``account_assets`` lists: :class:`Holding`, one asset an account holds."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Holding"]


@dataclass(frozen=True)
class Holding:
    """One asset an account holds.

    Attributes
    ----------
    asset : str
        The asset's key, as every frame names it: its fungible-asset metadata address,
        long form; for a coin, the metadata it is paired with (``0x…0a`` for APT).
        For a token: its token data id (the token's object address, for token v2).
    kind : {"coin", "fungible_asset", "token"}
        How it is held: a coin type (its paired fungible asset counted in), a fungible
        asset only, or a digital asset (a token: non-fungible, token v2 or v1).
    balance : int
        Exact, in the asset's smallest unit; a token's amount (1 for token v2).
    decimals : int or None
        Display decimals (``None`` when its metadata could not be read; 0 for a token).
    symbol, name : str or None
        From ``CoinInfo`` or ``Metadata``; a token's name (no symbol).
    metadata : str or None
        The fungible asset's metadata address (a coin's paired one), long form: the
        key. For a coin not paired yet, the address its pair will have.
    coin_type : str or None
        The coin type (``0x1::aptos_coin::AptosCoin``) for a coin or a fungible asset
        paired with one; None for a fungible asset alone.
    collection : str or None
        A token's collection name (``None`` for coins and fungible assets, and for all
        the fields below).
    collection_id : str or None
        A token's collection: its object address (token v2) or id (token v1), long form.
    token_standard : {"v2", "v1"} or None
        A token's standard: a ``0x4::token::Token`` object, or token v1's ``TokenStore``.
    uri : str or None
        A token's URI (its metadata off chain).
    properties : dict of str to str, or None
        A token's property map, values as text (numbers in decimal, ``true``/``false``,
        strings as they are, addresses and bytes in ``0x`` hex); ``None`` when not read.
        A token v1's: its token data's default properties at property version 0, its
        own past it.
    property_version : int or None
        A token v1's property version (0 for a token whose properties were never
        changed by its owner); ``None`` for token v2.
    """

    asset: str
    kind: str
    balance: int
    decimals: int | None = None
    symbol: str | None = None
    name: str | None = None
    metadata: str | None = None
    coin_type: str | None = None
    collection: str | None = None
    collection_id: str | None = None
    token_standard: str | None = None
    uri: str | None = None
    properties: dict[str, str] | None = field(default=None, compare=False)
    property_version: int | None = None
