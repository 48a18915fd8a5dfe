"""The chain generator: genesis, then blocks of real, signed workload transactions.

Everything is derived from the seed, so the same seed and options write the same
database rows:

* **Genesis** (version 0, block 0) is a ``genesis_transaction`` with a direct write set:
  every framework module, the ``0x1`` resources (chain id, clock, block resource, burned
  fees, APT's ``CoinInfo``), the APT metadata object at ``0xa`` with its concurrent
  supply, the demo token LDT, and funded accounts: the dev accounts, the faucet and
  :data:`GENESIS_WORKLOAD_ACCOUNTS` workload accounts.
* **Blocks** go through the same :class:`~ledgerkit.localnet._blocks.BlockBuilder` and
  mempool as live blocks. Each block, the :class:`Workload` signs transactions with the
  workload accounts' Ed25519 keys (transfers, account creation by transfer, LDT
  transfers, ``ledger_demo`` table writes and events, and a few that abort or run out of
  gas) and submits them; the builder executes them.
* **Load** rises and falls: a slow wave of a few transactions per block, and rush periods
  (starting at seeded heights, lasting 15 to 45 blocks) when demand exceeds what the block
  gas limit lets through. Then users bid higher prices, blocks are full, a backlog builds
  in the mempool and drains afterwards, and the gas estimate moves.
* **Time** starts at :data:`GENESIS_TIME_USEC` and advances about half a second a block
  with seeded jitter.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from typing import Any, Final

from ledgerkit.bcs import TRANSACTION_SALT
from ledgerkit.localnet._accounts import (
    DEV_ACCOUNT_APT,
    FAUCET_APT,
    WORKLOAD_ACCOUNT_APT,
    dev_accounts,
    faucet_account,
)
from ledgerkit.localnet._blocks import (
    EPOCH_INTERVAL_USEC,
    BlockBuilder,
    TxnRecorder,
    admit,
    change_hash,
    salted,
)
from ledgerkit.localnet._config import NodeConfig
from ledgerkit.localnet._errors import NodeError
from ledgerkit.localnet._executor import SUCCESS, TxnOutput, finalize
from ledgerkit.localnet._framework import FRAMEWORK, Context
from ledgerkit.localnet._framework._assets import (
    APT_METADATA,
    APT_TYPE,
    BURNED_FEES,
    CONCURRENT_SUPPLY,
    DEMO_TOKEN_METADATA,
    METADATA,
    OBJECT_CORE,
    ORIGINATING_ADDRESS,
    ORIGINATING_ADDRESS_TABLE,
    PAIRED_COIN_TYPE,
    account_data,
    deposit,
    object_core,
    type_info,
)
from ledgerkit.localnet._framework._context import ACCOUNT
from ledgerkit.localnet._framework._system import BLOCK_RESOURCE, CHAIN_ID, CURRENT_TIME
from ledgerkit.localnet._mempool import Mempool
from ledgerkit.localnet._store import BlockRecord, BlockWrite, Store
from ledgerkit.localnet._workload import Workload, unit
from ledgerkit.types import Address

__all__ = [
    "GENESIS_TIME_USEC",
    "GENESIS_WORKLOAD_ACCOUNTS",
    "block_time",
    "generate",
    "write_genesis",
]

_log = logging.getLogger("ledgerkit.localnet")

#: Time of block 1: 2024-01-01T00:00:00Z.
GENESIS_TIME_USEC: Final = 1_704_067_200_000_000
BLOCK_INTERVAL_USEC: Final = 500_000
BLOCK_JITTER_USEC: Final = 150_000
GENESIS_WORKLOAD_ACCOUNTS: Final = 200
#: The generator commits every this many blocks (each block stays whole).
COMMIT_EVERY: Final = 50
DEMO_TOKEN_UNIT: Final = 1_000_000  # LDT has 6 decimals
_U128_MAX: Final = (1 << 128) - 1
_FRAMEWORK: Final = Address.from_int(1)


def block_time(seed: int, height: int, prev_usec: int) -> int:
    """Timestamp of generated block ``height`` after a block at ``prev_usec``."""
    if height == 1:
        return GENESIS_TIME_USEC
    jitter = round((2 * unit(seed, "jitter", height) - 1) * BLOCK_JITTER_USEC)
    return prev_usec + BLOCK_INTERVAL_USEC + jitter


def _handle(creation_num: int) -> dict[str, Any]:
    return {"counter": "0", "guid": {"id": {"creation_num": str(creation_num), "addr": "0x1"}}}


def write_genesis(store: Store, config: NodeConfig) -> None:
    """Write version 0 and block 0 to an empty store."""
    ctx = Context(lambda skey: None, FRAMEWORK.codec, chain_id=config.chain_id)
    for name, (body, _, bytecode) in FRAMEWORK.module_payloads.items():
        ctx.put_module(name, body, bytecode)
    framework_account = account_data(_FRAMEWORK, bytes(_FRAMEWORK))
    framework_account["guid_creation_num"] = "4"
    ctx.put(_FRAMEWORK, ACCOUNT, framework_account)
    ctx.put(_FRAMEWORK, CHAIN_ID, {"id": config.chain_id})
    ctx.put(_FRAMEWORK, CURRENT_TIME, {"microseconds": "0"})
    ctx.put(
        _FRAMEWORK,
        BLOCK_RESOURCE,
        {
            "height": "0",
            "epoch_interval": str(EPOCH_INTERVAL_USEC),
            "new_block_events": _handle(2),
            "update_epoch_interval_events": _handle(3),
        },
    )
    ctx.put(_FRAMEWORK, BURNED_FEES, {"total": "0"})
    ctx.put(
        _FRAMEWORK,
        ORIGINATING_ADDRESS,
        {"address_map": {"handle": ORIGINATING_ADDRESS_TABLE.standard}},
    )
    ctx.put(
        _FRAMEWORK,
        f"0x1::coin::CoinInfo<{APT_TYPE}>",
        {"name": "Aptos Coin", "symbol": "APT", "decimals": 8, "supply": {"vec": ["0"]}},
    )
    funded = [
        (a.address, DEV_ACCOUNT_APT, 1_000_000)
        for a in dev_accounts(config.seed, config.dev_accounts)
    ]
    funded.append((faucet_account(config.seed).address, FAUCET_APT, 100_000_000))
    workload = Workload(store, None, config.seed, config.chain_id, GENESIS_WORKLOAD_ACCOUNTS)
    funded += [
        (workload.address(i), WORKLOAD_ACCOUNT_APT, 10_000)
        for i in range(GENESIS_WORKLOAD_ACCOUNTS)
    ]
    apt_supply = sum(apt for _, apt, _ in funded)
    ldt_supply = sum(ldt for _, _, ldt in funded) * DEMO_TOKEN_UNIT
    ctx.put(APT_METADATA, OBJECT_CORE, object_core(APT_METADATA, _FRAMEWORK))
    ctx.put(
        APT_METADATA,
        METADATA,
        {"name": "Aptos Coin", "symbol": "APT", "decimals": 8, "icon_uri": "", "project_uri": ""},
    )
    ctx.put(APT_METADATA, PAIRED_COIN_TYPE, {"type": type_info(APT_TYPE)})
    ctx.put(
        APT_METADATA,
        CONCURRENT_SUPPLY,
        {"current": {"value": str(apt_supply), "max_value": str(_U128_MAX)}},
    )
    ctx.put(DEMO_TOKEN_METADATA, OBJECT_CORE, object_core(DEMO_TOKEN_METADATA, _FRAMEWORK))
    ctx.put(
        DEMO_TOKEN_METADATA,
        METADATA,
        {
            "name": "Demo Token",
            "symbol": "LDT",
            "decimals": 6,
            "icon_uri": "",
            "project_uri": "https://github.com/ledgerkit",
        },
    )
    ctx.put(
        DEMO_TOKEN_METADATA,
        "0x1::fungible_asset::Supply",
        {"current": str(ldt_supply), "maximum": {"vec": [str(10 * ldt_supply)]}},
    )
    for address, apt, ldt in funded:
        ctx.put(address, ACCOUNT, account_data(address, bytes(address)))
        deposit(ctx, address, APT_METADATA, apt, events=False)
        deposit(ctx, address, DEMO_TOKEN_METADATA, ldt * DEMO_TOKEN_UNIT, events=False)
    changes = finalize(ctx)
    output = TxnOutput(True, SUCCESS, 0, changes)
    txn_hash = hashlib.sha3_256(TRANSACTION_SALT + b"\x01" + change_hash(changes)).digest()
    block_hash = salted(b"BlockInfo", f"genesis:{config.seed}:{config.chain_id}".encode())
    record = BlockRecord(0, 0, 0, block_hash, 0, 0, 0, 0, 0, 0, False, None, b"", b"")
    write = BlockWrite(
        record,
        meta={
            "chain_id": str(config.chain_id),
            "seed": str(config.seed),
            "dev_accounts": str(config.dev_accounts),
            "workload_accounts": str(GENESIS_WORKLOAD_ACCOUNTS),
            "genesis_supply": str(apt_supply),
        },
    )
    rec = TxnRecorder(0, 0, bytes(32), write)
    state_root = salted(b"StateCheckpoint", bytes(32), change_hash(changes))
    rec.record(
        txn_hash,
        output,
        {
            "payload": {
                "write_set": {
                    "changes": [c.change for c in changes],
                    "events": [],
                    "type": "direct_write_set",
                },
                "type": "write_set_payload",
            },
            "events": [],
            "type": "genesis_transaction",
        },
        checkpoint="0x" + state_root.hex(),
    )
    write.block = BlockRecord(
        0, 0, 0, block_hash, 0, 0, 0, 0, 0, 0, False, None, rec.accumulator, state_root
    )
    store.write_block(write)


def generate(store: Store, config: NodeConfig) -> None:
    """Write genesis and ``config.blocks`` blocks to an empty store."""
    started = time.perf_counter()
    write_genesis(store, config)
    builder = BlockBuilder(store, chain_id=config.chain_id, seed=config.seed)
    mempool = Mempool(config.mempool_capacity)
    workload = Workload(store, mempool, config.seed, config.chain_id, GENESIS_WORKLOAD_ACCOUNTS)
    prev = store.last_block()
    assert prev is not None
    every = max(1, config.blocks // 10)
    try:
        _generate_blocks(store, config, builder, mempool, workload, prev, every, started)
    finally:
        store.commit()


def _generate_blocks(
    store: Store,
    config: NodeConfig,
    builder: BlockBuilder,
    mempool: Mempool,
    workload: Workload,
    prev: BlockRecord,
    every: int,
    started: float,
) -> None:
    for height in range(1, config.blocks + 1):
        timestamp = block_time(config.seed, height, prev.timestamp)
        now_secs = prev.timestamp // 1_000_000
        for signed in workload.transactions(height, prev.timestamp):
            with contextlib.suppress(NodeError):  # a full mempool turns users away
                admit(signed, store.state, mempool, chain_id=config.chain_id, now_secs=now_secs)
        built = builder.build(
            prev, mempool, timestamp, meta={"workload_accounts": str(workload.count)}
        )
        store.write_block(built.write, commit=height % COMMIT_EVERY == 0)
        mempool.settle()
        prev = built.write.block
        if height % every == 0:
            _log.info(
                "generated %d/%d blocks (version %d, %.1f s)",
                height,
                config.blocks,
                prev.last_version,
                time.perf_counter() - started,
            )
