"""Decoding entry points: raw response bytes in, typed records out. No I/O.

Every function reads JSON in msgspec's lax mode, so the API's decimal U64 strings (and
JSON integers) are parsed as exact ``int``, never through ``float``, and checked to fit
a u64; Move values stay plain JSON. (Lax mode would also take a float-looking string such
as ``"1e3"`` for an integer field, through ``float``; nodes never send one.) A body that
is not JSON, is cut short, or has the wrong shape raises :class:`~ledgerkit.DecodingError`
quoting the start of the body.

Unions decode in one msgspec pass while every ``type`` is known. When one is not (a
newer node), the affected items are decoded again one by one (``_lenient.py``) and the
unknown parts are kept as ``Unknown...`` records with their raw JSON. The same slow path
reads transactions sent without ``type`` (the answers of submission and simulation).

There is one named decoder per answer of the node API; the client reads every JSON
answer with these same functions.
"""

from __future__ import annotations

import functools
import re
import typing
from typing import Any, Final, TypeAlias, TypeVar, cast, overload

import msgspec

from ledgerkit._errors import DecodingError, InputError
from ledgerkit.models import _lenient
from ledgerkit.models._accounts import AccountData, MoveModuleBytecode, MoveResource
from ledgerkit.models._base import U64Int, UnknownVariant
from ledgerkit.models._blocks import Block
from ledgerkit.models._changes import WriteSetChange
from ledgerkit.models._events import Event, TransactionEvents
from ledgerkit.models._node_status import GasEstimate, HealthStatus, LedgerInfo
from ledgerkit.models._payloads import TransactionPayload, WriteSet
from ledgerkit.models._signatures import AccountSignature, TransactionSignature
from ledgerkit.models._transaction_answers import (
    AuxiliaryInfo,
    BatchSubmitResult,
    TransactionSummary,
)
from ledgerkit.models._transactions import PendingTransaction, Transaction, UserTransaction
from ledgerkit.types import U64_MAX, HexBytes

__all__ = [
    "decode",
    "decode_account",
    "decode_auxiliary_info",
    "decode_balance",
    "decode_batch_submit_result",
    "decode_block",
    "decode_events",
    "decode_gas_estimate",
    "decode_health",
    "decode_ledger_info",
    "decode_module",
    "decode_modules",
    "decode_pending_transaction",
    "decode_resource",
    "decode_resources",
    "decode_signing_message",
    "decode_simulation",
    "decode_table_item",
    "decode_transaction",
    "decode_transaction_events",
    "decode_transaction_summaries",
    "decode_transactions",
    "decode_view",
    "to_builtins",
]

T = TypeVar("T")

#: What the decoders read: the raw body, as bytes or text.
Body: TypeAlias = bytes | bytearray | memoryview | str

#: How much of a bad body an error message quotes.
SNIPPET_CHARS: Final = 160

_UNION_NAMES: Final = (
    ("Transaction", Transaction),
    ("TransactionPayload", TransactionPayload),
    ("TransactionSignature", TransactionSignature),
    ("AccountSignature", AccountSignature),
    ("WriteSetChange", WriteSetChange),
    ("WriteSet", WriteSet),
)

_RAW_LIST: Final = msgspec.json.Decoder(list[msgspec.Raw])
_ANY: Final = msgspec.json.Decoder()


@functools.cache
def _decoder(type_: Any) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(type_, strict=False)


def _describe(type_: Any) -> str:
    """A short name for a requested type: ``list[Transaction]`` rather than every member."""
    if typing.get_origin(type_) is list:
        return f"list[{_describe(typing.get_args(type_)[0])}]"
    if isinstance(type_, type):
        return type_.__name__
    for name, union in _UNION_NAMES:
        if type_ == union or type_ == _lenient.known_type(union):
            return name
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+(\w+)", r"\1", repr(type_))


def _snippet(data: Body) -> str:
    if isinstance(data, str):
        return data[:SNIPPET_CHARS]
    head = bytes(memoryview(data)[: SNIPPET_CHARS * 4])  # enough bytes for the characters
    return head.decode("utf-8", "replace")[:SNIPPET_CHARS]


