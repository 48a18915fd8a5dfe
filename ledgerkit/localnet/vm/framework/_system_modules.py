"""Chain-level modules: ``timestamp``, ``block``, ``chain_id``, ``transaction_fee`` views,
and the block prologue that every block metadata transaction runs."""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import BURNED_FEES
from ledgerkit.localnet.vm.framework._block_state import BlockFacts, update_block_state
from ledgerkit.localnet.vm.framework._context import Context, native
from ledgerkit.types import Address, MoveType

__all__ = ["BLOCK_RESOURCE", "CHAIN_ID", "CURRENT_TIME", "block_prologue"]

_FRAMEWORK: Final = Address.from_int(1)
CURRENT_TIME: Final = "0x1::timestamp::CurrentTimeMicroseconds"
BLOCK_RESOURCE: Final = "0x1::block::BlockResource"
CHAIN_ID: Final = "0x1::chain_id::ChainId"


def _framework_resource(ctx: Context, tag: str) -> Any:
    return ctx.resource(_FRAMEWORK, tag)


def block_prologue(
    ctx: Context,
    *,
    block_id: bytes,
    epoch: int,
    round_: int,
    proposer: Address,
    votes: bytes,
    failed_proposers: list[int],
    timestamp_usec: int,
    facts: BlockFacts,
) -> None:
    """Advance the block height and the clock, emit ``NewBlockEvent`` and keep the
    per-block state (:func:`~._block_state.update_block_state`)."""
    block = _framework_resource(ctx, BLOCK_RESOURCE)
    height = int(block["height"]) + 1
    event = {
        "hash": Address(block_id).standard,
        "epoch": str(epoch),
        "round": str(round_),
        "height": str(height),
        "previous_block_votes_bitvec": "0x" + votes.hex(),
        "proposer": proposer.standard,
        "failed_proposer_indices": [str(i) for i in failed_proposers],
        "time_microseconds": str(timestamp_usec),
    }
    update_block_state(ctx, event, facts)
    ctx.emit(block["new_block_events"], "0x1::block::NewBlockEvent", event)
    block["height"] = str(height)
    ctx.put(_FRAMEWORK, BLOCK_RESOURCE, block)
    ctx.put(_FRAMEWORK, CURRENT_TIME, {"microseconds": str(timestamp_usec)})


@native("timestamp", "now_microseconds")
def _now_microseconds(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_framework_resource(ctx, CURRENT_TIME)["microseconds"]]


@native("timestamp", "now_seconds")
def _now_seconds(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [str(int(_framework_resource(ctx, CURRENT_TIME)["microseconds"]) // 1_000_000)]


@native("block", "get_current_block_height")
def _block_height(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_framework_resource(ctx, BLOCK_RESOURCE)["height"]]


@native("block", "get_epoch_interval_secs")
def _epoch_interval(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [str(int(_framework_resource(ctx, BLOCK_RESOURCE)["epoch_interval"]) // 1_000_000)]


@native("chain_id", "get")
def _chain_id(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_framework_resource(ctx, CHAIN_ID)["id"]]


@native("transaction_fee", "burned")
def _burned(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_framework_resource(ctx, BURNED_FEES)["total"]]
