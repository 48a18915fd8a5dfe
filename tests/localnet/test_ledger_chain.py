"""The generated chain: its shape, supply conservation, determinism and restarts."""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address, StructTag

BLOCKS = 30
APT = StructTag.parse("0x1::aptos_coin::AptosCoin")
STORE = "0x1::fungible_asset::FungibleStore"


@pytest.fixture(scope="module")
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=11, blocks=BLOCKS))
    yield opened
    opened.close()


def _data(ledger: Ledger, address: str, tag: str, version: int) -> dict[str, object]:
    resource = ledger.reads.resource(Address.parse(address), StructTag.parse(tag), version)
    data: dict[str, object] = orjson.loads(resource.json)["data"]
    return data


def test_genesis_is_version_zero_and_block_zero(ledger: Ledger) -> None:
    genesis = ledger.reads.transaction_by_version(0)
    assert genesis["type"] == "genesis_transaction"
    assert genesis["payload"]["type"] == "write_set_payload"
    assert genesis["payload"]["write_set"]["type"] == "direct_write_set"
    kinds = {change["type"] for change in genesis["changes"]}
    # One table item: the genesis block's event in 0x1::block::CommitHistory.
    assert kinds == {"write_module", "write_resource", "write_table_item"}
    block = ledger.reads.block_by_height(0, with_transactions=False)
    assert (block["first_version"], block["last_version"]) == ("0", "0")
    assert "transactions" not in block


def test_every_block_is_metadata_then_user_transactions_then_epilogue(ledger: Ledger) -> None:
    expected_version = 1
    for height in range(1, BLOCKS + 1):
        block = ledger.reads.block_by_height(height, with_transactions=True)
        txns = block["transactions"]
        assert int(block["first_version"]) == expected_version
        assert [int(t["version"]) for t in txns] == list(
            range(int(block["first_version"]), int(block["last_version"]) + 1)
        )
        assert txns[0]["type"] == "block_metadata_transaction"
        assert txns[-1]["type"] == "block_epilogue_transaction"
        assert {t["type"] for t in txns[1:-1]} <= {"user_transaction"}
        assert txns[0]["timestamp"] == block["block_timestamp"]
        assert txns[-1]["state_checkpoint_hash"] is not None
        assert txns[0]["events"][0]["type"] == "0x1::block::NewBlockEvent"
        expected_version = int(block["last_version"]) + 1
    assert expected_version - 1 == ledger.meta().ledger_version


def test_user_transactions_are_real_signed_transactions(ledger: Ledger) -> None:
    users = [t for t in ledger.reads.transactions(1, 100) if t["type"] == "user_transaction"]
    assert users, "the workload sent nothing in the first blocks"
    for txn in users:
        assert txn["signature"]["type"] == "ed25519_signature"
        assert txn["payload"]["type"] == "entry_function_payload"
        assert int(txn["gas_used"]) > 0
        assert int(txn["gas_unit_price"]) >= 100


def test_block_timestamps_advance(ledger: Ledger) -> None:
    stamps = [
        int(ledger.reads.block_by_height(h, with_transactions=False)["block_timestamp"])
        for h in range(1, BLOCKS + 1)
    ]
    assert stamps == sorted(stamps)
    assert len(set(stamps)) == len(stamps)


def _apt_accounting(ledger: Ledger, version: int) -> tuple[int, int, int]:
    """(sum of APT balances, burned fees, supply) at ``version``, from state."""
    total = 0
    for _, raw in ledger.store.reads.resources_of_type(STORE, version):
        data = orjson.loads(raw)["data"]
        if data["metadata"]["inner"] == "0xa":
            total += int(data["balance"])
    burned = int(_data(ledger, "0x1", "0x1::transaction_fee::BurnedFees", version)["total"])
    supply_data = _data(ledger, "0xa", "0x1::fungible_asset::ConcurrentSupply", version)
    supply = int(supply_data["current"]["value"])  # type: ignore[index]
    return total, burned, supply


def test_apt_is_conserved_at_every_sampled_version(ledger: Ledger) -> None:
    genesis_supply = int(ledger.store.reads.meta("genesis_supply") or 0)
    latest = ledger.meta().ledger_version
    versions = {0, 1, latest} | set(random.Random(5).sample(range(latest + 1), 25))
    burned_before = -1
    for version in sorted(versions):
        balances, burned, supply = _apt_accounting(ledger, version)
        assert balances + burned == genesis_supply, version
        assert supply == balances, version
        assert burned >= burned_before
        burned_before = burned
    assert burned_before > 0


def _rows(path: str) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as conn:
        tables = {
            "blocks": "height",
            "transactions": "version",
            "state": "skey, version",
            "state_keys": "skey",
            "events": "account, creation_number, sequence_number",
            "meta": "key",
        }
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
            for table, order in tables.items()
        }


