"""Answers built to break a parser: a 2xx body nested past Python's recursion limit, and a
``Retry-After`` too large for a float. Each ends in a typed error of the ledgerkit tree,
sync and async alike, never a ``RecursionError`` or ``OverflowError``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from email.utils import formatdate
from typing import Any

import httpx
import pytest
from client_fakes import LEDGER_INFO, META, AsyncFakeClock, FakeClock, FakeNode, answer, error

from ledgerkit import DecodingError, RateLimitedError, ServerError
from ledgerkit.client._pacing import parse_retry_after

KINDS = ["sync", "async"]


def run(kind: str, node: FakeNode, call: Callable[[Any], Any]) -> FakeClock:
    if kind == "sync":
        clock = FakeClock()
        with node.client(clock=clock) as client:
            call(client)
        return clock
    aclock = AsyncFakeClock()

    async def main() -> None:
        async with node.async_client(clock=aclock) as client:
            await call(client)

    asyncio.run(main())
    return aclock


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("depth", [1_000, 5_000, 200_000])
def test_a_deeply_nested_2xx_body_is_a_decoding_error(kind: str, depth: int) -> None:
    node = FakeNode()
    nested = b"[" * depth + b"]" * depth
    node.on("GET", "/transactions/by_version/5", answer(None, raw=nested))
    with pytest.raises(DecodingError) as caught:
        run(kind, node, lambda c: c.transaction_by_version(5))
    assert caught.value.status == 200
    assert "/transactions/by_version/5" in str(caught.value)


@pytest.mark.parametrize("kind", KINDS)
def test_a_deeply_nested_view_answer_is_a_decoding_error(kind: str) -> None:
    node = FakeNode()
    nested = b"[" * 3_000 + b"1" + b"]" * 3_000
    node.on("POST", "/view", answer(None, raw=nested))
    with pytest.raises(DecodingError):
        run(kind, node, lambda c: c.view_json("0x1::m::f", [], []))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("digits", [400, 5_000])
def test_a_retry_after_of_hundreds_of_digits_is_not_waited_for(kind: str, digits: int) -> None:
    node = FakeNode()
    huge = "9" * digits
    node.on("GET", "/", error(429, "rate_limited", headers={"Retry-After": huge}))
    with pytest.raises(RateLimitedError):
        run(kind, node, lambda c: c.ledger_info())
    assert len(node.requests) == 1  # far past max_retry_after: raised at once


@pytest.mark.parametrize("kind", KINDS)
def test_a_retry_after_date_out_of_range_falls_back_to_backoff(kind: str) -> None:
    node = FakeNode()
    queue = [
        error(503, "internal_error", headers={"Retry-After": "Fri, 31 Dec 99999 23:59:59 GMT"}),
        answer(LEDGER_INFO),
    ]

    def handler(_: httpx.Request) -> httpx.Response:
        return queue.pop(0)

    node.on("GET", "/", handler)
    clock = run(kind, node, lambda c: c.ledger_info())
    assert len(node.requests) == 2
    assert len(clock.sleeps) == 1
    assert 0.0 <= clock.sleeps[0] <= 0.25


def test_parse_retry_after_bounds_what_it_reads() -> None:
    assert parse_retry_after("9" * 400, now=0.0) == float("inf")
    assert parse_retry_after("9" * 5_000, now=0.0) == float("inf")
    assert parse_retry_after("0" * 400 + "5", now=0.0) == 5.0
    assert parse_retry_after("120", now=0.0) == 120.0
    assert parse_retry_after("Fri, 31 Dec 99999 23:59:59 GMT", now=0.0) is None
    assert parse_retry_after(formatdate(30.0, usegmt=True), now=10.0) == 20.0


def test_a_deep_error_record_still_names_the_status() -> None:
    node = FakeNode()
    node.on("GET", "/", answer(None, status=500, raw=b"[" * 100_000, meta=META))
    with pytest.raises(ServerError) as caught:
        run("sync", node, lambda c: c.ledger_info())
    assert caught.value.status == 500
