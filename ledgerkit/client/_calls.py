"""What to send for each endpoint of the node API, and which cache policy its answer has
(``_policies``).

One function per endpoint returns a :class:`Call`, its inputs checked and made canonical
first (``_inputs``; struct tags percent-encoded in paths), so a bad input fails before
anything is sent and two spellings of one question share a cache entry. Methods and
paths come from the endpoint table (``ledgerkit._endpoints``), by operation id
(``_requests``). No I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from ledgerkit._errors import InputError
from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    RawTransaction,
    Serializer,
    SignedTransaction,
)
from ledgerkit.client import _decoders as dec
from ledgerkit.client import _inputs as inputs
from ledgerkit.client import _policies as policy
from ledgerkit.client._base import BCS, JSON, SIGNED_TXN_BCS, VIEW_BCS, Call
from ledgerkit.client._requests import route as _route
from ledgerkit.client._requests import state_read as _state_read
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

__all__ = [
    "account",
    "account_balance",
    "account_module",
    "account_module_bytecode",
    "account_modules",
    "account_resource",
    "account_resource_bcs",
    "account_resources",
    "account_transactions",
    "account_transactions_bcs",
    "block_by_height",
    "block_by_version",
    "encode_submission",
    "estimate_gas_price",
    "event_stream",
    "events_by_creation_number",
    "events_by_handle",
    "health",
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
    "view",
    "view_bcs",
    "wait_by_hash",
]

_ZERO_SIGNATURE: Final = bytes(64)


def _cursor(start: str | None) -> str | None:
    if start is not None and (not isinstance(start, str) or not start):
        raise InputError(f"start must be a cursor from a previous page, got {start!r}")
    return start


def _start(start: int | None) -> int | None:
    return None if start is None else int(inputs.u64(start, "start"))


# -- general ---------------------------------------------------------------------------------


def ledger_info() -> Call[dec.LedgerInfo]:
    return Call("ledger_info", *_route("get_ledger_info"), dec.ledger_info)


def health(duration_secs: int | None) -> Call[dec.HealthStatus]:
    duration = None if duration_secs is None else parse_uint(duration_secs, 32, what="duration")
    query = inputs.params(duration_secs=duration)
    return Call("health", *_route("healthy"), dec.health, query)


def estimate_gas_price() -> Call[dec.GasEstimate]:
    return Call("estimate_gas_price", *_route("estimate_gas_price"), dec.gas_estimate)


# -- accounts --------------------------------------------------------------------------------


def account(address: str | Address, ledger_version: int | None) -> Call[dec.AccountData]:
    route = _route("get_account", address=inputs.address(address))
    return _state_read("account", route, dec.account, ledger_version)


def account_resources(
    address: str | Address, ledger_version: int | None, start: str | None, limit: int | None
) -> Call[list[dec.MoveResource]]:
    route = _route("get_account_resources", address=inputs.address(address))
    return _state_read(
        "account_resources",
        route,
        dec.resources,
        ledger_version,
        start=_cursor(start),
        limit=inputs.limit(limit),
    )


def _resource_route(address: str | Address, resource_type: str | StructTag) -> tuple[str, str]:
    tag = StructTag.parse(resource_type).url_segment
    return _route("get_account_resource", address=inputs.address(address), resource_type=tag)


def account_resource(
    address: str | Address, resource_type: str | StructTag, ledger_version: int | None
) -> Call[dec.MoveResource]:
    route = _resource_route(address, resource_type)
    return _state_read("account_resource", route, dec.resource, ledger_version)


def account_resource_bcs(
    address: str | Address, resource_type: str | StructTag, ledger_version: int | None
) -> Call[bytes]:
    route = _resource_route(address, resource_type)
    return _state_read("account_resource_bcs", route, dec.bcs, ledger_version, accept=BCS)


def account_modules(
    address: str | Address, ledger_version: int | None, start: str | None, limit: int | None
) -> Call[list[dec.MoveModuleBytecode]]:
    route = _route("get_account_modules", address=inputs.address(address))
    return _state_read(
        "account_modules",
        route,
        dec.modules,
        ledger_version,
        start=_cursor(start),
        limit=inputs.limit(limit),
    )


def _module_route(address: str | Address, module_name: str) -> tuple[str, str]:
    name = inputs.identifier(module_name, "module_name")
    return _route("get_account_module", address=inputs.address(address), module_name=name)


def account_module(
    address: str | Address, module_name: str, ledger_version: int | None
) -> Call[dec.MoveModuleBytecode]:
    route = _module_route(address, module_name)
    return _state_read("account_module", route, dec.module, ledger_version)


def account_module_bytecode(
    address: str | Address, module_name: str, ledger_version: int | None
) -> Call[bytes]:
    route = _module_route(address, module_name)
    return _state_read("account_module_bytecode", route, dec.bcs, ledger_version, accept=BCS)


def account_balance(
    address: str | Address, asset: str | Address | StructTag, ledger_version: int | None
) -> Call[int]:
    if isinstance(asset, StructTag) or (isinstance(asset, str) and "::" in asset):
        segment = StructTag.parse(asset).url_segment  # a coin type
    else:
        segment = inputs.address(asset)  # a fungible asset's metadata address
    route = _route("get_account_balance", address=inputs.address(address), asset_type=segment)
    return _state_read("account_balance", route, dec.balance, ledger_version)


def account_transactions(
    address: str | Address, start: int | None, limit: int | None
) -> Call[list[dec.Transaction]]:
    first, size = _start(start), inputs.limit(limit)
    route = _route("get_account_transactions", address=inputs.address(address))
    return Call(
        "account_transactions",
        *route,
        dec.transactions,
        inputs.params(start=first, limit=size),
        storable=policy.full_page(first, size),
    )


def account_transactions_bcs(
    address: str | Address, start: int | None, limit: int | None
) -> Call[list[dec.TransactionOnChainData]]:
    first, size = _start(start), inputs.limit(limit)
    route = _route("get_account_transactions", address=inputs.address(address))
    return Call(
        "account_transactions_bcs",
        *route,
        dec.onchain_transactions,
        inputs.params(start=first, limit=size),
        accept=BCS,
    )


# -- events ----------------------------------------------------------------------------------


def events_by_creation_number(
    address: str | Address, creation_number: int, start: int | None, limit: int | None
) -> Call[list[dec.Event]]:
    first, size = _start(start), inputs.limit(limit)
    number = inputs.u64(creation_number, "creation_number")
    route = _route(
        "get_events_by_creation_number", address=inputs.address(address), creation_number=number
    )
    return Call(
        "events_by_creation_number",
        *route,
        dec.events,
        inputs.params(start=first, limit=size),
        storable=policy.full_page(first, size),
    )


def events_by_handle(
    address: str | Address,
    event_handle: str | StructTag,
    field_name: str,
    start: int | None,
    limit: int | None,
) -> Call[list[dec.Event]]:
    first, size = _start(start), inputs.limit(limit)
    handle = StructTag.parse(event_handle).url_segment
    field = inputs.identifier(field_name, "field_name")
    route = _route(
        "get_events_by_event_handle",
        address=inputs.address(address),
        event_handle=handle,
        field_name=field,
    )
    return Call(
        "events_by_handle",
        *route,
        dec.events,
        inputs.params(start=first, limit=size),
        storable=policy.full_page(first, size),
    )


def event_stream(
    address: str | Address,
    creation_number: int | None,
    event_handle: str | StructTag | None,
    field_name: str | None,
) -> Callable[[int | None, int | None], Call[list[dec.Event]]]:
    """The page maker of one event stream, named by creation number or by handle and field.

    The inputs are checked now, so a bad one fails at the call that starts the walk.
    """
    if creation_number is not None and event_handle is None and field_name is None:
        number = creation_number
        events_by_creation_number(address, number, None, None)
        return lambda start, limit: events_by_creation_number(address, number, start, limit)
    if creation_number is None and event_handle is not None and field_name is not None:
        handle, field = event_handle, field_name
        events_by_handle(address, handle, field, None, None)
        return lambda start, limit: events_by_handle(address, handle, field, start, limit)
    raise InputError("name the stream by creation_number, or by event_handle and field_name")


# -- transactions ----------------------------------------------------------------------------


def transactions(start: int | None, limit: int | None) -> Call[list[dec.Transaction]]:
    first, size = _start(start), inputs.limit(limit)
    storable = policy.version_page(first, size, policy.last_transaction_version)
    return Call(
        "transactions",
        *_route("get_transactions"),
        dec.transactions,
        inputs.params(start=first, limit=size),
        storable=storable,
    )


def transaction_by_version(version: int) -> Call[dec.Transaction]:
    route = _route("get_transaction_by_version", txn_version=inputs.u64(version, "version"))
    return Call("transaction_by_version", *route, dec.transaction, storable=policy.committed)


def transaction_by_hash(txn_hash: str | bytes) -> Call[dec.Transaction]:
    route = _route("get_transaction_by_hash", txn_hash=inputs.txn_hash(txn_hash))
    return Call("transaction_by_hash", *route, dec.transaction, storable=policy.committed)


def wait_by_hash(txn_hash: str | bytes) -> Call[dec.Transaction]:
    """The long poll; once committed, its answer is cached as ``by_hash``'s."""
    digest = inputs.txn_hash(txn_hash)
    return Call(
        "wait_for_transaction",
        *_route("wait_transaction_by_hash", txn_hash=digest),
        dec.transaction,
        storable=policy.committed,
        cache_path=_route("get_transaction_by_hash", txn_hash=digest)[1],
    )


