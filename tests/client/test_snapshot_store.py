"""The snapshot store (format version 2): memory that does not grow with the session,
each body stored once, a recording killed with SIGKILL replayed up to its last committed
chunk, files of version 1 still replayed, and a damaged file refused with a typed error.
"""

from __future__ import annotations

import asyncio
import hashlib
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import tracemalloc
import zlib
from pathlib import Path

import httpx
import pytest

import ledgerkit
from ledgerkit import SnapshotError, SnapshotMissError
from ledgerkit.client.snapshot import Snapshot, snapshot_info, verify_snapshot

URL = "http://node.test/v1"
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_SNAPSHOT = ROOT / "notebooks" / "08-public-network.snapshot"
HEADERS = [("content-type", "application/json"), ("x-node-chain-id", "4")]


def _request(n: int) -> httpx.Request:
    return httpx.Request("GET", f"{URL}/transactions/by_version/{n}")


def _body(n: int, size: int = 10_000) -> bytes:
    """A body of ``size`` bytes of its own (hashes, so that zlib cannot shrink it away)."""
    seed = hashlib.sha256(str(n).encode()).hexdigest()
    return (seed * (size // 64 + 1))[:size].encode()


def _recording_peak(path: Path, answers: int, version: int) -> int:
    """The peak bytes traced while ``answers`` answers of 10 kB are recorded and saved."""
    tracemalloc.start()
    try:
        snapshot = Snapshot(path, version=version)
        for n in range(answers):
            snapshot.record(_request(n), 200, HEADERS, _body(n))
        snapshot.save()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_recording_does_not_hold_the_answers_in_memory(tmp_path: Path) -> None:
    small = _recording_peak(tmp_path / "small.snapshot", 200, 2)
    large = _recording_peak(tmp_path / "large.snapshot", 2_000, 2)
    # 1,800 more answers of 10 kB are 18 MB; the store's peak grows by less than 2 MB.
    assert large - small < 2_000_000
    assert len(Snapshot.load(tmp_path / "large.snapshot")) == 2_000
    # The measure sees what is held: a version 1 snapshot keeps them all until saved.
    held = _recording_peak(tmp_path / "v1.snapshot", 2_000, 1)
    assert held - small > 18_000_000


def test_replaying_reads_each_answer_when_asked(tmp_path: Path) -> None:
    def replay_peak(answers: int) -> int:
        path = tmp_path / f"{answers}.snapshot"
        recording = Snapshot(path)
        for n in range(answers):
            recording.record(_request(n), 200, HEADERS, _body(n))
        recording.save()
        tracemalloc.start()
        try:
            replaying = Snapshot.load(path)
            for n in range(answers):
                assert replaying.answer(_request(n)).body == _body(n)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = replay_peak(200), replay_peak(2_000)
    assert large - small < 2_000_000


def test_the_same_body_is_stored_once(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    recording = Snapshot(path)
    same = b'{"chain_id":4,"ledger_version":"77"}'
    recording.record(httpx.Request("GET", f"{URL}/"), 200, HEADERS, same)
    recording.record(httpx.Request("GET", f"{URL}/"), 200, HEADERS, same)
    recording.record(httpx.Request("GET", f"{URL}/blocks/by_height/1"), 200, HEADERS, same)
    recording.record(httpx.Request("GET", f"{URL}/blocks/by_height/2"), 200, HEADERS, b"{}")
    recording.save()
    info = snapshot_info(path)
    assert (info.requests, info.answers, info.bodies) == (3, 4, 2)
    assert info.body_bytes == len(same) + 2
    with sqlite3.connect(path) as db:
        sizes = sorted(size for (size,) in db.execute("SELECT size FROM bodies"))
    db.close()
    assert sizes == [2, 36]
    replaying = Snapshot.load(path)
    assert replaying.answer(httpx.Request("GET", f"{URL}/blocks/by_height/1")).body == same


def test_answers_recorded_from_many_threads_and_tasks_are_all_kept(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    recording = Snapshot(path)

    def thread(number: int) -> None:
        for n in range(50):
            # Each thread asks its own page and the shared ledger info.
            recording.record(_request(number * 1_000 + n), 200, HEADERS, b"%d" % n)
            recording.record(httpx.Request("GET", f"{URL}/"), 200, HEADERS, b"info")

    async def tasks() -> None:
        async def task(number: int) -> None:
            for n in range(50):
                recording.record(_request(number * 1_000 + n), 200, HEADERS, b"%d" % n)
                await asyncio.sleep(0)

        await asyncio.gather(*(task(number) for number in range(8, 12)))

    threads = [threading.Thread(target=thread, args=(number,)) for number in range(8)]
    for started in threads:
        started.start()
    asyncio.run(tasks())
    for started in threads:
        started.join()
    recording.save()
    info = snapshot_info(path)
    # 12 x 50 pages, and the ledger info asked 8 x 50 times: 1 + 600 requests.
    assert (info.requests, info.answers, info.bodies) == (601, 1_000, 51)
    replaying = Snapshot.load(path)
    assert replaying.answer(_request(11_049)).body == b"49"
    assert [replaying.answer(httpx.Request("GET", f"{URL}/")).body for _ in range(2)] == [
        b"info",
        b"info",
    ]


# -- kill -9 -------------------------------------------------------------------------------

_RECORDER = """
import sys, time, httpx
from ledgerkit.client.snapshot import Snapshot

snapshot = Snapshot(sys.argv[1])
headers = [("content-type", "application/json")]
for n in range(200):
    request = httpx.Request("GET", f"http://node.test/v1/transactions/by_version/{n}")
    snapshot.record(request, 200, headers, b'{"version":"%d"}' % n)
time.sleep(3)  # the writer commits what waited a second
for n in range(200, 210):
    request = httpx.Request("GET", f"http://node.test/v1/transactions/by_version/{n}")
    snapshot.record(request, 200, headers, b'{"version":"%d"}' % n)
print("recorded", flush=True)
time.sleep(60)
"""


def test_a_recording_killed_with_sigkill_replays_its_committed_answers(tmp_path: Path) -> None:
    path = tmp_path / "killed.snapshot"
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_RECORDER), str(path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "recorded\n"
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    replaying = Snapshot.load(path)
    answered = []
    for n in range(210):
        try:
            answered.append(replaying.answer(_request(n)).body)
        except SnapshotMissError:
            break
    # The first 200 were committed before the kill; of the last 10, those whose chunk
    # was committed in time, in order.
    assert 200 <= len(answered) <= 210
    assert answered[:3] == [b'{"version":"0"}', b'{"version":"1"}', b'{"version":"2"}']
    assert answered[199] == b'{"version":"199"}'
    assert len(replaying) == len(answered)
    assert verify_snapshot(path) == []  # what was committed is sound


# -- version 1 -----------------------------------------------------------------------------


def test_the_notebooks_version_1_file_still_replays() -> None:
    replaying = Snapshot.load(NOTEBOOK_SNAPSHOT)
    assert replaying.version == 1
    assert replaying.base_urls == ("http://127.0.0.1:36191/v1",)
    assert len(replaying) == 21
    with ledgerkit.connect(replay=NOTEBOOK_SNAPSHOT) as client:
        info = client.ledger_info().value
        assert (info.chain_id, info.ledger_version) == (4, 1478)
        assert client.transaction_by_version(1478).value.version == 1478


def test_connect_records_version_2_and_version_1_can_still_be_written(tmp_path: Path) -> None:
    node = httpx.MockTransport(lambda request: httpx.Response(200, json={"chain_id": 4}))
    with ledgerkit.connect(URL, record=tmp_path / "new.snapshot", transport=node) as client:
        assert client.snapshot is not None
        assert client.snapshot.version == 2
    assert (tmp_path / "new.snapshot").read_bytes()[:16] == b"SQLite format 3\x00"
    # Closed, the recording is one file to commit: its write-ahead log folded in.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["new.snapshot"]
    old = Snapshot(tmp_path / "old.snapshot", version=1)
    old.record(_request(1), 200, HEADERS, b"{}")
    old.save()
    assert (tmp_path / "old.snapshot").read_bytes()[:2] == b"\x1f\x8b"
    assert Snapshot.load(tmp_path / "old.snapshot").answer(_request(1)).body == b"{}"


# -- damage --------------------------------------------------------------------------------


def _store(tmp_path: Path, answers: int = 300) -> Path:
    path = tmp_path / "valid.snapshot"
    recording = Snapshot(path)
    for n in range(answers):
        recording.record(_request(n), 200, HEADERS, _body(n, 2_000))
    recording.save()
    return path


def _rewrite(path: Path, sql: str, *parameters: object) -> None:
    with sqlite3.connect(path) as db:
        db.execute(sql, parameters)
    db.close()


def _replay_all(path: Path, answers: int) -> None:
    replaying = Snapshot.load(path)
    for n in range(answers):
        replaying.answer(_request(n))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda raw: raw[: len(raw) // 2], "truncated"),
        (lambda raw: raw[:4096] + bytes(len(raw) - 4096), "not a snapshot, or corrupt"),
        (lambda raw: raw[:100] + b"\xff" * 3996 + raw[4096:], "not a snapshot, or corrupt"),
    ],
    ids=["truncated", "zeroed", "schema-overwritten"],
)
def test_a_damaged_store_is_a_snapshot_error(tmp_path: Path, damage: object, message: str) -> None:
    raw = _store(tmp_path).read_bytes()
    path = tmp_path / "damaged.snapshot"
    path.write_bytes(damage(raw))  # type: ignore[operator]
    with pytest.raises(SnapshotError, match=message):
        _replay_all(path, 300)


def test_a_tampered_body_is_a_snapshot_error_when_replayed(tmp_path: Path) -> None:
    path = _store(tmp_path, 3)
    _rewrite(path, "UPDATE bodies SET data = ?", b"not zlib at all")
    replaying = Snapshot.load(path)
    with pytest.raises(SnapshotError, match="an answer body is corrupt"):
        replaying.answer(_request(0))


def test_another_database_or_a_newer_version_is_a_snapshot_error(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    with pytest.raises(SnapshotError, match="not a snapshot, or corrupt"):
        Snapshot.load(other)
    path = _store(tmp_path, 1)
    _rewrite(path, "UPDATE meta SET value = '9' WHERE key = 'version'")
    with pytest.raises(
        SnapshotError, match="format version 9; this ledgerkit reads versions 1 and 2"
    ):
        ledgerkit.connect(replay=path)


def test_an_answer_larger_than_allowed_is_a_snapshot_error(tmp_path: Path) -> None:
    path = _store(tmp_path, 1)
    replaying = Snapshot.load(path, max_bytes=1_000)
    with pytest.raises(SnapshotError, match="an answer of 2000 bytes, more than the 1000"):
        replaying.answer(_request(0))


def test_a_saved_copy_is_one_complete_file(tmp_path: Path) -> None:
    recording = Snapshot()
    recording.record(_request(7), 200, HEADERS, zlib.compress(b"bcs bytes"))
    copy = recording.save(tmp_path / "copy.snapshot")
    assert not Path(f"{copy}-wal").exists()
    assert Snapshot.load(copy).answer(_request(7)).body == zlib.compress(b"bcs bytes")
    again = Snapshot.load(copy).save(tmp_path / "again.snapshot")  # a replayed one copied
    assert Snapshot.load(again).answer(_request(7)).body == zlib.compress(b"bcs bytes")
