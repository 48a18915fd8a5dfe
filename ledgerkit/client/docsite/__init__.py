"""A client of a docs host: pages as Markdown, the index, a local search, OAuth discovery.

``DocsClient`` (blocking) and ``AsyncDocsClient`` (asyncio) read a documentation host of
the kind the Aptos docs are (``https://aptos.dev``), or ledgerkit's local docs host:

- ``page(path)``: a page's Markdown (the host serves ``<path>.md``); ``show(path)``
  renders it in a notebook;
- ``index()``: the host's ``llms.txt``, one :class:`IndexEntry` per link (fields
  ``INDEX_COLUMNS``; ``ledgerkit.frames.docs_index_to_frame`` makes a frame of them);
- ``search(query)``: a search run here, over the host's ``llms-full.txt`` or its pages,
  since docs hosts have no search API: :class:`SearchHit` records (``SEARCH_COLUMNS``;
  ``ledgerkit.frames.search_hits_to_frame``). Scoring: a plain TF-IDF sum
  over lower-cased words, ``idf = ln(1 + N / df)`` per query term, ``idf * (1 + ln tf)``
  per document holding it, plus ``idf`` when the term is in the title; ties keep page
  order, so the same texts and query always give the same rows;
- ``discovery()``: the host's OAuth metadata documents, with a report of what holds of
  them (:class:`Discovery`).

Answers are kept in memory for their ``Cache-Control: max-age`` (``cache=False`` turns
it off) and refused past ``MAX_ANSWER_BYTES``. Both clients share one I/O-free core: each
method is a flow written once (``_core``, ``_discovery``), driven by either client.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.client.docsite._clients import AsyncDocsClient, DocsClient
from ledgerkit.client.docsite._core import MAX_ANSWER_BYTES
from ledgerkit.client.docsite._discovery import Check, Discovery
from ledgerkit.client.docsite._text import INDEX_COLUMNS, SEARCH_COLUMNS, IndexEntry, SearchHit

__all__ = [
    "INDEX_COLUMNS",
    "MAX_ANSWER_BYTES",
    "SEARCH_COLUMNS",
    "AsyncDocsClient",
    "Check",
    "Discovery",
    "DocsClient",
    "IndexEntry",
    "SearchHit",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, "ledgerkit.docsite")  # where users import them from
_publish(globals(), ("AsyncDocsClient", "DocsClient"), "ledgerkit")  # the front door's
