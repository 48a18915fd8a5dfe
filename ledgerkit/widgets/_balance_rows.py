"""A transaction's balance changes as the inspector shows them: per account and asset, the
exact signed change in base units and in the asset's display units, the asset named
readably, and the main amounts moved.

The changes are :func:`ledgerkit.frames.balance_changes_to_frame`'s (coin and fungible
asset events, the write set, and the fee charged to whoever paid it). A fungible store
whose owner or asset the transaction alone does not tell is read at the transaction's
version (its ``ObjectCore`` and ``FungibleStore``), as a node-only explorer must. An asset
is named by its symbol: APT's without asking; another's from its
``0x1::fungible_asset::Metadata``, read once per explorer; failing that, by its coin
type's struct name, or its short address.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Final, NamedTuple

import pandas as pd

from ledgerkit._errors import LedgerError, NotFoundError
from ledgerkit.frames import (
    APT_DECIMALS,
    APT_METADATA,
    activity_to_frame,
    balance_changes_to_frame,
    stores_to_look_up,
)
from ledgerkit.models import store_facts
from ledgerkit.types import Address, MoveType, StructTag
from ledgerkit.widgets._grid import Column
from ledgerkit.widgets._navigator import Navigator, short

__all__ = [
    "BALANCE_COLUMNS",
    "AssetName",
    "asset_name",
    "balance_frame",
    "balance_rows",
    "moved_text",
    "units_text",
]

#: The Balance changes tab's columns.
BALANCE_COLUMNS: Final = [
    Column("address", "Account", "address"),
    Column("roles", "Role"),
    Column("symbol", "Asset"),
    Column("amount", "Change", "int"),
    Column("base_units", "Change (base units)", "int"),
    Column("asset", "Asset key", "address"),
]
#: Most stores one transaction's changes read to learn their owner or asset.
MAX_STORES_READ: Final = 32
_METADATA: Final = "0x1::fungible_asset::Metadata"
_MAX_DECIMALS: Final = 32
_MAX_SYMBOL: Final = 32


class AssetName(NamedTuple):
    """How an asset is shown: its symbol (or a short name) and its decimals (None:
    unknown, shown in base units only)."""

    symbol: str
    decimals: int | None


def units_text(amount: int, decimals: int | None, *, signed: bool = False) -> str | None:
    """``amount`` base units in display units, digit-grouped, exact (``-0.00014``);
    ``signed`` puts ``+`` before a gain. None when ``decimals`` is unknown.

    Examples
    --------
    >>> units_text(-14_000, 8, signed=True), units_text(250_000_000, 8)
    ('-0.00014', '2.5')
    """
    if decimals is None:
        return None
    sign = "-" if amount < 0 else "+" if signed and amount > 0 else ""
    whole, part = divmod(abs(amount), 10**decimals)
    text = f"{whole:,}"
    if decimals and part:
        text += "." + f"{part:0{decimals}d}".rstrip("0")
    return sign + text


def _base_units(amount: int) -> str:
    return f"{amount:+,}" if amount else "0"


def _coin_name(coin_type: str | None) -> str | None:
    if not coin_type:
        return None
    try:
        parsed = MoveType.parse(coin_type)
    except LedgerError:
        return None
    return parsed.name if isinstance(parsed, StructTag) else None


def asset_name(nav: Navigator, asset: str | None, coin_type: str | None) -> AssetName:
    """The symbol and decimals of the asset keyed ``asset`` (see the module docstring),
    read once per explorer."""
    if asset is None:
        return AssetName("unknown asset", None)
    if asset == APT_METADATA:
        return AssetName("APT", APT_DECIMALS)

    def read() -> AssetName:
        fallback = _coin_name(coin_type) or short(Address.parse(asset).standard)
        try:
            data = nav.client.account_resource(asset, _METADATA).value.data
        except NotFoundError:
            return AssetName(fallback, None)
        data = data if isinstance(data, Mapping) else {}
        symbol = data.get("symbol")
        try:
            decimals: int | None = int(data.get("decimals"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            decimals = None
        if decimals is not None and not 0 <= decimals <= _MAX_DECIMALS:
            decimals = None
        if not isinstance(symbol, str) or not symbol.strip():
            symbol = fallback
        return AssetName(symbol.strip()[:_MAX_SYMBOL], decimals)

    found: AssetName | None = nav.guard("asset names", lambda: nav.memo(("asset", asset), read))
    return found if found is not None else AssetName(_coin_name(coin_type) or short(asset), None)


def _store_facts(nav: Navigator, store: str, version: int) -> tuple[str | None, str | None]:
    """``(owner, metadata)`` of a fungible store, read at ``version``."""
    page = nav.client.account_resources(store, ledger_version=version, limit=MAX_STORES_READ)
    return store_facts(page.value)


def balance_frame(nav: Navigator, txn: Any) -> pd.DataFrame:
    """The transaction's balance changes (:data:`ledgerkit.frames.BALANCE_CHANGE_COLUMNS`),
    the stores it leaves unexplained read from the node; made once per explorer."""

    def make() -> pd.DataFrame:
        stores: dict[str, tuple[str | None, str | None]] = {}
        version = getattr(txn, "version", None)
        if version is not None:
            for store in stores_to_look_up(txn)[:MAX_STORES_READ]:
                facts = nav.guard(
                    "fungible stores", functools.partial(_store_facts, nav, store, version)
                )
                if facts is not None:
                    stores[store] = facts
        return balance_changes_to_frame(txn, stores=stores)

    frame: pd.DataFrame = nav.memo(("balance changes", getattr(txn, "hash", id(txn))), make)
    return frame


def _roles(txn: Any) -> dict[str, str]:
    """Each account's roles in words (``sender``, ``fee payer``...); ``write set`` only
    for an account that has no other."""
    activity = activity_to_frame(txn)
    found = {}
    for address, roles in zip(activity["address"], activity["roles"], strict=True):
        named = str(roles).split(",")
        if len(named) > 1:
            named = [role for role in named if role != "write_set"]
        found[str(address)] = ", ".join(role.replace("_", " ") for role in named)
    return found


def _standard(address: str | None) -> str | None:
    return None if address is None else Address.parse(address).standard


def balance_rows(nav: Navigator, txn: Any) -> list[dict[str, Any]]:
    """One row per account and asset the transaction changed (:data:`BALANCE_COLUMNS`),
    addresses in their standard form (``0xa``, or 64 hex digits); ``row`` is the row's
    place in :func:`balance_frame`, which keeps the long forms."""
    frame = balance_frame(nav, txn)
    roles = _roles(txn)
    rows = []
    for index, change in enumerate(frame.astype(object).itertuples(index=False)):
        asset = None if pd.isna(change.asset) else str(change.asset)
        coin_type = None if pd.isna(change.coin_type) else str(change.coin_type)
        name = asset_name(nav, asset, coin_type)
        delta = int(change.delta)
        rows.append(
            {
                "row": index,
                "address": _standard(str(change.address)),
                "roles": roles.get(str(change.address), ""),
                "symbol": name.symbol,
                "amount": units_text(delta, name.decimals, signed=True),
                "base_units": _base_units(delta),
                "asset": _standard(asset),
                "coin_type": coin_type,
                "delta": delta,
                "decimals": name.decimals,
            }
        )
    return rows


def moved_text(rows: list[dict[str, Any]], fee_payer: str | None, charged: int) -> str:
    """The main amounts moved: per asset, what the accounts that gained it received in
    all (``charged``, the fee less its refund, left out of the fee payer's APT), APT
    first (``2.5 APT · 1.5 LDT``); ``""`` for none."""
    gained: dict[tuple[str | None, str], int] = {}
    decimals: dict[tuple[str | None, str], int | None] = {}
    for row in rows:
        key = (row["asset"], row["symbol"])
        delta = row["delta"]
        if row["address"] == _standard(fee_payer) and row["asset"] == _standard(APT_METADATA):
            delta += charged
        if delta > 0:
            gained[key] = gained.get(key, 0) + delta
            decimals[key] = row["decimals"]
    parts = []
    # APT first, then by symbol: amounts of assets of other decimals do not compare.
    apt = _standard(APT_METADATA)
    for key, amount in sorted(gained.items(), key=lambda i: (i[0][0] != apt, i[0][1])):
        shown = units_text(amount, decimals[key])
        symbol = key[1]
        parts.append(f"{shown} {symbol}" if shown else f"{amount:,} base units of {symbol}")
    return " · ".join(parts)
