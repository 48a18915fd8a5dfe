"""The embedded node's gas schedule, block limits and gas price estimate.

Execution here is Python, not Move bytecode, so gas cannot be counted per instruction.
Instead every user transaction is charged from a small fixed schedule that depends only
on what the transaction did, so the same transaction always costs the same:

==========================  =====  ==========================================================
charge                      units  per
==========================  =====  ==========================================================
``INTRINSIC_BASE``              5  transaction
``INTRINSIC_PER_100_BYTES``     1  full 100 bytes of the BCS signed transaction
``EXECUTION_CALL``              4  entry (or view) function call
``EXECUTION_READ``              1  distinct state item the function read
``IO_WRITE``                    3  state item the function wrote or deleted
``STORAGE_NEW_SLOT``           40  state item the function created (slot fee)
``EVENT``                       2  event emitted
==========================  =====  ==========================================================

The prologue (checks) and the epilogue (sequence number bump, fee burn) are not charged.
``gas_used`` is the sum; the fee is ``gas_used * gas_unit_price`` octas, burned from the
payer's APT. A transaction whose charge exceeds its ``max_gas_amount`` is out of gas: it
is kept, charged ``max_gas_amount`` and its effects are dropped. A plain APT transfer to
an existing account costs about 25 units; one that creates the recipient about 150.

Blocks end when their gas reaches ``BLOCK_GAS_LIMIT`` (the transaction that crosses it
is the last one in) or when they hold ``MAX_BLOCK_USER_TRANSACTIONS``; either makes the
block *full*. The price estimate follows AIP-34 over recent blocks: a full block needs
its lowest price plus one to get in, a non-full block only the minimum price (100).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "BLOCK_GAS_LIMIT",
    "EVENT",
    "EXECUTION_CALL",
    "EXECUTION_READ",
    "GAS_BUCKETS",
    "INTRINSIC_BASE",
    "INTRINSIC_PER_100_BYTES",
    "IO_WRITE",
    "MAX_BLOCK_USER_TRANSACTIONS",
    "MAX_GAS_AMOUNT",
    "MAX_GAS_UNIT_PRICE",
    "MAX_TRANSACTION_SIZE",
    "MIN_GAS_UNIT_PRICE",
    "STORAGE_NEW_SLOT",
    "BlockGas",
    "GasCharge",
    "estimate_gas_price",
    "intrinsic_gas",
]

MIN_GAS_UNIT_PRICE: Final = 100
MAX_GAS_UNIT_PRICE: Final = 10_000_000_000
#: Largest ``max_gas_amount`` a transaction may ask for.
MAX_GAS_AMOUNT: Final = 2_000_000
#: Largest BCS signed transaction accepted, in bytes.
MAX_TRANSACTION_SIZE: Final = 64 * 1024

INTRINSIC_BASE: Final = 5
INTRINSIC_PER_100_BYTES: Final = 1
EXECUTION_CALL: Final = 4
EXECUTION_READ: Final = 1
IO_WRITE: Final = 3
STORAGE_NEW_SLOT: Final = 40
EVENT: Final = 2

#: Gas a block may use; the transaction that reaches it is the block's last.
BLOCK_GAS_LIMIT: Final = 1500
#: User transactions a block may hold.
MAX_BLOCK_USER_TRANSACTIONS: Final = 150

#: Price buckets of the mempool; the prioritized estimate rounds up to the next one.
GAS_BUCKETS: Final = (0, 150, 300, 500, 1000, 3000, 5000, 10_000, 100_000, 1_000_000)
LOW_BLOCK_HISTORY: Final = 10
MARKET_BLOCK_HISTORY: Final = 30
AGGRESSIVE_BLOCK_HISTORY: Final = 120


def intrinsic_gas(size: int) -> int:
    """Gas charged for carrying a signed transaction of ``size`` bytes.

    It is also the least ``max_gas_amount`` the transaction may carry.
    """
    return INTRINSIC_BASE + INTRINSIC_PER_100_BYTES * (size // 100)


@dataclass(frozen=True, slots=True)
class GasCharge:
    """What one transaction was charged for, by schedule line."""

    intrinsic: int
    calls: int = 0
    reads: int = 0
    writes: int = 0
    new_slots: int = 0
    events: int = 0
    extra: int = 0

    @property
    def total(self) -> int:
        """Gas units used."""
        return (
            self.intrinsic
            + EXECUTION_CALL * self.calls
            + EXECUTION_READ * self.reads
            + IO_WRITE * self.writes
            + STORAGE_NEW_SLOT * self.new_slots
            + EVENT * self.events
            + self.extra
        )


@dataclass(frozen=True, slots=True)
class BlockGas:
    """What the gas estimate needs to know of one block."""

    full: bool
    min_gas_price: int | None


def _percentile(values: Sequence[int], fraction: float) -> int:
    ordered = sorted(values)
    index = min(len(ordered) - 1, int(fraction * len(ordered)))
    return ordered[index]


def _next_bucket(price: int) -> int:
    index = bisect.bisect_right(GAS_BUCKETS, price)
    return GAS_BUCKETS[index] if index < len(GAS_BUCKETS) else price


def estimate_gas_price(recent: Sequence[BlockGas]) -> dict[str, int]:
    """The three estimates from the most recent blocks (newest first).

    Each block contributes the price that would have got a transaction in: its lowest
    price plus one when it was full, the minimum price otherwise. *Low* is the least
    of the last 10 blocks, *market* the median of the last 30, *aggressive* the 90th
    percentile of the last 120 rounded up to the next price bucket.

    Examples
    --------
    >>> estimate_gas_price([BlockGas(False, None)] * 5)
    {'deprioritized_gas_estimate': 100, 'gas_estimate': 100, 'prioritized_gas_estimate': 150}
    """
    inclusion = [
        (block.min_gas_price or MIN_GAS_UNIT_PRICE) + 1 if block.full else MIN_GAS_UNIT_PRICE
        for block in recent
    ] or [MIN_GAS_UNIT_PRICE]
    low = min(inclusion[:LOW_BLOCK_HISTORY])
    market = max(low, _percentile(inclusion[:MARKET_BLOCK_HISTORY], 0.5))
    aggressive = max(market, _next_bucket(_percentile(inclusion[:AGGRESSIVE_BLOCK_HISTORY], 0.9)))
    return {
        "deprioritized_gas_estimate": low,
        "gas_estimate": market,
        "prioritized_gas_estimate": aggressive,
    }