def _error(what: str, data: Body, problem: str) -> DecodingError:
    if not _snippet(data).strip():
        return DecodingError(f"expected {what}, got an empty body")
    return DecodingError(f"expected {what}: {problem}", snippet=_snippet(data))


def _problem(exc: msgspec.DecodeError) -> str:
    if isinstance(exc, msgspec.ValidationError):
        return f"the JSON does not fit ({exc})"
    return f"the body is not JSON ({exc})"


def _raw_items(data: Body, what: str) -> list[msgspec.Raw]:
    """The items of a JSON array, undecoded, for decoding one by one."""
    try:
        return _RAW_LIST.decode(data)
    except msgspec.DecodeError as exc:
        raise _error(what, data, _problem(exc)) from exc


@overload
def decode(data: Body, type_: type[T]) -> T: ...
@overload
def decode(data: Body, type_: Any) -> Any: ...
def decode(data: Body, type_: Any) -> Any:
    """Decode a JSON body into ``type_``.

    Parameters
    ----------
    data : bytes or str
        The response body.
    type_ : type
        A record (``LedgerInfo``, ``Block``...), a union (``Transaction``...), ``list``
        of either, or any type msgspec reads (``int``, ``list[Any]``...).

    Returns
    -------
    The decoded value. Variants of a union that this version does not know come back as
    the union's ``Unknown...`` record.

    Raises
    ------
    DecodingError
        The body is not JSON, is cut short, or does not fit ``type_`` (a U64 above
        ``2**64 - 1`` or below 0 included).

    Examples
    --------
    >>> from ledgerkit.models import HealthStatus, decode
    >>> decode(b'{"message": "aptos-node:ok"}', HealthStatus)
    HealthStatus(message='aptos-node:ok')
    """
    return _decode(data, type_, _describe(type_))


def _decode(data: Body, type_: Any, what: str) -> Any:
    plan = _lenient.plan(type_)
    try:
        return _decoder(plan.fast).decode(data)
    except msgspec.ValidationError as exc:
        if plan.target is None:
            raise _error(what, data, _problem(exc)) from exc
    except msgspec.DecodeError as exc:
        raise _error(what, data, _problem(exc)) from exc
    return _decode_slowly(data, plan, what)


def _decode_slowly(data: Body, plan: _lenient.Plan, what: str) -> Any:
    """Decode keeping unknown variants; a list is redone item by item, and only the items
    the fast decoder refuses are converted from plain JSON."""
    assert plan.target is not None
    if plan.item is None:
        try:
            return _lenient.convert(_ANY.decode(data), plan.target)
        except msgspec.DecodeError as exc:
            raise _error(what, data, _problem(exc)) from exc
    item_decoder = _decoder(plan.item)
    items = []
    for index, raw in enumerate(_raw_items(data, what)):
        try:
            items.append(item_decoder.decode(raw))
        except msgspec.ValidationError:
            try:
                items.append(_lenient.convert(_ANY.decode(raw), plan.target))
            except msgspec.ValidationError as exc:
                problem = _problem(_lenient.at_path(exc, f"[{index}]"))
                raise _error(what, data, problem) from exc
    return items


# -- named entry points --------------------------------------------------------------------------


def decode_transaction(data: Body) -> Transaction:
    """One transaction: the answer of a read by hash or version, of a submission, or one
    item of a simulation.

    Reads are tagged by ``type``. The answer of a submission (a pending transaction) and
    the items of a simulation's answer (user transactions) come without it, as nodes
    write them; their kind is told by their fields: a ``hash`` and no ``version`` is
    pending, a ``version`` and a ``sender`` is a user transaction.

    Parameters
    ----------
    data : bytes or str
        The response body.

    Returns
    -------
    Transaction
        A :class:`PendingTransaction`, :class:`UserTransaction`... or, for a ``type``
        this version does not know, an :class:`UnknownTransaction`.

    Raises
    ------
    DecodingError
        The body is not a transaction (an object without ``type`` whose fields say
        neither pending nor user included).

    Examples
    --------
    >>> from ledgerkit.models import decode_transaction
    >>> txn = decode_transaction(submit_answer)  # doctest: +SKIP
    >>> type(txn).__name__, txn.sequence_number  # doctest: +SKIP
    ('PendingTransaction', 7)
    """
    return cast(Transaction, decode(data, Transaction))


