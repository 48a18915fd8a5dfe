"""The chain's clock: it carries on from the generated history's anchor without jumps, the
anchor option lines the chain up with another time, expiry is checked against it, and
while the node is idle it waits for the next block."""

from __future__ import annotations

import io
import sqlite3
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.cli import main
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.ledger import Ledger

#: 2025-06-02T00:00:00Z, where the default history ends.
DEFAULT_ANCHOR_USEC = 1_748_822_400_000_000
#: 2030-01-01T00:00:00Z.
ANCHOR_2030_USEC = 1_893_456_000_000_000
DAY_USEC = 86_400_000_000


def _transfer(ledger: Ledger, expires_in_secs: int) -> SignedTransaction:
    dev = ledger.dev_accounts[0]
    sequence = int(ledger.reads.account(dev.address, None)["sequence_number"])
    ef = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", "0xbeef"), ("u64", 1_000)]
    )
    ledger_secs = ledger.meta().ledger_timestamp_usec // 1_000_000
    # 100,000: the first transfer creates 0xbeef's account (about 10,400 units).
    raw = RawTransaction(dev.address, sequence, ef, 100_000, 100, ledger_secs + expires_in_secs, 4)
    return dev.private_key.sign_transaction(raw)


def test_a_block_after_a_submission_carries_on_from_the_anchor(tmp_path: Path) -> None:
    before = time.monotonic()
    ledger = Ledger.open(tmp_path / "chain.sqlite3", NodeConfig(seed=5, blocks=6))
    try:
        assert ledger.meta().ledger_timestamp_usec == DEFAULT_ANCHOR_USEC
        # Valid for 30 s of ledger time: long gone by the wall clock, fine by the chain's.
        signed = _transfer(ledger, 30)
        ledger.submit(signed)
        height = ledger.produce_block()
        elapsed_usec = (time.monotonic() - before) * 1e6
        assert height == 7
        block = ledger.reads.block_by_height(7, with_transactions=False)
        stamp = int(block["block_timestamp"])
        assert DEFAULT_ANCHOR_USEC < stamp <= DEFAULT_ANCHOR_USEC + elapsed_usec
        committed = ledger.transaction_by_hash(bytes(signed.hash()))
        assert committed["type"] == "user_transaction"
        assert committed["success"]
    finally:
        ledger.close()


def test_live_blocks_follow_the_chain_clock(tmp_path: Path) -> None:
    before = time.monotonic()
    ledger = Ledger.open(None, NodeConfig(seed=5, blocks=6, block_interval=1.0))
    try:
        ledger.live_tick()
        ledger.live_tick()
        elapsed_usec = (time.monotonic() - before) * 1e6
        stamps = [
            int(ledger.reads.block_by_height(h, with_transactions=False)["block_timestamp"])
            for h in (7, 8)
        ]
    finally:
        ledger.close()
    assert DEFAULT_ANCHOR_USEC < stamps[0] < stamps[1] <= DEFAULT_ANCHOR_USEC + elapsed_usec


def test_a_restarted_ledger_carries_on_from_its_last_block(tmp_path: Path) -> None:
    path = tmp_path / "chain.sqlite3"
    config = NodeConfig(seed=5, blocks=6)
    ledger = Ledger.open(path, config)
    ledger.submit(_transfer(ledger, 7200))
    assert ledger.produce_block(DEFAULT_ANCHOR_USEC + 3_600_000_000) == 7  # an hour on
    ledger.close()

    before = time.monotonic()
    reopened = Ledger.open(path, config)
    try:
        reopened.submit(_transfer(reopened, 30))
        reopened.produce_block()
        elapsed_usec = (time.monotonic() - before) * 1e6
        stamp = reopened.meta().ledger_timestamp_usec
    finally:
        reopened.close()
    last = DEFAULT_ANCHOR_USEC + 3_600_000_000
    assert last < stamp <= last + elapsed_usec


def test_anchor_now_lines_the_chain_up_with_the_wall_clock() -> None:
    before = time.time_ns() // 1000
    ledger = Ledger.open(None, NodeConfig(seed=5, blocks=6, anchor="now"))
    after = time.time_ns() // 1000
    try:
        head = ledger.meta().ledger_timestamp_usec
        genesis = int(ledger.reads.block_by_height(0, with_transactions=False)["block_timestamp"])
    finally:
        ledger.close()
    assert before <= head <= after
    assert genesis == head - DAY_USEC


@pytest.mark.parametrize("anchor", ["2030-01-01T00:00:00Z", "2030-01-01 01:00+01:00", 1893456000])
def test_an_explicit_anchor_ends_the_history_there(anchor: str | int) -> None:
    ledger = Ledger.open(None, NodeConfig(seed=5, blocks=6, anchor=anchor))
    try:
        assert ledger.meta().ledger_timestamp_usec == ANCHOR_2030_USEC
        genesis = ledger.reads.block_by_height(0, with_transactions=False)
        assert genesis["block_timestamp"] == str(ANCHOR_2030_USEC - DAY_USEC)
        genesis_hash = ledger.reads.transaction_by_version(0)["hash"]
    finally:
        ledger.close()
    default = Ledger.open(None, NodeConfig(seed=5, blocks=6))
    try:
        # The genesis transaction covers the chain's start time, so it names the chain.
        assert default.reads.transaction_by_version(0)["hash"] != genesis_hash
    finally:
        default.close()


