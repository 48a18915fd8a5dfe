"""The wall clock (``clock="wall"``, what ``ledgerkit node`` runs): the chain's time
follows it while the node is idle, parked transactions expire, and transactions whose
expirations count from the wall clock are taken.

A fake wall clock (``time_source``) moves the chain's time without waiting. Facts from
aptos-core: block timestamps are microseconds and strictly increase
(``timestamp::update_global_time``); an orderless transaction may expire at most 100 s
after the chain's time (``MAX_EXP_TIME_SECONDS_FOR_ORDERLESS_TXNS``, status 44
``TRANSACTION_EXPIRATION_TOO_FAR_IN_FUTURE``); the mempool drops an entry 600 s after its
admission whatever its expiration (``system_transaction_timeout_secs``); a sender holds
at most 100 entries (``capacity_per_user``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import httpx
import pytest
from node_http_helpers import SIGNED_TXN_BCS, assert_error, ok, submit, wait

from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction, TransactionPayloadV1
from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode, NodeConfig, NodeConfigError
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address

#: 2027-01-15T08:00:00Z, in microseconds: where the fake wall clock starts.
T0: Final = 1_800_000_000_000_000
T0_SECS: Final = 1_800_000_000
TO: Final = Address.parse("0x" + "0d" * 32)
U64_MAX: Final = 2**64 - 1
CHAIN_ID: Final = 4
#: How long a test waits for the node's block producer to see the fake clock move (its
#: own pace is a tenth of a second); a bound on a wait, not a timing assertion.
WAIT_SECONDS: Final = 60.0


class FakeClock:
    """A wall clock that moves only when told: microseconds since the Unix epoch."""

    def __init__(self, usec: int) -> None:
        self.usec = usec

    def __call__(self) -> int:
        return self.usec

    def advance(self, seconds: float) -> None:
        self.usec += round(seconds * 1_000_000)


def transfer(
    account: Account, sequence: int, expiration_secs: int, *, nonce: int | None = None
) -> SignedTransaction:
    call = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", TO), ("u64", 5)])
    payload = call if nonce is None else TransactionPayloadV1(call, replay_protection_nonce=nonce)
    raw = RawTransaction(
        account.address, sequence, payload, 200_000, 100, expiration_secs, CHAIN_ID
    )
    return account.sign(raw)


def timestamp(ledger: Ledger) -> int:
    return int(ledger.index()["ledger_timestamp"])


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def ledger_file(tmp_path: Path) -> Path:
    return tmp_path / "ledger.sqlite3"


WALL: Final = NodeConfig(seed=7, blocks=40, clock="wall")


@pytest.fixture
def wall_ledger(ledger_file: Path, clock: FakeClock) -> Iterator[Ledger]:
    ledger = Ledger.open(ledger_file, WALL, time_source=clock)
    yield ledger
    ledger.close()


# -- the chain's time ---------------------------------------------------------------------


def test_an_idle_ledger_on_the_wall_clock_makes_blocks_as_the_clock_moves(
    wall_ledger: Ledger, clock: FakeClock
) -> None:
    head = int(wall_ledger.index()["block_height"])
    # The generated history ends at the fixed anchor (2025-06-02); the first block on the
    # wall clock carries the wall clock's time.
    assert wall_ledger.idle_tick() == head + 1
    assert timestamp(wall_ledger) == 1_800_000_000_000_000
    clock.advance(0.4)  # less than a second since the last block: none is due
    assert wall_ledger.idle_tick() is None
    clock.advance(1.1)
    assert wall_ledger.idle_tick() == head + 2
    assert timestamp(wall_ledger) == 1_800_000_001_500_000
    clock.advance(60)
    assert wall_ledger.idle_tick() == head + 3
    assert timestamp(wall_ledger) == 1_800_000_061_500_000
    assert wall_ledger.now_usec() == 1_800_000_061_500_000


def test_idle_interval_spaces_the_idle_blocks(ledger_file: Path, clock: FakeClock) -> None:
    config = NodeConfig(seed=7, blocks=40, clock="wall", idle_interval=5.0)
    ledger = Ledger.open(ledger_file, config, time_source=clock)
    try:
        head = ledger.idle_tick()
        assert head is not None
        clock.advance(4.999999)
        assert ledger.idle_tick() is None
        clock.advance(0.000001)
        assert ledger.idle_tick() == head + 1
        assert timestamp(ledger) == 1_800_000_005_000_000
    finally:
        ledger.close()


def test_an_idle_block_holds_the_block_metadata_and_epilogue_transactions(
    wall_ledger: Ledger,
) -> None:
    height = wall_ledger.idle_tick()
    assert height is not None
    block = wall_ledger.reads.block_by_height(height, True)
    kinds = [txn["type"] for txn in block["transactions"]]
    assert kinds == ["block_metadata_transaction", "block_epilogue_transaction"]
    assert block["block_timestamp"] == "1800000000000000"
    assert int(block["last_version"]) == int(block["first_version"]) + 1


def test_a_ledger_reopened_carries_on_after_its_last_timestamp(
    ledger_file: Path, clock: FakeClock
) -> None:
    ledger = Ledger.open(ledger_file, WALL, time_source=clock)
    ledger.idle_tick()
    clock.advance(1.5)
    height = ledger.idle_tick()
    assert height is not None
    assert timestamp(ledger) == 1_800_000_001_500_000
    ledger.close()
    # Reopened with the wall clock 1.5 s behind its last block: the chain's time goes on
    # from that block at the clock's pace, never back.
    clock.usec = T0
    ledger = Ledger.open(ledger_file, WALL, time_source=clock)
    try:
        assert ledger.now_usec() == 1_800_000_001_500_000
        assert ledger.idle_tick() is None
        clock.advance(1)
        assert ledger.idle_tick() == height + 1
        assert timestamp(ledger) == 1_800_000_002_500_000
    finally:
        ledger.close()
    # Reopened an hour later: the chain's time is the wall clock's again.
    clock.usec = T0 + 3_600_000_000
    ledger = Ledger.open(ledger_file, WALL, time_source=clock)
    try:
        ledger.idle_tick()
        assert timestamp(ledger) == 1_800_003_600_000_000
    finally:
        ledger.close()


def test_a_ledger_on_the_chain_clock_makes_no_idle_blocks(ledger_file: Path) -> None:
    ledger = Ledger.open(ledger_file, NodeConfig(seed=7, blocks=40))
    try:
        before = ledger.index()["block_height"]
        assert ledger.idle_tick() is None
        assert ledger.index()["block_height"] == before
    finally:
        ledger.close()


def test_the_clock_is_the_chain_clock_unless_the_wall_clock_is_asked_for() -> None:
    assert NodeConfig().clock == "chain"
    assert LocalNode().config.clock == "chain"
    assert repr(LocalNode(seed=7, clock="wall")) == "LocalNode(seed=7, clock='wall', not started)"
    with pytest.raises(NodeConfigError, match="clock must be 'chain' or 'wall'"):
        NodeConfig(clock="sundial")
    with pytest.raises(NodeConfigError, match=r"idle_interval must be from 0\.001 to 86400"):
        NodeConfig(clock="wall", idle_interval=0)


# -- the mempool --------------------------------------------------------------------------


def test_a_parked_transaction_leaves_after_the_system_lifetime_of_600_s(
    wall_ledger: Ledger, clock: FakeClock
) -> None:
    account = wall_ledger.dev_accounts[0]
    wall_ledger.idle_tick()
    # Behind a sequence gap, expiring in an hour: only the mempool's lifetime ends it.
    parked = transfer(account, 1, T0_SECS + 3600)
    wall_ledger.submit(parked)
    clock.advance(599)
    wall_ledger.idle_tick()
    assert len(wall_ledger.mempool) == 1
    clock.advance(1)
    wall_ledger.idle_tick()
    assert len(wall_ledger.mempool) == 0


def test_a_parked_transaction_expires_with_the_block_that_reaches_its_expiration(
    wall_ledger: Ledger, clock: FakeClock
) -> None:
    account = wall_ledger.dev_accounts[0]
    wall_ledger.idle_tick()
    wall_ledger.submit(transfer(account, 1, T0_SECS + 30))
    clock.advance(29)
    wall_ledger.idle_tick()
    assert len(wall_ledger.mempool) == 1
    clock.advance(1)
    wall_ledger.idle_tick()
    assert len(wall_ledger.mempool) == 0


# -- the node -----------------------------------------------------------------------------


def wait_for(condition: object, what: str) -> None:
    """Poll ``condition`` until true (the node's producer runs in its own thread)."""
    assert callable(condition)
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"the node never {what}")
        time.sleep(0.05)