def _settled(data: dec.TransactionData, _ledger: LedgerMeta) -> bool:
    return not data.is_pending


def transactions_bcs(
    start: int | None, limit: int | None
) -> Call[list[dec.TransactionOnChainData]]:
    first, size = _start(start), inputs.limit(limit)
    return Call(
        "transactions_bcs",
        *_route("get_transactions"),
        dec.onchain_transactions,
        inputs.params(start=first, limit=size),
        accept=BCS,
    )


def transaction_by_version_bcs(version: int) -> Call[dec.TransactionData]:
    route = _route("get_transaction_by_version", txn_version=inputs.u64(version, "version"))
    return Call(
        "transaction_by_version_bcs", *route, dec.transaction_data, accept=BCS, storable=_settled
    )


def transaction_by_hash_bcs(txn_hash: str | bytes) -> Call[dec.TransactionData]:
    route = _route("get_transaction_by_hash", txn_hash=inputs.txn_hash(txn_hash))
    return Call(
        "transaction_by_hash_bcs", *route, dec.transaction_data, accept=BCS, storable=_settled
    )


def transactions_auxiliary_info(
    start_version: int, limit: int | None
) -> Call[list[dec.AuxiliaryInfo]]:
    first, size = int(inputs.u64(start_version, "start_version")), inputs.limit(limit)

    def last_version(items: list[Any]) -> int:
        return first + len(items) - 1

    return Call(
        "transactions_auxiliary_info",
        *_route("get_transactions_auxiliary_info"),
        dec.auxiliary_info,
        inputs.params(start_version=first, limit=size),
        storable=policy.version_page(first, size, last_version),
    )


