"""Every endpoint method of :class:`~ledgerkit.Client` and :class:`~ledgerkit.AsyncClient`,
declared once (see :mod:`~ledgerkit.client._declare`).

A one-request method is its request builder of :mod:`ledgerkit.client.calls`, where the
signature, docstring, route, parameters, decoder and cache policy of each operation are
written together (``@endpoint``): the body of :class:`Endpoints` names it, one line each.
The walks over pages (``iter_*``, ``@paged``) are written here: a pager of ``_declare``
over those builders. Read from a ``Client`` each is a method answering a :class:`Result`;
from an ``AsyncClient``, the same method awaited (``iter_*``: an async iterator). The
multi-step methods are the flows of ``_flows``.
"""

from __future__ import annotations

# The walks' return annotations name Result, Iterator and AsyncIterator (see _declare):
# imported here too, where typing.get_type_hints looks them up.
from collections.abc import AsyncIterator as AsyncIterator
from collections.abc import Callable
from collections.abc import Iterator as Iterator

from ledgerkit._errors import InputError
from ledgerkit.client import calls
from ledgerkit.client._answers import event_sequence_number, transaction_version
from ledgerkit.client._block_walk import BlockRangePager
from ledgerkit.client._call import Call
from ledgerkit.client._declare import (
    CursorPager,
    EventPager,
    Pager,
    VersionRangePager,
    paged,
)
from ledgerkit.models import (
    Block,
    Event,
    MoveModuleBytecode,
    MoveResource,
    Transaction,
    TransactionSummary,
)
from ledgerkit.types import Address, StructTag
from ledgerkit.types import Result as Result

__all__ = ["Endpoints"]


def _event_stream(
    address: str | Address,
    creation_number: int | None,
    event_handle: str | StructTag | None,
    field_name: str | None,
) -> Callable[[int | None, int | None], Call[list[Event]]]:
    """The page maker of one event stream, named by creation number or by handle and field.

    The inputs are checked now, so a bad one fails at the call that starts the walk.
    """
    if creation_number is not None and event_handle is None and field_name is None:
        number = creation_number
        calls.events_by_creation_number(address, number)
        return lambda start, limit: calls.events_by_creation_number(
            address, number, start=start, limit=limit
        )
    if creation_number is None and event_handle is not None and field_name is not None:
        handle, field = event_handle, field_name
        calls.events_by_handle(address, handle, field)
        return lambda start, limit: calls.events_by_handle(
            address, handle, field, start=start, limit=limit
        )
    raise InputError("name the stream by creation_number, or by event_handle and field_name")


