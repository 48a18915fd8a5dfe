"""The persistent cache, proven by counting requests: a second run of the same workload
sends none of the cacheable requests again, questions about the latest state always go
out, ``cache=False`` stores nothing, and chains never share entries."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from client_fakes import (
    ACCOUNT,
    ACCOUNT_RESOURCE,
    ADDRESS,
    GAS_ESTIMATE,
    HASH,
    LEDGER_INFO,
    META,
    MODULE,
    PENDING,
    FakeNode,
    answer,
    block,
    event,
    user_transaction,
)

from ledgerkit.client import AsyncClient, Client
from ledgerkit.client._cache import CACHE_FILE
from ledgerkit.models import UserTransaction
from ledgerkit.types import LedgerMeta

HANDLE = "0x" + "0c" * 32
OTHER_HASH = "0x" + "77" * 32
ACCOUNT_TAG = "0x1::account::Account"


GENESIS = "0x" + "9e" * 32


def fake_chain(meta: LedgerMeta = META, genesis: str = GENESIS) -> FakeNode:
    """A node answering every endpoint the workload uses, and its genesis (what the
    client asks once to know which chain it files answers under)."""
    node = FakeNode()

    def ok(body: Any, **options: Any) -> httpx.Response:
        return answer(body, meta=meta, **options)

    def transactions(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params["start"])
        limit = int(request.url.params["limit"])
        end = min(start + limit, meta.ledger_version + 1)
        return ok([user_transaction(v) for v in range(start, end)])

    def block_at(request: httpx.Request) -> httpx.Response:
        # Block 3 holds versions 30..32 and is sent whole; block 4 holds 40..43 and a
        # capped node sends only 2 of them.
        height = int(request.url.path.rsplit("/", 1)[1])
        first, last, served = (30, 32, 3) if height == 3 else (40, 43, 2)
        wanted = "with_transactions" in request.url.params
        return ok(block(height, first, last, with_transactions=served if wanted else None))

    routes: dict[tuple[str, str], Any] = {
        ("GET", "/"): ok(LEDGER_INFO),
        ("GET", "/estimate_gas_price"): ok(GAS_ESTIMATE),
        ("GET", f"/accounts/{ADDRESS}"): ok(ACCOUNT),
        ("GET", f"/accounts/{ADDRESS}/resources"): ok([ACCOUNT_RESOURCE]),
        ("GET", f"/accounts/{ADDRESS}/resource/0x1::account::Account"): ok(ACCOUNT_RESOURCE),
        ("GET", f"/accounts/{ADDRESS}/modules"): ok([MODULE]),
        ("GET", f"/accounts/{ADDRESS}/module/coin"): ok(MODULE),
        ("GET", f"/accounts/{ADDRESS}/balance/0xa"): ok(12),
        ("GET", f"/accounts/{ADDRESS}/events/2"): ok([event(0), event(1)]),
        ("GET", f"/accounts/{ADDRESS}/transactions"): ok([user_transaction(7)]),
        ("GET", "/transactions"): transactions,
        ("GET", "/transactions/by_version/0"): ok({"version": "0", "hash": genesis}),
        ("GET", "/transactions/by_version/42"): ok(user_transaction(42)),
        # The head: where the history of an answer that carries no root is marked.
        ("GET", f"/transactions/by_version/{meta.ledger_version}"): ok(
            user_transaction(meta.ledger_version)
        ),
        ("GET", f"/transactions/by_hash/{HASH}"): ok(user_transaction(43)),
        ("GET", f"/transactions/wait_by_hash/{HASH}"): ok(user_transaction(43)),
        ("GET", f"/transactions/by_hash/{OTHER_HASH}"): ok(PENDING),
        ("GET", "/blocks/by_height/3"): block_at,
        ("GET", "/blocks/by_height/4"): block_at,
        ("GET", "/blocks/by_version/31"): ok(block(3, 30, 32)),
        ("POST", "/view"): ok(["5"]),
        ("POST", f"/tables/{HANDLE}/item"): ok("9"),
        ("POST", f"/tables/{HANDLE}/raw_item"): ok(
            None, raw=b"\x09", content_type="application/x-bcs"
        ),
    }
    for (method, path), handler in routes.items():
        node.on(method, path, handler)
    return node


#: (name, call, cacheable): the workload of a notebook that is run twice.
# fmt: off
WORKLOAD: list[tuple[str, Any, bool]] = [
    ("latest ledger", lambda c: c.ledger_info(), False),
    ("gas", lambda c: c.estimate_gas_price(), False),
    ("latest account", lambda c: c.account(ADDRESS), False),
    ("latest resources", lambda c: c.account_resources(ADDRESS), False),
    ("txn by version", lambda c: c.transaction_by_version(42), True),
    ("txn by hash", lambda c: c.transaction_by_hash(HASH), True),
    ("pending txn", lambda c: c.transaction_by_hash(OTHER_HASH), False),
    ("block", lambda c: c.block_by_height(3), True),
    ("full block", lambda c: c.block_by_height(3, with_transactions=True), True),
    ("capped block", lambda c: c.block_by_height(4, with_transactions=True), False),
    ("block by version", lambda c: c.block_by_version(31), True),
    ("account at v", lambda c: c.account(ADDRESS, ledger_version=4000), True),
    ("resources at v", lambda c: c.account_resources(ADDRESS, ledger_version=4000), True),
    ("resource at v", lambda c: c.account_resource(ADDRESS, ACCOUNT_TAG, ledger_version=4000),
     True),
    ("modules at v", lambda c: c.account_modules(ADDRESS, ledger_version=4000), True),
    ("module at v", lambda c: c.account_module(ADDRESS, "coin", ledger_version=4000), True),
    ("balance at v", lambda c: c.account_balance(ADDRESS, "0xa", ledger_version=4000), True),
    ("latest balance", lambda c: c.account_balance(ADDRESS, "0xa"), False),
    ("view at v", lambda c: c.view_json("0x1::m::f", [], ["1"], ledger_version=4000), True),
    ("latest view", lambda c: c.view_json("0x1::m::f", [], ["1"]), False),
    ("item at v", lambda c: c.table_item(HANDLE, "u8", "u64", 1, ledger_version=4000), True),
    ("raw item at v", lambda c: c.raw_table_item(HANDLE, b"\x01", ledger_version=4000), True),
    ("full event page", lambda c: c.events_by_creation_number(ADDRESS, 2, start=0, limit=2), True),
    ("newest events", lambda c: c.events_by_creation_number(ADDRESS, 2), False),
    ("short event page", lambda c: c.events_by_creation_number(ADDRESS, 2, start=0, limit=5),
     False),
    ("full txn page", lambda c: c.transactions(start=100, limit=10), True),
    ("txn page at head", lambda c: c.transactions(start=4995, limit=10), False),
    ("account txns", lambda c: c.account_transactions(ADDRESS, start=9, limit=1), True),
]
# fmt: on


def run_workload(client: Client) -> list[Any]:
    values = [call(client).value for _, call, _ in WORKLOAD]
    values.append([r.value for r in client.iter_transactions(200, 250, limit=20)])
    return values


def sent(node: FakeNode) -> Counter[str]:
    return Counter(f"{r.method} {r.url}" for r in node.requests)


def test_a_second_run_sends_none_of_the_cacheable_requests(tmp_path: Path) -> None:
    node = fake_chain()
    with node.client(cache=tmp_path) as first:
        values = run_workload(first)
    first_run = sent(node)
    node.requests.clear()
    with node.client(cache=tmp_path) as second:
        again = run_workload(second)
    second_run = sent(node)
    assert again == values
    uncached = sum(1 for _, _, cacheable in WORKLOAD if not cacheable)
    # And the genesis, once per client, and the newest history mark, checked once.
    assert sum(second_run.values()) == uncached + 2
    assert second_run["GET http://node.test/v1/transactions/by_version/5000"] == 1
    assert not any("by_version/42" in url or "/blocks/by_height/3" in url for url in second_run)
    # 3 pages walked; the genesis; the mark at the head, asked once for the answers that
    # carry no accumulator root (a state read at version 4000, events...).
    assert sum(first_run.values()) == len(WORKLOAD) + 3 + 2
    assert (tmp_path / CACHE_FILE).exists()


def test_a_cached_answer_carries_the_metadata_it_was_stored_with(tmp_path: Path) -> None:
    node = fake_chain()
    with node.client(cache=tmp_path) as client:
        fresh = client.transaction_by_version(42)
    moved = fake_chain(replace(META, ledger_version=9000))
    with moved.client(cache=tmp_path) as client:
        cached = client.transaction_by_version(42)
    assert cached == fresh
    assert isinstance(cached.value, UserTransaction)
    assert cached.ledger.ledger_version == META.ledger_version
    # Only the chain's genesis and the history mark were asked of the moved node (the
    # mark is the transaction at 42 itself, whose accumulator root it shows); the
    # transaction came from the cache, with the metadata of the node at 5000.
    assert [r.url.path for r in moved.requests] == [
        "/v1/transactions/by_version/0",
        "/v1/transactions/by_version/42",
    ]


def test_latest_questions_always_go_out(tmp_path: Path) -> None:
    node = fake_chain()
    with node.client(cache=tmp_path) as client:
        for _ in range(3):
            client.ledger_info()
            client.account(ADDRESS)
            client.estimate_gas_price()
            client.transaction_by_hash(OTHER_HASH)  # still pending
    assert len(node.requests) == 12 + 1  # and the genesis, asked once


def test_cache_false_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path / "default"))
    node = fake_chain()
    for _ in range(2):
        with node.client(cache=False) as client:
            run_workload(client)
    assert len(node.requests) == 2 * (len(WORKLOAD) + 3)
    assert not (tmp_path / "default").exists()


def test_chains_do_not_share_entries(tmp_path: Path) -> None:
    first = fake_chain()
    with first.client(cache=tmp_path) as client:
        client.transaction_by_version(42)
        client.transaction_by_version(42)
    assert len(first.sent("/transactions/by_version/42")) == 1
    other = fake_chain(replace(META, chain_id=3))  # same URL, another chain
    with other.client(cache=tmp_path) as client:
        client.transaction_by_version(42)
        client.transaction_by_version(42)
    assert len(other.sent("/transactions/by_version/42")) == 1


def test_a_committed_wait_is_answered_from_the_cache(tmp_path: Path) -> None:
    node = fake_chain()
    with node.client(cache=tmp_path) as client:
        by_hash = client.transaction_by_hash(HASH)
        waited = client.wait_for_transaction(HASH)
    assert waited == by_hash
    assert node.sent(f"/transactions/wait_by_hash/{HASH}") == []


def test_sync_and_async_clients_share_one_cache(tmp_path: Path) -> None:
    node = fake_chain()
    with node.client(cache=tmp_path) as client:
        client.transaction_by_version(42)
        client.block_by_height(3)

    async def main() -> list[Any]:
        async with AsyncClient("http://node.test/v1", transport=node.transport,
                               cache=tmp_path) as client:  # fmt: skip
            txn = await client.transaction_by_version(42)
            blk = await client.block_by_height(3)
            return [txn, blk]

    node.requests.clear()
    txn, blk = asyncio.run(main())
    # The chain's genesis and the history mark at 42 (checked once), nothing else.
    assert [r.url.path for r in node.requests] == [
        "/v1/transactions/by_version/0",
        "/v1/transactions/by_version/42",
    ]
    assert txn.value.version == 42
    assert blk.value.block_height == 3


def _cache_of(url: str, **options: Any) -> Path | None:
    with Client(url, **options) as client:
        return client.config.cache


def test_where_the_cache_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path / "env"))
    default = tmp_path / "env" / CACHE_FILE
    assert _cache_of("https://fullnode.example.com/v1") == default
    # Dev chains on loopback are recreated under the same chain id: off unless asked.
    assert _cache_of("http://127.0.0.1:8080/v1") is None
    assert _cache_of("http://localhost:8080/v1") is None
    assert _cache_of("http://[::1]:8080/v1") is None
    assert _cache_of("http://127.0.0.1:8080/v1", cache=True) == default
    assert _cache_of("http://x/v1", cache=tmp_path / "mine.sqlite3") == tmp_path / "mine.sqlite3"
    assert _cache_of("http://x/v1", cache=str(tmp_path / "dir")) == tmp_path / "dir" / CACHE_FILE
    assert _cache_of("http://x/v1", cache=False) is None
    assert default.exists()


def test_a_broken_cache_file_never_fails_a_request(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    node = fake_chain()
    with node.client(cache=broken) as client:
        assert client.transaction_by_version(42).value.version == 42
        assert client.transaction_by_version(42).value.version == 42
    assert len(node.sent("/transactions/by_version/42")) == 2
    assert "answer cache" in caplog.text
