"""The embedded node's gas schedule, block limits and gas price estimate.

The parameters are aptos-core's transaction gas parameters as they stand since aptos-core
pull request #18880 ("Apply 10x multiplier to gas costs and storage fees", opened
2026-02-27, merged March 2026; the commit is not pinned here). Its change was made by the
script of pull request #18920 (2026-03-03), which multiplies the literal value of every
parameter typed as gas (``Gas``, ``InternalGas``, ``InternalGasPer*``) or as a storage fee
(``Fee``, ``FeePerByte``, ``FeePerSlot``) by 10 and leaves limits, quotas, byte counts,
the scaling factor and the gas price bounds (``FeePerGasUnit``: the minimum stays 100
octas) alone; ``MAX_GAS_AMOUNT`` (``config/global-constants``) was changed by hand in the
same pull request. The values below are the literals of
``aptos-move/aptos-gas-schedule/src/gas_schedule/transaction.rs`` before it (the version
whose newest gated parameter is ``max_aa_gas``, gas feature ``RELEASE_V1_26``) times 10,
and ``MAX_GAS_AMOUNT`` its former 2,000,000 times 10. Gas is counted as aptos-core
counts it, in *internal* units, ``GAS_UNIT_SCALING_FACTOR`` of them
to one gas unit, in three meters:

=====================================  ==============  ======================================
parameter                              value           charged
=====================================  ==============  ======================================
``MIN_TRANSACTION_GAS_UNITS``          27,600,000      execution, once per transaction
``INTRINSIC_GAS_PER_BYTE``             11,580          execution, per byte of the signed
                                                       transaction over 600 bytes
``EXECUTION_PER_CALL`` *               12,000,000      execution, per entry (or view) call
``EXECUTION_PER_READ`` *               1,500,000       execution, per state item read
``READS_PER_CALL`` *                   2               state items read per call besides the
                                                       body's own (feature flags, the
                                                       asset's metadata object...)
``STORAGE_IO_PER_STATE_SLOT_READ``     3,023,850       IO, per state item read
``STORAGE_IO_PER_STATE_BYTE_READ``     1,510           IO, per byte read, in whole 4 KiB pages
``STORAGE_IO_PER_STATE_SLOT_WRITE``    895,680         IO, per state slot written or deleted
``STORAGE_IO_PER_STATE_BYTE_WRITE``    890             IO, per byte of key + value written
``STORAGE_IO_PER_EVENT_BYTE_WRITE``    890             IO, per byte of each event
``STORAGE_IO_PER_TRANSACTION_BYTE``    890             IO, per byte of the signed transaction
``STORAGE_FEE_PER_STATE_SLOT``         400,000 octas   storage, per state slot created
``STORAGE_FEE_PER_STATE_BYTE``         400 octas       storage, per byte of key + value of a
                                                       created slot
``STORAGE_FEE_PER_EVENT_BYTE``         200 octas       storage, per event byte beyond the
                                                       first 1,024 of the transaction
``STORAGE_FEE_PER_TRANSACTION_BYTE``   200 octas       storage, per transaction byte over 600
``DEPENDENCY_PER_MODULE``              744,600         execution, per published module loaded
                                                       to run
``DEPENDENCY_PER_BYTE``                420             execution, per byte of those modules
=====================================  ==============  ======================================

Python cannot count Move instructions, so the three lines marked * are this node's own:
a fixed execution charge per call and per state item read stands in for the
instructions and natives a call runs, and two more items (one page each, charged as the
body's reads are) per call for what the framework's Move code reads that its Python body
here does not (feature flags, the asset's metadata object). They are chosen so that an
APT transfer costs what it costs on networks in 2026 (40-60 execution and 50-60 IO gas
units: ten times the 4-6 and 5-6 before the change). Published Move code runs in the
node's interpreter, which meters its instructions: a published entry function, script
or view pays the per-call lines only for each framework body it reaches that runs in
Python (none for code that only stores its own resources and emits its own events), and
each published module it loads pays ``DEPENDENCY_PER_MODULE`` and ``DEPENDENCY_PER_BYTE``
(``transaction.rs``'s ``dependency_per_module`` and ``dependency_per_byte`` times 10)
instead of a state read, as on a node. A *state item* is a resource, a table item or a
module; the resources of an object (the members of ``0x1::object::ObjectGroup``:
``ObjectCore``, ``FungibleStore``, ``Metadata``, the supplies, the digital asset
package's...) share one state slot, as a resource group does, written whole whichever
member changed: sized as the BCS map of every member the object holds, created with its
first member and deleted with its last. Reads count each distinct item the function body
read (the prologue and the epilogue are not metered, as on a node).

The three meters give the transaction's ``0x1::transaction_fee::FeeStatement``:
``execution_gas_units`` and ``io_gas_units`` are their internal sums rounded up,
``storage_fee_octas`` the storage fees, and ``total_charge_gas_units`` (the
transaction's ``gas_used``) is ``ceil((execution + io + storage_in_gas) / 10^6)`` with
``storage_in_gas = ceil(storage_fee_octas * 10^6 / gas_unit_price)``. Deleting a slot
refunds its deposit (slot fee plus its bytes at the per-byte fee) as
``storage_fee_refund_octas``, which is not part of ``gas_used``: the payer is charged
``gas_used * gas_unit_price - storage_fee_refund_octas`` octas.

A transaction whose total passes ``max_gas_amount`` is out of gas: it is kept, its
``gas_used`` is ``max_gas_amount``, and its statement counts the meters in the order
they are charged (execution, IO, storage), the one that ran out whole and the ones after
it at zero. A transaction that aborts pays execution and the IO of what it read and of
its bytes; what it wrote is dropped and costs nothing.

A plain APT transfer to an existing account costs 96 gas units (execution 48, IO 49;
before: 24 on this node's former schedule, 9-11 on networks before the change); one that
creates its recipient 10,354 (execution 48, IO 50, storage 1,025,600 octas for two new
slots; before: 150 here, about 999 with 98,800 octas on networks).

Blocks end when their gas reaches ``BLOCK_GAS_LIMIT`` (the transaction that crosses it
is the last one in) or when they hold ``MAX_BLOCK_USER_TRANSACTIONS``; either makes the
block *full*. A block's gas counts what aptos-core's block gas limit counts (its
``ComplexLimitV1`` with both multipliers 1): each transaction's execution and IO gas,
not its storage fee; that is the ``block_effective_block_gas_units`` of the block's end
info. This node's blocks are small: 3,200 units take about 34 of the day chain's
transactions (aptos-core's genesis default, 20,000 units before the change, was raised
with it). The price estimate follows AIP-34 over recent blocks: a full block needs its
lowest price plus one to get in, a non-full block only the minimum price (100).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "BLOCK_GAS_LIMIT",
    "DEPENDENCY_PER_BYTE",
    "DEPENDENCY_PER_MODULE",
    "EXECUTION_PER_CALL",
    "EXECUTION_PER_READ",
    "FREE_EVENT_BYTES_QUOTA",
    "GAS_BUCKETS",
    "GAS_UNIT_SCALING_FACTOR",
    "INTRINSIC_GAS_PER_BYTE",
    "LARGE_TRANSACTION_CUTOFF",
    "MAX_BLOCK_USER_TRANSACTIONS",
    "MAX_GAS_AMOUNT",
    "MAX_GAS_UNIT_PRICE",
    "MAX_TRANSACTION_SIZE",
    "MIN_GAS_UNIT_PRICE",
    "MIN_TRANSACTION_GAS_UNITS",
    "READS_PER_CALL",
    "READ_PAGE_BYTES",
    "STORAGE_FEE_PER_EVENT_BYTE",
    "STORAGE_FEE_PER_STATE_BYTE",
    "STORAGE_FEE_PER_STATE_SLOT",
    "STORAGE_FEE_PER_TRANSACTION_BYTE",
    "STORAGE_IO_PER_EVENT_BYTE_WRITE",
    "STORAGE_IO_PER_STATE_BYTE_READ",
    "STORAGE_IO_PER_STATE_BYTE_WRITE",
    "STORAGE_IO_PER_STATE_SLOT_READ",
    "STORAGE_IO_PER_STATE_SLOT_WRITE",
    "STORAGE_IO_PER_TRANSACTION_BYTE",
    "BlockGas",
    "FeeStatement",
    "GasUsage",
    "SlotWrite",
    "estimate_gas_price",
    "fee_statement",
    "intrinsic_gas",
    "view_gas",
]

MIN_GAS_UNIT_PRICE: Final = 100
MAX_GAS_UNIT_PRICE: Final = 10_000_000_000
#: Largest ``max_gas_amount`` a transaction may ask for (2,000,000 before the change).
MAX_GAS_AMOUNT: Final = 20_000_000
#: Largest BCS signed transaction accepted, in bytes.
MAX_TRANSACTION_SIZE: Final = 64 * 1024

GAS_UNIT_SCALING_FACTOR: Final = 1_000_000
MIN_TRANSACTION_GAS_UNITS: Final = 27_600_000
LARGE_TRANSACTION_CUTOFF: Final = 600
INTRINSIC_GAS_PER_BYTE: Final = 11_580
EXECUTION_PER_CALL: Final = 12_000_000
EXECUTION_PER_READ: Final = 1_500_000
READS_PER_CALL: Final = 2
STORAGE_IO_PER_STATE_SLOT_READ: Final = 3_023_850
STORAGE_IO_PER_STATE_BYTE_READ: Final = 1_510
READ_PAGE_BYTES: Final = 4096
STORAGE_IO_PER_STATE_SLOT_WRITE: Final = 895_680
STORAGE_IO_PER_STATE_BYTE_WRITE: Final = 890
STORAGE_IO_PER_EVENT_BYTE_WRITE: Final = 890
STORAGE_IO_PER_TRANSACTION_BYTE: Final = 890
STORAGE_FEE_PER_STATE_SLOT: Final = 400_000
STORAGE_FEE_PER_STATE_BYTE: Final = 400
STORAGE_FEE_PER_EVENT_BYTE: Final = 200
FREE_EVENT_BYTES_QUOTA: Final = 1024
STORAGE_FEE_PER_TRANSACTION_BYTE: Final = 200
DEPENDENCY_PER_MODULE: Final = 744_600
DEPENDENCY_PER_BYTE: Final = 420

#: Gas a block may use; the transaction that reaches it is the block's last.
BLOCK_GAS_LIMIT: Final = 3_200
#: User transactions a block may hold.
MAX_BLOCK_USER_TRANSACTIONS: Final = 150

#: Price buckets of the mempool; the prioritized estimate rounds up to the next one.
GAS_BUCKETS: Final = (0, 150, 300, 500, 1000, 3000, 5000, 10_000, 100_000, 1_000_000)
LOW_BLOCK_HISTORY: Final = 10
MARKET_BLOCK_HISTORY: Final = 30
AGGRESSIVE_BLOCK_HISTORY: Final = 120


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _intrinsic_internal(size: int) -> int:
    return MIN_TRANSACTION_GAS_UNITS + INTRINSIC_GAS_PER_BYTE * max(
        0, size - LARGE_TRANSACTION_CUTOFF
    )


def intrinsic_gas(size: int) -> int:
    """Gas units charged for carrying a signed transaction of ``size`` bytes, rounded up.

    It is also the least ``max_gas_amount`` the transaction may carry.

    Examples
    --------
    >>> intrinsic_gas(250), intrinsic_gas(1600)
    (28, 40)
    """
    return _ceil_div(_intrinsic_internal(size), GAS_UNIT_SCALING_FACTOR)


@dataclass(frozen=True, slots=True)
class SlotWrite:
    """One state slot a transaction wrote: key and value sizes in bytes (``value_size``
    None: deleted), whether it created the slot, and for a deletion the value size it had."""

    key_size: int
    value_size: int | None
    created: bool = False
    deleted_size: int = 0


@dataclass(frozen=True, slots=True)
class GasUsage:
    """What one transaction did that the schedule charges for.

    ``read_pages`` holds, per state item read, the 4 KiB pages it spans (at least one);
    ``writes`` and ``event_sizes`` are empty for a transaction whose effects were
    dropped; ``extra_units`` is execution gas units charged beyond the schedule's lines.
    """

    size: int
    calls: int = 1
    read_pages: tuple[int, ...] = ()
    writes: tuple[SlotWrite, ...] = ()
    event_sizes: tuple[int, ...] = ()
    extra_units: int = 0


@dataclass(frozen=True, slots=True)
class FeeStatement:
    """A transaction's ``0x1::transaction_fee::FeeStatement``, fields in the struct's order."""

    total_charge_gas_units: int
    execution_gas_units: int
    io_gas_units: int
    storage_fee_octas: int
    storage_fee_refund_octas: int

    def event_data(self) -> dict[str, str]:
        """The event's data as the REST API renders it (u64 as text, fields in name
        order)."""
        return {
            "execution_gas_units": str(self.execution_gas_units),
            "io_gas_units": str(self.io_gas_units),
            "storage_fee_octas": str(self.storage_fee_octas),
            "storage_fee_refund_octas": str(self.storage_fee_refund_octas),
            "total_charge_gas_units": str(self.total_charge_gas_units),
        }


def _read_io(pages: int) -> int:
    return STORAGE_IO_PER_STATE_SLOT_READ + STORAGE_IO_PER_STATE_BYTE_READ * READ_PAGE_BYTES * pages


def _meters(usage: GasUsage) -> tuple[int, int, int, int]:
    """Internal execution gas, internal IO gas, storage fee and refund (octas)."""
    reads = (*usage.read_pages, *(1,) * (READS_PER_CALL * usage.calls))
    execution = (
        _intrinsic_internal(usage.size)
        + EXECUTION_PER_CALL * usage.calls
        + EXECUTION_PER_READ * len(reads)
        + usage.extra_units * GAS_UNIT_SCALING_FACTOR
    )
    io = STORAGE_IO_PER_TRANSACTION_BYTE * usage.size + sum(_read_io(pages) for pages in reads)
    storage = STORAGE_FEE_PER_TRANSACTION_BYTE * max(0, usage.size - LARGE_TRANSACTION_CUTOFF)
    refund = 0
    for w in usage.writes:
        io += STORAGE_IO_PER_STATE_SLOT_WRITE
        if w.value_size is None:
            if w.deleted_size:
                refund += STORAGE_FEE_PER_STATE_SLOT + STORAGE_FEE_PER_STATE_BYTE * (
                    w.key_size + w.deleted_size
                )
            continue
        io += STORAGE_IO_PER_STATE_BYTE_WRITE * (w.key_size + w.value_size)
        if w.created:
            storage += STORAGE_FEE_PER_STATE_SLOT + STORAGE_FEE_PER_STATE_BYTE * (
                w.key_size + w.value_size
            )
    event_bytes = sum(usage.event_sizes)
    io += STORAGE_IO_PER_EVENT_BYTE_WRITE * event_bytes
    storage += STORAGE_FEE_PER_EVENT_BYTE * max(0, event_bytes - FREE_EVENT_BYTES_QUOTA)
    return execution, io, storage, refund


def fee_statement(
    usage: GasUsage, *, gas_unit_price: int, max_gas_amount: int
) -> tuple[FeeStatement, bool]:
    """The fee statement of ``usage`` and whether the transaction ran out of gas.

    ``gas_unit_price`` 0 (never on a ledger: the minimum is 100) converts storage to no gas.

    Examples
    --------
    A call of 250 bytes that reads and writes nothing: execution 27,600,000 + 12,000,000
    + 2 * 1,500,000 = 42,600,000; IO 250 * 890 + 2 * (3,023,850 + 4096 * 1510) =
    18,640,120; 61,240,120 internal units in all:

    >>> statement, out_of_gas = fee_statement(
    ...     GasUsage(size=250), gas_unit_price=100, max_gas_amount=200
    ... )
    >>> statement, out_of_gas
    (FeeStatement(total_charge_gas_units=62, execution_gas_units=43, io_gas_units=19, storage_fee_octas=0, storage_fee_refund_octas=0), False)
    """  # noqa: E501
    execution, io, storage, refund = _meters(usage)
    scale = GAS_UNIT_SCALING_FACTOR
    storage_gas = 0 if gas_unit_price == 0 else _ceil_div(storage * scale, gas_unit_price)
    total = _ceil_div(execution + io + storage_gas, scale)
    if total <= max_gas_amount:
        return FeeStatement(
            total, _ceil_div(execution, scale), _ceil_div(io, scale), storage, refund
        ), False
    # Out of gas: the meters in charge order, the one that ran out whole, the rest at 0.
    budget = max_gas_amount * scale
    charged = []
    for amount in (execution, io, storage_gas):
        charged.append(amount if budget > 0 else 0)
        budget -= amount
    storage_charged = storage if charged[2] else 0
    return FeeStatement(
        max_gas_amount,
        _ceil_div(charged[0], scale),
        _ceil_div(charged[1], scale),
        storage_charged,
        0,
    ), True


def view_gas(read_pages: Sequence[int], extra_units: int = 0, calls: int = 1) -> int:
    """Gas units of a view function call: its call and reads, no intrinsic gas (``calls``:
    those priced with the per-call stand-ins, 0 for a published view that reaches no
    framework body).

    Examples
    --------
    >>> view_gas([1, 1])
    55
    """
    reads = (*read_pages, *(1,) * (READS_PER_CALL * calls))
    internal = EXECUTION_PER_CALL * calls + sum(EXECUTION_PER_READ + _read_io(p) for p in reads)
    return _ceil_div(internal, GAS_UNIT_SCALING_FACTOR) + extra_units


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
