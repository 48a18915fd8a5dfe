"""The executor: checks a transaction as a node's prologue does, runs it, and says what changed.

*Validation* (:func:`validate`) is the prologue: size, chain id, gas bounds, signature
(at mempool admission only: a committed block re-checks everything else but not the
signature it already verified), expiration, sender and signer accounts, authentication
keys, sequence number and the payer's balance against ``max_gas_amount * gas_unit_price``.
A failure is a :class:`PrologueError` carrying the Aptos ``StatusCode`` used below, which the
node answers as ``vm_error`` (or ``sequence_number_too_old``) with ``vm_error_code``:

======  ================================================
code    status
======  ================================================
1       INVALID_SIGNATURE
2       INVALID_AUTH_KEY
3       SEQUENCE_NUMBER_TOO_OLD (error code ``sequence_number_too_old``)
4       SEQUENCE_NUMBER_TOO_NEW (only when executing: a future one waits)
5       INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE
6       TRANSACTION_EXPIRED
7       SENDING_ACCOUNT_DOES_NOT_EXIST
10      EXCEEDED_MAX_TRANSACTION_SIZE
13      MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND
14      MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS
15      GAS_UNIT_PRICE_BELOW_MIN_BOUND
16      GAS_UNIT_PRICE_ABOVE_MAX_BOUND
23      BAD_CHAIN_ID
42      NONCE_ALREADY_USED (an orderless transaction's nonce ran already)
44      TRANSACTION_EXPIRATION_TOO_FAR_IN_FUTURE (an orderless one expiring more than
        100 s after the ledger's time)
======  ================================================

An *orderless* transaction (a ``TransactionPayloadV1`` with a ``replay_protection_nonce``;
its sequence number, ``2^64 - 1`` by convention, is not read) skips the sequence-number
checks and leaves the sender's sequence number alone; its nonce is recorded when it runs
(:mod:`.framework._nonces`) so that it runs once.

A fee-payer transaction may come from an account that does not exist yet when its
sequence number is 0 and the address is the one its key derives: the account is created
as it runs, the fee payer paying. A simulation with the fee payer ``0x0`` (not known yet)
checks no fee payer and charges no fee, as public nodes simulate it.

*Execution* (:func:`execute`) runs the entry function's Python body in a
:class:`~ledgerkit.localnet.vm.framework.Context` (a published module's entry function, or a
script, in the Move interpreter: :mod:`._move_calls`), charges gas by :mod:`._gas_schedule`,
then runs the epilogue (sequence number bump, fee burned from the payer). A transaction that
fails after validation is kept: it pays for its gas, its sequence number is used, and
nothing else it did survives. Its ``vm_status`` is ``Move abort in 0x1::module:
NAME(0xcode): description`` (or ``... : 0xcode`` for codes without a name), ``Out of gas``,
or the name of a VM status: ``LINKER_ERROR`` (no such module),
``FUNCTION_RESOLUTION_FAILURE``, ``EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION``,
``NUMBER_OF_TYPE_ARGUMENTS_MISMATCH``, ``NUMBER_OF_ARGUMENTS_MISMATCH``,
``NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH``, ``FAILED_TO_DESERIALIZE_ARGUMENT``,
``FEATURE_UNDER_GATING``: the names of the ledger's ``StatusCode``, as public nodes spell
them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from ledgerkit._errors import BCSError, ErrorCode, InputError, SigningError
from ledgerkit.bcs import (
    AccountAuthenticator,
    Ed25519Authenticator,
    EntryFunction,
    FeePayerAuthenticator,
    MultiAgentAuthenticator,
    MultiEd25519Authenticator,
    MultiKeyAuthenticator,
    NoAccountAuthenticator,
    Script,
    Serializer,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
    TransactionPayloadV1,
)
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.vm._gas_schedule import (
    MAX_GAS_AMOUNT,
    MAX_GAS_UNIT_PRICE,
    MAX_TRANSACTION_SIZE,
    MIN_GAS_UNIT_PRICE,
    FeeStatement,
    GasUsage,
    fee_statement,
    intrinsic_gas,
    view_gas,
)
from ledgerkit.localnet.vm._metering import fee_event, gas_usage
from ledgerkit.localnet.vm._move_calls import (
    is_published,
    move_status,
    run_init_modules,
    run_published_entry,
    run_published_script,
    run_published_view,
)
from ledgerkit.localnet.vm._multisig import (
    MULTISIG_STATUS_CODES,
    multisig_prologue,
    run_multisig,
)
from ledgerkit.localnet.vm.framework import (
    ACCOUNT,
    APT_METADATA,
    FRAMEWORK,
    MODULE,
    OBJECT_GROUP,
    RESOURCE,
    Context,
    MoveAbortError,
    ReadFn,
    VMStatusError,
    Write,
    charge_fee,
    create_account,
    expand_groups,
    group_key_hash,
    is_group_member,
    member_order,
    nonce_used,
    record_nonce,
    sorted_fields,
    state_key_hash,
    store_balance,
)
from ledgerkit.localnet.vm.move import MoveExecutionError
from ledgerkit.types import Address, EntryFunctionId, MoveType, StructTag

__all__ = [
    "STATUS_CODES",
    "PrologueError",
    "StateChange",
    "TxnOutput",
    "entry_function_of",
    "execute",
    "finalize",
    "replay_nonce",
    "run_view",
    "script_of",
    "validate",
]

STATUS_CODES: Final = {
    "INVALID_SIGNATURE": 1,
    "INVALID_AUTH_KEY": 2,
    "SEQUENCE_NUMBER_TOO_OLD": 3,
    "SEQUENCE_NUMBER_TOO_NEW": 4,
    "INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE": 5,
    "TRANSACTION_EXPIRED": 6,
    "SENDING_ACCOUNT_DOES_NOT_EXIST": 7,
    "EXCEEDED_MAX_TRANSACTION_SIZE": 10,
    "MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND": 13,
    "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS": 14,
    "GAS_UNIT_PRICE_BELOW_MIN_BOUND": 15,
    "GAS_UNIT_PRICE_ABOVE_MAX_BOUND": 16,
    "BAD_CHAIN_ID": 23,
    "NONCE_ALREADY_USED": 42,
    "TRANSACTION_EXPIRATION_TOO_FAR_IN_FUTURE": 44,
    **MULTISIG_STATUS_CODES,
}
#: How far ahead of the ledger's time an orderless transaction may expire, in seconds.
ORDERLESS_EXPIRY_WINDOW: Final = 100
_NO_FEE_PAYER: Final = Address(bytes(32))
SUCCESS: Final = "Executed successfully"
_log = logging.getLogger("ledgerkit.localnet")
#: The status of a transaction a function body failed on (a fault of this node's framework).
INVARIANT_VIOLATION: Final = "UNKNOWN_INVARIANT_VIOLATION_ERROR"

_CANT_PAY: Final = MoveAbortError(
    "transaction_validation", 0x203ED, "PROLOGUE_ECANT_PAY_GAS_DEPOSIT"
)


class PrologueError(Exception):
    """The prologue refused the transaction: ``status`` names the Aptos StatusCode."""

    def __init__(self, status: str) -> None:
        self.status = status
        self.code = STATUS_CODES[status]
        super().__init__(status)

    def node_error(self) -> NodeError:
        """How the node answers a submission that failed so."""
        message = f"Invalid transaction: Type: Validation Code: {self.status}"
        if self.status == "SEQUENCE_NUMBER_TOO_OLD":
            return NodeError(ErrorCode.SEQUENCE_NUMBER_TOO_OLD, message, vm_error_code=self.code)
        return NodeError(ErrorCode.VM_ERROR, message, vm_error_code=self.code)


@dataclass(slots=True)
class StateChange:
    """One write of a transaction: store key, stored bytes (None: deleted), change JSON
    (None for a resource group member the change list does not name: one removed from a
    group that stays, or any but the first of a group deleted whole)."""

    skey: bytes
    json: bytes | None
    bcs: bytes | None
    change: dict[str, Any] | None

    @staticmethod
    def listed(changes: list[StateChange]) -> list[dict[str, Any]]:
        """The change JSON a transaction lists."""
        return [c.change for c in changes if c.change is not None]


@dataclass(slots=True)
class TxnOutput:
    """What executing one transaction did."""

    success: bool
    vm_status: str
    gas_used: int
    changes: list[StateChange]
    events: list[dict[str, Any]] = field(default_factory=list)
    handle_events: list[tuple[bytes, int, int, dict[str, Any]]] = field(default_factory=list)
    #: The user transaction's fee statement (None for the node's own transactions).
    fee: FeeStatement | None = None

    @property
    def effective_gas(self) -> int:
        """What the transaction counts towards the block gas limit: its execution and IO
        gas (storage fees do not count, as on a node)."""
        if self.fee is None:
            return self.gas_used
        return self.fee.execution_gas_units + self.fee.io_gas_units


# -- signers and keys -------------------------------------------------------------------------


def _authentication_key(auth: AccountAuthenticator) -> bytes | None:
    if isinstance(auth, Ed25519Authenticator):
        body = auth.public_key + b"\x00"
    elif isinstance(auth, MultiEd25519Authenticator):
        body = auth.public_key_bytes + b"\x01"
    elif isinstance(auth, SingleKeyAuthenticator):
        body = auth.public_key.to_bcs() + b"\x02"
    elif isinstance(auth, MultiKeyAuthenticator):
        s = Serializer()
        s.uleb128(len(auth.public_keys))
        for key in auth.public_keys:
            key.serialize(s)
        s.u8(auth.signatures_required)
        body = s.output() + b"\x03"
    else:
        return None
    return hashlib.sha3_256(body).digest()


def signers_of(
    signed: SignedTransaction,
) -> tuple[tuple[Address, ...], Address, list[tuple[Address, AccountAuthenticator]]]:
    """The function's signers, the gas payer, and every (address, authenticator) to check."""
    auth = signed.authenticator
    sender = signed.raw.sender
    if isinstance(auth, MultiAgentAuthenticator | FeePayerAuthenticator):
        checks = [(sender, auth.sender)]
        checks += list(zip(auth.secondary_signer_addresses, auth.secondary_signers, strict=True))
        signers = (sender, *auth.secondary_signer_addresses)
        if isinstance(auth, FeePayerAuthenticator):
            checks.append((auth.fee_payer_address, auth.fee_payer_signer))
            return signers, auth.fee_payer_address, checks
        return signers, sender, checks
    account_auth = auth.sender if isinstance(auth, SingleSenderAuthenticator) else auth
    return (sender,), sender, [(sender, account_auth)]


