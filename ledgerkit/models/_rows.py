"""Transaction rows: the part of a transaction that
:func:`~ledgerkit.frames.transactions_to_frame` shows, read straight from a page's bytes
(the decoder ``ledgerkit.extract`` and the frame of a page's bytes use).

A page of 100 transactions is some 300 KB of JSON, most of it events, write-set changes
and signatures that the transactions frame only counts (events, changes) or reads a few
names from (a signature's type, fee payer and secondary signers, see
:class:`~ledgerkit.models.SignatureRow`). Decoding the full records
(:mod:`ledgerkit.models`) builds every one of those values; the row struct here names
only the fields the frame holds, so msgspec skips the rest in C without building it.

One struct serves every transaction type, the fields a type lacks being None. (A union
tagged on ``type`` would check each type's required fields, but nodes write ``type``
last, and msgspec then reads every transaction twice: 60% more time per page.) So this
path checks the shape of what it reads, not that each type has all its fields; the full
records do that. On what nodes send, both give the same frame (tests hold them to it).

msgspec does the reading; nothing here parses JSON by hand.
"""

from __future__ import annotations

import typing
from typing import Any, Final

import msgspec

from ledgerkit.models._base import Record, U64Int, UnknownVariant
from ledgerkit.models._decode import _ANY, Body, _error, _problem, _raw_items
from ledgerkit.models._lenient import at_path, convert, plan
from ledgerkit.models._payloads import (
    EncryptedTransactionPayload,
    EntryFunctionPayload,
    MultisigPayload,
)
from ledgerkit.models._signers import SignatureRow, signature_row
from ledgerkit.models._transactions import KnownTransaction, Transaction
from ledgerkit.types import U64_MAX

__all__ = [
    "PayloadRow",
    "TransactionRow",
    "decode_transaction_rows",
    "row_from_record",
    "unknown_row",
]


class _Skip(msgspec.Struct, frozen=True, gc=False):
    """Any JSON object, its content skipped (an event or change, only counted)."""


_SKIP: Final = _Skip()


class PayloadRow(Record, frozen=True, kw_only=True):
    """A payload's ``type`` and the entry function it calls, through multisig and
    decrypted payloads."""

    type: str
    function: str | None = None
    transaction_payload: PayloadRow | None = None
    decrypted_payload: PayloadRow | None = None


class TransactionRow(Record, frozen=True, kw_only=True):
    """The fields of one transaction that its frame row holds: its ``type``, and every
    other field as the node sent it, or None where the transaction has none."""

    type: str
    version: U64Int | None = None
    hash: str | None = None
    state_change_hash: str | None = None
    event_root_hash: str | None = None
    state_checkpoint_hash: str | None = None
    accumulator_root_hash: str | None = None
    gas_used: U64Int | None = None
    success: bool | None = None
    vm_status: str | None = None
    sender: str | None = None
    sequence_number: U64Int | None = None
    max_gas_amount: U64Int | None = None
    gas_unit_price: U64Int | None = None
    expiration_timestamp_secs: U64Int | None = None
    payload: PayloadRow | None = None
    signature: SignatureRow | None = None
    replay_protection_nonce: U64Int | None = None
    timestamp: U64Int | None = None
    epoch: U64Int | None = None
    round: U64Int | None = None
    proposer: str | None = None
    # Tuples, not lists: msgspec reads a page a fifth faster when it does not grow a list
    # per transaction for what it only counts.
    events: tuple[_Skip, ...] = ()
    changes: tuple[_Skip, ...] = ()


_KNOWN_TYPES: Final = frozenset(
    str(member.__struct_config__.tag) for member in typing.get_args(KnownTransaction)
)
_PAGE: Final = msgspec.json.Decoder(list[TransactionRow], strict=False)
_ONE: Final = msgspec.json.Decoder(TransactionRow, strict=False)
#: How the full decoder reads transactions (those without ``type`` included).
_TRANSACTIONS_PLAN: Final = plan(list[Transaction])
_ENCODE: Final = msgspec.json.Encoder().encode


def _u64_or_none(value: Any) -> int | None:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= U64_MAX:
        return value
    return None


