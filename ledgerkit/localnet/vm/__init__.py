"""The node's virtual machine: it checks, runs and charges transactions.

* ``framework``: the Move framework at ``0x1`` (module declarations with their ABIs, and
  Python bodies run in a :class:`~.framework.Context`);
* ``_executor``: the prologue checks (:func:`validate`), execution (:func:`execute`),
  the epilogue (:func:`finalize`) and view functions (:func:`run_view`);
* ``_multisig``: multisig payloads, checked, run as the multisig account and resolved;
* ``_gas_schedule``: the fixed gas schedule, block limits and the gas price estimate.

Exports what the rest of the node runs transactions with: the executor's functions and
records, and the gas schedule's limits and charges.
"""

from __future__ import annotations

from ledgerkit.localnet.vm._executor import (
    STATUS_CODES,
    SUCCESS,
    PrologueError,
    StateChange,
    TxnOutput,
    entry_function_of,
    execute,
    finalize,
    replay_nonce,
    run_view,
    script_of,
    validate,
)
from ledgerkit.localnet.vm._gas_schedule import (
    AGGRESSIVE_BLOCK_HISTORY,
    BLOCK_GAS_LIMIT,
    MAX_BLOCK_USER_TRANSACTIONS,
    MAX_GAS_AMOUNT,
    MAX_GAS_UNIT_PRICE,
    MAX_TRANSACTION_SIZE,
    MIN_GAS_UNIT_PRICE,
    BlockGas,
    FeeStatement,
    GasUsage,
    estimate_gas_price,
    intrinsic_gas,
)
from ledgerkit.localnet.vm._move_json import ChainLayouts
from ledgerkit.localnet.vm._multisig import multisig_of

__all__ = [
    "AGGRESSIVE_BLOCK_HISTORY",
    "BLOCK_GAS_LIMIT",
    "MAX_BLOCK_USER_TRANSACTIONS",
    "MAX_GAS_AMOUNT",
    "MAX_GAS_UNIT_PRICE",
    "MAX_TRANSACTION_SIZE",
    "MIN_GAS_UNIT_PRICE",
    "STATUS_CODES",
    "SUCCESS",
    "BlockGas",
    "ChainLayouts",
    "FeeStatement",
    "GasUsage",
    "PrologueError",
    "StateChange",
    "TxnOutput",
    "entry_function_of",
    "estimate_gas_price",
    "execute",
    "finalize",
    "intrinsic_gas",
    "multisig_of",
    "replay_nonce",
    "run_view",
    "script_of",
    "validate",
]