def post(http: httpx.Client, signed: SignedTransaction) -> httpx.Response:
    return http.post(
        "/transactions", content=signed.to_bcs(), headers={"Content-Type": SIGNED_TXN_BCS}
    )


def test_a_node_on_the_wall_clock_answers_with_now_from_its_first_request(
    clock: FakeClock,
) -> None:
    """Its generated history ends at the fixed anchor (mid-2025): the first answer after
    start already carries the wall clock's time, not the anchor's."""
    node = LocalNode(seed=7, blocks=40, services=False, clock="wall", time_source=clock)
    with node, httpx.Client(base_url=node.url, timeout=30.0) as http:
        assert ok(http.get("/"))["ledger_timestamp"] == str(T0)


def test_an_idle_node_unwedges_once_its_1000_parked_transactions_expire(
    clock: FakeClock,
) -> None:
    node = LocalNode(
        seed=7, blocks=40, dev_accounts=11, services=False, clock="wall", time_source=clock
    )
    with node, httpx.Client(base_url=node.url, timeout=30.0) as http:
        wait_for(lambda: int(ok(http.get("/"))["ledger_timestamp"]) == T0, "reached the clock")
        accounts = node.dev_accounts
        # Ten accounts each park 100 transactions behind their missing sequence number 0:
        # the mempool's 1,000 places are taken by transactions no block can take.
        parked = []
        for account in accounts[:10]:
            for sequence in range(1, 101):
                signed = transfer(account, sequence, T0_SECS + 30)
                parked.append(submit(http, signed)["hash"])
        assert len(parked) == 1000
        ready = transfer(accounts[10], 0, T0_SECS + 600)
        assert_error(post(http, ready), 507, "mempool_is_full")
        filler = transfer(accounts[0], 0, T0_SECS + 600)
        assert_error(post(http, filler), 507, "mempool_is_full")
        # Nobody submits: the wall clock alone moves the chain past their expiration.
        clock.advance(31)
        wait_for(
            lambda: int(ok(http.get("/"))["ledger_timestamp"]) >= T0 + 31_000_000,
            "made a block on the moving clock",
        )
        for txn_hash in (parked[0], parked[-1]):
            assert_error(
                http.get(f"/transactions/by_hash/{txn_hash}"), 404, "transaction_not_found"
            )
        ready_hash = submit(http, ready)["hash"]
        filler_hash = submit(http, filler)["hash"]
        assert wait(http, ready_hash)["success"]
        committed = wait(http, filler_hash)
        assert committed["success"]
        assert committed["sequence_number"] == "0"
        account = ok(http.get(f"/accounts/{accounts[0].address}"))
        assert account["sequence_number"] == "1"


