"""The declarations of the framework's per-block state beyond the block resource and the
clock: ``0x1::block::CommitHistory`` (a ``0x1::table_with_length`` of recent blocks),
``0x1::stake::ValidatorPerformance``, ``0x1::randomness::PerBlockRandomness`` and
``0x1::state_storage::StateStorageUsage``, as the framework declares them (fields in
declaration order)."""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import ModuleSpec, StructSpec

__all__ = [
    "COMMIT_HISTORY_STRUCT",
    "RANDOMNESS",
    "STAKE",
    "STATE_STORAGE",
    "TABLE_WITH_LENGTH",
]

S = StructSpec
_KEY: Final = ("key",)

COMMIT_HISTORY_STRUCT: Final = S(
    "CommitHistory",
    _KEY,
    (
        ("max_capacity", "u32"),
        ("next_idx", "u32"),
        ("table", "0x1::table_with_length::TableWithLength<u32, 0x1::block::NewBlockEvent>"),
    ),
)

TABLE_WITH_LENGTH = ModuleSpec(
    "table_with_length",
    structs=(
        S(
            "TableWithLength",
            ("store",),
            (("inner", "0x1::table::Table<T0, T1>"), ("length", "u64")),
            (("copy", "drop"), ()),
        ),
    ),
)

STAKE = ModuleSpec(
    "stake",
    structs=(
        S(
            "IndividualValidatorPerformance",
            ("drop", "store"),
            (("successful_proposals", "u64"), ("failed_proposals", "u64")),
        ),
        S(
            "ValidatorPerformance",
            _KEY,
            (("validators", "vector<0x1::stake::IndividualValidatorPerformance>"),),
        ),
    ),
)

RANDOMNESS = ModuleSpec(
    "randomness",
    structs=(
        S(
            "PerBlockRandomness",
            ("drop", "key"),
            (("epoch", "u64"), ("round", "u64"), ("seed", "0x1::option::Option<vector<u8>>")),
        ),
    ),
)

STATE_STORAGE = ModuleSpec(
    "state_storage",
    structs=(
        S(
            "StateStorageUsage",
            ("key", "store"),
            (("epoch", "u64"), ("usage", "0x1::state_storage::Usage")),
        ),
        S("Usage", ("copy", "drop", "store"), (("items", "u64"), ("bytes", "u64"))),
    ),
)
