"""Reading a docs host's texts, without I/O: page paths, ``llms.txt``, ``llms-full.txt``,
and the local search over them.

The search is deliberately plain and deterministic (the same texts and query always give
the same rows in the same order); see :func:`search_documents`.
"""

from __future__ import annotations

import math
import re
import urllib.parse
from collections import Counter
from collections.abc import Sequence
from typing import Final, NamedTuple

from ledgerkit._errors import InputError
from ledgerkit._markdown import FENCE as _FENCE
from ledgerkit._markdown import prose_lines

__all__ = [
    "INDEX_COLUMNS",
    "MAX_PATH",
    "SEARCH_COLUMNS",
    "Document",
    "IndexEntry",
    "SearchHit",
    "page_path",
    "parse_llms_txt",
    "search_documents",
    "split_full_text",
    "terms_of",
]

#: Longest page path accepted (characters).
MAX_PATH: Final = 1024
#: Most query terms looked at; the rest are ignored.
_MAX_TERMS: Final = 32
#: Longest snippet (characters).
_SNIPPET: Final = 160

_ENTRY: Final = re.compile(
    r"^\s*[-*+]\s+\[(?P<title>[^\]]*)\]\((?P<url>[^)\s]+)\)\s*(?::\s*(?P<description>.*))?$"
)
_WORD: Final = re.compile(r"\w+")


class IndexEntry(NamedTuple):
    """One link of ``llms.txt``: its ``## `` section, title, absolute URL, the page path
    on the docs host (``""`` for a link elsewhere) and description (``""`` if none)."""

    section: str
    title: str
    url: str
    path: str
    description: str


#: The fields of an :class:`IndexEntry`, in order (all strings): the columns of
#: ``ledgerkit.frames.docs_index_to_frame``.
INDEX_COLUMNS: Final = IndexEntry._fields


class Document(NamedTuple):
    """A text searched: its title, URL (``""`` when unknown) and Markdown."""

    title: str
    url: str
    text: str


class SearchHit(NamedTuple):
    """A document that matched, with its score and a snippet around the first match."""

    title: str
    url: str
    score: float
    snippet: str


#: The fields of a :class:`SearchHit`, in order: the columns of
#: ``ledgerkit.frames.search_hits_to_frame``.
SEARCH_COLUMNS: Final = SearchHit._fields


# -- paths ---------------------------------------------------------------------------------


def page_path(origin: str, path: str) -> str:
    """The path of a page's Markdown on the docs host at ``origin``.

    ``/`` (or ``""``) is ``/index.md``; a path already ending ``.md`` is kept; any other
    gets ``.md`` (one trailing slash dropped first: ``/build/`` -> ``/build.md``). A
    ``#fragment`` is dropped. A full URL is accepted when it is on ``origin``.

    Raises
    ------
    InputError
        A URL of another host, a query string, a ``..`` segment, a backslash or a control
        character, or a path longer than :data:`MAX_PATH`.

    Examples
    --------
    >>> page_path("https://aptos.dev", "/"), page_path("https://aptos.dev", "build/guides/")
    ('/index.md', '/build/guides.md')
    >>> page_path("https://aptos.dev", "https://aptos.dev/network/faucet.md#limits")
    '/network/faucet.md'
    """
    if not isinstance(path, str):
        raise InputError(f"a page path is a string, got {type(path).__name__}")
    if len(path) > MAX_PATH:
        raise InputError(f"a page path is at most {MAX_PATH} characters, got {len(path)}")
    if path == origin or path.startswith(f"{origin}/"):
        path = path[len(origin) :]
    elif re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", path):
        raise InputError(f"{path!r} is not a page of {origin}")
    path = path.partition("#")[0]
    if "?" in path or "\\" in path or any(ord(c) < 0x20 or ord(c) == 0x7F for c in path):
        raise InputError(f"not a page path: {path!r}")
    path = "/" + path.lstrip("/")
    if ".." in path.split("/"):
        raise InputError(f"a page path has no '..' segment: {path!r}")
    if path == "/":
        return "/index.md"
    path = path.removesuffix("/")
    return path if path.endswith(".md") else f"{path}.md"


def _path_on(origin: str, url: str) -> str:
    """The page path of ``url`` when it is on ``origin`` (``/client`` for
    ``<origin>/client.md``, ``/`` for the home page), else ``""``."""
    if url != origin and not url.startswith(f"{origin}/"):
        return ""
    path = urllib.parse.urlsplit(url).path or "/"
    path = path.removesuffix(".md")
    return "/" if path in ("/index", "") else path


