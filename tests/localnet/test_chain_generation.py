"""The chain generator: a day of history ending at its anchor, with the activity an analyst
looks for, and a generation that survives being stopped midway."""

from __future__ import annotations

import datetime as dt
import itertools
import os
import sqlite3
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledgerkit.localnet import IncompleteChainError, NodeConfig
from ledgerkit.localnet.chain._workload import demand
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.store import Store

#: 2025-06-01T00:00:00Z and 2025-06-02T00:00:00Z: the default chain's day.
DAY_START_USEC = 1_748_736_000_000_000
DAY_END_USEC = 1_748_822_400_000_000
HOUR_USEC = 3_600_000_000


@pytest.fixture(scope="module")
def default_chain() -> Iterator[Ledger]:
    ledger = Ledger.open(None, NodeConfig())
    yield ledger
    ledger.close()


def _blocks(ledger: Ledger) -> list[dict[str, Any]]:
    last = ledger.meta().block_height
    return [ledger.reads.block_by_height(h, with_transactions=False) for h in range(last + 1)]


def _all_transactions(ledger: Ledger) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while len(out) <= ledger.meta().ledger_version:
        out.extend(ledger.reads.transactions(len(out), 100))
    return out


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    order = {
        "blocks": "height",
        "transactions": "version",
        "state": "skey, version",
        "events": "account, creation_number, sequence_number",
        "meta": "key",
    }
    with sqlite3.connect(path) as conn:
        return {
            t: conn.execute(f"SELECT * FROM {t} ORDER BY {o}").fetchall() for t, o in order.items()
        }


# -- time -----------------------------------------------------------------------------------------


