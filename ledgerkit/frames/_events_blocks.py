"""Converters for events (of event streams or of transactions, :func:`events_to_frame`) and
blocks (:func:`blocks_to_frame`), with their schemas.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import msgspec
import pandas as pd

from ledgerkit.frames._dtypes import BOOL, CATEGORY, COUNT, STRING, TIMESTAMP, UINT64, long_address
from ledgerkit.frames._inputs import records_of
from ledgerkit.frames._transactions import _TRANSACTION_KINDS, _build
from ledgerkit.models import (
    Block,
    BlockEndInfo,
    BlockEpilogueTransaction,
    BlockMetadataTransaction,
    Event,
    Transaction,
    TransactionEvents,
    decode,
    decode_block,
    decode_events,
    decode_transactions,
)

if TYPE_CHECKING:
    from ledgerkit.types import Result

__all__ = [
    "BLOCK_COLUMNS",
    "EVENT_COLUMNS",
    "blocks_to_frame",
    "events_to_frame",
]

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


# What each converter reads, for telling records from wrong input.
_EVENTS: Final = "events or transactions (records, a client result, page bytes or JSON)"
_BLOCKS: Final = "blocks (records, client results, JSON bytes or dicts)"


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
