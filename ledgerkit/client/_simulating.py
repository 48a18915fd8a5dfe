"""Simulate a transaction, and submit one and wait for it: each a flow written once
(no I/O, see :mod:`ledgerkit.client._flows`) and a one-line method on each client.

``simulate`` signs the transaction with zeros for each signer whose key it is given
(:func:`ledgerkit.tx.signed_with_zeros`), asks the node, reads the stores the balance
changes need that the answer leaves unknown, and returns a
:class:`~ledgerkit.tx.Simulation`. ``submit_and_wait`` sends the transaction exactly once
and waits for it to commit; like web3.py's ``wait_for_transaction_receipt`` it returns a
transaction that failed in execution (check ``.success``) rather than raising.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from ledgerkit._errors import DecodingError, InputError, NotFoundError
from ledgerkit.bcs import (
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.client import _calls as calls
from ledgerkit.client import _flows as flows
from ledgerkit.client._declare import twin_doc
from ledgerkit.models import MoveResource, UserTransaction
from ledgerkit.tx import Simulation, signed_with_zeros, stores_to_look_up
from ledgerkit.types import Result

__all__ = ["AsyncSimulating", "SyncSimulating", "simulate", "submit_and_wait"]

T = TypeVar("T")

Simulatable = SignedTransaction | RawTransaction | MultiAgentRawTransaction | FeePayerRawTransaction


def _to_simulate(
    transaction: Simulatable,
    signer: object,
    public_key: object,
    secondary_signers: Sequence[object] | None,
    fee_payer: object,
) -> SignedTransaction:
    if isinstance(transaction, SignedTransaction):
        if signer is not None or public_key is not None or secondary_signers or fee_payer:
            raise InputError("this transaction is signed already: give no keys with it")
        return transaction
    if signer is not None and public_key is not None:
        raise InputError("give the sender's signer or its public_key, not both")
    sender = signer if signer is not None else public_key
    if sender is None:
        raise InputError("simulating needs the sender's signer or public_key")
    return signed_with_zeros(
        transaction, sender, secondary_signers=secondary_signers, fee_payer=fee_payer
    )


def _store_facts(resources: list[MoveResource]) -> tuple[str | None, str | None]:
    owner = metadata = None
    for resource in resources:
        data = resource.data if isinstance(resource.data, dict) else {}
        if resource.type == "0x1::object::ObjectCore":
            owner = data.get("owner")
        elif resource.type == "0x1::fungible_asset::FungibleStore":
            inner = data.get("metadata")
            metadata = inner.get("inner") if isinstance(inner, dict) else None
    return (owner if isinstance(owner, str) else None, metadata)


def simulate(
    transaction: Simulatable,
    *,
    signer: object = None,
    public_key: object = None,
    secondary_signers: Sequence[object] | None = None,
    fee_payer: object = None,
    estimate_max_gas_amount: bool = False,
    estimate_gas_unit_price: bool = False,
    estimate_prioritized_gas_unit_price: bool = False,
) -> flows.Flow[Simulation]:
    """The flow of :meth:`Client.simulate`."""
    signed = _to_simulate(transaction, signer, public_key, secondary_signers, fee_payer)
    flags = {
        "estimate_max_gas_amount": estimate_max_gas_amount,
        "estimate_gas_unit_price": estimate_gas_unit_price,
        "estimate_prioritized_gas_unit_price": estimate_prioritized_gas_unit_price,
    }
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise InputError(f"{name} must be a bool, got {value!r}")
    answer = yield from flows.send(calls.simulate_transaction(signed, None, **flags))
    if len(answer.value) != 1 or not isinstance(answer.value[0], UserTransaction):
        raise DecodingError(
            f"a simulation answers one user transaction, the node sent {len(answer.value)} items"
        )
    txn = answer.value[0]
    stores: dict[str, tuple[str | None, str | None]] = {}
    for store in stores_to_look_up(txn):
        try:
            found = yield from flows.send(calls.account_resources(store, None, None, None))
        except NotFoundError:
            continue
        stores[store] = _store_facts(found.value)
    return Simulation.from_transaction(txn, answer.ledger, stores=stores, **flags)


def submit_and_wait(
    signed: SignedTransaction, timeout: float
) -> flows.Flow[Result[UserTransaction]]:
    """The flow of :meth:`Client.submit_and_wait`."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout >= 0:
        raise InputError(f"timeout must be a number of seconds, got {timeout!r}")
    if math.isinf(timeout):
        raise InputError("timeout must be finite")
    pending = yield from flows.send(calls.submit_transaction(signed))
    committed = yield from flows.wait_for_transaction(pending.value.hash, timeout)
    if not isinstance(committed.value, UserTransaction):
        raise DecodingError(
            f"the node answered a {type(committed.value).__name__} for a user transaction"
        )
    return Result(committed.value, committed.ledger)


