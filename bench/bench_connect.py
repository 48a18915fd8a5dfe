"""Time to a first answer from the embedded node: cold (chain generated) vs cached.

Each measurement runs in a fresh Python process, as a user's script or notebook kernel
does, with the chain cache in a temporary directory (``LEDGERKIT_CHAIN_CACHE``):

* ``connect()`` to the first answer (``ledger_info()``), with an empty cache, then again
  with the chain cached by the first run;
* ``LocalNode()`` start with the default chain (until its URL answers), cold and cached.

Imports (ledgerkit, its client and the node's modules) are outside the timed part: they
cost the same whatever the chain, once per process. Prints both times and their ratio.
Goal: a cached start well under a second. Run with
``.venv/bin/python bench/bench_connect.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

GOAL_CACHED_SECONDS = 1.0

CONNECT = textwrap.dedent(
    """
    import time
    import ledgerkit, ledgerkit.client, ledgerkit.localnet
    started = time.perf_counter()
    client = ledgerkit.connect()
    client.ledger_info()
    print(time.perf_counter() - started)
    client.close()
    """
)

NODE = textwrap.dedent(
    """
    import time
    import ledgerkit.client
    from ledgerkit import LocalNode
    started = time.perf_counter()
    node = LocalNode().start()
    print(time.perf_counter() - started)
    node.stop()
    """
)


def run(code: str, cache: str) -> float:
    env = {**os.environ, "LEDGERKIT_CHAIN_CACHE": cache}
    env.pop("LEDGERKIT_NODE_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def measure(name: str, code: str, repeat: int) -> bool:
    cold, cached = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="ledgerkit-bench-cache-") as cache:
            cold.append(run(code, cache))
            cached.append(run(code, cache))
    cold_s, cached_s = statistics.median(cold), statistics.median(cached)
    ratio = cold_s / cached_s
    print(f"{name:<28} cold {cold_s:7.2f} s   cached {cached_s:7.3f} s   ratio {ratio:6.1f}x")
    return cached_s < GOAL_CACHED_SECONDS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (median shown)")
    args = parser.parse_args()
    print(f"first answer from the embedded node, default chain, median of {args.repeat}")
    ok = measure("connect() -> ledger_info()", CONNECT, args.repeat)
    ok &= measure("LocalNode() start", NODE, args.repeat)
    print(f"goal: cached under {GOAL_CACHED_SECONDS:.0f} s -> {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
