"""The request builders of an account's state and history: the account itself, its
resources, modules and balances, and the transactions it sent (by sequence number, and
as summaries by version). Published by :mod:`ledgerkit.client.calls`.
"""

from __future__ import annotations

from ledgerkit import models
from ledgerkit._endpoints import BCS
from ledgerkit.bcs import TransactionOnChainData
from ledgerkit.client._answers import bcs_bytes, full_page, onchain_transactions
from ledgerkit.client._call import (
    Call,
    Route,
    _address,
    _call,
    _cursor,
    _identifier,
    _limit,
    _params,
    _route,
    _start,
    _state_read,
    _u64,
)
from ledgerkit.client._declare import endpoint
from ledgerkit.models import (
    AccountData,
    MoveModuleBytecode,
    MoveResource,
    Transaction,
    TransactionSummary,
)
from ledgerkit.types import Address, StructTag

# The client methods' return annotations read ``Result[...]`` (see _declare): imported
# here, where typing.get_type_hints looks them up.
from ledgerkit.types import Result as Result


@endpoint
def account(address: str | Address, *, ledger_version: int | None = None) -> Call[AccountData]:
    """The account's sequence number and authentication key.

    Parameters
    ----------
    address : str or Address
        Long or short form, with or without ``0x``.
    ledger_version : int, optional
        Read the state at this version (default: the latest). Answers at an explicit
        version are cached.

    Raises
    ------
    AccountNotFoundError
        No account there (at that version).
    VersionPrunedError
        The version is older than the node keeps.
    """
    route = _route("get_account", address=_address(address))
    return _state_read(route, models.decode_account, ledger_version)


@endpoint
def account_resources(
    address: str | Address,
    *,
    ledger_version: int | None = None,
    start: str | None = None,
    limit: int | None = None,
) -> Call[list[MoveResource]]:
    """One page of the account's resources.

    Parameters
    ----------
    address : str or Address
        The account.
    ledger_version : int, optional
        Read at this version (default: the latest).
    start : str, optional
        The cursor of the page, from ``result.ledger.cursor`` of the previous one.
    limit : int, optional
        Page size asked for (the node may serve fewer).

    Returns
    -------
    Result[list[MoveResource]]
        ``ledger.cursor`` is the next page's ``start``, ``None`` on the last page.
        :meth:`iter_account_resources` follows it for you.
    """
    route = _route("get_account_resources", address=_address(address))
    return _state_read(
        route, models.decode_resources, ledger_version, start=_cursor(start), limit=_limit(limit)
    )


def _resource_route(address: str | Address, resource_type: str | StructTag) -> Route:
    tag = StructTag.parse(resource_type).url_segment
    return _route("get_account_resource", address=_address(address), resource_type=tag)


@endpoint
def account_resource(
    address: str | Address,
    resource_type: str | StructTag,
    *,
    ledger_version: int | None = None,
) -> Call[MoveResource]:
    """One resource of the account, by struct tag (``0x1::coin::CoinStore<...>``).

    Raises
    ------
    ResourceNotFoundError
        The account holds no such resource.
    """
    route = _resource_route(address, resource_type)
    return _state_read(route, models.decode_resource, ledger_version)


@endpoint
def account_resource_bcs(
    address: str | Address,
    resource_type: str | StructTag,
    *,
    ledger_version: int | None = None,
) -> Call[bytes]:
    """The BCS bytes of one resource of the account (decode with ``MoveValueCodec``)."""
    route = _resource_route(address, resource_type)
    return _state_read(route, bcs_bytes, ledger_version, accept=BCS)


@endpoint
def account_modules(
    address: str | Address,
    *,
    ledger_version: int | None = None,
    start: str | None = None,
    limit: int | None = None,
) -> Call[list[MoveModuleBytecode]]:
    """One page of the modules the account publishes (bytecode and ABI).

    ``ledger.cursor`` of the result is the next page's ``start``; see
    :meth:`iter_account_modules`.
    """
    route = _route("get_account_modules", address=_address(address))
    return _state_read(
        route, models.decode_modules, ledger_version, start=_cursor(start), limit=_limit(limit)
    )


