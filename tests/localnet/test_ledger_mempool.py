"""The ledger's mempool: expiry against the chain's time, updates of a held sequence
number, and what waits kept in the ledger's file across a restart."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.chain import DevAccount, _block_builder
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address

SEED = 33
RECIPIENT = Address.parse("0x" + "5e" * 32)


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=SEED, blocks=2))
    yield opened
    opened.close()


def transfer(
    ledger: Ledger,
    account: DevAccount,
    sequence: int,
    *,
    amount: int = 1,
    price: int = 100,
    max_gas: int = 10_000,
    expiration: int | None = None,
) -> SignedTransaction:
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", RECIPIENT), ("u64", amount)]
    )
    if expiration is None:
        expiration = ledger._now_secs() + 600
    raw = RawTransaction(
        account.address, sequence, payload, max_gas, price, expiration, ledger.config.chain_id
    )
    return raw.sign(account.private_key)


def lookup(ledger: Ledger, signed: SignedTransaction) -> dict[str, Any]:
    return ledger.transaction_by_hash(bytes(signed.hash()))


def refused(ledger: Ledger, signed: SignedTransaction) -> ErrorCode:
    with pytest.raises(NodeError) as info:
        ledger.submit(signed)
    return info.value.code


def next_block(ledger: Ledger) -> int | None:
    return ledger.produce_block(ledger.meta().ledger_timestamp_usec + 500_000)


def stored_hashes(path: Path) -> list[bytes]:
    """The mempool rows of the ledger file, read by a connection of its own."""
    with sqlite3.connect(path) as conn:
        return [bytes(row[0]) for row in conn.execute("SELECT hash FROM mempool ORDER BY arrival")]


# -- expiry -------------------------------------------------------------------------------


def test_an_expired_transaction_is_not_found_and_frees_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = Ledger.open(None, NodeConfig(seed=SEED, blocks=2, mempool_capacity=3))
    try:
        alice = small.dev_accounts[0]
        start = small._now_secs()
        parked = [transfer(small, alice, s, expiration=start + 3) for s in (1, 2, 3)]
        for signed in parked:
            small.submit(signed)
        assert refused(small, transfer(small, alice, 0)) is ErrorCode.MEMPOOL_IS_FULL
        monkeypatch.setattr(small, "_now_secs", lambda: start + 3)  # the chain's time moves on
        with pytest.raises(NodeError) as info:
            lookup(small, parked[0])
        assert info.value.code is ErrorCode.TRANSACTION_NOT_FOUND
        first = transfer(small, alice, 0, expiration=start + 600)
        assert small.submit(first)["hash"] == "0x" + bytes(first.hash()).hex()
        assert len(small.mempool) == 1
    finally:
        small.close()


def test_the_sweep_drops_what_expired_without_a_block(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = ledger.dev_accounts[:2]
    start = ledger._now_secs()
    soon = [transfer(ledger, alice, s, expiration=start + 5) for s in (1, 2)]
    later = transfer(ledger, bob, 1, expiration=start + 60)
    for signed in (*soon, later):
        ledger.submit(signed)
    monkeypatch.setattr(ledger, "_now_secs", lambda: start + 4)
    assert ledger.expire_pending() == 0
    monkeypatch.setattr(ledger, "_now_secs", lambda: start + 5)
    assert ledger.expire_pending() == 2
    assert stored_hashes(Path(ledger.store.path)) == [bytes(later.hash())]
    assert lookup(ledger, later)["type"] == "pending_transaction"


# -- updates of a held sequence number ----------------------------------------------------


@pytest.mark.parametrize(
    ("change", "accepted"),
    [
        ({}, "same"),
        ({"price": 150}, "replacement"),
        ({"price": 99_999}, "replacement"),
        ({"price": 100, "amount": 2}, None),
        ({"price": 150, "amount": 2}, None),
        ({"price": 150, "max_gas": 20_000}, None),
        ({"price": 150, "expiration_offset": 601}, None),
    ],
)
def test_a_held_sequence_number_takes_only_the_same_transaction_paying_more(
    ledger: Ledger, change: dict[str, Any], accepted: str | None
) -> None:
    alice = ledger.dev_accounts[0]
    original = transfer(ledger, alice, 0, price=120)
    ledger.submit(original)
    fields: dict[str, Any] = {"price": 120, **change}
    if "expiration_offset" in fields:
        fields["expiration"] = ledger._now_secs() + fields.pop("expiration_offset")
    update = transfer(ledger, alice, 0, **fields)
    if accepted is None:
        assert refused(ledger, update) is ErrorCode.INVALID_TRANSACTION_UPDATE
        winner = original
    else:
        assert ledger.submit(update)["hash"] == "0x" + bytes(update.hash()).hex()
        winner = update
    next_block(ledger)
    assert lookup(ledger, winner)["type"] == "user_transaction"
    if winner.hash() != original.hash():
        with pytest.raises(NodeError):
            lookup(ledger, original)


def test_a_lower_price_is_refused(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    ledger.submit(transfer(ledger, alice, 0, price=200))
    assert refused(ledger, transfer(ledger, alice, 0, price=150)) is (
        ErrorCode.INVALID_TRANSACTION_UPDATE
    )


def test_the_block_being_made_holds_its_sequence_numbers(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Submissions racing a block: the same transaction is the entry, nothing replaces it."""
    alice = ledger.dev_accounts[0]
    taken = transfer(ledger, alice, 0)
    ledger.submit(taken)
    answers: dict[str, Any] = {}
    execute = _block_builder.execute

    def racing_execute(*args: Any, **kwargs: Any) -> Any:
        # The block has taken ``taken`` and is executing it: users submit meanwhile.
        if not answers:
            for name, signed in (
                ("same", taken),
                ("higher price", transfer(ledger, alice, 0, price=500)),
                ("other payload", transfer(ledger, alice, 0, amount=7, price=500)),
            ):
                try:
                    answers[name] = ledger.submit(signed)["hash"]
                except NodeError as error:
                    answers[name] = error.code
        return execute(*args, **kwargs)

    monkeypatch.setattr(_block_builder, "execute", racing_execute)
    next_block(ledger)
    assert answers == {
        "same": "0x" + bytes(taken.hash()).hex(),
        "higher price": ErrorCode.INVALID_TRANSACTION_UPDATE,
        "other payload": ErrorCode.INVALID_TRANSACTION_UPDATE,
    }
    assert lookup(ledger, taken)["type"] == "user_transaction"
    assert len(ledger.mempool) == 0
    # Once committed, the sequence number is used.
    assert refused(ledger, taken) is ErrorCode.SEQUENCE_NUMBER_TOO_OLD


