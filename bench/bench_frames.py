"""Page bytes -> typed transactions frame, against plain JSON parsing and json_normalize.

Goals: within 2.5x of ``orjson.loads`` (the floor), at least 5x faster than
``pandas.json_normalize(json.loads(...))``, and at most 300 bytes of frame per
transaction row (``memory_usage(deep=True)``).

The page is the second 100 versions of a seeded local node (the first page holds the
genesis write set, which is a different workload). ``transactions_to_frame`` is given
the bytes, as ``ledgerkit.extract`` does, and reads only the fields the frame shows; the
path through the full records (``decode_transactions`` first) is printed beside it.
One run; prints times and ratios.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pandas as pd

import ledgerkit
from ledgerkit.frames import transactions_to_frame
from ledgerkit.frames._rows import decode_transaction_rows
from ledgerkit.models import decode_transactions

ROUNDS = 200


def best(fn: Callable[[], Any]) -> float:
    """Best time of ``ROUNDS`` runs, in milliseconds."""
    fn()
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def main() -> None:
    with ledgerkit.LocalNode(seed=7, blocks=60) as node:
        url = node.url.rstrip("/") + "/transactions"
        body = httpx.get(url, params={"start": 100, "limit": 100}).content

    floor = best(lambda: orjson.loads(body))
    ours = best(lambda: transactions_to_frame(body))
    rows = best(lambda: decode_transaction_rows(body))
    records = best(lambda: transactions_to_frame(decode_transactions(body)))
    normalize = best(lambda: pd.json_normalize(json.loads(body)))

    frame = transactions_to_frame(body)
    pd.testing.assert_frame_equal(frame, transactions_to_frame(decode_transactions(body)))
    per_row = frame.memory_usage(deep=True).sum() / len(frame)
    rooted = transactions_to_frame(body, roots=True)
    per_row_roots = rooted.memory_usage(deep=True).sum() / len(rooted)

    print(f"page: {len(frame)} transactions, {len(body):,} bytes")
    print(f"orjson.loads (floor)            {floor:8.2f} ms")
    print(f"transactions_to_frame(bytes)    {ours:8.2f} ms")
    print(f"  of which decode_transaction_rows {rows:5.2f} ms")
    print(f"  the same through full records {records:5.2f} ms  (decode_transactions first)")
    print(f"json_normalize(json.loads)      {normalize:8.2f} ms")
    print(f"ratio to floor           {ours / floor:6.2f}x   (goal <= 2.5x)")
    print(f"speed-up on normalize    {normalize / ours:6.2f}x   (goal >= 5x)")
    print(f"bytes per row            {per_row:6.0f}    (goal <= 300)")
    print(f"bytes per row, roots=True {per_row_roots:5.0f}")


if __name__ == "__main__":
    main()
