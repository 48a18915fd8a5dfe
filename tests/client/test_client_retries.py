"""Retries and limits, proven with a faulty transport and a fake clock (no real waiting).

Idempotent requests are retried after 429, 503 and dropped connections, honouring
``Retry-After``; ``POST /transactions`` is attempted exactly once; the limiter keeps
requests in flight under ``max_concurrency`` and spaces them for ``max_rps``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from email.utils import formatdate
from typing import Any

import httpx
import pytest
from client_fakes import (
    ADDRESS,
    HASH,
    LEDGER_INFO,
    PENDING,
    SUBMITTED,
    AsyncFakeClock,
    FakeClock,
    FakeNode,
    answer,
    error,
    user_transaction,
)

from ledgerkit import (
    HealthCheckFailedError,
    InvalidInputError,
    NodeAPIError,
    RateLimitedError,
    RequestTimeoutError,
    ServerError,
    TransactionNotFoundError,
    TransportError,
)
from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.client import Retry
from ledgerkit.tx import Ed25519PrivateKey

KINDS = ["sync", "async"]
KEY = Ed25519PrivateKey.from_seed(b"retries")


def signed() -> Any:
    raw = RawTransaction(KEY.address(), 0, EntryFunction.build("0x1::m::f"), 10, 100, 1, 4)
    return KEY.sign_transaction(raw)


def run(kind: str, node: FakeNode, call: Callable[[Any], Any], **options: Any) -> FakeClock:
    """Make a client of ``kind`` on ``node`` with a fake clock and run ``call`` on it."""
    if kind == "sync":
        clock = FakeClock()
        with node.client(clock=clock, **options) as client:
            result = call(client)
            if hasattr(result, "__next__"):
                list(result)
        return clock

    aclock = AsyncFakeClock()

    async def main() -> None:
        async with node.async_client(clock=aclock, **options) as client:
            result = call(client)
            if hasattr(result, "__anext__"):
                [item async for item in result]
            else:
                await result

    asyncio.run(main())
    return aclock


def scripted(*answers: httpx.Response | Exception) -> Callable[[httpx.Request], httpx.Response]:
    """Answer with each of ``answers`` in turn (raising the exceptions), then the last."""
    queue = list(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        item = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(item, Exception):
            raise item
        return httpx.Response(item.status_code, content=item.content, headers=item.headers)

    return handler


OK = answer(LEDGER_INFO)


@pytest.mark.parametrize("kind", KINDS)
def test_429_waits_exactly_what_retry_after_says(kind: str) -> None:
    node = FakeNode()
    limited = error(429, "rate_limited", "slow down", headers={"Retry-After": "7"})
    node.on("GET", "/", scripted(limited, limited, OK))
    clock = run(kind, node, lambda c: c.ledger_info())
    assert len(node.requests) == 3
    assert clock.sleeps == [7.0, 7.0]


@pytest.mark.parametrize("kind", KINDS)
def test_retry_after_as_an_http_date(kind: str) -> None:
    node = FakeNode()
    when = formatdate(1_700_000_000.0 + 12, usegmt=True)  # the fake wall clock + 12 s
    node.on("GET", "/", scripted(error(503, "internal_error", headers={"Retry-After": when}), OK))
    clock = run(kind, node, lambda c: c.ledger_info())
    assert clock.sleeps == [12.0]


@pytest.mark.parametrize("kind", KINDS)
def test_a_retry_after_beyond_the_limit_is_not_waited_for(kind: str) -> None:
    node = FakeNode()
    node.on("GET", "/", error(429, "rate_limited", headers={"Retry-After": "3600"}))
    with pytest.raises(RateLimitedError):
        run(kind, node, lambda c: c.ledger_info())
    assert len(node.requests) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_503_backs_off_with_full_jitter_then_gives_up(kind: str) -> None:
    node = FakeNode()
    node.on("GET", "/", error(503, "internal_error", "overloaded"))
    policy = Retry(total=5, backoff=0.5, max_backoff=4.0)
    with pytest.raises(ServerError) as info:
        run(kind, node, lambda c: c.ledger_info(), retries=policy)
    assert info.value.status == 503
    assert len(node.requests) == 6

    node.requests.clear()
    node.on("GET", "/", scripted(*[error(503, "internal_error")] * 5, OK))
    clock = run(kind, node, lambda c: c.ledger_info(), retries=policy)
    assert len(clock.sleeps) == 5
    caps = [0.5, 1.0, 2.0, 4.0, 4.0]
    assert all(0.0 <= s <= cap for s, cap in zip(clock.sleeps, caps, strict=True))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "failure",
    [
        httpx.ConnectError("refused"),
        httpx.ReadError("reset"),
        httpx.RemoteProtocolError("closed"),
        httpx.ReadTimeout("slow"),
    ],
)
def test_dropped_connections_are_retried_for_reads(kind: str, failure: Exception) -> None:
    node = FakeNode()
    node.on("GET", f"/accounts/{ADDRESS}", scripted(failure, failure, answer({
        "sequence_number": "1", "authentication_key": ADDRESS})))  # fmt: skip
    clock = run(kind, node, lambda c: c.account(ADDRESS))
    assert len(node.requests) == 3
    assert len(clock.sleeps) == 2

    node.requests.clear()
    node.on("GET", f"/accounts/{ADDRESS}", scripted(failure))
    with pytest.raises(TransportError):
        run(kind, node, lambda c: c.account(ADDRESS))
    assert len(node.requests) == 4  # the first attempt and the 3 default retries


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "failure",
    [
        error(503, "internal_error", "overloaded"),
        error(429, "rate_limited", headers={"Retry-After": "1"}),
        error(507, "mempool_is_full"),
        httpx.ConnectError("refused"),
        httpx.ReadError("reset after sending"),
    ],
)
def test_a_submission_is_attempted_exactly_once(kind: str, failure: Any) -> None:
    node = FakeNode()
    node.on("POST", "/transactions", scripted(failure, answer(SUBMITTED, status=202)))
    with pytest.raises((NodeAPIError, TransportError)):
        run(kind, node, lambda c: c.submit_transaction(signed()))
    assert len(node.sent("/transactions")) == 1


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "failure",
    [
        error(503, "internal_error", "overloaded"),
        error(429, "rate_limited", headers={"Retry-After": "1"}),
        httpx.ReadError("reset after sending"),
    ],
)
def test_a_batch_submission_is_attempted_exactly_once(kind: str, failure: Any) -> None:
    node = FakeNode()
    accepted = answer({"transaction_failures": []}, status=202)
    node.on("POST", "/transactions/batch", scripted(failure, accepted))
    with pytest.raises((NodeAPIError, TransportError)):
        run(kind, node, lambda c: c.submit_batch_transactions([signed()]))
    assert len(node.sent("/transactions/batch")) == 1


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("path", "call"),
    [
        ("/view", lambda c: c.view_json("0x1::m::f", [], [])),
        ("/tables/0x1/item", lambda c: c.table_item("0x1", "u8", "u8", 1)),
        ("/tables/0x1/raw_item", lambda c: c.raw_table_item("0x1", b"\x01")),
        ("/transactions/encode_submission", lambda c: c.encode_submission({"sender": "0x1"})),
        ("/transactions/simulate", lambda c: c.simulate_transaction(
            signed().raw, public_key=KEY.public_key_bytes)),
    ],
)  # fmt: skip
def test_read_only_posts_are_retried(kind: str, path: str, call: Callable[[Any], Any]) -> None:
    node = FakeNode()
    node.on("POST", path, error(503, "internal_error"))
    with pytest.raises(ServerError):
        run(kind, node, call, retries=2)
    assert len(node.sent(path)) == 3


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (400, "invalid_input", InvalidInputError),
        (404, "account_not_found", NodeAPIError),
        (500, "internal_error", ServerError),
        (503, "health_check_failed", HealthCheckFailedError),
    ],
)
def test_verdicts_are_not_retried(kind: str, status: int, code: str, cls: type) -> None:
    node = FakeNode()
    node.on("GET", f"/accounts/{ADDRESS}", error(status, code))
    node.on("GET", "/-/healthy", error(status, code))
    for call in (lambda c: c.account(ADDRESS), lambda c: c.health(duration_secs=5)):
        node.requests.clear()
        with pytest.raises(cls):
            run(kind, node, call)
        assert len(node.requests) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_retries_zero_turns_retrying_off(kind: str) -> None:
    node = FakeNode()
    node.on("GET", "/", scripted(error(503, "internal_error"), OK))
    with pytest.raises(ServerError):
        run(kind, node, lambda c: c.ledger_info(), retries=0)
    assert len(node.requests) == 1


# -- the limiter -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_max_rps_spaces_request_starts(kind: str) -> None:
    node = FakeNode()
    clocks: list[FakeClock] = []
    starts: list[float] = []

    def stamp(request: httpx.Request) -> httpx.Response:
        starts.append(clocks[0].now)
        return answer(LEDGER_INFO)

    node.on("GET", "/", stamp)
    clock: FakeClock = FakeClock() if kind == "sync" else AsyncFakeClock()
    clocks.append(clock)
    if kind == "sync":
        with node.client(clock=clock, max_rps=4) as client:
            for _ in range(6):
                client.ledger_info()
    else:

        async def main() -> None:
            async with node.async_client(clock=clock, max_rps=4) as client:  # type: ignore[arg-type]
                await asyncio.gather(*(client.ledger_info() for _ in range(6)))

        asyncio.run(main())
    assert starts == [0.0, 0.25, 0.5, 0.75, 1.0, 1.25]


def test_max_concurrency_holds_across_threads() -> None:
    lock = threading.Lock()
    in_flight = 0
    peak = 0

    def slow(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.005)  # overlap the requests; nothing is timed
        with lock:
            in_flight -= 1
        return answer(LEDGER_INFO)

    node = FakeNode()
    node.on("GET", "/", slow)
    client = node.client(max_concurrency=2)
    threads = [threading.Thread(target=lambda: [client.ledger_info() for _ in range(5)])
               for _ in range(8)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(node.requests) == 40
    assert 1 <= peak <= 2


def test_max_concurrency_holds_across_tasks() -> None:
    in_flight = 0
    peak = 0

    async def slow(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        for _ in range(3):
            await asyncio.sleep(0)  # let the other tasks run
        in_flight -= 1
        return answer(LEDGER_INFO)

    async def main() -> None:
        transport = httpx.MockTransport(slow)
        from ledgerkit.client import AsyncClient

        async with AsyncClient("http://node.test/v1", transport=transport,
                               max_concurrency=3, cache=False) as client:  # fmt: skip
            await asyncio.gather(*(client.ledger_info() for _ in range(30)))

    asyncio.run(main())
    assert peak == 3  # tasks pile up at once, so the cap is reached and never passed


def test_retries_go_through_the_limiter() -> None:
    node = FakeNode()
    starts: list[float] = []
    clock = FakeClock()
    failures = [error(503, "internal_error")] * 2

    def handler(request: httpx.Request) -> httpx.Response:
        starts.append(clock.now)
        return failures.pop() if failures else answer(LEDGER_INFO)

    node.on("GET", "/", handler)
    with node.client(clock=clock, max_rps=1, retries=Retry(backoff=0.0)) as client:
        client.ledger_info()
    assert starts == [0.0, 1.0, 2.0]


# -- waiting for a transaction ------------------------------------------------------------------

WAIT_PATH = f"/transactions/wait_by_hash/{HASH}"


@pytest.mark.parametrize("kind", KINDS)
def test_wait_long_polls_until_committed(kind: str) -> None:
    node = FakeNode()
    pending = answer(PENDING)
    node.on("GET", WAIT_PATH, scripted(pending, pending, answer(user_transaction(77))))
    clock = run(kind, node, lambda c: c.wait_for_transaction(HASH, timeout=5))
    assert len(node.sent(WAIT_PATH)) == 3  # returned at the first committed answer
    assert len(clock.sleeps) == 2  # a short pause between long polls, nothing more


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("answered", "raised"),
    [(answer(PENDING), RequestTimeoutError), (error(404, "transaction_not_found"),
                                              TransactionNotFoundError)],
)  # fmt: skip
def test_wait_gives_up_at_its_timeout(kind: str, answered: httpx.Response, raised: type) -> None:
    node = FakeNode()
    node.on("GET", WAIT_PATH, answered)
    with pytest.raises(raised):
        run(kind, node, lambda c: c.wait_for_transaction(HASH, timeout=1.0))
    # The fake clock moves only by the pauses between polls: about 1 s of them.
    assert 10 <= len(node.sent(WAIT_PATH)) <= 30
