"""Frames for the chart tests: small ones built by hand (whose aggregates the tests work
out themselves) and a large synthetic one; and what a chart carries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ledgerkit import frames

T0 = pd.Timestamp("2025-06-01T00:00:00Z")
FN = "0x1::aptos_account::transfer"


def txns(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """A frame of :data:`frames.TRANSACTION_COLUMNS` from a few rows (missing fields NA);
    ``time`` is seconds after :data:`T0`."""
    columns: dict[str, list[Any]] = {name: [] for name in frames.TRANSACTION_COLUMNS}
    for row in rows:
        for name in columns:
            columns[name].append(row.get(name))
        if "time" in row:
            columns["timestamp"][-1] = T0 + pd.Timedelta(seconds=row["time"])
    data = {}
    for name, dtype in frames.TRANSACTION_COLUMNS.items():
        if str(dtype) == "category":
            data[name] = pd.Categorical(columns[name])
        else:
            data[name] = pd.Series(columns[name], dtype=dtype)
    return pd.DataFrame(data)


def block(
    version: int, time: float, users: Sequence[tuple[int, int]], **user: Any
) -> list[dict[str, Any]]:
    """The rows of one block at ``version``: metadata, one user transaction per
    ``(gas_used, gas_unit_price)``, epilogue."""
    rows: list[dict[str, Any]] = [
        {"version": version, "type": "block_metadata_transaction", "time": time, "gas_used": 0}
    ]
    for offset, (gas, price) in enumerate(users, start=1):
        rows.append(
            {
                "version": version + offset,
                "type": "user_transaction",
                "time": time,
                "gas_used": gas,
                "gas_unit_price": price,
                "success": True,
                "sender": "0x" + "0a" * 32,
                "function": FN,
                **user,
            }
        )
    rows.append(
        {
            "version": version + len(users) + 1,
            "type": "block_epilogue_transaction",
            "time": time,
            "gas_used": 0,
        }
    )
    return rows


def chart_rows(chart: Any) -> list[list[dict[str, Any]]]:
    """The datasets a chart carries, largest first."""
    spec = chart.to_dict()
    return sorted(spec.get("datasets", {}).values(), key=len, reverse=True)


def shipped_rows(chart: Any) -> int:
    """Rows of data a chart sends to the browser, all datasets together."""
    return sum(len(rows) for rows in chart_rows(chart))


@dataclass(frozen=True)
class Chain:
    records: list[Any]
    txns: pd.DataFrame
    blocks: pd.DataFrame


def large_frames(
    blocks: int = 17_000, users: int = 4, seed: int = 5
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A day of ``blocks`` blocks of ``users`` user transactions each (plus metadata and
    epilogue): ``blocks * (users + 2)`` rows, with 500 senders and 12 functions."""
    rng = np.random.default_rng(seed)
    per = users + 2
    n = blocks * per
    version = np.arange(n, dtype=np.uint64)
    start = np.int64(T0.value // 1000)
    block_time = start + np.sort(rng.integers(0, 86_400_000_000, blocks))
    position = np.tile(np.arange(per), blocks)
    kind = np.where(position == 0, 0, np.where(position == per - 1, 2, 1))
    user = kind == 1
    kinds = np.array(
        ["block_metadata_transaction", "user_transaction", "block_epilogue_transaction"]
    )
    price = np.where(rng.random(n) < 0.1, rng.integers(100, 5_000, n), 100).astype(np.uint64)
    gas = rng.integers(11, 170, n).astype(np.uint64)
    senders = np.array(["0x" + f"{i:064x}" for i in range(1, 501)])
    functions = np.array([f"0x1::module_{i % 4}::function_{i}" for i in range(12)])

    def masked(values: np.ndarray[Any, Any]) -> Any:
        return pd.arrays.IntegerArray(values.astype(np.uint64), ~user)

    frame = frames.empty_frame(frames.TRANSACTION_COLUMNS).reindex(range(n))
    frame["version"] = pd.array(version, dtype="UInt64")
    frame["type"] = pd.Categorical(kinds[kind])
    frame["timestamp"] = pd.to_datetime(np.repeat(block_time, per), unit="us", utc=True).astype(
        "datetime64[us, UTC]"
    )
    frame["gas_used"] = pd.array(np.where(user, gas, 0).astype(np.uint64), dtype="UInt64")
    frame["gas_unit_price"] = masked(price)
    frame["success"] = pd.array(np.where(user, rng.random(n) > 0.03, True), dtype="boolean")
    frame["sender"] = pd.Categorical(np.where(user, senders[rng.integers(0, 500, n)], None))
    frame["function"] = pd.Categorical(np.where(user, functions[rng.integers(0, 12, n)], None))
    blocks_frame = pd.DataFrame(
        {
            "block_height": pd.array(np.arange(1, blocks + 1), dtype="UInt64"),
            "block_hash": pd.array(["0x" + "00" * 32] * blocks, dtype=frames.STRING),
            "block_timestamp": pd.to_datetime(block_time, unit="us", utc=True).astype(
                "datetime64[us, UTC]"
            ),
            "first_version": pd.array(np.arange(blocks) * per, dtype="UInt64"),
            "last_version": pd.array(np.arange(blocks) * per + per - 1, dtype="UInt64"),
            "transaction_count": pd.array([per] * blocks, dtype="UInt64"),
        }
    )
    return frame, blocks_frame
