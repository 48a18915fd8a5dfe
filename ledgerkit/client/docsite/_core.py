"""The docs client's I/O-free core: what to ask, how to read the answers, what to keep.

Every public method of the two clients is a *flow* written once here: a generator that
yields the :class:`Fetch` it needs next and is sent back the :class:`Answer` (any
status), or has thrown into it the error that stood for one (no answer came, or one too
large). ``DocsClient`` and ``AsyncDocsClient`` only drive flows, doing the I/O; the
cache of answers (:class:`AnswerCache`) is consulted by them, per client.
"""

from __future__ import annotations

import re
import threading
import urllib.parse
from collections import OrderedDict
from collections.abc import Generator, Iterable, Mapping
from typing import Final, NamedTuple, TypeVar

import httpx

from ledgerkit._endpoints import MARKDOWN, OPERATIONS, TEXT
from ledgerkit._errors import (
    DocsError,
    InputError,
    LedgerError,
    PageNotFoundError,
    RequestTimeoutError,
    TransportError,
)
from ledgerkit.client.docsite._text import (
    Document,
    IndexEntry,
    SearchHit,
    page_path,
    parse_llms_txt,
    search_documents,
    split_full_text,
)

__all__ = [
    "CACHE_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_ANSWER_BYTES",
    "MAX_SEARCH_PAGES",
    "USER_AGENT",
    "Answer",
    "AnswerCache",
    "BodyLimit",
    "Fetch",
    "Flow",
    "index_flow",
    "normalize_origin",
    "page_flow",
    "request_headers",
    "search_flow",
    "transport_error",
]

T = TypeVar("T")

#: Largest answer read (bytes); a larger one is refused with :class:`DocsError`.
MAX_ANSWER_BYTES: Final = 8 * 1024 * 1024
#: Most bytes of answers one client keeps in memory (least recently used go first).
CACHE_MAX_BYTES: Final = 64 * 1024 * 1024
#: Seconds to wait for each request (connect, each read, each write).
DEFAULT_TIMEOUT: Final = 30.0
#: Most pages fetched by a search of a host that serves no ``llms-full.txt``.
MAX_SEARCH_PAGES: Final = 200
USER_AGENT: Final = "ledgerkit-docs"

_LLMS_TXT: Final = OPERATIONS["get_llms_txt"].path
_LLMS_FULL_TXT: Final = OPERATIONS["get_llms_full_txt"].path
_PAGE: Final = OPERATIONS["get_docs_page"]
_MAX_AGE: Final = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d{1,10})\"?\s*(?:,|$)", re.I)
_NO_STORE: Final = re.compile(r"(?:^|,)\s*(no-store|no-cache)\s*(?:[,=]|$)", re.I)


class Fetch(NamedTuple):
    """A GET to make: the URL, what to accept, and what it is for (error messages)."""

    url: str
    accept: str
    what: str


class Answer(NamedTuple):
    """What came back: the final URL, status, headers and the whole body."""

    url: str
    status: int
    headers: httpx.Headers
    body: bytes

    @property
    def media_type(self) -> str:
        """The ``Content-Type`` without parameters, lower case (``""`` if none)."""
        return str(self.headers.get("content-type", "")).split(";")[0].strip().lower()


#: A flow: yields fetches, is sent answers, returns its result.
Flow = Generator[Fetch, Answer, T]


def normalize_origin(url: str) -> str:
    """``scheme://host[:port]`` of a docs host's URL, without a trailing slash.

    Raises
    ------
    InputError
        Not an http(s) URL of a host, or one with a path, query or fragment.
    """
    if not isinstance(url, str):
        raise InputError(f"a docs host URL is a string, got {type(url).__name__}")
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"a docs host URL is http(s)://host[:port], got {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise InputError(f"a docs host URL is its origin only (no path), got {url!r}")
    return f"{parts.scheme}://{parts.netloc}"


def request_headers(fetch: Fetch, extra: Mapping[str, str]) -> dict[str, str]:
    """The headers of a request: the user agent, the caller's own, then ``Accept``."""
    return {"User-Agent": USER_AGENT, **extra, "Accept": fetch.accept}


