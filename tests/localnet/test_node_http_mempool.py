"""The node's mempool over HTTP: expired transactions leave it, and racing submitters
(duplicates, replacements and conflicting updates while blocks are made) lose nothing,
commit nothing twice and conserve the supply."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import (
    APT,
    SIGNED_TXN_BCS,
    apt_balance,
    assert_error,
    ledger_version,
    ok,
    sequence_number,
    submit,
    txn_hash,
)

from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.localnet import LocalNode, NodeConfig
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address

SEED = 41
#: Racing submitters, each with its own dev account, and the rounds each plays.
SUBMITTERS: Final = 4
ROUNDS: Final = 30
#: A generous bound on waiting for everything accepted to be committed.
SETTLE_SECONDS: Final = 60.0


def transfer_to(
    account: Any,
    to: Address,
    sequence: int,
    *,
    amount: int,
    price: int = 100,
    expiration: int,
    max_gas: int = 10_000,
) -> SignedTransaction:
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", to), ("u64", amount)]
    )
    raw = RawTransaction(account.address, sequence, payload, max_gas, price, expiration, 4)
    return raw.sign(account.private_key)


def post(http: httpx.Client, signed: SignedTransaction) -> httpx.Response:
    return http.post(
        "/transactions", content=signed.to_bcs(), headers={"Content-Type": SIGNED_TXN_BCS}
    )


def far_expiration(node: LocalNode) -> int:
    """Ten minutes past both the chain's time and the wall clock (blocks may carry either)."""
    assert node.ledger is not None
    return max(node.ledger._now_secs(), int(time.time())) + 600


# -- expiry ---------------------------------------------------------------------------------


