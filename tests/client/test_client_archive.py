"""Public networks as they are, against scripted nodes: a pruned fullnode whose 410 names an
archive (the gateway's fields), an archive at another origin, a rate limit that says when
to come back, and a 503 with a code the spec does not list. Both clients."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, Final

import httpx
import pytest
from client_fakes import (
    ADDRESS,
    HASH,
    META,
    AsyncFakeClock,
    FakeClock,
    FakeNode,
    answer,
    block_metadata_transaction,
    error,
    event,
    user_transaction,
)

import ledgerkit
from ledgerkit.client import AsyncClient, Client

NODE: Final = "https://fullnode.test/v1"
ARCHIVE: Final = "https://archive.test/v1"
KEY: Final = "aptoslabs_fullnode_key_7Hq2"
#: A JSON submission as the API takes it (its content does not matter here).
SUBMISSION: Final = {"sender": "0x1", "signature": {"type": "ed25519_signature"}}
#: What an archive's ledger headers say: the whole history, a little behind the fullnode.
ARCHIVE_META: Final = replace(META, ledger_version=4_990, oldest_ledger_version=0)


def pruned(version: int = 7, *, endpoint: str | None = ARCHIVE) -> httpx.Response:
    """A public gateway's 410: the node's record and the optional fields it adds."""
    record: dict[str, Any] = {
        "message": f"Ledger version({version}) has been pruned",
        "error_code": "version_pruned",
        "vm_error_code": None,
        "hint": "Use an archive node for older history",
        "oldest_ledger_version": str(META.oldest_ledger_version),
    }
    if endpoint is not None:
        record["archival_endpoint"] = endpoint
    return answer(record, status=410, prefix="X-APTOS-")


class Origins:
    """Two scripted nodes behind one transport, told apart by host."""

    def __init__(self) -> None:
        self.node = FakeNode()
        self.archive = FakeNode()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        return (self.archive if request.url.host == "archive.test" else self.node)(request)

    def client(self, **options: Any) -> Client:
        options.setdefault("cache", False)
        return Client(NODE, transport=httpx.MockTransport(self), **options)

    def async_client(self, **options: Any) -> AsyncClient:
        options.setdefault("cache", False)
        return AsyncClient(NODE, transport=httpx.MockTransport(self), **options)


def both(origins: Origins, call: Any, **options: Any) -> list[Any]:
    """``call(client)`` with a Client, then awaited with an AsyncClient (same options)."""
    with origins.client(**options) as client:
        first = call(client)

    async def run() -> Any:
        async with origins.async_client(**options) as client:
            return await call(client)

    return [first, asyncio.run(run())]


def test_a_pruned_read_goes_on_to_the_archive_the_410_names_without_the_key() -> None:
    origins = Origins()
    origins.node.on("GET", "/transactions/by_version/7", pruned())
    origins.archive.on(
        "GET",
        "/transactions/by_version/7",
        answer(user_transaction(7), meta=ARCHIVE_META, prefix="X-APTOS-"),
    )
    results = both(
        origins,
        lambda c: c.transaction_by_version(7),
        api_key=KEY,
        headers={"X-Team-Token": "team-secret-0042"},
    )
    for result in results:
        assert result.value.version == 7
        assert result.ledger.answered_by == ARCHIVE
        assert result.ledger.oldest_ledger_version == 0
    to_node = origins.node.sent()
    to_archive = origins.archive.sent()
    assert len(to_node) == len(to_archive) == 2  # once per client
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in to_node)
    for request in to_archive:
        assert "authorization" not in request.headers
        assert "x-team-token" not in request.headers
        assert KEY not in str(request.url)


def test_the_archive_learned_is_told_and_answers_from_the_node_say_so() -> None:
    origins = Origins()
    origins.node.on("GET", "/transactions/by_version/7", pruned())
    origins.node.on("GET", "/transactions/by_version/4000", answer(user_transaction(4000)))
    origins.archive.on("GET", "/transactions/by_version/7", answer(user_transaction(7)))
    with origins.client() as client:
        assert client.archive_url is None
        fresh = client.transaction_by_version(4000)
        assert fresh.ledger.answered_by == NODE
        client.transaction_by_version(7)
        assert client.archive_url == ARCHIVE


def test_an_archive_given_is_used_with_its_own_headers() -> None:
    origins = Origins()
    origins.node.on("GET", "/blocks/by_height/3", pruned(endpoint="https://elsewhere.test/v1"))
    body = {
        "block_height": "3",
        "block_hash": HASH,
        "block_timestamp": "1700000000000000",
        "first_version": "10",
        "last_version": "12",
        "transactions": None,
    }
    origins.archive.on("GET", "/blocks/by_height/3", answer(body, meta=ARCHIVE_META))
    results = both(
        origins,
        lambda c: c.block_by_height(3),
        api_key=KEY,
        archive_url=ARCHIVE,
        archive_headers={"X-Archive-Key": "archive-only-9"},
    )
    for result in results:
        assert result.value.block_height == 3
        assert result.ledger.answered_by == ARCHIVE
    for request in origins.archive.sent():
        assert request.headers["x-archive-key"] == "archive-only-9"
        assert "authorization" not in request.headers
    assert all("x-archive-key" not in r.headers for r in origins.node.sent())


def test_without_an_archive_the_410_is_raised_with_what_the_gateway_said() -> None:
    origins = Origins()
    origins.node.on("GET", "/transactions/by_version/7", pruned(endpoint=None))
    with origins.client() as client, pytest.raises(ledgerkit.VersionPrunedError) as caught:
        client.transaction_by_version(7)
    assert caught.value.hint == "Use an archive node for older history"
    assert caught.value.archival_endpoint is None
    assert caught.value.oldest_version == 100
    assert not origins.archive.sent()


def test_an_archive_that_refuses_is_the_error_raised() -> None:
    origins = Origins()
    origins.node.on("GET", "/transactions/by_version/7", pruned())
    origins.archive.on("GET", "/transactions/by_version/7", error(401, "", "unauthorized"))
    with origins.client(api_key=KEY) as client, pytest.raises(ledgerkit.NodeAPIError) as caught:
        client.transaction_by_version(7)
    assert caught.value.status == 401
    assert "archive.test" in str(caught.value)
    assert KEY not in str(caught.value)


def test_a_hash_a_pruned_node_does_not_know_is_asked_of_the_archive() -> None:
    origins = Origins()
    origins.node.on("GET", f"/transactions/by_hash/{HASH}", error(404, "transaction_not_found"))
    origins.archive.on(
        "GET", f"/transactions/by_hash/{HASH}", answer(user_transaction(42), meta=ARCHIVE_META)
    )
    results = both(origins, lambda c: c.transaction_by_hash(HASH), archive_url=ARCHIVE)
    assert [r.value.version for r in results] == [42, 42]
    assert {r.ledger.answered_by for r in results} == {ARCHIVE}


def test_a_hash_unknown_to_an_unpruned_node_is_not_found_there() -> None:
    origins = Origins()
    whole = replace(META, oldest_ledger_version=0)
    origins.node.on(
        "GET", f"/transactions/by_hash/{HASH}", error(404, "transaction_not_found", meta=whole)
    )
    with (
        origins.client(archive_url=ARCHIVE) as client,
        pytest.raises(ledgerkit.TransactionNotFoundError),
    ):
        client.transaction_by_hash(HASH)
    assert not origins.archive.sent()


def test_a_hash_unknown_to_a_pruned_node_without_archive_is_not_found() -> None:
    origins = Origins()
    origins.node.on("GET", f"/transactions/by_hash/{HASH}", error(404, "transaction_not_found"))
    with origins.client() as client, pytest.raises(ledgerkit.TransactionNotFoundError):
        client.transaction_by_hash(HASH)
    assert not origins.archive.sent()


def test_a_submission_is_never_sent_to_the_archive() -> None:
    origins = Origins()
    origins.node.on("POST", "/transactions", pruned())
    with origins.client(archive_url=ARCHIVE) as client:
        call = ledgerkit.client.calls.submit_transaction(SUBMISSION)
        with pytest.raises(ledgerkit.VersionPrunedError):
            client.send(call)
    assert not origins.archive.sent()


def test_an_archive_named_that_is_not_a_url_is_not_followed() -> None:
    origins = Origins()
    origins.node.on("GET", "/transactions/by_version/7", pruned(endpoint="ftp://archive.test/v1"))
    with origins.client() as client, pytest.raises(ledgerkit.VersionPrunedError):
        client.transaction_by_version(7)
    assert client.archive_url is None
    assert not origins.archive.sent()


# -- rate limits as a budget ---------------------------------------------------------------


def _limited_then_served(times: int, retry_after: str = "2") -> FakeNode:
    node = FakeNode()
    state = {"asked": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        state["asked"] += 1
        if state["asked"] <= times:
            return error(429, "", "rate limit exceeded", headers={"Retry-After": retry_after})
        return answer(block_metadata_transaction(5))

    node.on("GET", "/transactions/by_version/5", handler)
    return node


def test_waits_on_a_rate_limit_are_not_retries() -> None:
    node = _limited_then_served(5)
    clock = FakeClock()
    with node.client(retries=1, clock=clock) as client:
        result = client.transaction_by_version(5)
        assert result.value.version == 5
        waited = client.waited
    assert len(node.sent()) == 6
    assert clock.sleeps == [2.0] * 5
    assert (waited.holds, waited.seconds, waited.remaining) == (5, 10.0, 0.0)


def test_requests_sent_count_every_attempt_the_refused_ones_too() -> None:
    node = _limited_then_served(3)
    with node.client(retries=1, clock=FakeClock()) as client:
        assert client.requests_sent == 0
        client.transaction_by_version(5)
        assert client.requests_sent == 4  # three refused by the rate limit, one answered
        client.transaction_by_version(5)
        assert client.requests_sent == 5
    assert len(node.sent()) == 5


def test_an_async_client_counts_its_requests_sent() -> None:
    node = _limited_then_served(2)

    async def run() -> tuple[int, int]:
        async with node.async_client(clock=AsyncFakeClock()) as client:
            await asyncio.gather(*(client.transaction_by_version(5) for _ in range(3)))
            return client.requests_sent, client.waited.holds

    sent, holds = asyncio.run(run())
    assert sent == len(node.sent())
    assert sent >= 5  # two refused at least, three answered
    assert holds >= 1


def test_a_rate_limit_holds_every_request_of_the_client() -> None:
    node = FakeNode()
    asked: list[float] = []
    clock = AsyncFakeClock()

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(clock.now)
        if len(asked) == 1:
            return error(429, "", "rate limit exceeded", headers={"Retry-After": "3"})
        return answer(block_metadata_transaction(5))

    node.on("GET", "/transactions/by_version/5", handler)

    async def run() -> None:
        async with node.async_client(clock=clock, max_concurrency=1) as client:
            await asyncio.gather(*(client.transaction_by_version(5) for _ in range(4)))
            assert client.waited.holds == 1

    asyncio.run(run())
    # The first was refused at 0; nothing else went before 3 s.
    assert asked[0] == 0.0
    assert all(t >= 3.0 for t in asked[1:])
    assert len(asked) == 5


def test_rate_limit_waits_end_at_the_limit_given() -> None:
    node = _limited_then_served(100, retry_after="60")
    clock = FakeClock()
    policy = ledgerkit.client.Retry(total=2, rate_limit_wait=150.0)
    with (
        node.client(retries=policy, clock=clock) as client,
        pytest.raises(ledgerkit.RateLimitedError),
    ):
        client.transaction_by_version(5)
    # Two holds of 60 s (a third would pass 150 s), then the two retries, then the error.
    assert clock.sleeps[:2] == [60.0, 60.0]
    assert len(node.sent()) == 5


def test_with_retries_off_a_rate_limit_is_raised_at_once() -> None:
    node = _limited_then_served(1)
    with (
        node.client(retries=0, clock=FakeClock()) as client,
        pytest.raises(ledgerkit.RateLimitedError),
    ):
        client.transaction_by_version(5)
    assert len(node.sent()) == 1


def test_a_submission_refused_by_a_rate_limit_is_not_sent_again() -> None:
    node = FakeNode()
    node.on("POST", "/transactions", error(429, "", "slow down", headers={"Retry-After": "1"}))
    with node.client(clock=FakeClock()) as client, pytest.raises(ledgerkit.RateLimitedError):
        client.send(ledgerkit.client.calls.submit_transaction(SUBMISSION))
    assert len(node.sent()) == 1


# -- codes the spec does not list ----------------------------------------------------------


def test_overloaded_is_typed_keeps_its_code_and_is_retried() -> None:
    node = FakeNode()
    state = {"asked": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        state["asked"] += 1
        if state["asked"] <= 2:
            return error(503, "overloaded", "Server is overloaded, please retry later")
        return answer(block_metadata_transaction(5))

    node.on("GET", "/transactions/by_version/5", handler)
    with node.client(clock=FakeClock()) as client:
        assert client.transaction_by_version(5).value.version == 5
    assert state["asked"] == 3


def test_overloaded_past_the_retries_is_a_service_unavailable_error() -> None:
    node = FakeNode()
    node.on("GET", "/transactions/by_version/5", error(503, "overloaded", "overloaded"))
    with (
        node.client(retries=1, clock=FakeClock()) as client,
        pytest.raises(ledgerkit.ServiceUnavailableError) as caught,
    ):
        client.transaction_by_version(5)
    assert isinstance(caught.value, ledgerkit.ServerError)
    assert caught.value.error_code == "overloaded"
    assert caught.value.status == 503
    assert len(node.sent()) == 2


def test_request_bodies_are_sent_with_a_length() -> None:
    node = FakeNode()
    node.on("POST", "/view", answer(["1"]))
    with node.client() as client:
        call = ledgerkit.client.calls.view_json(
            "0x1::coin::balance", ["0x1::aptos_coin::AptosCoin"], ["0x1"]
        )
        client.send(call)
    (request,) = node.sent("/view")
    assert request.headers["content-length"] == str(len(request.content))
    assert "transfer-encoding" not in request.headers


def test_an_empty_event_page_of_a_pruned_node_is_asked_of_the_archive() -> None:
    # Nothing of the stream from sequence number 0 on is kept: the node answers [] (as
    # aptos-core's event index does), which cannot be told from an empty stream.
    origins = Origins()
    path = f"/accounts/{ADDRESS}/events/2"
    origins.node.on("GET", path, answer([], prefix="X-APTOS-"))
    origins.archive.on(
        "GET", path, answer([event(0), event(1)], meta=ARCHIVE_META, prefix="X-APTOS-")
    )
    results = both(
        origins, lambda c: c.events_by_creation_number(ADDRESS, 2, start=0), archive_url=ARCHIVE
    )
    for events, ledger in results:
        assert [e.sequence_number for e in events] == [0, 1]
        assert ledger.answered_by == ARCHIVE
    # Without an archive, the empty page is what there is to hand out.
    for events, ledger in both(origins, lambda c: c.events_by_creation_number(ADDRESS, 2, start=0)):
        assert (events, ledger.answered_by) == ([], NODE)


def test_a_pruned_range_error_keeps_its_range_through_pickling() -> None:
    import pickle

    error = ledgerkit.PrunedRangeError(
        "sequence numbers 0..3 left out",
        status=200,
        error_code="version_pruned",
        details={"missing_start": 0, "missing_end": 4},
    )
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is ledgerkit.PrunedRangeError
    assert again.missing == range(4)
    assert isinstance(again, ledgerkit.PrunedError)
