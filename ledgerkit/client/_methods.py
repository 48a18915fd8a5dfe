"""Every endpoint method of :class:`~ledgerkit.Client` and :class:`~ledgerkit.AsyncClient`,
declared once (see :mod:`~ledgerkit.client._declare`).

Each declaration is the method's request builder: the public signature and docstring,
and a body that returns the :class:`Call` to send (built by its operation's function in
:mod:`ledgerkit.client.calls`, where the route, parameters, decoder and cache policy of
each operation are written together) or, for the ``iter_*`` walks, a pager
(``_declare``). Read from a ``Client`` each is a method answering a :class:`Result`; from
an ``AsyncClient``, the same method awaited (``iter_*``: an async iterator). The
multi-step methods are the flows of ``_flows``.
"""

from __future__ import annotations

# The methods' return annotations name Result, Iterator and AsyncIterator (see _declare):
# imported here too, where typing.get_type_hints looks them up.
from collections.abc import AsyncIterator as AsyncIterator
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Iterator as Iterator
from typing import Any

from ledgerkit.bcs import (
    EntryFunction,
    RawTransaction,
    SignedTransaction,
    TransactionData,
    TransactionOnChainData,
)
from ledgerkit.client import _answers as dec
from ledgerkit.client import calls
from ledgerkit.client._block_walk import BlockRangePager
from ledgerkit.client._declare import (
    CursorPager,
    EventPager,
    Pager,
    VersionRangePager,
    endpoint,
    paged,
)
from ledgerkit.client.calls import Call
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
    UserTransaction,
)
from ledgerkit.types import Address, EntryFunctionId, MoveType, StructTag
from ledgerkit.types import Result as Result

__all__ = ["Endpoints"]


