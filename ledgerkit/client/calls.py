"""The requests of the node API: what to send for each operation, and how its answer is
read and kept. No I/O.

One function per operation returns a :class:`Call`: the method and path (from the
operation's row in ``ledgerkit._endpoints``, by operation id), the query parameters and
body, checked and made canonical first (long addresses, canonical type tags
percent-encoded in paths, sorted parameters), the decoder of its answer, whether it may
be retried, and when its answer may be cached (a policy of ``_answers``). So everything
an operation sends is read in its function here; a bad input fails before anything is
sent, and two spellings of one question share a cache entry.

They are what :meth:`Client.send <ledgerkit.Client.send>` and
:meth:`AsyncClient.send <ledgerkit.AsyncClient.send>` take, to ask what an endpoint
method asks but read the answer some other way::

    from ledgerkit.client import calls

    page = client.send(calls.transactions(0, 100), decoder=decode_transaction_rows)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, SupportsBytes, TypeVar

from ledgerkit._endpoints import OPERATIONS
from ledgerkit._errors import InputError, InvalidHexError, InvalidIntegerError
from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    RawTransaction,
    Serializer,
    SignedTransaction,
)
from ledgerkit.client import _answers as dec
from ledgerkit.tx import EncodedSubmission
from ledgerkit.types import (
    Address,
    EntryFunctionId,
    HexBytes,
    LedgerMeta,
    ModuleId,
    MoveType,
    StructTag,
    is_identifier,
    parse_uint,
)

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
    "view",
    "view_bcs",
    "wait_by_hash",
]

T = TypeVar("T")

JSON: Final = "application/json"
BCS: Final = "application/x-bcs"
SIGNED_TXN_BCS: Final = "application/x.aptos.signed_transaction+bcs"
VIEW_BCS: Final = "application/x.aptos.view_function+bcs"


_ZERO_SIGNATURE: Final = bytes(64)


@dataclass(frozen=True, slots=True, eq=False)
class Call(Generic[T]):
    """One request to send and how to read its answer.

    Attributes
    ----------
    name : str
        The client method (for logs).
    method, path : str
        HTTP method and the path under ``base_url``, already percent-encoded.
    decode : callable
        Reads the body of a 2xx answer into the value.
    params : tuple of (str, str)
        Query parameters, sorted by name.
    body, content_type : bytes, str or None
        Request body and its media type.
    accept : str
        Media type asked for (JSON or BCS).
    idempotent : bool
        Whether sending it twice is harmless (then failures may be retried).
    storable : callable or None
        ``storable(value, ledger)`` says whether this answer can never change and may be
        cached; ``None`` for questions about the latest state (never looked up).
    cache_path : str or None
        Path to cache the answer under when it differs from ``path`` (a committed
        transaction from ``wait_by_hash`` is the same as from ``by_hash``).
    """

    name: str
    method: str
    path: str
    decode: Callable[[bytes], T]
    params: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    content_type: str | None = None
    accept: str = JSON
    idempotent: bool = True
    storable: Callable[[T, LedgerMeta], bool] | None = None
    cache_path: str | None = None


# -- inputs ----------------------------------------------------------------------------------
#
# What callers pass, checked and put in canonical form before anything is sent: addresses
# in the form the node writes them, decimal integers of the right width, page sizes the
# API accepts, transaction hashes of 32 bytes, sorted query parameters, and JSON bodies
# with ledgerkit's own values (``U64``, ``Address``, bytes, Move types) in the API's form.
# A bad input is an InputError that names it; two spellings of one question come out the
# same, so they share a cache entry.


#: Query parameters of a call: (name, value) pairs, sorted by name.
Params = tuple[tuple[str, str], ...]


def _address(value: str | bytes | Address) -> str:
    return Address.parse(value).standard


def _u64(value: int | str, what: str) -> str:
    return str(parse_uint(value, 64, what=what))


def _limit(value: int | None) -> int | None:
    if value is None:
        return None
    number = parse_uint(value, 16, what="limit")
    if number == 0:
        raise InvalidIntegerError("limit must be at least 1 (it is a u16 page size)")
    return number


def _identifier(value: str, what: str) -> str:
    if not isinstance(value, str) or not is_identifier(value):
        raise InputError(f"{what} must be a Move identifier, got {value!r}")
    return value


def _txn_hash(value: str | bytes) -> str:
    digest = HexBytes.parse(value)
    if len(digest) != 32:
        raise InvalidHexError(f"a transaction hash is 32 bytes, got {len(digest)}: {value!r}")
    return str(digest)


def _params(**values: str | int | None) -> Params:
    """Query parameters without the unset ones, sorted by name."""
    return tuple(sorted((k, str(v)) for k, v in values.items() if v is not None))


def api_json(value: Any) -> Any:
    """``value`` with ledgerkit's own values in the API's JSON form: ``U64`` and wider as
    decimal strings (``U8`` ... ``U32`` stay numbers), addresses, bytes and types as text."""
    to_json = getattr(value, "to_json", None)  # U8 ... U256 are ints: caught before them
    if callable(to_json):
        return to_json()
    if isinstance(value, dict):
        return {key: api_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [api_json(item) for item in value]
    if isinstance(value, Address):
        return value.standard
    if isinstance(value, bytes | bytearray | memoryview):
        return "0x" + bytes(value).hex()
    if isinstance(value, MoveType | ModuleId | EntryFunctionId):
        return str(value)
    return value


def json_body(value: Any) -> bytes:
    """``value`` as a compact JSON body (exact integers; addresses, bytes and types as text)."""
    try:
        return json.dumps(api_json(value), separators=(",", ":"), allow_nan=False).encode()
    except (TypeError, ValueError) as exc:
        raise InputError(f"cannot send as JSON: {exc}") from None


def _public_key_bytes(public_key: object) -> bytes:
    """The 32 bytes of an Ed25519 public key given as bytes, hex, a public or private key."""
    raw: object = getattr(public_key, "public_key_bytes", None)  # a private key
    if raw is None:
        if isinstance(public_key, str | bytes | bytearray):
            raw = bytes(HexBytes.parse(public_key))
        elif isinstance(public_key, SupportsBytes):  # Ed25519PublicKey
            raw = bytes(public_key)
    if not isinstance(raw, bytes) or len(raw) != 32:
        raise InputError("public_key must be a 32-byte Ed25519 public key")
    return raw


# -- routes ----------------------------------------------------------------------------------


def _route(op_id: str, **segments: object) -> tuple[str, str]:
    """The method and path of an operation of the table, its path segments filled in."""
    op = OPERATIONS[op_id]
    return op.method, op.url_path(**segments)


def _state_read(
    name: str,
    route: tuple[str, str],
    decode: Callable[[bytes], T],
    ledger_version: int | None,
    *,
    accept: str = JSON,
    body: bytes | None = None,
    content_type: str | None = None,
    **params: str | int | None,
) -> Call[T]:
    """A read of state: the latest, or at ``ledger_version`` (then fixed, and cached)."""
    version = None if ledger_version is None else int(_u64(ledger_version, "ledger_version"))
    return Call(
        name,
        *route,
        decode,
        _params(ledger_version=version, **params),
        body=body,
        content_type=content_type,
        accept=accept,
        storable=dec.at_version(version),
    )


def _cursor(start: str | None) -> str | None:
    if start is not None and (not isinstance(start, str) or not start):
        raise InputError(f"start must be a cursor from a previous page, got {start!r}")
    return start


def _start(start: int | None) -> int | None:
    return None if start is None else int(_u64(start, "start"))


# -- general ---------------------------------------------------------------------------------


def ledger_info() -> Call[dec.LedgerInfo]:
    return Call("ledger_info", *_route("get_ledger_info"), dec.ledger_info)


def health(duration_secs: int | None) -> Call[dec.HealthStatus]:
    duration = None if duration_secs is None else parse_uint(duration_secs, 32, what="duration")
    query = _params(duration_secs=duration)
    return Call("health", *_route("healthy"), dec.health, query)


def estimate_gas_price() -> Call[dec.GasEstimate]:
    return Call("estimate_gas_price", *_route("estimate_gas_price"), dec.gas_estimate)


# -- accounts --------------------------------------------------------------------------------


def account(address: str | Address, ledger_version: int | None) -> Call[dec.AccountData]:
    route = _route("get_account", address=_address(address))
    return _state_read("account", route, dec.account, ledger_version)


def account_resources(
    address: str | Address, ledger_version: int | None, start: str | None, limit: int | None
) -> Call[list[dec.MoveResource]]:
    route = _route("get_account_resources", address=_address(address))
    return _state_read(
        "account_resources",
        route,
        dec.resources,
        ledger_version,
        start=_cursor(start),
        limit=_limit(limit),
    )


def _resource_route(address: str | Address, resource_type: str | StructTag) -> tuple[str, str]:
    tag = StructTag.parse(resource_type).url_segment
    return _route("get_account_resource", address=_address(address), resource_type=tag)


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
    route = _route("get_account_modules", address=_address(address))
    return _state_read(
        "account_modules",
        route,
        dec.modules,
        ledger_version,
        start=_cursor(start),
        limit=_limit(limit),
    )


def _module_route(address: str | Address, module_name: str) -> tuple[str, str]:
    name = _identifier(module_name, "module_name")
    return _route("get_account_module", address=_address(address), module_name=name)


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
        segment = _address(asset)  # a fungible asset's metadata address
    route = _route("get_account_balance", address=_address(address), asset_type=segment)
    return _state_read("account_balance", route, dec.balance, ledger_version)


def account_transactions(
    address: str | Address, start: int | None, limit: int | None
) -> Call[list[dec.Transaction]]:
    first, size = _start(start), _limit(limit)
    route = _route("get_account_transactions", address=_address(address))
    return Call(
        "account_transactions",
        *route,
        dec.transactions,
        _params(start=first, limit=size),
        storable=dec.full_page(first, size),
    )


def account_transactions_bcs(
    address: str | Address, start: int | None, limit: int | None
) -> Call[list[dec.TransactionOnChainData]]:
    first, size = _start(start), _limit(limit)
    route = _route("get_account_transactions", address=_address(address))
    return Call(
        "account_transactions_bcs",
        *route,
        dec.onchain_transactions,
        _params(start=first, limit=size),
        accept=BCS,
    )


# -- events ----------------------------------------------------------------------------------


def events_by_creation_number(
    address: str | Address, creation_number: int, start: int | None, limit: int | None
) -> Call[list[dec.Event]]:
    first, size = _start(start), _limit(limit)
    number = _u64(creation_number, "creation_number")
    route = _route(
        "get_events_by_creation_number", address=_address(address), creation_number=number
    )
    return Call(
        "events_by_creation_number",
        *route,
        dec.events,
        _params(start=first, limit=size),
        storable=dec.full_page(first, size),
    )


def events_by_handle(
    address: str | Address,
    event_handle: str | StructTag,
    field_name: str,
    start: int | None,
    limit: int | None,
) -> Call[list[dec.Event]]:
    first, size = _start(start), _limit(limit)
    handle = StructTag.parse(event_handle).url_segment
    field = _identifier(field_name, "field_name")
    route = _route(
        "get_events_by_event_handle",
        address=_address(address),
        event_handle=handle,
        field_name=field,
    )
    return Call(
        "events_by_handle",
        *route,
        dec.events,
        _params(start=first, limit=size),
        storable=dec.full_page(first, size),
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
    first, size = _start(start), _limit(limit)
    storable = dec.version_page(first, size, dec.last_transaction_version)
    return Call(
        "transactions",
        *_route("get_transactions"),
        dec.transactions,
        _params(start=first, limit=size),
        storable=storable,
    )


def transaction_by_version(version: int) -> Call[dec.Transaction]:
    route = _route("get_transaction_by_version", txn_version=_u64(version, "version"))
    return Call("transaction_by_version", *route, dec.transaction, storable=dec.committed)


def transaction_by_hash(txn_hash: str | bytes) -> Call[dec.Transaction]:
    route = _route("get_transaction_by_hash", txn_hash=_txn_hash(txn_hash))
    return Call("transaction_by_hash", *route, dec.transaction, storable=dec.committed)


def wait_by_hash(txn_hash: str | bytes) -> Call[dec.Transaction]:
    """The long poll; once committed, its answer is cached as ``by_hash``'s."""
    digest = _txn_hash(txn_hash)
    return Call(
        "wait_for_transaction",
        *_route("wait_transaction_by_hash", txn_hash=digest),
        dec.transaction,
        storable=dec.committed,
        cache_path=_route("get_transaction_by_hash", txn_hash=digest)[1],
    )


