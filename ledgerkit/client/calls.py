"""The requests of the node API: what to send for each operation, and how its answer is
read and kept. No I/O.

One function per operation returns a :class:`Call`: the method and path (from the
operation's row in ``ledgerkit._endpoints``, by operation id), the query parameters and
body, checked and made canonical first (long addresses, canonical type tags
percent-encoded in paths, sorted parameters), the decoder of its answer (a ``decode_*``
of :mod:`ledgerkit.models`), whether it may be retried, and when its answer may be cached
(a policy of ``_answers``). So everything an operation sends is read in its function
here; a bad input fails before anything is sent, and two spellings of one question share
a cache entry.

Each function takes the arguments of the client method of its name, keyword-only options
included, and its docstring is that method's: the method of :class:`~ledgerkit.Client`
and :class:`~ledgerkit.AsyncClient` *is* the function (``@endpoint``), sent. A call is
named after the function that made it (``Call.name``).

They are what :meth:`Client.send <ledgerkit.Client.send>` and
:meth:`AsyncClient.send <ledgerkit.AsyncClient.send>` take, to ask what an endpoint
method asks but read the answer some other way::

    from ledgerkit.client import calls

    page = client.send(calls.transactions(start=0, limit=100), decoder=decode_transaction_rows)
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from ledgerkit import models
from ledgerkit._endpoints import BCS, JSON, SIGNED_TXN_BCS, VIEW_BCS
from ledgerkit._errors import InputError
from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    RawTransaction,
    Serializer,
    SignedTransaction,
    TransactionData,
    TransactionOnChainData,
)
from ledgerkit.client._answers import (
    bcs_bytes,
    committed,
    complete_block,
    full_page,
    last_transaction_version,
    onchain_transactions,
    transaction_data,
    version_page,
)
from ledgerkit.client._call import (
    Call,
    Route,
    _address,
    _call,
    _cursor,
    _identifier,
    _limit,
    _params,
    _public_key_bytes,
    _route,
    _start,
    _state_read,
    _txn_hash,
    _u64,
    json_body,
)
from ledgerkit.client._declare import builder, endpoint
from ledgerkit.models import (
    AccountData,
    AuxiliaryInfo,
    BatchSubmitResult,
    Block,
    Event,
    GasEstimate,
    HealthStatus,
    LedgerInfo,
    MoveModuleBytecode,
    MoveResource,
    PendingTransaction,
    Transaction,
    TransactionSummary,
    UserTransaction,
)
from ledgerkit.tx import EncodedSubmission
from ledgerkit.types import (
    Address,
    EntryFunctionId,
    HexBytes,
    LedgerMeta,
    MoveType,
    StructTag,
    parse_uint,
)

# The client methods' return annotations read ``Result[...]`` (see _declare): imported
# here, where typing.get_type_hints looks them up.
from ledgerkit.types import Result as Result

__all__ = [
    "BCS",
    "JSON",
    "SIGNED_TXN_BCS",
    "VIEW_BCS",
    "Call",
    "account",
    "account_balance",
    "account_module",
    "account_module_bytecode",
    "account_modules",
    "account_resource",
    "account_resource_bcs",
    "account_resources",
    "account_transaction_summaries",
    "account_transactions",
    "account_transactions_bcs",
    "block_by_height",
    "block_by_version",
    "encode_submission",
    "estimate_gas_price",
    "events_by_creation_number",
    "events_by_handle",
    "health",
    "json_body",
    "ledger_info",
    "raw_table_item",
    "simulate_transaction",
    "submit_batch_transactions",
    "submit_transaction",
    "table_item",
    "transaction_by_hash",
    "transaction_by_hash_bcs",
    "transaction_by_version",
    "transaction_by_version_bcs",
    "transactions",
    "transactions_auxiliary_info",
    "transactions_bcs",
    "view_bcs",
    "view_json",
    "wait_transaction_by_hash",
]

_ZERO_SIGNATURE: Final = bytes(64)


# -- general ---------------------------------------------------------------------------------


@endpoint
def ledger_info() -> Call[LedgerInfo]:
    """The ledger's current position: chain id, epoch, versions, block heights, role.

    Returns
    -------
    Result[LedgerInfo]
        Never served from the cache.
    """
    return _call(_route("get_ledger_info"), models.decode_ledger_info)


@endpoint
def health(duration_secs: int | None = None) -> Call[HealthStatus]:
    """Check the node is alive; with ``duration_secs``, that its ledger is fresh.

    Parameters
    ----------
    duration_secs : int, optional
        Fail unless the latest ledger timestamp is at most this many seconds old.

    Raises
    ------
    HealthCheckFailedError
        503: the ledger is older than that (never retried).
    """
    duration = None if duration_secs is None else parse_uint(duration_secs, 32, what="duration")
    return _call(_route("healthy"), models.decode_health, _params(duration_secs=duration))


# -- accounts --------------------------------------------------------------------------------


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


# -- events ----------------------------------------------------------------------------------


@endpoint
def events_by_creation_number(
    address: str | Address,
    creation_number: int,
    *,
    start: int | None = None,
    limit: int | None = None,
) -> Call[list[Event]]:
    """One page of an event stream named by the account and its creation number.

    Parameters
    ----------
    start : int, optional
        First sequence number (default: the newest page).
    limit : int, optional
        Events asked for; the node may serve fewer.
    """
    first, size = _start(start), _limit(limit)
    number = _u64(creation_number, "creation_number")
    route = _route(
        "get_events_by_creation_number", address=_address(address), creation_number=number
    )
    query = _params(start=first, limit=size)
    return _call(route, models.decode_events, query, storable=full_page(first, size))


@endpoint
def events_by_handle(
    address: str | Address,
    event_handle: str | StructTag,
    field_name: str,
    *,
    start: int | None = None,
    limit: int | None = None,
) -> Call[list[Event]]:
    """One page of the event stream held in field ``field_name`` of the resource
    ``event_handle`` of ``address`` (the account the events were emitted to)."""
    first, size = _start(start), _limit(limit)
    handle = StructTag.parse(event_handle).url_segment
    field = _identifier(field_name, "field_name")
    route = _route(
        "get_events_by_event_handle",
        address=_address(address),
        event_handle=handle,
        field_name=field,
    )
    query = _params(start=first, limit=size)
    return _call(route, models.decode_events, query, storable=full_page(first, size))


# -- transactions ----------------------------------------------------------------------------


@endpoint
def transactions(*, start: int | None = None, limit: int | None = None) -> Call[list[Transaction]]:
    """One page of committed transactions from version ``start`` (default: the newest)."""
    first, size = _start(start), _limit(limit)
    storable = version_page(first, size, last_transaction_version)
    query = _params(start=first, limit=size)
    return _call(_route("get_transactions"), models.decode_transactions, query, storable=storable)


@endpoint
def transaction_by_version(version: int) -> Call[Transaction]:
    """The transaction at ``version`` (cached once committed).

    Raises
    ------
    TransactionNotFoundError
        Past the ledger's head.
    VersionPrunedError
        Older than the node keeps.
    """
    route = _route("get_transaction_by_version", txn_version=_u64(version, "version"))
    return _call(route, models.decode_transaction, storable=committed)


@endpoint
def transaction_by_hash(txn_hash: str | bytes) -> Call[Transaction]:
    """The transaction with this hash: committed, or still pending in the mempool."""
    route = _route("get_transaction_by_hash", txn_hash=_txn_hash(txn_hash))
    return _call(route, models.decode_transaction, storable=committed)


@endpoint
def wait_transaction_by_hash(txn_hash: str | bytes) -> Call[Transaction]:
    """The transaction with this hash, once the node has waited a moment for it to leave
    the mempool (a long poll: the answer may still be pending).

    :meth:`wait_for_transaction` asks it until the transaction is committed. A committed
    answer is cached as :meth:`transaction_by_hash`'s.

    Raises
    ------
    TransactionNotFoundError
        The node has never heard of it.
    """
    digest = _txn_hash(txn_hash)
    return _call(
        _route("wait_transaction_by_hash", txn_hash=digest),
        models.decode_transaction,
        storable=committed,
        cache_path=_route("get_transaction_by_hash", txn_hash=digest).path,
    )


def _settled(data: TransactionData, _ledger: LedgerMeta) -> bool:
    return not data.is_pending


@endpoint
def transaction_by_version_bcs(version: int) -> Call[TransactionData]:
    """The transaction at ``version`` as the node's BCS ``TransactionData`` (its
    ``.onchain`` holds the ledger transaction, info, events and write set; ``.bytes``
    the answer as received)."""
    route = _route("get_transaction_by_version", txn_version=_u64(version, "version"))
    return _call(route, transaction_data, accept=BCS, storable=_settled)


@endpoint
def transaction_by_hash_bcs(txn_hash: str | bytes) -> Call[TransactionData]:
    """The transaction with this hash as BCS ``TransactionData``: ``.onchain`` once
    committed, ``.pending`` (the signed transaction) while it waits."""
    route = _route("get_transaction_by_hash", txn_hash=_txn_hash(txn_hash))
    return _call(route, transaction_data, accept=BCS, storable=_settled)


@endpoint
def transactions_bcs(
    *, start: int | None = None, limit: int | None = None
) -> Call[list[TransactionOnChainData]]:
    """One page of committed transactions from version ``start``, decoded from BCS."""
    query = _params(start=_start(start), limit=_limit(limit))
    return _call(_route("get_transactions"), onchain_transactions, query, accept=BCS)


@endpoint
def transactions_auxiliary_info(
    start_version: int, *, limit: int | None = None
) -> Call[list[AuxiliaryInfo]]:
    """Auxiliary info (the index within its block) of transactions from ``start_version``."""
    first, size = int(_u64(start_version, "start_version")), _limit(limit)

    def last_version(items: list[Any]) -> int:
        return first + len(items) - 1

    return _call(
        _route("get_transactions_auxiliary_info"),
        models.decode_auxiliary_info,
        _params(start_version=first, limit=size),
        storable=version_page(first, size, last_version),
    )


@endpoint
def submit_transaction(
    signed: SignedTransaction | Mapping[str, Any],
) -> Call[PendingTransaction]:
    """Submit a signed transaction: as BCS, or, given its JSON request (with its
    ``signature``, e.g. from ``EncodedSubmission.json_submission``), as JSON. Sent
    exactly once, never retried.

    Returns
    -------
    Result[PendingTransaction]
        Its ``hash`` is what :meth:`wait_for_transaction` takes.

    Raises
    ------
    TransactionRejectedError
        ``VMError``, ``SequenceNumberTooOldError``, ``MempoolFullError``...
    """
    # The one call that is never retried: a second copy could be a second transfer.
    if isinstance(signed, SignedTransaction):
        body, content_type = signed.to_bcs(), SIGNED_TXN_BCS
    elif isinstance(signed, Mapping):
        if "signature" not in signed:
            raise InputError("a JSON submission carries its signature (a 'signature' field)")
        body, content_type = json_body(dict(signed)), JSON
    else:
        raise InputError(
            f"submit a SignedTransaction or its JSON request, got {type(signed).__name__}"
        )
    return _call(
        _route("submit_transaction"),
        models.decode_pending_transaction,
        body=body,
        content_type=content_type,
        idempotent=False,
    )


@endpoint
def submit_batch_transactions(signed: Sequence[SignedTransaction]) -> Call[BatchSubmitResult]:
    """Submit several signed transactions in one request. Sent exactly once.

    Each is admitted as :meth:`submit_transaction` would admit it; one refused does
    not stop the others. Nodes take a limited number per batch (10 by default).

    Returns
    -------
    Result[BatchSubmitResult]
        ``transaction_failures`` lists the refused ones by position, each with its
        error record and, as ``.exception``, the error a single submission would
        have raised; empty when all were accepted.

    Raises
    ------
    InvalidInputError
        A transaction does not parse, or the batch is larger than the node takes.
    MempoolFullError
        507: the mempool took none of them.
    """
    if isinstance(signed, SignedTransaction) or not isinstance(signed, Sequence):
        raise InputError(f"submit a list of SignedTransaction, got {type(signed).__name__}")
    if not signed:
        raise InputError("a batch holds at least one transaction")
    for index, item in enumerate(signed):
        if not isinstance(item, SignedTransaction):
            raise InputError(f"transaction {index} is a {type(item).__name__}, not signed")
    count = Serializer()
    count.uleb128(len(signed))
    return _call(
        _route("submit_batch_transactions"),
        models.decode_batch_submit_result,
        body=count.output() + b"".join(item.to_bcs() for item in signed),
        content_type=SIGNED_TXN_BCS,
        idempotent=False,
    )


@endpoint
def simulate_transaction(
    transaction: SignedTransaction | RawTransaction,
    *,
    public_key: object = None,
    estimate_max_gas_amount: bool = False,
    estimate_gas_unit_price: bool = False,
    estimate_prioritized_gas_unit_price: bool = False,
) -> Call[list[UserTransaction]]:
    """Execute a transaction without committing it; gas used is in ``ledger.gas_used``.

    Parameters
    ----------
    transaction : SignedTransaction or RawTransaction
        A signed transaction whose signature does not verify (nodes refuse valid
        ones), or a raw one with ``public_key``: it is then signed with zeros.
    public_key : bytes, str or key, optional
        The sender's Ed25519 public key (or its private key), for a raw transaction.
    estimate_max_gas_amount, estimate_gas_unit_price, estimate_prioritized_gas_unit_price
        Let the node replace the max gas amount or the gas unit price by its estimate.
    """
    if isinstance(transaction, RawTransaction):
        if public_key is None:
            raise InputError("simulating a raw transaction needs the sender's public_key")
        auth = Ed25519Authenticator(_public_key_bytes(public_key), _ZERO_SIGNATURE)
        transaction = SignedTransaction(transaction, auth)
    elif not isinstance(transaction, SignedTransaction):
        raise InputError(
            f"simulate a SignedTransaction or a RawTransaction, got {type(transaction).__name__}"
        )
    elif public_key is not None:
        raise InputError("public_key goes with a RawTransaction; this one is signed already")
    flags = {
        "estimate_max_gas_amount": estimate_max_gas_amount,
        "estimate_gas_unit_price": estimate_gas_unit_price,
        "estimate_prioritized_gas_unit_price": estimate_prioritized_gas_unit_price,
    }
    return _call(
        _route("simulate_transaction"),
        models.decode_simulation,
        _params(**{name: "true" for name, on in flags.items() if on}),
        body=transaction.to_bcs(),
        content_type=SIGNED_TXN_BCS,
    )


@builder
def encode_submission(request: Mapping[str, Any]) -> Call[EncodedSubmission]:
    """The node's signing message of a JSON request, read back into its transaction.

    The clients' :meth:`~ledgerkit.Client.encode_submission` sends it, and takes a
    ``RawTransaction`` or a ``MultiAgentRawTransaction`` too (it writes their request).
    """
    if not isinstance(request, Mapping):
        raise InputError(
            "encode_submission takes a JSON request (a mapping), a RawTransaction or a "
            f"MultiAgentRawTransaction, got {type(request).__name__}"
        )
    sent = dict(request)

    def decode(data: bytes) -> EncodedSubmission:
        return EncodedSubmission.from_signing_message(models.decode_signing_message(data), sent)

    return _call(_route("encode_submission"), decode, body=json_body(sent), content_type=JSON)


# -- tables ----------------------------------------------------------------------------------


@endpoint
def table_item(
    handle: str | Address,
    key_type: str | MoveType,
    value_type: str | MoveType,
    key: Any,
    *,
    ledger_version: int | None = None,
) -> Call[Any]:
    """A table item by its key in JSON form; the value in JSON form.

    Raises
    ------
    TableItemNotFoundError
        No item under that key.
    """
    body = {
        "key_type": str(MoveType.parse(key_type)),
        "value_type": str(MoveType.parse(value_type)),
        "key": key,
    }
    return _state_read(
        _route("get_table_item", table_handle=_address(handle)),
        models.decode_table_item,
        ledger_version,
        body=json_body(body),
        content_type=JSON,
    )


@endpoint
def raw_table_item(
    handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
) -> Call[bytes]:
    """A table item by the BCS bytes of its key; the BCS bytes of its value."""
    return _state_read(
        _route("get_raw_table_item", table_handle=_address(handle)),
        bcs_bytes,
        ledger_version,
        body=json_body({"key": str(HexBytes.parse(key))}),
        content_type=JSON,
        accept=BCS,
    )


# -- gas, view, blocks -----------------------------------------------------------------------


@endpoint
def estimate_gas_price() -> Call[GasEstimate]:
    """The node's gas unit price estimates (deprioritized, regular, prioritized)."""
    return _call(_route("estimate_gas_price"), models.decode_gas_estimate)