class Endpoints:
    """The endpoint methods of both clients (see :class:`~ledgerkit.Client`)."""

    # -- general -------------------------------------------------------------------------

    @endpoint
    def ledger_info() -> Call[LedgerInfo]:
        """The ledger's current position: chain id, epoch, versions, block heights, role.

        Returns
        -------
        Result[LedgerInfo]
            Never served from the cache.
        """
        return calls.ledger_info()

    @endpoint
    def health(duration_secs: int | None = None) -> Call[HealthStatus]:
        """Check the node is alive; with ``duration_secs``, that its ledger is fresh.

        Parameters
        ----------
        duration_secs : int, optional
            Fail unless the latest ledger timestamp is at most this many seconds old.

        Raises
        ------
        HealthCheckFailedError
            503: the ledger is older than that (never retried).
        """
        return calls.health(duration_secs)

    # -- accounts ------------------------------------------------------------------------

    @endpoint
    def account(address: str | Address, *, ledger_version: int | None = None) -> Call[AccountData]:
        """The account's sequence number and authentication key.

        Parameters
        ----------
        address : str or Address
            Long or short form, with or without ``0x``.
        ledger_version : int, optional
            Read the state at this version (default: the latest). Answers at an explicit
            version are cached.

        Raises
        ------
        AccountNotFoundError
            No account there (at that version).
        VersionPrunedError
            The version is older than the node keeps.
        """
        return calls.account(address, ledger_version)

    @endpoint
    def account_resources(
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Call[list[MoveResource]]:
        """One page of the account's resources.

        Parameters
        ----------
        address : str or Address
            The account.
        ledger_version : int, optional
            Read at this version (default: the latest).
        start : str, optional
            The cursor of the page, from ``result.ledger.cursor`` of the previous one.
        limit : int, optional
            Page size asked for (the node may serve fewer).

        Returns
        -------
        Result[list[MoveResource]]
            ``ledger.cursor`` is the next page's ``start``, ``None`` on the last page.
            :meth:`iter_account_resources` follows it for you.
        """
        return calls.account_resources(address, ledger_version, start, limit)

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
            lambda version, cursor: calls.account_resources(address, version, cursor, limit),
            ledger_version,
        )

    @endpoint
    def account_resource(
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Call[MoveResource]:
        """One resource of the account, by struct tag (``0x1::coin::CoinStore<...>``).

        Raises
        ------
        ResourceNotFoundError
            The account holds no such resource.
        """
        return calls.account_resource(address, resource_type, ledger_version)

    @endpoint
    def account_resource_bcs(
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Call[bytes]:
        """The BCS bytes of one resource of the account (decode with ``MoveValueCodec``)."""
        return calls.account_resource_bcs(address, resource_type, ledger_version)

    @endpoint
    def account_modules(
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Call[list[MoveModuleBytecode]]:
        """One page of the modules the account publishes (bytecode and ABI).

        ``ledger.cursor`` of the result is the next page's ``start``; see
        :meth:`iter_account_modules`.
        """
        return calls.account_modules(address, ledger_version, start, limit)

    @paged
    def iter_account_modules(
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> Pager[MoveModuleBytecode]:
        """Every module of the account, following the cursor to the last page."""
        return CursorPager(
            lambda version, cursor: calls.account_modules(address, version, cursor, limit),
            ledger_version,
        )

    @endpoint
    def account_module(
        address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Call[MoveModuleBytecode]:
        """One module of the account by name, with its ABI.

        Raises
        ------
        MoveModuleNotFoundError
            The account publishes no module of that name.
        """
        return calls.account_module(address, module_name, ledger_version)

    @endpoint
    def account_module_bytecode(
        address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Call[bytes]:
        """The module's bytecode, as the node's BCS answer."""
        return calls.account_module_bytecode(address, module_name, ledger_version)

    @endpoint
    def account_balance(
        address: str | Address,
        asset: str | Address | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Call[int]:
        """The account's balance of a coin (struct tag) or fungible asset (metadata address),
        in its primary store, as an exact ``int``."""
        return calls.account_balance(address, asset, ledger_version)

    @endpoint
    def account_transactions(
        address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Call[list[Transaction]]:
        """The account's committed transactions by sequence number, from ``start`` (default 0)."""
        return calls.account_transactions(address, start, limit)

    @endpoint
    def account_transactions_bcs(
        address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Call[list[TransactionOnChainData]]:
        """The account's committed transactions from sequence number ``start``, from BCS."""
        return calls.account_transactions_bcs(address, start, limit)

    # -- events --------------------------------------------------------------------------

    @endpoint
    def events_by_creation_number(
        address: str | Address,
        creation_number: int,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Call[list[Event]]:
        """One page of an event stream named by the account and its creation number.

        Parameters
        ----------
        start : int, optional
            First sequence number (default: the newest page).
        limit : int, optional
            Events asked for; the node may serve fewer.
        """
        return calls.events_by_creation_number(address, creation_number, start, limit)

    @endpoint
    def events_by_handle(
        address: str | Address,
        event_handle: str | StructTag,
        field_name: str,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Call[list[Event]]:
        """One page of the event stream held in field ``field_name`` of the resource
        ``event_handle`` of ``address`` (the account the events were emitted to)."""
        return calls.events_by_handle(address, event_handle, field_name, start, limit)

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
        make = calls.event_stream(address, creation_number, event_handle, field_name)
        return EventPager(
            make, dec.event_sequence_number, start=start, limit=limit, forward=forward
        )

    # -- transactions --------------------------------------------------------------------

    @endpoint
    def transactions(
        *, start: int | None = None, limit: int | None = None
    ) -> Call[list[Transaction]]:
        """One page of committed transactions from version ``start`` (default: the newest)."""
        return calls.transactions(start, limit)

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
            lambda first, size: calls.transactions(first, size),
            dec.transaction_version,
            start=start,
            stop=stop,
            limit=limit,
        )

    @endpoint
    def transaction_by_version(version: int) -> Call[Transaction]:
        """The transaction at ``version`` (cached once committed).

        Raises
        ------
        TransactionNotFoundError
            Past the ledger's head.
        VersionPrunedError
            Older than the node keeps.
        """
        return calls.transaction_by_version(version)

    @endpoint
    def transaction_by_hash(txn_hash: str | bytes) -> Call[Transaction]:
        """The transaction with this hash: committed, or still pending in the mempool."""
        return calls.transaction_by_hash(txn_hash)

    @endpoint
    def transaction_by_version_bcs(version: int) -> Call[TransactionData]:
        """The transaction at ``version`` as the node's BCS ``TransactionData`` (its
        ``.onchain`` holds the ledger transaction, info, events and write set; ``.bytes``
        the answer as received)."""
        return calls.transaction_by_version_bcs(version)

    @endpoint
    def transaction_by_hash_bcs(txn_hash: str | bytes) -> Call[TransactionData]:
        """The transaction with this hash as BCS ``TransactionData``: ``.onchain`` once
        committed, ``.pending`` (the signed transaction) while it waits."""
        return calls.transaction_by_hash_bcs(txn_hash)

    @endpoint
    def transactions_bcs(
        *, start: int | None = None, limit: int | None = None
    ) -> Call[list[TransactionOnChainData]]:
        """One page of committed transactions from version ``start``, decoded from BCS."""
        return calls.transactions_bcs(start, limit)

    @endpoint
    def transactions_auxiliary_info(
        start_version: int, *, limit: int | None = None
    ) -> Call[list[AuxiliaryInfo]]:
        """Auxiliary info (the index within its block) of transactions from ``start_version``."""
        return calls.transactions_auxiliary_info(start_version, limit)

    @endpoint
    def submit_transaction(
        signed: SignedTransaction | Mapping[str, Any],
    ) -> Call[PendingTransaction]:
        """Submit a signed transaction: as BCS, or, given its JSON request (with its
        ``signature``, e.g. from ``EncodedSubmission.json_submission``), as JSON. Sent
        exactly once, never retried.

        Returns
        -------
        Result[PendingTransaction]
            Its ``hash`` is what :meth:`wait_for_transaction` takes.

        Raises
        ------
        TransactionRejectedError
            ``VMError``, ``SequenceNumberTooOldError``, ``MempoolFullError``...
        """
        return calls.submit_transaction(signed)

    @endpoint
    def submit_batch_transactions(signed: Sequence[SignedTransaction]) -> Call[BatchSubmitResult]:
        """Submit several signed transactions in one request. Sent exactly once.

        Each is admitted as :meth:`submit_transaction` would admit it; one refused does
        not stop the others. Nodes take a limited number per batch (10 by default).

        Returns
        -------
        Result[BatchSubmitResult]
            ``transaction_failures`` lists the refused ones by position, each with its
            error record and, as ``.exception``, the error a single submission would
            have raised; empty when all were accepted.

        Raises
        ------
        InvalidInputError
            A transaction does not parse, or the batch is larger than the node takes.
        MempoolFullError
            507: the mempool took none of them.
        """
        return calls.submit_batch_transactions(signed)

    @endpoint
    def simulate_transaction(
        transaction: SignedTransaction | RawTransaction,
        *,
        public_key: object = None,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> Call[list[UserTransaction]]:
        """Execute a transaction without committing it; gas used is in ``ledger.gas_used``.

        Parameters
        ----------
        transaction : SignedTransaction or RawTransaction
            A signed transaction whose signature does not verify (nodes refuse valid
            ones), or a raw one with ``public_key``: it is then signed with zeros.
        public_key : bytes, str or key, optional
            The sender's Ed25519 public key (or its private key), for a raw transaction.
        estimate_max_gas_amount, estimate_gas_unit_price, estimate_prioritized_gas_unit_price
            Let the node replace the max gas amount or the gas unit price by its estimate.
        """
        return calls.simulate_transaction(
            transaction,
            public_key,
            estimate_max_gas_amount=estimate_max_gas_amount,
            estimate_gas_unit_price=estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price=estimate_prioritized_gas_unit_price,
        )

    @endpoint
    def table_item(
        handle: str | Address,
        key_type: str | MoveType,
        value_type: str | MoveType,
        key: Any,
        *,
        ledger_version: int | None = None,
    ) -> Call[Any]:
        """A table item by its key in JSON form; the value in JSON form.

        Raises
        ------
        TableItemNotFoundError
            No item under that key.
        """
        return calls.table_item(handle, key_type, value_type, key, ledger_version)

    @endpoint
    def raw_table_item(
        handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
    ) -> Call[bytes]:
        """A table item by the BCS bytes of its key; the BCS bytes of its value."""
        return calls.raw_table_item(handle, key, ledger_version)

    # -- gas, view, blocks ---------------------------------------------------------------

    @endpoint
    def estimate_gas_price() -> Call[GasEstimate]:
        """The node's gas unit price estimates (deprioritized, regular, prioritized)."""
        return calls.estimate_gas_price()

    @endpoint
    def view_json(
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Call[list[Any]]:
        """Call a view function with arguments in JSON form; its return values in JSON form.

        :meth:`view` takes and gives Python values, checked against the function's ABI.

        Parameters
        ----------
        function : str, EntryFunctionId or EntryFunction
            ``"0x1::coin::balance"``; an ``EntryFunction`` (BCS arguments) is sent as BCS.
        type_arguments : iterable of str or MoveType
            Type arguments.
        arguments : sequence
            Arguments in JSON form (u64 and wider as strings).
        ledger_version : int, optional
            Run at this version (answers are then cached).
        """
        return calls.view(function, type_arguments, arguments, ledger_version)

    @endpoint
    def view_bcs(
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Call[bytes]:
        """Call a view function; the BCS of its return values (a ULEB128 count, then each)."""
        return calls.view_bcs(function, type_arguments, arguments, ledger_version)

    @endpoint
    def block_by_height(height: int, *, with_transactions: bool = False) -> Call[Block]:
        """The block at ``height``, with its transactions when asked (the node may cap
        them; a capped block is not cached).

        Raises
        ------
        BlockNotFoundError, BlockPrunedError
            Past the head, or older than the node keeps.
        """
        return calls.block_by_height(height, with_transactions)

    @endpoint
    def block_by_version(version: int, *, with_transactions: bool = False) -> Call[Block]:
        """The block holding the transaction at ``version``."""
        return calls.block_by_version(version, with_transactions)

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
