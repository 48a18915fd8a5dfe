"""Concurrent, checked fetching of a key range: transactions (or the events they carry) by
version, blocks by height, the events of one stream by sequence number.

A range is cut into pages that are fetched at once over one :class:`~ledgerkit.AsyncClient`
(its ``max_concurrency``, ``max_rps`` and retries apply to every page). A page the node
answers short is continued from where it stopped; the pieces are then deduplicated by key
and checked: every key of the range exactly once, or :class:`IncompleteExtractionError`.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import itertools
import operator
import sys
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Final, ParamSpec, Protocol, TypeVar

import httpx

from ledgerkit._errors import IncompleteExtractionError, InputError, RangeBeyondLedgerError
from ledgerkit.client import AiohttpTransport, AsyncClient, calls
from ledgerkit.extract._blocks import BLOCKS_PER_PAGE, PAGE_LIMIT, blocks_page
from ledgerkit.extract._ranges import compact, pages
from ledgerkit.models import decode_transaction_events, decode_transaction_rows
from ledgerkit.types import Address, LedgerMeta, parse_uint

__all__ = [
    "Plan",
    "Source",
    "blocking_twin",
    "bulk_transport",
    "check_available",
    "check_ends",
    "check_range",
    "fetch_range",
    "first_error",
    "held_from",
    "resolve_ends",
    "run_sync",
    "stream_range",
]

T = TypeVar("T")
P = ParamSpec("P")

#: Largest page the node API serves for transactions and events.
PAGE_SIZE: Final = PAGE_LIMIT


class Counter(Protocol):
    def update(self, n: float | None = ...) -> bool | None: ...


@dataclass(slots=True)
class Plan:
    """Where a range's pages are read: keys below ``oldest`` (what the node no longer
    keeps, as it said when the run began) from the archive straight away, the others from
    the node (which sends on to the archive a page it has pruned meanwhile); ``served``
    counts the records each node (its API root as shown) answered."""

    oldest: int = 0
    served: collections.Counter[str] = field(default_factory=collections.Counter)


@dataclass(frozen=True, slots=True)
class Source:
    """What a dataset is made of and how one page of it is fetched.

    Attributes
    ----------
    kind : str
        ``"transactions"``, ``"transaction_events"``, ``"blocks"`` or ``"events"``.
    key_name : str
        The key the range is over (``version``, ``block_height``, ``sequence_number``).
    page_size : int
        Keys asked per request (for blocks, per run of blocks read together: see
        :mod:`ledgerkit.extract._blocks`).
    stream : dict or None
        The event stream (``address``, ``creation_number``) for events.
    rows : bool
        Transactions as the rows of their frame
        (:func:`ledgerkit.models.decode_transaction_rows`, read straight from the page's
        bytes), not as full records: for datasets, which keep only the frame.
    reads : str, optional
        What the node is asked for, when the dataset is made of something else: an
        ``"activity"`` dataset reads ``"transactions"``.
    """

    kind: str
    key_name: str
    page_size: int
    stream: dict[str, Any] | None = None
    rows: bool = False
    reads: str | None = None

    @property
    def node_kind(self) -> str:
        """What the node is asked for: ``"transactions"``, ``"blocks"`` or ``"events"``."""
        return self.reads or self.kind

    @property
    def key(self) -> Callable[[Any], int]:
        """The function that reads a record's key."""
        return operator.attrgetter(self.key_name)

    @property
    def holds_genesis(self) -> bool:
        """Whether a page's records are transactions with their hashes, or blocks with
        their first transaction, so that the page of version 0 (of height 0) names the
        chain (:meth:`genesis_in`)."""
        if self.kind == "blocks":
            return True
        return self.node_kind == "transactions" and self.kind != "transaction_events"

    def genesis_in(self, records: list[Any]) -> tuple[int, str] | None:
        """The version and hash of the genesis transaction when ``records`` (in key order)
        start with it, or with the genesis block holding it; None otherwise."""
        if not self.holds_genesis or not records:
            return None
        first = records[0]
        if self.kind == "blocks":
            held = first.transactions or [None]
            if first.block_height != 0 or held[0] is None:
                return None
            first = held[0]
        found = getattr(first, "hash", None)
        if getattr(first, "version", None) != 0 or not isinstance(found, str):
            return None
        return 0, found

    async def page(
        self, client: AsyncClient, first: int, stop: int, *, archive: bool = False
    ) -> tuple[list[Any], LedgerMeta]:
        """Records of ``[first, stop)`` as far as one request gets them; from the
        client's archive straight away when ``archive`` (older than the node keeps)."""
        if self.node_kind == "transactions" and self.rows:
            page = calls.transactions(start=first, limit=stop - first)
            rows = await client.send(page, decoder=decode_transaction_rows, archive=archive)
            return list(rows.value), rows.ledger
        if self.node_kind == "transactions":
            result = await client.send(
                calls.transactions(start=first, limit=stop - first), archive=archive
            )
            return list(result.value), result.ledger
        if self.kind == "transaction_events":
            page = calls.transactions(start=first, limit=stop - first)
            found = await client.send(page, decoder=decode_transaction_events, archive=archive)
            return list(found.value), found.ledger
        if self.node_kind == "events":
            assert self.stream is not None
            call = calls.events_by_creation_number(
                self.stream["address"],
                self.stream["creation_number"],
                start=first,
                limit=stop - first,
            )
            events = await client.send(call, archive=archive)
            return list(events.value), events.ledger
        return await blocks_page(client, first, stop, archive=archive)


