"""The snapshot file: recorded answers as one gzip-compressed JSON document, and its reading
back, bounded and checked (:class:`~ledgerkit.SnapshotError` for any fault, never a
traceback from the decompressor or the JSON parser).

The layout (``version`` 1)::

    {"format": "ledgerkit-snapshot", "version": 1,
     "recorded_at": 1700000000.5,                 # POSIX seconds when recording began
     "base_urls": ["https://host/***/v1", ...],   # as shown: a token in the path hidden
     "exchanges": [
       {"method": "GET", "url": "https://host/***/v1/transactions?limit=100&start=0",
        "accept": "application/json", "content_type": null, "body_sha256": null,
        "answers": [{"status": 429, "headers": {"retry-after": "2"}, "text": "..."},
                    {"status": 200, "headers": {...}, "base64": "..."}]}]}

An answer's body is ``text`` when it is UTF-8 (JSON answers, kept readable in a diff) and
``base64`` otherwise (BCS). gzip comes with the standard library; its header is written
without a timestamp (``recorded_at`` is the one time the file holds).
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ledgerkit._errors import SnapshotError

__all__ = [
    "FORMAT",
    "MAX_SNAPSHOT_BYTES",
    "VERSION",
    "RecordedAnswer",
    "RequestKey",
    "SnapshotData",
    "decode_snapshot",
    "encode_snapshot",
    "read_snapshot",
]

FORMAT: Final = "ledgerkit-snapshot"
VERSION: Final = 1
#: Bytes a snapshot may hold once decompressed, unless ``load`` is told otherwise.
MAX_SNAPSHOT_BYTES: Final = 1 << 30
#: Bytes decompressed at a time, so the bound is checked before memory is spent.
_CHUNK: Final = 1 << 20


@dataclass(frozen=True, slots=True)
class RequestKey:
    """What an answer is filed under: the request's method, its full URL (origin
    included, a token in the path hidden), its ``Accept`` and the SHA-256 of its body."""

    method: str
    url: str
    accept: str
    body_sha256: str | None = None

    def __str__(self) -> str:
        return f"{self.method} {self.url}"


@dataclass(frozen=True, slots=True)
class RecordedAnswer:
    """One answer as recorded: its status, the headers that matter, its body."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


@dataclass(slots=True)
class SnapshotData:
    """Everything a file holds: the answers of each request in the order they came, the
    request's ``Content-Type``, the base URLs of the clients and when recording began."""

    recorded_at: float
    base_urls: list[str]
    answers: dict[RequestKey, list[RecordedAnswer]]
    content_types: dict[RequestKey, str | None]


def encode_snapshot(data: SnapshotData) -> bytes:
    """The file's bytes for ``data``."""
    exchanges = []
    for key, answers in data.answers.items():
        exchanges.append(
            {
                "method": key.method,
                "url": key.url,
                "accept": key.accept,
                "content_type": data.content_types.get(key),
                "body_sha256": key.body_sha256,
                "answers": [_encode_answer(answer) for answer in answers],
            }
        )
    document = {
        "format": FORMAT,
        "version": VERSION,
        "recorded_at": data.recorded_at,
        "base_urls": data.base_urls,
        "exchanges": exchanges,
    }
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)


def _encode_answer(answer: RecordedAnswer) -> dict[str, Any]:
    entry: dict[str, Any] = {"status": answer.status, "headers": dict(answer.headers)}
    try:
        entry["text"] = answer.body.decode("utf-8")
    except UnicodeDecodeError:
        entry["base64"] = base64.b64encode(answer.body).decode("ascii")
    return entry


def read_snapshot(path: str | os.PathLike[str], *, max_bytes: int) -> SnapshotData:
    """The snapshot in the file at ``path``; a missing, unreadable or malformed file is a
    :class:`~ledgerkit.SnapshotError` naming it."""
    where = Path(path)
    try:
        size = where.stat().st_size
        if size > max_bytes:
            raise SnapshotError(
                f"snapshot {where.name}: {size} bytes, more than the {max_bytes} bytes allowed"
            )
        raw = where.read_bytes()
    except OSError as exc:
        raise SnapshotError(f"snapshot {where}: cannot be read ({exc.strerror})") from None
    return decode_snapshot(raw, name=where.name, max_bytes=max_bytes)


