"""Clients of a docs host, where they were first imported from: :class:`DocsClient`,
:class:`AsyncDocsClient`, :class:`Discovery`, :class:`Check` and the frames' column
constants. They live in :mod:`ledgerkit.client.docsite`, beside the node client; this
module names the same objects. See ``docs/docsite.md``.
"""

from __future__ import annotations

from ledgerkit.client.docsite import (
    INDEX_COLUMNS,
    MAX_ANSWER_BYTES,
    SEARCH_COLUMNS,
    AsyncDocsClient,
    Check,
    Discovery,
    DocsClient,
    IndexEntry,
    SearchHit,
)

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
