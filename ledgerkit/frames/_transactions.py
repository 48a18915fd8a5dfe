"""Transactions as rows: the transaction frame's schema (:data:`TRANSACTION_COLUMNS`,
:data:`TRANSACTION_ROOT_COLUMNS`) and :func:`transactions_to_frame`, with its reading of
rows and signers; and the reading of transaction records that the converters of what
transactions carry share (``_transactions``, ``_tag``, ``_entry``).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import pandas as pd

from ledgerkit._errors import DecodingError
from ledgerkit.frames._dtypes import (
    BOOL,
    CATEGORY,
    COUNT,
    STRING,
    TIMESTAMP,
    UINT64,
    address_category,
    build_frame,
    long_address,
    missing,
)
from ledgerkit.frames._inputs import records_of
from ledgerkit.models import (
    EncryptedTransactionPayload,
    EntryFunctionPayload,
    MultisigPayload,
    PayloadRow,
    Transaction,
    TransactionRow,
    UnknownVariant,
    decode_transaction,
    decode_transaction_rows,
    decode_transactions,
    fee_payer,
    row_from_record,
    secondary_signers,
    signature_kind,
)

if TYPE_CHECKING:
    from ledgerkit.types import Result

__all__ = [
    "TRANSACTION_COLUMNS",
    "TRANSACTION_ROOT_COLUMNS",
    "transactions_to_frame",
]

TRANSACTION_COLUMNS: Final = {
    "version": UINT64,
    "hash": STRING,
    "type": CATEGORY,
    "sender": CATEGORY,
    "sequence_number": UINT64,
    "replay_protection_nonce": UINT64,
    "fee_payer": CATEGORY,
    "secondary_signers": STRING,
    "signature_kind": CATEGORY,
    "success": BOOL,
    "vm_status": CATEGORY,
    "gas_used": UINT64,
    "gas_unit_price": UINT64,
    "max_gas_amount": UINT64,
    "expiration_timestamp_secs": UINT64,
    "timestamp": TIMESTAMP,
    "epoch": UINT64,
    "round": UINT64,
    "proposer": CATEGORY,
    "payload_type": CATEGORY,
    "function": CATEGORY,
    "event_count": COUNT,
    "change_count": COUNT,
}

# The Merkle roots a transaction commits to: 66 characters each, read to verify rather
# than to analyse, so they join the frame only when asked (``roots=True``); without them
# a row of the frame stays under 300 bytes.
TRANSACTION_ROOT_COLUMNS: Final = {
    "state_change_hash": STRING,
    "event_root_hash": STRING,
    "state_checkpoint_hash": STRING,
    "accumulator_root_hash": STRING,
}


# What each converter reads, for telling records from wrong input.
_TRANSACTION_KINDS: Final[tuple[type, ...]] = typing.get_args(Transaction)
_TRANSACTIONS: Final = "transaction records, a client result or page bytes of them, or their JSON"


def _transactions(records: Any, converter: str) -> list[Any]:
    return records_of(
        records,
        _TRANSACTION_KINDS,
        decode_transactions,
        converter=converter,
        expected=_TRANSACTIONS,
    )


def _tag(record: Any) -> str:
    if isinstance(record, UnknownVariant):
        return record.type
    tag = record.__struct_config__.tag
    return tag if isinstance(tag, str) else type(record).__name__


def _entry(payload: Any) -> EntryFunctionPayload | None:
    """The entry function a payload calls, looking inside multisig and decrypted payloads."""
    if isinstance(payload, EntryFunctionPayload):
        return payload
    if isinstance(payload, MultisigPayload):
        return _entry(payload.transaction_payload)
    if isinstance(payload, EncryptedTransactionPayload):
        return _entry(payload.decrypted_payload)
    return None


_build = build_frame


def transactions_to_frame(
    records: bytes
    | str
    | Result[list[Transaction]]
    | Result[Transaction]
    | Transaction
    | Iterable[Transaction | dict[str, Any]],
    *,
    roots: bool = False,
) -> pd.DataFrame:
    """One row per transaction, of every type, with the columns of :data:`TRANSACTION_COLUMNS`.

    Parameters
    ----------
    records : bytes, str, Result, Transaction or iterable of Transaction
        The body of a page of transactions as the node sent it (the quickest: only the
        fields the frame shows are read, see :func:`decode_transaction_rows`), or of any
        answer :func:`ledgerkit.models.decode_transactions` reads (a simulation's, whose
        transactions come without ``type``), or of one transaction (a submission's
        pending one included); or what the client returns
        (``client.transactions(start=0, limit=100)``, its ``.value``, or one
        transaction), or the API's JSON objects (decoded with
        :func:`ledgerkit.models.decode_transactions`).
    roots : bool, default False
        Also the hashes of :data:`TRANSACTION_ROOT_COLUMNS` (state change, event root,
        state checkpoint and accumulator root), after the other columns.

    Returns
    -------
    pandas.DataFrame
        Fields a type lacks are missing (``<NA>``): ``sender`` and the gas price fields
        on user transactions only, ``epoch``, ``round`` and ``proposer`` on block
        metadata only, ``version`` absent from pending transactions. ``function`` is
        the entry function called (also inside multisig and decrypted payloads), as the
        node writes it; ``sender`` and ``proposer`` are long-form addresses.

    Raises
    ------
    InputError
        ``records`` is none of these (an int, a list of something else...).
    DecodingError
        Bytes or text that are not such an answer (as
        :func:`ledgerkit.models.decode_transactions` refuses them).

    Examples
    --------
    >>> frame = transactions_to_frame(client.transactions(start=0, limit=100))  # doctest: +SKIP
    >>> frame.ledger.fees()  # doctest: +SKIP
    """
    rows = _rows_of(records)
    payloads = [r.payload for r in rows]
    c: dict[str, list[Any]] = {
        "version": [r.version for r in rows],
        "hash": [r.hash for r in rows],
        "type": [r.type for r in rows],
        "sender": address_category([r.sender for r in rows]),
        "sequence_number": [r.sequence_number for r in rows],
        "replay_protection_nonce": [r.replay_protection_nonce for r in rows],
        **_signer_columns(rows),
        "success": [r.success for r in rows],
        "vm_status": [r.vm_status for r in rows],
        "gas_used": [r.gas_used for r in rows],
        "gas_unit_price": [r.gas_unit_price for r in rows],
        "max_gas_amount": [r.max_gas_amount for r in rows],
        "expiration_timestamp_secs": [r.expiration_timestamp_secs for r in rows],
        "timestamp": [r.timestamp for r in rows],
        "epoch": [r.epoch for r in rows],
        "round": [r.round for r in rows],
        "proposer": address_category([r.proposer for r in rows]),
        "payload_type": [None if p is None else p.type for p in payloads],
        "function": [
            p.function
            if p is not None and p.type == "entry_function_payload" and p.function is not None
            else _function(p)
            for p in payloads
        ],
        "event_count": [len(r.events) for r in rows],
        "change_count": [len(r.changes) for r in rows],
    }
    schema = TRANSACTION_COLUMNS
    if roots:
        schema = {**TRANSACTION_COLUMNS, **TRANSACTION_ROOT_COLUMNS}
        c["state_change_hash"] = [r.state_change_hash for r in rows]
        c["event_root_hash"] = [r.event_root_hash for r in rows]
        c["state_checkpoint_hash"] = [r.state_checkpoint_hash for r in rows]
        c["accumulator_root_hash"] = [r.accumulator_root_hash for r in rows]
    return _build(schema, c)


# The kinds (:func:`~ledgerkit.models.signature_kind`) of the signatures that name other
# accounts than the sender: a fee payer, secondary signers.
_WITH_SIGNERS: Final = frozenset({"multi_agent", "fee_payer"})


def _signer_columns(rows: list[TransactionRow]) -> dict[str, Any]:
    """The ``fee_payer``, ``secondary_signers`` and ``signature_kind`` columns: the kind of
    every signature, and the signers only of rows whose kind has them (most pages have none)."""
    signatures = [row.signature for row in rows]
    kinds = [None if signature is None else signature_kind(signature) for signature in signatures]
    if _WITH_SIGNERS.isdisjoint(kinds):
        return {
            "fee_payer": missing(CATEGORY, len(rows)),
            "secondary_signers": missing(STRING, len(rows)),
            "signature_kind": kinds,
        }
    payers: list[str | None] = [None] * len(rows)
    signers: list[str | None] = [None] * len(rows)
    addresses: dict[str, str] = {}
    for position, kind in enumerate(kinds):
        if kind not in _WITH_SIGNERS:
            continue
        signature = signatures[position]
        payers[position] = fee_payer(signature)
        longs = []
        for address in secondary_signers(signature):
            long = addresses.get(address)
            if long is None:
                long = addresses[address] = long_address(address)
            longs.append(long)
        signers[position] = ",".join(longs) if longs else None
    return {
        "fee_payer": address_category(payers),
        "secondary_signers": signers,
        "signature_kind": kinds,
    }


def _rows_of(records: Any) -> list[TransactionRow]:
    if isinstance(records, bytes | bytearray | memoryview | str):
        if _is_object(records):  # one transaction: a read by hash, a submission's answer
            return [row_from_record(decode_transaction(records))]
        return decode_transaction_rows(records)
    # Extraction hands over a partition's rows, thousands at a time: a list of rows and
    # nothing else (each item's exact type read in C) has nothing to unwrap, check or
    # convert, so it skips the item-by-item passes that mixed input needs.
    if type(records) is list and _ROW_ONLY.issuperset(map(type, records)):
        return records
    items = records_of(
        records,
        (TransactionRow, *_TRANSACTION_KINDS),
        decode_transactions,
        converter="transactions_to_frame",
        expected=_TRANSACTIONS,
    )
    return [item if isinstance(item, TransactionRow) else row_from_record(item) for item in items]


_ROW_ONLY: Final = frozenset({TransactionRow})
_OBJECT_TEXT: Final = re.compile(r"[ \t\r\n]*\{")
_OBJECT_BYTES: Final = re.compile(rb"[ \t\r\n]*\{")


def _is_object(body: bytes | bytearray | memoryview | str) -> bool:
    """Whether a JSON body holds one object rather than a list (its first character)."""
    if isinstance(body, str):
        return _OBJECT_TEXT.match(body) is not None
    return _OBJECT_BYTES.match(body) is not None


def _function(payload: PayloadRow | None) -> str | None:
    """The entry function a payload calls, looking inside multisig and decrypted payloads."""
    while payload is not None:
        kind = payload.type
        if kind == "entry_function_payload":
            if payload.function is None:
                raise DecodingError("an entry_function_payload without its function")
            return payload.function
        if kind == "multisig_payload":
            payload = payload.transaction_payload
        elif kind == "encrypted_transaction_payload":
            payload = payload.decrypted_payload
        else:
            return None
    return None