def transactions_source(*, rows: bool = False) -> Source:
    return Source("transactions", "version", PAGE_SIZE, rows=rows)


def transaction_events_source() -> Source:
    """The events transactions carry, read from pages of transactions, keyed by version."""
    return Source("transaction_events", "version", PAGE_SIZE)


def blocks_source() -> Source:
    return Source("blocks", "block_height", BLOCKS_PER_PAGE)


def events_source(address: str | Address, creation_number: int) -> Source:
    canonical = Address.parse(address).long  # as manifests on disk already name streams
    number = parse_uint(creation_number, 64, what="creation_number")
    stream = {"address": canonical, "creation_number": number}
    return Source("events", "sequence_number", PAGE_SIZE, stream)


def bulk_transport(concurrency: int) -> httpx.AsyncBaseTransport:
    """The transport of an extraction's client by default: aiohttp (HTTP parsing in C; see
    ``ledgerkit.client.AiohttpTransport``), ``concurrency`` connections at most."""
    return AiohttpTransport(max_connections=concurrency)


async def check_available(client: AsyncClient, source: Source, stop: int) -> LedgerMeta:
    """Ask the node where its ledger stands; a range past the head is refused."""
    _, head = await client.ledger_info()
    available = {
        "version": head.ledger_version + 1,
        "block_height": head.block_height + 1,
    }.get(source.key_name)
    if available is not None and stop > available:
        raise RangeBeyondLedgerError(source.node_kind, stop, available)
    return head


#: The ends of a range that are read from the node when a run begins.
ENDS: Final = {"start": "oldest", "stop": "head"}


def check_ends(source: Source, start: int | str, stop: int | str) -> None:
    """Refuse a range before anything is sent: ``start`` an int or ``"oldest"``, ``stop``
    an int or ``"head"`` (transactions and blocks only), and ints in order."""
    for name, value in (("start", start), ("stop", stop)):
        if isinstance(value, str):
            if value != ENDS[name]:
                raise InputError(f"{name} must be an integer or {ENDS[name]!r}, got {value!r}")
            if source.node_kind == "events":
                raise InputError(
                    f"{name}={value!r} is for transactions and blocks; an event stream's "
                    "range is given in sequence numbers"
                )
    if isinstance(start, int) and isinstance(stop, int):
        check_range(start, stop)
    elif isinstance(start, int) and (isinstance(start, bool) or start < 0):
        check_range(start, start + 1)


def held_from(source: Source, head: LedgerMeta) -> int:
    """The first key the node still keeps (0 for event streams)."""
    return {
        "version": head.oldest_ledger_version,
        "block_height": head.oldest_block_height,
    }.get(source.key_name, 0)


def resolve_ends(
    source: Source, start: int | str, stop: int | str, head: LedgerMeta
) -> tuple[int, int]:
    """``oldest`` and ``head`` as keys, from where the node stood (``head``)."""
    first = held_from(source, head) if isinstance(start, str) else start
    if isinstance(stop, str):
        last = head.ledger_version if source.key_name == "version" else head.block_height
        return first, last + 1
    return first, stop


def check_range(start: int, stop: int) -> None:
    """Refuse an empty or negative range before anything is sent."""
    if isinstance(start, bool) or isinstance(stop, bool) or start < 0:
        raise InputError(f"start must be a non-negative integer, got {start!r}")
    if stop <= start:
        raise InputError(f"stop must be greater than start, got start={start} stop={stop}")


async def _fetch_page(
    client: AsyncClient,
    source: Source,
    first: int,
    stop: int,
    bar: Counter | None,
    plan: Plan,
) -> tuple[list[Any], int]:
    """One page, continued while the node answers short and stops making progress."""
    got: list[Any] = []
    seen_version = 0
    while first < stop:
        archive = stop <= plan.oldest  # all of it older than the node keeps
        records, ledger = await source.page(client, first, stop, archive=archive)
        seen_version = max(seen_version, ledger.ledger_version)
        if source.key_name == "version":
            # Versions past the head cannot come: leave them to the completeness check.
            stop = min(stop, ledger.ledger_version + 1)
        key = source.key
        useful = [r for r in records if first <= key(r) < stop]
        if not useful:
            break  # nothing more here: the check below names the gap
        got.extend(useful)
        plan.served[ledger.answered_by or client.config.shown_base_url] += len(useful)
        if bar is not None:
            bar.update(len(useful))
        first = max(map(key, useful)) + 1
    return got, seen_version


