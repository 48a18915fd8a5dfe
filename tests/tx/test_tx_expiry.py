"""Expirations count from the node's clock, not this machine's.

The embedded chain's time carries on from its anchor (2025-06-02), far from the wall
clock; a transaction built for it expires ``expires_in`` seconds after the ledger time of
the node's latest answer, read here over plain HTTP before and after the build. A clock
that moves only when told lets the expected value be written exactly.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from tx_helpers import Counting

from ledgerkit import AsyncClient, Client, Ed25519PrivateKey
from ledgerkit.bcs import RawTransaction
from ledgerkit.localnet import LocalNode

GAS: Final = {"max_gas_amount": 2_000, "gas_unit_price": 100}
#: Where the default embedded chain's history ends: 2025-06-02T00:00:00Z.
ANCHOR_SECS: Final = 1_748_822_400


class StillClock:
    """A clock whose time moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class AsyncStillClock(StillClock):
    async def sleep(self, seconds: float) -> None:  # type: ignore[override]
        self.now += seconds


def ledger_secs(http: httpx.Client) -> int:
    return int(http.get("/").json()["ledger_timestamp"]) // 10**6


@pytest.fixture
def still() -> StillClock:
    return StillClock()


@pytest.fixture
def still_client(node: LocalNode, still: StillClock) -> Iterator[Client]:
    with Client(node.url, cache=False, clock=still) as client:
        yield client


def test_expiry_counts_from_the_ledger_not_this_machine(
    still_client: Client, http: httpx.Client, fund: Any
) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()
    before = ledger_secs(http)
    built = still_client.build_transaction(key, "0x1::aptos_account::transfer", [to, 10])
    after = ledger_secs(http)
    assert isinstance(built, RawTransaction)
    # The chain lives near its anchor, not at today's date on this machine.
    assert before + 600 <= built.expiration_timestamp_secs <= after + 600
    assert built.expiration_timestamp_secs < time.time() - 30 * 86_400
    assert built.expiration_timestamp_secs > ANCHOR_SECS
    # ... and the node takes it: it is not expired by the chain's clock.
    signed = key.sign_transaction(built)
    pending = still_client.submit_transaction(signed).value
    assert still_client.wait_for_transaction(pending.hash).value.success


def test_expires_in_is_counted_from_the_latest_answer(
    still_client: Client, still: StillClock, http: httpx.Client, fund: Any
) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()
    first = still_client.build_transaction(
        key, "0x1::aptos_account::transfer", [to, 1], expires_in=30, **GAS
    )
    head = ledger_secs(http)
    assert head + 30 == first.expiration_timestamp_secs
    # Nothing is asked of the node for the next one (all given, the sequence number
    # counted): its expiry carries the node's time forward by the time since its answer.
    still.now += 100
    second = still_client.build_transaction(
        key, "0x1::aptos_account::transfer", [to, 1], expires_in=30, **GAS
    )
    assert second.expiration_timestamp_secs == head + 100 + 30


def test_a_build_takes_the_time_from_the_answers_it_needs(
    node: LocalNode, http: httpx.Client, counting: Counting
) -> None:
    dev = node.dev_accounts[6]
    with Client(node.url, cache=False, clock=StillClock(), transport=counting) as client:
        built = client.build_transaction(
            dev, "0x1::aptos_account::transfer", [dev.address, 1], sequence_number=0, **GAS
        )
    # The module's ABI was the one thing to ask; its answer told the chain and its time.
    assert counting.sent == [("GET", "/v1/accounts/0x1/module/aptos_account")]
    assert built.expiration_timestamp_secs == ledger_secs(http) + 600


def test_the_async_client_counts_from_the_ledger_too(
    node: LocalNode, http: httpx.Client, fund: Any
) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()

    async def build() -> Any:
        async with AsyncClient(node.url, cache=False, clock=AsyncStillClock()) as client:
            return await client.build_transaction(key, "0x1::aptos_account::transfer", [to, 5])

    before = ledger_secs(http)
    built = asyncio.run(build())
    assert before + 600 <= built.expiration_timestamp_secs <= ledger_secs(http) + 600


def test_transfer_expires_by_the_chain_clock(
    still_client: Client, http: httpx.Client, fund: Any
) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()
    before = ledger_secs(http)
    txn = still_client.transfer(key, to, 123).value
    assert txn.success
    assert before + 600 <= int(txn.expiration_timestamp_secs) <= int(txn.timestamp) // 10**6 + 600
