"""What decoder reads which endpoint's body: the one place the client meets the models.

Each function takes the raw body of a successful answer and returns the typed value
(a :mod:`ledgerkit.models` record, a list of them, an ``int``, bytes or plain JSON),
raising :class:`~ledgerkit.DecodingError` when the body is not what the endpoint
promises. The few questions the cache policy asks of a decoded value (is this
transaction still pending? which version is it?) are answered here too, so the rest of
the client never looks inside a model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ledgerkit._errors import BCSError, DecodingError, InputError
from ledgerkit.bcs import TransactionData, TransactionOnChainData
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
    UnknownVariant,
    UserTransaction,
    decode,
    decode_account,
    decode_balance,
    decode_block,
    decode_events,
    decode_gas_estimate,
    decode_ledger_info,
    decode_module,
    decode_modules,
    decode_resource,
    decode_resources,
    decode_transaction,
    decode_transactions,
    decode_view,
)
from ledgerkit.types import HexBytes

__all__ = [
    "AccountData",
    "AuxiliaryInfo",
    "BatchSubmitResult",
    "Block",
    "Event",
    "GasEstimate",
    "HealthStatus",
    "LedgerInfo",
    "MoveModuleBytecode",
    "MoveResource",
    "PendingTransaction",
    "Transaction",
    "TransactionData",
    "TransactionOnChainData",
    "UserTransaction",
    "account",
    "auxiliary_info",
    "balance",
    "batch_result",
    "bcs",
    "block",
    "block_is_complete",
    "event_sequence_number",
    "events",
    "gas_estimate",
    "health",
    "hex_bytes",
    "is_pending",
    "json_value",
    "json_values",
    "ledger_info",
    "module",
    "modules",
    "onchain_transactions",
    "pending_transaction",
    "reader",
    "resource",
    "resources",
    "simulated_transactions",
    "transaction",
    "transaction_data",
    "transaction_version",
    "transactions",
]

T = TypeVar("T")

# -- the table: endpoint -> decoder ----------------------------------------------------------

ledger_info = decode_ledger_info
gas_estimate = decode_gas_estimate
account = decode_account
resource = decode_resource
resources = decode_resources
module = decode_module
modules = decode_modules
events = decode_events
transaction = decode_transaction
transactions = decode_transactions
block = decode_block
balance = decode_balance
json_values = decode_view


def reader(type_: type[T]) -> Callable[[bytes], T]:
    """The decoder of an answer that is a record of :mod:`ledgerkit.models`, a union of
    them or a list (``reader(list[Thing])``), by :func:`ledgerkit.models.decode`: a new
    record needs no decoder function of its own."""

    def read(data: bytes) -> T:
        return decode(data, type_)

    return read


def health(data: bytes) -> HealthStatus:
    return decode(data, HealthStatus)


def auxiliary_info(data: bytes) -> list[AuxiliaryInfo]:
    return decode(data, list[AuxiliaryInfo])


def json_value(data: bytes) -> Any:
    """A Move value in JSON form (a table item)."""
    return decode(data, Any)


def pending_transaction(data: bytes) -> PendingTransaction:
    """The answer of a submission: a ``PendingTransaction`` record, read by its own schema.

    Public nodes send it without the ``type`` tag (the tag belongs to the ``Transaction``
    union of reads by hash); a ``type`` present is taken too, when it says
    ``pending_transaction``.
    """
    return decode(data, PendingTransaction)


def simulated_transactions(data: bytes) -> list[UserTransaction]:
    """The answer of a simulation: ``UserTransaction`` records, never committed, read by
    their own schema (public nodes send them without ``type``; a ``user_transaction`` tag
    is taken too)."""
    return decode(data, list[UserTransaction])


def batch_result(data: bytes) -> BatchSubmitResult:
    """The answer of a batch submission (202 or 206): the refused transactions, if any."""
    return decode(data, BatchSubmitResult)


def hex_bytes(data: bytes) -> bytes:
    """A JSON string of hex bytes (encode_submission's signing message)."""
    text = decode(data, str)
    try:
        return bytes(HexBytes.parse(text))
    except InputError as exc:
        raise DecodingError(f"expected hex bytes: {exc}") from None


def transaction_data(data: bytes) -> TransactionData:
    """A BCS transaction read: ``TransactionData`` (committed or pending)."""
    try:
        return TransactionData.from_bcs(data)
    except BCSError as exc:
        raise DecodingError(f"the answer is not a BCS TransactionData: {exc}") from None


def onchain_transactions(data: bytes) -> list[TransactionOnChainData]:
    """A BCS transaction listing: a sequence of committed transactions."""
    try:
        return TransactionOnChainData.list_from_bcs(data)
    except BCSError as exc:
        raise DecodingError(f"the answer is not a BCS transaction listing: {exc}") from None


def bcs(data: bytes) -> bytes:
    """A BCS answer, handed out as the bytes it is."""
    return bytes(data)


# -- what the cache policy and the walks ask of decoded values ---------------------------------


def is_pending(txn: Transaction) -> bool:
    """True while the transaction waits in the mempool."""
    if isinstance(txn, UnknownVariant):
        return txn.type == "pending_transaction" or "version" not in txn.raw
    return isinstance(txn, PendingTransaction)


def transaction_version(txn: Transaction) -> int | None:
    """The version of a committed transaction (``None`` when pending)."""
    if isinstance(txn, PendingTransaction):
        return None
    if isinstance(txn, UnknownVariant):
        raw = txn.raw.get("version")
        return int(raw) if isinstance(raw, str | int) and str(raw).isdigit() else None
    return txn.version


def event_sequence_number(event: Event) -> int:
    return event.sequence_number


def block_is_complete(value: Block) -> bool:
    """True unless transactions were asked for and the node sent only some of them."""
    return value.transactions is None or len(value.transactions) == value.transaction_count
