"""Converters for what transactions carry: the transactions themselves, their payloads,
events and write-set changes, and blocks."""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import msgspec
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
from ledgerkit.frames._inputs import json_text, records_of
from ledgerkit.models import (
    Block,
    BlockEndInfo,
    BlockEpilogueTransaction,
    BlockMetadataTransaction,
    DeleteModule,
    DeleteResource,
    DeleteTableItem,
    EncryptedTransactionPayload,
    EntryFunctionPayload,
    Event,
    MultisigPayload,
    PayloadRow,
    ScriptPayload,
    Transaction,
    TransactionEvents,
    TransactionRow,
    UnknownVariant,
    WriteModule,
    WriteResource,
    WriteTableItem,
    decode,
    decode_block,
    decode_events,
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
    "BLOCK_COLUMNS",
    "CHANGE_COLUMNS",
    "EVENT_COLUMNS",
    "PAYLOAD_COLUMNS",
    "TRANSACTION_COLUMNS",
    "TRANSACTION_ROOT_COLUMNS",
    "blocks_to_frame",
    "changes_to_frame",
    "events_to_frame",
    "payloads_to_frame",
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

PAYLOAD_COLUMNS: Final = {
    "version": UINT64,
    "hash": STRING,
    "payload_type": CATEGORY,
    "function": CATEGORY,
    "module_address": CATEGORY,
    "module_name": CATEGORY,
    "function_name": CATEGORY,
    "type_arguments": STRING,
    "arguments": STRING,
    "multisig_address": CATEGORY,
}

EVENT_COLUMNS: Final = {
    "version": UINT64,
    "event_index": COUNT,
    "creation_number": UINT64,
    "account_address": CATEGORY,
    "sequence_number": UINT64,
    "type": CATEGORY,
    "data": STRING,
}

BLOCK_COLUMNS: Final = {
    "block_height": UINT64,
    "block_hash": STRING,
    "block_timestamp": TIMESTAMP,
    "first_version": UINT64,
    "last_version": UINT64,
    "transaction_count": UINT64,
    "block_id": STRING,
    "block_gas_limit_reached": BOOL,
    "block_output_limit_reached": BOOL,
    "block_effective_block_gas_units": UINT64,
    "block_approx_output_size": UINT64,
}

CHANGE_COLUMNS: Final = {
    "version": UINT64,
    "change_index": COUNT,
    "type": CATEGORY,
    "address": CATEGORY,
    "state_key_hash": STRING,
    "resource": CATEGORY,
    "module": CATEGORY,
    "handle": STRING,
    "key": STRING,
    "value": STRING,
    "data": STRING,
}


# What each converter reads, for telling records from wrong input.
_TRANSACTION_KINDS: Final[tuple[type, ...]] = typing.get_args(Transaction)
_TRANSACTIONS: Final = "transaction records, a client result or page bytes of them, or their JSON"
_EVENTS: Final = "events or transactions (records, a client result, page bytes or JSON)"
_BLOCKS: Final = "blocks (records, client results, JSON bytes or dicts)"


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


def payloads_to_frame(
    records: bytes
    | Result[list[Transaction]]
    | Result[Transaction]
    | Transaction
    | Iterable[Transaction | dict[str, Any]],
) -> pd.DataFrame:
    """One row per transaction with a script or entry-function payload (:data:`PAYLOAD_COLUMNS`).

    ``type_arguments`` and ``arguments`` are JSON text (arguments as the API writes them,
    so u64 and wider are exact decimal strings); ``module_address`` is long-form;
    multisig and decrypted payloads are read through to the entry function they call.
    Genesis and other payload-less transactions give no row. ``records`` is read as by
    :func:`transactions_to_frame` (what the client returns, records, bytes or JSON).
    """
    txs = _transactions(records, "payloads_to_frame")
    cols: dict[str, list[Any]] = {name: [] for name in PAYLOAD_COLUMNS}
    addresses: dict[str, str] = {}

    def long(value: str | None) -> str | None:
        if value is None:
            return None
        found = addresses.get(value)
        if found is None:
            found = addresses[value] = long_address(value)
        return found

    for tx in txs:
        payload = getattr(tx, "payload", None)
        if payload is None or _tag(payload) in ("write_set_payload", "genesis_payload"):
            continue
        entry = _entry(payload)
        inner: Any = entry
        if inner is None and isinstance(payload, ScriptPayload):
            inner = payload
        cols["version"].append(getattr(tx, "version", None))
        cols["hash"].append(getattr(tx, "hash", None))
        cols["payload_type"].append(_tag(payload))
        cols["multisig_address"].append(
            long(payload.multisig_address) if isinstance(payload, MultisigPayload) else None
        )
        if entry is not None:
            address, module, function = entry.function.split("::", 2)
            cols["function"].append(entry.function)
            cols["module_address"].append(long(address))
            cols["module_name"].append(module)
            cols["function_name"].append(function)
        else:
            for name in ("function", "module_address", "module_name", "function_name"):
                cols[name].append(None)
        if inner is not None:
            cols["type_arguments"].append(json_text(inner.type_arguments))
            cols["arguments"].append(json_text(inner.arguments))
        else:
            cols["type_arguments"].append(None)
            cols["arguments"].append(None)
    return _build(PAYLOAD_COLUMNS, cols)


def events_to_frame(
    records: bytes
    | Result[list[Event]]
    | Result[list[Transaction]]
    | Result[Transaction]
    | Event
    | Transaction
    | Iterable[Event | Transaction | dict[str, Any]],
) -> pd.DataFrame:
    """One row per event (:data:`EVENT_COLUMNS`).

    Parameters
    ----------
    records : iterable of Event or Transaction, or a Result of them
        Events from an event stream (their ``version`` is used), or transactions, whose
        events are listed with the transaction's version (or the events of transactions
        alone, :class:`~ledgerkit.models.TransactionEvents`); what the client returns
        (``client.events_by_creation_number(...)``, ``client.events_by_handle(...)``,
        ``list(client.iter_events(...))``, ``client.transactions(...)``), page bytes and
        raw JSON of either are accepted.

    Returns
    -------
    pandas.DataFrame
        ``data`` is the Move value as JSON text (u64 and wider as exact decimal strings);
        :func:`expand_event_data` turns one event type's data into typed columns.
        ``event_index`` is the event's index within its transaction (0-based, in the
        order of the transaction's ``events``), the same wherever the event is read
        from; it is missing for events of an event stream, where the node does not say
        it (join those on ``version``, ``account_address``, ``creation_number`` and
        ``sequence_number``).
    """
    items = records_of(
        records,
        (Event, TransactionEvents, *_TRANSACTION_KINDS),
        _events_or_transactions,
        converter="events_to_frame",
        expected=_EVENTS,
    )
    cols: dict[str, list[Any]] = {name: [] for name in EVENT_COLUMNS}
    addresses: dict[str, str] = {}
    encode = msgspec.json.Encoder().encode

    def add(event: Event, version: int | None, index: int | None) -> None:
        cols["version"].append(version)
        cols["event_index"].append(index)
        cols["creation_number"].append(event.guid.creation_number)
        account = event.guid.account_address
        found = addresses.get(account)
        if found is None:
            found = addresses[account] = long_address(account)
        cols["account_address"].append(found)
        cols["sequence_number"].append(event.sequence_number)
        cols["type"].append(event.type)
        cols["data"].append(encode(event.data).decode())

    for item in items:
        if isinstance(item, Event):
            add(item, item.version, None)
        else:
            version = getattr(item, "version", None)
            for index, event in enumerate(getattr(item, "events", ())):
                add(event, version, index)
    return _build(EVENT_COLUMNS, cols)


def _events_or_transactions(body: bytes) -> list[Any]:
    """Raw JSON of events (they have a ``guid``) or of transactions, decoded."""
    raw = decode(body, list[dict[str, Any]])
    if raw and "guid" in raw[0]:
        return decode_events(body)
    return decode_transactions(body)


def blocks_to_frame(
    records: bytes | Result[Block] | Block | Iterable[Block | Result[Block] | dict[str, Any]],
) -> pd.DataFrame:
    """One row per block (:data:`BLOCK_COLUMNS`); ``block_timestamp`` is UTC.

    Parameters
    ----------
    records : Result, Block, iterable of them, bytes or JSON
        What the client returns (``client.block_by_height(h)``, one block, or a list of
        either: ``[client.block_by_height(h) for h in range(10)]``), or the API's JSON
        of blocks.

    Returns
    -------
    pandas.DataFrame
        ``block_id`` is the id of the block's metadata transaction (its first) and the
        ``block_*`` columns after it are the block epilogue's ``block_end_info`` (its last
        transaction): whether the block reached its gas or output limit, its effective
        gas units and approximate output size. They are read from the block's
        transactions, so they are missing for a block fetched without them (ask
        ``client.block_by_height(h, with_transactions=True)``), for a block whose list
        the node cut short of its epilogue, and for blocks that have none (the genesis;
        older nodes closed blocks with a state checkpoint, without ``block_end_info``).
    """
    blocks = records_of(
        records,
        (Block,),
        lambda body: [decode_block(item) for item in _split(body)],
        converter="blocks_to_frame",
        expected=_BLOCKS,
    )
    cols: dict[str, list[Any]] = {
        "block_height": [b.block_height for b in blocks],
        "block_hash": [b.block_hash for b in blocks],
        "block_timestamp": [b.block_timestamp for b in blocks],
        "first_version": [b.first_version for b in blocks],
        "last_version": [b.last_version for b in blocks],
        "transaction_count": [b.last_version - b.first_version + 1 for b in blocks],
        "block_id": [],
        "block_gas_limit_reached": [],
        "block_output_limit_reached": [],
        "block_effective_block_gas_units": [],
        "block_approx_output_size": [],
    }
    for block in blocks:
        block_id, end = _block_ends(block)
        cols["block_id"].append(block_id)
        cols["block_gas_limit_reached"].append(None if end is None else end.block_gas_limit_reached)
        cols["block_output_limit_reached"].append(
            None if end is None else end.block_output_limit_reached
        )
        cols["block_effective_block_gas_units"].append(
            None if end is None else end.block_effective_block_gas_units
        )
        cols["block_approx_output_size"].append(
            None if end is None else end.block_approx_output_size
        )
    return _build(BLOCK_COLUMNS, cols)


def _block_ends(block: Block) -> tuple[str | None, BlockEndInfo | None]:
    """The block metadata's id and the epilogue's end info, from the block's first and
    last transactions when it carries them."""
    txs = block.transactions
    if not txs:
        return None, None
    first, last = txs[0], txs[-1]
    block_id = (
        first.id
        if isinstance(first, BlockMetadataTransaction) and first.version == block.first_version
        else None
    )
    end = (
        last.block_end_info
        if isinstance(last, BlockEpilogueTransaction) and last.version == block.last_version
        else None
    )
    return block_id, end


def _split(body: bytes) -> list[bytes]:
    encode = msgspec.json.Encoder().encode
    return [encode(item) for item in msgspec.json.decode(body)]


def changes_to_frame(
    records: bytes
    | Result[list[Transaction]]
    | Result[Transaction]
    | Transaction
    | Iterable[Transaction | dict[str, Any]],
) -> pd.DataFrame:
    """One row per write-set change of the given transactions (:data:`CHANGE_COLUMNS`).

    ``resource`` is the struct tag of a written or deleted resource; ``module`` is
    ``address::name`` of a written or deleted module; ``handle`` and ``key`` are set for
    table items (``key`` the BCS bytes in hex); ``value`` holds the table item's value
    in hex or a module's bytecode; ``data`` is JSON text of the resource's Move value or
    of the node's decoded table item (``key``, ``key_type``, ``value``, ``value_type``).
    ``records`` is read as by :func:`transactions_to_frame`.
    """
    txs = _transactions(records, "changes_to_frame")
    cols: dict[str, list[Any]] = {name: [] for name in CHANGE_COLUMNS}
    addresses: dict[str, str] = {}
    encode = msgspec.json.Encoder().encode
    names = [n for n in CHANGE_COLUMNS if n not in ("version", "change_index", "type")]
    for tx in txs:
        version = getattr(tx, "version", None)
        for index, change in enumerate(getattr(tx, "changes", ())):
            row: dict[str, Any] = dict.fromkeys(names)
            address = getattr(change, "address", None)
            if address is not None:
                found = addresses.get(address)
                if found is None:
                    found = addresses[address] = long_address(address)
                row["address"] = found
            row["state_key_hash"] = getattr(change, "state_key_hash", None)
            if isinstance(change, WriteResource):
                row["resource"] = change.data.type
                row["data"] = encode(change.data.data).decode()
            elif isinstance(change, DeleteResource):
                row["resource"] = change.resource
            elif isinstance(change, WriteModule):
                abi = change.data.abi
                if abi is not None:
                    row["module"] = f"{row['address']}::{abi.name}"
                row["value"] = change.data.bytecode
            elif isinstance(change, DeleteModule):
                row["module"] = change.module
            elif isinstance(change, WriteTableItem | DeleteTableItem):
                row["handle"] = change.handle
                row["key"] = change.key
                if isinstance(change, WriteTableItem):
                    row["value"] = change.value
                if change.data is not None:
                    row["data"] = encode(change.data).decode()
            elif isinstance(change, UnknownVariant):
                row["state_key_hash"] = change.raw.get("state_key_hash")
                row["data"] = json_text(change.raw)
            cols["version"].append(version)
            cols["change_index"].append(index)
            cols["type"].append(_tag(change))
            for name in names:
                cols[name].append(row[name])
    return _build(CHANGE_COLUMNS, cols)
