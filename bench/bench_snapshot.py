"""Record and replay at the size of a study: a ``--versions`` extraction of transactions
(100,000 by default) recorded into a snapshot and replayed from it, beside the same
extraction unrecorded, and the same three at ``--small`` versions (1,000).

Prints:

* recording overhead: the recorded extraction's time over the unrecorded one's (goal
  <= 1.15x);
* replay speed: the unrecorded extraction's time over the replay's (goal >= 2x);
* bytes per version of the snapshot on disk, and its answers and distinct bodies;
* peak memory (``ru_maxrss``) of recording and of replaying, against the same at
  ``--small`` versions (goal: within 100 MB); the unrecorded extraction's own growth
  beside them (its partitions are built in memory).

Times are the median of ``--rounds`` turns of the three (3 by default). The CPU seconds of
each extracting process are printed too: against a node on the same machine, whose two
cores the node and the extraction already fill, recording's hashing and compression (some
2 CPU seconds for the 285 MB of a 100,000-version extraction) add to the wall time, and a
replay saves only the node's share of it, the client's decoding being most of it.

Every run is a child process of its own (``--child``), so that its peak memory is its own
and one run's garbage is not the next one's. The node generates its chain and serves it
from a process of its own too (a 100,000-version chain takes some minutes to generate the
first time; the chain cache keeps it for the next run); ``--url`` measures against a node
already serving a chain that long (``--node-pid``: its process). The node's CPU seconds
during each run are printed too (of the node it started, or of ``--node-pid``): a live
extraction costs the client's decoding and the node's serving on the same cores, a replay
the client's decoding alone, its floor.
``python bench/bench_snapshot.py [--versions 100000] [--small 1000] [--concurrency 16]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

VERSIONS_PER_BLOCK = 7.5  # about what the seeded generator writes on a long chain
#: Goals: recording at most this much slower; replay at least this much faster; the peak
#: memory of a large session at most this many MB above a small one's.
RECORDING_GOAL = 1.15
REPLAY_GOAL = 2.0
MEMORY_GOAL_MB = 100.0


def child(mode: str, url: str, stop: int, path: Path, out: Path, concurrency: int) -> None:
    """One extraction of ``[0, stop)``: ``live``, ``record`` (into ``path``) or ``replay``
    (from it); prints its seconds, rows and peak memory as JSON."""
    import pandas as pd

    import ledgerkit
    from ledgerkit.extract import extract

    options = {"start": 0, "stop": stop, "concurrency": concurrency, "progress": False}
    if mode == "live":
        client = ledgerkit.connect(url, cache=False)
    elif mode == "record":
        client = ledgerkit.connect(url, record=path)
    else:
        client = ledgerkit.connect(replay=path)
    before = resource.getrusage(resource.RUSAGE_SELF)
    cpu_before = before.ru_utime + before.ru_stime
    started = time.perf_counter()
    with client:
        extract("transactions", client, out, **options)
    seconds = time.perf_counter() - started  # closing a recording client included
    rows = len(pd.read_parquet(out / "transactions", columns=["version"]))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    peak_mb = usage.ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "rows": rows, "peak_mb": peak_mb, "cpu": cpu}))


def node_cpu(pid: int | None) -> float:
    """The CPU seconds the node's process has spent so far (0 when it is not known)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_child(
    mode: str, url: str, stop: int, path: Path, out: Path, concurrency: int, node: int | None
) -> dict:
    before = node_cpu(node)
    command = [sys.executable, __file__, "--child", mode, "--url", url, "--versions", str(stop)]
    command += ["--path", str(path), "--out", str(out), "--concurrency", str(concurrency)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result: dict = json.loads(done.stdout.strip().splitlines()[-1])
    if result["rows"] != stop:
        raise SystemExit(f"{mode}: {result['rows']} rows, not {stop}")
    result["node_cpu"] = node_cpu(node) - before
    return result


@contextlib.contextmanager
def node_process(db: Path, blocks: int) -> Iterator[tuple[str, int]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ledgerkit.cli", "node", "--db", str(db), "--port", str(port),
               "--faucet-port", "0"]  # fmt: skip
    command += ["--seed", "1", "--blocks", str(blocks)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(36_000):  # an hour at most: a long chain is generated first
            try:
                httpx.get(url, timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def session(
    url: str, stop: int, root: Path, concurrency: int, rounds: int, node: int | None
) -> dict[str, dict]:
    """Live, recorded and replayed extractions of ``[0, stop)``, each in its own process,
    in turns ``rounds`` times (so that all three see the same machine); the median time
    and the highest peak memory of each."""
    path = root / f"{stop}.snapshot"
    runs: dict[str, list[dict]] = {"live": [], "record": [], "replay": []}
    for number in range(rounds):
        for mode, made in runs.items():
            out = root / f"{mode}-{stop}-{number}"
            made.append(run_child(mode, url, stop, path, out, concurrency, node))
    results: dict[str, dict] = {
        mode: {
            "seconds": statistics.median(run["seconds"] for run in made),
            "peak_mb": max(run["peak_mb"] for run in made),
            "cpu": statistics.median(run["cpu"] for run in made),
            "node_cpu": statistics.median(run["node_cpu"] for run in made),
        }
        for mode, made in runs.items()
    }
    results["file"] = {"bytes": path.stat().st_size}
    from ledgerkit.client.snapshot import snapshot_info

    info = snapshot_info(path)
    results["file"].update(answers=info.answers, bodies=info.bodies, raw=info.body_bytes)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3, help="live, record, replay in turns")
    parser.add_argument("--url", default=None, help="a node already serving the chain")
    parser.add_argument(
        "--node-pid", type=int, default=None, help="its process, to count its CPU seconds"
    )
    parser.add_argument("--child", choices=("live", "record", "replay"), help=argparse.SUPPRESS)
    parser.add_argument("--path", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.url, args.versions, args.path, args.out, args.concurrency)
        return
    blocks = int(args.versions / VERSIONS_PER_BLOCK) + 20
    with tempfile.TemporaryDirectory(prefix="ledgerkit-bench-") as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        serving = contextlib.nullcontext((args.url, args.node_pid)) if args.url else None
        with serving or node_process(root / "chain.sqlite3", blocks) as (url, node):
            total = int(httpx.get(url).json()["ledger_version"]) + 1
            print(f"chain: {total} versions, ready in {time.perf_counter() - started:.1f} s")
            if total < args.versions:
                raise SystemExit(f"the chain has {total} versions, fewer than {args.versions}")
            small = session(url, args.small, root, args.concurrency, args.rounds, node)
            large = session(url, args.versions, root, args.concurrency, args.rounds, node)
    for stop, result in ((args.small, small), (args.versions, large)):
        live, record, replay = result["live"], result["record"], result["replay"]
        print(
            f"{stop:>7} versions: live {live['seconds']:.2f} s, recorded "
            f"{record['seconds']:.2f} s, replayed {replay['seconds']:.2f} s; peak memory "
            f"live {live['peak_mb']:.0f} MB, recording {record['peak_mb']:.0f} MB, "
            f"replaying {replay['peak_mb']:.0f} MB"
        )
    live, record, replay = large["live"], large["record"], large["replay"]
    file = large["file"]
    overhead = record["seconds"] / live["seconds"]
    speed = live["seconds"] / replay["seconds"]
    print(f"recording overhead: {overhead:.2f}x (goal <= {RECORDING_GOAL}x)")
    print(
        f"CPU seconds of the extracting process: live {live['cpu']:.2f}, recording "
        f"{record['cpu']:.2f}, replaying {replay['cpu']:.2f} (the node's own not counted: "
        "where it shares the machine's cores, recording's hashing and compression wait)"
    )
    print(f"replay against live: {speed:.1f}x faster (goal >= {REPLAY_GOAL}x)")
    if node is not None:
        both = live["cpu"] + live["node_cpu"]
        print(
            f"the node's CPU seconds while the live extraction ran: {live['node_cpu']:.2f}, "
            f"on the same {os.cpu_count()} cores; live client and node together "
            f"{both:.2f} CPU s against the replay's {replay['cpu']:.2f} "
            f"({both / replay['cpu']:.1f}x the work; the client's own decoding, "
            f"{live['cpu']:.2f} CPU s live, is a floor for the replay)"
        )
    print(
        f"on disk: {file['bytes'] / 1e6:.1f} MB, {file['bytes'] / args.versions:.0f} bytes per "
        f"version ({file['answers']} answers, {file['bodies']} distinct bodies, "
        f"{file['raw'] / 1e6:.1f} MB uncompressed: {file['raw'] / file['bytes']:.1f}x)"
    )
    for mode, doing in (
        ("live", "extracting unrecorded"),
        ("record", "recording"),
        ("replay", "replaying"),
    ):
        grown = large[mode]["peak_mb"] - small[mode]["peak_mb"]
        goal = "" if mode == "live" else f" (goal within {MEMORY_GOAL_MB:.0f} MB)"
        print(
            f"peak memory {doing} {args.versions} versions: {grown:+.0f} MB "
            f"against {args.small}{goal}"
        )


if __name__ == "__main__":
    main()