# -- llms.txt ------------------------------------------------------------------------------


def parse_llms_txt(text: str, origin: str) -> list[IndexEntry]:
    """The links of an ``llms.txt``, in file order.

    A link is a list item ``- [Title](url)`` or ``- [Title](url): description``; its
    section is the ``## `` heading above it (``""`` before any). Relative URLs are read
    against ``origin``. Other lines (the ``# `` name, the ``> `` summary, prose) are not
    links and are skipped, as is anything inside a fenced code block.
    """
    entries = []
    section = ""
    for line in prose_lines(text):
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        found = _ENTRY.match(line)
        if not found:
            continue
        url = urllib.parse.urljoin(f"{origin}/", found["url"])
        entries.append(
            IndexEntry(
                section,
                found["title"].strip(),
                url,
                _path_on(origin, url),
                (found["description"] or "").strip(),
            )
        )
    return entries


def split_full_text(text: str) -> list[tuple[str, str]]:
    """The pages of an ``llms-full.txt``: ``(title, markdown)`` for each ``# `` heading
    (outside fenced code), in order; text before the first heading is not a page."""
    pages: list[tuple[str, list[str]]] = []
    fence = ""
    for line in text.splitlines():
        found = _FENCE.match(line)
        if fence:
            if found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence):
                fence = ""
        elif found:
            fence = found.group(1)
        elif line.startswith("# "):
            pages.append((line[2:].strip(), []))
        if pages:
            pages[-1][1].append(line)
    return [(title, "\n".join(lines).strip("\n") + "\n") for title, lines in pages]


# -- search --------------------------------------------------------------------------------


def terms_of(query: str) -> list[str]:
    """The distinct lower-case words of ``query``, in order (at most 32)."""
    if not isinstance(query, str):
        raise InputError(f"a search query is a string, got {type(query).__name__}")
    terms = list(dict.fromkeys(word.lower() for word in _WORD.findall(query)))
    if not terms:
        raise InputError(f"a search query needs at least one word, got {query!r}")
    return terms[:_MAX_TERMS]


def search_documents(documents: Sequence[Document], query: str, limit: int) -> list[SearchHit]:
    """Rank ``documents`` for ``query``: a plain TF-IDF sum, title words weighted up.

    Words are runs of letters, digits and ``_``, compared in lower case. With ``N``
    documents, a term ``t`` found in ``df`` of them weighs ``idf = ln(1 + N / df)``; a
    document scores, for each query term it holds ``tf`` times, ``idf * (1 + ln tf)``,
    plus ``idf`` again when the term is in its title. Documents that hold no term are
    left out; ties keep the documents' order. Scores are rounded to 4 decimals.

    Raises
    ------
    InputError
        A query without a word, or ``limit`` below 1.
    """
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise InputError(f"limit must be a positive integer, got {limit!r}")
    terms = terms_of(query)
    counted = [Counter(word.lower() for word in _WORD.findall(doc.text)) for doc in documents]
    titles = [{word.lower() for word in _WORD.findall(doc.title)} for doc in documents]
    total = len(documents)
    frequency = {
        term: sum(1 for i in range(total) if counted[i][term] or term in titles[i])
        for term in terms
    }
    scored = []
    for i in range(total):
        score = 0.0
        for term in terms:
            if not frequency[term]:
                continue
            idf = math.log(1 + total / frequency[term])
            if counted[i][term]:
                score += idf * (1 + math.log(counted[i][term]))
            if term in titles[i]:
                score += idf
        if score > 0:
            scored.append((-round(score, 4), i))
    scored.sort()
    return [
        SearchHit(documents[i].title, documents[i].url, -neg, _snippet(documents[i].text, terms))
        for neg, i in scored[:limit]
    ]


def _snippet(text: str, terms: Sequence[str]) -> str:
    """About 160 characters of ``text`` around its first word that is a query term."""
    flat = " ".join(text.split())
    wanted = set(terms)
    start = next((m.start() for m in _WORD.finditer(flat) if m.group().lower() in wanted), 0)
    begin = max(0, start - _SNIPPET // 3)
    if begin:
        space = flat.find(" ", begin)
        begin = space + 1 if 0 <= space < start else begin
    end = begin + _SNIPPET
    if end < len(flat):
        space = flat.rfind(" ", begin, end)
        end = space if space > start else end
    piece = flat[begin:end]
    return ("…" if begin else "") + piece + ("…" if end < len(flat) else "")