class SyncSimulating:
    """``simulate`` and ``submit_and_wait`` of :class:`~ledgerkit.Client`."""

    if TYPE_CHECKING:

        def _drive(self, flow: flows.Flow[T]) -> T: ...

    def simulate(
        self,
        transaction: SignedTransaction
        | RawTransaction
        | MultiAgentRawTransaction
        | FeePayerRawTransaction,
        *,
        signer: object = None,
        public_key: object = None,
        secondary_signers: Sequence[object] | None = None,
        fee_payer: object = None,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> Simulation:
        """Foretell what a transaction would do: outcome, gas, fee, changes, events and
        balance changes, with any Move abort decoded. Nothing is committed.

        Each signer is given a signature of zeros (nodes refuse to simulate a valid
        one): only public keys are needed.

        Parameters
        ----------
        transaction : RawTransaction, MultiAgentRawTransaction, FeePayerRawTransaction...
            What to simulate, or a SignedTransaction, sent as it is (its signatures
            must not verify).
        signer : account, optional
            The sender: anything with ``public_key`` (an account, a private key).
        public_key : public key, optional
            The sender's public key instead (Ed25519 or secp256k1, a key object, bytes
            or hex).
        secondary_signers : sequence, optional
            A signer or public key (or None) per secondary signer of a multi-agent or
            fee-payer transaction; omitted, none is given an authenticator.
        fee_payer : account or public key, optional
            The fee payer's; omitted, it gets no authenticator, as for a fee payer
            ``0x0`` (one not known yet, whose fee a node skips in simulation).
        estimate_max_gas_amount, estimate_gas_unit_price, estimate_prioritized_gas_unit_price : bool
            Let the node put its estimates in place of the transaction's max gas amount
            or gas unit price; the simulation reports the values it ran with.

        Returns
        -------
        Simulation
            ``.success``, ``.abort``, ``.fee``, ``.balance_changes``... Fungible stores the
            answer does not tie to an owner or asset are read from the chain first.

        Raises
        ------
        InputError
            No sender key, keys of no known kind, or keys for a signed transaction.
        VMError
            The node refused to simulate it (a valid signature, a malformed transaction).

        Examples
        --------
        >>> sim = client.simulate(raw, signer=account)  # doctest: +SKIP
        >>> sim.success, sim.fee, sim.abort  # doctest: +SKIP
        (True, 2400, None)
        """
        flow = simulate(
            transaction,
            signer=signer,
            public_key=public_key,
            secondary_signers=secondary_signers,
            fee_payer=fee_payer,
            estimate_max_gas_amount=estimate_max_gas_amount,
            estimate_gas_unit_price=estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price=estimate_prioritized_gas_unit_price,
        )
        return self._drive(flow)

    def submit_and_wait(
        self, signed: SignedTransaction, *, timeout: float = 60.0
    ) -> Result[UserTransaction]:
        """Submit a signed transaction and wait until it is committed.

        The submission is sent exactly once, never retried (a second copy could be a
        second transfer); then ``wait_by_hash`` is polled. A transaction that commits
        but fails in execution (a Move abort, out of gas) is returned, not raised, as
        web3.py's ``wait_for_transaction_receipt`` does: check ``.value.success``.

        Returns
        -------
        Result[UserTransaction]
            The committed transaction and the ledger metadata of the answer.

        Raises
        ------
        TransactionRejectedError
            The node refused the submission (``VMError``, ``SequenceNumberTooOldError``,
            ``MempoolFullError``...): nothing was committed.
        RequestTimeoutError
            Still pending after ``timeout`` seconds.
        TransactionNotFoundError
            The node no longer knows it (it expired, or was dropped).
        TransportError
            The submission's connection failed: it may or may not have been accepted;
            ``wait_for_transaction(signed.hash())`` tells.
        """
        return self._drive(submit_and_wait(signed, timeout))


class AsyncSimulating:
    """``simulate`` and ``submit_and_wait`` of :class:`~ledgerkit.AsyncClient`."""

    if TYPE_CHECKING:

        async def _drive(self, flow: flows.Flow[T]) -> T: ...

    @twin_doc(SyncSimulating.simulate)
    async def simulate(
        self,
        transaction: SignedTransaction
        | RawTransaction
        | MultiAgentRawTransaction
        | FeePayerRawTransaction,
        *,
        signer: object = None,
        public_key: object = None,
        secondary_signers: Sequence[object] | None = None,
        fee_payer: object = None,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> Simulation:
        flow = simulate(
            transaction,
            signer=signer,
            public_key=public_key,
            secondary_signers=secondary_signers,
            fee_payer=fee_payer,
            estimate_max_gas_amount=estimate_max_gas_amount,
            estimate_gas_unit_price=estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price=estimate_prioritized_gas_unit_price,
        )
        return await self._drive(flow)

    @twin_doc(SyncSimulating.submit_and_wait)
    async def submit_and_wait(
        self, signed: SignedTransaction, *, timeout: float = 60.0
    ) -> Result[UserTransaction]:
        return await self._drive(submit_and_wait(signed, timeout))
