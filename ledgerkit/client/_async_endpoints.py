"""Every endpoint of the node API for the asyncio client: the twin of
:mod:`ledgerkit.client._sync_endpoints`, method for method, each awaited (``iter_*`` are
async iterators) and documented by its sync twin's docstring.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
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
from ledgerkit.client._limits import AsyncClock
from ledgerkit.client._paging import CursorPager, EventPager, Pager, VersionRangePager
from ledgerkit.client._sync_endpoints import SyncEndpoints
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

__all__ = ["AsyncEndpoints"]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def _doc(twin: Callable[..., Any]) -> Callable[[F], F]:
    """Give the async method the documentation of its sync twin."""

    def apply(method: F) -> F:
        method.__doc__ = twin.__doc__
        return method

    return apply


class AsyncEndpoints:
    """The endpoint methods of :class:`~ledgerkit.AsyncClient` (see its docstring)."""

    # What the client supplies (``AsyncClient``): its clock, and how it sends and walks.
    _clock: AsyncClock
    if TYPE_CHECKING:

        async def _send(self, call: Call[T]) -> Result[T]: ...

        def _walk(self, pager: Pager[T]) -> AsyncIterator[Result[T]]: ...

    async def _drive(self, flow: flows.Flow[T]) -> T:
        """Run a flow of :mod:`~ledgerkit.client._flows` to its end (``Client._drive``'s
        twin: the same flow, awaited)."""
        try:
            step = next(flow)
            while True:
                if isinstance(step, flows.Pause):
                    if step.seconds > 0:
                        await self._clock.sleep(step.seconds)
                    step = flow.send(self._clock.monotonic())
                    continue
                try:
                    result = await self._send(step)
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

    @_doc(SyncEndpoints.ledger_info)
    async def ledger_info(self) -> Result[LedgerInfo]:
        return await self._send(calls.ledger_info())

    @_doc(SyncEndpoints.health)
    async def health(self, duration_secs: int | None = None) -> Result[HealthStatus]:
        return await self._send(calls.health(duration_secs))

    # -- accounts ------------------------------------------------------------------------

    @_doc(SyncEndpoints.account)
    async def account(
        self, address: str | Address, *, ledger_version: int | None = None
    ) -> Result[AccountData]:
        return await self._send(calls.account(address, ledger_version))

    @_doc(SyncEndpoints.account_resources)
    async def account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[MoveResource]]:
        return await self._send(calls.account_resources(address, ledger_version, start, limit))

    @_doc(SyncEndpoints.iter_account_resources)
    def iter_account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[Result[MoveResource]]:
        pager = CursorPager(
            lambda version, cursor: calls.account_resources(address, version, cursor, limit),
            ledger_version,
        )
        return self._walk(pager)

    @_doc(SyncEndpoints.account_resource)
    async def account_resource(
        self,
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[MoveResource]:
        return await self._send(calls.account_resource(address, resource_type, ledger_version))

    @_doc(SyncEndpoints.account_resource_bcs)
    async def account_resource_bcs(
        self,
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[bytes]:
        call = calls.account_resource_bcs(address, resource_type, ledger_version)
        return await self._send(call)

    @_doc(SyncEndpoints.account_modules)
    async def account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[MoveModuleBytecode]]:
        return await self._send(calls.account_modules(address, ledger_version, start, limit))

    @_doc(SyncEndpoints.iter_account_modules)
    def iter_account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[Result[MoveModuleBytecode]]:
        pager = CursorPager(
            lambda version, cursor: calls.account_modules(address, version, cursor, limit),
            ledger_version,
        )
        return self._walk(pager)

    @_doc(SyncEndpoints.account_module)
    async def account_module(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[MoveModuleBytecode]:
        return await self._send(calls.account_module(address, module_name, ledger_version))

    @_doc(SyncEndpoints.account_module_bytecode)
    async def account_module_bytecode(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        call = calls.account_module_bytecode(address, module_name, ledger_version)
        return await self._send(call)

    @_doc(SyncEndpoints.account_balance)
    async def account_balance(
        self,
        address: str | Address,
        asset: str | Address | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[int]:
        return await self._send(calls.account_balance(address, asset, ledger_version))

    @_doc(SyncEndpoints.account_transactions)
    async def account_transactions(
        self, address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[Transaction]]:
        return await self._send(calls.account_transactions(address, start, limit))

    @_doc(SyncEndpoints.account_transactions_bcs)
    async def account_transactions_bcs(
        self, address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[TransactionOnChainData]]:
        return await self._send(calls.account_transactions_bcs(address, start, limit))

    # -- events --------------------------------------------------------------------------

    @_doc(SyncEndpoints.events_by_creation_number)
    async def events_by_creation_number(
        self,
        address: str | Address,
        creation_number: int,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[list[Event]]:
        call = calls.events_by_creation_number(address, creation_number, start, limit)
        return await self._send(call)

    @_doc(SyncEndpoints.events_by_handle)
    async def events_by_handle(
        self,
        address: str | Address,
        event_handle: str | StructTag,
        field_name: str,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[list[Event]]:
        call = calls.events_by_handle(address, event_handle, field_name, start, limit)
        return await self._send(call)

    @_doc(SyncEndpoints.iter_events)
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
    ) -> AsyncIterator[Result[Event]]:
        make = calls.event_stream(address, creation_number, event_handle, field_name)
        pager = EventPager(
            make, dec.event_sequence_number, start=start, limit=limit, forward=forward
        )
        return self._walk(pager)

    # -- transactions --------------------------------------------------------------------

    @_doc(SyncEndpoints.transactions)
    async def transactions(
        self, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[Transaction]]:
        return await self._send(calls.transactions(start, limit))

    @_doc(SyncEndpoints.iter_transactions)
    def iter_transactions(
        self, start: int = 0, stop: int | None = None, *, limit: int = 100
    ) -> AsyncIterator[Result[Transaction]]:
        pager = VersionRangePager(
            lambda first, size: calls.transactions(first, size),
            dec.transaction_version,
            start=start,
            stop=stop,
            limit=limit,
        )
        return self._walk(pager)

    @_doc(SyncEndpoints.transaction_by_version)
    async def transaction_by_version(self, version: int) -> Result[Transaction]:
        return await self._send(calls.transaction_by_version(version))

    @_doc(SyncEndpoints.transaction_by_hash)
    async def transaction_by_hash(self, txn_hash: str | bytes) -> Result[Transaction]:
        return await self._send(calls.transaction_by_hash(txn_hash))

    @_doc(SyncEndpoints.transaction_by_version_bcs)
    async def transaction_by_version_bcs(self, version: int) -> Result[TransactionData]:
        return await self._send(calls.transaction_by_version_bcs(version))

    @_doc(SyncEndpoints.transaction_by_hash_bcs)
    async def transaction_by_hash_bcs(self, txn_hash: str | bytes) -> Result[TransactionData]:
        return await self._send(calls.transaction_by_hash_bcs(txn_hash))

    @_doc(SyncEndpoints.transactions_bcs)
    async def transactions_bcs(
        self, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[TransactionOnChainData]]:
        return await self._send(calls.transactions_bcs(start, limit))

    @_doc(SyncEndpoints.explain)
    async def explain(
        self, txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes
    ) -> TransactionExplanation:
        return await self._drive(flows.explain(txn, self._module_abis()))

    def _module_abis(self) -> ModuleAbis:
        abis: ModuleAbis | None = getattr(self, "_abis", None)
        if abis is None:
            abis = ModuleAbis()
            self._abis = abis
        return abis

    @_doc(SyncEndpoints.wait_for_transaction)
    async def wait_for_transaction(
        self, txn_hash: str | bytes, *, timeout: float = 60.0
    ) -> Result[Transaction]:
        return await self._drive(flows.wait_for_transaction(txn_hash, timeout))

    @_doc(SyncEndpoints.transactions_auxiliary_info)
    async def transactions_auxiliary_info(
        self, start_version: int, *, limit: int | None = None
    ) -> Result[list[AuxiliaryInfo]]:
        return await self._send(calls.transactions_auxiliary_info(start_version, limit))

    @_doc(SyncEndpoints.submit_transaction)
    async def submit_transaction(
        self, signed: SignedTransaction | Mapping[str, Any]
    ) -> Result[PendingTransaction]:
        return await self._send(calls.submit_transaction(signed))

    @_doc(SyncEndpoints.submit_batch_transactions)
    async def submit_batch_transactions(
        self, signed: Sequence[SignedTransaction]
    ) -> Result[BatchSubmitResult]:
        return await self._send(calls.submit_batch_transactions(signed))

    @_doc(SyncEndpoints.simulate_transaction)
    async def simulate_transaction(
        self,
        transaction: SignedTransaction | RawTransaction,
        *,
        public_key: object = None,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> Result[list[UserTransaction]]:
        call = calls.simulate_transaction(
            transaction,
            public_key,
            estimate_max_gas_amount=estimate_max_gas_amount,
            estimate_gas_unit_price=estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price=estimate_prioritized_gas_unit_price,
        )
        return await self._send(call)

    @_doc(SyncEndpoints.encode_submission)
    async def encode_submission(
        self, request: Mapping[str, Any] | RawTransaction | MultiAgentRawTransaction
    ) -> Result[EncodedSubmission]:
        return await self._drive(encoding.encode_submission(request))

    # -- tables --------------------------------------------------------------------------

    @_doc(SyncEndpoints.table_item)
    async def table_item(
        self,
        handle: str | Address,
        key_type: str | MoveType,
        value_type: str | MoveType,
        key: Any,
        *,
        ledger_version: int | None = None,
    ) -> Result[Any]:
        call = calls.table_item(handle, key_type, value_type, key, ledger_version)
        return await self._send(call)

    @_doc(SyncEndpoints.raw_table_item)
    async def raw_table_item(
        self, handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        return await self._send(calls.raw_table_item(handle, key, ledger_version))

    # -- gas, view, blocks ---------------------------------------------------------------

    @_doc(SyncEndpoints.estimate_gas_price)
    async def estimate_gas_price(self) -> Result[GasEstimate]:
        return await self._send(calls.estimate_gas_price())

    @_doc(SyncEndpoints.view_json)
    async def view_json(
        self,
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Result[list[Any]]:
        return await self._send(calls.view(function, type_arguments, arguments, ledger_version))

    @_doc(SyncEndpoints.view_bcs)
    async def view_bcs(
        self,
        function: str | EntryFunctionId | EntryFunction,
        type_arguments: Iterable[str | MoveType] = (),
        arguments: Sequence[Any] = (),
        *,
        ledger_version: int | None = None,
    ) -> Result[bytes]:
        call = calls.view_bcs(function, type_arguments, arguments, ledger_version)
        return await self._send(call)

    @_doc(SyncEndpoints.block_by_height)
    async def block_by_height(
        self, height: int, *, with_transactions: bool = False
    ) -> Result[Block]:
        return await self._send(calls.block_by_height(height, with_transactions))

    @_doc(SyncEndpoints.block_by_version)
    async def block_by_version(
        self, version: int, *, with_transactions: bool = False
    ) -> Result[Block]:
        return await self._send(calls.block_by_version(version, with_transactions))