def entry_function_of(signed: SignedTransaction) -> EntryFunction | None:
    """The entry function a transaction calls, or None for payloads this node cannot run."""
    payload = signed.raw.payload
    if isinstance(payload, EntryFunction):
        return payload
    if (
        isinstance(payload, TransactionPayloadV1)
        and isinstance(payload.executable, EntryFunction)
        and payload.multisig_address is None
    ):
        return payload.executable
    return None


def script_of(signed: SignedTransaction) -> Script | None:
    """The script a transaction runs, or None."""
    payload = signed.raw.payload
    if isinstance(payload, Script):
        return payload
    if (
        isinstance(payload, TransactionPayloadV1)
        and isinstance(payload.executable, Script)
        and payload.multisig_address is None
    ):
        return payload.executable
    return None


def replay_nonce(signed: SignedTransaction) -> int | None:
    """The nonce of an orderless transaction; None for one ordered by sequence number."""
    payload = signed.raw.payload
    if isinstance(payload, TransactionPayloadV1):
        return payload.replay_protection_nonce
    return None


def _fee_payer_unknown(signed: SignedTransaction, mode: str) -> bool:
    """A simulation whose fee payer is ``0x0``: no payer is checked or charged."""
    auth = signed.authenticator
    return (
        mode == "simulate"
        and isinstance(auth, FeePayerAuthenticator)
        and auth.fee_payer_address == _NO_FEE_PAYER
    )


