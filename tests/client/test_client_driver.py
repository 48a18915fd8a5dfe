"""The one flow driver, blocking and asyncio: each step goes to ``send`` and its answer
comes back into the flow; an error of the tree is thrown into the flow where it asked;
anything else ends it; the flow's return value is the driver's; the flow is closed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from typing import Any

import pytest

from ledgerkit import InputError, LedgerError, NotFoundError
from ledgerkit.client._driver import Pause, adrive, drive, now, step


def _run_both(
    flow: Callable[[], Generator[Any, Any, Any]], send: Callable[[Any], Any]
) -> tuple[Any, Any]:
    """The flow's value driven blocking, and driven by asyncio with the same ``send``."""

    async def asend(what: Any) -> Any:
        return send(what)

    return drive(flow(), send), asyncio.run(adrive(flow(), asend))


def test_each_step_is_sent_and_its_answer_comes_back() -> None:
    seen: list[Any] = []

    def send(what: Any) -> Any:
        seen.append(what)
        return f"answer to {what}"

    def flow() -> Generator[str, str, list[str]]:
        first = yield "a"
        second = yield from step("b")
        return [first, second]

    assert _run_both(flow, send) == (["answer to a", "answer to b"],) * 2
    assert seen == ["a", "b", "a", "b"]


def test_a_flow_without_steps_returns_at_once() -> None:
    def flow() -> Generator[Any, Any, int]:
        return 7
        yield  # a generator all the same

    assert _run_both(flow, lambda what: pytest.fail("nothing to send")) == (7, 7)


def test_an_error_of_the_tree_is_thrown_into_the_flow_where_it_asked() -> None:
    def send(what: str) -> str:
        if what == "missing":
            raise NotFoundError("not there", status=404, error_code="account_not_found")
        return what.upper()

    def flow() -> Generator[str, str, tuple[str, str]]:
        try:
            yield "missing"
        except NotFoundError as exc:
            caught = f"caught {exc.error_code}"
        else:  # pragma: no cover - the step always fails
            caught = "not caught"
        after = yield "next"
        return caught, after

    assert _run_both(flow, send) == (("caught account_not_found", "NEXT"),) * 2


def test_an_error_the_flow_does_not_catch_leaves_the_driver() -> None:
    def send(what: str) -> str:
        raise InputError(f"bad {what}")

    def flow() -> Generator[str, str, None]:
        yield "step"

    with pytest.raises(InputError, match="bad step"):
        drive(flow(), send)

    async def asend(what: str) -> str:
        raise InputError(f"bad {what}")

    with pytest.raises(InputError, match="bad step"):
        asyncio.run(adrive(flow(), asend))


def test_other_exceptions_end_the_flow_and_close_it() -> None:
    closed: list[str] = []

    def flow() -> Generator[str, str, None]:
        try:
            yield "step"
        except RuntimeError:  # pragma: no cover - never thrown in
            closed.append("thrown in")
        finally:
            closed.append("closed")

    def send(what: str) -> str:
        raise RuntimeError("a bug, not a ledger error")

    with pytest.raises(RuntimeError, match="a bug"):
        drive(flow(), send)
    assert closed == ["closed"]

    async def asend(what: str) -> str:
        raise RuntimeError("a bug, not a ledger error")

    closed.clear()
    with pytest.raises(RuntimeError, match="a bug"):
        asyncio.run(adrive(flow(), asend))
    assert closed == ["closed"]


def test_a_flow_raising_its_own_error_leaves_the_driver_with_it() -> None:
    def flow() -> Generator[str, str, None]:
        answer = yield "step"
        raise LedgerError(f"the flow refuses {answer}")

    with pytest.raises(LedgerError, match="the flow refuses ok"):
        drive(flow(), lambda what: "ok")


def test_pauses_are_steps_the_client_answers_with_its_clock() -> None:
    waited: list[float] = []
    clock = [100.0]

    def send(what: Any) -> Any:
        assert isinstance(what, Pause)
        waited.append(what.seconds)
        clock[0] += what.seconds
        return clock[0]

    def flow() -> Generator[Pause, float, tuple[float, float]]:
        start = yield from now()
        end = yield Pause(2.5)
        return start, end

    assert drive(flow(), send) == (100.0, 102.5)
    assert waited == [0.0, 2.5]


def test_the_async_driver_awaits_each_step() -> None:
    order: list[str] = []

    async def asend(what: str) -> str:
        order.append(f"start {what}")
        await asyncio.sleep(0)
        order.append(f"end {what}")
        return what * 2

    def flow() -> Generator[str, str, str]:
        first = yield "x"
        second = yield "y"
        return first + second

    send: Callable[[str], Awaitable[str]] = asend
    assert asyncio.run(adrive(flow(), send)) == "xxyy"
    assert order == ["start x", "end x", "start y", "end y"]
