"""Multisig payloads: an owner runs the next call its multisig account's owners approved.

A ``Multisig`` payload (or a ``TransactionPayloadV1`` with a multisig address) names the
multisig account and may carry the call itself, an entry function. Before it runs, the
framework's ``validate_multisig_transaction`` is checked (at submission, in a block and
when simulating): a failure discards the transaction with one of these statuses, as a
node's prologue does:

=====  =================================================
code   status (the abort of ``0x1::multisig_account``)
=====  =================================================
31     ACCOUNT_NOT_MULTISIG (``EACCOUNT_NOT_MULTISIG``)
32     NOT_MULTISIG_OWNER (``ENOT_OWNER``)
33     MULTISIG_TRANSACTION_NOT_FOUND (``ETRANSACTION_NOT_FOUND``)
34     MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS (``ENOT_ENOUGH_APPROVALS``)
35     MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH
40     MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH
=====  =================================================

The call run is the one stored on chain, else the one carried (the payload's bytes are
the BCS of ``MultisigTransactionPayload::EntryFunction``); it runs with the multisig
account as its signer. Then the call is resolved: the sender's implicit approval (a
``Vote`` event when it had not approved), and ``TransactionExecutionSucceeded``. When the
call aborts, what it did is dropped and ``TransactionExecutionFailed`` records the abort
(``ExecutionError``: its module as ``<64 hex digits>::name``, ``MoveAbort``, the code);
the transaction itself still succeeds, its sender pays and the call counts as resolved.
A call that cannot run at all (no such module or function, wrong arguments) is recorded so
too, as a ``VMError`` with its ``StatusCode`` number and no location.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ledgerkit._errors import BCSError
from ledgerkit.bcs import (
    Deserializer,
    EntryFunction,
    Multisig,
    Script,
    SignedTransaction,
    TransactionPayloadV1,
)
from ledgerkit.localnet.vm.framework import (
    Context,
    MoveAbortError,
    VMStatusError,
    execution_cleanup,
    next_payload,
    validate_multisig_transaction,
)
from ledgerkit.types import Address

__all__ = ["MULTISIG_STATUS_CODES", "multisig_of", "multisig_prologue", "run_multisig"]

#: The prologue's statuses for a multisig payload, by name.
MULTISIG_STATUS_CODES: Final = {
    "ACCOUNT_NOT_MULTISIG": 31,
    "NOT_MULTISIG_OWNER": 32,
    "MULTISIG_TRANSACTION_NOT_FOUND": 33,
    "MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS": 34,
    "MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH": 35,
    "MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH": 40,
}
#: The ``StatusCode`` numbers of the VM errors a call can fail with before it runs (or, for
#: a type it cannot resolve, as it runs), which ``TransactionExecutionFailed`` records as
#: ``VMError``.
VM_ERROR_CODES: Final = {
    "CONSTRAINT_NOT_SATISFIED": 1075,
    "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH": 1076,
    "LINKER_ERROR": 1081,
    "FUNCTION_RESOLUTION_FAILURE": 1091,
    "NUMBER_OF_ARGUMENTS_MISMATCH": 1098,
    "FAILED_TO_DESERIALIZE_ARGUMENT": 1100,
    "NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH": 1101,
    "EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION": 1103,
    "TYPE_RESOLUTION_FAILURE": 2021,
}
#: The runtime statuses a call can fail with while it runs (Move's ``StatusCode``), which
#: ``TransactionExecutionFailed`` records as ``MoveExecutionFailure``.
EXECUTION_FAILURE_CODES: Final = {
    "RESOURCE_ALREADY_EXISTS": 4004,
    "MISSING_DATA": 4008,
    "ARITHMETIC_ERROR": 4017,
    "VECTOR_OPERATION_ERROR": 4018,
}
_BY_ABORT: Final = {
    0x307D2: "ACCOUNT_NOT_MULTISIG",
    0x507D3: "NOT_MULTISIG_OWNER",
    0x607D6: "MULTISIG_TRANSACTION_NOT_FOUND",
    0x107D9: "MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS",
    0x107D8: "MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH",
    0x107DA: "MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH",
}


def multisig_of(signed: SignedTransaction) -> tuple[Address, EntryFunction | None] | None:
    """The multisig account and the call carried (None: stored on chain), or None when
    the payload is not a multisig one this node runs (a script inside is not)."""
    payload = signed.raw.payload
    if isinstance(payload, Multisig):
        return payload.multisig_address, payload.payload
    if isinstance(payload, TransactionPayloadV1) and payload.multisig_address is not None:
        if isinstance(payload.executable, Script):
            return None
        return payload.multisig_address, payload.executable
    return None


def _provided(ef: EntryFunction | None) -> bytes:
    """The carried call as ``MultisigTransactionPayload`` BCS (empty when none)."""
    return b"" if ef is None else b"\x00" + ef.to_bcs()


def multisig_prologue(signed: SignedTransaction, ctx: Context) -> str | None:
    """The status refusing a multisig payload, or None (also for other payloads)."""
    found = multisig_of(signed)
    if found is None:
        return None
    address, ef = found
    try:
        validate_multisig_transaction(ctx, signed.raw.sender, address, _provided(ef))
    except MoveAbortError as abort:
        return _BY_ABORT[abort.code]
    return None


def _decode(payload: bytes) -> EntryFunction:
    try:
        d = Deserializer(payload)
        d.variant(("EntryFunction",), "multisig payload")
        ef = EntryFunction.deserialize(d)
        d.finish()
    except BCSError as exc:
        raise VMStatusError("FAILED_TO_DESERIALIZE_ARGUMENT", str(exc)) from None
    return ef


def _execution_error(
    failure: MoveAbortError | VMStatusError, call: EntryFunction
) -> dict[str, Any]:
    if isinstance(failure, VMStatusError) and failure.status in EXECUTION_FAILURE_CODES:
        # Located at the called function's module: this node does not follow a failure
        # into the modules the call reaches.
        called = call.function_id.module
        return {
            "abort_location": f"{called.address.long[2:]}::{called.name}",
            "error_type": "MoveExecutionFailure",
            "error_code": str(EXECUTION_FAILURE_CODES[failure.status]),
        }
    if isinstance(failure, VMStatusError):
        code = VM_ERROR_CODES[failure.status]
        return {"abort_location": "", "error_type": "VMError", "error_code": str(code)}
    address, module = failure.location.split("::")
    return {
        "abort_location": f"{Address.parse(address).long[2:]}::{module}",
        "error_type": "MoveAbort",
        "error_code": str(failure.code),
    }


def run_multisig(
    ctx: Context,
    signed: SignedTransaction,
    run_entry: Callable[[Context, EntryFunction], None],
    fresh: Callable[[], Context],
) -> Context:
    """Run the multisig payload's call in ``ctx`` and resolve it; the context to go on
    with: ``ctx``, or when the call failed a ``fresh`` one with only its resolution.

    Raises
    ------
    VMStatusError, MoveAbortError
        The transaction fails as a whole: no payload to run, or one that does not decode.
    """
    found = multisig_of(signed)
    if found is None:
        raise VMStatusError("FEATURE_UNDER_GATING")
    address, carried = found
    owner = signed.raw.sender
    payload = next_payload(ctx, address, _provided(carried))
    call = _decode(payload)
    signers, ctx.signers = ctx.signers, (address,)
    try:
        run_entry(ctx, call)
    except (MoveAbortError, VMStatusError) as failure:
        if isinstance(failure, VMStatusError) and not (
            failure.status in VM_ERROR_CODES or failure.status in EXECUTION_FAILURE_CODES
        ):
            raise
        kept = fresh()
        kept.reads, kept.extra_gas = ctx.reads, ctx.extra_gas
        kept.read_pages = list(ctx.read_pages)
        execution_cleanup(kept, owner, address, payload, _execution_error(failure, call))
        return kept
    finally:
        ctx.signers = signers
    execution_cleanup(ctx, owner, address, payload, None)
    return ctx