def _created_by_fee_payer(signed: SignedTransaction, auth: AccountAuthenticator) -> bool:
    """A sender without an account that a fee payer's transaction may create: its first
    transaction, signed by the key its address derives from."""
    raw = signed.raw
    return (
        isinstance(signed.authenticator, FeePayerAuthenticator)
        and raw.sequence_number == 0
        and replay_nonce(signed) is None
        and _authentication_key(auth) == bytes(raw.sender)
    )


# -- validation -------------------------------------------------------------------------------


def validate(
    signed: SignedTransaction,
    size: int,
    ctx: Context,
    *,
    chain_id: int,
    now_secs: int,
    mode: str,
) -> None:
    """Run the prologue checks; ``mode`` is ``mempool``, ``execute`` or ``simulate``.

    In ``mempool`` mode the signature is verified and a future sequence number is
    allowed (it waits); ``simulate`` skips the signature (it must not be valid there).

    Raises
    ------
    PrologueError
        The first check that failed.
    NodeError
        ``invalid_input`` for a signature scheme that cannot be checked here.
    """
    raw = signed.raw
    if size > MAX_TRANSACTION_SIZE:
        raise PrologueError("EXCEEDED_MAX_TRANSACTION_SIZE")
    if raw.chain_id != chain_id:
        raise PrologueError("BAD_CHAIN_ID")
    if raw.max_gas_amount > MAX_GAS_AMOUNT:
        raise PrologueError("MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND")
    if raw.max_gas_amount < intrinsic_gas(size):
        raise PrologueError("MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS")
    if raw.gas_unit_price < MIN_GAS_UNIT_PRICE:
        raise PrologueError("GAS_UNIT_PRICE_BELOW_MIN_BOUND")
    if raw.gas_unit_price > MAX_GAS_UNIT_PRICE:
        raise PrologueError("GAS_UNIT_PRICE_ABOVE_MAX_BOUND")
    if mode == "mempool":
        try:
            verified = signed.verify()
        except SigningError as exc:
            raise NodeError(ErrorCode.INVALID_INPUT, f"cannot check the signature: {exc}") from None
        if not verified:
            raise PrologueError("INVALID_SIGNATURE")
    if raw.expiration_timestamp_secs <= now_secs:
        raise PrologueError("TRANSACTION_EXPIRED")
    nonce = replay_nonce(signed)
    if nonce is not None and raw.expiration_timestamp_secs > now_secs + ORDERLESS_EXPIRY_WINDOW:
        raise PrologueError("TRANSACTION_EXPIRATION_TOO_FAR_IN_FUTURE")
    _, payer, checks = signers_of(signed)
    unknown_payer = _fee_payer_unknown(signed, mode)
    new_sender = False
    for address, auth in checks:
        if unknown_payer and address == payer:
            continue
        account = ctx.resource(address, ACCOUNT)
        if account is None:
            if address == raw.sender and _created_by_fee_payer(signed, auth):
                new_sender = True
                continue
            raise PrologueError("SENDING_ACCOUNT_DOES_NOT_EXIST")
        if mode == "simulate" and isinstance(auth, NoAccountAuthenticator):
            continue
        key = _authentication_key(auth)
        if key is None or "0x" + key.hex() != account["authentication_key"]:
            raise PrologueError("INVALID_AUTH_KEY")
    if nonce is not None:
        if nonce_used(ctx, raw.sender, nonce, now_secs):
            raise PrologueError("NONCE_ALREADY_USED")
    elif not new_sender:
        on_chain = int(ctx.resource(raw.sender, ACCOUNT)["sequence_number"])
        if raw.sequence_number < on_chain:
            raise PrologueError("SEQUENCE_NUMBER_TOO_OLD")
        if raw.sequence_number > on_chain and mode != "mempool":
            raise PrologueError("SEQUENCE_NUMBER_TOO_NEW")
    if not unknown_payer and (
        store_balance(ctx, payer, APT_METADATA) < raw.max_gas_amount * raw.gas_unit_price
    ):
        raise PrologueError("INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE")
    refused = multisig_prologue(signed, ctx)
    if refused is not None:
        raise PrologueError(refused)


