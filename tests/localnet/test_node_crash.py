"""``ledgerkit node`` killed with SIGKILL while users submit, again and again: every
transaction it had answered 202 is committed after the restarts (or visibly expired)."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final

import httpx
import pytest
from node_http_helpers import SIGNED_TXN_BCS, ok, txn_hash

from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.localnet.chain import DevAccount, dev_accounts

pytestmark = [
    pytest.mark.crash,
    pytest.mark.timeout(900),
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"),
]

SEED: Final = 13
CHAIN_ID: Final = 4
#: Kills, then one last start that settles everything.
CYCLES: Final = 3
#: How long users submit before each kill.
SUBMIT_SECONDS: Final = 0.8
#: Transactions parked behind a sequence-number gap each cycle: they can only wait.
PARKED: Final = 4
START_TIMEOUT: Final = 60.0
#: A bound on the last node committing everything accepted.
SETTLE_SECONDS: Final = 20.0
_URL: Final = re.compile(r"ledgerkit local node: (http://127\.0\.0\.1:\d+/v1)")


def signed_transfer(
    account: DevAccount, sequence: int, expiration: int, amount: int
) -> SignedTransaction:
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", account.address), ("u64", amount)]
    )
    raw = RawTransaction(account.address, sequence, payload, 10_000, 100, expiration, CHAIN_ID)
    return raw.sign(account.private_key)


def post(http: httpx.Client, signed: SignedTransaction) -> httpx.Response:
    return http.post(
        "/transactions", content=signed.to_bcs(), headers={"Content-Type": SIGNED_TXN_BCS}
    )


@dataclass
class Book:
    """What the users know: every 202, and what was sent when the node died."""

    expiration: int
    accepted: dict[str, SignedTransaction] = field(default_factory=dict)
    #: Sent but unanswered when the node died, by sender: sent again after the restart.
    unanswered: dict[str, SignedTransaction] = field(default_factory=dict)
    #: What went wrong in a submitting thread.
    errors: list[BaseException] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, http: httpx.Client, signed: SignedTransaction, *, retry: bool = False) -> str:
        """Submit: ``accepted``, ``used`` (a retry found it committed), ``full`` (507: try
        again later) or ``gone`` (the node died; the transaction is then unanswered)."""
        sender = signed.raw.sender.standard
        with self.lock:
            self.unanswered[sender] = signed
        try:
            response = post(http, signed)
        except httpx.TransportError:
            return "gone"
        with self.lock:
            del self.unanswered[sender]
        body = response.json()
        if response.status_code == 202:
            assert body["hash"] == txn_hash(signed)
            with self.lock:
                self.accepted[txn_hash(signed)] = signed
            return "accepted"
        if response.status_code == 507:
            return "full"
        # Only a retry of what the dead node had already committed may be refused.
        assert retry, body
        assert (response.status_code, body["error_code"]) == (400, "sequence_number_too_old")
        return "used"


class Node:
    """``ledgerkit node`` in live mode on one SQLite file, as a child process."""

    def __init__(self, db: Path, log: IO[str]) -> None:
        command = [
            sys.executable, "-m", "ledgerkit.cli", "node", "--db", str(db), "--port", "0",
            "--faucet-port", "0", "--indexer-port", "0", "--seed", str(SEED), "--blocks", "3",
            "--dev-accounts", "3", "--block-interval", "0.3",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        lines: queue.Queue[str | None] = queue.Queue()
        self._pump = threading.Thread(target=_pump, args=(self.process.stdout, lines), daemon=True)
        self._pump.start()
        deadline = time.monotonic() + START_TIMEOUT
        self.url = ""
        while not self.url:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "the node exited before it served"
            found = _URL.search(line)
            if found:
                self.url = found[1]

    def kill(self) -> None:
        """SIGKILL the node if it still runs; close its output once it is read to the end."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._pump.join(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _pump(stream: IO[str] | None, lines: queue.Queue[str | None]) -> None:
    assert stream is not None
    for line in stream:
        lines.put(line)
    lines.put(None)


