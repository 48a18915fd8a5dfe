"""The per-block state the block prologue keeps besides the block resource and the clock,
as ``0x1::block::block_prologue_ext`` keeps it: the commit history (the last 2,000 blocks'
``NewBlockEvent`` in a ``TableWithLength<u32, NewBlockEvent>``, a ring), each validator's
proposal counts for the epoch (``0x1::stake::ValidatorPerformance``), the block's
randomness (``0x1::randomness::PerBlockRandomness``) and, when the epoch changes, the
state's size at its beginning (``0x1::state_storage::StateStorageUsage``).

A node's randomness seed comes from its validators' distributed key; this node's is
``SHA3-256("ledgerkit::randomness" ‖ block id)``, 32 bytes that every run of a chain
repeats.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import Context
from ledgerkit.localnet.vm.framework._state_keys import table_handle
from ledgerkit.types import Address

__all__ = [
    "COMMIT_HISTORY",
    "COMMIT_HISTORY_CAPACITY",
    "COMMIT_HISTORY_TABLE",
    "PER_BLOCK_RANDOMNESS",
    "STATE_STORAGE_USAGE",
    "VALIDATOR_PERFORMANCE",
    "BlockFacts",
    "genesis_block_state",
    "randomness_seed",
    "update_block_state",
]

_FRAMEWORK: Final = Address.from_int(1)
COMMIT_HISTORY: Final = "0x1::block::CommitHistory"
VALIDATOR_PERFORMANCE: Final = "0x1::stake::ValidatorPerformance"
PER_BLOCK_RANDOMNESS: Final = "0x1::randomness::PerBlockRandomness"
STATE_STORAGE_USAGE: Final = "0x1::state_storage::StateStorageUsage"
NEW_BLOCK_EVENT: Final = "0x1::block::NewBlockEvent"
#: ``block::initialize``'s ``max_capacity``.
COMMIT_HISTORY_CAPACITY: Final = 2000
COMMIT_HISTORY_TABLE: Final = table_handle("block", "CommitHistory::table")


@dataclass(frozen=True, slots=True)
class BlockFacts:
    """What the prologue needs beyond the block event: the proposer's index in the
    validator set, the block's id, and the state's size at the epoch's beginning (items,
    bytes) when the block starts an epoch."""

    proposer_index: int
    block_id: bytes
    new_epoch_usage: tuple[int, int] | None = None


def randomness_seed(block_id: bytes) -> bytes:
    """The block's randomness seed: ``SHA3-256("ledgerkit::randomness" ‖ block id)``."""
    return hashlib.sha3_256(b"ledgerkit::randomness" + block_id).digest()


def _performance(validators: int) -> dict[str, Any]:
    zero = {"successful_proposals": "0", "failed_proposals": "0"}
    return {"validators": [dict(zero) for _ in range(validators)]}


def genesis_block_state(ctx: Context, validators: int) -> None:
    """The resources genesis makes (``block::initialize`` with the genesis block event in
    the history at index 0, ``stake``'s performance of each validator, ``randomness`` and
    ``state_storage`` at epoch 0)."""
    genesis_event = {
        "hash": "0x0",
        "epoch": "0",
        "round": "0",
        "height": "0",
        "previous_block_votes_bitvec": "0x",
        "proposer": "0x0",
        "failed_proposer_indices": [],
        "time_microseconds": "0",
    }
    ctx.table_put(COMMIT_HISTORY_TABLE, "u32", NEW_BLOCK_EVENT, 0, genesis_event)
    history = {
        "max_capacity": COMMIT_HISTORY_CAPACITY,
        "next_idx": 1,
        "table": {"inner": {"handle": COMMIT_HISTORY_TABLE.standard}, "length": "1"},
    }
    ctx.put(_FRAMEWORK, COMMIT_HISTORY, history)
    ctx.put(_FRAMEWORK, VALIDATOR_PERFORMANCE, _performance(validators))
    ctx.put(_FRAMEWORK, PER_BLOCK_RANDOMNESS, {"epoch": "0", "round": "0", "seed": {"vec": []}})
    usage = {"epoch": "0", "usage": {"items": "0", "bytes": "0"}}
    ctx.put(_FRAMEWORK, STATE_STORAGE_USAGE, usage)


def update_block_state(ctx: Context, event: dict[str, Any], facts: BlockFacts) -> None:
    """What ``block_prologue_ext`` does after the block resource: the event into the
    history, the proposal counts, the randomness, and the storage usage on a new epoch."""
    history = ctx.resource(_FRAMEWORK, COMMIT_HISTORY)
    index = int(history["next_idx"])
    table = history["table"]
    if ctx.table_get(COMMIT_HISTORY_TABLE, "u32", index) is None:
        table["length"] = str(int(table["length"]) + 1)
    ctx.table_put(COMMIT_HISTORY_TABLE, "u32", NEW_BLOCK_EVENT, index, event)
    history["next_idx"] = (index + 1) % int(history["max_capacity"])
    ctx.put(_FRAMEWORK, COMMIT_HISTORY, history)

    performance = ctx.resource(_FRAMEWORK, VALIDATOR_PERFORMANCE)
    validators = performance["validators"]
    if facts.new_epoch_usage is not None:  # stake::on_new_epoch: counts start again
        performance = _performance(len(validators))
        validators = performance["validators"]
    if facts.proposer_index < len(validators):
        counts = validators[facts.proposer_index]
        counts["successful_proposals"] = str(int(counts["successful_proposals"]) + 1)
    for failed in event["failed_proposer_indices"]:
        if int(failed) < len(validators):
            counts = validators[int(failed)]
            counts["failed_proposals"] = str(int(counts["failed_proposals"]) + 1)
    ctx.put(_FRAMEWORK, VALIDATOR_PERFORMANCE, performance)

    seed = "0x" + randomness_seed(facts.block_id).hex()
    randomness = {"epoch": event["epoch"], "round": event["round"], "seed": {"vec": [seed]}}
    ctx.put(_FRAMEWORK, PER_BLOCK_RANDOMNESS, randomness)

    usage = ctx.resource(_FRAMEWORK, STATE_STORAGE_USAGE)
    if facts.new_epoch_usage is not None and usage["epoch"] != event["epoch"]:
        items, size = facts.new_epoch_usage
        usage = {"epoch": event["epoch"], "usage": {"items": str(items), "bytes": str(size)}}
        ctx.put(_FRAMEWORK, STATE_STORAGE_USAGE, usage)