# -- execution --------------------------------------------------------------------------------


def _arguments(function: Any, ef: EntryFunction) -> list[Any]:
    params = [p.substitute(ef.type_args) for p in function.value_params]
    if len(params) != len(ef.args):
        raise VMStatusError("NUMBER_OF_ARGUMENTS_MISMATCH")
    try:
        return [FRAMEWORK.codec.decode(t, raw) for t, raw in zip(params, ef.args, strict=True)]
    except (BCSError, InputError) as exc:
        raise VMStatusError("FAILED_TO_DESERIALIZE_ARGUMENT", str(exc)) from None


def _keys_hold(generics: Sequence[Sequence[str]], type_args: Sequence[MoveType]) -> bool:
    """Whether every type argument of a ``key``-constrained parameter is a struct with ``key``."""
    for constraints, t in zip(generics, type_args, strict=True):
        if "key" in constraints:
            spec = FRAMEWORK.layouts.struct(t) if isinstance(t, StructTag) else None
            if spec is None or "key" not in spec.abilities:
                return False
    return True


def _run_entry(
    ctx: Context,
    ef: EntryFunction,
    arguments: list[Any] | None,
    max_gas_amount: int = MAX_GAS_AMOUNT,
) -> None:
    module, function = FRAMEWORK.function(ef.function_id)
    if module is None and is_published(ef.function_id):
        run_published_entry(
            ctx, ef.function_id, ef.type_args, ef.args, max_gas_amount=max_gas_amount
        )
        return
    if module is None:
        raise VMStatusError("LINKER_ERROR")
    if function is None:
        raise VMStatusError("FUNCTION_RESOLUTION_FAILURE")
    if not function.entry:
        raise VMStatusError("EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION")
    if len(ef.type_args) != len(function.generics):
        raise VMStatusError("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH")
    if not _keys_hold(function.generics, ef.type_args):
        raise VMStatusError("CONSTRAINT_NOT_SATISFIED")
    if len(function.params) - function.signer_count != len(ef.args):
        raise VMStatusError("NUMBER_OF_ARGUMENTS_MISMATCH")
    # As on a node: a function without signer parameters runs whoever signed; one with
    # them needs exactly one signer per parameter.
    if function.signer_count and function.signer_count != len(ctx.signers):
        raise VMStatusError("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH")
    if arguments is not None and len(arguments) == len(ef.args):
        args = arguments
    else:
        args = _arguments(function, ef)
    body = FRAMEWORK.body(ef.function_id)
    if body is None:
        raise VMStatusError("FUNCTION_RESOLUTION_FAILURE")
    body(ctx, ef.type_args, args)
    if any(w.kind == MODULE and not w.existed for w in ctx.writes.values()):
        run_init_modules(ctx, max_gas_amount=max_gas_amount)  # a first publish


