"""The I/O-free core: retry arithmetic, the token bucket, request normalization and cache
keys, pagers, and the promise that the sync and async clients are twins."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace
from typing import Any

import pytest
from client_fakes import META, FakeNode, answer

from ledgerkit import (
    AsyncDocsClient,
    AsyncFaucetClient,
    DecodingError,
    DocsClient,
    FaucetClient,
)
from ledgerkit.client import AsyncClient, Client, Result, Retry, calls
from ledgerkit.client._client import BaseClient
from ledgerkit.client._declare import CursorPager, endpoint, flow, paged
from ledgerkit.client._flows import Flows
from ledgerkit.client._pacing import TokenBucket, parse_retry_after, retry_delay
from ledgerkit.types import U8, U64, Address, MoveType


def test_retry_after_in_seconds_and_as_a_date() -> None:
    assert parse_retry_after("0", now=0.0) == 0.0
    assert parse_retry_after(" 120 ", now=5.0) == 120.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert parse_retry_after("soon", now=0.0) is None
    assert parse_retry_after(None, now=0.0) is None


def test_retry_delays_follow_the_policy() -> None:
    policy = Retry(total=2, backoff=1.0, max_backoff=1.5)
    rng = random.Random(1)

    def delay(n: int, **kw: Any) -> float | None:
        kw.setdefault("idempotent", True)
        return retry_delay(policy, n, now=0.0, rng=rng, **kw)

    assert delay(0, status=429, headers={"retry-after": "3"}) == 3.0
    assert 0.0 <= (delay(1, status=503) or -1) <= 1.5
    assert delay(2, status=503) is None  # out of retries
    assert delay(0, status=503, idempotent=False) is None
    assert delay(0, status=500) is None
    assert delay(0, status=503, error_code="health_check_failed") is None
    assert 0.0 <= (delay(0, connection_failed=True) or -1) <= 1.0
    assert delay(0, status=429, headers={"retry-after": "61"}) is None  # past max_retry_after
    with pytest.raises(ValueError, match="total"):
        Retry(total=-1)
    with pytest.raises(ValueError, match="backoff"):
        Retry(backoff=-0.1)


def test_the_token_bucket_spaces_and_refills() -> None:
    bucket = TokenBucket(rate=10.0)
    assert [bucket.reserve(0.0) for _ in range(3)] == [0.0, 0.1, 0.2]
    assert bucket.reserve(10.0) == 0.0  # idle long enough: a fresh token, no debt
    burst = TokenBucket(rate=1.0, burst=3)
    assert [burst.reserve(0.0) for _ in range(4)] == [0.0, 0.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="max_rps"):
        TokenBucket(rate=0)


def test_two_spellings_of_one_question_make_one_request_and_one_cache_key() -> None:
    node = FakeNode()
    client = node.client(cache=True)
    spellings = [
        calls.account_resource(
            "0x1", "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>", ledger_version=5
        ),
        calls.account_resource(
            Address.parse("0x01"),
            "0x0000000000000000000000000000000000000000000000000000000000000001::coin::"
            "CoinStore< 0x1::aptos_coin::AptosCoin >",
            ledger_version="5",  # type: ignore[arg-type]
        ),
    ]
    keys = {client._cache_key(call) for call in spellings}
    assert len(keys) == 1
    assert keys.pop() == (
        "GET http://node.test/v1/accounts/0x1/resource/"
        "0x1%3A%3Acoin%3A%3ACoinStore%3C0x1%3A%3Aaptos_coin%3A%3AAptosCoin%3E?ledger_version=5"
    )
    views = [
        calls.view_json("0x1::m::f", [], ["1"], ledger_version=3),
        calls.view_json("0x1::m::g", [], ["1"], ledger_version=3),
    ]
    assert len({client._cache_key(call) for call in views}) == 2  # the body is in the key
    assert client._cache_key(calls.account("0x1")) is None  # latest: never cached
    client.close()


def test_json_bodies_send_ledgerkit_values_in_the_api_form() -> None:
    body = calls.json_body(
        [Address.parse("0x1"), Address.parse("0x" + "ab" * 32), U64(2**64 - 1), U8(7),
         b"\x00\x01", MoveType.parse("vector< u8 >"), 2**200]
    )  # fmt: skip
    assert body == (
        b'["0x1","0x'
        + b"ab" * 32
        + b'","18446744073709551615",7,"0x0001","vector<u8>",'
        + str(2**200).encode()
        + b"]"
    )


def test_a_cursor_sent_twice_stops_the_walk() -> None:
    pager = CursorPager(
        lambda version, cursor: calls.account_resources(
            "0x1", ledger_version=version, start=cursor
        ),
        None,
    )
    page: Result[list[Any]] = Result([], replace(META, cursor="0x01"))
    _, following = pager.feed(page)
    assert following is not None
    assert dict(following.params) == {"ledger_version": "5000", "start": "0x01"}
    with pytest.raises(DecodingError, match="twice"):
        pager.feed(page)


def test_result_is_a_named_pair() -> None:
    result: Result[int] = Result(5, META)
    value, ledger = result
    assert (value, ledger) == (result.value, result.ledger) == (5, META)
    assert Result[int] is not None  # generic at run time


def _public(cls: type) -> list[str]:
    """The public methods a client class defines or takes from its declarations, in the
    order they are written (the shared ``BaseClient``'s properties left out)."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        # ``cls`` itself reports the front door (``ledgerkit``) as its module.
        mine = klass is cls or klass.__module__.startswith("ledgerkit.client")
        if mine and klass is not BaseClient:
            names += [n for n in vars(klass) if not n.startswith("_") and n not in names]
    return names


#: Public methods of both clients that are not declarations: each client's own door to
#: sending, and the question it asks past its cache.
HAND_WRITTEN = {"send", "chain_identity"}
#: Old names kept for a while, each forwarding to where it moved (with a warning).
DEPRECATED = {"account_activity"}

#: The multi-step methods, each declared once as a flow for both clients.
FLOWS = {
    "account_assets",
    "simulate",
    "submit_and_wait",
    "build_transaction",
    "view",
    "transfer",
    "explain",
    "load_abis",
    "wait_for_transaction",
    "encode_submission",
    "graphql",
}


def test_the_clients_are_twins() -> None:
    sync_names = [n for n in _public(Client) if n not in ("close",)]
    async_names = [n for n in _public(AsyncClient) if n not in ("aclose",)]
    assert sync_names == async_names
    # Every endpoint method is declared once for both clients and listed with the row it
    # asks in tests/test_endpoints.py; the rest keep per-client state or are the client's own.
    kinds = {n: type(inspect.getattr_static(Flows, n)) for n in _public(Flows)}
    declared = {n for n, kind in kinds.items() if kind in (endpoint, paged, flow)}
    flows = {n for n, kind in kinds.items() if kind is flow}
    assert flows == FLOWS
    assert set(sync_names) == declared | HAND_WRITTEN | DEPRECATED
    assert not declared & HAND_WRITTEN
    for name in sync_names:
        sync, twin = getattr(Client, name), getattr(AsyncClient, name)
        sync_params = inspect.signature(sync).parameters
        twin_params = inspect.signature(twin).parameters
        assert list(sync_params) == list(twin_params), name
        for param in sync_params:
            assert sync_params[param].kind == twin_params[param].kind, (name, param)
            assert sync_params[param].default == twin_params[param].default, (name, param)
        assert twin.__doc__ == sync.__doc__, name
        assert sync.__doc__, name
        if name.startswith("iter_"):
            assert not inspect.iscoroutinefunction(twin)
        else:
            assert inspect.iscoroutinefunction(twin), name


def test_options_are_keyword_only() -> None:
    for name in _public(Client):
        for param in inspect.signature(getattr(Client, name)).parameters.values():
            if param.name in ("ledger_version", "limit", "with_transactions", "forward"):
                assert param.kind is param.KEYWORD_ONLY, (name, param.name)
    for param in inspect.signature(Client).parameters.values():
        if param.name != "base_url":
            assert param.kind is param.KEYWORD_ONLY, param.name


def test_config_is_frozen() -> None:
    client = FakeNode().client()
    with pytest.raises(AttributeError):
        client.config.timeout = 1.0  # type: ignore[misc]
    client.close()


def test_ledger_metadata_is_on_every_result() -> None:
    node = FakeNode()
    node.on("GET", "/", answer({"chain_id": 2, "epoch": "1", "ledger_version": "1",
                                "oldest_ledger_version": "0", "ledger_timestamp": "1",
                                "node_role": "validator", "oldest_block_height": "0",
                                "block_height": "1"}))  # fmt: skip
    with node.client() as client:
        assert client.ledger_info().ledger == META


@pytest.mark.parametrize(
    ("blocking", "awaited", "closers", "methods"),
    [
        (
            FaucetClient,
            AsyncFaucetClient,
            ("close", "aclose"),
            ["fund", "is_eligible", "healthy", "new_funded_account"],
        ),
        (
            DocsClient,
            AsyncDocsClient,
            ("close", "aclose"),
            ["page", "show", "index", "search", "discovery"],
        ),
    ],
)
def test_the_faucet_and_docs_clients_are_twins_declared_once(
    blocking: type, awaited: type, closers: tuple[str, str], methods: list[str]
) -> None:
    sync_names = [n for n in _public(blocking) if n != closers[0]]
    async_names = [n for n in _public(awaited) if n != closers[1]]
    assert sync_names == async_names == methods
    for name in methods:
        declared = inspect.getattr_static(blocking, name)
        assert isinstance(declared, flow), name
        assert inspect.getattr_static(awaited, name) is declared, name
        sync, twin = getattr(blocking, name), getattr(awaited, name)
        assert inspect.signature(sync) == inspect.signature(twin), name
        assert next(iter(inspect.signature(sync).parameters)) == "self"
        assert sync.__doc__, name
        assert twin.__doc__ == sync.__doc__, name
        assert inspect.iscoroutinefunction(twin)
        assert not inspect.iscoroutinefunction(sync)