def transport_error(fetch: Fetch, exc: httpx.HTTPError | httpx.InvalidURL) -> LedgerError:
    """ledgerkit's error for a request that got no answer (never a raw httpx error): a
    :class:`TransportError` (:class:`RequestTimeoutError` when it timed out), or a
    :class:`DocsError` of status 0 for a URL that cannot be fetched at all."""
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.InvalidURL):
        return DocsError(f"{fetch.what}: not a URL that can be fetched: {detail}", status=0,
                         url=fetch.url)  # fmt: skip
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeoutError(f"{fetch.what} ({fetch.url}): timed out: {detail}")
    return TransportError(f"{fetch.what} ({fetch.url}): {type(exc).__name__}: {detail}")


class BodyLimit:
    """Reads a body in chunks, refusing it once past :data:`MAX_ANSWER_BYTES`."""

    def __init__(self, fetch: Fetch, response: httpx.Response, limit: int = MAX_ANSWER_BYTES):
        self._fetch = fetch
        self._status = response.status_code
        self._limit = limit
        self._chunks: list[bytes] = []
        self._size = 0
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise self._too_large(int(declared))

    def add(self, chunk: bytes) -> None:
        self._size += len(chunk)
        if self._size > self._limit:
            raise self._too_large(self._size)
        self._chunks.append(chunk)

    def body(self) -> bytes:
        return b"".join(self._chunks)

    def _too_large(self, size: int) -> DocsError:
        return DocsError(
            f"{self._fetch.what}: the answer is larger than {self._limit} bytes (at least {size})",
            status=self._status,
            url=self._fetch.url,
        )


class AnswerCache:
    """Answers kept in memory for their ``Cache-Control: max-age`` (less any ``Age``).

    Only ``200`` answers are kept, never one marked ``no-store`` or ``no-cache``; past
    :data:`CACHE_MAX_BYTES`, the least recently used go. Safe to share between threads.
    """

    def __init__(self, max_bytes: int = CACHE_MAX_BYTES) -> None:
        self._max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, str], tuple[float, Answer]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, fetch: Fetch, now: float) -> Answer | None:
        key = (fetch.url, fetch.accept)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= now:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, fetch: Fetch, answer: Answer, now: float) -> None:
        lifetime = freshness(answer)
        if lifetime is None or len(answer.body) > self._max_bytes:
            return
        key = (fetch.url, fetch.accept)
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = (now + lifetime, answer)
            self._size += len(answer.body)
            while self._size > self._max_bytes:
                self._drop(next(iter(self._entries)))

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0

    def __len__(self) -> int:
        return len(self._entries)

    def _drop(self, key: tuple[str, str]) -> None:
        _, answer = self._entries.pop(key)
        self._size -= len(answer.body)


def freshness(answer: Answer) -> float | None:
    """Seconds ``answer`` may be reused for, or None when it may not be kept."""
    if answer.status != 200:
        return None
    control = answer.headers.get("cache-control", "")
    found = _MAX_AGE.search(control)
    if found is None or _NO_STORE.search(control):
        return None
    age = answer.headers.get("age", "0").strip()
    lifetime = int(found.group(1)) - (int(age) if age.isdigit() else 0)
    return float(lifetime) if lifetime > 0 else None


# -- reading answers -----------------------------------------------------------------------


def text_of(answer: Answer, fetch: Fetch) -> str:
    """The body of a ``2xx`` answer as text; :class:`PageNotFoundError` for ``404``,
    :class:`DocsError` for any other status or a body that is not UTF-8."""
    if answer.status == 404:
        raise PageNotFoundError(f"{fetch.what}: not found", status=404, url=fetch.url)
    if not 200 <= answer.status < 300:
        raise DocsError(f"{fetch.what}: {_reason(answer)}", status=answer.status, url=fetch.url)
    try:
        return answer.body.decode("utf-8")
    except UnicodeDecodeError:
        raise DocsError(
            f"{fetch.what}: the answer is not UTF-8 text", status=answer.status, url=fetch.url
        ) from None


def _reason(answer: Answer) -> str:
    reason = httpx.codes.get_reason_phrase(answer.status) or "unexpected status"
    if answer.media_type == "text/plain" and len(answer.body) <= 200:
        said = " ".join(answer.body.decode("utf-8", "replace").split())
        if said and said != reason:
            return f"{reason}: {said}"
    return reason