def _module_route(address: str | Address, module_name: str) -> Route:
    name = _identifier(module_name, "module_name")
    return _route("get_account_module", address=_address(address), module_name=name)


@endpoint
def account_module(
    address: str | Address, module_name: str, *, ledger_version: int | None = None
) -> Call[MoveModuleBytecode]:
    """One module of the account by name, with its ABI.

    Raises
    ------
    MoveModuleNotFoundError
        The account publishes no module of that name.
    """
    route = _module_route(address, module_name)
    return _state_read(route, models.decode_module, ledger_version)


@endpoint
def account_module_bytecode(
    address: str | Address, module_name: str, *, ledger_version: int | None = None
) -> Call[bytes]:
    """The module's bytecode, as the node's BCS answer."""
    route = _module_route(address, module_name)
    return _state_read(route, bcs_bytes, ledger_version, accept=BCS)


@endpoint
def account_balance(
    address: str | Address,
    asset: str | Address | StructTag,
    *,
    ledger_version: int | None = None,
) -> Call[int]:
    """The account's balance of a coin (struct tag) or fungible asset (metadata address),
    in its primary store, as an exact ``int``."""
    if isinstance(asset, StructTag) or (isinstance(asset, str) and "::" in asset):
        segment = StructTag.parse(asset).url_segment  # a coin type
    else:
        segment = _address(asset)  # a fungible asset's metadata address
    route = _route("get_account_balance", address=_address(address), asset_type=segment)
    return _state_read(route, models.decode_balance, ledger_version)


@endpoint
def account_transactions(
    address: str | Address, *, start: int | None = None, limit: int | None = None
) -> Call[list[Transaction]]:
    """The account's committed transactions by sequence number, from ``start`` (default 0)."""
    first, size = _start(start), _limit(limit)
    route = _route("get_account_transactions", address=_address(address))
    query = _params(start=first, limit=size)
    return _call(route, models.decode_transactions, query, storable=full_page(first, size))


@endpoint
def account_transactions_bcs(
    address: str | Address, *, start: int | None = None, limit: int | None = None
) -> Call[list[TransactionOnChainData]]:
    """The account's committed transactions from sequence number ``start``, from BCS."""
    route = _route("get_account_transactions", address=_address(address))
    query = _params(start=_start(start), limit=_limit(limit))
    return _call(route, onchain_transactions, query, accept=BCS)


@endpoint
def account_transaction_summaries(
    address: str | Address,
    *,
    start_version: int | None = None,
    end_version: int | None = None,
    limit: int | None = None,
) -> Call[list[TransactionSummary]]:
    """Summaries (version, hash, sequence number or nonce) of the transactions the account
    sent, orderless ones included, ascending by version.

    Parameters
    ----------
    address : str or Address
        The sender.
    start_version : int, optional
        Read forward from this version; ``end_version`` is then not used (the node reads
        the next ``limit`` summaries, wherever they end).
    end_version : int, optional
        Without ``start_version``: the ``limit`` summaries ending at this version.
        Without either: the account's newest ones.
    limit : int, optional
        Page size asked for (default and most: the node's maximum, 100 on aptos-core).

    Raises
    ------
    PrunedRangeError
        The node keeps too little history for the versions asked and no archive is known
        (give ``archive_url=``); with one, the page is read from it whole.
    """
    first = None if start_version is None else int(_u64(start_version, "start_version"))
    last = None if end_version is None else int(_u64(end_version, "end_version"))
    size = _limit(limit)
    route = _route("get_account_transaction_summaries", address=_address(address))
    query = _params(start_version=first, end_version=last, limit=size)
    decode = models.decode_transaction_summaries
    return _call(route, decode, query, storable=full_page(first, size))