def _settled(data: dec.TransactionData, _ledger: LedgerMeta) -> bool:
    return not data.is_pending


def transactions_bcs(
    start: int | None, limit: int | None
) -> Call[list[dec.TransactionOnChainData]]:
    first, size = _start(start), _limit(limit)
    return Call(
        "transactions_bcs",
        *_route("get_transactions"),
        dec.onchain_transactions,
        _params(start=first, limit=size),
        accept=BCS,
    )


def transaction_by_version_bcs(version: int) -> Call[dec.TransactionData]:
    route = _route("get_transaction_by_version", txn_version=_u64(version, "version"))
    return Call(
        "transaction_by_version_bcs", *route, dec.transaction_data, accept=BCS, storable=_settled
    )


def transaction_by_hash_bcs(txn_hash: str | bytes) -> Call[dec.TransactionData]:
    route = _route("get_transaction_by_hash", txn_hash=_txn_hash(txn_hash))
    return Call(
        "transaction_by_hash_bcs", *route, dec.transaction_data, accept=BCS, storable=_settled
    )


def transactions_auxiliary_info(
    start_version: int, limit: int | None
) -> Call[list[dec.AuxiliaryInfo]]:
    first, size = int(_u64(start_version, "start_version")), _limit(limit)

    def last_version(items: list[Any]) -> int:
        return first + len(items) - 1

    return Call(
        "transactions_auxiliary_info",
        *_route("get_transactions_auxiliary_info"),
        dec.auxiliary_info,
        _params(start_version=first, limit=size),
        storable=dec.version_page(first, size, last_version),
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
        body, content_type = json_body(dict(signed)), JSON
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
    query = _params(**{name: "true" for name, on in flags.items() if on})
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
        body=json_body(sent),
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
        _route("get_table_item", table_handle=_address(handle)),
        dec.json_value,
        ledger_version,
        body=json_body(body),
        content_type=JSON,
    )


def raw_table_item(
    handle: str | Address, key: bytes | str, ledger_version: int | None
) -> Call[bytes]:
    body = json_body({"key": str(HexBytes.parse(key))})
    return _state_read(
        "raw_table_item",
        _route("get_raw_table_item", table_handle=_address(handle)),
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
    return json_body(body), JSON


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
    query = _params(with_transactions="true" if with_transactions else None)
    return Call(name, *route, dec.block, query, storable=dec.complete_block)


def block_by_height(height: int, with_transactions: bool) -> Call[dec.Block]:
    route = _route("get_block_by_height", block_height=_u64(height, "height"))
    return _block("block_by_height", route, with_transactions)


def block_by_version(version: int, with_transactions: bool) -> Call[dec.Block]:
    route = _route("get_block_by_version", version=_u64(version, "version"))
    return _block("block_by_version", route, with_transactions)
