"""A node for the benches that serves its chain from a process of its own (``ledgerkit
node``), as a real node would: in the measuring process it would share the GIL, and leave
its garbage, with the client it is measured against; and the CPU seconds of a process."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import httpx


def process_cpu(pid: int | None) -> float | None:
    """The CPU seconds process ``pid`` has used so far (Linux); ``None`` when not known."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """CPU seconds this process has used so far, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Served(NamedTuple):
    """A node's URL, and its process when it is known."""

    url: str
    pid: int | None = None

    def cpu(self) -> float | None:
        """CPU seconds the node's process has used so far (see :func:`process_cpu`)."""
        return process_cpu(self.pid)


@contextlib.contextmanager
def node_process(db: Path, blocks: int, *, wait_s: float) -> Iterator[Served]:
    """A node with a chain of ``blocks`` blocks of seed 1 in ``db``, serving it on a free
    port; waited for up to ``wait_s`` seconds, stopped on leaving."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ledgerkit.cli", "node", "--db", str(db), "--port", str(port)]
    # The faucet on a free port, so that two benches may run side by side; the chain's own
    # clock, so that no idle block joins the chain while a bench measures it.
    command += [
        "--faucet-port",
        "0",
        "--indexer-port",
        "0",
        "--clock",
        "chain",
        "--seed",
        "1",
        "--blocks",
        str(blocks),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(int(wait_s * 10)):
            try:
                httpx.get(url, timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield Served(url, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