def decode_transactions(data: Body) -> list[Transaction]:
    """A list of transactions: a page (``/transactions``, an account's), each tagged by
    ``type``, or a simulation's answer, whose items come without it.

    Decodes the page in one pass while every variant is known and tagged; otherwise only
    the other items are decoded slowly: an unknown ``type`` is kept as an
    :class:`UnknownTransaction`, and an item without ``type`` is told by its fields (see
    :func:`decode_transaction`).

    Examples
    --------
    >>> from ledgerkit.models import decode_transactions
    >>> [tx] = decode_transactions(b'[{"type": "shiny_new_transaction", "version": "7"}]')
    >>> tx.type, tx.raw["version"]
    ('shiny_new_transaction', '7')
    """
    return decode(data, list[Transaction])


def decode_pending_transaction(data: Body) -> PendingTransaction:
    """The answer of a submission (``POST /transactions``, 202): the pending transaction.

    Nodes write it without ``type``; a ``type`` present is taken too when it says
    ``pending_transaction``. It is read as :func:`decode_transaction` reads it, into the
    same record, and any other kind of transaction (one with a ``version``, say) is
    refused.

    Parameters
    ----------
    data : bytes or str
        The response body.

    Returns
    -------
    PendingTransaction

    Raises
    ------
    DecodingError
        The body is not a pending transaction (a committed one included).

    Examples
    --------
    >>> from ledgerkit.models import decode_pending_transaction
    >>> decode_pending_transaction(submit_answer).hash  # doctest: +SKIP
    '0x6f2a...'
    """
    what = "PendingTransaction"
    txn = _decode(data, Transaction, what)
    if not isinstance(txn, PendingTransaction):
        kind = txn.type if isinstance(txn, UnknownVariant) else txn.__struct_config__.tag
        raise _error(what, data, f"this is a {kind}")
    return txn


def decode_simulation(data: Body) -> list[UserTransaction]:
    """The answer of a simulation (``POST /transactions/simulate``): user transactions,
    never committed, their state hashes zero.

    Nodes write them without ``type``; a ``type`` present is taken too when it says
    ``user_transaction``. ``success`` and ``vm_status`` say how the transaction would
    fare, ``gas_used`` what it would cost. :func:`decode_transactions` reads the same body
    into the same records.

    Parameters
    ----------
    data : bytes or str
        The response body.

    Returns
    -------
    list of UserTransaction

    Raises
    ------
    DecodingError
        The body is not a list of user transactions.

    Examples
    --------
    >>> from ledgerkit.models import decode_simulation
    >>> [txn] = decode_simulation(simulate_answer)  # doctest: +SKIP
    >>> txn.success, txn.vm_status  # doctest: +SKIP
    (False, 'Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): ...')
    """
    return decode(data, list[UserTransaction])


def decode_batch_submit_result(data: Body) -> BatchSubmitResult:
    """The answer of a batch submission (``POST /transactions/batch``, 202 or 206): the
    transactions the node refused, by position, with their error records."""
    return decode(data, BatchSubmitResult)


def decode_signing_message(data: Body) -> bytes:
    """The answer of ``POST /transactions/encode_submission``: the signing message, a
    JSON string of hex bytes, as the bytes to sign.

    Raises
    ------
    DecodingError
        The body is not a JSON string of hex bytes.

    Examples
    --------
    >>> from ledgerkit.models import decode_signing_message
    >>> decode_signing_message(b'"0x6c6564676572"')
    b'ledger'
    """
    what = "a JSON string of hex bytes"
    text: str = _decode(data, str, what)
    try:
        return bytes(HexBytes.parse(text))
    except InputError as exc:
        raise _error(what, data, str(exc)) from None


