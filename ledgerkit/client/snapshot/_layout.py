"""The layout of a snapshot store (format version 2, :mod:`._store`): one SQLite file.

Its tables::

    meta       (key, value)            format "ledgerkit-snapshot", version 2,
                                       recorded_at, compression "zstd"
    base_urls  (position, url)         the API roots recorded, as shown
    bodies     (sha256, size, data)    each distinct answer body once: its SHA-256 (hex),
                                       its size and its bytes, compressed (zstd
                                       frames, :mod:`._codec`)
    requests   (id, method, url, accept, body_sha256, content_type)
                                       what answers are filed under ('' for no body)
    answers    (seq, request, position, status, headers, body)
                                       the answers in the order they arrived (seq), the
                                       position of each among its request's, its kept
                                       headers (a JSON list of pairs) and its body's hash

Its ``PRAGMA application_id`` is :data:`APPLICATION_ID` ("LKSN").
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ledgerkit._errors import SnapshotError
from ledgerkit.client.snapshot._codec import CODEC, decompress
from ledgerkit.client.snapshot._file import RequestKey

__all__ = [
    "ANSWER_QUERY",
    "APPLICATION_ID",
    "SCHEMA",
    "SQLITE_MAGIC",
    "STORE_VERSION",
    "StoredAnswer",
    "declared_bytes",
    "header_pairs",
    "inflate",
]

STORE_VERSION: Final = 2
#: The first bytes of every SQLite file.
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
#: ``PRAGMA application_id`` of a snapshot ("LKSN").
APPLICATION_ID: Final = 0x4C4B534E
SCHEMA: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE base_urls (position INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE TABLE bodies (sha256 TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE requests (
    id INTEGER PRIMARY KEY, method TEXT NOT NULL, url TEXT NOT NULL, accept TEXT NOT NULL,
    body_sha256 TEXT NOT NULL, content_type TEXT,
    UNIQUE (method, url, accept, body_sha256));
CREATE TABLE answers (
    seq INTEGER PRIMARY KEY, request INTEGER NOT NULL REFERENCES requests (id),
    position INTEGER NOT NULL, status INTEGER NOT NULL, headers TEXT NOT NULL,
    body TEXT NOT NULL REFERENCES bodies (sha256), UNIQUE (request, position));
"""

ANSWER_QUERY: Final = """
SELECT answers.status, answers.headers, bodies.size, bodies.data, bodies.sha256
FROM requests JOIN answers ON answers.request = requests.id
LEFT JOIN bodies ON bodies.sha256 = answers.body
WHERE requests.method = ? AND requests.url = ? AND requests.accept = ?
  AND requests.body_sha256 = ? AND answers.position <= ?
ORDER BY answers.position DESC LIMIT 1
"""


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """An answer as the store holds it: its request, status, headers and body hash."""

    key: RequestKey
    content_type: str | None
    position: int
    status: int
    headers: tuple[tuple[str, str], ...]
    body_sha256: str
    body_size: int | None


def inflate(data: bytes, size: int, max_bytes: int, where: str, codec: str = CODEC) -> bytes:
    """The body compressed in ``data``, which must be ``size`` bytes, at most ``max_bytes``."""
    if size > max_bytes:
        raise SnapshotError(
            f"{where}: an answer of {size} bytes, more than the {max_bytes} bytes allowed"
        )
    return decompress(data, size, codec, where)


def header_pairs(text: str, where: str) -> tuple[tuple[str, str], ...]:
    try:
        pairs = json.loads(text)
    except (ValueError, RecursionError):
        raise SnapshotError(f"{where}: the headers of an answer are not JSON") from None
    if not isinstance(pairs, list) or not all(
        isinstance(pair, list)
        and len(pair) == 2
        and isinstance(pair[0], str)
        and isinstance(pair[1], str)
        for pair in pairs
    ):
        raise SnapshotError(f"{where}: the headers of an answer are not pairs of text")
    return tuple((name, value) for name, value in pairs)


def declared_bytes(path: Path) -> int | None:
    """The size the SQLite header of ``path`` says the file has, when it says it."""
    with path.open("rb") as file:
        header = file.read(100)
    if len(header) < 100:
        return None
    (page_size,) = struct.unpack(">H", header[16:18])
    page_size = 65536 if page_size == 1 else page_size
    changes, pages = struct.unpack(">II", header[24:32])
    (valid_for,) = struct.unpack(">I", header[92:96])
    return pages * page_size if valid_for == changes and pages else None