def test_an_orderless_transfer_expiring_60_s_after_the_wall_clock(http: httpx.Client) -> None:
    """The TypeScript SDK sets an orderless transaction's expiration from the wall clock
    (within 100 s of it): a node on the wall clock takes and commits it."""
    with (
        LocalNode(seed=7, blocks=40, services=False, clock="wall") as node,
        httpx.Client(base_url=node.url, timeout=30.0) as wall_http,
    ):
        sender = node.dev_accounts[5]
        signed = transfer(sender, U64_MAX, int(time.time()) + 60, nonce=0x5EED)
        committed = wait(wall_http, submit(wall_http, signed)["hash"])
        assert committed["success"], committed["vm_status"]
        assert committed["replay_protection_nonce"] == str(0x5EED)


def test_the_same_transfer_is_too_far_ahead_for_a_node_on_the_chain_clock(
    http: httpx.Client, node: LocalNode
) -> None:
    """The run's shared node keeps the chain clock: its time is near its fixed anchor
    (2025-06-02), so an expiration counted from today's wall clock is more than 100 s
    ahead of it and refused; clients of such a node count from the ledger's timestamp."""
    sender = node.dev_accounts[5]
    signed = transfer(sender, U64_MAX, int(time.time()) + 60, nonce=0x5EED)
    record = assert_error(post(http, signed), 400, "vm_error")
    assert record["vm_error_code"] == 44