def submit_transaction(
    signed: SignedTransaction | Mapping[str, Any],
) -> Call[dec.PendingTransaction]:
    """The one call that is never retried: a second copy could be a second transfer.

    A signed transaction goes as BCS; a mapping as the JSON ``SubmitTransactionRequest``.
    """
    if isinstance(signed, SignedTransaction):
        body, content_type = signed.to_bcs(), SIGNED_TXN_BCS
    elif isinstance(signed, Mapping):
        if "signature" not in signed:
            raise InputError("a JSON submission carries its signature (a 'signature' field)")
        body, content_type = inputs.json_body(dict(signed)), JSON
    else:
        raise InputError(
            f"submit a SignedTransaction or its JSON request, got {type(signed).__name__}"
        )
    return Call(
        "submit_transaction",
        *_route("submit_transaction"),
        dec.pending_transaction,
        body=body,
        content_type=content_type,
        idempotent=False,
    )


def submit_batch_transactions(
    signed: Sequence[SignedTransaction],
) -> Call[dec.BatchSubmitResult]:
    """Several signed transactions in one request (a BCS sequence); never retried either."""
    if isinstance(signed, SignedTransaction) or not isinstance(signed, Sequence):
        raise InputError(f"submit a list of SignedTransaction, got {type(signed).__name__}")
    if not signed:
        raise InputError("a batch holds at least one transaction")
    for index, item in enumerate(signed):
        if not isinstance(item, SignedTransaction):
            raise InputError(f"transaction {index} is a {type(item).__name__}, not signed")
    count = Serializer()
    count.uleb128(len(signed))
    return Call(
        "submit_batch_transactions",
        *_route("submit_batch_transactions"),
        dec.batch_result,
        body=count.output() + b"".join(item.to_bcs() for item in signed),
        content_type=SIGNED_TXN_BCS,
        idempotent=False,
    )