def _view_body(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType],
    arguments: Sequence[Any],
) -> tuple[bytes, str]:
    if isinstance(function, EntryFunction):
        if list(type_arguments) or list(arguments):
            raise InputError("an EntryFunction carries its own type arguments and arguments")
        return function.to_bcs(), VIEW_BCS
    if isinstance(arguments, str | bytes) or not isinstance(arguments, Sequence):
        raise InputError(f"arguments must be a list, got {type(arguments).__name__}")
    body = {
        "function": str(EntryFunctionId.parse(function)),
        "type_arguments": [str(MoveType.parse(t)) for t in type_arguments],
        "arguments": list(arguments),
    }
    return json_body(body), JSON


@endpoint
def view_json(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType] = (),
    arguments: Sequence[Any] = (),
    *,
    ledger_version: int | None = None,
) -> Call[list[Any]]:
    """Call a view function with arguments in JSON form; its return values in JSON form.

    :meth:`view` takes and gives Python values, checked against the function's ABI.

    Parameters
    ----------
    function : str, EntryFunctionId or EntryFunction
        ``"0x1::coin::balance"``; an ``EntryFunction`` (BCS arguments) is sent as BCS.
    type_arguments : iterable of str or MoveType
        Type arguments.
    arguments : sequence
        Arguments in JSON form (u64 and wider as strings).
    ledger_version : int, optional
        Run at this version (answers are then cached).
    """
    body, content_type = _view_body(function, type_arguments, arguments)
    return _state_read(
        _route("view"), models.decode_view, ledger_version, body=body, content_type=content_type
    )


