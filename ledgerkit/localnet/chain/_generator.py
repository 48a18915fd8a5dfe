"""The chain generator: genesis, then blocks of real, signed workload transactions.

Everything is derived from the seed, so the same seed and options write the same
database rows:

* **Genesis** (version 0, block 0) is a ``genesis_transaction`` with a direct write set:
  every framework module, the reserved accounts ``0x2``..``0xa`` (bare ``Account``
  resources, as ``genesis.move`` makes them), the ``0x1`` resources (chain id, clock,
  block resource, burned fees, APT's ``CoinInfo``), the APT metadata object at ``0xa``
  with its concurrent supply, the demo token LDT, and funded accounts: the dev accounts,
  the faucet and :data:`GENESIS_WORKLOAD_ACCOUNTS` workload accounts.
* **Blocks** go through the same :class:`~ledgerkit.localnet.chain._block_builder.BlockBuilder` and
  mempool as live blocks. Each block, the :class:`Workload` signs transactions with the
  workload accounts' Ed25519 keys (transfers, account creation by transfer, LDT
  transfers, ``ledger_demo`` table writes and events, sponsored transfers, and a few that
  abort or run out of gas) and submits them, after the steps of the day's stories
  (:class:`~ledgerkit.localnet.chain._day_stories.DayStories`: digital assets, token v1,
  multisig accounts, key rotations); the builder executes them.
* **Time**: the history ends at an *anchor* (:data:`DEFAULT_ANCHOR_USEC` unless the
  config names one) and spans a day before it (longer if the blocks need it). Blocks come
  in *runs* of :data:`RUN_BLOCKS` consecutive blocks about half a second apart, the runs
  spread evenly over the day, so a few hundred blocks sample a whole day. Genesis carries
  the history's start time; the last block carries the anchor.
* **Load** follows the day and its congestion episodes
  (:func:`~ledgerkit.localnet.chain._workload.demand`): in an episode users send more than
  blocks take and bid higher prices, blocks fill, a backlog builds in the mempool and the
  gas estimate rises, then falls back. Each run starts with an empty mempool (a run
  samples a few seconds; what was left waiting is not carried across the gap), which is
  also what lets generation resume.
* **Progress** is recorded: the meta table says the generation is ``running`` (with its
  target) until the last block, which marks it ``complete``; blocks are committed only at
  run ends. :func:`generate` on a half-made file carries on from its last committed run
  and gives the same chain as an uninterrupted generation.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import time
from typing import Any, Final

from ledgerkit.bcs import TRANSACTION_PREFIX, SignedTransaction
from ledgerkit.localnet._node_config import NodeConfig, anchor_usec
from ledgerkit.localnet._node_errors import IncompleteChainError, NodeError
from ledgerkit.localnet.chain._block_builder import (
    EPOCH_INTERVAL_USEC,
    BlockBuilder,
    TxnRecorder,
    change_hash,
    salted,
)
from ledgerkit.localnet.chain._day_stories import MEMORY_KEY, DayStories
from ledgerkit.localnet.chain._seeded_accounts import (
    DEV_ACCOUNT_APT,
    FAUCET_APT,
    WORKLOAD_ACCOUNT_APT,
    dev_accounts,
    faucet_account,
    validator_addresses,
)
from ledgerkit.localnet.chain._workload import Workload, unit
from ledgerkit.localnet.mempool import Mempool, admit
from ledgerkit.localnet.store import BlockRecord, BlockWrite, Store
from ledgerkit.localnet.vm import SUCCESS, StateChange, TxnOutput, finalize
from ledgerkit.localnet.vm.framework import (
    ACCOUNT,
    APT_METADATA,
    APT_TYPE,
    BLOCK_RESOURCE,
    BURNED_FEES,
    CHAIN_ID,
    CONCURRENT_SUPPLY,
    CURRENT_TIME,
    DEMO_TOKEN_METADATA,
    FRAMEWORK,
    METADATA,
    OBJECT_CORE,
    ORIGINATING_ADDRESS,
    ORIGINATING_ADDRESS_TABLE,
    PAIRED_COIN_TYPE,
    Context,
    account_data,
    deposit,
    genesis_block_state,
    monitored_supply,
    object_core,
    type_info,
)
from ledgerkit.types import Address

__all__ = [
    "DEFAULT_ANCHOR_USEC",
    "GENERATOR_VERSION",
    "GENESIS_WORKLOAD_ACCOUNTS",
    "block_time",
    "chain_anchor",
    "chain_start",
    "generate",
    "write_genesis",
]

_log = logging.getLogger("ledgerkit.localnet")

#: Changes whenever the generator makes a different chain from the same options.
GENERATOR_VERSION: Final = 8
#: Where the default history ends: 2025-06-02T00:00:00Z (fixed for this generator version).
DEFAULT_ANCHOR_USEC: Final = 1_748_822_400_000_000
#: The history spans (at least) a day before its anchor.
SPAN_USEC: Final = 86_400_000_000
BLOCK_INTERVAL_USEC: Final = 500_000
BLOCK_JITTER_USEC: Final = 150_000
#: Consecutive blocks in a run; runs are spread over the history's span.
RUN_BLOCKS: Final = 6
GENESIS_WORKLOAD_ACCOUNTS: Final = 200
#: The generator commits at the first run end after this many blocks (runs stay whole).
COMMIT_EVERY: Final = 50
#: The generator's own mempool capacity (a node setting must not change the chain).
GENERATOR_MEMPOOL_CAPACITY: Final = 1000
DEMO_TOKEN_UNIT: Final = 1_000_000  # LDT has 6 decimals
_U128_MAX: Final = (1 << 128) - 1
_FRAMEWORK: Final = Address.from_int(1)
#: The framework's reserved accounts beside ``0x1``, which genesis creates (with their
#: address as authentication key) and governance holds the signer capabilities of.
RESERVED_ADDRESSES: Final = tuple(Address.from_int(n) for n in range(2, 11))


def chain_anchor(config: NodeConfig) -> int:
    """The anchor (microseconds) a new chain of ``config`` ends at; ``"now"`` reads the clock."""
    return DEFAULT_ANCHOR_USEC if config.anchor is None else anchor_usec(config.anchor)


def _span(blocks: int) -> int:
    runs = max(1, math.ceil(blocks / RUN_BLOCKS))
    return max(SPAN_USEC, runs * (RUN_BLOCKS + 2) * BLOCK_INTERVAL_USEC)


def chain_start(anchor: int, blocks: int) -> int:
    """Time of genesis of a chain of ``blocks`` blocks ending at ``anchor``."""
    return anchor - _span(blocks)


def block_time(seed: int, height: int, blocks: int, anchor: int) -> int:
    """Timestamp of generated block ``height`` (1..``blocks``) of a chain ending at ``anchor``.

    Run ``r`` of ``n`` ends at ``anchor - (n - 1 - r) * span / n``; its blocks lie half
    a second apart before its end, with seeded jitter except on the last.
    """
    runs = math.ceil(blocks / RUN_BLOCKS)
    span = _span(blocks)
    run, index = divmod(height - 1, RUN_BLOCKS)
    length = min(RUN_BLOCKS, blocks - run * RUN_BLOCKS)
    end = anchor - (runs - 1 - run) * span // runs
    usec = end - (length - 1 - index) * BLOCK_INTERVAL_USEC
    if index < length - 1:
        usec += round((2 * unit(seed, "jitter", height) - 1) * BLOCK_JITTER_USEC)
    return usec


def _run_ends(height: int, blocks: int) -> bool:
    return height % RUN_BLOCKS == 0 or height == blocks


def _handle(creation_num: int) -> dict[str, Any]:
    return {"counter": "0", "guid": {"id": {"creation_num": str(creation_num), "addr": "0x1"}}}


#: An account genesis funds: its address, its APT in octas, its LDT in whole tokens.
_Funded = tuple[Address, int, int]


def _put_framework(ctx: Context, config: NodeConfig, start: int) -> None:
    """The framework's modules and its ``0x1`` resources: its account (and the reserved
    accounts ``0x2``..``0xa``), the chain id, the clock (at the history's ``start``), the
    block resource and the per-block state (commit history, validator performance,
    randomness, storage usage), burned fees, the originating address table and APT's
    ``CoinInfo``."""
    for (address, name), (body, _, bytecode) in FRAMEWORK.module_payloads.items():
        ctx.put_module(address, name, body, bytecode)
    framework_account = account_data(_FRAMEWORK, bytes(_FRAMEWORK))
    framework_account["guid_creation_num"] = "4"
    ctx.put(_FRAMEWORK, ACCOUNT, framework_account)
    for reserved in RESERVED_ADDRESSES:  # account::create_framework_reserved_account
        ctx.put(reserved, ACCOUNT, account_data(reserved, bytes(reserved)))
    ctx.put(_FRAMEWORK, CHAIN_ID, {"id": config.chain_id})
    ctx.put(_FRAMEWORK, CURRENT_TIME, {"microseconds": str(start)})
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
    genesis_block_state(ctx, len(validator_addresses(config.seed)))
    ctx.put(_FRAMEWORK, BURNED_FEES, {"total": "0"})
    ctx.put(
        _FRAMEWORK,
        ORIGINATING_ADDRESS,
        {"address_map": {"handle": ORIGINATING_ADDRESS_TABLE.standard}},
    )
    ctx.put(
        _FRAMEWORK,
        f"0x1::coin::CoinInfo<{APT_TYPE}>",
        {"name": "Aptos Coin", "symbol": "APT", "decimals": 8, "supply": monitored_supply()},
    )


def _genesis_accounts(store: Store, config: NodeConfig) -> list[_Funded]:
    """The accounts genesis funds, in order: the dev accounts, the faucet, then the
    :data:`GENESIS_WORKLOAD_ACCOUNTS` workload accounts."""
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
    return funded


def _put_assets(ctx: Context, apt_supply: int, ldt_supply: int) -> None:
    """The fungible assets' metadata objects: APT's at ``0xa`` with its concurrent supply,
    and the demo token LDT's with its supply (a tenth of its maximum)."""
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


def _genesis_meta(config: NodeConfig, anchor: int, apt_supply: int) -> dict[str, str]:
    """What the meta table records of the chain at genesis, the generation's target and
    state among it."""
    return {
        "chain_id": str(config.chain_id),
        "seed": str(config.seed),
        "dev_accounts": str(config.dev_accounts),
        "workload_accounts": str(GENESIS_WORKLOAD_ACCOUNTS),
        "genesis_supply": str(apt_supply),
        "generator_version": str(GENERATOR_VERSION),
        "anchor_usec": str(anchor),
        "anchor": "now" if config.anchor == "now" else "fixed",
        "generation_target": str(config.blocks),
        "generation": "running" if config.blocks else "complete",
    }


def _genesis_transaction(changes: list[StateChange]) -> dict[str, Any]:
    """The genesis transaction as the API shows it: its direct write set of ``changes``."""
    return {
        "payload": {
            "write_set": {
                "changes": StateChange.listed(changes),
                "events": [],
                "type": "direct_write_set",
            },
            "type": "write_set_payload",
        },
        "events": [],
        "type": "genesis_transaction",
    }


def write_genesis(store: Store, config: NodeConfig, anchor: int) -> None:
    """Write version 0 and block 0 to an empty store, for a history ending at ``anchor``.

    The clock resource holds the history's start time, so the genesis transaction's
    hash covers the anchor.
    """
    start = chain_start(anchor, config.blocks)
    ctx = Context(lambda skey: None, FRAMEWORK.codec, chain_id=config.chain_id)
    _put_framework(ctx, config, start)
    funded = _genesis_accounts(store, config)
    apt_supply = sum(apt for _, apt, _ in funded)
    ldt_supply = sum(ldt for _, _, ldt in funded) * DEMO_TOKEN_UNIT
    _put_assets(ctx, apt_supply, ldt_supply)
    for address, apt, ldt in funded:
        ctx.put(address, ACCOUNT, account_data(address, bytes(address)))
        deposit(ctx, address, APT_METADATA, apt, events=False)
        deposit(ctx, address, DEMO_TOKEN_METADATA, ldt * DEMO_TOKEN_UNIT, events=False)
    changes = finalize(ctx)
    output = TxnOutput(True, SUCCESS, 0, changes)
    txn_hash = hashlib.sha3_256(TRANSACTION_PREFIX + b"\x01" + change_hash(changes)).digest()
    block_hash = salted(b"BlockInfo", f"genesis:{config.seed}:{config.chain_id}:{start}".encode())
    record = BlockRecord(0, 0, 0, block_hash, start, 0, 0, 0, 0, 0, False, None, b"", b"")
    write = BlockWrite(record, meta=_genesis_meta(config, anchor, apt_supply))
    rec = TxnRecorder(0, 0, bytes(32), write)
    state_root = salted(b"StateCheckpoint", bytes(32), change_hash(changes))
    rec.record(txn_hash, output, _genesis_transaction(changes), checkpoint="0x" + state_root.hex())
    write.block = BlockRecord(
        0, 0, 0, block_hash, start, 0, 0, 0, 0, 0, False, None, rec.accumulator, state_root
    )
    store.write_block(write)


def generate(store: Store, config: NodeConfig) -> None:
    """Write genesis and ``config.blocks`` blocks to an empty store, or finish a half-made one.

    Blocks are committed at run ends only, so a generation stopped anywhere (even by
    SIGKILL) leaves whole runs; called again on that file it carries on and the result
    is the chain an uninterrupted generation writes.

    Raises
    ------
    IncompleteChainError
        The file's generation stopped midway under another generator version.
    """
    started = time.perf_counter()
    if store.reads.last_block() is None:
        write_genesis(store, config, chain_anchor(config))
    if store.reads.meta("generation") in (None, "complete"):
        return
    version = store.reads.meta("generator_version")
    if version != str(GENERATOR_VERSION):
        raise IncompleteChainError(
            store.path,
            f"its chain generation stopped midway under generator version {version}; this "
            f"ledgerkit's generator (version {GENERATOR_VERSION}) cannot finish it: remove "
            "the file to generate the chain anew",
        )
    target = int(store.reads.meta("generation_target") or 0)
    anchor = int(store.reads.meta("anchor_usec") or 0)
    prev = store.reads.last_block()
    assert prev is not None
    if prev.height:
        _log.info("resuming the chain generation of %s at block %d", store.path, prev.height + 1)
    try:
        _generate_blocks(store, config, prev, target, anchor, started)
    except BaseException:
        store.rollback()  # back to the last run end; nothing half-made is committed
        raise


def _admit_all(
    signed: list[SignedTransaction],
    store: Store,
    mempool: Mempool,
    config: NodeConfig,
    sent: int,
) -> None:
    for one in signed:
        with contextlib.suppress(NodeError):  # a full mempool turns users away
            admit(one, store.reads.state, mempool, chain_id=config.chain_id, now_secs=sent // 10**6)


def _generate_blocks(
    store: Store,
    config: NodeConfig,
    prev: BlockRecord,
    target: int,
    anchor: int,
    started: float,
) -> None:
    builder = BlockBuilder(store, chain_id=config.chain_id, seed=config.seed)
    count = int(store.reads.meta("workload_accounts") or GENESIS_WORKLOAD_ACCOUNTS)
    workload = Workload(store, None, config.seed, config.chain_id, count)
    stories = DayStories(workload, target, RUN_BLOCKS, store.reads.meta(MEMORY_KEY))
    every = max(1, target // 10)
    uncommitted = 0
    mempool = Mempool(GENERATOR_MEMPOOL_CAPACITY)
    for height in range(prev.height + 1, target + 1):
        timestamp = block_time(config.seed, height, target, anchor)
        sent = max(prev.timestamp, timestamp - BLOCK_INTERVAL_USEC)
        workload.mempool = mempool
        # The stories' steps first, so the users' own transactions come after them.
        _admit_all(stories.transactions(height, sent), store, mempool, config, sent)
        users = workload.transactions(height, sent, skip=stories.busy(height))
        _admit_all(users, store, mempool, config, sent)
        meta = {"workload_accounts": str(workload.count), MEMORY_KEY: stories.remembered()}
        run_end = _run_ends(height, target)
        if height == target:
            meta["generation"] = "complete"
        built = builder.build(prev, mempool, timestamp, meta=meta)
        uncommitted += 1
        commit = run_end and (uncommitted >= COMMIT_EVERY or height == target)
        store.write_block(built.write, commit=commit)
        if commit:
            uncommitted = 0
        mempool.settle()
        if run_end:  # what is left waiting expires before the next run
            mempool = Mempool(GENERATOR_MEMPOOL_CAPACITY)
        prev = built.write.block
        if height % every == 0:
            _log.info(
                "generated %d/%d blocks (version %d, %.1f s)",
                height,
                target,
                prev.last_version,
                time.perf_counter() - started,
            )