def test_a_failed_block_gives_back_what_it_took(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = ledger.dev_accounts[0]
    signed = transfer(ledger, alice, 0)
    ledger.submit(signed)

    def failing_write(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with monkeypatch.context() as patch:
        patch.setattr(ledger.store, "write_block", failing_write)
        with pytest.raises(sqlite3.OperationalError):
            next_block(ledger)
    assert lookup(ledger, signed)["type"] == "pending_transaction"
    assert ledger.submit(transfer(ledger, alice, 0, price=300))  # it waits: replaceable again
    next_block(ledger)
    assert ledger.reads.account(alice.address, None)["sequence_number"] == "1"


# -- kept in the ledger file --------------------------------------------------------------


def test_accepted_transactions_are_in_the_file_until_their_block_commits(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger.open(path, NodeConfig(seed=SEED, blocks=2))
    try:
        alice = ledger.dev_accounts[0]
        first, parked = transfer(ledger, alice, 0), transfer(ledger, alice, 2)
        ledger.submit(first)
        ledger.submit(parked)
        assert stored_hashes(path) == [bytes(first.hash()), bytes(parked.hash())]
        better = transfer(ledger, alice, 0, price=200)
        ledger.submit(better)
        assert sorted(stored_hashes(path)) == sorted([bytes(better.hash()), bytes(parked.hash())])
        next_block(ledger)
        assert stored_hashes(path) == [bytes(parked.hash())]
    finally:
        ledger.close()


def test_a_reopened_ledger_carries_on_with_what_it_had_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ledger.sqlite3"
    config = NodeConfig(seed=SEED, blocks=2)
    ledger = Ledger.open(path, config)
    alice, bob = ledger.dev_accounts[:2]
    start = ledger._now_secs()
    waiting = [transfer(ledger, alice, s, amount=10 + s) for s in (0, 1, 2)]
    expiring = transfer(ledger, bob, 0, expiration=start + 30)
    for signed in (*waiting, expiring):
        ledger.submit(signed)
    ledger.close()  # no block was made

    monkeypatch.setattr(Ledger, "_now_secs", lambda self: start + 30)
    reopened = Ledger.open(path, config)
    try:
        assert [lookup(reopened, s)["type"] for s in waiting] == ["pending_transaction"] * 3
        with pytest.raises(NodeError) as info:
            lookup(reopened, expiring)
        assert info.value.code is ErrorCode.TRANSACTION_NOT_FOUND
        assert sorted(stored_hashes(path)) == sorted(bytes(s.hash()) for s in waiting)
        # Held again: an update of a reloaded transaction is judged like any other.
        changed = transfer(reopened, alice, 1, amount=99, expiration=start + 600)
        assert refused(reopened, changed) is ErrorCode.INVALID_TRANSACTION_UPDATE
        next_block(reopened)
        committed = [lookup(reopened, s) for s in waiting]
        assert [c["type"] for c in committed] == ["user_transaction"] * 3
        versions = [int(c["version"]) for c in committed]
        assert versions == list(range(versions[0], versions[0] + 3))
        assert stored_hashes(path) == []
    finally:
        reopened.close()


def test_a_reopened_ledger_drops_what_was_committed_meanwhile(tmp_path: Path) -> None:
    """A row whose sequence number is already used (a crash between the two) is dropped."""
    path = tmp_path / "ledger.sqlite3"
    config = NodeConfig(seed=SEED, blocks=2)
    ledger = Ledger.open(path, config)
    alice = ledger.dev_accounts[0]
    signed = transfer(ledger, alice, 0)
    ledger.submit(signed)
    next_block(ledger)
    ledger.close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO mempool (hash, bcs) VALUES (?, ?)", (bytes(signed.hash()), signed.to_bcs())
        )
    reopened = Ledger.open(path, config)
    try:
        assert len(reopened.mempool) == 0
        assert lookup(reopened, signed)["type"] == "user_transaction"
        assert stored_hashes(path) == []
    finally:
        reopened.close()