def _statement(signed: SignedTransaction, usage: GasUsage) -> tuple[FeeStatement, bool]:
    raw = signed.raw
    return fee_statement(
        usage, gas_unit_price=raw.gas_unit_price, max_gas_amount=raw.max_gas_amount
    )


def _epilogue(
    ctx: Context, signed: SignedTransaction, payer: Address, statement: FeeStatement
) -> None:
    """Use the transaction's sequence number (or its nonce) and charge the fee: gas used
    times the gas unit price, less the storage refund."""
    raw = signed.raw
    nonce = replay_nonce(signed)
    now_secs = ctx.timestamp_usec // 1_000_000
    if nonce is not None:
        record_nonce(ctx, raw.sender, nonce, raw.expiration_timestamp_secs, now_secs)
    else:
        account = ctx.resource(raw.sender, ACCOUNT)
        if account is None:  # a fee payer's transaction creating its sender
            create_account(ctx, raw.sender)
            account = ctx.resource(raw.sender, ACCOUNT)
        account["sequence_number"] = str(int(account["sequence_number"]) + 1)
        ctx.put(raw.sender, ACCOUNT, account)
    if payer != _NO_FEE_PAYER:
        charge_fee(ctx, payer, _net_fee(signed, statement))


def _net_fee(signed: SignedTransaction, statement: FeeStatement) -> int:
    """Octas the payer pays: negative when the refund is the larger."""
    return (
        statement.total_charge_gas_units * signed.raw.gas_unit_price
        - statement.storage_fee_refund_octas
    )


