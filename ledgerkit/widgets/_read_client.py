"""What the explorers read from a node: the :class:`ReadClient` protocol, and the check
that refuses an asyncio client before anything is asked.

The explorers answer clicks in the kernel's thread, so they read with a sync client:
:class:`ledgerkit.Client` is one, and so is any object with these methods (a fake one in
tests, a caching wrapper...). An :class:`ledgerkit.AsyncClient` has the same method
names, but its methods return coroutines: passing one is refused with an
:class:`~ledgerkit.InputError` when the explorer is built.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Final, Protocol

from ledgerkit._errors import InputError
from ledgerkit.bcs import RawTransaction, SignedTransaction, TransactionData
from ledgerkit.models import (
    AccountData,
    Block,
    Event,
    LedgerInfo,
    MoveModuleBytecode,
    MoveResource,
    Transaction,
)
from ledgerkit.types import Address, MoveType, Result, StructTag

if TYPE_CHECKING:
    import pandas as pd

    from ledgerkit.client import Client, Holding
    from ledgerkit.tx import TransactionExplanation

__all__ = ["READ_METHODS", "ReadClient", "activity_of", "require_sync"]


class ReadClient(Protocol):
    """The reads the explorers make: a subset of :class:`ledgerkit.Client`, with its
    signatures and answers.

    :class:`ledgerkit.Client` satisfies it; so does any object with these methods, which
    is how an explorer is tested without a node (see ``docs/widgets.md``).
    """

    def ledger_info(self) -> Result[LedgerInfo]:
        """The ledger's current position (its ``ledger_version`` pins a view)."""
        ...

    def account(
        self, address: str | Address, *, ledger_version: int | None = None
    ) -> Result[AccountData]:
        """The account's sequence number and authentication key."""
        ...

    def account_assets(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        assets: Iterable[str | Address] = (),
        resources: Sequence[MoveResource] | None = None,
        tokens: Iterable[str | Address] = (),
    ) -> list[Holding]:
        """Every asset the account holds, with exact balances (``resources``: its
        resources at ``ledger_version``, already read), tokens included when the
        client knows an indexer."""
        ...

    def account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[MoveResource]]:
        """One page of the account's resources (``ledger.cursor``: the next page's)."""
        ...

    def account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[list[MoveModuleBytecode]]:
        """One page of the account's modules (``ledger.cursor``: the next page's)."""
        ...

    def account_module(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[MoveModuleBytecode]:
        """One module by name, with its ABI."""
        ...

    def account_transactions(
        self, address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[Transaction]]:
        """The account's committed transactions by sequence number, from ``start``."""
        ...

    def events_by_creation_number(
        self,
        address: str | Address,
        creation_number: int,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[list[Event]]:
        """One page of an event stream, oldest first from sequence number ``start``."""
        ...

    def transactions(
        self, *, start: int | None = None, limit: int | None = None
    ) -> Result[list[Transaction]]:
        """One page of committed transactions from version ``start``."""
        ...

    def transaction_by_version(self, version: int) -> Result[Transaction]:
        """The transaction at ``version``."""
        ...

    def transaction_by_hash(self, txn_hash: str | bytes) -> Result[Transaction]:
        """The transaction with this hash."""
        ...

    def table_item(
        self,
        handle: str | Address,
        key_type: str | MoveType,
        value_type: str | MoveType,
        key: Any,
        *,
        ledger_version: int | None = None,
    ) -> Result[Any]:
        """A table item by its key in JSON form; the value in JSON form."""
        ...

    def raw_table_item(
        self, handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        """A table item by the BCS bytes of its key; the BCS bytes of its value."""
        ...

    # -- what the transaction inspector reads besides the transaction ----------------------

    def account_resource(
        self,
        address: str | Address,
        resource_type: str | StructTag,
        *,
        ledger_version: int | None = None,
    ) -> Result[MoveResource]:
        """One resource of the account by struct tag (a fungible asset's ``Metadata``)."""
        ...

    def block_by_version(self, version: int, *, with_transactions: bool = False) -> Result[Block]:
        """The block holding the transaction at ``version``."""
        ...

    def explain(
        self, txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes
    ) -> TransactionExplanation:
        """A transaction's bytes explained field by field."""
        ...

    def view(
        self,
        function: str,
        arguments: Sequence[Any] = (),
        *,
        type_arguments: Iterable[str | MoveType] = (),
        ledger_version: int | None = None,
    ) -> Result[list[Any]]:
        """A view function's results as Python values (the Modules tab's form calls it;
        an argument that does not fit the ABI raises ``ArgumentError``)."""
        ...

    def account_activity(
        self,
        address: str | Address,
        *,
        start_version: int | None = None,
        end_version: int | None = None,
        progress: bool | None = None,
    ) -> pd.DataFrame:
        """Every transaction that touched the account after ``start_version``, up to
        and including ``end_version`` (``ledgerkit.frames.ACTIVITY_COLUMNS``): a scan of
        that range. A :class:`ledgerkit.Client` is not asked this: the explorers scan
        its node with ``ledgerkit.account_activity`` (see :func:`activity_of`)."""
        ...


#: The names of :class:`ReadClient`'s methods.
READ_METHODS: Final = tuple(
    name
    for name, member in vars(ReadClient).items()
    if inspect.isfunction(member) and not name.startswith("_")
)


def _kind(value: object) -> str:
    cls = type(value)
    return f"{cls.__module__}.{cls.__qualname__}"


def require_sync(client: object, who: str) -> ReadClient:
    """``client``, checked to read in the caller's thread, for the explorer ``who``.

    Raises
    ------
    InputError
        ``client`` is an asyncio client (its methods return coroutines), or has none of
        :class:`ReadClient`'s methods.
    """
    present = [name for name in READ_METHODS if callable(getattr(client, name, None))]
    awaited = [name for name in present if inspect.iscoroutinefunction(getattr(client, name))]
    if awaited:
        raise InputError(
            f"{who} reads with a sync client (ledgerkit.Client, or any ReadClient); "
            f"got {_kind(client)}, whose methods ({', '.join(awaited[:3])}...) return "
            "coroutines: pass ledgerkit.Client(url) instead"
        )
    if not present:
        raise InputError(
            f"{who} reads with a sync client (ledgerkit.Client, or any ReadClient); "
            f"got {_kind(client)}, which has none of its methods"
        )
    return client  # type: ignore[return-value]


def activity_of(
    client: ReadClient,
    address: str | Address,
    *,
    start_version: int | None,
    end_version: int | None,
) -> pd.DataFrame:
    """The account's activity over a range, without a progress bar: scanned from a
    :class:`ledgerkit.Client`'s node by ``ledgerkit.account_activity``, or what another
    :class:`ReadClient` answers."""
    from ledgerkit.client import Client
    from ledgerkit.extract import account_activity

    read = (
        partial(account_activity, client) if isinstance(client, Client) else client.account_activity
    )
    return read(address, start_version=start_version, end_version=end_version, progress=False)


if TYPE_CHECKING:
    # The type checker proves here that ledgerkit.Client is a ReadClient.
    def _a_client_reads(client: Client) -> ReadClient:
        return client
