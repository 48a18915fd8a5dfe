"""The pages of the ``"blocks"`` kind: the blocks of a height range, read with as few
requests as the node allows.

A block's frame row (:func:`ledgerkit.frames.blocks_to_frame`) reads the block record and
its first and last transactions (the block metadata's id, the epilogue's end info). A run
of blocks ``[first, stop)`` is read as:

* its two end blocks, each with its transactions (``with_transactions=true``): one request
  each, or two for a block longer than the node lists (its last transaction then asked for
  by version);
* the blocks between them from the pages of transactions between the end blocks' versions
  (:data:`PAGE_LIMIT` a request), when that is fewer requests than one a block: each block
  metadata transaction opens a block, whose hash and timestamp are the metadata's id and
  timestamp, and which ends before the next one. The end blocks check this on the node's
  own records: where the metadata does not name its block as the node does, the blocks
  between are read one request each (and so, the pages read in vain, where the pages do
  not cut into as many blocks as there are heights between: a chain this does not know).

So ``n`` blocks of ``v`` versions between their ends cost ``2 + min(ceil(v / 100), n - 2)``
requests: at most one a block, and far fewer where blocks hold few transactions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import msgspec

from ledgerkit.client import AsyncClient, calls
from ledgerkit.extract._ranges import pages
from ledgerkit.models import Block, BlockMetadataTransaction, decode_transaction
from ledgerkit.types import LedgerMeta

__all__ = ["BLOCKS_PER_PAGE", "PAGE_LIMIT", "blocks_page"]

T = TypeVar("T")

#: Most transactions the node lists a request (its ``max_transactions_page_size``).
PAGE_LIMIT: Final = 100
#: Heights read as one run of blocks (its two ends, the pages between): as many as a
#: partition holds by default.
BLOCKS_PER_PAGE: Final = 1_000

_METADATA: Final = "block_metadata_transaction"


class _Peek(msgspec.Struct):
    """What a transaction of a page is read for first: its kind."""

    type: str = ""


_peek = msgspec.json.Decoder(_Peek)
_raw_list = msgspec.json.Decoder(list[msgspec.Raw])


@dataclass(frozen=True, slots=True)
class _Span:
    """A page of transactions as the blocks read it: how many it held, the version of its
    last, and the transactions that open or close a block (every block metadata
    transaction, the one before each, and the page's last), fully decoded."""

    count: int
    last: int
    kept: dict[int, Any]


def _span(body: bytes) -> _Span:
    """Read a page's body: every transaction's kind, and in full only those a block's
    row reads (a page is mostly payloads and write sets that blocks never show)."""
    raws = _raw_list.decode(body)
    kinds = [_peek.decode(raw).type for raw in raws]
    wanted = {len(raws) - 1} if raws else set()
    for i, kind in enumerate(kinds):
        if kind == _METADATA:
            wanted.update((i, i - 1) if i else (i,))
    kept = {}
    for i in sorted(wanted):
        tx = decode_transaction(bytes(raws[i]))
        version = getattr(tx, "version", None)  # every committed transaction has one
        if isinstance(version, int):
            kept[version] = tx
    last = max(kept) if kept else -1
    return _Span(len(raws), last, kept)


async def _together(*steps: Awaitable[T]) -> list[T]:
    """Every step's value; when one fails, after all have ended (none left in flight)."""
    done = await asyncio.gather(*steps, return_exceptions=True)
    for value in done:
        if isinstance(value, BaseException):
            raise value
    return list(done)  # type: ignore[arg-type]


def _newest(ledgers: list[LedgerMeta]) -> LedgerMeta:
    return max(ledgers, key=lambda ledger: ledger.ledger_version)


async def _block(client: AsyncClient, height: int, archive: bool) -> tuple[Block, LedgerMeta]:
    """The block with its first and last transactions: one request, two when the node
    lists fewer transactions than the block holds (its limit is 10,000)."""
    call = calls.block_by_height(height, with_transactions=True)
    found = await client.send(call, archive=archive)
    block, ledgers = found.value, [found.ledger]
    txs = list(block.transactions or ())
    ends = txs[:1]
    if txs and getattr(txs[-1], "version", None) == block.last_version:
        ends.append(txs[-1])
    else:  # cut short: its last transaction alone, not the pages before it
        last = await client.send(calls.transaction_by_version(block.last_version), archive=archive)
        ends.append(last.value)
        ledgers.append(last.ledger)
    ends = ends[:1] if block.first_version == block.last_version else ends
    return msgspec.structs.replace(block, transactions=ends), _newest(ledgers)


async def _page(
    client: AsyncClient, first: int, stop: int, archive: bool
) -> tuple[list[_Span], list[LedgerMeta]]:
    """The transactions of versions ``[first, stop)`` as spans, continued where the node
    answers a page short; it stops early at an empty answer (the blocks then tell)."""
    spans: list[_Span] = []
    ledgers: list[LedgerMeta] = []
    while first < stop:
        call = calls.transactions(start=first, limit=stop - first)
        found = await client.send(call, decoder=_span, archive=archive)
        if not found.value.count:
            break
        spans.append(found.value)
        ledgers.append(found.ledger)
        first = found.value.last + 1
    return spans, ledgers


def _cut(spans: list[_Span], first: int, stop: int, height: int) -> list[Block] | None:
    """The blocks of versions ``[first, stop)``, the first of them at ``height``, from the
    pages' spans; None when the pages do not cover the versions or do not open a block at
    ``first``."""
    kept: dict[int, Any] = {}
    for span in spans:
        kept.update(span.kept)
    opens = sorted(v for v, tx in kept.items() if isinstance(tx, BlockMetadataTransaction))
    if not opens or opens[0] != first or (stop - 1) not in kept:
        return None
    blocks = []
    for number, (begin, end) in enumerate(zip(opens, [*opens[1:], stop], strict=True)):
        meta, last = kept[begin], kept.get(end - 1)
        if last is None:
            return None
        blocks.append(
            Block(
                block_height=height + number,
                block_hash=meta.id,
                block_timestamp=meta.timestamp,
                first_version=begin,
                last_version=end - 1,
                transactions=[meta] if begin == end - 1 else [meta, last],
            )
        )
    return blocks


def _named_by_metadata(block: Block) -> bool:
    """Whether the node names ``block`` by its metadata transaction (the hash its id, the
    timestamp its timestamp), as blocks cut from pages are named."""
    first = block.transactions[0] if block.transactions else None
    return (
        isinstance(first, BlockMetadataTransaction)
        and first.version == block.first_version
        and first.id == block.block_hash
        and first.timestamp == block.block_timestamp
    )


async def blocks_page(
    client: AsyncClient, first: int, stop: int, *, archive: bool = False
) -> tuple[list[Block], LedgerMeta]:
    """The blocks of heights ``[first, stop)``, each with its first and last transactions
    only, and the newest ledger the answers were read at (see the module's docstring for
    the requests)."""
    if stop - first <= 2:
        ends = await _together(*(_block(client, h, archive) for h in range(first, stop)))
        return [block for block, _ in ends], _newest([ledger for _, ledger in ends])
    (low, low_ledger), (high, high_ledger) = await _together(
        _block(client, first, archive), _block(client, stop - 1, archive)
    )
    ledgers = [low_ledger, high_ledger]
    lo, hi = low.last_version + 1, high.first_version
    between = stop - first - 2
    named = _named_by_metadata(high) and (first == 0 or _named_by_metadata(low))
    middle: list[Block] | None = None
    if named and -(-(hi - lo) // PAGE_LIMIT) < between:
        read = await _together(
            *(_page(client, a, b, archive) for a, b in pages(lo, hi, PAGE_LIMIT))
        )
        middle = _cut([s for spans, _ in read for s in spans], lo, hi, first + 1)
        ledgers += [ledger for _, found in read for ledger in found]
        if middle is not None and len(middle) != between:
            middle = None
    if middle is None:  # one request a block
        each = await _together(*(_block(client, h, archive) for h in range(first + 1, stop - 1)))
        middle = [block for block, _ in each]
        ledgers += [ledger for _, ledger in each]
    return [low, *middle, high], _newest(ledgers)
