"""The snapshot store (format version 2): recorded answers appended to one SQLite file as
they arrive, and read back one at a time, so that recording and replaying hold no more of
a session in memory than the answer at hand, however long the session.

Why SQLite: it comes with Python (``sqlite3``), it is one file that is safe to commit and
copy, its write-ahead log makes every committed transaction survive a process killed
with ``kill -9`` (the file stays readable up to the last commit, never half-written), its
B-tree indexes find an answer by its request without reading the others, and its own
``integrity_check`` tells a damaged file from a sound one. A format of our own (chunks
and an index in a flat file) would have to re-invent each of those.

The layout of the file is in :mod:`._layout`.

A single writer thread takes the answers from a bounded queue (the recording client waits
when it is full, so memory stays bounded), a few at a time, hashes and compresses their
bodies, writes them with one statement per table, and commits them in chunks: every
:data:`CHUNK_ANSWERS` answers, or a second after the first answer not yet committed, and
when the snapshot is saved. A recording killed with ``kill -9`` replays up to its last
committed chunk. Saving leaves one file, its log folded in (journal mode ``DELETE``),
safe to commit.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ledgerkit._errors import SnapshotError
from ledgerkit.client.snapshot._codec import CODEC, CODECS, compress
from ledgerkit.client.snapshot._file import FORMAT, RecordedAnswer, RequestKey
from ledgerkit.client.snapshot._layout import (
    ANSWER_QUERY,
    APPLICATION_ID,
    SCHEMA,
    SQLITE_MAGIC,
    STORE_VERSION,
    StoredAnswer,
    declared_bytes,
    header_pairs,
    inflate,
)

__all__ = [
    "CHUNK_ANSWERS",
    "CHUNK_SECONDS",
    "SQLITE_MAGIC",
    "STORE_VERSION",
    "SnapshotStore",
    "StoredAnswer",
    "inflate",
]

#: Answers committed together (fewer when a second has passed since the first of them).
CHUNK_ANSWERS: Final = 64
CHUNK_SECONDS: Final = 1.0
#: Answers waiting for the writer at most; past it the recording client waits.
_QUEUED: Final = 32
#: Answers the writer takes off the queue and writes together at most.
_BATCH: Final = 16
#: Seconds the writer thread waits idle before it ends (the next answer starts another).
_IDLE: Final = 2.0


@dataclass(frozen=True, slots=True)
class _Pending:
    key: RequestKey
    content_type: str | None
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


class SnapshotStore:
    """One snapshot file of format version 2, opened to record (:meth:`create`) or to
    replay (:meth:`open`). Thread-safe: one lock guards the connection, one writer
    thread writes."""

    def __init__(self, path: Path, *, writable: bool, max_bytes: int) -> None:
        self.path = path
        self.writable = writable
        self.max_bytes = max_bytes
        self._lock = threading.RLock()
        self._connection: sqlite3.Connection | None = None
        self._wal = False
        self._queue: queue.Queue[Any] = queue.Queue(_QUEUED)
        self._thread: threading.Thread | None = None
        self._thread_lock = threading.Lock()
        self._failure: BaseException | None = None
        self._uncommitted = 0
        self.recorded_at = 0.0
        self.codec: str = CODEC

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, recorded_at: float) -> SnapshotStore:
        """A new, empty store at ``path``, replacing any file there."""
        store = cls(path, writable=True, max_bytes=0)
        store.recorded_at = recorded_at
        path.parent.mkdir(parents=True, exist_ok=True)
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        connection = store._connect(writing=True)
        with connection:
            connection.executescript(SCHEMA)
            connection.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("format", FORMAT),
                    ("version", str(STORE_VERSION)),
                    ("recorded_at", repr(float(recorded_at))),
                    ("compression", CODEC),
                ],
            )
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        return store

    @classmethod
    def open(cls, path: Path, *, max_bytes: int) -> SnapshotStore:
        """The store at ``path``, to replay; checked to be a snapshot of this version."""
        store = cls(path, writable=False, max_bytes=max_bytes)
        store.recorded_at = store._check()
        return store

    def _connect(self, *, writing: bool = False) -> sqlite3.Connection:
        """The connection, opened if need be; ``writing``: in WAL mode, where each commit
        survives the process (a store that was closed and is only read stays as it was
        left, one file)."""
        if self._connection is None:
            if self.writable:
                connection = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
                connection.execute("PRAGMA synchronous = NORMAL")
            else:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                connection = sqlite3.connect(uri, uri=True, timeout=10, check_same_thread=False)
            self._connection = connection
            self._wal = False
        if writing and not self._wal:
            if self._connection.in_transaction:
                self._connection.commit()
            self._connection.execute("PRAGMA journal_mode = WAL").fetchall()
            self._wal = True
        return self._connection

    def _check(self) -> float:
        name = self.path.name
        declared = declared_bytes(self.path)
        log = Path(f"{self.path}-wal")
        if declared is not None and self.path.stat().st_size < declared and not log.exists():
            raise SnapshotError(f"snapshot {name}: truncated (the database ends early)")
        try:
            with self._lock:
                rows = dict(self._connect().execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error as exc:
            self.close()
            raise SnapshotError(f"snapshot {name}: not a snapshot, or corrupt ({exc})") from None
        if rows.get("format") != FORMAT:
            self.close()
            raise SnapshotError(f"snapshot {name}: not a ledgerkit snapshot")
        version = rows.get("version")
        if version != str(STORE_VERSION):
            self.close()
            raise SnapshotError(
                f"snapshot {name}: format version {version}; this ledgerkit reads versions "
                f"1 and {STORE_VERSION}"
            )
        codec = rows.get("compression")
        if codec not in CODECS:
            self.close()
            raise SnapshotError(f"snapshot {name}: bodies compressed with {codec!r}, unknown")
        self.codec = codec
        try:
            return float(rows.get("recorded_at", "0"))
        except ValueError:
            self.close()
            raise SnapshotError(f"snapshot {name}: meta.recorded_at is not a time") from None

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock; an SQLite fault is a :class:`SnapshotError`."""
        try:
            with self._lock:
                yield self._connect()
        except sqlite3.Error as exc:
            raise SnapshotError(f"snapshot {self.path.name}: cannot be read ({exc})") from None

    # -- reading -------------------------------------------------------------------------

    def base_urls(self) -> tuple[str, ...]:
        with self._reading() as connection:
            rows = connection.execute("SELECT url FROM base_urls ORDER BY position").fetchall()
        return tuple(url for (url,) in rows)

    def requests(self) -> tuple[RequestKey, ...]:
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT method, url, accept, body_sha256 FROM requests ORDER BY id"
            ).fetchall()
        return tuple(RequestKey(m, u, a, s or None) for m, u, a, s in rows)

    def count(self, table: str = "answers") -> int:
        """The rows of ``answers`` or of ``requests``."""
        if table not in ("answers", "requests"):
            raise ValueError(f"no table {table!r} to count")
        with self._reading() as connection:
            (count,) = connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
        return int(count)

    def answer(self, key: RequestKey, served: int) -> RecordedAnswer | None:
        """The answer at position ``served`` of ``key`` (the last one past the end)."""
        where = f"snapshot {self.path.name}"
        with self._reading() as connection:
            row = connection.execute(
                ANSWER_QUERY, (key.method, key.url, key.accept, key.body_sha256 or "", served)
            ).fetchone()
        if row is None:
            return None
        status, headers, size, data, sha = row
        if sha is None or not isinstance(data, bytes) or not isinstance(size, int):
            raise SnapshotError(f"{where}: an answer's body is missing")
        if not isinstance(status, int) or not 100 <= status <= 599:
            raise SnapshotError(f"{where}: an answer's status is not an HTTP status")
        body = inflate(data, size, self.max_bytes, where, self.codec)
        return RecordedAnswer(status, header_pairs(str(headers), where), body)

    def stored_answers(self) -> Iterator[StoredAnswer]:
        """Every answer in the order it arrived, read a chunk at a time."""
        last = -1
        where = f"snapshot {self.path.name}"
        while True:
            with self._reading() as connection:
                rows = connection.execute(
                    "SELECT answers.seq, requests.method, requests.url, requests.accept, "
                    "requests.body_sha256, requests.content_type, answers.position, "
                    "answers.status, answers.headers, answers.body, bodies.size FROM answers "
                    "LEFT JOIN requests ON requests.id = answers.request "
                    "LEFT JOIN bodies ON bodies.sha256 = answers.body "
                    "WHERE answers.seq > ? ORDER BY answers.seq LIMIT 1000",
                    (last,),
                ).fetchall()
            if not rows:
                return
            for row in rows:
                seq, method, url, accept, sha, content_type, position, status = row[:8]
                last = seq
                if method is None:
                    raise SnapshotError(f"{where}: answer {seq} has no request")
                key = RequestKey(method, url, accept, sha or None)
                pairs = header_pairs(str(row[8]), where)
                yield StoredAnswer(key, content_type, position, status, pairs, str(row[9]), row[10])

    def bodies(self) -> Iterator[tuple[str, int, bytes]]:
        """Every distinct body: its hash, its size and its compressed bytes."""
        last = ""
        while True:
            with self._reading() as connection:
                rows = connection.execute(
                    "SELECT sha256, size, data FROM bodies WHERE sha256 > ? "
                    "ORDER BY sha256 LIMIT 100",
                    (last,),
                ).fetchall()
            if not rows:
                return
            for sha, size, data in rows:
                last = sha
                yield str(sha), int(size), bytes(data)

    def totals(self) -> tuple[int, int, int]:
        """The distinct bodies: how many, their bytes uncompressed and as stored."""
        with self._reading() as connection:
            row = connection.execute(
                "SELECT COUNT(*), COALESCE(SUM(size), 0), COALESCE(SUM(LENGTH(data)), 0) "
                "FROM bodies"
            ).fetchone()
        return int(row[0]), int(row[1]), int(row[2])

    def integrity(self) -> list[str]:
        """What SQLite's ``integrity_check`` finds wrong (nothing for a sound file)."""
        with self._reading() as connection:
            rows = connection.execute("PRAGMA integrity_check").fetchall()
        return [str(message) for (message,) in rows if message != "ok"]

    # -- recording -----------------------------------------------------------------------

    def add_base_url(self, url: str) -> None:
        self.flush()  # a base URL is committed at once, with what came before it
        with self._reading() as connection, connection:
            connection.execute("INSERT OR IGNORE INTO base_urls (url) VALUES (?)", (url,))

    def put(
        self,
        key: RequestKey,
        content_type: str | None,
        status: int,
        headers: tuple[tuple[str, str], ...],
        body: bytes,
    ) -> None:
        """Queue an answer for the writer (waits while the queue is full)."""
        self._raise_failure()
        self._ensure_writer()
        self._queue.put(_Pending(key, content_type, status, headers, body))
        self._ensure_writer()

    def _raise_failure(self) -> None:
        failure, self._failure = self._failure, None
        if failure is not None:
            raise SnapshotError(
                f"snapshot {self.path.name}: an answer could not be written ({failure})"
            ) from failure

    def _ensure_writer(self) -> None:
        with self._thread_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._write, name="ledgerkit-snapshot-writer", daemon=True
                )
                self._thread.start()

    def _write(self) -> None:
        """The writer thread: takes answers off the queue, a few at a time, and commits
        them in chunks."""
        first_pending = 0.0
        while True:
            if self._uncommitted:
                wait = max(0.0, first_pending + CHUNK_SECONDS - time.monotonic())
            else:
                wait = _IDLE
            try:
                item = self._queue.get(timeout=wait)
            except queue.Empty:
                if self._uncommitted:
                    self._commit()
                    continue
                with self._thread_lock:
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            batch = [item]
            room = min(_BATCH, CHUNK_ANSWERS - self._uncommitted)
            with contextlib.suppress(queue.Empty):
                while len(batch) < room:
                    batch.append(self._queue.get_nowait())
            try:
                if not self._uncommitted:
                    first_pending = time.monotonic()
                self._insert(batch)
                if self._uncommitted >= CHUNK_ANSWERS:
                    self._commit()
            except BaseException as exc:  # handed to the recording client at its next answer
                self._failure = exc
            finally:
                for _ in batch:
                    self._queue.task_done()

    def _insert(self, batch: list[_Pending]) -> None:
        """Write ``batch``: each new body hashed and compressed (both free the GIL, and
        outside the lock, so that readers need not wait), then one statement per table
        for all of them."""
        digests = [hashlib.sha256(item.body).hexdigest() for item in batch]
        marks = ", ".join("?" * len(set(digests)))
        with self._lock:
            connection = self._connect()
            known = {
                sha
                for (sha,) in connection.execute(
                    f"SELECT sha256 FROM bodies WHERE sha256 IN ({marks})", tuple(set(digests))
                )
            }
        new: dict[str, tuple[str, int, bytes]] = {}
        for digest, item in zip(digests, batch, strict=True):
            if digest not in known and digest not in new:
                new[digest] = (digest, len(item.body), compress(item.body, self.codec))
        requests = [
            (item.key.method, item.key.url, item.key.accept, item.key.body_sha256 or "")
            for item in batch
        ]
        with self._lock:
            connection.executemany(
                "INSERT OR IGNORE INTO bodies (sha256, size, data) VALUES (?, ?, ?)",
                new.values(),
            )
            connection.executemany(
                "INSERT OR IGNORE INTO requests (method, url, accept, body_sha256, content_type) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    (*request, item.content_type)
                    for request, item in zip(requests, batch, strict=True)
                ),
            )
            # Each answer's position is one past its request's last, the answers of the
            # batch before it counted.
            connection.executemany(
                "INSERT INTO answers (request, position, status, headers, body) "
                "SELECT id, (SELECT COALESCE(MAX(position) + 1, 0) FROM answers "
                "WHERE request = requests.id), ?, ?, ? FROM requests "
                "WHERE method = ? AND url = ? AND accept = ? AND body_sha256 = ?",
                (
                    (item.status, json.dumps(item.headers), digest, *request)
                    for item, digest, request in zip(batch, digests, requests, strict=True)
                ),
            )
            self._uncommitted += len(batch)

    def _commit(self) -> None:
        with self._lock:
            if self._connection is not None and self._connection.in_transaction:
                self._connection.commit()
            self._uncommitted = 0

    def flush(self) -> None:
        """Wait until every queued answer is written, and commit them."""
        if not self.writable:
            return
        self._queue.join()
        try:
            self._commit()
        except sqlite3.Error as exc:
            raise SnapshotError(f"snapshot {self.path.name}: cannot be written ({exc})") from None
        self._raise_failure()

    def save(self, target: Path | None = None) -> Path:
        """Commit everything and leave one file (its log folded in): the store's own, or a
        copy at ``target``, replaced at once."""
        self.flush()
        if target is None or target.resolve() == self.path.resolve():
            self.close()
            return self.path
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.close(fd)
        try:
            copy = sqlite3.connect(temporary)
            try:
                with self._reading() as connection:
                    connection.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return target

    def close(self) -> None:
        """Commit what is written and close the file (opened again when next needed);
        a recorded file is left as one file, its log folded in."""
        with self._lock:
            connection, self._connection = self._connection, None
            if connection is None:
                return
            try:
                if self.writable:
                    if connection.in_transaction:
                        connection.commit()
                    # Fails while another connection reads the file: it stays in WAL mode.
                    with contextlib.suppress(sqlite3.OperationalError):
                        connection.execute("PRAGMA journal_mode = DELETE").fetchall()
            finally:
                connection.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            if self._connection is not None:
                self._connection.close()
