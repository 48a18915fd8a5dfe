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
from ledgerkit.models import decode_transaction_rows, decode_transactions

ROUNDS = 200
BATCH = 20


def timings(fns: dict[str, Callable[[], Any]], *, interleaved: bool) -> dict[str, float]:
    """Best time of each function over ``ROUNDS`` runs, in milliseconds.

    Back to back (as ``timeit`` does): each function runs ``BATCH`` times in a row, with
    warm caches, and the functions take turns batch by batch, so that a slow spell of the
    machine falls on all of them. Interleaved: the turns are single runs, so each run
    starts with the caches the other functions left behind.
    """
    best = dict.fromkeys(fns, float("inf"))
    for fn in fns.values():
        fn()
    batch = 1 if interleaved else BATCH
    order = [
        (name, fn) for _ in range(ROUNDS // batch) for name, fn in fns.items() for _ in range(batch)
    ]
    for name, fn in order:
        start = time.perf_counter()
        fn()
        best[name] = min(best[name], time.perf_counter() - start)
    return {name: seconds * 1e3 for name, seconds in best.items()}


def main() -> None:
    with ledgerkit.LocalNode(seed=7, blocks=60) as node:
        url = node.url.rstrip("/") + "/transactions"
        body = httpx.get(url, params={"start": 100, "limit": 100}).content

    fns: dict[str, Callable[[], Any]] = {
        "floor": lambda: orjson.loads(body),
        "ours": lambda: transactions_to_frame(body),
        "rows": lambda: decode_transaction_rows(body),
        "records": lambda: transactions_to_frame(decode_transactions(body)),
        "normalize": lambda: pd.json_normalize(json.loads(body)),
    }
    times = timings(fns, interleaved=False)
    cold = timings(fns, interleaved=True)
    floor, ours, rows = times["floor"], times["ours"], times["rows"]
    records, normalize = times["records"], times["normalize"]

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
    print(
        f"interleaved (cold caches): ours {cold['ours']:.2f} ms, floor {cold['floor']:.2f} ms, "
        f"normalize {cold['normalize']:.2f} ms: {cold['ours'] / cold['floor']:.2f}x the floor, "
        f"{cold['normalize'] / cold['ours']:.2f}x quicker than json_normalize"
    )
    print(f"bytes per row            {per_row:6.0f}    (goal <= 300)")
    print(f"bytes per row, roots=True {per_row_roots:5.0f}")


if __name__ == "__main__":
    main()
