"""What a snapshot file holds (:func:`snapshot_info`) and whether it is sound and free of
secrets (:func:`verify_snapshot`), for files of either format version; the
``ledgerkit snapshot info`` and ``ledgerkit snapshot verify`` commands print them.
"""

from __future__ import annotations

import hashlib
import os
import re
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from ledgerkit._errors import SnapshotError
from ledgerkit.client._config import REDACTED, is_secret_name, shown_url
from ledgerkit.client.snapshot._file import MAX_SNAPSHOT_BYTES, read_snapshot
from ledgerkit.client.snapshot._store import SQLITE_MAGIC, SnapshotStore, StoredAnswer, inflate

__all__ = ["SnapshotInfo", "snapshot_info", "verify_snapshot"]

#: A bearer token that is not the redacted ``***``.
_BEARER: Final = re.compile(rb"Bearer\s+(?!\*\*\*)[A-Za-z0-9._~+/=-]{8,}", re.I)
#: A path segment that looks like an access token: long, of letters and digits mixed.
_TOKEN_SEGMENT: Final = re.compile(r"(?=[^/]*[A-Za-z])(?=[^/]*[0-9])[A-Za-z0-9_-]{24,}")
#: Problems listed at most; past it they are counted.
_LISTED: Final = 20


@dataclass(frozen=True)
class SnapshotInfo:
    """What a snapshot file holds.

    Attributes
    ----------
    version : int
        The file's format version (1: one gzip JSON document; 2: the SQLite store).
    requests, answers : int
        Distinct requests, and the answers to them (a request asked again may have
        several).
    bodies : int
        Distinct answer bodies (each stored once in version 2).
    file_bytes : int
        Bytes on disk (with the write-ahead log a stopped recording left).
    body_bytes : int
        The distinct bodies' bytes, uncompressed.
    chain_ids : tuple of int
        The chain ids the ledger headers of the answers name.
    ledger_versions : (int, int) or None
        The lowest and highest ledger version the answers' ledger headers report: where
        the node stood when it answered.
    versions_read : (int, int) or None
        The lowest and highest transaction version the requests asked for: the range of
        ``/transactions?start=&limit=`` pages and ``/transactions/by_version/N``.
    base_urls : tuple of str
        The API roots recorded, as shown.
    recorded_at : float
        When recording began (POSIX seconds).
    """

    path: Path
    version: int
    requests: int
    answers: int
    bodies: int
    file_bytes: int
    body_bytes: int
    chain_ids: tuple[int, ...]
    ledger_versions: tuple[int, int] | None
    versions_read: tuple[int, int] | None
    base_urls: tuple[str, ...]
    recorded_at: float

    def lines(self) -> list[str]:
        """The info as ``name: value`` lines."""

        def span(pair: tuple[int, int] | None) -> str:
            return "none" if pair is None else f"{pair[0]}..{pair[1]}"

        when = datetime.fromtimestamp(self.recorded_at, tz=UTC)
        return [
            f"snapshot: {self.path.name}",
            f"format version: {self.version}",
            f"requests: {self.requests}",
            f"answers: {self.answers}",
            f"distinct bodies: {self.bodies}",
            f"bytes on disk: {self.file_bytes}",
            f"bytes uncompressed: {self.body_bytes}",
            f"chain: {', '.join(map(str, self.chain_ids)) or 'unknown'}",
            f"ledger versions (answer headers): {span(self.ledger_versions)}",
            f"transaction versions asked (URLs): {span(self.versions_read)}",
            f"base urls: {', '.join(self.base_urls) or 'none'}",
            f"recorded at: {when.isoformat(timespec='seconds')}",
        ]


@dataclass(frozen=True)
class _Answer:
    url: str
    headers: tuple[tuple[str, str], ...]


class _Tally:
    """The ranges of the headers and URLs seen, one answer at a time."""

    def __init__(self) -> None:
        self.chain_ids: set[int] = set()
        self.ledger: tuple[int, int] | None = None
        self.read: tuple[int, int] | None = None

    @staticmethod
    def _widen(pair: tuple[int, int] | None, low: int, high: int) -> tuple[int, int]:
        return (low, high) if pair is None else (min(pair[0], low), max(pair[1], high))

    def add(self, answer: _Answer) -> None:
        for name, value in answer.headers:
            if not value.isdigit():
                continue
            if name.endswith("-chain-id"):
                self.chain_ids.add(int(value))
            elif name.endswith("-ledger-version") and not name.endswith("-oldest-version"):
                self.ledger = self._widen(self.ledger, int(value), int(value))
        asked = _versions_asked(answer.url)
        if asked is not None:
            self.read = self._widen(self.read, *asked)


def _versions_asked(url: str) -> tuple[int, int] | None:
    parts = urllib.parse.urlsplit(url)
    segments = [segment for segment in parts.path.split("/") if segment]
    if len(segments) >= 3 and segments[-3:-1] == ["transactions", "by_version"]:
        return (int(segments[-1]),) * 2 if segments[-1].isdigit() else None
    if segments and segments[-1] == "transactions":
        query = dict(urllib.parse.parse_qsl(parts.query))
        start, limit = query.get("start", ""), query.get("limit", "")
        if start.isdigit():
            last = int(start) + max(int(limit) - 1, 0) if limit.isdigit() else int(start)
            return int(start), last
    return None


def _file_bytes(path: Path) -> int:
    log = Path(f"{path}-wal")
    return path.stat().st_size + (log.stat().st_size if log.exists() else 0)