@endpoint
def view_bcs(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType] = (),
    arguments: Sequence[Any] = (),
    *,
    ledger_version: int | None = None,
) -> Call[bytes]:
    """Call a view function; the BCS of its return values (a ULEB128 count, then each)."""
    body, content_type = _view_body(function, type_arguments, arguments)
    return _state_read(
        _route("view"),
        bcs_bytes,
        ledger_version,
        body=body,
        content_type=content_type,
        accept=BCS,
    )


def _block(route: Route, with_transactions: bool) -> Call[Block]:
    if not isinstance(with_transactions, bool):
        raise InputError(f"with_transactions must be a bool, got {with_transactions!r}")
    query = _params(with_transactions="true" if with_transactions else None)
    return _call(route, models.decode_block, query, storable=complete_block)


@endpoint
def block_by_height(height: int, *, with_transactions: bool = False) -> Call[Block]:
    """The block at ``height``, with its transactions when asked (the node may cap
    them; a capped block is not cached).

    Raises
    ------
    BlockNotFoundError, BlockPrunedError
        Past the head, or older than the node keeps.
    """
    route = _route("get_block_by_height", block_height=_u64(height, "height"))
    return _block(route, with_transactions)


@endpoint
def block_by_version(version: int, *, with_transactions: bool = False) -> Call[Block]:
    """The block holding the transaction at ``version``."""
    route = _route("get_block_by_version", version=_u64(version, "version"))
    return _block(route, with_transactions)


# -- old names -------------------------------------------------------------------------------

#: Old names of builders, and the ones they stand for now (to be removed in 0.3).
_DEPRECATED: Final = {
    "view": "view_json",
    "wait_by_hash": "wait_transaction_by_hash",
}


# Hidden from type checkers: to them an old name, or a misspelt one, stays an error.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        if name == "event_stream":
            # The page maker of ``iter_events``, no request of its own.
            from ledgerkit.client._methods import _event_stream

            warnings.warn(
                "ledgerkit.client.calls.event_stream is deprecated; use client.iter_events(...)",
                DeprecationWarning,
                stacklevel=2,
            )
            return _event_stream
        new = _DEPRECATED.get(name)
        if new is None:
            raise AttributeError(f"module 'ledgerkit.client.calls' has no attribute {name!r}")
        warnings.warn(
            f"ledgerkit.client.calls.{name} is deprecated; use calls.{new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return globals()[new]
