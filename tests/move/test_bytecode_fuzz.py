"""Mutated bytecode (bits flipped, bytes replaced, inserted, deleted, the binary cut
short), from real and hand-built units with a fixed seed: the reader either refuses it
with a :class:`BytecodeError` or reads a unit that writes back to the very same bytes.
Never another exception."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from bytecode_samples import DATA, full_module, full_script, small_module

from ledgerkit.localnet.vm.move import (
    BytecodeError,
    read_module,
    read_script,
    write_module,
    write_script,
)

SEED = 20261129
CASES_PER_SEED = 600

SEEDS: dict[str, bytes] = {
    "full_v9": write_module(full_module(9)),
    "full_v10": write_module(full_module(10)),
    "script_v9": write_script(full_script()),
    "small_v5": write_module(small_module(5)),
    **{
        path.stem: path.read_bytes()
        for path in sorted(DATA.glob("*.mv"))
        if "tx_args" not in path.stem
    },
}


def mutate(rng: random.Random, binary: bytes) -> bytes:
    data = bytearray(binary)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        where = rng.randrange(len(data) + 1)
        kind = rng.randrange(6)
        if kind == 0 and where < len(data):
            data[where] ^= 1 << rng.randrange(8)
        elif kind == 1 and where < len(data):
            data[where] = rng.choice((0x00, 0x01, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        elif kind == 2:
            data[where:where] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4)))
        elif kind == 3:
            del data[where : where + rng.randrange(1, 4)]
        elif kind == 4:
            del data[where:]
        else:
            data[where:where] = data[where : where + rng.randrange(1, 16)]
    return bytes(data)


#: Every status the reader gives (aptos-core's names).
STATUSES = {
    "BAD_MAGIC",
    "UNKNOWN_VERSION",
    "MALFORMED",
    "BAD_HEADER_TABLE",
    "DUPLICATE_TABLE",
    "UNKNOWN_TABLE_TYPE",
    "UNKNOWN_SERIALIZED_TYPE",
    "UNKNOWN_OPCODE",
    "UNKNOWN_NATIVE_STRUCT_FLAG",
    "UNKNOWN_INVARIANT_VIOLATION_ERROR",
    "INVALID_FLAG_BITS",
    "BAD_U16",
    "BAD_U32",
    "BAD_U64",
    "BAD_U128",
    "BAD_U256",
    "INDEX_OUT_OF_BOUNDS",
    "NO_MODULE_HANDLES",
    "TOO_MANY_LOCALS",
    "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH",
    "ZERO_VARIANTS_ERROR",
    "EXCEEDED_MAX_TRANSACTION_SIZE",
}


def outcome(binary: bytes, read: Callable[..., object], write: Callable[..., bytes]) -> str:
    """The status ``binary`` is refused with, or "read" after checking it writes back."""
    try:
        unit = read(binary, max_version=10)
    except BytecodeError as error:
        return error.status
    assert write(unit) == binary
    return "read"


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_mutants_are_refused_with_a_status_or_read_exactly(name: str) -> None:
    rng = random.Random(f"{SEED}-{name}")
    seed = SEEDS[name]
    seen: set[str] = set()
    for _ in range(CASES_PER_SEED):
        mutant = mutate(rng, seed)
        seen.add(outcome(mutant, read_module, write_module))
        seen.add(outcome(mutant, read_script, write_script))
    assert seen - {"read"} <= STATUSES
    assert len(seen - {"read"}) >= 3  # the mutants reach more than the header
