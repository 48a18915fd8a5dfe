"""Typed decoding of transaction pages against plain JSON parsing of the same bytes.

Starts the embedded node (seed 7, 40 blocks), fetches every page of 100 transactions
(the first holds genesis and its large write set), then times, with ``timeit``,
``ledgerkit.models.decode_transactions`` (msgspec straight into frozen records) against
``orjson.loads`` (plain dicts) on each page, best of ``--repeat`` runs of ``--number``
calls, the garbage collector on as in a real program. Also times the slow path: the same
page with one transaction of an unknown type, which is decoded item by item. Goal: the
typed decode of a page within 2x of ``orjson.loads``. Run with ``make bench`` or
``.venv/bin/python bench/bench_models.py``.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Callable

import httpx
import orjson

from ledgerkit.localnet import LocalNode
from ledgerkit.models import UnknownTransaction, decode_transactions

GOAL_RATIO = 2.0


def best(function: Callable[[], object], number: int, repeat: int) -> float:
    """Seconds per call, best of ``repeat`` runs of ``number`` calls, GC enabled."""
    times = timeit.repeat(function, setup="gc.enable()", number=number, repeat=repeat)
    return min(times) / number


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with LocalNode(seed=7, blocks=40) as node, httpx.Client(base_url=node.url) as http:
        latest = int(http.get("/").json()["ledger_version"])
        pages = [
            http.get("/transactions", params={"start": start, "limit": 100}).content
            for start in range(0, latest + 1, 100)
        ]
    worst = 0.0
    print(f"{'page':>8} {'bytes':>10} {'orjson.loads':>14} {'decode':>10} {'ratio':>6}")
    for index, page in enumerate(pages):
        plain = best(lambda page=page: orjson.loads(page), args.number, args.repeat)
        typed = best(lambda page=page: decode_transactions(page), args.number, args.repeat)
        worst = max(worst, typed / plain)
        print(
            f"{index:>8} {len(page):>10,} {plain * 1e3:>11.3f} ms {typed * 1e3:>7.3f} ms "
            f"{typed / plain:>6.2f}"
        )
    # The slow path: one unknown transaction type in the second page.
    items = orjson.loads(pages[1])
    items[50] = {**items[50], "type": "shiny_new_transaction"}
    mixed = orjson.dumps(items)
    assert isinstance(decode_transactions(mixed)[50], UnknownTransaction)
    plain = best(lambda: orjson.loads(mixed), args.number, args.repeat)
    typed = best(lambda: decode_transactions(mixed), args.number, args.repeat)
    print(
        f"{'unknown':>8} {len(mixed):>10,} {plain * 1e3:>11.3f} ms {typed * 1e3:>7.3f} ms "
        f"{typed / plain:>6.2f}  (slow path, not in the goal)"
    )
    print(f"worst ratio {worst:.2f} (goal <= {GOAL_RATIO:.1f})")
    ok = worst <= GOAL_RATIO
    print("OK" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