def _is_store(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError as exc:
        raise SnapshotError(f"snapshot {path}: cannot be read ({exc.strerror})") from None


def snapshot_info(path: str | os.PathLike[str]) -> SnapshotInfo:
    """What the snapshot file at ``path`` holds (either format version).

    Raises
    ------
    SnapshotError
        The file cannot be read, or is not a snapshot.
    """
    where = Path(path)
    tally = _Tally()
    if _is_store(where):
        store = SnapshotStore.open(where, max_bytes=MAX_SNAPSHOT_BYTES)
        try:
            answers = 0
            for stored in store.stored_answers():
                answers += 1
                tally.add(_Answer(stored.key.url, stored.headers))
            bodies, body_bytes, _ = store.totals()
            requests = store.count("requests")
            return SnapshotInfo(
                where, 2, requests, answers, bodies, _file_bytes(where), body_bytes,
                tuple(sorted(tally.chain_ids)), tally.ledger, tally.read, store.base_urls(),
                store.recorded_at,
            )  # fmt: skip
        finally:
            store.close()
    data = read_snapshot(where, max_bytes=MAX_SNAPSHOT_BYTES)
    distinct: dict[bytes, int] = {}
    answers = 0
    for key, recorded in data.answers.items():
        for answer in recorded:
            answers += 1
            distinct[hashlib.sha256(answer.body).digest()] = len(answer.body)
            tally.add(_Answer(key.url, answer.headers))
    return SnapshotInfo(
        where, 1, len(data.answers), answers, len(distinct), _file_bytes(where),
        sum(distinct.values()), tuple(sorted(tally.chain_ids)), tally.ledger, tally.read,
        tuple(data.base_urls), data.recorded_at,
    )  # fmt: skip


def _secret_faults(
    url: str, headers: tuple[tuple[str, str], ...], base_urls: tuple[str, ...]
) -> Iterator[str]:
    """Where a secret shows in a request's URL or an answer's headers."""
    parts = urllib.parse.urlsplit(url)
    for name, value in urllib.parse.parse_qsl(parts.query):
        if is_secret_name(name) and value != REDACTED:
            yield f"{url.split('?')[0]}: query parameter {name} holds a value that is not ***"
    known = any(url.startswith(base.rstrip("/") + "/") for base in base_urls)
    if not known and any(_TOKEN_SEGMENT.fullmatch(part) for part in parts.path.split("/")):
        yield f"{parts.scheme}://{parts.netloc}: a URL path holds a token-like segment"
    for name, value in headers:
        if is_secret_name(name) and value != REDACTED:
            yield f"{url}: header {name} holds a value that is not ***"
        elif _BEARER.search(value.encode("utf-8", "replace")):
            yield f"{url}: header {name} holds a bearer token"


def verify_snapshot(
    path: str | os.PathLike[str], *, max_bytes: int = MAX_SNAPSHOT_BYTES
) -> list[str]:
    """What is wrong with the snapshot file at ``path``: an empty list for a sound file
    with no secret in it.

    Checked: the file decodes (version 1) or passes SQLite's ``integrity_check`` (version
    2); each body's SHA-256 and size match what it is stored under; every answer's body
    is there; no base URL shows more than the client shows (a token in the path hidden);
    no request URL, answer header or body holds a bearer token, a credential-named header
    or query parameter whose value is not ``***``, or (outside the base URLs) a
    token-like path segment.
    """
    where = Path(path)
    problems: list[str] = []
    if not _is_store(where):
        try:
            data = read_snapshot(where, max_bytes=max_bytes)
        except SnapshotError as exc:
            return [str(exc)]
        base_urls = tuple(data.base_urls)
        problems += _base_url_faults(base_urls)
        for key, recorded in data.answers.items():
            for answer in recorded:
                problems += _secret_faults(key.url, answer.headers, base_urls)
                if _BEARER.search(answer.body):
                    problems.append(f"{key.url}: an answer body holds a bearer token")
        return _listed(problems)
    try:
        store = SnapshotStore.open(where, max_bytes=max_bytes)
    except SnapshotError as exc:
        return [str(exc)]
    try:
        problems += [f"sqlite integrity_check: {fault}" for fault in store.integrity()]
        base_urls = store.base_urls()
        problems += _base_url_faults(base_urls)
        for sha, size, stored in store.bodies():
            problems += _body_faults(sha, size, stored, max_bytes, where.name, store.codec)
        for kept in store.stored_answers():
            problems += _answer_faults(kept, base_urls)
    except SnapshotError as exc:
        problems.append(str(exc))
    finally:
        store.close()
    return _listed(problems)


def _base_url_faults(base_urls: tuple[str, ...]) -> list[str]:
    return [
        f"base URL {shown_url(url)} is recorded with more of its path than the client shows"
        for url in base_urls
        if shown_url(url) != url
    ]


def _body_faults(
    sha: str, size: int, data: bytes, max_bytes: int, name: str, codec: str
) -> list[str]:
    try:
        body = inflate(data, size, max_bytes, f"snapshot {name}", codec)
    except SnapshotError:
        return [f"body {sha[:16]}: corrupt (does not decompress to its recorded size)"]
    faults = []
    if hashlib.sha256(body).hexdigest() != sha:
        faults.append(f"body {sha[:16]}: its SHA-256 does not match (tampered or corrupt)")
    if _BEARER.search(body):
        faults.append(f"body {sha[:16]}: holds a bearer token")
    return faults


def _answer_faults(stored: StoredAnswer, base_urls: tuple[str, ...]) -> list[str]:
    faults = list(_secret_faults(stored.key.url, stored.headers, base_urls))
    if stored.body_size is None:
        faults.append(f"{stored.key}: answer {stored.position} has no body stored")
    return faults


def _listed(problems: list[str]) -> list[str]:
    if len(problems) <= _LISTED:
        return problems
    return [*problems[:_LISTED], f"... and {len(problems) - _LISTED} more"]
