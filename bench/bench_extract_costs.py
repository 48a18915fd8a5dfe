"""What an extraction costs in requests, and in time under a budget.

* Requests per 10,000 versions for every kind, counted at the node by a transport in front
  of it, beside the least the node's page limits allow, computed here on their own:
  ``ceil(10,000 / 100)`` pages of transactions (and of the events or activity read from
  them), ``ceil(n / 100)`` pages of an event stream of ``n`` events, and for blocks, per
  run of 1,000 heights, their two end blocks and the pages of the versions between them.
  The few requests that begin a run (the head, the chain's genesis, the history mark) are
  shown apart.
* A budget-bound extraction on the public profile (a budget of compute units per window,
  a page costing ``page_cost`` of them): its time beside the least the budget allows, the
  windows its requests need but the first: ``(ceil(units / budget) - 1) * window``.
  Goal: <= 1.1x.

``python bench/bench_extract_costs.py [--versions 10000]`` (also run at the end of
``bench_extract.py``).
"""

from __future__ import annotations

import argparse
import collections
import math
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from ledgerkit.extract import extract
from ledgerkit.localnet import LocalNode, PublicSettings

#: Most records the node lists a request (transactions, events): its max page size.
LIMIT = 100
#: Heights read together by a blocks extraction (its default partition size).
BLOCK_RUN = 1_000
VERSIONS_PER_BLOCK = 4.6  # about what the seeded generator writes
#: The budget-bound run's goal: its time over the least the budget allows.
BUDGET_GOAL = 1.1


class Counting(httpx.AsyncBaseTransport):
    """Forwards to the node; counts the requests by what they read (``pages``, or
    ``run``: what begins a run), and apart those a rate limit refused (``refused``)."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.counts: collections.Counter[str] = collections.Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        page = path.endswith("/transactions") or "/blocks/by_height/" in path or "/events/" in path
        answer = await self._inner.handle_async_request(request)
        if answer.status_code == 429:
            self.counts["refused"] += 1
        else:
            self.counts["pages" if page else "run"] += 1
        return answer

    async def aclose(self) -> None:
        await self._inner.aclose()


def _block(url: str, height: int) -> dict[str, Any]:
    return dict(httpx.get(f"{url}/blocks/by_height/{height}").json())


def blocks_minimum(url: str, stop: int) -> int:
    """The least requests for heights ``[0, stop)`` in runs of :data:`BLOCK_RUN`: a run's
    two end blocks (one request each, with their transactions) and the fewer of the pages
    of the versions between them and one request a block between."""
    total = 0
    for first in range(0, stop, BLOCK_RUN):
        end = min(stop, first + BLOCK_RUN)
        if end - first <= 2:
            total += end - first
            continue
        low, high = _block(url, first), _block(url, end - 1)
        between = int(high["first_version"]) - int(low["last_version"]) - 1
        total += 2 + min(math.ceil(between / LIMIT), end - first - 2)
    return total


def _run(kind: str, url: str, out: Path, start: int, stop: int, **extra: Any) -> Counting:
    counting = Counting()
    extract(kind, url, out, start=start, stop=stop, progress=False, transport=counting, **extra)
    return counting


def requests_per_kind(versions: int) -> None:
    blocks = int(versions / VERSIONS_PER_BLOCK) + 20
    started = time.perf_counter()
    with LocalNode(seed=1, blocks=blocks) as node, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        head = httpx.get(node.url).json()
        stop = min(versions, int(head["ledger_version"]) + 1)
        print(f"chain: {blocks} blocks, in {time.perf_counter() - started:.1f} s")
        print(f"requests to read {stop:,} versions (per 10,000 versions), beside the least:")
        scale = 10_000 / stop

        def show(name: str, counted: Counting, least: int, per: float = scale) -> None:
            pages, run = counted.counts["pages"], counted.counts["run"]
            print(
                f"  {name:<19} {pages:5d} pages ({pages * per:7.1f})  least {least:5d} "
                f"({least * per:7.1f})  ratio {pages / least:4.2f}  + {run} to begin the run"
            )

        for kind in ("transactions", "transaction_events", "activity"):
            show(kind, _run(kind, node.url, root / kind, 0, stop), math.ceil(stop / LIMIT))
        # The blocks whose versions make up [0, stop).
        height = int(httpx.get(f"{node.url}/blocks/by_version/{stop - 1}").json()["block_height"])
        spanned = int(_block(node.url, height)["last_version"]) + 1
        counted = _run("blocks", node.url, root / "blocks", 0, height + 1)
        show(f"blocks ({height + 1})", counted, blocks_minimum(node.url, height + 1), 1e4 / spanned)
        print(
            f"    pages of their {spanned:,} versions alone: {math.ceil(spanned / LIMIT)}; one "
            f"request a block: {height + 1}; a block and its two ends apart: {3 * (height + 1)}"
        )
        # 0x1's stream 2 holds one event a block after the genesis: as many as the head's height.
        events = int(head["block_height"])
        counted = _run(
            "events", node.url, root / "events", 0, events, address="0x1", creation_number=2
        )
        show(f"events ({events})", counted, math.ceil(events / LIMIT), 1e4 / events)


def budget_bound(versions: int, budget: int, window: float, page_cost: int) -> None:
    blocks = int(versions / VERSIONS_PER_BLOCK) + 20
    # The fullnode keeps the whole chain: every page is read from it, under its budget.
    settings = PublicSettings(
        prune_window=10 * versions, budget=budget, window_seconds=window, page_cost=page_cost
    )
    with (
        LocalNode(seed=1, blocks=blocks, profile="public", public=settings, services=False) as node,
        tempfile.TemporaryDirectory() as tmp,
    ):
        stop = min(versions, int(httpx.get(node.url).json()["ledger_version"]) + 1)
        # Let the window the look-up above opened end before the run begins.
        time.sleep(window + 0.1)
        counting = Counting()
        started = time.perf_counter()
        summary = extract(
            "transactions", node.url, Path(tmp), start=0, stop=stop, progress=False,
            transport=counting,
        )  # fmt: skip
        took = time.perf_counter() - started
    pages, run, refused = (counting.counts[name] for name in ("pages", "run", "refused"))
    units = pages * page_cost + run  # a request is charged when answered, not when refused
    least = (math.ceil(units / budget) - 1) * window
    print(
        f"budget-bound: transactions [0, {stop:,}) on the public profile, {budget} units "
        f"per {window:g} s, a page {page_cost} units"
    )
    print(
        f"  {summary.requests} requests sent ({refused} refused, {pages} pages), "
        f"{units} units: at the least {least:.1f} s ({math.ceil(units / budget)} windows)"
    )
    held = f"  took {took:.1f} s, held {summary.waits} times for {summary.waited_seconds:.1f} s"
    if least <= 0:
        # The run fits in the budget's first window: no wait is owed, so there is no ratio.
        print(f"{held}: the run fits in one window (use more --versions or a smaller --budget)")
        return
    print(f"{held}: {took / least:.2f}x the least (goal <= {BUDGET_GOAL}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", type=int, default=10_000)
    parser.add_argument("--budget", type=int, default=300, help="compute units per window")
    parser.add_argument("--window", type=float, default=10.0, help="seconds")
    parser.add_argument("--page-cost", type=int, default=10)
    args = parser.parse_args()
    report(args.versions, args.budget, args.window, args.page_cost)


def report(versions: int, budget: int = 300, window: float = 10.0, page_cost: int = 10) -> None:
    requests_per_kind(versions)
    budget_bound(versions, budget, window, page_cost)


if __name__ == "__main__":
    main()