def decode_snapshot(raw: bytes, *, name: str, max_bytes: int) -> SnapshotData:
    """The snapshot in ``raw`` (a file's bytes), checked field by field."""
    document = _parse(_decompress(raw, name, max_bytes), name)
    try:
        return _data(document)
    except _FaultError as fault:
        raise SnapshotError(f"snapshot {name}: {fault}") from None


def _decompress(raw: bytes, name: str, max_bytes: int) -> bytes:
    """The one gzip member of ``raw``, at most ``max_bytes`` of it."""
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    parts: list[bytes] = []
    total = 0
    pending = raw
    try:
        while pending and not inflater.eof:
            part = inflater.decompress(pending, _CHUNK)
            pending = inflater.unconsumed_tail
            total += len(part)
            if total > max_bytes:
                raise SnapshotError(
                    f"snapshot {name}: more than the {max_bytes} bytes allowed once decompressed"
                )
            parts.append(part)
    except zlib.error:
        raise SnapshotError(
            f"snapshot {name}: not a gzip-compressed snapshot, or corrupt"
        ) from None
    if not inflater.eof:
        raise SnapshotError(f"snapshot {name}: truncated (the compressed data ends early)")
    if inflater.unused_data:
        raise SnapshotError(f"snapshot {name}: bytes after the end of the compressed data")
    return b"".join(parts)


def _parse(text: bytes, name: str) -> Any:
    try:
        return json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SnapshotError(f"snapshot {name}: not a snapshot document (bad JSON)") from None


class _FaultError(Exception):
    """What is wrong with a document, for :class:`~ledgerkit.SnapshotError`'s message."""


def _field(record: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(record, dict):
        raise _FaultError(f"{where} is not an object")
    value = record.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _FaultError(f"{where}.{key} is missing or of the wrong type")
    return value


def _data(document: Any) -> SnapshotData:
    if _field(document, "format", str, "document") != FORMAT:
        raise _FaultError("not a ledgerkit snapshot")
    version = _field(document, "version", int, "document")
    if version != VERSION:
        raise _FaultError(f"format version {version}; this ledgerkit reads version {VERSION}")
    recorded_at = _field(document, "recorded_at", (int, float), "document")
    base_urls = _field(document, "base_urls", list, "document")
    if not all(isinstance(url, str) for url in base_urls):
        raise _FaultError("document.base_urls holds something other than URLs")
    answers: dict[RequestKey, list[RecordedAnswer]] = {}
    content_types: dict[RequestKey, str | None] = {}
    for index, exchange in enumerate(_field(document, "exchanges", list, "document")):
        where = f"exchanges[{index}]"
        sha = exchange.get("body_sha256") if isinstance(exchange, dict) else None
        if sha is not None and not isinstance(sha, str):
            raise _FaultError(f"{where}.body_sha256 is not a string")
        key = RequestKey(
            _field(exchange, "method", str, where),
            _field(exchange, "url", str, where),
            _field(exchange, "accept", str, where),
            sha,
        )
        content_type = exchange.get("content_type")
        if content_type is not None and not isinstance(content_type, str):
            raise _FaultError(f"{where}.content_type is not a string")
        recorded = [
            _answer(answer, f"{where}.answers[{n}]")
            for n, answer in enumerate(_field(exchange, "answers", list, where))
        ]
        if not recorded:
            raise _FaultError(f"{where} holds no answer")
        answers.setdefault(key, []).extend(recorded)
        content_types[key] = content_type
    return SnapshotData(float(recorded_at), list(base_urls), answers, content_types)


def _answer(record: Any, where: str) -> RecordedAnswer:
    status = _field(record, "status", int, where)
    if not 100 <= status <= 599:
        raise _FaultError(f"{where}.status {status} is not an HTTP status")
    headers = _field(record, "headers", dict, where)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items()):
        raise _FaultError(f"{where}.headers holds something other than text")
    if "text" in record:
        try:
            body = _field(record, "text", str, where).encode("utf-8")
        except UnicodeEncodeError:
            raise _FaultError(f"{where}.text is not UTF-8 text") from None
    else:
        try:
            body = base64.b64decode(_field(record, "base64", str, where), validate=True)
        except binascii.Error:
            raise _FaultError(f"{where}.base64 is not base64") from None
    return RecordedAnswer(status, _pairs(headers), body)


def _pairs(headers: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((key.lower(), value) for key, value in headers.items())