def decode_auxiliary_info(data: Body) -> list[AuxiliaryInfo]:
    """The answer of ``GET /transactions/auxiliary_info``: one record per version."""
    return decode(data, list[AuxiliaryInfo])


def decode_transaction_summaries(data: Body) -> list[TransactionSummary]:
    """The answer of ``GET /accounts/{address}/transaction_summaries``."""
    return decode(data, list[TransactionSummary])


def decode_block(data: Body) -> Block:
    """A block, with its transactions when they were asked for."""
    return decode(data, Block)


def decode_events(data: Body) -> list[Event]:
    """A page of an event stream."""
    return decode(data, list[Event])


def decode_transaction_events(data: Body) -> list[TransactionEvents]:
    """The versions and events of a page of transactions (``GET /transactions`` and
    kin), the rest of each transaction skipped unread (a page is mostly payloads,
    signatures and write sets)."""
    return decode(data, list[TransactionEvents])


def decode_resource(data: Body) -> MoveResource:
    """One resource of an account."""
    return decode(data, MoveResource)


def decode_resources(data: Body) -> list[MoveResource]:
    """A page of an account's resources."""
    return decode(data, list[MoveResource])


def decode_module(data: Body) -> MoveModuleBytecode:
    """One module of an account, with its ABI."""
    return decode(data, MoveModuleBytecode)


def decode_modules(data: Body) -> list[MoveModuleBytecode]:
    """A page of an account's modules."""
    return decode(data, list[MoveModuleBytecode])


def decode_account(data: Body) -> AccountData:
    """An account's sequence number and authentication key."""
    return decode(data, AccountData)


def decode_health(data: Body) -> HealthStatus:
    """The answer of ``GET /-/healthy``."""
    return decode(data, HealthStatus)


def decode_ledger_info(data: Body) -> LedgerInfo:
    """The answer of ``GET /``."""
    return decode(data, LedgerInfo)


def decode_gas_estimate(data: Body) -> GasEstimate:
    """The answer of ``GET /estimate_gas_price``."""
    return decode(data, GasEstimate)


def decode_balance(data: Body) -> int:
    """The answer of the balance endpoint: a bare JSON integer (a string is taken too)."""
    value: int = _decode(data, U64Int, "a u64 balance")
    if value > U64_MAX:
        raise _error("a u64 balance", data, f"{value} does not fit in a u64")
    return value


def decode_view(data: Body) -> list[Any]:
    """The values a view function returned, as plain JSON (u64 and wider stay strings)."""
    return decode(data, list[Any])


def decode_table_item(data: Body) -> Any:
    """The answer of ``POST /tables/{handle}/item``: the item's value, as plain JSON (u64
    and wider stay strings)."""
    return decode(data, Any)


# -- back to JSON ----------------------------------------------------------------------------


def to_builtins(record: Any) -> Any:
    """A record as plain JSON-able values (dicts, lists, str, int, bool, None).

    Integers stay ``int`` (encode them as you like); an ``Unknown...`` record gives back
    its raw JSON, so ``decode(msgspec.json.encode(to_builtins(r)), type(r)) == r`` for
    every record, known variants or not.

    Examples
    --------
    >>> from ledgerkit.models import GasEstimate, to_builtins
    >>> to_builtins(GasEstimate(gas_estimate=100))
    {'gas_estimate': 100, 'deprioritized_gas_estimate': None, 'prioritized_gas_estimate': None}
    """
    if isinstance(record, UnknownVariant):
        return msgspec.to_builtins(record.raw)
    if isinstance(record, list | tuple):
        return [to_builtins(item) for item in record]
    if isinstance(record, msgspec.Struct) and _may_hold_unknown(type(record)):
        config = record.__struct_config__
        out: dict[str, Any] = {}
        if config.tag_field is not None and config.tag is not None:
            out[config.tag_field] = config.tag
        for field in msgspec.structs.fields(record):
            out[field.encode_name] = to_builtins(getattr(record, field.name))
        return out
    return msgspec.to_builtins(record)


@functools.cache
def _may_hold_unknown(cls: type[msgspec.Struct]) -> bool:
    return bool(_lenient.union_fields(cls))