class Endpoints:
    """The endpoint methods of both clients (see :class:`~ledgerkit.Client`)."""

    # -- general -------------------------------------------------------------------------

    ledger_info = calls.ledger_info
    health = calls.health

    # -- accounts ------------------------------------------------------------------------

    account = calls.account
    account_resources = calls.account_resources

    @paged
    def iter_account_resources(
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> Pager[MoveResource]:
        """Every resource of the account, following the cursor to the last page.

        Pages after the first are read at the first page's ledger version, so the walk
        sees one state of the account.

        Yields
        ------
        Result[MoveResource]
            One per resource, with the metadata of its page.
        """
        return CursorPager(
            lambda version, cursor: calls.account_resources(
                address, ledger_version=version, start=cursor, limit=limit
            ),
            ledger_version,
        )

    account_resource = calls.account_resource
    account_resource_bcs = calls.account_resource_bcs
    account_modules = calls.account_modules

    @paged
    def iter_account_modules(
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> Pager[MoveModuleBytecode]:
        """Every module of the account, following the cursor to the last page."""
        return CursorPager(
            lambda version, cursor: calls.account_modules(
                address, ledger_version=version, start=cursor, limit=limit
            ),
            ledger_version,
        )

    account_module = calls.account_module
    account_module_bytecode = calls.account_module_bytecode
    account_balance = calls.account_balance
    account_transactions = calls.account_transactions
    account_transactions_bcs = calls.account_transactions_bcs
    account_transaction_summaries = calls.account_transaction_summaries

    @paged
    def iter_account_transaction_summaries(
        address: str | Address,
        start_version: int = 0,
        stop_version: int | None = None,
        *,
        limit: int = 100,
    ) -> Pager[TransactionSummary]:
        """Summaries of every transaction the account sent with a version in
        ``[start_version, stop_version)``, page after page (default stop: the ledger
        version of the first answer plus one)."""
        return VersionRangePager(
            lambda first, size: calls.account_transaction_summaries(
                address, start_version=first, limit=size
            ),
            lambda summary: summary.version,
            start=start_version,
            stop=stop_version,
            limit=limit,
        )

    # -- events --------------------------------------------------------------------------

    events_by_creation_number = calls.events_by_creation_number
    events_by_handle = calls.events_by_handle

    @paged
    def iter_events(
        address: str | Address,
        creation_number: int | None = None,
        *,
        event_handle: str | StructTag | None = None,
        field_name: str | None = None,
        start: int | None = None,
        limit: int | None = None,
        forward: bool = False,
    ) -> Pager[Event]:
        """Walk an event stream by sequence number, newest first (or oldest first).

        Name the stream by ``creation_number``, or by ``event_handle`` and ``field_name``.

        Parameters
        ----------
        start : int, optional
            Sequence number to start from (inclusive): default the newest event, or 0
            when ``forward``.
        limit : int, optional
            Page size to ask for. The node's own page size wins when it is smaller: the
            walk learns it from the pages it gets and never skips an event.
        forward : bool
            Oldest first instead of newest first.
        """
        make = _event_stream(address, creation_number, event_handle, field_name)
        return EventPager(make, event_sequence_number, start=start, limit=limit, forward=forward)

    # -- transactions --------------------------------------------------------------------

    transactions = calls.transactions

    @paged
    def iter_transactions(
        start: int = 0, stop: int | None = None, *, limit: int = 100
    ) -> Pager[Transaction]:
        """Every committed transaction with a version in ``[start, stop)``.

        Parameters
        ----------
        start : int
            First version.
        stop : int, optional
            Version to stop before; default (or past the ledger's head): the ledger
            version of the first answer plus one.
        limit : int
            Page size to ask for (the node may serve fewer).
        """
        return VersionRangePager(
            lambda first, size: calls.transactions(start=first, limit=size),
            transaction_version,
            start=start,
            stop=stop,
            limit=limit,
        )

    transaction_by_version = calls.transaction_by_version
    transaction_by_hash = calls.transaction_by_hash
    wait_transaction_by_hash = calls.wait_transaction_by_hash
    transaction_by_version_bcs = calls.transaction_by_version_bcs
    transaction_by_hash_bcs = calls.transaction_by_hash_bcs
    transactions_bcs = calls.transactions_bcs
    transactions_auxiliary_info = calls.transactions_auxiliary_info
    submit_transaction = calls.submit_transaction
    submit_batch_transactions = calls.submit_batch_transactions
    simulate_transaction = calls.simulate_transaction
    table_item = calls.table_item
    raw_table_item = calls.raw_table_item

    # -- gas, view, blocks ---------------------------------------------------------------

    estimate_gas_price = calls.estimate_gas_price
    view_json = calls.view_json
    view_bcs = calls.view_bcs
    block_by_height = calls.block_by_height
    block_by_version = calls.block_by_version

    @paged
    def iter_blocks(
        start_height: int = 0,
        end_height: int | None = None,
        *,
        with_transactions: bool = False,
        progress: bool | None = None,
    ) -> Pager[Block]:
        """Every block with a height in ``[start_height, end_height)``, in height order.

        One request per block (the node serves no page of blocks), after a ``GET /`` that
        bounds the walk by the head: it never runs after a growing chain.

        Parameters
        ----------
        start_height : int
            First height.
        end_height : int, optional
            Height to stop before; default (or past the head): the head's height, as the
            first answer gives it, plus one.
        with_transactions : bool
            Each block with its transactions (the node may cap them; see
            :meth:`block_by_height`).
        progress : bool, optional
            A ``tqdm`` bar: by default for ranges of 200 blocks or more, when stderr is a
            terminal or in Jupyter; ``True`` always, ``False`` never.

        Raises
        ------
        BlockPrunedError
            ``start_height`` is older than the node keeps (and no archive answers).

        Examples
        --------
        >>> for block, _ in client.iter_blocks(100, 110):  # doctest: +SKIP
        ...     print(block.block_height, block.last_version - block.first_version + 1)
        """
        return BlockRangePager(
            start_height, end_height, with_transactions=with_transactions, progress=progress
        )
