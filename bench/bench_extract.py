"""Extraction throughput: concurrent ``extract_transactions`` against a sequential page
loop with the same client, and against the node's own capacity (the same pages fetched
concurrently as raw bytes, not decoded or converted).

One run; prints figures and ratios. Goals: >= 3x the sequential loop, >= 70% of the
node's capacity. ``python bench/bench_extract.py [--versions 50000] [--concurrency 16]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ledgerkit.client import AsyncClient
from ledgerkit.extract import extract_transactions
from ledgerkit.extract._convert import CONVERTERS
from ledgerkit.extract._ranges import pages
from ledgerkit.localnet import LocalNode

VERSIONS_PER_BLOCK = 4.6  # about what the seeded generator writes


async def sequential(url: str, stop: int, out: Path) -> None:
    records: list[object] = []
    async with AsyncClient(url, cache=False) as client:
        for first, end in pages(0, stop, 100):
            records.extend((await client.transactions(start=first, limit=end - first)).value)
    frame = CONVERTERS["transactions"](records)
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), out / "seq.parquet")


async def raw_capacity(url: str, stop: int, concurrency: int) -> int:
    limit = asyncio.Semaphore(concurrency)
    pool = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, limits=pool, timeout=60) as http:

        async def one(first: int, end: int) -> int:
            async with limit:
                answer = await http.get(
                    "/transactions", params={"start": first, "limit": end - first}
                )
                return len(answer.content)

        sizes = await asyncio.gather(*(one(a, b) for a, b in pages(0, stop, 100)))
    return sum(sizes)


class _Served:
    def __init__(self, url: str) -> None:
        self.url = url


@contextlib.contextmanager
def _node_process(db: Path, blocks: int) -> Iterator[_Served]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ledgerkit.cli", "node", "--db", str(db), "--port", str(port)]
    command += ["--seed", "1", "--blocks", str(blocks)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(600):
            try:
                httpx.get(url, timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield _Served(url)
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", type=int, default=50_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--partition-size", type=int, default=10_000)
    args = parser.parse_args()
    blocks = int(args.versions / VERSIONS_PER_BLOCK) + 20
    with tempfile.TemporaryDirectory(prefix="ledgerkit-bench-") as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        db = root / "chain.sqlite3"
        with LocalNode(db=db, seed=1, blocks=blocks):
            pass  # generate the chain once, in the temp dir
        # The node serves from its own process, as a real node would: in this process it
        # would share the GIL with the client it is measured against.
        with _node_process(db, blocks) as node:
            head = httpx.get(node.url).json()
            total = int(head["ledger_version"]) + 1
            stop = min(args.versions, total)
            print(
                f"chain: {blocks} blocks, {total} versions, "
                f"in {time.perf_counter() - started:.1f} s"
            )
            print(f"extracting versions [0, {stop}), concurrency {args.concurrency}")

            asyncio.run(raw_capacity(node.url, stop, args.concurrency))  # warm the node's caches
            t = time.perf_counter()
            size = asyncio.run(raw_capacity(node.url, stop, args.concurrency))
            raw = time.perf_counter() - t

            t = time.perf_counter()
            asyncio.run(sequential(node.url, stop, root))
            seq = time.perf_counter() - t

            t = time.perf_counter()
            extract_transactions(
                node.url,
                root / "dataset",
                start=0,
                stop=stop,
                partition_size=args.partition_size,
                concurrency=args.concurrency,
                progress=False,
            )
            conc = time.perf_counter() - t
            rows = len(pd.read_parquet(root / "dataset" / "transactions"))
            assert rows == stop, rows

    def rate(seconds: float) -> str:
        return f"{seconds:6.2f} s  {stop / seconds:9,.0f} versions/s"

    print(f"node capacity (raw pages, {size / 1e6:.0f} MB): {rate(raw)}")
    print(f"sequential page loop + convert + write: {rate(seq)}")
    print(f"extract_transactions (concurrent):      {rate(conc)}")
    print(f"speed-up over sequential: {seq / conc:.2f}x (goal >= 3x)")
    print(f"share of node capacity:   {raw / conc:.0%} (goal >= 70%)")


if __name__ == "__main__":
    main()
