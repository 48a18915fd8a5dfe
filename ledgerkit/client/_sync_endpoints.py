"""Every endpoint of the node API for the synchronous client: what each method asks and
how its answer is read, over the sending half that :class:`~ledgerkit.Client` supplies
(``_send``, ``_walk``). :mod:`ledgerkit.client._async_endpoints` is its twin.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ledgerkit._errors import LedgerError
from ledgerkit.bcs import (
    EntryFunction,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
    TransactionData,
    TransactionOnChainData,
)
from ledgerkit.client import _calls as calls
from ledgerkit.client import _decoders as dec
from ledgerkit.client import _encoding as encoding
from ledgerkit.client import _flows as flows
from ledgerkit.client._base import Call, Result
from ledgerkit.client._limits import Clock
from ledgerkit.client._paging import CursorPager, EventPager, Pager, VersionRangePager
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
from ledgerkit.tx import EncodedSubmission, ModuleAbis, TransactionExplanation
from ledgerkit.types import Address, EntryFunctionId, MoveType, StructTag

__all__ = ["SyncEndpoints"]

T = TypeVar("T")


class SyncEndpoints:
    """The endpoint methods of :class:`~ledgerkit.Client` (see its docstring)."""

    # What the client supplies (``Client``): its clock, and how it sends and walks pages.
    _clock: Clock
    if TYPE_CHECKING:

        def _send(self, call: Call[T]) -> Result[T]: ...

        def _walk(self, pager: Pager[T]) -> Iterator[Result[T]]: ...

    def _drive(self, flow: flows.Flow[T]) -> T:
        """Run a flow of :mod:`~ledgerkit.client._flows` to its end: send its calls,
        wait its pauses, and return what it returns."""
        try:
            step = next(flow)
            while True:
                if isinstance(step, flows.Pause):
                    if step.seconds > 0:
                        self._clock.sleep(step.seconds)
                    step = flow.send(self._clock.monotonic())
                    continue
                try:
                    result = self._send(step)
                except LedgerError as exc:
                    step = flow.throw(exc)
                else:
                    step = flow.send(result)
        except StopIteration as stop:
            value: T = stop.value
            return value
        finally:
            flow.close()

    # -- general -------------------------------------------------------------------------

    def ledger_info(self) -> Result[LedgerInfo]:
        """The ledger's current position: chain id, epoch, versions, block heights, role.

        Returns
        -------
        Result[LedgerInfo]
            Never served from the cache.
        """
        return self._send(calls.ledger_info())

    def health(self, duration_secs: int | None = None) -> Result[HealthStatus]:
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
        return self._send(calls.health(duration_secs))

    # -- accounts ------------------------------------------------------------------------

    def account(
        self, address: str | Address, *, ledger_version: int | None = None
    ) -> Result[AccountData]:
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
        return self._send(calls.account(address, ledger_version))

    def account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[MoveResource]]:
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
        return self._send(calls.account_resources(address, ledger_version, start, limit))

    def iter_account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> Iterator[Result[MoveResource]]:
        """Every resource of the account, following the cursor to the last page.

        Pages after the first are read at the first page's ledger version, so the walk
        sees one state of the account.

        Yields
        ------
        Result[MoveResource]
            One per resource, with the metadata of its page.
        """
        pager = CursorPager(
            lambda version, cursor: calls.account_resources(address, version, cursor, limit),
            ledger_version,
        )
        return self._walk(pager)

    def account_resource(
        self,
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[MoveResource]:
        """One resource of the account, by struct tag (``0x1::coin::CoinStore<...>``).

        Raises
        ------
        ResourceNotFoundError
            The account holds no such resource.
        """
        return self._send(calls.account_resource(address, resource_type, ledger_version))

    def account_resource_bcs(
        self,
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[bytes]:
        """The BCS bytes of one resource of the account (decode with ``MoveValueCodec``)."""
        return self._send(calls.account_resource_bcs(address, resource_type, ledger_version))

    def account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[MoveModuleBytecode]]:
        """One page of the modules the account publishes (bytecode and ABI).

        ``ledger.cursor`` of the result is the next page's ``start``; see
        :meth:`iter_account_modules`.
        """
        return self._send(calls.account_modules(address, ledger_version, start, limit))

    def iter_account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> Iterator[Result[MoveModuleBytecode]]:
        """Every module of the account, following the cursor to the last page."""
        pager = CursorPager(
            lambda version, cursor: calls.account_modules(address, version, cursor, limit),
            ledger_version,
        )
        return self._walk(pager)

    def account_module(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[MoveModuleBytecode]:
        """One module of the account by name, with its ABI.

        Raises
        ------
        MoveModuleNotFoundError
            The account publishes no module of that name.
        """
        return self._send(calls.account_module(address, module_name, ledger_version))

    def account_module_bytecode(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        """The module's bytecode, as the node's BCS answer."""
        return self._send(calls.account_module_bytecode(address, module_name, ledger_version))

    def account_balance(
        self,
        address: str | Address,
        asset: str | Address | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[int]:
        """The account's balance of a coin (struct tag) or fungible asset (metadata address),
        in its primary store, as an exact ``int``."""
        return self._send(calls.account_balance(address, asset, ledger_version))

    def account_transactions(
        self, address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[Transaction]]:
        """The account's committed transactions by sequence number, from ``start`` (default 0)."""
        return self._send(calls.account_transactions(address, start, limit))

    def account_transactions_bcs(
        self, address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[TransactionOnChainData]]:
        """The account's committed transactions from sequence number ``start``, from BCS."""
        return self._send(calls.account_transactions_bcs(address, start, limit))

    # -- events --------------------------------------------------------------------------

    def events_by_creation_number(
        self,
        address: str | Address,
        creation_number: int,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[list[Event]]:
        """One page of an event stream named by the account and its creation number.

        Parameters
        ----------
        start : int, optional
            First sequence number (default: the newest page).
        limit : int, optional
            Events asked for; the node may serve fewer.
        """
        return self._send(calls.events_by_creation_number(address, creation_number, start, limit))

    def events_by_handle(
        self,
        address: str | Address,
        event_handle: str | StructTag,
        field_name: str,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[list[Event]]:
        """One page of the event stream held in field ``field_name`` of the resource
        ``event_handle`` of ``address`` (the account the events were emitted to)."""
        call = calls.events_by_handle(address, event_handle, field_name, start, limit)
        return self._send(call)

    def iter_events(
        self,
        address: str | Address,
        creation_number: int | None = None,
        *,
        event_handle: str | StructTag | None = None,
        field_name: str | None = None,
        start: int | None = None,
        limit: int | None = None,
        forward: bool = False,
    ) -> Iterator[Result[Event]]:
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
        pager = EventPager(
            make, dec.event_sequence_number, start=start, limit=limit, forward=forward
        )
        return self._walk(pager)

    # -- transactions --------------------------------------------------------------------

    def transactions(
        self, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[Transaction]]:
        """One page of committed transactions from version ``start`` (default: the newest)."""
        return self._send(calls.transactions(start, limit))

    def iter_transactions(
        self, start: int = 0, stop: int | None = None, *, limit: int = 100
    ) -> Iterator[Result[Transaction]]:
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
        pager = VersionRangePager(
            lambda first, size: calls.transactions(first, size),
            dec.transaction_version,
            start=start,
            stop=stop,
            limit=limit,
        )
        return self._walk(pager)

    def transaction_by_version(self, version: int) -> Result[Transaction]:
        """The transaction at ``version`` (cached once committed).

        Raises
        ------
        TransactionNotFoundError
            Past the ledger's head.
        VersionPrunedError
            Older than the node keeps.
        """
        return self._send(calls.transaction_by_version(version))

    def transaction_by_hash(self, txn_hash: str | bytes) -> Result[Transaction]:
        """The transaction with this hash: committed, or still pending in the mempool."""
        return self._send(calls.transaction_by_hash(txn_hash))

    def transaction_by_version_bcs(self, version: int) -> Result[TransactionData]:
        """The transaction at ``version`` as the node's BCS ``TransactionData`` (its
        ``.onchain`` holds the ledger transaction, info, events and write set; ``.bytes``
        the answer as received)."""
        return self._send(calls.transaction_by_version_bcs(version))

    def transaction_by_hash_bcs(self, txn_hash: str | bytes) -> Result[TransactionData]:
        """The transaction with this hash as BCS ``TransactionData``: ``.onchain`` once
        committed, ``.pending`` (the signed transaction) while it waits."""
        return self._send(calls.transaction_by_hash_bcs(txn_hash))

    def transactions_bcs(
        self, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[TransactionOnChainData]]:
        """One page of committed transactions from version ``start``, decoded from BCS."""
        return self._send(calls.transactions_bcs(start, limit))

    def explain(
        self, txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes
    ) -> TransactionExplanation:
        """A transaction's bytes explained field by field, entry-function arguments typed
        by the called function's ABI (fetched once per module and kept).

        Parameters
        ----------
        txn : RawTransaction, SignedTransaction, TransactionData, int or str
            A transaction built here, or the version (int) or hash of one on the ledger
            (then read as BCS: committed, or pending).

        Examples
        --------
        >>> explanation = client.explain(3)  # doctest: +SKIP
        >>> print(explanation)  # the annotated dump  # doctest: +SKIP
        >>> explanation.to_frame()  # offset, bytes, field, value  # doctest: +SKIP
        """
        return self._drive(flows.explain(txn, self._module_abis()))

    def _module_abis(self) -> ModuleAbis:
        abis: ModuleAbis | None = getattr(self, "_abis", None)
        if abis is None:
            abis = ModuleAbis()
            self._abis = abis
        return abis

    def wait_for_transaction(
        self, txn_hash: str | bytes, *, timeout: float = 60.0
    ) -> Result[Transaction]:
        """Wait until the transaction is committed and return it (long polls of
        ``wait_by_hash``). A failed transaction is returned too: check ``.success``.

        Raises
        ------
        RequestTimeoutError
            Still pending after ``timeout`` seconds.
        TransactionNotFoundError
            The node has never heard of it by then (expired, or never accepted).
        """
        return self._drive(flows.wait_for_transaction(txn_hash, timeout))

    def transactions_auxiliary_info(
        self, start_version: int, *, limit: int | None = None
    ) -> Result[list[AuxiliaryInfo]]:
        """Auxiliary info (the index within its block) of transactions from ``start_version``."""
        return self._send(calls.transactions_auxiliary_info(start_version, limit))

    def submit_transaction(
        self, signed: SignedTransaction | Mapping[str, Any]
    ) -> Result[PendingTransaction]:
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
        return self._send(calls.submit_transaction(signed))

    def submit_batch_transactions(
        self, signed: Sequence[SignedTransaction]
    ) -> Result[BatchSubmitResult]:
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
        return self._send(calls.submit_batch_transactions(signed))

    def simulate_transaction(
        self,
        transaction: SignedTransaction | RawTransaction,
        *,
        public_key: object = None,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> Result[list[UserTransaction]]:
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
        call = calls.simulate_transaction(
            transaction,
            public_key,
            estimate_max_gas_amount=estimate_max_gas_amount,
            estimate_gas_unit_price=estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price=estimate_prioritized_gas_unit_price,
        )
        return self._send(call)

    def encode_submission(
        self, request: Mapping[str, Any] | RawTransaction | MultiAgentRawTransaction
    ) -> Result[EncodedSubmission]:
        """The signing message of a transaction as the node encodes it, for signers
        without BCS.

        Parameters
        ----------
        request : mapping, RawTransaction or MultiAgentRawTransaction
            The JSON request (sender, sequence_number, max_gas_amount, gas_unit_price,
            expiration_timestamp_secs, payload; ``secondary_signers`` for the multi-agent
            message), or a transaction, which is sent in that form (an entry function's
            arguments written in JSON by its ABI, read from the node first).

        Returns
        -------
        Result[EncodedSubmission]
            ``signing_message`` to sign, and ``raw``, the transaction read back from it.
            ``value.json_submission(public_key, signature)`` is the JSON request
            :meth:`submit_transaction` takes; ``value.signed(...)`` its BCS form.

        Raises
        ------
        DecodingError
            Given a transaction, the node encodes it otherwise (another chain id...).
        """
        return self._drive(encoding.encode_submission(request))

    # -- tables --------------------------------------------------------------------------

    def table_item(
        self,
        handle: str | Address,
        key_type: str | MoveType,
        value_type: str | MoveType,
        key: Any,
        *,
        ledger_version: int | None = None,
    ) -> Result[Any]:
        """A table item by its key in JSON form; the value in JSON form.

        Raises
        ------
        TableItemNotFoundError
            No item under that key.
        """
        call = calls.table_item(handle, key_type, value_type, key, ledger_version)
        return self._send(call)

    def raw_table_item(
        self, handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        """A table item by the BCS bytes of its key; the BCS bytes of its value."""
        return self._send(calls.raw_table_item(handle, key, ledger_version))

    # -- gas, view, blocks ---------------------------------------------------------------

    def estimate_gas_price(self) -> Result[GasEstimate]:
        """The node's gas unit price estimates (deprioritized, regular, prioritized)."""
        return self._send(calls.estimate_gas_price())

    def view_json(
        self,
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Result[list[Any]]:
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
        return self._send(calls.view(function, type_arguments, arguments, ledger_version))

    def view_bcs(
        self,
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Result[bytes]:
        """Call a view function; the BCS of its return values (a ULEB128 count, then each)."""
        return self._send(calls.view_bcs(function, type_arguments, arguments, ledger_version))

    def block_by_height(self, height: int, *, with_transactions: bool = False) -> Result[Block]:
        """The block at ``height``, with its transactions when asked (the node may cap
        them; a capped block is not cached).

        Raises
        ------
        BlockNotFoundError, BlockPrunedError
            Past the head, or older than the node keeps.
        """
        return self._send(calls.block_by_height(height, with_transactions))

    def block_by_version(self, version: int, *, with_transactions: bool = False) -> Result[Block]:
        """The block holding the transaction at ``version``."""
        return self._send(calls.block_by_version(version, with_transactions))