def test_same_seed_and_options_give_the_same_database(tmp_path: Path) -> None:
    config = NodeConfig(seed=3, blocks=20)
    paths = [tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"]
    for path in paths:
        Ledger.open(path, config).close()
    first, second = (_rows(str(p)) for p in paths)
    for table in first:
        assert first[table] == second[table], table
    assert len(first["transactions"]) > 40
    Ledger.open(tmp_path / "c.sqlite3", NodeConfig(seed=4, blocks=20)).close()
    other = _rows(str(tmp_path / "c.sqlite3"))
    assert other["transactions"] != first["transactions"]


def test_restart_carries_on_from_the_last_block(tmp_path: Path) -> None:
    path = tmp_path / "chain.sqlite3"
    config = NodeConfig(seed=5, blocks=10)
    ledger = Ledger.open(path, config)
    head = ledger.meta()
    ledger.close()

    reopened = Ledger.open(path, NodeConfig(seed=5, blocks=500))  # no new generation
    assert reopened.meta() == head
    dev = reopened.dev_accounts[0]
    ef = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", "0xbeef"), ("u64", 1_000)]
    )
    now = head.ledger_timestamp_usec // 1_000_000
    # 100,000: the transfer creates 0xbeef's account (about 10,400 units).
    raw = RawTransaction(dev.address, 0, ef, 100_000, 100, now + 600, config.chain_id)
    signed = dev.private_key.sign_transaction(raw)
    reopened.submit(signed)
    height = reopened.produce_block(head.ledger_timestamp_usec + 1_000_000)
    assert height == head.block_height + 1
    committed = reopened.transaction_by_hash(bytes(signed.hash()))
    assert committed["type"] == "user_transaction"
    assert committed["success"]
    after = reopened.meta()
    reopened.close()

    again = Ledger.open(path, config)
    assert again.meta() == after
    assert again.transaction_by_hash(bytes(signed.hash()))["version"] == committed["version"]
    again.close()


def test_reopening_with_another_seed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chain.sqlite3"
    Ledger.open(path, NodeConfig(seed=1, blocks=2)).close()
    with pytest.raises(ValueError, match="seed"):
        Ledger.open(path, NodeConfig(seed=2, blocks=2))


def test_dev_accounts_are_funded_and_unused(ledger: Ledger) -> None:
    assert len(ledger.dev_accounts) == 8
    for dev in ledger.dev_accounts:
        assert ledger.reads.account(dev.address, None)["sequence_number"] == "0"
        assert ledger.reads.balance(dev.address, APT, None) == 1_000_000 * 100_000_000
        assert "<secret>" in repr(dev)


def test_live_ticks_make_blocks_of_workload_transactions(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    config = NodeConfig(seed=9, blocks=3, block_interval=0.5)
    ledger = Ledger.open(path, config)
    dev_addresses = {a.address.long for a in ledger.dev_accounts}
    start = ledger.meta()
    for tick in range(1, 4):
        assert ledger.live_workload_transactions(0) == []
        height = ledger.live_tick(start.ledger_timestamp_usec + tick * 500_000)
        assert height == start.block_height + tick
    assert ledger.produce_block(start.ledger_timestamp_usec + 10**7) is None  # nothing waits
    senders = {
        t["sender"]
        for t in ledger.reads.transactions(start.ledger_version + 1, 100)
        if t["type"] == "user_transaction"
    }
    assert senders
    assert not senders & dev_addresses
    signed = ledger.live_workload_transactions(3)
    assert len(signed) == 3
    assert all(s.verify() for s in signed)
    ledger.close()
    reopened = Ledger.open(path, config)  # the workload carries on after a restart
    assert reopened.live_tick(start.ledger_timestamp_usec + 10**7) == start.block_height + 4
    reopened.close()


def test_readers_in_other_threads_see_whole_blocks(tmp_path: Path) -> None:
    ledger = Ledger.open(tmp_path / "threads.sqlite3", NodeConfig(seed=12, blocks=2))
    stop = threading.Event()
    problems: list[str] = []

    def read() -> None:
        while not stop.is_set():
            meta = ledger.meta()
            block = ledger.reads.block_by_height(meta.block_height, with_transactions=True)
            versions = [int(t["version"]) for t in block["transactions"]]
            whole = list(range(int(block["first_version"]), int(block["last_version"]) + 1))
            if versions != whole or whole[-1] < meta.ledger_version:
                problems.append(f"block {block['block_height']} read in part")
            ledger.reads.balance(ledger.dev_accounts[0].address, APT, meta.ledger_version)

    readers = [threading.Thread(target=read) for _ in range(2)]
    for reader in readers:
        reader.start()
    try:
        start = ledger.meta().ledger_timestamp_usec
        for tick in range(1, 15):
            ledger.live_tick(start + tick * 500_000)
    finally:
        stop.set()
        for reader in readers:
            reader.join()
    assert problems == []
    assert ledger.meta().block_height == 2 + 14
    ledger.close()
