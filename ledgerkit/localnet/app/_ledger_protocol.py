"""What the app asks of the ledger: every call a handler makes, typed.

The app knows the ledger only through :class:`AppLedger`, which has its reads
(:class:`AppReads`) and its views (:class:`AppViews`); the node's ``Ledger`` is one
that fits it (checked by the type checker where the server hands it to the app), and a
test double can be another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ledgerkit.bcs import SignedTransaction, TransactionData
from ledgerkit.localnet._node_config import NodeConfig
from ledgerkit.localnet.ledger import Module, Page, Resource, ViewResult
from ledgerkit.types import Address, EntryFunctionId, LedgerMeta, MoveType, StructTag

__all__ = ["AppLedger", "AppReads", "AppViews"]


class AppReads(Protocol):
    """The ledger's reads as the node's HTTP handlers use them (``ledger.reads``).

    Every method raises ``NodeError`` for an answer other than success (not found,
    pruned, invalid input...), which the app turns into the error record.
    """

    # -- accounts -----------------------------------------------------------------------

    def account(self, address: Address, version: int | None) -> dict[str, Any]: ...

    def resources(
        self, address: Address, version: int | None, start: str | None, limit: int
    ) -> Page: ...

    def resource(self, address: Address, tag: StructTag, version: int | None) -> Resource: ...

    def modules(
        self, address: Address, version: int | None, start: str | None, limit: int
    ) -> Page: ...

    def module(self, address: Address, name: str, version: int | None) -> Module: ...

    def balance(self, address: Address, asset: Address | StructTag, version: int | None) -> int: ...

    def account_transactions(
        self, address: Address, start: int | None, limit: int
    ) -> list[dict[str, Any]]: ...

    def account_transaction_summaries(
        self, address: Address, start: int | None, end: int | None, limit: int
    ) -> list[dict[str, Any]]: ...

    # -- events, tables, blocks -----------------------------------------------------------

    def events_by_creation_number(
        self, address: Address, creation_number: int, start: int | None, limit: int
    ) -> list[dict[str, Any]]: ...

    def events_by_handle(
        self,
        address: Address,
        handle_struct: StructTag,
        field_name: str,
        start: int | None,
        limit: int,
    ) -> list[dict[str, Any]]: ...

    def table_item(
        self,
        handle: Address,
        key_type: MoveType,
        value_type: MoveType,
        key: Any,
        version: int | None,
    ) -> tuple[Any, bytes]: ...

    def raw_table_item(self, handle: Address, key: bytes, version: int | None) -> bytes: ...

    def block_by_height(self, height: int, with_transactions: bool) -> dict[str, Any]: ...

    def block_by_version(self, version: int, with_transactions: bool) -> dict[str, Any]: ...

    # -- transactions ---------------------------------------------------------------------

    def transactions_json(self, start: int | None, limit: int) -> bytes: ...

    def transactions(self, start: int | None, limit: int) -> list[dict[str, Any]]: ...

    def transaction_by_version(self, version: int) -> dict[str, Any]: ...

    def auxiliary_info(self, start_version: int, limit: int) -> list[dict[str, Any]]: ...


class AppViews(Protocol):
    """The ledger's view functions as the node's HTTP handlers use them (``ledger.views``)."""

    def view_function(
        self,
        function: EntryFunctionId,
        type_arguments: Sequence[MoveType],
        arguments: Sequence[Any],
        version: int | None,
        *,
        bcs_args: bool = False,
    ) -> ViewResult: ...


class AppLedger(Protocol):
    """The ledger as the node's HTTP handlers use it: its own calls, its reads, its views.

    Every method raises ``NodeError`` for an answer other than success (not found,
    pruned, invalid input...), which the app turns into the error record.
    """

    @property
    def reads(self) -> AppReads:
        """Accounts, state, events, tables, blocks and transactions."""
        ...

    @property
    def views(self) -> AppViews:
        """View functions."""
        ...

    @property
    def config(self) -> NodeConfig:
        """The node's settings."""
        ...

    # -- position and health ----------------------------------------------------------

    def meta(self, *, gas_used: int | None = None, cursor: str | None = None) -> LedgerMeta: ...

    def index(self) -> dict[str, Any]: ...

    def now_usec(self) -> int: ...

    def health(self, duration_secs: int | None, now_usec: int) -> None: ...

    # -- transactions ---------------------------------------------------------------------

    def transaction_data(self, txn: dict[str, Any]) -> TransactionData: ...

    def transactions_bcs(self, txns: list[dict[str, Any]]) -> bytes: ...

    def transaction_by_hash(self, txn_hash: bytes) -> dict[str, Any]: ...

    def signed_from_json(
        self, request: dict[str, Any], *, simulation: bool
    ) -> SignedTransaction: ...

    def submit(self, signed: SignedTransaction) -> dict[str, Any]: ...

    def simulate(
        self,
        signed: SignedTransaction,
        *,
        estimate_gas_unit_price: bool = False,
        estimate_max_gas_amount: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> tuple[list[dict[str, Any]], int]: ...

    def encode_submission(self, request: dict[str, Any]) -> bytes: ...

    # -- gas ----------------------------------------------------------------------------

    def estimate_gas_price(self) -> dict[str, int]: ...