@pytest.mark.parametrize("block_interval", [None, 0.3], ids=["on-submission", "live"])
def test_expired_transactions_leave_the_mempool_and_free_their_places(
    block_interval: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (
        LocalNode(seed=SEED, blocks=3, block_interval=block_interval) as node,
        httpx.Client(base_url=node.url, timeout=30.0) as http,
    ):
        assert node.ledger is not None
        dev = node.dev_accounts[0]
        to = node.dev_accounts[1].address
        first = sequence_number(http, dev.address)
        start = node.ledger._now_secs()
        # A hundred transactions behind a gap, expiring 3 s from now: the account's share.
        parked = [
            transfer_to(dev, to, first + k, amount=k, expiration=start + 3) for k in range(1, 101)
        ]
        for signed in parked:
            assert submit(http, signed)["hash"] == txn_hash(signed)
        gap = transfer_to(dev, to, first, amount=1, expiration=far_expiration(node))
        assert_error(post(http, gap), 507, "mempool_is_full")
        assert ok(http.get(f"/transactions/by_hash/{txn_hash(parked[0])}"))["type"] == (
            "pending_transaction"
        )

        monkeypatch.setattr(node.ledger, "_now_secs", lambda: start + 12)  # 12 s later
        for signed in (parked[0], parked[-1]):
            found = http.get(f"/transactions/by_hash/{txn_hash(signed)}")
            assert_error(found, 404, "transaction_not_found")
        assert submit(http, gap)["hash"] == txn_hash(gap)
        for _ in range(100):  # bounded: the gap's block comes within moments
            done = ok(http.get(f"/transactions/wait_by_hash/{txn_hash(gap)}"))
            if done["type"] == "user_transaction":
                break
        assert done["type"] == "user_transaction"
        assert sequence_number(http, dev.address) == first + 1  # nothing parked ran
        held = {p.hash for p in node.ledger.mempool.held()}
        assert not held & {bytes(s.hash()) for s in parked}


@pytest.mark.parametrize("block_interval", [None, 0.3], ids=["on-submission", "live"])
def test_the_node_sweeps_expired_transactions_without_being_asked(
    block_interval: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (
        LocalNode(seed=SEED, blocks=3, block_interval=block_interval) as node,
        httpx.Client(base_url=node.url, timeout=30.0) as http,
    ):
        ledger = node.ledger
        assert ledger is not None
        dev = node.dev_accounts[2]
        first = sequence_number(http, dev.address)
        start = ledger._now_secs()
        parked = [
            transfer_to(dev, dev.address, first + k, amount=k, expiration=start + 3)
            for k in range(1, 6)
        ]
        for signed in parked:
            submit(http, signed)
        mine = {bytes(s.hash()) for s in parked}
        monkeypatch.setattr(ledger, "_now_secs", lambda: start + 4)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # no request: the node's own sweep drops them
            held = {p.hash for p in ledger.mempool.held()}
            stored = {h for h, _ in ledger.store.mempool.transactions()}
            if not (held | stored) & mine:
                break
            time.sleep(0.1)
        assert not held & mine
        assert not stored & mine


# -- racing submitters -----------------------------------------------------------------------


@dataclass
class Answer:
    """One submission and what the node said."""

    signed: SignedTransaction
    status: int
    error_code: str | None
    kind: str

    @property
    def hash(self) -> str:
        return txn_hash(self.signed)


class Submitter(threading.Thread):
    """Plays ``ROUNDS`` rounds for one account: a transfer, then (after a random pause that
    lands before, inside or after the block taking it) the identical transaction again, the
    same one paying more, and another payload at that sequence number."""

    def __init__(
        self, url: str, account: Any, others: list[Address], expiration: int, seed: int
    ) -> None:
        super().__init__(name=f"submitter-{seed}", daemon=True)
        self.url = url
        self.account = account
        self.others = others
        self.expiration = expiration
        self.rng = random.Random(seed)
        self.answers: list[Answer] = []
        self.shared: list[SignedTransaction] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.url, timeout=30.0) as http:
                self._play(http)
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _send(self, http: httpx.Client, signed: SignedTransaction, kind: str) -> Answer:
        response = post(http, signed)
        code = None if response.status_code == 202 else response.json().get("error_code")
        if response.status_code == 202:
            assert response.json()["hash"] == txn_hash(signed)
            self.shared.append(signed)
        answer = Answer(signed, response.status_code, code, kind)
        self.answers.append(answer)
        return answer

    def _play(self, http: httpx.Client) -> None:
        rng = self.rng
        sequence = sequence_number(http, self.account.address)
        for _ in range(ROUNDS):
            to = rng.choice(self.others)
            amount = rng.randint(1, 10_000)
            price = 100 + 10 * rng.randrange(5)
            base = transfer_to(
                self.account, to, sequence, amount=amount, price=price, expiration=self.expiration
            )
            first = self._send(http, base, "original")
            assert first.status == 202, first
            time.sleep(rng.random() * 0.04)
            same = {"expiration": self.expiration}
            updates = [
                (base, "identical"),
                (transfer_to(self.account, to, sequence, amount=amount, price=price + 50, **same),
                 "replacement"),
                (transfer_to(self.account, to, sequence, amount=amount + 1, price=price + 100,
                             **same), "conflict"),
            ]  # fmt: skip
            rng.shuffle(updates)
            for signed, kind in updates:
                self._send(http, signed, kind)
            sequence += 1


class Echo(threading.Thread):
    """Resubmits transactions the submitters had accepted, as a client retrying would."""

    def __init__(self, url: str, submitters: list[Submitter], seed: int) -> None:
        super().__init__(name="echo", daemon=True)
        self.url = url
        self.submitters = submitters
        self.rng = random.Random(seed)
        self.answers: list[Answer] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.url, timeout=30.0) as http:
                while any(s.is_alive() for s in self.submitters):
                    pool = [t for s in self.submitters for t in s.shared[-3:]]
                    if not pool:
                        time.sleep(0.005)
                        continue
                    signed = self.rng.choice(pool)
                    response = post(http, signed)
                    code = None if response.status_code == 202 else response.json()["error_code"]
                    if response.status_code == 202:
                        assert response.json()["hash"] == txn_hash(signed)
                    self.answers.append(Answer(signed, response.status_code, code, "echo"))
        except BaseException as exc:
            self.error = exc


def committed_since(http: httpx.Client, start: int) -> list[dict[str, Any]]:
    """Every transaction from version ``start`` to the head, page by page."""
    head = ledger_version(http)
    found: list[dict[str, Any]] = []
    version = start
    while version <= head:
        page = ok(http.get("/transactions", params={"start": version, "limit": 100}))
        assert page, version
        found.extend(page)
        version += len(page)
    return found


@pytest.fixture
def racing_node() -> Iterator[LocalNode]:
    with LocalNode(seed=SEED, blocks=3, dev_accounts=SUBMITTERS + 1) as node:
        yield node


