"""Converters for state read at a version (resources, balances, view results), gas
estimates observed over time, and typed columns for Move values."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import msgspec
import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit.frames._dtypes import (
    BOOL,
    CATEGORY,
    COUNT,
    STRING,
    TIMESTAMP,
    UINT64,
    boolean,
    canonical_addresses,
    category,
    ints_to_wide,
    string,
    u64,
)
from ledgerkit.frames._inputs import describe, is_result, json_text, records_of
from ledgerkit.frames._transactions import _build
from ledgerkit.models import GasEstimate, MoveResource, decode_resources
from ledgerkit.types import Address, MoveType, PrimitiveType, StructTag

if TYPE_CHECKING:
    from ledgerkit.types import Result

__all__ = [
    "BALANCE_COLUMNS",
    "GAS_ESTIMATE_COLUMNS",
    "HOLDING_COLUMNS",
    "RESOURCE_COLUMNS",
    "balances_to_frame",
    "gas_estimates_to_frame",
    "holdings_to_frame",
    "move_column",
    "move_dtype",
    "resources_to_frame",
    "view_results_to_frame",
]

RESOURCE_COLUMNS: Final = {
    "address": CATEGORY,
    "version": UINT64,
    "type": CATEGORY,
    "module_address": CATEGORY,
    "module": CATEGORY,
    "name": CATEGORY,
    "data": STRING,
}

BALANCE_COLUMNS: Final = {
    "address": CATEGORY,
    "asset": CATEGORY,
    "amount": UINT64,
    "version": UINT64,
}

#: One row per asset an account holds (``Client.account_assets``): the exact ``balance``
#: in the smallest unit and ``amount``, the same in display units as exact decimal text.
#: ``asset`` is the asset's key (its fungible-asset metadata address, a coin's paired
#: one), as in :data:`BALANCE_CHANGE_COLUMNS`; ``coin_type`` the coin, if any. A token
#: (``kind`` ``"token"``) has its token data id as ``asset``, its name, its amount as
#: ``balance`` (decimals 0), and the token columns: its collection's name and id, its
#: standard (``v2``/``v1``), URI, property map (JSON text of an object of texts) and,
#: for token v1, property version; those are null for coins and fungible assets.
HOLDING_COLUMNS: Final = {
    "asset": STRING,
    "coin_type": STRING,
    "kind": CATEGORY,
    "symbol": STRING,
    "name": STRING,
    "decimals": COUNT,
    "balance": UINT64,
    "amount": STRING,
    "metadata": STRING,
    "collection": STRING,
    "collection_id": STRING,
    "token_standard": CATEGORY,
    "uri": STRING,
    "properties": STRING,
    "property_version": UINT64,
}

GAS_ESTIMATE_COLUMNS: Final = {
    "observed_at": TIMESTAMP,
    "gas_estimate": UINT64,
    "deprioritized": UINT64,
    "prioritized": UINT64,
}

_UNSIGNED: Final = frozenset({"u8", "u16", "u32", "u64"})
_STRING_TAG: Final = "0x1::string::String"


def _long(value: str | None, cache: dict[str, str]) -> str | None:
    if value is None:
        return None
    found = cache.get(value)
    if found is None:
        found = cache[value] = Address.parse(value).long
    return found


def move_dtype(move_type: MoveType | str) -> Any:
    """The dtype :func:`move_column` gives values of ``move_type``."""
    kind = MoveType.parse(move_type)
    if isinstance(kind, PrimitiveType):
        if kind.name in _UNSIGNED:
            return UINT64
        if kind.name == "bool":
            return BOOL
        if kind.name in ("address", "signer"):
            return CATEGORY
    return STRING


def move_column(values: Sequence[Any], move_type: MoveType | str | None) -> Any:
    """A typed array from Move values in the API's JSON form (None is missing).

    u8 ... u64 give ``UInt64``; u128 and u256 fixed-width decimal text (exact, sorts
    numerically); ``address`` the long form as ``category``; ``bool`` ``boolean``;
    ``0x1::string::String`` ``string``; anything else (and no type) JSON text.
    """
    kind = None if move_type is None else MoveType.parse(move_type)
    if isinstance(kind, PrimitiveType):
        name = kind.name
        if name in _UNSIGNED:
            return u64([None if v is None else int(v) for v in values])
        if name == "u128":
            return ints_to_wide(values, bits=128)
        if name == "u256":
            return ints_to_wide(values, bits=256)
        if name == "bool":
            return boolean(list(values))
        if name in ("address", "signer"):
            return category(canonical_addresses(list(values)))
    if isinstance(kind, StructTag) and str(kind) == _STRING_TAG:
        return string(list(values))
    return string([None if v is None else json_text(v) for v in values])


def resources_to_frame(
    resources: bytes
    | Result[list[MoveResource]]
    | Result[MoveResource]
    | MoveResource
    | Iterable[MoveResource | dict[str, Any]],
    *,
    address: str | Address | None = None,
    version: int | None = None,
) -> pd.DataFrame:
    """One row per resource (:data:`RESOURCE_COLUMNS`).

    ``resources`` is what the client returns (``client.account_resources(address)``, its
    ``.value`` or one resource), or the API's JSON. ``address`` and ``version`` say where
    and when the resources were read; ``version`` defaults to the result's
    ``ledger.ledger_version`` when a client result is given. ``data`` is the Move value as
    JSON text.

    Raises
    ------
    InputError
        ``resources`` is none of these.
    """
    if version is None and is_result(resources):
        version = resources[1].ledger_version
    records = records_of(
        resources,
        (MoveResource,),
        decode_resources,
        converter="resources_to_frame",
        expected="resources (records, a client result, JSON bytes or dicts)",
    )
    owner = None if address is None else Address.parse(address).long
    cache: dict[str, str] = {}
    cols: dict[str, list[Any]] = {name: [] for name in RESOURCE_COLUMNS}
    for resource in records:
        tag = resource.struct_tag
        cols["address"].append(owner)
        cols["version"].append(version)
        cols["type"].append(resource.type)
        cols["module_address"].append(_long(str(tag.address), cache))
        cols["module"].append(tag.module)
        cols["name"].append(tag.name)
        cols["data"].append(json_text(resource.data))
    return _build(RESOURCE_COLUMNS, cols)


def _asset(value: Any, cache: dict[str, str]) -> str:
    text = str(value)
    if "::" in text:
        return text
    return _long(text, cache) or text


def balances_to_frame(
    balances: Iterable[tuple[Any, Any, int]] | Mapping[tuple[Any, Any], int],
    *,
    version: int | None = None,
) -> pd.DataFrame:
    """Balances at a version (:data:`BALANCE_COLUMNS`).

    Parameters
    ----------
    balances : iterable of (address, asset, amount), or mapping (address, asset) -> amount
        ``amount`` as ``client.account_balance(address, asset).value`` gives it. An asset
        that is an address (a fungible asset's metadata) is written in long form, a coin
        type as given.
    version : int, optional
        The ledger version the balances were read at.
    """
    if isinstance(balances, Mapping):
        items = [(a, s, n) for (a, s), n in balances.items()]
    elif isinstance(balances, Iterable) and not isinstance(balances, str | bytes):
        items = list(balances)
    else:
        raise InputError(
            "balances_to_frame expects (address, asset, amount) triples or a mapping "
            f"(address, asset) -> amount, got {describe(balances)}"
        )
    for position, item in enumerate(items):
        if not (isinstance(item, tuple | list) and len(item) == 3):
            raise InputError(
                "balances_to_frame expects (address, asset, amount) triples, "
                f"got {describe(item)} at position {position}"
            )
    cache: dict[str, str] = {}
    cols: dict[str, list[Any]] = {
        "address": [_long(str(a), cache) for a, _, _ in items],
        "asset": [_asset(s, cache) for _, s, _ in items],
        "amount": [int(n) for _, _, n in items],
        "version": [version] * len(items),
    }
    return _build(BALANCE_COLUMNS, cols)


def _display(balance: int, decimals: int | None) -> str | None:
    """``balance`` in display units, exact: ``123456789`` with 8 decimals is ``1.23456789``."""
    if decimals is None:
        return None
    whole, part = divmod(balance, 10**decimals)
    text = f"{whole:,}"
    if decimals and part:
        text += "." + f"{part:0{decimals}d}".rstrip("0")
    return text


def holdings_to_frame(holdings: Iterable[Any]) -> pd.DataFrame:
    """The assets of an account (:data:`HOLDING_COLUMNS`), as ``Client.account_assets``
    returns them.

    ``amount`` is the balance in display units (thousands separated, trailing zeros
    dropped), computed exactly; ``None`` when the asset's decimals are unknown.
    """
    if is_result(holdings):
        holdings = holdings[0]
    if isinstance(holdings, str | bytes) or not isinstance(holdings, Iterable):
        raise InputError(
            f"holdings_to_frame expects Client.account_assets(), got {describe(holdings)}"
        )
    items = list(holdings)
    for position, item in enumerate(items):
        if not all(hasattr(item, name) for name in ("asset", "kind", "balance", "decimals")):
            raise InputError(
                f"holdings_to_frame expects Holding records, got {describe(item)} at {position}"
            )
    cols: dict[str, list[Any]] = {
        "asset": [h.asset for h in items],
        "coin_type": [getattr(h, "coin_type", None) for h in items],
        "kind": [h.kind for h in items],
        "symbol": [h.symbol for h in items],
        "name": [h.name for h in items],
        "decimals": [h.decimals for h in items],
        "balance": [int(h.balance) for h in items],
        "amount": [_display(int(h.balance), h.decimals) for h in items],
        "metadata": [h.metadata for h in items],
    }
    # Records of before tokens lack the token fields: null for them.
    for name in ("collection", "collection_id", "token_standard", "uri", "property_version"):
        cols[name] = [getattr(h, name, None) for h in items]
    cols["properties"] = [_properties_text(getattr(h, "properties", None)) for h in items]
    return _build(HOLDING_COLUMNS, cols)


def _properties_text(properties: Any) -> str | None:
    return None if properties is None else json_text(dict(properties))


_GAS_EXPECTS: Final = (
    "gas_estimates_to_frame expects client results or (observed_at, GasEstimate) pairs"
)
_VIEW_EXPECTS: Final = "view_results_to_frame expects client results or lists of values"


def _results(value: Any, expects: str) -> Iterable[Any]:
    """``value`` as items to read: one client result is a list of one; text is refused."""
    if is_result(value):
        return [value]
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InputError(f"{expects}, got {describe(value)}")
    return value


def _micros(value: Any) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, datetime.datetime | pd.Timestamp):
        stamp = pd.Timestamp(value)
        if stamp.tzinfo is None:
            stamp = stamp.tz_localize("UTC")
        return int(stamp.as_unit("us").value)
    ledger = getattr(value, "ledger_timestamp_usec", None)
    if isinstance(ledger, int):
        return ledger
    raise InputError(f"gas_estimates_to_frame expects a time, got {describe(value)}")


def gas_estimates_to_frame(observations: Iterable[Any]) -> pd.DataFrame:
    """A time series of gas price estimates (:data:`GAS_ESTIMATE_COLUMNS`).

    Parameters
    ----------
    observations : iterable
        ``(observed_at, GasEstimate)`` pairs, where ``observed_at`` is a datetime or
        microseconds since the epoch, or the client's results
        (``client.estimate_gas_price()``, one or many), timed by their ledger timestamp.

    Raises
    ------
    InputError
        ``observations`` is none of these.
    """
    rows: list[tuple[int, GasEstimate]] = []
    for position, item in enumerate(_results(observations, _GAS_EXPECTS)):
        if is_result(item):
            rows.append((_micros(item[1]), item[0]))
            continue
        if isinstance(item, tuple | list) and len(item) == 2:
            when, estimate = item
            if isinstance(estimate, dict):
                estimate = msgspec.convert(estimate, GasEstimate, strict=False)
            if isinstance(estimate, GasEstimate):
                rows.append((_micros(when), estimate))
                continue
        raise InputError(f"{_GAS_EXPECTS}, got {describe(item)} at position {position}")
    cols: dict[str, list[Any]] = {
        "observed_at": [when for when, _ in rows],
        "gas_estimate": [e.gas_estimate for _, e in rows],
        "deprioritized": [e.deprioritized_gas_estimate for _, e in rows],
        "prioritized": [e.prioritized_gas_estimate for _, e in rows],
    }
    return _build(GAS_ESTIMATE_COLUMNS, cols)


def view_results_to_frame(
    results: Iterable[Any],
    *,
    names: Sequence[str] | None = None,
    types: Sequence[MoveType | str] | None = None,
) -> pd.DataFrame:
    """One row per view call: ``ledger_version`` then one column per returned value.

    Parameters
    ----------
    results : iterable
        What ``client.view_json(...)`` returns (results, whose ``ledger.ledger_version`` fills
        ``ledger_version``) or the bare lists of values (``ledger_version`` missing).
    names : sequence of str, optional
        Column names of the returned values (default ``value_0``, ``value_1``...).
    types : sequence of MoveType or str, optional
        The function's return types: each column typed as :func:`move_column` does.
        Without them the values are JSON text.

    Give ``names`` or ``types`` for the same columns when there are no results.
    """
    versions: list[int | None] = []
    rows: list[Sequence[Any]] = []
    for position, item in enumerate(_results(results, _VIEW_EXPECTS)):
        if is_result(item):
            versions.append(item[1].ledger_version)
            rows.append(item[0])
        elif isinstance(item, list | tuple):
            versions.append(None)
            rows.append(item)
        else:
            raise InputError(f"{_VIEW_EXPECTS}, got {describe(item)} at position {position}")
    width = len(names) if names is not None else len(types) if types is not None else None
    if width is None:
        width = max((len(row) for row in rows), default=0)
    labels = list(names) if names is not None else [f"value_{i}" for i in range(width)]
    columns: dict[str, Any] = {"ledger_version": u64(versions)}
    for i, label in enumerate(labels):
        values = [row[i] if i < len(row) else None for row in rows]
        columns[label] = move_column(values, None if types is None else types[i])
    return pd.DataFrame(columns, index=pd.RangeIndex(len(rows)))
