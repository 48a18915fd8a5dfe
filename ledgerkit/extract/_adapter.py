"""Temporary stand-in for ``ledgerkit.frames`` while it is written (same signatures)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["blocks_to_frame", "events_to_frame", "transactions_to_frame"]

_NAT = np.iinfo(np.int64).min


def _u64(values: list[int | None]) -> Any:
    return pd.array(values, dtype="UInt64")


def _ts(values: list[int | None]) -> pd.Series:
    raw = np.array([_NAT if v is None else v for v in values], dtype=np.int64)
    return pd.Series(raw.view("datetime64[us]")).dt.tz_localize("UTC")


def _str(values: list[str | None]) -> Any:
    return pd.array(values, dtype="string")


def transactions_to_frame(records: Sequence[Any]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "version": _u64([r.version for r in records]),
            "hash": _str([r.hash for r in records]),
            "type": _str([str(r.__struct_config__.tag) for r in records]),
            "success": pd.array([r.success for r in records], dtype="boolean"),
            "vm_status": _str([r.vm_status for r in records]),
            "gas_used": _u64([r.gas_used for r in records]),
            "sender": _str([getattr(r, "sender", None) for r in records]),
            "sequence_number": _u64([getattr(r, "sequence_number", None) for r in records]),
            "timestamp": _ts([getattr(r, "timestamp", None) for r in records]),
            "event_count": _u64([len(getattr(r, "events", [])) for r in records]),
        }
    )


def events_to_frame(records: Sequence[Any]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "account_address": _str([r.guid.account_address for r in records]),
            "creation_number": _u64([r.guid.creation_number for r in records]),
            "sequence_number": _u64([r.sequence_number for r in records]),
            "type": _str([str(r.__struct_config__.tag) for r in records]),
            "version": _u64([r.version for r in records]),
        }
    )


def blocks_to_frame(records: Sequence[Any]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "block_height": _u64([r.block_height for r in records]),
            "block_hash": _str([r.block_hash for r in records]),
            "block_timestamp": _ts([r.block_timestamp for r in records]),
            "first_version": _u64([r.first_version for r in records]),
            "last_version": _u64([r.last_version for r in records]),
        }
    )
