"""Extraction throughput: concurrent ``extract("transactions", ...)`` against its floor,
the bare read of the same pages, and against sequential page loops and the node's capacity.

* the floor: the same page requests at the same concurrency by a bare aiohttp client,
  each body read and dropped (nothing decoded, nothing written): what reading the pages
  costs at the least with the HTTP client the extraction uses. The floor and the
  extraction are measured in turns, ``--rounds`` times, so that both see the same machine;
* the extraction's client alone: the same requests through the ``AsyncClient`` an
  extraction makes, each body kept as bytes (nothing decoded, nothing written);
* node capacity: the same pages fetched as raw bytes by a bare HTTP/1.1 client on
  keep-alive connections, at the best of several connection counts: what the node can
  serve, with as little client as possible in the way;
* sequential, same work: ``extract("transactions", ..., concurrency=1)``, one page at a
  time through the very code the concurrent run uses;
* sequential, plain loop: ``client.transactions`` page after page (full records), then
  one frame and one Parquet file, as a notebook would write it.

Prints figures and ratios, and the CPU seconds the client (this process, all its threads)
and the node (its process, when the script started it; Linux) spent on the floor, the
client alone and the extraction in the rounds. Goals: >= 3x the sequential loop, an
extraction rate >= 70% of the floor's. By default one partition, 10,000 versions, nine
rounds: a round takes some 0.2 s, and the median of many is steadier than any one of them
on a machine where the node and the client share two cores.
Then what an extraction costs in requests, per kind, and its time under a budget
(``bench_extract_costs.py``; ``--costs-only`` prints that alone).
``python bench/bench_extract.py [--versions 10000] [--concurrency 16] [--rounds 9] [--costs-only]``
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import httpx
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from bench_extract_costs import report

from ledgerkit.client import AiohttpTransport, AsyncClient, calls
from ledgerkit.extract import extract
from ledgerkit.extract._convert import CONVERTERS
from ledgerkit.extract._ranges import pages

VERSIONS_PER_BLOCK = 4.6  # about what the seeded generator writes
#: What the extraction should reach of the floor's rate.
GOAL = 0.70


async def sequential(url: str, stop: int, out: Path) -> None:
    records: list[object] = []
    async with AsyncClient(url, cache=False) as client:
        for first, end in pages(0, stop, 100):
            records.extend((await client.transactions(start=first, limit=end - first)).value)
    frame = CONVERTERS["transactions"](records)
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), out / "seq.parquet")


async def raw_pages(url: str, stop: int, connections: int) -> int:
    """Fetch every page of ``[0, stop)`` as bytes over ``connections`` keep-alive
    connections; returns the bytes received. A bare client, so that the node is measured."""
    parts = httpx.URL(url)
    todo = collections.deque(pages(0, stop, 100))
    host, port = parts.host, parts.port or 80

    async def worker() -> int:
        reader, writer = await asyncio.open_connection(host, port)
        received = 0
        try:
            while todo:
                first, end = todo.popleft()
                target = f"{parts.raw_path.decode()}/transactions?start={first}&limit={end - first}"
                writer.write(f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
                head = await reader.readuntil(b"\r\n\r\n")
                assert head[9:12] == b"200", head[:64]
                length = next(
                    int(line[15:])
                    for line in head.split(b"\r\n")
                    if line[:15].lower() == b"content-length:"
                )
                received += len(await reader.readexactly(length))
        finally:
            writer.close()
        return received

    return sum(await asyncio.gather(*(worker() for _ in range(connections))))


async def bare_pages(url: str, stop: int, concurrency: int) -> int:
    """The floor: every page of ``[0, stop)`` as the extraction asks for it (100 versions,
    ``concurrency`` requests in flight), by a bare aiohttp session, each body read and
    dropped. Returns the bytes received."""
    limit = asyncio.Semaphore(concurrency)
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(first: int, end: int) -> int:
            async with limit:
                params = {"start": first, "limit": end - first}
                async with session.get(f"{url}/transactions", params=params) as answer:
                    answer.raise_for_status()
                    return len(await answer.read())

        return sum(await asyncio.gather(*(one(a, b) for a, b in pages(0, stop, 100))))


async def client_pages(url: str, stop: int, concurrency: int, *, aiohttp: bool) -> None:
    """Every page as bytes through httpx, ``concurrency`` at a time, over its own transport
    or the aiohttp one that extraction uses: the HTTP client alone."""
    limit = asyncio.Semaphore(concurrency)
    transport = AiohttpTransport(max_connections=concurrency) if aiohttp else None
    async with httpx.AsyncClient(
        base_url=url,
        limits=httpx.Limits(max_connections=concurrency),
        timeout=60,
        transport=transport,
    ) as http:

        async def one(first: int, end: int) -> None:
            async with limit:
                answer = await http.get(
                    "/transactions", params={"start": first, "limit": end - first}
                )
                answer.raise_for_status()

        await asyncio.gather(*(one(a, b) for a, b in pages(0, stop, 100)))


async def extraction_client(url: str, stop: int, concurrency: int) -> None:
    """Every page as bytes through the very client an extraction makes (``AsyncClient``
    over the aiohttp transport, no cache, ``concurrency`` requests in flight): what the
    extraction costs before it decodes, converts or writes anything."""
    identity: Callable[[bytes], bytes] = bytes
    transport = AiohttpTransport(max_connections=concurrency)
    async with AsyncClient(
        url, cache=False, max_concurrency=concurrency, transport=transport
    ) as client:
        await asyncio.gather(
            *(
                client.send(calls.transactions(start=a, limit=b - a), decoder=identity)
                for a, b in pages(0, stop, 100)
            )
        )


def node_capacity(url: str, stop: int) -> tuple[float, int, int]:
    """Best time to serve every page, over 1-16 connections: (seconds, connections, bytes)."""
    best: tuple[float, int, int] | None = None
    for connections in (1, 2, 4, 8, 16):
        start = time.perf_counter()
        size = asyncio.run(raw_pages(url, stop, connections))
        took = time.perf_counter() - start
        if best is None or took < best[0]:
            best = (took, connections, size)
    assert best is not None
    return best


class _Served:
    def __init__(self, url: str, pid: int | None = None) -> None:
        self.url = url
        self.pid = pid

    def cpu(self) -> float | None:
        """CPU seconds the node's process has used so far (Linux), when it is ours."""
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu() -> float:
    """CPU seconds this process has used so far, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def _node_process(db: Path, blocks: int) -> Iterator[_Served]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ledgerkit.cli", "node", "--db", str(db), "--port", str(port),
               "--faucet-port", "0"]  # fmt: skip
    command += ["--seed", "1", "--blocks", str(blocks)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(3000):
            try:
                httpx.get(url, timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield _Served(url, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)


def _minus(after: float | None, before: float | None) -> float | None:
    return None if after is None or before is None else after - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--partition-size", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=9, help="floor and extraction, in turns")
    parser.add_argument("--url", default=None, help="a node already serving a chain to measure")
    parser.add_argument(
        "--costs-only", action="store_true", help="only the requests and the budget-bound run"
    )
    args = parser.parse_args()
    if args.costs_only:
        report(args.versions)
        return
    blocks = int(args.versions / VERSIONS_PER_BLOCK) + 20
    with tempfile.TemporaryDirectory(prefix="ledgerkit-bench-") as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        db = root / "chain.sqlite3"
        # The node generates its chain and serves it from its own process, as a real node
        # would: in this process it would share the GIL, and leave its garbage, with the
        # client it is measured against.
        serving = contextlib.nullcontext(_Served(args.url)) if args.url else None
        with serving or _node_process(db, blocks) as node:
            head = httpx.get(node.url).json()
            total = int(head["ledger_version"]) + 1
            stop = min(args.versions, total)
            print(
                f"chain: {blocks} blocks, {total} versions, "
                f"in {time.perf_counter() - started:.1f} s"
            )
            print(f"extracting versions [0, {stop}), concurrency {args.concurrency}")

            asyncio.run(raw_pages(node.url, stop, 4))  # warm the node's caches
            raw, connections, size = node_capacity(node.url, stop)

            t = time.perf_counter()
            asyncio.run(client_pages(node.url, stop, args.concurrency, aiohttp=False))
            httpcore_only = time.perf_counter() - t
            t = time.perf_counter()
            asyncio.run(client_pages(node.url, stop, args.concurrency, aiohttp=True))
            fetch_only = time.perf_counter() - t

            t = time.perf_counter()
            asyncio.run(sequential(node.url, stop, root))
            loop = time.perf_counter() - t

            def run(name: str, concurrency: int) -> float:
                t = time.perf_counter()
                extract(
                    "transactions",
                    node.url,
                    root / name,
                    start=0,
                    stop=stop,
                    partition_size=args.partition_size,
                    concurrency=concurrency,
                    progress=False,
                )
                took = time.perf_counter() - t
                assert len(pd.read_parquet(root / name / "transactions")) == stop
                return took

            seq = run("sequential", 1)
            floors: list[float] = []
            clients: list[float] = []
            runs: list[float] = []
            # CPU seconds of this process and of the node, per run, to tell where time goes.
            spent: dict[str, list[tuple[float, float | None]]] = {
                "floor": [],
                "its client alone": [],
                "extraction": [],
            }
            for number in range(args.rounds):
                t, cpu, node_cpu = time.perf_counter(), _cpu(), node.cpu()
                asyncio.run(bare_pages(node.url, stop, args.concurrency))
                floors.append(time.perf_counter() - t)
                spent["floor"].append((_cpu() - cpu, _minus(node.cpu(), node_cpu)))
                t, cpu, node_cpu = time.perf_counter(), _cpu(), node.cpu()
                asyncio.run(extraction_client(node.url, stop, args.concurrency))
                clients.append(time.perf_counter() - t)
                spent["its client alone"].append((_cpu() - cpu, _minus(node.cpu(), node_cpu)))
                cpu, node_cpu = _cpu(), node.cpu()
                runs.append(run(f"concurrent-{number}", args.concurrency))
                spent["extraction"].append((_cpu() - cpu, _minus(node.cpu(), node_cpu)))
            one_by_one = pd.read_parquet(root / "sequential" / "transactions")
            for number in range(args.rounds):
                at_once = pd.read_parquet(root / f"concurrent-{number}" / "transactions")
                pd.testing.assert_frame_equal(one_by_one, at_once)

    def rate(seconds: float) -> str:
        return f"{seconds:6.2f} s  {stop / seconds:9,.0f} versions/s"

    conc = statistics.median(runs)
    floor = statistics.median(floors)
    shares = [f / r for f, r in zip(floors, runs, strict=True)]
    print(f"node capacity ({size / 1e6:.0f} MB of pages, {connections} connections): {rate(raw)}")
    print(f"httpx alone, {args.concurrency} at once, bytes only:  {rate(httpcore_only)}")
    print(f"  the same over the aiohttp transport:       {rate(fetch_only)}")
    print(f"sequential plain loop (records, frame, write): {rate(loop)}")
    print(f'sequential extract("transactions") (1 request):   {rate(seq)}')
    at_once = f"{args.concurrency} at once, median of {args.rounds}"
    print(f"floor: bare aiohttp read ({at_once}): {rate(floor)}")
    print(f"  its client alone, bytes only ({at_once}): {rate(statistics.median(clients))}")
    print(f'extract("transactions") ({at_once}): {rate(conc)}')
    print(f"speed-up over the plain loop:      {loop / conc:5.2f}x (goal >= 3x)")
    print(f"speed-up over the same work, 1 by 1: {seq / conc:5.2f}x")
    print(
        f"share of the floor (extract rate / floor rate): {statistics.median(shares):.2f} "
        f"(rounds {min(shares):.2f}-{max(shares):.2f}; goal >= {GOAL:.2f})"
    )
    ceilings = [f / c for f, c in zip(floors, clients, strict=True)]
    print(
        f"  share of the floor its client alone reaches: {statistics.median(ceilings):.2f} "
        f"(rounds {min(ceilings):.2f}-{max(ceilings):.2f})"
    )
    for name, figures in spent.items():
        client_cpu = [c for c, _ in figures]
        node_cpus = [n for _, n in figures if n is not None]
        line = f"CPU, {name}: client {min(client_cpu):.2f}-{max(client_cpu):.2f} s"
        if node_cpus:
            line += f", node {min(node_cpus):.2f}-{max(node_cpus):.2f} s"
        print(line)
    print(f"share of node capacity:   {raw / conc:.0%}")
    print(f"share of what its HTTP client alone fetches: {fetch_only / conc:.0%}")
    print()
    report(args.versions)  # requests per kind, and a run under a budget


if __name__ == "__main__":
    main()
