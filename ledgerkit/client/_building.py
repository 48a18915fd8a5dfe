"""Building transactions, calling view functions with Python values, and transfers: the
methods of both clients, each a one-line twin over its client's ``_drive`` of the flows
in :mod:`~ledgerkit.client._build_flows`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ledgerkit._errors import NodeAPIError
from ledgerkit.bcs import RawTransaction, SignedTransaction, TransactionData
from ledgerkit.client import _build_flows as flows
from ledgerkit.client import _flows as call_flows
from ledgerkit.client._base import Call, Result
from ledgerkit.client._declare import twin_doc
from ledgerkit.models import Transaction
from ledgerkit.tx import ModuleAbis, TransactionExplanation, UnsignedTransaction
from ledgerkit.types import Address, EntryFunctionId, MoveType, StructTag

if TYPE_CHECKING:
    from ledgerkit.client._flows import Flow
    from ledgerkit.client._limits import AsyncClock, Clock

__all__ = ["AsyncBuilding", "SyncBuilding"]

T = TypeVar("T")
APT: Final = "0x1::aptos_coin::AptosCoin"


class _Builds:
    """The state both mixins keep (see :class:`~ledgerkit.client._build_flows.BuildState`),
    and the hook that resyncs a sender after a refusal saying its number is stale."""

    @property
    def _builds(self) -> flows.BuildState:
        state = self.__dict__.get("_build_state")
        if state is None:
            state = self.__dict__.setdefault("_build_state", flows.BuildState())
        return state  # type: ignore[no-any-return]

    def _node_error(
        self, call: Call[Any], status: int, headers: Mapping[str, str], body: bytes
    ) -> NodeAPIError:
        error: NodeAPIError = super()._node_error(call, status, headers, body)  # type: ignore[misc]
        self._builds.refused(call.name, call.body, error)
        return error

    def _module_abis(self) -> ModuleAbis:
        abis = self.__dict__.get("_explain_abis")
        if abis is None:
            abis = self.__dict__.setdefault("_explain_abis", ModuleAbis())
        return abis  # type: ignore[no-any-return]


class SyncBuilding(_Builds):
    """Transaction building, views and transfers of :class:`~ledgerkit.Client`."""

    _clock: Clock
    if TYPE_CHECKING:

        def _drive(self, flow: Flow[T]) -> T: ...

    def build_transaction(
        self,
        sender: Any,
        function: str | EntryFunctionId,
        arguments: Sequence[Any] = (),
        *,
        type_arguments: Iterable[str | MoveType] = (),
        max_gas_amount: int | None = None,
        gas_unit_price: int | None = None,
        expires_in: float | None = None,
        sequence_number: int | None = None,
        secondary_signers: Sequence[Any] = (),
        fee_payer: Any = None,
        replay_protection_nonce: int | bool | None = None,
    ) -> UnsignedTransaction:
        """Build a transaction calling an entry function, with Python values as arguments.

        The arguments are checked against the function's ABI (fetched once per module
        and kept) and BCS-encoded before anything else is asked of the node; see
        :mod:`ledgerkit.tx` for how each Move type reads a Python value. Fields left
        out are filled in: the chain id, the gas unit price (the node's estimate), the
        sequence number (read once per sender, then counted by the client) and the max
        gas (a simulation's gas used times 1.5, within what the balance pays for).

        Parameters
        ----------
        sender : account, private key or address
            Who sends. Its public key (of an account or key) goes into the simulation;
            a bare address is simulated without one.
        function : str or EntryFunctionId
            ``"0x1::aptos_account::transfer"``.
        arguments : sequence
            One Python value per parameter, ``signer`` parameters left out.
        type_arguments : iterable of str or MoveType
            One per generic parameter of the function.
        max_gas_amount, gas_unit_price, sequence_number : int, optional
            Given: used as they are (a given sequence number is not counted).
        expires_in : float, optional
            Seconds until it expires: default 600, or 60 for an orderless transaction
            (nodes refuse one more than 100 s ahead of their own time).
        secondary_signers : sequence of accounts or addresses
            Makes a multi-agent transaction.
        fee_payer : account, address or True
            Makes a fee-payer transaction; ``True``: the fee payer is not known yet
            (it signs later, see :func:`ledgerkit.tx.sign_transaction`).
        replay_protection_nonce : int or True, optional
            Makes an orderless transaction: no sequence number (``2^64 - 1`` in its
            place) and this nonce in the payload; ``True`` picks a random one.

        Returns
        -------
        RawTransaction, MultiAgentRawTransaction or FeePayerRawTransaction
            Sign with :func:`ledgerkit.tx.sign_transaction`, then submit.

        Raises
        ------
        ArgumentError
            An argument or type argument does not fit the ABI (nothing was submitted).
        InputError
            Not an entry function, or an option out of range.

        Examples
        --------
        >>> raw = client.build_transaction(  # doctest: +SKIP
        ...     account, "0x1::aptos_account::transfer", [recipient, 1_000]
        ... )
        >>> client.submit_transaction(ledgerkit.tx.sign_transaction(raw, account))  # doctest: +SKIP
        """
        options = flows.BuildOptions(
            max_gas_amount,
            gas_unit_price,
            expires_in,
            sequence_number,
            secondary_signers,
            fee_payer,
            replay_protection_nonce,
        )
        flow = flows.build_transaction(
            self._builds, sender, function, arguments, type_arguments, options, self._clock.time()
        )
        return self._drive(flow)

    def view(
        self,
        function: str | EntryFunctionId,
        arguments: Sequence[Any] = (),
        *,
        type_arguments: Iterable[str | MoveType] = (),
        ledger_version: int | None = None,
    ) -> Result[list[Any]]:
        """Call a view function with Python values; its results as Python values.

        Arguments are checked against the function's ABI and sent as BCS; the results
        are decoded by its return types: integers as exact ``int`` at every width,
        ``Option`` as the value or ``None``, structs as dicts, vectors as lists,
        ``String`` as ``str``, ``vector<u8>`` as ``bytes``, addresses and objects as
        :class:`~ledgerkit.types.Address`. :meth:`view_json` keeps the node's JSON.

        Raises
        ------
        ArgumentError
            An argument does not fit the ABI (nothing was sent to ``/view``).

        Examples
        --------
        >>> balance, _ = client.view(  # doctest: +SKIP
        ...     "0x1::coin::balance", [address], type_arguments=["0x1::aptos_coin::AptosCoin"]
        ... )
        """
        flow = flows.view(self._builds, function, arguments, type_arguments, ledger_version)
        return self._drive(flow)

    def transfer(
        self,
        sender: Any,
        to: Any,
        amount: int,
        *,
        asset: str | StructTag | Address = APT,
        max_gas_amount: int | None = None,
        gas_unit_price: int | None = None,
        expires_in: float | None = None,
        timeout: float = 60.0,
    ) -> Result[Transaction]:
        """Send ``amount`` of a coin or fungible asset, and wait until it is committed.

        A coin type (default APT) is sent with ``0x1::aptos_account::transfer_coins``, a
        fungible asset (its metadata object's address) with
        ``0x1::primary_fungible_store::transfer``. Built as :meth:`build_transaction`
        builds, signed with the sender's key, submitted once (again only after a
        refusal saying the sequence number was stale) and waited for.

        Returns
        -------
        Result[Transaction]
            The committed transaction; a failed one too (check ``.success``).
        """
        options = flows.BuildOptions(max_gas_amount, gas_unit_price, expires_in)
        flow = flows.transfer(
            self._builds, sender, to, amount, asset, options, self._clock.time(), timeout
        )
        return self._drive(flow)

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
        return self._drive(call_flows.explain(txn, self._module_abis()))


class AsyncBuilding(_Builds):
    """Transaction building, views and transfers of :class:`~ledgerkit.AsyncClient`."""

    _clock: AsyncClock
    if TYPE_CHECKING:

        async def _drive(self, flow: Flow[T]) -> T: ...

    @twin_doc(SyncBuilding.build_transaction)
    async def build_transaction(
        self,
        sender: Any,
        function: str | EntryFunctionId,
        arguments: Sequence[Any] = (),
        *,
        type_arguments: Iterable[str | MoveType] = (),
        max_gas_amount: int | None = None,
        gas_unit_price: int | None = None,
        expires_in: float | None = None,
        sequence_number: int | None = None,
        secondary_signers: Sequence[Any] = (),
        fee_payer: Any = None,
        replay_protection_nonce: int | bool | None = None,
    ) -> UnsignedTransaction:
        options = flows.BuildOptions(
            max_gas_amount,
            gas_unit_price,
            expires_in,
            sequence_number,
            secondary_signers,
            fee_payer,
            replay_protection_nonce,
        )
        flow = flows.build_transaction(
            self._builds, sender, function, arguments, type_arguments, options, self._clock.time()
        )
        return await self._drive(flow)

    @twin_doc(SyncBuilding.view)
    async def view(
        self,
        function: str | EntryFunctionId,
        arguments: Sequence[Any] = (),
        *,
        type_arguments: Iterable[str | MoveType] = (),
        ledger_version: int | None = None,
    ) -> Result[list[Any]]:
        flow = flows.view(self._builds, function, arguments, type_arguments, ledger_version)
        return await self._drive(flow)

    @twin_doc(SyncBuilding.transfer)
    async def transfer(
        self,
        sender: Any,
        to: Any,
        amount: int,
        *,
        asset: str | StructTag | Address = APT,
        max_gas_amount: int | None = None,
        gas_unit_price: int | None = None,
        expires_in: float | None = None,
        timeout: float = 60.0,
    ) -> Result[Transaction]:
        options = flows.BuildOptions(max_gas_amount, gas_unit_price, expires_in)
        flow = flows.transfer(
            self._builds, sender, to, amount, asset, options, self._clock.time(), timeout
        )
        return await self._drive(flow)

    @twin_doc(SyncBuilding.explain)
    async def explain(
        self, txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes
    ) -> TransactionExplanation:
        return await self._drive(call_flows.explain(txn, self._module_abis()))
