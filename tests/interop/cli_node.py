"""``ledgerkit node`` run as a user runs it, for the interop tests: a child process started
from the command line, read from what it prints, stopped with SIGTERM.

:func:`cli_node` starts one with any flags; the ``default_node`` fixture of ``conftest.py``
starts one with none, so that the SDKs' own local-network settings (the node API on
127.0.0.1:8080, the faucet on :8081, the indexer on :8090) reach it unchanged.
:func:`not_installed` is how every interop test reacts to a missing tool: a skip on a
developer's machine, a failure in CI (``CI=true``), where ``make test`` installs it.
"""

from __future__ import annotations

import errno
import os
import queue
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NoReturn

import pytest

#: Every wait on the command is bounded by this: a new default ledger (a day of blocks)
#: starts in a few seconds.
START_TIMEOUT: Final = 120.0
#: The ports of a local network as the Aptos CLI starts one: node API, faucet, indexer.
DEFAULT_PORTS: Final = (8080, 8081, 8090)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def not_installed(what: str, how: str = "`make test` installs it") -> NoReturn:
    """Skip the test for a missing tool, or fail it in CI, where it must be there."""
    if in_ci():
        pytest.fail(f"CI=true but {what} is not installed ({how})")
    pytest.skip(f"{what} is not installed ({how})")


def busy_ports(ports: tuple[int, ...] = DEFAULT_PORTS, host: str = "127.0.0.1") -> list[int]:
    """The ports of ``ports`` something already listens on at ``host``."""
    busy = []
    for port in ports:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((host, port))
            except OSError as error:
                if error.errno != errno.EADDRINUSE:
                    raise
                busy.append(port)
    return busy


@dataclass(frozen=True)
class CliNode:
    """The URLs a started ``ledgerkit node`` printed, and all it printed before them."""

    node_url: str
    faucet_url: str
    indexer_url: str
    banner: str


def _url(banner: str, pattern: str) -> str:
    found = re.search(pattern, banner, re.MULTILINE)
    assert found, f"no {pattern!r} in what ledgerkit node printed:\n{banner}"
    return found[1]


@contextmanager
def cli_node(*args: str, cwd: Path) -> Iterator[CliNode]:
    """Run ``ledgerkit node ARGS`` in ``cwd`` until the block ends; yields its URLs once it
    says it is ready (``Press Ctrl-C to stop.``)."""
    command = [sys.executable, "-m", "ledgerkit.cli", "node", *args]
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while not seen or not seen[-1].startswith("Press Ctrl-C"):
            line = lines.get(timeout=START_TIMEOUT)
            if line is None:
                pytest.fail(f"ledgerkit node exited with {process.wait()}: {''.join(seen)}")
            seen.append(line)
        banner = "".join(seen)
        yield CliNode(
            node_url=_url(banner, r"^ledgerkit local node: (\S+)$"),
            faucet_url=_url(banner, r"^  faucet +(\S+)"),
            indexer_url=_url(banner, r"^  indexer +(\S+)"),
            banner=banner,
        )
    finally:
        process.terminate()
        try:
            process.wait(timeout=START_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=START_TIMEOUT)
        reader.join(timeout=START_TIMEOUT)
        assert process.stdout is not None
        process.stdout.close()