def simulate_transaction(
    transaction: SignedTransaction | RawTransaction,
    public_key: object | None,
    *,
    estimate_max_gas_amount: bool,
    estimate_gas_unit_price: bool,
    estimate_prioritized_gas_unit_price: bool,
) -> Call[list[dec.UserTransaction]]:
    if isinstance(transaction, RawTransaction):
        if public_key is None:
            raise InputError("simulating a raw transaction needs the sender's public_key")
        auth = Ed25519Authenticator(inputs.public_key_bytes(public_key), _ZERO_SIGNATURE)
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
    query = inputs.params(**{name: "true" for name, on in flags.items() if on})
    return Call(
        "simulate_transaction",
        *_route("simulate_transaction"),
        dec.simulated_transactions,
        query,
        body=transaction.to_bcs(),
        content_type=SIGNED_TXN_BCS,
    )


def encode_submission(request: Mapping[str, Any]) -> Call[EncodedSubmission]:
    """The node's signing message of a JSON request, read back into its transaction."""
    if not isinstance(request, Mapping):
        raise InputError(
            "encode_submission takes a JSON request (a mapping), a RawTransaction or a "
            f"MultiAgentRawTransaction, got {type(request).__name__}"
        )
    sent = dict(request)

    def decode(data: bytes) -> EncodedSubmission:
        return EncodedSubmission.from_signing_message(dec.hex_bytes(data), sent)

    return Call(
        "encode_submission",
        *_route("encode_submission"),
        decode,
        body=inputs.json_body(sent),
        content_type=JSON,
    )


# -- tables ----------------------------------------------------------------------------------


def table_item(
    handle: str | Address,
    key_type: str | MoveType,
    value_type: str | MoveType,
    key: Any,
    ledger_version: int | None,
) -> Call[Any]:
    body = {
        "key_type": str(MoveType.parse(key_type)),
        "value_type": str(MoveType.parse(value_type)),
        "key": key,
    }
    return _state_read(
        "table_item",
        _route("get_table_item", table_handle=inputs.address(handle)),
        dec.json_value,
        ledger_version,
        body=inputs.json_body(body),
        content_type=JSON,
    )


def raw_table_item(
    handle: str | Address, key: bytes | str, ledger_version: int | None
) -> Call[bytes]:
    body = inputs.json_body({"key": str(HexBytes.parse(key))})
    return _state_read(
        "raw_table_item",
        _route("get_raw_table_item", table_handle=inputs.address(handle)),
        dec.bcs,
        ledger_version,
        body=body,
        content_type=JSON,
        accept=BCS,
    )


# -- view ------------------------------------------------------------------------------------


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
    return inputs.json_body(body), JSON


def view(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType],
    arguments: Sequence[Any],
    ledger_version: int | None,
) -> Call[list[Any]]:
    body, content_type = _view_body(function, type_arguments, arguments)
    return _state_read(
        "view",
        _route("view"),
        dec.json_values,
        ledger_version,
        body=body,
        content_type=content_type,
    )


def view_bcs(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType],
    arguments: Sequence[Any],
    ledger_version: int | None,
) -> Call[bytes]:
    body, content_type = _view_body(function, type_arguments, arguments)
    return _state_read(
        "view_bcs",
        _route("view"),
        dec.bcs,
        ledger_version,
        body=body,
        content_type=content_type,
        accept=BCS,
    )


# -- blocks ----------------------------------------------------------------------------------


def _block(name: str, route: tuple[str, str], with_transactions: bool) -> Call[dec.Block]:
    if not isinstance(with_transactions, bool):
        raise InputError(f"with_transactions must be a bool, got {with_transactions!r}")
    query = inputs.params(with_transactions="true" if with_transactions else None)
    return Call(name, *route, dec.block, query, storable=policy.complete_block)


def block_by_height(height: int, with_transactions: bool) -> Call[dec.Block]:
    route = _route("get_block_by_height", block_height=inputs.u64(height, "height"))
    return _block("block_by_height", route, with_transactions)


def block_by_version(version: int, with_transactions: bool) -> Call[dec.Block]:
    route = _route("get_block_by_version", version=inputs.u64(version, "version"))
    return _block("block_by_version", route, with_transactions)
