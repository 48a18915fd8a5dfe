"""Every asset an account holds: coins and fungible assets from the node API alone,
digital assets (tokens) from the indexer and the node (see ``_tokens``). No I/O here: a
flow.

Discovery, all at one ledger version (the first answer's, unless one is given):

1. the account's resources, every page (or the list the caller already read at that
   version): each ``0x1::coin::CoinStore<T>`` is a coin held;
2. fungible-asset candidates: APT's metadata (``0xa``), the metadata paired with each coin
   (the ``0x1::coin::paired_metadata<T>`` view), the ``0x1::fungible_asset::Metadata``
   objects the genesis transaction created (when the node still holds it), those the
   indexer lists for the account when the client knows one (assets issued later by
   published modules, see ``_indexed_assets``), and any the caller names;
3. balances: ``GET /accounts/{a}/balance/{asset}`` (the coin type for a coin, which counts
   its paired fungible asset too; the metadata address for a fungible asset without a
   coin held), kept when not zero;
4. names, symbols and decimals: ``0x1::coin::CoinInfo<T>`` for coins, the ``Metadata``
   resource for fungible assets.

Only primary stores are read; secondary stores and dispatchable assets' derived balances
are not.

Each asset is named by its key (``ledgerkit.frames.asset_key``): its fungible-asset
metadata address, a coin's paired one, so that holdings join the balance-change frames;
a token by its token data id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from ledgerkit._errors import InputError, LedgerError, NotFoundError
from ledgerkit.client import calls
from ledgerkit.client._driver import Flow, send
from ledgerkit.client._flows._holding import Holding
from ledgerkit.client._flows._indexed_assets import indexed_assets
from ledgerkit.client._flows._tokens import checked_tokens, indexed_tokens, named_tokens
from ledgerkit.models import WriteResource
from ledgerkit.types import Address, paired_metadata_address

__all__ = ["Holding", "holdings"]  # Holding: re-exported for the package

#: APT's fungible-asset metadata.
APT_METADATA: Final = Address.from_int(0xA)
#: Most pages of resources read (200 each).
MAX_RESOURCE_PAGES: Final = 50
#: Most resources read, or taken from a caller that read them.
MAX_RESOURCES: Final = MAX_RESOURCE_PAGES * 200
_COIN_STORE: Final = re.compile(r"^0x0*1::coin::CoinStore<(.+)>$")
_METADATA: Final = "0x1::fungible_asset::Metadata"


def _option_inner(value: Any) -> str | None:
    """The address inside ``Option<Object<T>>`` JSON (``{"vec": [{"inner": "0x..."}]}``)."""
    if isinstance(value, dict):
        vec = value.get("vec")
        if isinstance(vec, list) and vec and isinstance(vec[0], dict):
            inner = vec[0].get("inner")
            return inner if isinstance(inner, str) else None
    return None


def _coin_of(value: Any) -> str | None:
    """The coin type inside ``Option<TypeInfo>`` JSON (hex-encoded module and struct names)."""
    if not isinstance(value, dict):
        return None
    vec = value.get("vec")
    if not (isinstance(vec, list) and vec and isinstance(vec[0], dict)):
        return None
    info = vec[0]
    try:
        module = bytes.fromhex(str(info["module_name"]).removeprefix("0x")).decode()
        struct = bytes.fromhex(str(info["struct_name"]).removeprefix("0x")).decode()
        return f"{Address.parse(str(info['account_address'])).standard}::{module}::{struct}"
    except (KeyError, ValueError, UnicodeDecodeError, InputError):
        return None


def _coin_address(coin: str) -> str:
    return coin.split("::", 1)[0]


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _read_resource(address: str, tag: str, version: int) -> Flow[dict[str, Any] | None]:
    try:
        found = yield from send(calls.account_resource(address, tag, ledger_version=version))
    except LedgerError:
        return None
    data = found.value.data
    return data if isinstance(data, dict) else None


def _view(function: str, types: Sequence[str], args: Sequence[Any], version: int) -> Flow[Any]:
    try:
        result = yield from send(calls.view_json(function, types, args, ledger_version=version))
    except LedgerError:
        return None
    return result.value[0] if result.value else None


def _genesis_metadata() -> Flow[list[str]]:
    """Fungible-asset metadata objects the genesis transaction created."""
    try:
        genesis = yield from send(calls.transaction_by_version(0))
    except LedgerError:  # pruned, or a node that does not serve it
        return []
    found = []
    for change in getattr(genesis.value, "changes", None) or ():
        if isinstance(change, WriteResource) and change.data.type == _METADATA:
            found.append(Address.parse(change.address).long)
    return found


def _given_resources(resources: Iterable[Any]) -> list[Any]:
    """The resources a caller read, checked: records with a ``type``, at most what the
    flow would read itself."""
    if isinstance(resources, str | bytes) or not isinstance(resources, Iterable):
        raise InputError(
            f"resources is the account's resources (MoveResource records), got "
            f"{type(resources).__name__}"
        )
    given: list[Any] = []
    for resource in resources:
        if not isinstance(getattr(resource, "type", None), str):
            raise InputError(f"resources holds MoveResource records, got {type(resource).__name__}")
        given.append(resource)
        if len(given) > MAX_RESOURCES:
            raise InputError(f"at most {MAX_RESOURCES:,} resources, as the flow reads itself")
    return given


def _account_resources(
    owner: Address, ledger_version: int | None
) -> Flow[tuple[list[Any], int | None]]:
    """The account's resources, every page (none when there is no account: it may still
    hold fungible assets), and the version they were read at (the first answer's, unless
    one is given; ``None`` when no page was answered)."""
    read: list[Any] = []
    start: str | None = None
    version = ledger_version
    for _ in range(MAX_RESOURCE_PAGES):
        try:
            page = yield from send(
                calls.account_resources(owner, ledger_version=version, start=start, limit=200)
            )
        except NotFoundError:
            break
        version = page.ledger.ledger_version if version is None else version
        read += page.value
        start = page.ledger.cursor
        if not start:
            break
    return read, version


def _coin_holding(owner: Address, coin: str, version: int) -> Flow[tuple[Holding, str | None]]:
    """A coin held, with its balance (which counts its paired fungible asset too) and its
    ``CoinInfo``; and the metadata address it is paired with, if it is."""
    paired = _option_inner((yield from _view("0x1::coin::paired_metadata", [coin], [], version)))
    paired_long = Address.parse(paired).long if paired else None
    key = paired_long or paired_metadata_address(coin)
    balance = (yield from send(calls.account_balance(owner, coin, ledger_version=version))).value
    coin_info = yield from _read_resource(
        _coin_address(coin), f"0x1::coin::CoinInfo<{coin}>", version
    )
    facts = coin_info or {}
    holding = Holding(
        key,
        "coin",
        int(balance),
        _int_or_none(facts.get("decimals")),
        facts.get("symbol"),
        facts.get("name"),
        key,
        coin,
    )
    return holding, paired_long


def _fungible_holding(owner: Address, metadata: str, version: int) -> Flow[Holding | None]:
    """A fungible asset held, with its balance and its ``Metadata`` (a coin if it is paired
    with one); ``None`` when its balance is zero or cannot be read."""
    try:
        balance = (
            yield from send(calls.account_balance(owner, metadata, ledger_version=version))
        ).value
    except LedgerError:
        return None
    if not balance:
        return None
    meta = (yield from _read_resource(metadata, _METADATA, version)) or {}
    coin = _coin_of((yield from _view("0x1::coin::paired_coin", [], [metadata], version)))
    return Holding(
        metadata,
        "fungible_asset" if coin is None else "coin",  # a coin: known by its coin type
        int(balance),
        _int_or_none(meta.get("decimals")),
        meta.get("symbol"),
        meta.get("name"),
        metadata,
        coin,
    )


def holdings(
    address: str | Address,
    ledger_version: int | None,
    assets: Iterable[str | Address] = (),
    resources: Iterable[Any] | None = None,
    tokens: Iterable[str | Address] = (),
    indexer: bool = False,
) -> Flow[list[Holding]]:
    """Every asset ``address`` holds (see the module docstring), coins first, then
    fungible assets, then tokens (the indexer's when ``indexer``, then those of the
    addresses named in ``tokens`` it did not list), each in the order found.
    ``resources``: the account's whole list of resources at ``ledger_version``, already
    read (none is read again)."""
    owner = address if isinstance(address, Address) else Address.parse(address)
    if resources is not None and ledger_version is None:
        raise InputError("resources= are read at a version: give that ledger_version too")
    named = checked_tokens(tokens)
    read: list[Any]
    if resources is None:
        read, version = yield from _account_resources(owner, ledger_version)
    else:
        read, version = _given_resources(resources), ledger_version
    if version is None:
        latest = yield from send(calls.ledger_info())
        version = latest.value.ledger_version

    out: list[Holding] = []
    counted: set[str] = set()  # metadata addresses already counted through a coin
    for resource in read:
        match = _COIN_STORE.match(resource.type)
        if match is None:
            continue
        coin, paired = yield from _coin_holding(owner, match.group(1), version)
        if paired:
            counted.add(paired)
        out.append(coin)

    candidates: list[str] = [APT_METADATA.long]
    for extra in assets:
        candidates.append(
            Address.parse(str(extra)).long if not isinstance(extra, Address) else extra.long
        )
    candidates += yield from _genesis_metadata()
    if indexer:
        candidates += yield from indexed_assets(owner)
    seen: set[str] = set()
    for metadata in candidates:
        if metadata in seen or metadata in counted:
            continue
        seen.add(metadata)
        held = yield from _fungible_holding(owner, metadata, version)
        if held is not None:
            out.append(held)

    if indexer:
        out += yield from indexed_tokens(owner)
    listed = {held.asset for held in out if held.kind == "token"}
    unlisted = [token for token in named if token.long not in listed]
    if unlisted:
        out += yield from named_tokens(owner, unlisted, version)
    return out
