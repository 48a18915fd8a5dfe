"""Multi-step flows, written once for both clients. No I/O here.

A flow is a generator: it yields the next step and is sent what that step gave, until
it returns its value. The steps are a :class:`~ledgerkit.client.Call` (the client sends
it and sends back its :class:`~ledgerkit.Result`, or throws the exception from the
error tree into the flow) and a :class:`Pause` (the client waits, and sends back its
clock's monotonic time). :meth:`Client._drive` and :meth:`AsyncClient._drive` are the two
drivers, each a few lines; the flow itself (wait for a transaction, build one with
auto-filled fields, simulate, submit and wait) is the same code for both, as httpx
writes its authentication flows once and drives them from its sync and async clients.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Final, TypeAlias, TypeVar

from ledgerkit._errors import (
    InputError,
    MoveModuleNotFoundError,
    RequestTimeoutError,
    TransactionNotFoundError,
)
from ledgerkit.bcs import RawTransaction, SignedTransaction, TransactionData
from ledgerkit.client import _calls as calls
from ledgerkit.client import _decoders as dec
from ledgerkit.client._base import Call
from ledgerkit.models import Transaction
from ledgerkit.tx import ModuleAbis, TransactionExplanation, entry_function_of, explain_transaction
from ledgerkit.types import Result

__all__ = [
    "WAIT_PAUSE_SECONDS",
    "Flow",
    "Now",
    "Pause",
    "Step",
    "explain",
    "now",
    "send",
    "wait_for_transaction",
]

T = TypeVar("T")

#: Pause between two long polls of ``wait_by_hash`` (the node itself waits about 1 s).
WAIT_PAUSE_SECONDS: Final = 0.05


@dataclass(frozen=True, slots=True)
class Pause:
    """Wait ``seconds`` (0: not at all); the driver answers with its clock's monotonic time."""

    seconds: float


#: The driver's clock, read without waiting.
Now: Final = Pause(0.0)

#: What a flow yields.
Step: TypeAlias = Call[Any] | Pause
#: A flow returning ``T``: sent a :class:`~ledgerkit.Result` after a call, a float after a pause.
Flow: TypeAlias = Generator[Step, Any, T]


def send(call: Call[T]) -> Generator[Step, Any, Result[T]]:
    """One call as a step of a flow, typed: ``result = yield from send(call)``."""
    result: Result[T] = yield call
    return result


def now() -> Generator[Step, Any, float]:
    """The driver's monotonic clock: ``t = yield from now()``."""
    seconds: float = yield Now
    return seconds


def wait_for_transaction(txn_hash: str | bytes, timeout: float) -> Flow[Result[Transaction]]:
    """Long-poll ``wait_by_hash`` until the transaction is committed (failed ones too).

    Raises
    ------
    RequestTimeoutError
        Still pending after ``timeout`` seconds.
    TransactionNotFoundError
        The node has never heard of it by then (expired, or never accepted).
    """
    call = calls.wait_by_hash(txn_hash)
    deadline = (yield from now()) + timeout
    while True:
        missing: TransactionNotFoundError | None = None
        try:
            result = yield from send(call)
        except TransactionNotFoundError as exc:
            missing = exc
        else:
            if not dec.is_pending(result.value):
                return result
        if (yield from now()) >= deadline:
            if missing is not None:
                raise missing
            raise RequestTimeoutError(
                f"transaction {call.path.rsplit('/', 1)[1]} still pending after {timeout}s"
            )
        yield Pause(WAIT_PAUSE_SECONDS)


def explain(
    txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes, abis: ModuleAbis
) -> Flow[TransactionExplanation]:
    """Fetch what an explanation needs (the transaction's BCS when given by version or
    hash; the called module's ABI unless ``abis`` has it), then explain it.

    Raises
    ------
    InputError
        Not a transaction, a version or a hash.
    TransactionNotFoundError
        No transaction at that version or with that hash.
    """
    value: RawTransaction | SignedTransaction | TransactionData
    if isinstance(txn, bool):
        raise InputError("explain takes a transaction, a version or a hash, got a bool")
    if isinstance(txn, int):
        value = (yield from send(calls.transaction_by_version_bcs(txn))).value
    elif isinstance(txn, str | bytes):
        value = (yield from send(calls.transaction_by_hash_bcs(txn))).value
    elif isinstance(txn, RawTransaction | SignedTransaction | TransactionData):
        value = txn
    else:
        raise InputError(
            "explain takes a RawTransaction, SignedTransaction, TransactionData, a version "
            f"or a hash, got {type(txn).__name__}"
        )
    ef = entry_function_of(value)
    if ef is not None and ef.module not in abis:
        try:
            found = yield from send(calls.account_module(ef.module.address, ef.module.name, None))
        except MoveModuleNotFoundError:
            abis.add(ef.module, None)
        else:
            abis.add(ef.module, found.value.abi)
    return explain_transaction(value, abis=abis)
