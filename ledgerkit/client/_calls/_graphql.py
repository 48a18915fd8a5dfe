"""Questions for an indexer's GraphQL API: the step a flow yields (:class:`IndexerQuery`),
the request a client sends for it and how its answer is read. No I/O.

An indexer answers a GraphQL query with ``{"data": ...}``, or with ``{"errors": [...]}``
(and maybe a partial ``data``) for a query it refused or that failed as it ran; the
latter is an :class:`~ledgerkit.IndexerError` listing the messages, never data read
half-way. A query and its answer are bounded: :data:`MAX_QUERY_CHARS`,
:data:`MAX_ANSWER_BYTES`.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ledgerkit._endpoints import JSON
from ledgerkit._errors import IndexerError, InputError
from ledgerkit.client._call import Call, json_body

__all__ = [
    "MAX_ANSWER_BYTES",
    "MAX_QUERY_CHARS",
    "IndexerQuery",
    "ask_indexer",
    "ask_indexer_pages",
    "graphql_call",
    "graphql_data",
]

#: Longest query text sent (the embedded node's indexer takes 32 KiB).
MAX_QUERY_CHARS: Final = 32 * 1024
#: Largest answer read (a page of rows is far smaller).
MAX_ANSWER_BYTES: Final = 16 * 1024 * 1024
#: Most error messages an IndexerError keeps.
_MAX_ERRORS: Final = 20


@dataclass(frozen=True, slots=True, eq=False)
class IndexerQuery:
    """A step: a GraphQL query for the client's indexer (``indexer_url``); the client
    answers with the answer's ``data``, or raises :class:`~ledgerkit.IndexerError`
    (GraphQL ``errors``) or :class:`~ledgerkit.InputError` (no indexer known)."""

    query: str
    variables: Mapping[str, Any] = field(default_factory=dict)


def ask_indexer(
    query: str, variables: Mapping[str, Any] | None = None
) -> Generator[IndexerQuery, Any, dict[str, Any]]:
    """A query of the indexer inside a flow: ``data = yield from ask_indexer(q, v)``."""
    data: dict[str, Any] = yield IndexerQuery(query, dict(variables or {}))
    return data


def ask_indexer_pages(
    query: str, table: str, owner: str, page_rows: int, most_rows: int
) -> Generator[IndexerQuery, Any, tuple[list[Any], bool]]:
    """The rows of ``table`` an owner's query pages through inside a flow: ``query`` takes
    ``$owner``, ``$limit`` and ``$offset``; pages of ``page_rows`` are asked for until a
    short one, or until ``most_rows`` are read. Returns the rows and whether there may be
    more past ``most_rows``; :class:`~ledgerkit.InputError` when an answer has no list of
    ``table`` rows."""
    rows: list[Any] = []
    while len(rows) < most_rows:
        variables = {"owner": owner, "limit": page_rows, "offset": len(rows)}
        data = yield from ask_indexer(query, variables)
        page = data.get(table)
        if not isinstance(page, list):
            raise InputError(f"the indexer has no {table} rows to give")
        rows.extend(page)
        if len(page) < page_rows:
            return rows[:most_rows], False
    return rows[:most_rows], True


def graphql_call(query: str, variables: Mapping[str, Any] | None = None) -> Call[dict[str, Any]]:
    """The POST of a GraphQL query, at the indexer's URL itself (an empty path), checked:
    a query is text of at most :data:`MAX_QUERY_CHARS`, variables a mapping of names."""
    if not isinstance(query, str) or not query.strip():
        raise InputError(f"a GraphQL query is text, got {query!r}")
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(f"a GraphQL query is at most {MAX_QUERY_CHARS:,} characters")
    given = {} if variables is None else variables
    if not isinstance(given, Mapping) or not all(isinstance(k, str) for k in given):
        raise InputError("GraphQL variables are a mapping of names to JSON values")
    body = json_body({"query": query, "variables": dict(given)})
    return Call(
        "graphql",
        "POST",
        "",
        _not_read,
        body=body,
        content_type=JSON,
        accept=JSON,
        idempotent=True,  # a query reads, so a retry is harmless
    )


def _not_read(body: bytes) -> dict[str, Any]:
    raise AssertionError("an indexer's answer is read by graphql_data")  # pragma: no cover


def graphql_data(body: bytes, url: str) -> dict[str, Any]:
    """The ``data`` of a GraphQL answer from the indexer at ``url`` (as logs write it).

    Raises
    ------
    IndexerError
        The answer has ``errors``, is larger than :data:`MAX_ANSWER_BYTES`, or is not a
        GraphQL answer (JSON with an object ``data``).
    """
    if len(body) > MAX_ANSWER_BYTES:
        raise IndexerError(f"the answer is larger than {MAX_ANSWER_BYTES:,} bytes", url=url)
    try:
        answer = json.loads(body)
    except (ValueError, RecursionError):
        raise IndexerError("the answer is not JSON", url=url) from None
    if not isinstance(answer, dict):
        raise IndexerError("the answer is not a GraphQL answer (an object)", url=url)
    errors = answer.get("errors")
    if errors:
        listed = errors if isinstance(errors, list) else [errors]
        messages = tuple(_message(error) for error in listed[:_MAX_ERRORS])
        raise IndexerError(
            f"the indexer refused the query: {messages[0]}"
            + (f" (and {len(listed) - 1} more)" if len(listed) > 1 else ""),
            errors=messages,
            url=url,
        )
    data = answer.get("data")
    if not isinstance(data, dict):
        raise IndexerError("the answer has no data", url=url)
    return data


def _message(error: Any) -> str:
    message = error.get("message") if isinstance(error, dict) else error
    return str(message)[:500]