def execute(
    signed: SignedTransaction,
    size: int,
    read: ReadFn,
    *,
    chain_id: int,
    timestamp_usec: int,
    arguments: list[Any] | None = None,
) -> TxnOutput:
    """Run a validated user transaction against ``read`` and return its output.

    ``arguments`` are the call's arguments already decoded (as the mempool keeps them).
    """
    signers, payer, _ = signers_of(signed)
    ctx = Context(
        read,
        FRAMEWORK.codec,
        timestamp_usec=timestamp_usec,
        chain_id=chain_id,
        signers=signers,
        txn_hash=bytes(signed.hash()),
    )
    ctx.orderless = replay_nonce(signed) is not None
    ef = entry_function_of(signed)
    script = script_of(signed)
    try:
        if script is not None:
            run_published_script(ctx, script, max_gas_amount=signed.raw.max_gas_amount)
        elif ef is None:  # a multisig payload, or one this node does not run
            ctx = run_multisig(
                ctx,
                signed,
                lambda inner, call: _run_entry(inner, call, None),
                lambda: Context(
                    read, FRAMEWORK.codec, timestamp_usec=timestamp_usec, chain_id=chain_id
                ),
            )
        else:
            _run_entry(ctx, ef, arguments, signed.raw.max_gas_amount)
        statement, out_of_gas = _statement(signed, gas_usage(ctx, size, completed=True))
        if out_of_gas:
            status = "Out of gas"
        elif payer != _NO_FEE_PAYER and store_balance(ctx, payer, APT_METADATA) < _net_fee(
            signed, statement
        ):
            status = _CANT_PAY.vm_status
        else:
            _epilogue(ctx, signed, payer, statement)
            events = [*ctx.events, fee_event(statement)]
            gas = statement.total_charge_gas_units
            changes = finalize(ctx)
            return TxnOutput(True, SUCCESS, gas, changes, events, ctx.handle_events, statement)
    except MoveAbortError as abort:
        statement, out_of_gas = _statement(signed, gas_usage(ctx, size, completed=False))
        status = "Out of gas" if out_of_gas else abort.vm_status
    except MoveExecutionError as failure:  # published code failed as it ran
        statement, out_of_gas = _statement(signed, gas_usage(ctx, size, completed=False))
        status = "Out of gas" if out_of_gas else move_status(ctx, failure)
    except VMStatusError as failure:
        statement, _ = _statement(signed, GasUsage(size=size, calls=0))
        status = failure.status
    except Exception:
        # A function body's own fault: the transaction fails as a VM invariant violation,
        # named in the log, rather than stopping every block after it.
        _log.exception("the framework failed on transaction %s", signed.hash())
        statement, _ = _statement(signed, GasUsage(size=size, calls=0))
        status = INVARIANT_VIOLATION
    if statement.storage_fee_refund_octas:  # a failed transaction deletes nothing
        statement = dataclasses.replace(statement, storage_fee_refund_octas=0)
    kept = Context(
        read, FRAMEWORK.codec, timestamp_usec=timestamp_usec, chain_id=chain_id, signers=signers
    )
    _epilogue(kept, signed, payer, statement)
    gas = statement.total_charge_gas_units
    return TxnOutput(False, status, gas, finalize(kept), [fee_event(statement)], [], statement)


