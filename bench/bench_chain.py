"""Generate a chain with the embedded node's generator: wall time and peak memory.

Writes genesis and ``--blocks`` blocks (default 10,000) of signed, executed workload
transactions into a fresh SQLite file in a temporary directory, then prints the time,
the versions and user transactions written, the file size and the peak resident memory
of the process (``resource.getrusage``). Goals: under 60 s and under 500 MB for 10,000
blocks. ``--blocks 360`` measures the default chain (a day), which nodes copy from the
chain cache after its first generation (``bench/bench_connect.py``). The chain cache is
not used here. Run with ``make bench`` or
``.venv/bin/python bench/bench_chain.py [--blocks N]``.
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.chain import generate
from ledgerkit.localnet.store import Store

GOAL_SECONDS = 60.0
GOAL_MB = 500.0


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports kilobytes, macOS bytes.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ledgerkit-bench-") as tmp:
        path = Path(tmp) / "chain.sqlite3"
        store = Store(path)
        started = time.perf_counter()
        generate(store, NodeConfig(seed=args.seed, blocks=args.blocks))
        elapsed = time.perf_counter() - started
        store.close()
        with sqlite3.connect(path) as conn:
            versions = conn.execute("SELECT COUNT(*) FROM transactions").fetchone()[0]
            users = conn.execute(
                "SELECT COUNT(*) FROM transactions WHERE sender IS NOT NULL"
            ).fetchone()[0]
            full = conn.execute("SELECT COUNT(*) FROM blocks WHERE full").fetchone()[0]
        size_mb = path.stat().st_size / (1024 * 1024)
    peak = peak_rss_mb()
    print(f"blocks            {args.blocks:>10,}  (seed {args.seed}; {full:,} full)")
    print(f"versions          {versions:>10,}")
    print(f"user transactions {users:>10,}")
    print(f"database          {size_mb:>10.1f} MB")
    print(f"time              {elapsed:>10.1f} s    (goal < {GOAL_SECONDS:.0f} s)")
    print(f"peak RSS          {peak:>10.1f} MB   (goal < {GOAL_MB:.0f} MB)")
    ok = elapsed < GOAL_SECONDS and peak < GOAL_MB
    print("OK" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
