"""Record and replay: every answer a client receives, kept in one file that is safe to
commit, and given again from that file with no network.

The file (format version 2, :mod:`ledgerkit.client.snapshot._store`) is an SQLite
database the answers are appended to as they arrive, in committed chunks, each distinct
body stored once; a replay reads each answer when it is asked. Memory stays bounded
however long the session, and a recording killed with ``kill -9`` replays up to its last
committed chunk. Files of version 1 (one gzip-compressed JSON document,
:mod:`ledgerkit.client.snapshot._file`) still replay, and ``Snapshot(path, version=1)``
still writes one.

A notebook that studied a public network re-runs where there is none (Binder, CI, a
classroom) with the same numbers::

    client = ledgerkit.connect(url, record="analysis.snapshot")   # answers recorded
    ...
    client.close()                                                 # the file is written

    client = ledgerkit.connect(replay="analysis.snapshot")         # no network at all

**What is recorded.** For each request (method, full URL with its origin, ``Accept`` and
the SHA-256 of its body) the answers in the order they came: status, body, and the headers
a client reads (``Content-Type``, the ledger headers ``X-APTOS-*`` / ``X-NODE-*``,
``Retry-After``). No request header is kept but ``Accept`` and ``Content-Type``; the api
key, the values of credential-like headers and a token in the URL's path are replaced in
URLs, headers and bodies by what the client's logs show instead (``***``).

**Replaying.** A request is answered with its recorded answers in order, the last one
again once they run out; a request never recorded raises
:class:`~ledgerkit.SnapshotMissError`. Waiting is virtual: a replaying client gets a
:class:`VirtualClock`, so the waits of a recording that met 429s are taken again, the same
length, in no time.

The pieces are httpx transports (:class:`RecordingTransport` and
:class:`ReplayTransport`, and their asyncio twins), a :class:`Snapshot` holding the
answers, and :func:`snapshot_of`, which says which snapshot a client records into or
replays from (so that a bulk extraction given that client does the same).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import httpx

from ledgerkit._errors import InputError, SnapshotError, SnapshotMissError
from ledgerkit._public import publish as _publish
from ledgerkit.client._client import AsyncClient, BaseClient, Client
from ledgerkit.client._config import client_secrets, normalize_base_url, redact, shown_url
from ledgerkit.client.snapshot._file import (
    MAX_SNAPSHOT_BYTES,
    RecordedAnswer,
    RequestKey,
    SnapshotData,
    encode_snapshot,
    read_snapshot,
)
from ledgerkit.client.snapshot._inspect import SnapshotInfo, snapshot_info, verify_snapshot
from ledgerkit.client.snapshot._recording import (
    AsyncRecordingTransport,
    AsyncReplayTransport,
    AsyncVirtualClock,
    RecordingTransport,
    ReplayTransport,
    VirtualClock,
    kept_headers,
)
from ledgerkit.client.snapshot._store import SQLITE_MAGIC, STORE_VERSION, SnapshotStore

__all__ = [
    "MAX_SNAPSHOT_BYTES",
    "AsyncRecordingTransport",
    "AsyncReplayTransport",
    "AsyncVirtualClock",
    "RecordedAnswer",
    "RecordingTransport",
    "ReplayTransport",
    "RequestKey",
    "Snapshot",
    "SnapshotInfo",
    "VirtualClock",
    "snapshot_info",
    "snapshot_of",
    "verify_snapshot",
]

_log = logging.getLogger("ledgerkit.client")

#: Which snapshot each client records into or replays from.
_BOUND: weakref.WeakKeyDictionary[BaseClient, Snapshot] = weakref.WeakKeyDictionary()


def snapshot_of(client: object) -> Snapshot | None:
    """The :class:`Snapshot` ``client`` records into or replays from, if any.

    Examples
    --------
    >>> client = ledgerkit.connect(replay="analysis.snapshot")  # doctest: +SKIP
    >>> snapshot_of(client).replaying  # doctest: +SKIP
    True
    """
    if not isinstance(client, BaseClient):
        return None
    return _BOUND.get(client)


def _redact_bytes(body: bytes, secrets: Mapping[str, str]) -> bytes:
    """``body`` with each of ``secrets`` replaced, the longest first."""
    for secret in sorted(secrets, key=len, reverse=True):
        raw = secret.encode("utf-8")
        if raw in body:
            body = body.replace(raw, secrets[secret].encode("utf-8"))
    return body


class Snapshot:
    """The answers a client received, filed by request: recorded into, or replayed from,
    one file.

    ``Snapshot(path)`` is a new, empty one that records: each answer is appended to the
    file at ``path`` as it arrives (format version 2, committed in chunks), and
    :meth:`save` or :meth:`close` leaves the file complete. :meth:`load` opens one to
    replay, reading each answer when it is asked. Clients are made with :meth:`client`
    and :meth:`async_client` (:func:`ledgerkit.connect` does it for ``record=`` and
    ``replay=``), or with its transports and :meth:`bind`.

    Parameters
    ----------
    path : path, optional
        The file it records into (any file there is replaced when the first client is
        bound or the first answer recorded). Without it, a temporary file, copied by
        :meth:`save` to the path given.
    version : {2, 1}
        The format written: 2, the streaming SQLite store (default); 1, the single
        gzip-compressed JSON document of earlier releases, held in memory and written
        whole by :meth:`save`.

    Attributes
    ----------
    path : Path or None
        The file it was loaded from or records into.
    replaying : bool
        True when loaded from a file: its clients send nothing.
    version : int
        The file's format version.

    Examples
    --------
    >>> snapshot = Snapshot("analysis.snapshot")
    >>> with snapshot.client("https://fullnode.testnet.aptoslabs.com/v1") as client:
    ...     info = client.ledger_info()  # doctest: +SKIP
    >>> snapshot.save()  # doctest: +SKIP
    >>> replayed = Snapshot.load("analysis.snapshot").client()  # doctest: +SKIP
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, version: int = 2) -> None:
        if version not in (1, STORE_VERSION):
            raise InputError(f"version must be 1 or {STORE_VERSION}, got {version!r}")
        self.path = Path(path) if path is not None else None
        self.replaying = False
        self.version = version
        self._data = SnapshotData(time.time(), [], {}, {})
        self._store: SnapshotStore | None = None
        self._secrets: dict[str, str] = {}
        self._served: dict[RequestKey, int] = {}
        self._lock = threading.Lock()

    @property
    def recorded_at(self) -> float:
        """When recording began (POSIX seconds); a replaying client's clock starts there."""
        return self._data.recorded_at

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, max_bytes: int = MAX_SNAPSHOT_BYTES) -> Snapshot:
        """The snapshot in the file at ``path``, to replay (either format version).

        Parameters
        ----------
        path : path
            A file written by :meth:`save`, or by a recording that was stopped.
        max_bytes : int
            The most bytes read into memory at once (1 GiB by default): of a version 1
            file, the whole file, compressed or not; of a version 2 file, one answer.

        Raises
        ------
        SnapshotError
            The file is missing, unreadable, truncated, corrupt, not a snapshot, of a
            newer format, or larger than ``max_bytes``.
        """
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise InputError(f"max_bytes must be an int >= 1, got {max_bytes!r}")
        where = Path(path)
        try:
            with where.open("rb") as file:
                magic = file.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise SnapshotError(f"snapshot {where}: cannot be read ({exc.strerror})") from None
        snapshot = cls(path)
        snapshot.replaying = True
        if magic == SQLITE_MAGIC:
            store = SnapshotStore.open(where, max_bytes=max_bytes)
            snapshot._store = store
            snapshot._data = SnapshotData(store.recorded_at, list(store.base_urls()), {}, {})
        else:
            snapshot.version = 1
            snapshot._data = read_snapshot(path, max_bytes=max_bytes)
        return snapshot

    def _recording_store(self) -> SnapshotStore:
        """The store it records into, created with the first client or answer."""
        if self._store is None:
            path = self.path
            if path is None:
                fd, name = tempfile.mkstemp(prefix="ledgerkit-", suffix=".snapshot")
                os.close(fd)
                path = Path(name)
                weakref.finalize(self, _remove, path)
            self._store = SnapshotStore.create(path, self._data.recorded_at)
        return self._store

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Make the file complete (every answer so far committed, one file safe to commit)
        at ``path``, by default its own, replacing what is there at once (a reader never
        sees half of it); returns where it was written. Recording may go on after it.

        A version 1 snapshot is written whole (it is held in memory until then)."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise InputError("this snapshot has no path: save(path)")
        if self._store is not None or self.version == STORE_VERSION:
            with self._lock:
                store = self._store if self.replaying else self._recording_store()
            assert store is not None  # a replayed version 2 file has its store
            answers = len(self)
            written = store.save(target)
            _log.info("snapshot of %d answers written to %s", answers, written.name)
            return written
        with self._lock:
            raw = encode_snapshot(self._data)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(raw)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _log.info("snapshot of %d answers written to %s", len(self), target.name)
        return target

    def close(self) -> None:
        """Let the file go: a recording's answers so far committed and the file left
        complete (as :meth:`save`), a replay's file closed. Either is opened again if
        the snapshot is used after."""
        if self._store is None:
            return
        if not self.replaying:
            self._store.flush()
        self._store.close()

    @property
    def base_urls(self) -> tuple[str, ...]:
        """The API roots of the clients recorded, as shown (a token in the path hidden);
        a replaying client goes to the first unless told otherwise."""
        return tuple(self._data.base_urls)

    @property
    def requests(self) -> tuple[RequestKey, ...]:
        """The requests it holds answers to, in the order they were first made."""
        if self._store is not None:
            self._store.flush()
            return self._store.requests()
        with self._lock:
            return tuple(self._data.answers)

    def __len__(self) -> int:
        """The number of answers it holds."""
        if self._store is not None:
            self._store.flush()
            return self._store.count()
        with self._lock:
            return sum(len(answers) for answers in self._data.answers.values())

    def __repr__(self) -> str:
        mode = "replaying" if self.replaying else "recording"
        name = repr(self.path.name) if self.path is not None else "unsaved"
        return f"Snapshot({name}, {mode}, {len(self)} answers)"

    # -- clients -------------------------------------------------------------------------

    def bind(self, client: BaseClient) -> None:
        """Take ``client`` as one of this snapshot's: its secrets are hidden in what is
        recorded, its base URL is recorded, and :func:`snapshot_of` finds the snapshot
        from it. Its transport must be one of this snapshot's (:meth:`transport`)."""
        config = client.config
        secrets = client_secrets(
            config.base_url, config.shown_base_url, config.api_key, config.headers
        )
        with self._lock:
            # A new mapping, so that a recording thread reading the old one needs no lock.
            self._secrets = {**self._secrets, **secrets}
            shown = config.shown_base_url
            if not self.replaying and shown not in self._data.base_urls:
                self._data.base_urls.append(shown)
                if self.version == STORE_VERSION:
                    self._recording_store().add_base_url(shown)
        _BOUND[client] = self

    def transport(self, inner: httpx.BaseTransport | None = None) -> httpx.BaseTransport:
        """The httpx transport of a client of this snapshot: one that records what
        ``inner`` (by default httpx's own) receives, or one that replays."""
        if self.replaying:
            if inner is not None:
                raise InputError("a replaying client sends nothing: it takes no transport")
            return ReplayTransport(self)
        return RecordingTransport(self, inner)

    def async_transport(
        self, inner: httpx.AsyncBaseTransport | None = None
    ) -> httpx.AsyncBaseTransport:
        """:meth:`transport` for an :class:`~ledgerkit.AsyncClient`."""
        if self.replaying:
            if inner is not None:
                raise InputError("a replaying client sends nothing: it takes no transport")
            return AsyncReplayTransport(self)
        return AsyncRecordingTransport(self, inner)

    def client(
        self, url: str | None = None, *, factory: Callable[..., Client] = Client, **options: Any
    ) -> Client:
        """A :class:`~ledgerkit.Client` that records into this snapshot or replays from it.

        Parameters
        ----------
        url : str, optional
            The node's API root. Needed to record; to replay, one of :attr:`base_urls`
            (the first by default).
        factory : callable
            The client class (:class:`~ledgerkit.Client` or a subclass).
        **options
            Any option of the client. ``transport`` is the one the recording sends
            through (a replaying client takes none); ``clock`` is by default a
            :class:`VirtualClock` when replaying. The persistent cache stays off.

        Raises
        ------
        InputError
            No URL to record from, a URL the snapshot was not recorded from, a
            ``transport`` to replay, or the cache asked for.
        """
        url, options = self._arguments(url, options)
        options["transport"] = self.transport(options.get("transport"))
        if self.replaying and options.get("clock") is None:
            options["clock"] = VirtualClock(self.recorded_at)
        made = factory(url, **options)
        self.bind(made)
        return made

    def async_client(
        self,
        url: str | None = None,
        *,
        bulk: bool = False,
        factory: Callable[..., AsyncClient] = AsyncClient,
        **options: Any,
    ) -> AsyncClient:
        """An :class:`~ledgerkit.AsyncClient` that records into this snapshot or replays
        from it; see :meth:`client`.

        Parameters
        ----------
        bulk : bool
            Record over an :class:`~ledgerkit.client.AiohttpTransport` (HTTP parsed in
            C) when no ``transport`` is given. Replaying sends nothing either way.
        """
        url, options = self._arguments(url, options)
        inner = options.get("transport")
        if bulk and inner is None and not self.replaying:
            from ledgerkit.client._aiohttp import AiohttpTransport

            inner = AiohttpTransport(max_connections=options.get("max_concurrency") or 100)
        options["transport"] = self.async_transport(inner)
        if self.replaying and options.get("clock") is None:
            options["clock"] = AsyncVirtualClock(self.recorded_at)
        made = factory(url, **options)
        self.bind(made)
        return made

    def _arguments(self, url: str | None, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The URL and the options of a client of this snapshot, checked."""
        if options.get("cache") not in (None, False):
            raise InputError(
                "the answer cache stays off while a snapshot records or replays "
                "(the snapshot holds the answers)"
            )
        options = {**options, "cache": False}
        if not self.replaying:
            if url is None:
                raise InputError("recording needs the node's URL")
            return url, options
        if url is None:
            if not self._data.base_urls:
                raise SnapshotError("this snapshot names no node to replay")
            return self._data.base_urls[0], options
        shown = shown_url(normalize_base_url(url))
        if shown not in self._data.base_urls:
            raise InputError(
                f"{shown} is not a node this snapshot was recorded from "
                f"({', '.join(self._data.base_urls) or 'none'})"
            )
        return url, options

    # -- answers -------------------------------------------------------------------------

    @staticmethod
    def _key(request: httpx.Request, secrets: Mapping[str, str]) -> RequestKey:
        return _request_key(
            request.method, request.url, request.headers.get("accept", ""), request.content, secrets
        )

    def record(
        self,
        request: httpx.Request,
        status: int,
        headers: Iterable[tuple[str, str]],
        body: bytes,
    ) -> None:
        """File an answer of ``request`` (whose body has been read): its status, the
        headers a snapshot keeps and its decoded body, the client's secrets hidden."""
        key = self._key(request, self._secrets)
        self._file(key, request.headers.get("content-type"), status, headers, body)

    def _record_sent(
        self,
        sent: tuple[str, str, Mapping[str, str], bytes | None],
        status: int,
        headers: Iterable[tuple[str, str]],
        body: bytes,
    ) -> None:
        """:meth:`record` for a request sent without an httpx object: ``sent`` is its
        method, URL, headers and body, filed as httpx would have made them."""
        method, url, request_headers, content = sent
        names = httpx.Headers(request_headers)
        accept = names.get("accept", "")
        key = _request_key(method, httpx.URL(url), accept, content or b"", self._secrets)
        self._file(key, names.get("content-type"), status, headers, body)

    def _file(
        self,
        key: RequestKey,
        content_type: str | None,
        status: int,
        headers: Iterable[tuple[str, str]],
        body: bytes,
    ) -> None:
        if self.replaying:
            raise InputError("a replaying snapshot records nothing")
        secrets = self._secrets
        kept = tuple((name, redact(value, secrets)) for name, value in kept_headers(headers))
        stored = _redact_bytes(body, secrets)
        if stored != body:
            _log.warning("%s: a secret of the client in the answer is recorded as ***", key)
        if self.version == STORE_VERSION:
            with self._lock:
                store = self._recording_store()
            store.put(key, content_type, status, kept, stored)
            return
        with self._lock:
            self._data.answers.setdefault(key, []).append(RecordedAnswer(status, kept, stored))
            self._data.content_types[key] = content_type

    def answer(self, request: httpx.Request) -> RecordedAnswer:
        """The next recorded answer of ``request`` (the last one again once they run out).

        Raises
        ------
        SnapshotMissError
            The request was never recorded (its method and URL as shown in the message).
        SnapshotError
            The answer cannot be read from the file (corrupt, or larger than allowed).
        """
        return self._answer_to(self._key(request, self._secrets))

    def _answer_sent(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes | None
    ) -> RecordedAnswer:
        """:meth:`answer` for a request sent without an httpx object (its method, URL,
        headers and body), filed as httpx would have made it."""
        accept = httpx.Headers(headers).get("accept", "")
        return self._answer_to(
            _request_key(method, httpx.URL(url), accept, body or b"", self._secrets)
        )

    def _answer_to(self, key: RequestKey) -> RecordedAnswer:
        with self._lock:
            served = self._served.get(key, 0)
            self._served[key] = served + 1
            answers = self._data.answers.get(key) if self._store is None else None
        if self._store is not None:
            found = self._store.answer(key, served)
        else:
            found = answers[min(served, len(answers) - 1)] if answers else None
        if found is None:
            raise SnapshotMissError(key.method, key.url, key.accept)
        return found


def _request_key(
    method: str, url: httpx.URL, accept: str, body: bytes, secrets: Mapping[str, str]
) -> RequestKey:
    """What an answer is filed under: the method, the URL as httpx shows it (secrets
    hidden), ``Accept`` and the SHA-256 of the request's body."""
    return RequestKey(
        method,
        redact(str(url), secrets),
        accept,
        hashlib.sha256(body).hexdigest() if body else None,
    )


def _remove(path: Path) -> None:
    """Remove a temporary store and its log."""
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        part.unlink(missing_ok=True)


# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