def finalize(ctx: Context) -> list[StateChange]:
    """The context's writes as stored bytes and change JSON, in state key order, each
    resource group written whole (:func:`~.framework.expand_groups`)."""
    expand_groups(ctx)
    codec = FRAMEWORK.codec
    out = []
    change: dict[str, Any]
    emptied = _emptied_groups(ctx)
    for w in sorted(ctx.writes.values(), key=_write_order):
        member = w.kind == RESOURCE and is_group_member(w.path)
        key_hash = group_key_hash(bytes(w.address), OBJECT_GROUP) if member else None
        if key_hash is None:
            key_hash = state_key_hash(w.skey)
        if w.kind == RESOURCE:
            address = w.address.standard
            if w.value is None:
                change = {
                    "address": address,
                    "state_key_hash": key_hash,
                    "resource": OBJECT_GROUP if member else w.path,
                    "type": "delete_resource",
                }
                # A group that stays is written, not deleted: the member just leaves it.
                listed = not member or emptied.pop(w.address, False)
                out.append(StateChange(w.skey, None, None, change if listed else None))
                continue
            resource = {"type": w.path, "data": sorted_fields(w.value)}
            bcs = w.bcs or codec.encode(w.path, w.value)
            change = {
                "address": address,
                "state_key_hash": key_hash,
                "data": resource,
                "type": "write_resource",
            }
            out.append(StateChange(w.skey, orjson.dumps(resource), bcs, change))
        elif w.kind == MODULE:
            change = {
                "address": w.address.standard,
                "state_key_hash": key_hash,
                "data": w.value,
                "type": "write_module",
            }
            # A published module is not one of the framework's.
            framework_module = FRAMEWORK.module_payloads.get((w.address, w.path))
            json_bytes = orjson.dumps(w.value) if framework_module is None else framework_module[1]
            out.append(StateChange(w.skey, json_bytes, w.bcs, change))
        else:
            handle, key_hex = w.address.standard, "0x" + w.bcs.hex()
            if w.value is None:
                change = {
                    "state_key_hash": key_hash,
                    "handle": handle,
                    "key": key_hex,
                    "data": {"key": sorted_fields(w.key), "key_type": w.path},
                    "type": "delete_table_item",
                }
                out.append(StateChange(w.skey, None, None, change))
                continue
            value_bcs = w.value_bcs or codec.encode(w.value_type, w.value)
            key, value = sorted_fields(w.key), sorted_fields(w.value)
            data = {"key": key, "key_type": w.path, "value": value, "value_type": w.value_type}
            change = {
                "state_key_hash": key_hash,
                "handle": handle,
                "key": key_hex,
                "value": "0x" + value_bcs.hex(),
                "data": data,
                "type": "write_table_item",
            }
            out.append(StateChange(w.skey, orjson.dumps(data), value_bcs, change))
    return out


def _emptied_groups(ctx: Context) -> dict[Address, bool]:
    """The addresses whose resource group the writes leave without members (True)."""
    live: dict[Address, bool] = {}
    for w in ctx.writes.values():
        if w.kind == RESOURCE and is_group_member(w.path):
            live[w.address] = live.get(w.address, False) or w.value is not None
    return {address: True for address, alive in live.items() if not alive}


def _write_order(w: Write) -> bytes:
    # At an address, a group (``Path::ResourceGroup``) comes after the plain resources,
    # its members in struct tag order.
    if w.kind == RESOURCE and is_group_member(w.path):
        return w.skey[1:33] + b"\x00\xff" + member_order(w.path)
    return w.skey[1:33] + w.skey[:1] + w.skey[33:]


# -- views ------------------------------------------------------------------------------------


def _invalid(message: str) -> NodeError:
    return NodeError(ErrorCode.INVALID_INPUT, message)


