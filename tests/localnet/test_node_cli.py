"""``ledgerkit node`` from the shell: it serves, prints its dev accounts, and Ctrl-C or
SIGTERM stops it cleanly, even when it was started with SIGINT ignored or blocked (as a
background job of a shell inherits it)."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import httpx
import pytest
from aptos_sdk import ed25519
from aptos_sdk.account_address import AccountAddress

#: Every wait on the child is bounded by this; a hang fails the test instead of stalling it.
TIMEOUT = 60.0
COMMAND = [sys.executable, "-m", "ledgerkit.cli", "node", "--port", "0", "--faucet-port", "0",
           "--indexer-port", "0",
           "--blocks", "3", "--seed", "5", "--dev-accounts", "2"]  # fmt: skip


class Child:
    """``ledgerkit node`` in a child process, its output read by threads so that no read
    can block the test for ever."""

    def __init__(self, *options: str, prelude: str = "") -> None:
        command = [*COMMAND, *options]
        if prelude:
            # Set the signal state in a first Python that then execs the node, as a shell
            # does for a background job (no preexec_fn: this test process has threads).
            exec_node = f"import os, sys; os.execv(sys.executable, {command!r})"
            command = [sys.executable, "-c", f"import signal; {prelude}; {exec_node}"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.out: list[str] = []
        self.err: list[str] = []
        assert self.process.stdout is not None
        assert self.process.stderr is not None
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self.out, True)),
            threading.Thread(target=self._read, args=(self.process.stderr, self.err, False)),
        ]
        for reader in self._readers:
            reader.daemon = True
            reader.start()

    def _read(self, stream: IO[str], into: list[str], lines: bool) -> None:
        for line in stream:
            into.append(line)
            if lines:
                self.lines.put(line)
        if lines:
            self.lines.put(None)  # end of output

    def read_until(self, prefix: str) -> str:
        """The output up to and including the first line starting with ``prefix``."""
        deadline = time.monotonic() + TIMEOUT
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no line starting {prefix!r} within {TIMEOUT} s: {seen}")
            if line is None:
                pytest.fail(f"the node exited before {prefix!r}: {seen} {self.err}")
            seen.append(line)
            if line.startswith(prefix):
                return "".join(seen)

    def finish(self) -> tuple[int, str, str]:
        """Wait for the child to exit: (exit status, all of stdout, all of stderr)."""
        try:
            code = self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the node did not stop within {TIMEOUT} s")
        for reader in self._readers:
            reader.join(timeout=TIMEOUT)
        return code, "".join(self.out), "".join(self.err)

    def kill(self) -> None:
        """End the child if it still runs; close its pipes once their readers are done."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=TIMEOUT)
        for reader in self._readers:
            reader.join(timeout=TIMEOUT)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def start() -> Iterator[Callable[..., Child]]:
    children: list[Child] = []

    def starter(*options: str, prelude: str = "") -> Child:
        children.append(Child(*options, prelude=prelude))
        return children[-1]

    yield starter
    for child in children:
        child.kill()


IGNORE_SIGINT = "signal.signal(signal.SIGINT, signal.SIG_IGN)"
BLOCK_BOTH = "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})"


def test_node_command_serves_and_stops_cleanly_on_ctrl_c(start: Callable[..., Child]) -> None:
    before_usec = time.time_ns() // 1000
    child = start()
    text = child.read_until("Press Ctrl-C")
    url = re.search(r"ledgerkit local node: (http://127\.0\.0\.1:\d+/v1)", text)
    assert url, text
    accounts = re.findall(
        r"^ +(0x[0-9a-f]{64}) +(ed25519-priv-0x[0-9a-f]{64})$", text, re.MULTILINE
    )
    assert len(accounts) == 2
    # The keys are printed in AIP-80 form, which the official SDK reads in strict mode.
    for address, secret in accounts:
        sdk_key = ed25519.PrivateKey.from_str(secret, strict=True)
        assert str(AccountAddress.from_key(sdk_key.public_key())) == address
    # The chain's time follows the wall clock (--clock wall, the default): the generated
    # history ends at the fixed anchor, then the idle node makes a block at the wall time.
    assert "clock wall (an empty block after 1 s idle)" in text
    info = _info_once(url[1], lambda info: info["block_height"] != "3")
    assert int(info["ledger_timestamp"]) >= before_usec
    indexer = re.search(r"^  indexer +(http://127\.0\.0\.1:\d+/v1/graphql)", text, re.MULTILINE)
    assert indexer, text
    status = httpx.post(
        indexer[1], json={"query": "{ processor_status { last_success_version } }"}, timeout=10
    ).json()["data"]["processor_status"]
    assert len(status) == 7
    account = httpx.get(f"{url[1]}/accounts/{accounts[0][0]}", timeout=10).json()
    assert account["sequence_number"] == "0"
    child.process.send_signal(signal.SIGINT)
    code, out, err = child.finish()
    assert code == 0, err
    assert "stopping (SIGINT)" in out
    assert "Traceback" not in err
    with pytest.raises(httpx.ConnectError):
        httpx.get(url[1] + "/", timeout=10)


