"""The simulate and submit-and-wait flows over a scripted node, on both clients: stores the
answer leaves unresolved are read from the chain, a simulation answers one transaction,
and a submission is sent exactly once, a failed execution returned, not raised."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Final

import httpx
import pytest
from client_fakes import (
    ADDRESS,
    HASH,
    SUBMITTED,
    AsyncFakeClock,
    FakeClock,
    FakeNode,
    answer,
    error,
    simulated_user_transaction,
    user_transaction,
)

from ledgerkit import DecodingError, ServerError
from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.keys import Ed25519PrivateKey

KEY: Final = Ed25519PrivateKey.from_seed(b"flow")
POOL_STORE: Final = "0x" + "f6" * 32
LOST_STORE: Final = "0x" + "f7" * 32
POOL: Final = "0x" + "d4" * 32
TOKEN: Final = "0x" + "e5" * 32
RAW: Final = RawTransaction(
    KEY.address(),
    9,
    EntryFunction.build("0x1::aptos_account::transfer", [], [("address", "0xb0b"), ("u64", 5)]),
    2_000,
    100,
    int(time.time()) + 600,
    2,
)


def run(kind: str, node: FakeNode, call: Any, clock: Any = None) -> Any:
    """``call(client)`` on a sync or async client of the scripted node."""
    if kind == "sync":
        with node.client(clock=clock or FakeClock()) as client:
            return call(client)

    async def go() -> Any:
        async with node.async_client(clock=clock or AsyncFakeClock()) as client:
            return await call(client)

    return asyncio.run(go())


def swap_answer() -> dict[str, Any]:
    body = simulated_user_transaction(10)
    body["events"] = [
        {"guid": {"creation_number": "0", "account_address": "0x0"}, "sequence_number": "0",
         "type": "0x1::fungible_asset::Withdraw", "data": {"store": POOL_STORE, "amount": "9"}},
        {"guid": {"creation_number": "0", "account_address": "0x0"}, "sequence_number": "0",
         "type": "0x1::fungible_asset::Deposit", "data": {"store": LOST_STORE, "amount": "9"}},
    ]  # fmt: skip
    return body


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_unresolved_stores_are_read_from_the_chain(kind: str) -> None:
    node = FakeNode()
    node.on("POST", "/transactions/simulate", answer([swap_answer()]))
    pool_resources = [
        {"type": "0x1::object::ObjectCore", "data": {"owner": POOL, "allow_ungated_transfer": False,
         "guid_creation_num": "1", "transfer_events": {"counter": "0", "guid": {"id": {
             "addr": POOL_STORE, "creation_num": "0"}}}}},
        {"type": "0x1::fungible_asset::FungibleStore",
         "data": {"metadata": {"inner": TOKEN}, "balance": "91", "frozen": False}},
    ]  # fmt: skip
    node.on("GET", f"/accounts/{POOL_STORE}/resources", answer(pool_resources))
    node.on("GET", f"/accounts/{LOST_STORE}/resources", error(404, "account_not_found"))
    sim = run(kind, node, lambda c: c.simulate(RAW, signer=KEY))
    assert sim.balance_deltas == {
        (POOL, TOKEN): -9,
        (LOST_STORE, None): 9,  # never found: listed under the store itself
        (ADDRESS, "0x" + "0" * 63 + "a"): -2_400,
    }
    assert [r.url.path for r in node.sent()] == [
        "/v1/transactions/simulate",
        f"/v1/accounts/{POOL_STORE}/resources",
        f"/v1/accounts/{LOST_STORE}/resources",
    ]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_simulation_answers_exactly_one_user_transaction(kind: str) -> None:
    node = FakeNode()
    two = [simulated_user_transaction(10), simulated_user_transaction(11)]
    node.on("POST", "/transactions/simulate", answer(two))
    with pytest.raises(DecodingError):
        run(kind, node, lambda c: c.simulate(RAW, public_key=KEY.public_key))


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_submit_and_wait_returns_the_committed_failure(kind: str) -> None:
    node = FakeNode()
    node.on("POST", "/transactions", answer(SUBMITTED, status=202))
    polls = iter([{**user_transaction(0), "type": "pending_transaction"}])

    def wait(request: httpx.Request) -> httpx.Response:
        pending = next(polls, None)
        if pending is not None:
            return answer({k: v for k, v in pending.items() if k in SUBMITTED or k == "type"})
        return answer(user_transaction(77, success=False))

    node.on("GET", f"/transactions/wait_by_hash/{HASH}", wait)
    result = run(kind, node, lambda c: c.submit_and_wait(KEY.sign_transaction(RAW), timeout=5))
    assert result.value.version == 77
    assert not result.value.success
    assert len(node.sent("/transactions")) == 1
    assert len(node.sent(f"/transactions/wait_by_hash/{HASH}")) == 2


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_submission_is_sent_once_even_when_the_node_is_unavailable(kind: str) -> None:
    node = FakeNode()
    node.on("POST", "/transactions", error(503, "internal_error", "try later"))
    with pytest.raises(ServerError):
        run(kind, node, lambda c: c.submit_and_wait(KEY.sign_transaction(RAW)))
    assert len(node.sent()) == 1
