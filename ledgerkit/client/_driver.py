"""Flows and the two loops that run them: :func:`drive` (blocking) and :func:`adrive`
(asyncio). No I/O here.

A flow is a generator written once for the blocking and the asyncio client alike, as
httpx writes its authentication flows once: it yields a *step* (something to do), is sent
back what the step gave, and returns its value. What a step is belongs to the client that
runs the flow: the node client's are a :class:`~ledgerkit.client.Call` (sent; its
:class:`~ledgerkit.Result` comes back), :class:`Together` (calls sent at once; each one's
outcome comes back) and a :class:`Pause` (waited; the clock's monotonic time comes back),
the faucet client's a request to the faucet or a question for the node client, the docs
client's a page to fetch. The loop is the same for all three and is
written here alone: the client hands :func:`drive` (or :func:`adrive`) its flow and its
``send``, the function that performs one step.

When ``send`` raises an error of ledgerkit's tree (:class:`~ledgerkit.LedgerError`), the
error is thrown into the flow at the ``yield`` that asked for the step, so the flow may
catch it (a 404 that means "not yet", a refusal to retry after); anything else ends the
flow and propagates. A flow that ends, however it ends, is closed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar

from ledgerkit._errors import LedgerError

if TYPE_CHECKING:
    from ledgerkit.client._call import Call
    from ledgerkit.types import Result

__all__ = [
    "Flow",
    "Now",
    "Pause",
    "Together",
    "adrive",
    "drive",
    "now",
    "send",
    "send_together",
    "step",
]

T = TypeVar("T")
S = TypeVar("S")

#: A flow returning ``T``: it yields steps and is sent what each gave.
Flow: TypeAlias = Generator[Any, Any, T]


@dataclass(frozen=True, slots=True)
class Pause:
    """A step: wait ``seconds`` (0: not at all); the client answers with its clock's
    monotonic time."""

    seconds: float


#: The clock's monotonic time, read without waiting.
Now: Final = Pause(0.0)


@dataclass(frozen=True, slots=True)
class Together:
    """A step: node calls sent at once (an asyncio client sends them concurrently, a
    blocking one in turn); the client answers with one outcome per call, in order: its
    :class:`~ledgerkit.Result`, or the error of ledgerkit's tree it raised."""

    calls: tuple[Call[Any], ...]


def step(what: S) -> Generator[S, Any, Any]:
    """One step inside a flow, as an expression: ``result = yield from step(call)``."""
    answer = yield what
    return answer


def send(call: Call[T]) -> Generator[Call[T], Any, Result[T]]:
    """A node client's call as a step, typed: ``result = yield from send(call)``."""
    result: Result[T] = yield call
    return result


def send_together(
    calls: Iterable[Call[T]],
) -> Generator[Together, Any, list[Result[T] | LedgerError]]:
    """Node calls as one step: ``outcomes = yield from send_together(calls)``, a
    :class:`~ledgerkit.Result` or a :class:`~ledgerkit.LedgerError` per call, in order."""
    outcomes: list[Result[T] | LedgerError] = yield Together(tuple(calls))
    return outcomes


def now() -> Generator[Pause, Any, float]:
    """The driving client's monotonic clock: ``t = yield from now()``."""
    seconds: float = yield Now
    return seconds


def drive(flow: Generator[S, Any, T], send: Callable[[S], Any]) -> T:
    """Run ``flow`` to its end in this thread: perform each step with ``send``.

    Parameters
    ----------
    flow : generator
        Yields steps, is sent what ``send`` returned for each, returns the value.
    send : callable
        Performs one step; an error of ledgerkit's tree that it raises is thrown into
        the flow.

    Returns
    -------
    object
        What the flow returns.
    """
    try:
        what = next(flow)
        while True:
            try:
                answer = send(what)
            except LedgerError as exc:
                what = flow.throw(exc)
            else:
                what = flow.send(answer)
    except StopIteration as stop:
        value: T = stop.value
        return value
    finally:
        flow.close()


async def adrive(flow: Generator[S, Any, T], send: Callable[[S], Awaitable[Any]]) -> T:
    """:func:`drive` for asyncio: each step is awaited (``send`` returns an awaitable)."""
    try:
        what = next(flow)
        while True:
            try:
                answer = await send(what)
            except LedgerError as exc:
                what = flow.throw(exc)
            else:
                what = flow.send(answer)
    except StopIteration as stop:
        value: T = stop.value
        return value
    finally:
        flow.close()