@pytest.mark.parametrize(
    ("prelude", "sent"),
    [
        pytest.param("", signal.SIGTERM, id="sigterm"),
        pytest.param(IGNORE_SIGINT, signal.SIGINT, id="sigint-inherited-ignored"),
        pytest.param(IGNORE_SIGINT, signal.SIGTERM, id="sigterm-sigint-inherited-ignored"),
        pytest.param(BLOCK_BOTH, signal.SIGINT, id="sigint-inherited-blocked"),
        pytest.param(BLOCK_BOTH, signal.SIGTERM, id="sigterm-inherited-blocked"),
    ],
)
def test_node_command_stops_cleanly_on_a_signal_whatever_it_inherited(
    start: Callable[..., Child],
    tmp_path: Path,
    prelude: str,
    sent: signal.Signals,
) -> None:
    db = tmp_path / "ledger.sqlite3"
    child = start("--db", str(db), "--clock", "chain", prelude=prelude)
    text = child.read_until("Press Ctrl-C")
    url = re.search(r"ledgerkit local node: (http://127\.0\.0\.1:\d+/v1)", text)
    assert url, text
    assert httpx.get(url[1] + "/", timeout=10).json()["block_height"] == "3"
    child.process.send_signal(sent)
    code, out, err = child.finish()
    assert code == 0, err
    assert f"stopping ({sent.name})" in out
    assert "Traceback" not in err
    with pytest.raises(httpx.ConnectError):
        httpx.get(url[1] + "/", timeout=10)
    # The ledger was closed: SQLite folds its write-ahead log into the file and removes it
    # when the last connection closes (a killed process leaves it behind).
    assert db.exists()
    assert not (tmp_path / "ledger.sqlite3-wal").exists()


def _info_once(url: str, holds: Callable[[dict[str, str]], bool]) -> dict[str, str]:
    """The node's ``GET /`` once ``holds`` is true of it (the idle node's blocks come from
    its own thread)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        info: dict[str, str] = httpx.get(url + "/", timeout=10).json()
        if holds(info):
            return info
        assert time.monotonic() < deadline, f"never so: {info}"
        time.sleep(0.05)


def test_node_command_on_the_chain_clock_makes_no_block_while_idle(
    start: Callable[..., Child],
) -> None:
    child = start("--clock", "chain")
    text = child.read_until("Press Ctrl-C")
    url = re.search(r"ledgerkit local node: (http://127\.0\.0\.1:\d+/v1)", text)
    assert url, text
    # The chain of seed 5 and 3 blocks, its history ending at the fixed anchor
    # (2025-06-02T00:00:00Z = 1748822400 s): the last block is before it.
    info = httpx.get(url[1] + "/", timeout=10).json()
    assert info["block_height"] == "3"
    assert int(info["ledger_timestamp"]) <= 1_748_822_400_000_000
    child.process.send_signal(signal.SIGINT)
    code, _, err = child.finish()
    assert code == 0, err


def _catches(pid: int, signum: signal.Signals) -> bool:
    """Whether process ``pid`` has a handler of its own for ``signum`` (Linux's /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.MULTILINE)
    assert mask, status
    return bool(int(mask[1], 16) >> (signum - 1) & 1)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")
def test_node_command_stops_cleanly_on_sigterm_while_it_generates_its_chain(
    start: Callable[..., Child], tmp_path: Path
) -> None:
    child = start("--blocks", "400", "--db", str(tmp_path / "ledger.sqlite3"))
    deadline = time.monotonic() + TIMEOUT
    while not _catches(child.process.pid, signal.SIGTERM):
        assert child.process.poll() is None, child.err
        assert time.monotonic() < deadline, "the node never took SIGTERM over"
        time.sleep(0.01)
    child.process.send_signal(signal.SIGTERM)  # most likely while the chain is generated
    code, out, err = child.finish()
    assert code == 0, err
    assert "stopping (SIGTERM)" in out
    assert "Traceback" not in err


def test_node_command_refuses_an_unknown_endpoint_group() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ledgerkit.cli", "node", "--port", "0", "--disable", "nope"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "unknown endpoint group" in done.stderr
    assert "Traceback" not in done.stderr