# -- flows ---------------------------------------------------------------------------------


def page_flow(origin: str, path: str) -> Flow[str]:
    """A page's Markdown (``<path>.md``)."""
    markdown_path = page_path(origin, path)
    url = origin + _PAGE.url_path(page=_quote(markdown_path[1:]))
    fetch = Fetch(url, MARKDOWN, f"page {markdown_path}")
    answer = yield fetch
    text = text_of(answer, fetch)
    if answer.media_type == "text/html":
        raise DocsError(
            f"{fetch.what}: the host answered HTML, not Markdown", status=answer.status, url=url
        )
    return text


def index_flow(origin: str) -> Flow[list[IndexEntry]]:
    """The entries of the host's ``llms.txt``."""
    fetch = Fetch(origin + _LLMS_TXT, f"{TEXT}, {MARKDOWN};q=0.9", "the index (llms.txt)")
    answer = yield fetch
    return parse_llms_txt(text_of(answer, fetch), origin)


def search_flow(origin: str, query: str, limit: int) -> Flow[list[SearchHit]]:
    """Search the host's ``llms-full.txt`` or, when it has none, the pages of its index."""
    search_documents((), query, limit)  # the query and limit are checked before any I/O
    try:
        entries = yield from index_flow(origin)
    except PageNotFoundError:
        entries = []
    fetch = Fetch(origin + _LLMS_FULL_TXT, f"{TEXT}, {MARKDOWN};q=0.9", "all pages (llms-full.txt)")
    answer = yield fetch
    if answer.status == 404:
        documents = yield from _pages_of(origin, entries)
    else:
        documents = _documents(split_full_text(text_of(answer, fetch)), entries)
    return search_documents(documents, query, limit)


def _documents(pages: Iterable[tuple[str, str]], entries: Iterable[IndexEntry]) -> list[Document]:
    """The pages of ``llms-full.txt``, each with the URL its title has in the index."""
    urls: dict[str, list[str]] = {}
    for entry in entries:
        urls.setdefault(entry.title.casefold(), []).append(entry.url)
    documents = []
    for title, text in pages:
        known = urls.get(title.casefold())
        documents.append(Document(title, known.pop(0) if known else "", text))
    return documents


def _pages_of(origin: str, entries: Iterable[IndexEntry]) -> Flow[list[Document]]:
    """The Markdown of the index's pages on this host (at most :data:`MAX_SEARCH_PAGES`);
    pages that are not found are skipped."""
    documents = []
    pages = [entry for entry in entries if entry.path][:MAX_SEARCH_PAGES]
    for entry in pages:
        try:
            text = yield from page_flow(origin, entry.path)
        except PageNotFoundError:
            continue
        documents.append(Document(entry.title, entry.url, text))
    return documents


def _quote(path: str) -> str:
    """Percent-encode what a URL path cannot carry as is (spaces, non-ASCII)."""
    return urllib.parse.quote(path, safe="/:@!$&'()*+,;=-._~%")


class DocsCore:
    """What both docs clients hold: the origin, the extra headers and the cache.

    Parameters
    ----------
    url : str
        The docs host's origin, ``http(s)://host[:port]`` (``https://aptos.dev``).
    headers : mapping of str to str, optional
        Sent with every request (never shown in ``repr``).
    cache : bool
        Keep answers in memory for their ``Cache-Control: max-age``.
    """

    def __init__(
        self, url: str, *, headers: Mapping[str, str] | None = None, cache: bool = True
    ) -> None:
        self.origin = normalize_origin(url)
        self._headers = dict(headers or {})
        self._cache = AnswerCache() if cache else None

    def _cached(self, fetch: Fetch, now: float) -> Answer | None:
        return self._cache.get(fetch, now) if self._cache is not None else None

    def _keep(self, fetch: Fetch, answer: Answer, now: float) -> None:
        if self._cache is not None:
            self._cache.put(fetch, answer, now)

    def _headers_for(self, fetch: Fetch) -> dict[str, str]:
        return request_headers(fetch, self._headers)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.origin!r})"
