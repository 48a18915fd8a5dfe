"""Simulation: a signed transaction executed against the latest state, nothing committed.

The answer is what public nodes give: the one user transaction as a bare
``UserTransaction`` (state hashes zeroed, no ``version`` on its events, no ``type`` tag)
and its gas used. A transaction the prologue refuses comes back with ``success`` false
and the status name as ``vm_status``, not as an error.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ledgerkit._errors import ErrorCode, SigningError
from ledgerkit.bcs import SignedTransaction
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.chain import ZERO_HASH
from ledgerkit.localnet.ledger._ledger_reads import Head
from ledgerkit.localnet.vm import (
    MAX_GAS_AMOUNT,
    PrologueError,
    StateChange,
    TxnOutput,
    entry_function_of,
    execute,
    intrinsic_gas,
    multisig_of,
    script_of,
    validate,
)
from ledgerkit.localnet.vm.framework import (
    ACCOUNT,
    APT_METADATA,
    FRAMEWORK,
    Context,
    ReadFn,
    store_balance,
)
from ledgerkit.localnet.wire import info_json, module_abi_reader, user_fields

__all__ = ["simulate"]


def simulate(
    signed: SignedTransaction,
    read: ReadFn,
    head: Head,
    *,
    chain_id: int,
    now_secs: int,
    gas_unit_price: int | None = None,
    estimate_max_gas_amount: bool = False,
) -> tuple[list[dict[str, Any]], int]:
    """Execute ``signed`` against the state ``read`` gives (the head's) without committing.

    Parameters
    ----------
    gas_unit_price : int, optional
        The price to run at in place of the transaction's own (an estimate).
    estimate_max_gas_amount : bool
        Run with the most gas the sender's balance pays for (within the node's bounds).

    Returns
    -------
    (list of dict, int)
        The one user transaction and its gas used.

    Raises
    ------
    NodeError
        ``invalid_input``, in the cases :meth:`~ledgerkit.localnet.ledger.Ledger.simulate`
        lists.
    """
    try:
        valid = signed.verify()
    except SigningError:
        valid = False
    if valid:
        raise NodeError(
            ErrorCode.INVALID_INPUT, "Simulated transactions must not have a valid signature"
        )
    if (
        entry_function_of(signed) is None
        and multisig_of(signed) is None
        and script_of(signed) is None
    ):
        raise NodeError(
            ErrorCode.INVALID_INPUT,
            "this node simulates entry function, script and multisig payloads only",
        )
    raw = signed.raw
    price = raw.gas_unit_price if gas_unit_price is None else gas_unit_price
    max_gas = raw.max_gas_amount
    if estimate_max_gas_amount:
        check = Context(read, FRAMEWORK.codec)
        if check.resource(raw.sender, ACCOUNT) is None:
            raise NodeError(
                ErrorCode.INVALID_INPUT,
                f"Account not found by Address({raw.sender.standard}): cannot estimate gas",
            )
        balance = store_balance(check, raw.sender, APT_METADATA)
        size = len(signed.to_bcs())
        max_gas = min(max(balance // price, intrinsic_gas(size)), MAX_GAS_AMOUNT)
    raw = dataclasses.replace(raw, gas_unit_price=price, max_gas_amount=max_gas)
    signed = SignedTransaction(raw, signed.authenticator)
    size = len(signed.to_bcs())
    try:
        validate(
            signed,
            size,
            Context(read, FRAMEWORK.codec),
            chain_id=chain_id,
            now_secs=now_secs,
            mode="simulate",
        )
    except PrologueError as rejection:
        output = TxnOutput(False, rejection.status, 0, [])
    else:
        output = execute(
            signed,
            size,
            read,
            chain_id=chain_id,
            timestamp_usec=head.block.timestamp,
        )
    body = info_json(
        version=head.version + 1,
        txn_hash=bytes(signed.hash()),
        state_change_hash=ZERO_HASH,
        event_root_hash=ZERO_HASH,
        gas_used=output.gas_used,
        success=output.success,
        vm_status=output.vm_status,
        accumulator_root_hash=ZERO_HASH,
        changes=StateChange.listed(output.changes),
    )
    abi_of = module_abi_reader(read)
    body.update(
        user_fields(signed, output.events, head.block.timestamp, simulated=True, abi_of=abi_of)
    )
    return [body], output.gas_used
