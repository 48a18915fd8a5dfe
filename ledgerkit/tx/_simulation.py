"""What a simulation foretells: outcome, decoded abort, gas and fee, changes, events and
balance changes, read from the node's answer without any I/O."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field
from typing import TYPE_CHECKING, Any

from ledgerkit._errors import InputError
from ledgerkit.models import UserTransaction
from ledgerkit.tx._aborts import MoveAbort, parse_abort
from ledgerkit.tx._balances import (
    BalanceKey,
    StoreFacts,
    balance_deltas,
    gas_payer,
    storage_fee_refund,
)
from ledgerkit.types import LedgerMeta

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Simulation"]


@dataclass(frozen=True, slots=True, repr=False)
class Simulation:
    """The outcome of a simulated transaction, as the node foretold it.

    Build one with :meth:`from_transaction` (``client.simulate`` does). Integers are
    exact; the frames are built when first asked for.

    Attributes
    ----------
    transaction : UserTransaction
        The node's answer: the transaction as it would commit.
    ledger : LedgerMeta
        Where the ledger stood when the node simulated it.
    estimate_max_gas_amount, estimate_gas_unit_price, estimate_prioritized_gas_unit_price : bool
        The estimates asked of the node; :attr:`max_gas_amount` and
        :attr:`gas_unit_price` are then the node's estimates.
    abort : MoveAbort or None
        The Move abort that failed it, decoded (None when it did not abort).
    balance_deltas : mapping
        ``(account, asset) -> signed change``, exact ints, zeros left out: what
        :attr:`balance_changes` shows. The asset is its key (its fungible-asset metadata
        address, a coin's paired one: ``0x…0a`` for APT).

    Examples
    --------
    >>> sim = client.simulate(raw, signer=account)  # doctest: +SKIP
    >>> sim.success, sim.fee  # doctest: +SKIP
    (True, 2400)
    >>> sim.balance_changes  # doctest: +SKIP
    """

    transaction: UserTransaction
    ledger: LedgerMeta
    estimate_max_gas_amount: bool = False
    estimate_gas_unit_price: bool = False
    estimate_prioritized_gas_unit_price: bool = False
    stores: InitVar[Mapping[str, StoreFacts] | None] = None
    abort: MoveAbort | None = field(init=False)
    balance_deltas: Mapping[BalanceKey, int] = field(init=False)
    _stores: Mapping[str, StoreFacts] = field(init=False)

    def __post_init__(self, stores: Mapping[str, StoreFacts] | None) -> None:
        if not isinstance(self.transaction, UserTransaction):
            raise InputError(
                f"a simulation is read from a UserTransaction, got {type(self.transaction)}"
            )
        object.__setattr__(self, "abort", parse_abort(self.transaction.vm_status))
        object.__setattr__(self, "balance_deltas", balance_deltas(self.transaction, stores))
        object.__setattr__(self, "_stores", dict(stores or {}))

    @classmethod
    def from_transaction(
        cls,
        transaction: UserTransaction,
        ledger: LedgerMeta,
        *,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
        stores: Mapping[str, tuple[str | None, str | None]] | None = None,
    ) -> Simulation:
        """Read a simulation from the node's answer.

        Parameters
        ----------
        transaction : UserTransaction
            The one transaction of the simulate endpoint's answer.
        ledger : LedgerMeta
            That answer's ledger metadata.
        estimate_max_gas_amount, estimate_gas_unit_price, estimate_prioritized_gas_unit_price : bool
            The estimates that were asked for.
        stores : mapping, optional
            Fungible store address -> ``(owner, metadata address)`` for stores whose
            owner or asset the transaction does not tell (read from the chain).
        """
        return cls(
            transaction,
            ledger,
            estimate_max_gas_amount,
            estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price,
            stores,
        )

    # -- outcome and gas ------------------------------------------------------------------

    @property
    def success(self) -> bool:
        """Whether it would succeed."""
        return self.transaction.success

    @property
    def vm_status(self) -> str:
        """The node's status text (``Executed successfully``, ``Move abort in ...``)."""
        return self.transaction.vm_status

    @property
    def gas_used(self) -> int:
        """Gas units it would use."""
        return self.transaction.gas_used

    @property
    def gas_unit_price(self) -> int:
        """Octas per gas unit (the node's estimate when asked for)."""
        return self.transaction.gas_unit_price

    @property
    def max_gas_amount(self) -> int:
        """The most gas units it may use (the node's estimate when asked for)."""
        return self.transaction.max_gas_amount

    @property
    def fee(self) -> int:
        """The gas fee in octas: ``gas_used * gas_unit_price``, exact."""
        return self.transaction.gas_used * self.transaction.gas_unit_price

    @property
    def storage_fee_refund(self) -> int:
        """Octas of storage refunded to the fee payer (``FeeStatement``; 0 without one)."""
        return storage_fee_refund(self.transaction)

    @property
    def fee_payer(self) -> str:
        """Who pays the fee (long form): the fee payer if there is one, else the sender."""
        return gas_payer(self.transaction)

    # -- frames ---------------------------------------------------------------------------

    @property
    def changes(self) -> pd.DataFrame:
        """The write set, one row per change (``ledgerkit.frames.CHANGE_COLUMNS``)."""
        from ledgerkit.frames import changes_to_frame

        return changes_to_frame(self.transaction)

    @property
    def events(self) -> pd.DataFrame:
        """The events, one row each (``ledgerkit.frames.EVENT_COLUMNS``)."""
        from ledgerkit.frames import events_to_frame

        return events_to_frame(self.transaction)

    @property
    def balance_changes(self) -> pd.DataFrame:
        """One row per account and asset whose balance would change: the frame of
        ``ledgerkit.frames.balance_changes_to_frame`` (:data:`BALANCE_CHANGE_COLUMNS`).

        ``address`` is the account (long form); ``asset`` the asset's key, its
        fungible-asset metadata address (a coin's paired one: APT is ``0x…0a``), the key
        of ``account_balances`` too, with ``coin_type`` and ``metadata`` beside it;
        ``delta`` the signed change, an exact number (``decimal128(20, 0)``, summed and
        compared with Python ints exactly): withdrawals, deposits and, for the fee payer,
        the fee less any storage refund. A fungible store whose owner is unknown is
        listed under its own address.
        """
        from ledgerkit.frames import balance_changes_to_frame

        return balance_changes_to_frame(self.transaction, stores=self._stores)

    # -- display --------------------------------------------------------------------------

    def _outcome(self) -> str:
        if self.success:
            return "success"
        return f"failure: {self.abort}" if self.abort is not None else "failure"

    def _rows(self) -> list[tuple[str, str, str]]:
        return [
            (address, "?" if asset is None else asset, f"{delta:+d}")
            for (address, asset), delta in self.balance_deltas.items()
        ]

    def __repr__(self) -> str:
        return (
            f"Simulation(success={self.success}, vm_status={self.vm_status!r}, "
            f"gas_used={self.gas_used}, gas_unit_price={self.gas_unit_price}, "
            f"fee={self.fee}, balance_changes={len(self.balance_deltas)})"
        )

    def __str__(self) -> str:
        lines = [
            f"Simulation: {self._outcome()}",
            f"vm_status: {self.vm_status}",
            f"gas: {self.gas_used} units at {self.gas_unit_price} octas "
            f"(max {self.max_gas_amount}); fee {self.fee} octas",
        ]
        if self.storage_fee_refund:
            lines.append(f"storage refund: {self.storage_fee_refund} octas")
        rows = self._rows()
        if rows:
            lines.append("balance changes:")
            width = max(len(asset) for _, asset, _ in rows)
            lines += [f"  {address}  {asset:<{width}}  {delta}" for address, asset, delta in rows]
        else:
            lines.append("balance changes: none")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        esc = html.escape
        head: list[tuple[str, Any]] = [
            ("outcome", self._outcome()),
            ("vm_status", self.vm_status),
            ("gas used", self.gas_used),
            ("gas unit price", self.gas_unit_price),
            ("max gas amount", self.max_gas_amount),
            ("fee (octas)", self.fee),
        ]
        if self.storage_fee_refund:
            head.append(("storage refund (octas)", self.storage_fee_refund))
        summary = "".join(
            f"<tr><th style='text-align:left'>{esc(k)}</th><td>{esc(str(v))}</td></tr>"
            for k, v in head
        )
        changes = "".join(
            f"<tr><td><code>{esc(a)}</code></td><td><code>{esc(s)}</code></td>"
            f"<td style='text-align:right'>{esc(d)}</td></tr>"
            for a, s, d in self._rows()
        )
        table = (
            "<table><thead><tr><th>address</th><th>asset</th><th>delta</th></tr></thead>"
            f"<tbody>{changes}</tbody></table>"
            if changes
            else "<p>No balance changes.</p>"
        )
        return (
            f"<div><strong>Simulation</strong><table>{summary}</table>"
            f"<p><strong>Balance changes</strong></p>{table}</div>"
        )
