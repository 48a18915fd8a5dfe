"""The indexer's passes beside its readers: a pass stops between batches when told, the
file closes only once the thread has ended, a pass failing again and again is logged
once (and its recovery once), a long pass says how far it is, a request's reads see one
state of the tables, and reads do not wait for a pass writing.

Orders of events are forced with events and hooks (a ledger whose transactions wait, a
read that lets a write commit between two statements); no assertion is about time.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.indexer import IndexerDb, IndexerThread, QueryBudget, run_query
from ledgerkit.localnet.ledger import Ledger

#: The last version of the test ledger (4 blocks of seed 3: versions 0 to 16).
HEAD: Final = 16
#: A bound on waits for another thread (never reached when things work).
WAIT_SECONDS: Final = 60.0
STATUS: Final = "{ processor_status { processor last_success_version } }"


@pytest.fixture(scope="module")
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=3, blocks=4))
    assert int(opened.head_within(None).version) == HEAD
    yield opened
    opened.close()


@pytest.fixture
def db(tmp_path: Path) -> Iterator[IndexerDb]:
    made = IndexerDb(tmp_path / "ledger.indexer")
    yield made
    made.close()


class _Reads:
    """A ledger's reads whose ``transactions`` call ``hook`` (with the call's number,
    from 1) before reading."""

    def __init__(self, reads: Any, hook: Any) -> None:
        self._reads = reads
        self._hook = hook
        self.calls = 0

    def transactions(self, start: int, end: int) -> Iterator[bytes]:
        self.calls += 1
        self._hook(self.calls)
        yield from self._reads.transactions(start, end)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reads, name)


class _Store:
    def __init__(self, reads: _Reads) -> None:
        self.reads = reads


class HookedLedger:
    """``ledger`` read through :class:`_Reads`; ``fail`` first calls of ``head_within``
    raise."""

    def __init__(self, ledger: Ledger, hook: Any = None, *, fail: int = 0) -> None:
        self._ledger = ledger
        self.store = _Store(_Reads(ledger.store.reads, hook or (lambda _n: None)))
        self.config = ledger.config
        self._fail = fail

    def head_within(self, window: int | None) -> Any:
        if self._fail:
            self._fail -= 1
            raise RuntimeError("the ledger cannot be read")
        return self._ledger.head_within(window)


def _statuses(db: IndexerDb) -> set[int]:
    answer = run_query(db, {"query": STATUS})
    return {row["last_success_version"] for row in answer["data"]["processor_status"]}


def test_a_pass_told_to_stop_ends_after_the_batch_it_writes(db: IndexerDb, ledger: Ledger) -> None:
    stop = threading.Event()

    def hook(call: int) -> None:
        if call == 2:  # asked to stop while the second batch is being written
            stop.set()

    last = db.catch_up(HookedLedger(ledger, hook), batch=2, stop=stop)
    assert last == 3
    assert db.last_version() == 3
    # Told nothing, the next pass carries on from version 4 to the head.
    assert db.catch_up(ledger, batch=2) == HEAD
    assert _statuses(db) == {HEAD}


def test_stopping_the_indexer_mid_pass_commits_the_batch_then_closes_the_file(
    tmp_path: Path, ledger: Ledger, caplog: pytest.LogCaptureFixture
) -> None:
    db = IndexerDb(tmp_path / "ledger.indexer")
    inside = threading.Event()
    release = threading.Event()
    passes: list[threading.Thread] = []

    def hook(call: int) -> None:
        passes.append(threading.current_thread())
        inside.set()
        assert release.wait(WAIT_SECONDS)

    alive_at_close: list[bool] = []
    close = db.close

    def recorded_close() -> None:
        alive_at_close.append(passes[0].is_alive())
        close()

    db.close = recorded_close  # type: ignore[method-assign]
    thread = IndexerThread(db, HookedLedger(ledger, hook))
    with caplog.at_level(logging.INFO, logger="ledgerkit.localnet"):
        thread.start()
        assert inside.wait(WAIT_SECONDS)
        release.set()
        thread.stop()
        db.close()
    assert alive_at_close == [False]
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    reopened = IndexerDb(tmp_path / "ledger.indexer")
    try:
        assert reopened.last_version() == HEAD
    finally:
        reopened.close()


def test_a_pass_failing_again_and_again_is_logged_once_and_so_is_its_recovery(
    db: IndexerDb, ledger: Ledger, caplog: pytest.LogCaptureFixture
) -> None:
    thread = IndexerThread(db, HookedLedger(ledger, fail=5), retry_seconds=(0.001, 0.004))
    with caplog.at_level(logging.INFO, logger="ledgerkit.localnet"):
        thread.start()
        try:
            waited = threading.Event()
            while db.last_version() != HEAD and not waited.wait(0.01):
                pass
        finally:
            thread.stop()
    assert db.last_version() == HEAD
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [
        "indexing failed; trying again (further failures unlogged)"
    ]
    assert errors[0].exc_info is not None
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        "indexing works again, after 5 failed passes"
    ]


def test_a_long_pass_says_how_far_it_is_and_when_it_is_done(
    db: IndexerDb, ledger: Ledger, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="ledgerkit.localnet"):
        assert db.catch_up(ledger, batch=4, progress_seconds=0.0) == HEAD
    said = [r.getMessage() for r in caplog.records]
    assert said[:4] == [
        "indexer: indexed up to version 3 of 16",
        "indexer: indexed up to version 7 of 16",
        "indexer: indexed up to version 11 of 16",
        "indexer: indexed up to version 15 of 16",
    ]
    assert len(said) == 5
    assert said[4].startswith("indexer: caught up with version 16 in ")
    # A pass quicker than the default pace says nothing.
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="ledgerkit.localnet"):
        assert db.catch_up(ledger) == HEAD
    assert caplog.records == []


def test_a_requests_reads_see_one_state_while_rows_are_written(
    db: IndexerDb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = sqlite3.connect(tmp_path / "ledger.indexer", isolation_level=None)

    def add(version: int) -> None:
        writer.execute(
            "INSERT INTO account_transactions VALUES (?, '0xa', '2026-01-01T00:00:00')",
            (version,),
        )

    for version in (1, 2, 3):
        add(version)
    run = QueryBudget.run
    statements: list[str] = []

    def run_then_write(self: QueryBudget, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        found = run(self, sql, params)
        statements.append(sql)
        if len(statements) == 1:  # a block indexed between the request's statements
            add(4)
        return found

    monkeypatch.setattr(QueryBudget, "run", run_then_write)
    query = (
        '{ counted: account_transactions_aggregate(where: {account_address: {_eq: "0xa"}}) '
        "{ aggregate { count } } "
        'listed: account_transactions(where: {account_address: {_eq: "0xa"}}, '
        "order_by: {transaction_version: asc}) { transaction_version } }"
    )
    assert run_query(db, {"query": query}) == {
        "data": {
            "counted": {"aggregate": {"count": 3}},
            "listed": [{"transaction_version": v} for v in (1, 2, 3)],
        }
    }
    assert len(statements) == 2
    # The next request sees the row written meanwhile, in both.
    answer = run_query(db, {"query": query})
    assert answer["data"]["counted"] == {"aggregate": {"count": 4}}
    assert answer["data"]["listed"][-1] == {"transaction_version": 4}
    writer.close()


def test_a_read_does_not_wait_for_a_pass_writing(db: IndexerDb, ledger: Ledger) -> None:
    inside = threading.Event()
    release = threading.Event()

    def hook(call: int) -> None:  # inside the pass's write transaction
        inside.set()
        assert release.wait(WAIT_SECONDS)

    writing = threading.Thread(target=db.catch_up, args=(HookedLedger(ledger, hook),))
    writing.start()
    try:
        assert inside.wait(WAIT_SECONDS)
        answers: list[dict[str, Any]] = []
        reading = threading.Thread(target=lambda: answers.append(run_query(db, {"query": STATUS})))
        reading.start()
        reading.join(WAIT_SECONDS)
        # The read answered while the pass was still writing: the state before it.
        assert answers == [{"data": {"processor_status": []}}]
        assert writing.is_alive()
    finally:
        release.set()
        writing.join(WAIT_SECONDS)
    assert _statuses(db) == {HEAD}


def test_ledgerkit_node_shows_a_long_catch_up_on_standard_error(
    db: IndexerDb,
    ledger: Ledger,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ledgerkit.localnet._foreground import indexer_progress_shown

    monkeypatch.setattr(logging.getLogger(), "handlers", [])  # logging as a shell leaves it
    with indexer_progress_shown():
        assert db.catch_up(ledger, batch=8, progress_seconds=0.0) == HEAD
    said = capsys.readouterr().err.splitlines()
    assert said[:2] == [
        "ledgerkit: indexer: indexed up to version 7 of 16",
        "ledgerkit: indexer: indexed up to version 15 of 16",
    ]
    assert len(said) == 3
    assert said[2].startswith("ledgerkit: indexer: caught up with version 16 in ")
    # Once the node has stopped, its lines are no longer shown.
    logging.getLogger("ledgerkit.localnet.indexer").info("indexer: a line after")
    assert capsys.readouterr().err == ""