def test_default_chain_spans_a_day_from_genesis_to_its_anchor(default_chain: Ledger) -> None:
    blocks = _blocks(default_chain)
    assert len(blocks) == 361
    assert blocks[0]["block_timestamp"] == str(DAY_START_USEC)  # genesis: not 1970
    assert blocks[-1]["block_timestamp"] == str(DAY_END_USEC)
    stamps = [int(b["block_timestamp"]) for b in blocks]
    assert stamps == sorted(stamps)
    assert len(set(stamps)) == len(stamps)
    gaps = [b - a for a, b in itertools.pairwise(stamps[1:])]
    # Runs of blocks about half a second apart, the runs sampled through the day.
    assert min(gaps) >= 200_000
    assert sum(gap <= 700_000 for gap in gaps) >= 250
    hours = {(s - DAY_START_USEC) // HOUR_USEC for s in stamps[1:-1]}
    assert hours == set(range(24))


def test_genesis_writes_the_chain_start_into_the_clock(default_chain: Ledger) -> None:
    genesis = default_chain.reads.transaction_by_version(0)
    clock = [
        c
        for c in genesis["changes"]
        if c.get("data", {}).get("type") == "0x1::timestamp::CurrentTimeMicroseconds"
    ]
    assert clock[0]["data"]["data"] == {"microseconds": str(DAY_START_USEC)}


# -- what happens in a day ------------------------------------------------------------------------


def _hour(txn: dict[str, Any]) -> int:
    return (int(txn["timestamp"]) - DAY_START_USEC) // HOUR_USEC


def test_demand_follows_the_day(default_chain: Ledger) -> None:
    users = [t for t in _all_transactions(default_chain) if t["type"] == "user_transaction"]
    by_hour = Counter(_hour(t) for t in users)
    night = sum(by_hour[h] for h in range(2, 7))  # around the 04:00 UTC low
    day = sum(by_hour[h] for h in range(9, 14))  # late morning, before any congestion
    assert day >= 2 * night > 0


def test_a_congestion_episode_fills_blocks_and_prices_rise_then_fall_back(
    default_chain: Ledger,
) -> None:
    rows = default_chain.store.connections.fetch_all(
        "SELECT height, full, min_gas_price FROM blocks WHERE height > 0 ORDER BY height", ()
    )
    full = [height for height, is_full, _ in rows if is_full]
    assert len(full) >= 12
    first, last = full[0], full[-1]
    prices = {height: price for height, _, price in rows}
    peak = max(prices[h] or 0 for h in full)
    assert peak >= 500  # users bid up to five times the minimum and more
    assert prices[first] is not None
    # Prices rise into the episode: the block before its first full one got in cheaper.
    before = [prices[h] or 100 for h, _, _ in rows if h < first]
    assert before[-1] < peak
    after = [prices[h] or 100 for h, _, _ in rows if h > last]
    assert after
    assert max(after) <= 300
    # The chain ends calm: the node's estimate is back to the minimum.
    assert default_chain.estimate_gas_price() == {
        "deprioritized_gas_estimate": 100,
        "gas_estimate": 100,
        "prioritized_gas_estimate": 150,
    }


#: What a full block holds of the workload's transactions, about: its gas limit (3,200
#: units of execution and IO gas) takes 25 to 40 of them. Users sending more than this
#: for a block build a backlog.
BLOCK_TAKES = 30
#: Sampling step through a day, and the calm gap that separates two congestion windows.
STEP_USEC = 6 * 60 * 1_000_000
WINDOW_GAP_USEC = 30 * 60 * 1_000_000


def _congested_windows(seed: int, day: int) -> list[tuple[int, int]]:
    """``(first, last)`` times of the spells of Unix day ``day`` when users send more for a
    block than it takes, spells less than :data:`WINDOW_GAP_USEC` apart merged."""
    windows: list[tuple[int, int]] = []
    for i in range(86_400_000_000 // STEP_USEC):
        when = day * 86_400_000_000 + i * STEP_USEC
        sent, _ = demand(seed, i, when)
        if sent <= BLOCK_TAKES:
            continue
        if windows and when - windows[-1][1] <= WINDOW_GAP_USEC:
            windows[-1] = (windows[-1][0], when)
        else:
            windows.append((when, when))
    return windows


def test_most_days_have_a_second_congestion_episode_at_another_time() -> None:
    """Every day congests in the afternoon; most days also at another time (30 seeds, the
    default day and the three before it: the workload's demand, no chain generated)."""
    default_day = DAY_START_USEC // 86_400_000_000
    days = [(seed, day) for seed in range(30) for day in range(default_day - 3, default_day + 1)]
    counts = Counter(len(_congested_windows(seed, day)) for seed, day in days)
    assert set(counts) <= {1, 2}, counts  # never a calm day, never more than two episodes
    assert 0.5 * len(days) < counts[2] < len(days), counts  # most days, not every day


def test_a_day_with_two_episodes_shows_two_windows_of_full_blocks_bid_up() -> None:
    """Seed 3's default day has its afternoon episode and a shorter one in the morning:
    its blocks show both, full of transactions bidding over every calm price."""
    ledger = Ledger.open(None, NodeConfig(seed=3))
    try:
        congested: list[int] = []
        for height in range(1, ledger.meta().block_height + 1):
            block = ledger.reads.block_by_height(height, with_transactions=True)
            users = [t for t in block["transactions"] if t["type"] == "user_transaction"]
            # A block's gas is what its FeeStatements say of execution and IO (storage fees
            # do not count against the limit of 3,200).
            fees = [t["events"][-1]["data"] for t in users]
            gas = sum(int(f["execution_gas_units"]) + int(f["io_gas_units"]) for f in fees)
            prices = sorted(int(t["gas_unit_price"]) for t in users)
            if gas >= 3_200 and prices[len(prices) // 2] > 300:  # full, and bid up
                congested.append(int(block["block_timestamp"]))
    finally:
        ledger.close()
    windows: list[list[int]] = []
    for when in congested:
        if windows and when - windows[-1][-1] <= HOUR_USEC:
            windows[-1].append(when)
        else:
            windows.append([when])
    assert len(windows) == 2, [[_hour_of(w[0]), _hour_of(w[-1])] for w in windows]
    morning, afternoon = windows
    assert _hour_of(morning[-1]) < 12  # the second episode, at another time
    assert 12 <= _hour_of(afternoon[0]) < 16  # the afternoon one starts 12:00 to 16:00 UTC
    assert len(morning) >= 6  # a run of blocks each, not one
    assert len(afternoon) >= 6


def _hour_of(timestamp_usec: int) -> float:
    return (timestamp_usec - DAY_START_USEC) / HOUR_USEC


def test_the_gas_estimate_answers_a_congested_chain() -> None:
    # The same seed's day ending in its afternoon episode (blocks full, prices bid up).
    ledger = Ledger.open(None, NodeConfig(anchor="2025-06-01T15:36:00Z"))
    try:
        estimate = ledger.estimate_gas_price()
    finally:
        ledger.close()
    assert estimate["gas_estimate"] > 200
    assert estimate["prioritized_gas_estimate"] >= estimate["gas_estimate"]


def test_the_day_holds_what_an_activity_or_forensics_analysis_looks_for(
    default_chain: Ledger,
) -> None:
    users = [t for t in _all_transactions(default_chain) if t["type"] == "user_transaction"]
    # (multisig payloads name no function of their own)
    functions = Counter(t["payload"].get("function") for t in users)
    for name in (
        "0x1::aptos_account::transfer",
        "0x1::aptos_account::batch_transfer",
        "0x1::coin::transfer",
        "0x1::primary_fungible_store::transfer",
        "0x1::ledger_demo::set_score",
        "0x1::ledger_demo::set_cell",
    ):
        assert functions[name] >= 3, name
    statuses = Counter(t["vm_status"] for t in users if not t["success"])
    abort = "Move abort in 0x1::fungible_asset: EINSUFFICIENT_BALANCE(0x10004)"
    assert any(status.startswith(abort) for status in statuses)
    assert "Out of gas" in statuses
    assert len(statuses) >= 4
    created = [
        t
        for t in users
        if t["success"]
        and any(
            c["type"] == "write_resource"
            and c["data"]["type"] == "0x1::account::Account"
            and c["address"] != t["sender"]
            for c in t["changes"]
        )
    ]
    assert len(created) >= 3  # new accounts, made by transfers to unused addresses
    assert any(c["type"] == "write_table_item" for t in users for c in t["changes"])
    event_types = {e["type"] for t in users for e in t["events"]}
    assert event_types >= {
        "0x1::fungible_asset::Withdraw",
        "0x1::fungible_asset::Deposit",
        "0x1::ledger_demo::ScoreChanged",
        "0x1::ledger_demo::CellChanged",
    }


# -- stopped midway -------------------------------------------------------------------------------

#: 25 runs: enough for the day's stories, whose addresses the meta table carries over.
CONFIG = NodeConfig(seed=21, blocks=150)


@pytest.fixture
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGERKIT_CHAIN_CACHE", "off")  # generate into the file itself


@pytest.fixture
def whole(tmp_path: Path, no_cache: None) -> dict[str, list[tuple[object, ...]]]:
    """The rows of an uninterrupted generation of ``CONFIG``."""
    path = tmp_path / "whole.sqlite3"
    Ledger.open(path, CONFIG).close()
    return _rows(path)


KILLED_CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from ledgerkit.localnet._node_config import NodeConfig
    from ledgerkit.localnet.ledger._node_ledger import Ledger
    from ledgerkit.localnet.store._ledger_file import Store

    original = Store.write_block

    def write_block(self, write, *, commit=True):
        if write.block.height == 120:
            os.kill(os.getpid(), signal.SIGKILL)
        original(self, write, commit=commit)

    Store.write_block = write_block
    Ledger.open(sys.argv[1], NodeConfig(seed=21, blocks=150))
    """
)


def test_a_generation_killed_midway_is_finished_on_reopening(
    tmp_path: Path, whole: dict[str, list[tuple[object, ...]]]
) -> None:
    path = tmp_path / "killed.sqlite3"
    child = subprocess.run(
        [sys.executable, "-c", KILLED_CHILD, str(path)],
        env={**os.environ, "LEDGERKIT_CHAIN_CACHE": "off"},
        timeout=120,
        check=False,
    )
    assert child.returncode == -9
    with sqlite3.connect(path) as conn:  # some blocks made it to the file, not all
        made = conn.execute("SELECT MAX(height) FROM blocks").fetchone()[0]
    assert 0 < made < 120
    # the stories' later steps (token transfers) need the addresses the earlier ones made
    assert any(b"0x1::object::transfer" in bytes(row[-1]) for row in whole["transactions"])

    ledger = Ledger.open(path, CONFIG)
    assert ledger.meta().block_height == 150
    ledger.close()
    assert _rows(path) == whole  # the chain an uninterrupted generation makes


def test_a_generation_stopped_by_an_exception_is_finished_on_reopening(
    tmp_path: Path, whole: dict[str, list[tuple[object, ...]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "stopped.sqlite3"
    original = Store.write_block

    def stop_at_block_120(self: Store, write: Any, *, commit: bool = True) -> None:
        if write.block.height == 120:
            raise KeyboardInterrupt
        original(self, write, commit=commit)

    monkeypatch.setattr(Store, "write_block", stop_at_block_120)
    with pytest.raises(KeyboardInterrupt):
        Ledger.open(path, CONFIG)
    monkeypatch.setattr(Store, "write_block", original)

    ledger = Ledger.open(path, NodeConfig(seed=21, blocks=5))  # the file's target counts
    assert ledger.meta().block_height == 150
    ledger.close()
    assert _rows(path) == whole


def test_a_half_made_chain_this_version_cannot_finish_is_refused_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_cache: None
) -> None:
    path = tmp_path / "old.sqlite3"
    original = Store.write_block

    def stop_at_block_60(self: Store, write: Any, *, commit: bool = True) -> None:
        if write.block.height == 60:
            raise KeyboardInterrupt
        original(self, write, commit=commit)

    monkeypatch.setattr(Store, "write_block", stop_at_block_60)
    with pytest.raises(KeyboardInterrupt):
        Ledger.open(path, CONFIG)
    monkeypatch.setattr(Store, "write_block", original)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value='1' WHERE key='generator_version'")

    with pytest.raises(IncompleteChainError, match="stopped midway") as caught:
        Ledger.open(path, CONFIG)
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_whole_day_is_in_the_expected_utc_day(default_chain: Ledger) -> None:
    last = int(_blocks(default_chain)[-1]["block_timestamp"])
    when = dt.datetime.fromtimestamp(last / 1e6, dt.UTC)
    assert when == dt.datetime(2025, 6, 2, tzinfo=dt.UTC)
