"""What the empty blocks of an idle node on the wall clock cost: file bytes and CPU time.

Opens a ledger with ``clock="wall"`` on a fake wall clock, makes ``--blocks`` idle blocks
(default 2,000) one fake second apart, indexes them as the node's indexer does, and prints
the bytes each adds to the ledger's SQLite file and to the indexer's, what a day of them
at one a second (``idle_interval`` 1.0) comes to, and the CPU time one takes in each.
The ledger is generated anew (an empty chain cache of its own), as a new user's is.
Run with ``make bench`` or
``.venv/bin/python bench/bench_idle_blocks.py [--blocks N]``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.indexer import IndexerDb
from ledgerkit.localnet.ledger import Ledger

#: 2027-01-15T08:00:00Z in microseconds: where the fake wall clock starts.
START_USEC = 1_800_000_000_000_000


def _size(path: Path) -> int:
    """A SQLite file's bytes, its write-ahead log's included."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


class FakeClock:
    def __init__(self) -> None:
        self.usec = START_USEC

    def __call__(self) -> int:
        return self.usec


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=2_000)
    args = parser.parse_args()
    blocks = max(1, min(args.blocks, 1_000_000))
    config = NodeConfig(seed=7, blocks=40, clock="wall")
    clock = FakeClock()
    with tempfile.TemporaryDirectory() as directory:
        os.environ["LEDGERKIT_CHAIN_CACHE"] = str(Path(directory) / "chains")
        path = Path(directory) / "ledger.sqlite3"
        indexed = Path(directory) / "ledger.sqlite3.indexer"
        ledger = Ledger.open(path, config, time_source=clock)
        ledger.idle_tick()  # the jump from the anchor to the wall clock
        indexer = IndexerDb(indexed)
        indexer.catch_up(ledger)
        indexer.close()
        ledger.close()
        before, indexer_before = _size(path), _size(indexed)
        ledger = Ledger.open(path, config, time_source=clock)
        started = time.process_time()
        for _ in range(blocks):
            clock.usec += 1_000_000
            ledger.idle_tick()
        cpu = time.process_time() - started
        indexer = IndexerDb(indexed)
        started = time.process_time()
        indexer.catch_up(ledger)
        indexer_cpu = time.process_time() - started
        indexer.close()
        ledger.close()
        grown = _size(path) - before
        indexer_grown = _size(indexed) - indexer_before
    per_block = grown / blocks
    indexer_per_block = indexer_grown / blocks
    print(f"idle blocks:             {blocks}")
    print(f"ledger bytes per block:  {per_block:,.0f}")
    print(f"ledger, a day at 1/s:    {per_block * 86_400 / 1e6:,.0f} MB")
    print(f"ledger CPU per block:    {cpu / blocks * 1000:.2f} ms")
    print(f"indexer bytes per block: {indexer_per_block:,.0f}")
    print(f"indexer, a day at 1/s:   {indexer_per_block * 86_400 / 1e6:,.0f} MB")
    print(f"indexer CPU per block:   {indexer_cpu / blocks * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