def unknown_row(raw: dict[str, Any]) -> TransactionRow:
    """The row of a transaction of a ``type`` this version does not know, from its JSON.

    The fields it shares with known transactions are read when they have the usual
    shape; when one does not, the row keeps only the type, version, hash and how many
    events and changes the transaction lists.
    """
    try:
        return _ONE.decode(_ENCODE(raw))
    except msgspec.ValidationError:
        pass
    hash_ = raw.get("hash")
    events, changes = raw.get("events"), raw.get("changes")
    return TransactionRow(
        type=str(raw.get("type")),
        version=_u64_or_none(raw.get("version")),
        hash=hash_ if isinstance(hash_, str) else None,
        events=(_SKIP,) * (len(events) if isinstance(events, list) else 0),
        changes=(_SKIP,) * (len(changes) if isinstance(changes, list) else 0),
    )


def decode_transaction_rows(data: Body) -> list[TransactionRow]:
    """The rows of a page of transactions (the body of ``/transactions`` and kin), or of
    any other answer :func:`~ledgerkit.models.decode_transactions` reads.

    Only the fields a transactions frame shows are read, and checked: a U64 field
    must be a decimal string or integer, ``success`` a bool, and so on. A field missing
    from a transaction is None in its row. Items without ``type`` (a simulation's user
    transactions, a submission's pending one, as nodes write them) are told by their
    fields and read whole, as :func:`~ledgerkit.models.decode_transactions` reads them.

    Raises
    ------
    DecodingError
        The body is not JSON or is cut short, a transaction of a known ``type`` has
        a field of the wrong shape, or an item without ``type`` is not a transaction
        :func:`~ledgerkit.models.decode_transactions` takes.
    """
    what = "list[Transaction]"
    try:
        return _PAGE.decode(data)
    except msgspec.ValidationError:
        pass  # a newer transaction type, an untagged item or a bad one: one by one
    except msgspec.DecodeError as exc:
        raise _error(what, data, _problem(exc)) from exc
    rows: list[TransactionRow] = []
    for index, raw in enumerate(_raw_items(data, what)):
        try:
            rows.append(_ONE.decode(raw))
        except msgspec.ValidationError as exc:
            item = _ANY.decode(raw)
            kind = item.get("type") if isinstance(item, dict) else None
            if isinstance(item, dict) and "type" not in item:
                rows.append(_untagged_row(item, data, index))
                continue
            if not isinstance(kind, str) or kind in _KNOWN_TYPES:
                raise _error(what, data, _problem(at_path(exc, f"[{index}]"))) from exc
            rows.append(unknown_row(item))
    return rows


def _untagged_row(item: dict[str, Any], data: Body, index: int) -> TransactionRow:
    """The row of item ``index`` of ``data``, a transaction without ``type``: read whole
    (its kind told by its fields) and refused where the full decoder refuses it."""
    target = _TRANSACTIONS_PLAN.target
    assert target is not None
    try:
        record = convert(item, target)
    except msgspec.ValidationError as exc:
        raise _error("list[Transaction]", data, _problem(at_path(exc, f"[{index}]"))) from exc
    return row_from_record(record)


def _tag(record: Any) -> str:
    if isinstance(record, UnknownVariant):
        return record.type
    return str(record.__struct_config__.tag)


def _payload_row(payload: Any) -> PayloadRow | None:
    if payload is None:
        return None
    if isinstance(payload, EntryFunctionPayload):
        return PayloadRow(type=_tag(payload), function=payload.function)
    if isinstance(payload, MultisigPayload):
        inner = _payload_row(payload.transaction_payload)
        return PayloadRow(type=_tag(payload), transaction_payload=inner)
    if isinstance(payload, EncryptedTransactionPayload):
        inner = _payload_row(payload.decrypted_payload)
        return PayloadRow(type=_tag(payload), decrypted_payload=inner)
    return PayloadRow(type=_tag(payload))


def row_from_record(record: Transaction) -> TransactionRow:
    """The row of a full transaction record."""
    if isinstance(record, UnknownVariant):
        return unknown_row(record.raw)
    fields = {name: getattr(record, name, None) for name in _PLAIN_FIELDS}
    return TransactionRow(
        type=_tag(record),
        payload=_payload_row(getattr(record, "payload", None)),
        signature=signature_row(getattr(record, "signature", None)),
        events=(_SKIP,) * len(getattr(record, "events", ())),
        changes=(_SKIP,) * len(getattr(record, "changes", ())),
        **fields,
    )


_PLAIN_FIELDS: Final = tuple(
    name
    for name in TransactionRow.__struct_fields__
    if name not in ("type", "payload", "signature", "events", "changes")
)