async def fetch_range(
    client: AsyncClient,
    source: Source,
    start: int,
    stop: int,
    *,
    bar: Counter | None = None,
    sink: Callable[[list[Any]], None] | None = None,
    plan: Plan | None = None,
) -> tuple[list[Any], int]:
    """Every record of ``[start, stop)`` exactly once, in key order: the pages of
    :func:`stream_range` gathered into one list (``sink``, when given, sees each page too).

    Returns the records and the newest ledger version the answers were read at. Raises
    :class:`IncompleteExtractionError` naming the keys that never arrived.
    """
    got: list[Any] = []

    def keep(records: list[Any]) -> None:
        got.extend(records)
        if sink is not None:
            sink(records)

    version = await stream_range(client, source, start, stop, keep, bar=bar, plan=plan)
    return got, version


async def stream_range(
    client: AsyncClient,
    source: Source,
    start: int,
    stop: int,
    sink: Callable[[list[Any]], None],
    *,
    bar: Counter | None = None,
    plan: Plan | None = None,
) -> int:
    """Every record of ``[start, stop)`` exactly once, handed to ``sink`` page by page in
    key order, as soon as every page before has arrived: to work on them while the rest
    comes. Nothing here keeps a page once the sink has it.

    ``plan`` says which keys the node no longer keeps (those pages go to the client's
    archive straight away) and counts the records each node served.

    Returns the newest ledger version the answers were read at. Raises
    :class:`IncompleteExtractionError`, once every page has been asked for, naming the keys
    that never arrived (the pages before and after them have reached the sink).
    """
    check_range(start, stop)
    plan = plan or Plan()
    # A page across the node's oldest key is cut there: the part the node no longer keeps
    # from the archive, the rest from the node (a page that starts too old is refused whole).
    todo = [
        piece
        for first, end in pages(start, stop, source.page_size)
        for piece in (
            [(first, plan.oldest), (plan.oldest, end)]
            if first < plan.oldest < end
            else [(first, end)]
        )
    ]
    answers: list[tuple[list[Any], int] | None] = [None] * len(todo)
    handed = 0  # pages given to the sink
    newest = 0
    gaps: list[int] = []
    key = source.key

    async def page(number: int, first: int, end: int) -> None:
        nonlocal handed, newest
        answers[number] = await _fetch_page(client, source, first, end, bar, plan)
        while handed < len(todo):
            answer = answers[handed]
            if answer is None:
                break  # a page before is still coming
            answers[handed] = None
            low, high = todo[handed]
            handed += 1
            records = _in_key_order(answer[0], key)
            newest = max(newest, answer[1])
            # Each key of a page's records lies in its piece, once: a short page lacks some.
            if len(records) != high - low:
                have = set(map(key, records))
                gaps.extend(k for k in range(low, high) if k not in have)
            sink(records)

    # A task group, not gather: when a page fails, the others are cancelled and awaited
    # here, so that no request is still in flight (its connection left open) when the
    # client closes.
    try:
        async with asyncio.TaskGroup() as group:
            for number, (a, b) in enumerate(todo):
                group.create_task(page(number, a, b))
    except BaseExceptionGroup as failures:
        raise first_error(failures) from None
    if gaps:
        raise IncompleteExtractionError(source.kind, compact(gaps))
    return newest


def _in_key_order(records: list[Any], key: Callable[[Any], int]) -> list[Any]:
    """A page's records sorted by key, each key once (the first copy)."""
    keys = list(map(key, records))
    if all(a < b for a, b in itertools.pairwise(keys)):
        return records  # as nodes send them
    by_key: dict[int, Any] = {}
    for k, record in zip(keys, records, strict=True):
        by_key.setdefault(k, record)
    return [by_key[k] for k in sorted(by_key)]


def first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first failure of a task group, out of any nesting."""
    error = group.exceptions[0]
    return first_error(error) if isinstance(error, BaseExceptionGroup) else error


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end from sync code, even under a running loop (Jupyter)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException:
            box["error"] = sys.exc_info()[1]

    thread = threading.Thread(target=target, name="ledgerkit-extract")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value


def blocking_twin(
    coroutine_function: Callable[P, Coroutine[Any, Any, T]], name: str, doc: str | None = None
) -> Callable[P, T]:
    """``coroutine_function`` run to its end from sync code (:func:`run_sync`), named
    ``name``: the same parameters (``inspect.signature`` and type checkers read them) and
    the same docstring (or ``doc``), so a public pair is written once."""

    @functools.wraps(coroutine_function)
    def blocking(*args: P.args, **kwargs: P.kwargs) -> T:
        return run_sync(coroutine_function(*args, **kwargs))

    blocking.__name__ = blocking.__qualname__ = name
    if doc is not None:
        blocking.__doc__ = doc
    return blocking