@pytest.mark.parametrize("anchor", ["yesterday", "", "1969-07-20T20:17:00Z", float("nan"), True])
def test_a_bad_anchor_is_refused_before_anything_starts(anchor: object) -> None:
    with pytest.raises(ValueError, match="anchor"):
        NodeConfig(anchor=anchor)  # type: ignore[arg-type]


def test_reopening_with_another_anchor_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chain.sqlite3"
    Ledger.open(path, NodeConfig(seed=5, blocks=6, anchor="2030-01-01T00:00:00Z")).close()
    with pytest.raises(ValueError, match="anchor"):
        Ledger.open(path, NodeConfig(seed=5, blocks=6, anchor="2031-01-01T00:00:00Z"))


def test_node_command_refuses_a_bad_anchor(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["node", "--port", "0", "--anchor", "next tuesday"]) == 1
    assert "anchor" in capsys.readouterr().err


def test_the_demo_counts_expiry_from_the_ledger_not_the_local_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ledgerkit._demo import run_demo

    # A local clock far behind the chain's: an expiry counted from it is long past there.
    monkeypatch.setattr(time, "time", lambda: 1_000_000_000.0)  # 2001
    out = io.StringIO()
    run_demo(out, seed=5, blocks=6)
    assert "success                 True" in out.getvalue()


def test_a_chain_anchored_now_stays_on_the_wall_clock_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "now.sqlite3"
    config = NodeConfig(seed=5, blocks=6, anchor="now")
    Ledger.open(path, config).close()
    # As if generated an hour ago: reopened, it is not left an hour behind the wall clock.
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE blocks SET timestamp = timestamp - 3600000000 WHERE height = 6")
        conn.execute(
            "UPDATE meta SET value = CAST(value - 3600000000 AS TEXT) WHERE key = 'anchor_usec'"
        )
    before = time.time_ns() // 1000
    reopened = Ledger.open(path, config)
    try:
        reopened.submit(_transfer(reopened, 7200))
        reopened.produce_block()
        after = time.time_ns() // 1000
        stamp = reopened.meta().ledger_timestamp_usec
    finally:
        reopened.close()
    assert before <= stamp <= after


HOUR_NS = 3_600_000_000_000


@pytest.fixture
def idle_for(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Nanoseconds added to the chain clock's monotonic clock: idle time, made at will."""
    from ledgerkit.localnet.chain import _chain_clock

    added = [0]
    real = time.monotonic_ns
    fake = SimpleNamespace(monotonic_ns=lambda: real() + added[0], time_ns=time.time_ns)
    monkeypatch.setattr(_chain_clock, "time", fake)
    return added


def test_an_idle_nodes_clock_waits_for_its_next_block(idle_for: list[int]) -> None:
    ledger = Ledger.open(None, NodeConfig(seed=5, blocks=6))
    try:
        head = ledger.meta().ledger_timestamp_usec
        idle_for[0] += HOUR_NS  # an hour without a block
        # Counted from the ledger time of the latest answer, as clients do: 30 s of life.
        signed = _transfer(ledger, 30)
        ledger.submit(signed)
        assert ledger.produce_block() == 7
        stamp = ledger.meta().ledger_timestamp_usec
        assert head < stamp <= head + 1_000_000  # at most a second after the last block
        assert ledger.transaction_by_hash(bytes(signed.hash()))["success"]
        # Busy again, the clock goes on at its pace from the new block.
        idle_for[0] += 400_000_000
        assert stamp + 400_000 <= ledger.now_usec() <= stamp + 1_000_000
    finally:
        ledger.close()


def test_a_transaction_expires_by_the_chain_clock_even_when_idle(idle_for: list[int]) -> None:
    ledger = Ledger.open(None, NodeConfig(seed=5, blocks=6))
    try:
        head = ledger.meta().ledger_timestamp_usec
        signed = _transfer(ledger, 1)  # one second of ledger time
        idle_for[0] += 2 * HOUR_NS
        # The clock waits a second past the head block: the expiry is reached, not passed by
        # hours, and the node says so.
        assert ledger.now_usec() == head + 1_000_000
        with pytest.raises(NodeError, match="TRANSACTION_EXPIRED"):
            ledger.submit(signed)
    finally:
        ledger.close()


def test_live_blocks_keep_their_interval_past_the_idle_lead(idle_for: list[int]) -> None:
    # Live mode with blocks every 3 s: the clock may run two intervals past the head block.
    ledger = Ledger.open(None, NodeConfig(seed=5, blocks=6, block_interval=3.0))
    try:
        head = ledger.meta().ledger_timestamp_usec
        idle_for[0] += 3_000_000_000
        ledger.live_tick()
        stamp = ledger.meta().ledger_timestamp_usec
        assert head + 3_000_000 <= stamp <= head + 6_000_000
    finally:
        ledger.close()