def _view_refusal(fid: EntryFunctionId, failure: VMStatusError) -> NodeError:
    """How the node refuses a view of published code before it runs."""
    if failure.status == "LINKER_ERROR":
        return _invalid(f"Module {fid.module} not found")
    if failure.status == "FUNCTION_RESOLUTION_FAILURE":
        return _invalid(f"Function {fid} not found")
    if failure.status == "INVALID_MAIN_FUNCTION_SIGNATURE":
        return _invalid(f"Function {fid} is not marked as a view function")
    return _invalid(f"Invalid arguments for {fid}: {failure.status}: {failure}")


def run_view(
    read: ReadFn,
    fid: EntryFunctionId,
    type_args: Sequence[MoveType],
    args: Sequence[Any],
    *,
    bcs_args: bool,
    timestamp_usec: int,
    chain_id: int,
) -> tuple[list[Any], bytes, int]:
    """Run a view function read-only: JSON values, their BCS (count-prefixed) and gas.

    ``args`` are JSON values, or BCS bytes when ``bcs_args``. Every failure (unknown or
    non-view function, wrong arguments, an abort) is ``invalid_input``, as on a node.
    """
    module, function = FRAMEWORK.function(fid)
    if module is None and is_published(fid):
        ctx = Context(read, FRAMEWORK.codec, timestamp_usec=timestamp_usec, chain_id=chain_id)
        try:
            results_json, results_bcs = run_published_view(
                ctx, fid, type_args, args, json_args=not bcs_args, max_gas_amount=MAX_GAS_AMOUNT
            )
        except MoveExecutionError as failure:
            status = move_status(ctx, failure)
            raise _invalid(f"Failed to execute view function {fid}: {status}") from None
        except MoveAbortError as abort:  # an argument the framework refuses
            raise _invalid(f"Failed to execute view function {fid}: {abort.vm_status}") from None
        except VMStatusError as failure:
            raise _view_refusal(fid, failure) from None
        out = Serializer()
        out.uleb128(len(results_bcs))
        for raw in results_bcs:
            out.fixed_bytes(raw)
        return (
            sorted_fields(results_json),
            out.output(),
            view_gas(ctx.read_pages, ctx.extra_gas, ctx.calls),
        )
    if module is None:
        raise _invalid(f"Module {fid.module} not found")
    if function is None:
        raise _invalid(f"Function {fid} not found")
    if not function.view:
        raise _invalid(f"Function {fid} is not marked as a view function")
    types = tuple(type_args)
    if len(types) != len(function.generics):
        raise _invalid(f"{fid} takes {len(function.generics)} type argument(s), got {len(types)}")
    if not _keys_hold(function.generics, types):
        raise _invalid(f"{fid}: a type argument does not satisfy its constraints")
    params = [p.substitute(types) for p in function.value_params]
    if len(params) != len(args):
        raise _invalid(f"{fid} takes {len(params)} argument(s), got {len(args)}")
    codec = FRAMEWORK.codec
    try:
        encoded = (
            args if bcs_args else [codec.encode(t, a) for t, a in zip(params, args, strict=True)]
        )
        values = [codec.decode(t, raw) for t, raw in zip(params, encoded, strict=True)]
    except (BCSError, InputError) as exc:
        raise _invalid(f"Invalid arguments for {fid}: {exc}") from None
    body = FRAMEWORK.body(fid)
    if body is None:
        raise _invalid(f"Function {fid} cannot be run by this node")
    ctx = Context(read, codec, timestamp_usec=timestamp_usec, chain_id=chain_id)
    try:
        results = body(ctx, types, values) or []
    except MoveAbortError as abort:
        raise _invalid(f"Failed to execute view function {fid}: {abort.vm_status}") from None
    except VMStatusError as failure:
        raise _invalid(f"Failed to execute view function {fid}: {failure.status}") from None
    returns = [r.substitute(types) for r in function.return_types]
    out = Serializer()
    out.uleb128(len(results))
    for t, value in zip(returns, results, strict=True):
        out.fixed_bytes(codec.encode(t, value))
    gas = view_gas(ctx.read_pages, ctx.extra_gas)
    return sorted_fields(results), out.output(), gas
