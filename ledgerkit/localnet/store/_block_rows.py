"""What a block is in the store: its row of ``blocks`` and everything its write adds."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["BlockRecord", "BlockWrite"]


@dataclass(frozen=True, slots=True)
class BlockRecord:
    """One row of ``blocks``."""

    height: int
    first_version: int
    last_version: int
    hash: bytes
    timestamp: int
    epoch: int
    round: int
    epoch_start: int
    user_transactions: int
    gas_used: int
    full: bool
    min_gas_price: int | None
    accumulator: bytes
    state_root: bytes


@dataclass(slots=True)
class BlockWrite:
    """Everything one block adds to the store, written in one transaction."""

    block: BlockRecord
    #: (version, hash, block height, index in block, sender, sequence number, json)
    transactions: list[tuple[int, bytes, int, int, bytes | None, int | None, bytes]] = field(
        default_factory=list
    )
    #: (skey, version, json or None when deleted, bcs or None)
    state: list[tuple[bytes, int, bytes | None, bytes | None]] = field(default_factory=list)
    #: (account, creation number, sequence number, version, json)
    events: list[tuple[bytes, int, int, int, bytes]] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    #: Hashes of the block's transactions that leave the stored mempool with it.
    mempool_removed: list[bytes] = field(default_factory=list)