@pytest.fixture
def start_node(tmp_path: Path) -> Iterator[Callable[[Path], Node]]:
    """Starts nodes (their stderr in a log file) and kills whatever still runs at the end."""
    started: list[Node] = []
    with open(tmp_path / "node.log", "w") as log:

        def start(db: Path) -> Node:
            started.append(Node(db, log))
            return started[-1]

        try:
            yield start
        finally:
            for node in started:
                node.kill()


def test_kill_9_cycles_lose_no_accepted_transaction(
    tmp_path: Path, start_node: Callable[[Path], Node]
) -> None:
    db = tmp_path / "ledger.sqlite3"
    *streamers, parker = dev_accounts(SEED, 3)
    book = Book(expiration=int(time.time()) + 3600)
    next_sequence = {a.address.standard: 0 for a in streamers}
    hole = 0  # the parker's missing sequence number; the next PARKED ones wait behind it
    for cycle in range(CYCLES + 1):
        node = start_node(db)
        with httpx.Client(base_url=node.url, timeout=10.0) as http:
            chain_secs = int(ok(http.get("/"))["ledger_timestamp"]) // 1_000_000
            assert book.expiration > chain_secs + 600
            for sender, signed in list(book.unanswered.items()):
                assert book.send(http, signed, retry=True) in ("accepted", "used")
                next_sequence[sender] = signed.raw.sequence_number + 1
            if cycle > 0:  # fill the hole: what was parked behind it can run now
                filler = signed_transfer(parker, hole, book.expiration, 1)
                assert book.send(http, filler) == "accepted"
                hole += PARKED + 1
            if cycle < CYCLES:
                for sequence in range(hole + 1, hole + 1 + PARKED):
                    parked = signed_transfer(parker, sequence, book.expiration, 2)
                    assert book.send(http, parked) == "accepted"
        stop = threading.Event()
        threads = [
            threading.Thread(target=_stream, args=(node.url, account, book, next_sequence, stop))
            for account in streamers
        ]
        for thread in threads:
            thread.start()
        time.sleep(SUBMIT_SECONDS)
        if cycle < CYCLES:
            node.kill()  # mid-stream: submissions are in flight
            assert node.process.returncode == -signal.SIGKILL
        else:
            stop.set()
        for thread in threads:
            thread.join(timeout=30)
            assert not thread.is_alive()
        assert not book.errors, book.errors

    # The last node settles everything accepted: committed, or expired by the chain's time.
    assert not book.unanswered
    with httpx.Client(base_url=node.url, timeout=10.0) as http:
        lost = _unsettled(http, book.accepted)
    assert not lost, f"{len(lost)} of {len(book.accepted)} accepted transactions were lost"
    assert len(book.accepted) > CYCLES * (PARKED + 1) + 2 * CYCLES


def _stream(
    url: str,
    account: DevAccount,
    book: Book,
    next_sequence: dict[str, int],
    stop: threading.Event,
) -> None:
    """Submit one transfer after another until the node dies or ``stop`` is set."""
    address = account.address.standard
    try:
        with httpx.Client(base_url=url, timeout=10.0) as http:
            while not stop.is_set():
                sequence = next_sequence[address]
                answer = book.send(http, signed_transfer(account, sequence, book.expiration, 3))
                if answer == "gone":
                    return
                if answer == "full":
                    time.sleep(0.05)  # as a client would, before sending it again
                else:
                    next_sequence[address] = sequence + 1
    except BaseException as error:  # reported by the test
        book.errors.append(error)


def _unsettled(http: httpx.Client, accepted: dict[str, SignedTransaction]) -> list[str]:
    """Hashes neither committed nor gone after their expiration, once the wait is over."""
    waiting = dict(accepted)
    lost = []
    deadline = time.monotonic() + SETTLE_SECONDS
    while waiting and time.monotonic() < deadline:
        for txn, signed in list(waiting.items()):
            response = http.get(f"/transactions/by_hash/{txn}")
            if response.status_code == 404:
                now = int(response.headers["X-NODE-LEDGER-TIMESTAMPUSEC"]) // 1_000_000
                if signed.raw.expiration_timestamp_secs > now:
                    lost.append(txn)
                del waiting[txn]
            elif ok(response)["type"] == "user_transaction":
                del waiting[txn]
        time.sleep(0.1)
    return sorted(lost + list(waiting))
