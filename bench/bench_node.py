"""Load on the embedded node over loopback, beside a bare hello-world app on the same stack.

Starts two servers as subprocesses, each a single uvicorn worker on 127.0.0.1:

* the ceiling: a Starlette app that answers ``GET /`` with a small JSON body;
* the node: ``ledgerkit node`` on a freshly generated chain.

Then, for each endpoint class (ledger info, account resources, a page of 100
transactions, a view call), a bounded load (``--seconds`` each, ``--concurrency``
connections with keep-alive) measures requests per second and latency percentiles, and
prints each class's rate as a share of the ceiling. Goal: hot reads at half the ceiling
or better. Loopback only; every loop stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import httpx

HELLO_APP = textwrap.dedent(
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def hello(request):
        return JSONResponse({"message": "hello"}, headers={"X-NODE-CHAIN-ID": "4"})

    app = Starlette(routes=[Route("/", hello)])
    """
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_ready(url: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=1.0).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"server at {url} did not come up")


async def _connection(
    host: str, port: int, request: bytes, deadline: float, latencies: list[float]
) -> int:
    """One keep-alive connection sending ``request`` until the deadline; returns errors.

    A bare HTTP/1.1 client on asyncio streams: a general-purpose client spends more time
    per request than these servers do, and would measure itself instead.
    """
    reader, writer = await asyncio.open_connection(host, port)
    errors = 0
    try:
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - start)
            errors += status >= 400
    finally:
        writer.close()
    return errors


async def load(
    method: str, url: str, body: object | None, seconds: float, concurrency: int
) -> tuple[int, list[float]]:
    parts = httpx.URL(url)
    payload = json.dumps(body).encode() if body is not None else b""
    target = parts.raw_path.decode()
    request = (
        f"{method} {target} HTTP/1.1\r\nHost: {parts.host}:{parts.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
    ).encode() + payload
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    results = await asyncio.gather(
        *(
            _connection(parts.host, parts.port or 80, request, deadline, latencies)
            for _ in range(concurrency)
        )
    )
    return sum(results), latencies


def measure(
    name: str, method: str, url: str, body: object | None, seconds: float, concurrency: int
) -> float:
    asyncio.run(load(method, url, body, 0.5, concurrency))  # warm up connections and caches
    start = time.perf_counter()
    errors, latencies = asyncio.run(load(method, url, body, seconds, concurrency))
    elapsed = time.perf_counter() - start
    rate = len(latencies) / elapsed
    cuts = statistics.quantiles(latencies, n=100)
    print(
        f"  {name:<24}{rate:9,.0f} req/s   p50 {cuts[49] * 1e3:6.2f} ms"
        f"   p99 {cuts[98] * 1e3:6.2f} ms   errors {errors}"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--blocks", type=int, default=200)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        hello_dir = Path(tmp)
        (hello_dir / "hello_app.py").write_text(HELLO_APP)
        hello_port, node_port = free_port(), free_port()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        hello = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--app-dir", str(hello_dir), "hello_app:app",
             "--host", "127.0.0.1", "--port", str(hello_port), "--log-level", "warning",
             "--no-access-log"],
            env=env,
        )  # fmt: skip
        node = subprocess.Popen(
            [sys.executable, "-m", "ledgerkit.cli", "node", "--port", str(node_port),
             "--faucet-port", "0", "--indexer-port", "0", "--db", str(hello_dir / "ledger.sqlite3"),
             "--blocks", str(args.blocks)],
            env=env,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            hello_url = f"http://127.0.0.1:{hello_port}/"
            node_url = f"http://127.0.0.1:{node_port}/v1"
            wait_ready(hello_url)
            wait_ready(node_url + "/")
            account = httpx.get(node_url + "/transactions?limit=100").json()[-1].get("sender")
            account = account or "0x1"
            view_body = {
                "function": "0x1::coin::balance",
                "type_arguments": ["0x1::aptos_coin::AptosCoin"],
                "arguments": [account],
            }
            print(
                f"loopback load, {args.concurrency} connections, {args.seconds:.0f} s each, "
                f"one uvicorn worker per server"
            )
            ceiling = measure(
                "hello-world (ceiling)", "GET", hello_url, None, args.seconds, args.concurrency
            )
            classes = [
                ("ledger info", "GET", node_url + "/", None),
                ("account resources", "GET", f"{node_url}/accounts/{account}/resources", None),
                ("100 transactions", "GET", node_url + "/transactions?limit=100", None),
                ("view", "POST", node_url + "/view", view_body),
            ]
            for name, method, url, body in classes:
                rate = measure(name, method, url, body, args.seconds, args.concurrency)
                print(f"  {'':<24}{rate / ceiling:9.2f} of the ceiling (goal >= 0.50)")
        finally:
            for process in (hello, node):
                process.terminate()
                process.wait(timeout=20)


if __name__ == "__main__":
    main()