def test_racing_submitters_lose_nothing_and_commit_nothing_twice(racing_node: LocalNode) -> None:
    node = racing_node
    accounts = node.dev_accounts
    addresses = [a.address for a in accounts]
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        start_version = ledger_version(http) + 1
        balances_before = sum(apt_balance(http, a) for a in addresses)
        supply_before = int(supply(http))
        expiration = far_expiration(node)
        submitters = [
            Submitter(node.url, account, [a for a in addresses if a != account.address],
                      expiration, seed)
            for seed, account in enumerate(accounts[:SUBMITTERS])
        ]  # fmt: skip
        echo = Echo(node.url, submitters, 99)
        for thread in (*submitters, echo):
            thread.start()
        for thread in (*submitters, echo):
            thread.join(timeout=120)
            assert not thread.is_alive(), f"{thread.name} did not finish"
            assert thread.error is None, thread.error

        answers = [a for s in submitters for a in s.answers] + echo.answers
        # Every answer is a 202 with the submitted hash, or one of the two refusals.
        for answer in answers:
            assert (answer.status, answer.error_code) in {
                (202, None),
                (400, "invalid_transaction_update"),
                (400, "sequence_number_too_old"),
            }, answer
            if answer.kind == "conflict":
                assert answer.status == 400, "another payload never replaces"
        # Everything accepted is committed in a bounded time.
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline and any(
            sequence_number(http, a.address) < ROUNDS for a in accounts[:SUBMITTERS]
        ):
            time.sleep(0.05)
        assert [sequence_number(http, a.address) for a in accounts[:SUBMITTERS]] == (
            [ROUNDS] * SUBMITTERS
        )

        committed = committed_since(http, start_version)
        # Versions contiguous, no transaction twice, one per sender and sequence number.
        assert [int(t["version"]) for t in committed] == list(
            range(start_version, start_version + len(committed))
        )
        assert len({t["hash"] for t in committed}) == len(committed)
        users = [t for t in committed if t["type"] == "user_transaction"]
        slots = [(t["sender"], int(t["sequence_number"])) for t in users]
        assert len(set(slots)) == len(slots) == SUBMITTERS * ROUNDS
        by_hash = {t["hash"]: t for t in users}

        # Every 202 is committed, or was replaced by a later accepted one paying more
        # (its hash then answers 404); nothing refused was committed.
        accepted: dict[str, Answer] = {}
        order: dict[str, int] = {}
        for index, answer in enumerate(a for s in submitters for a in s.answers):
            if answer.status == 202:
                accepted.setdefault(answer.hash, answer)
                order.setdefault(answer.hash, index)
        for answer in echo.answers:
            if answer.status == 202:
                assert answer.hash in accepted
        refused = {a.hash for a in answers if a.status != 202} - set(accepted)
        assert not refused & set(by_hash)
        winners = {(t["sender"], int(t["sequence_number"])): t for t in users}
        for txn_hash_, answer in accepted.items():
            if txn_hash_ in by_hash:
                continue
            raw = answer.signed.raw
            winner = winners[(raw.sender.standard, raw.sequence_number)]
            assert winner["hash"] in accepted, "a transaction nobody had accepted committed"
            assert int(winner["gas_unit_price"]) > raw.gas_unit_price, (answer, winner)
            assert order[winner["hash"]] > order[txn_hash_]
            assert_error(http.get(f"/transactions/by_hash/{txn_hash_}"), 404)

        # The supply is conserved: what left the accounts is what was burned as fees.
        fees = sum(int(t["gas_used"]) * int(t["gas_unit_price"]) for t in users)
        assert sum(apt_balance(http, a) for a in addresses) == balances_before - fees
        assert int(supply(http)) == supply_before - fees
        assert node.ledger is not None
        assert len(node.ledger.mempool) == 0


def supply(http: httpx.Client) -> str:
    body = {"function": "0x1::coin::supply", "type_arguments": [APT], "arguments": []}
    value: str = ok(http.post("/view", json=body))[0]["vec"][0]
    return value


def test_a_restarted_node_commits_what_it_had_accepted(tmp_path: Path) -> None:
    """Accepted by a ledger that stopped before any block: the node on its file commits it,
    without a new submission to wake it."""
    db = tmp_path / "ledger.sqlite3"
    config = NodeConfig(seed=SEED, blocks=3)
    ledger = Ledger.open(db, config)
    dev, other = ledger.dev_accounts[:2]
    expiration = max(ledger._now_secs(), int(time.time())) + 600
    waiting = [
        transfer_to(dev, other.address, s, amount=100 + s, expiration=expiration) for s in (0, 1)
    ]
    for signed in waiting:
        ledger.submit(signed)
    ledger.close()
    with (
        LocalNode(db=db, seed=SEED, blocks=3) as node,
        httpx.Client(base_url=node.url, timeout=30.0) as http,
    ):
        for signed in waiting:
            for _ in range(30):  # bounded: each wait long-polls about a second
                found = ok(http.get(f"/transactions/wait_by_hash/{txn_hash(signed)}"))
                if found["type"] == "user_transaction":
                    break
            assert found["type"] == "user_transaction"
            assert found["success"] is True
        assert sequence_number(http, dev.address) == 2
