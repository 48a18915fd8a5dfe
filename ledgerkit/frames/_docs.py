"""Frames of a docs host's texts: the index (``llms.txt``) and the hits of a local search.

The docs clients (:class:`ledgerkit.DocsClient`) answer records, one per link or hit
(``IndexEntry``, ``SearchHit``: named tuples); these converters make them frames whose
columns and dtypes are fixed, the same for no records at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit.frames._dtypes import STRING
from ledgerkit.frames._inputs import describe

__all__ = [
    "DOCS_INDEX_COLUMNS",
    "SEARCH_HIT_COLUMNS",
    "docs_index_to_frame",
    "search_hits_to_frame",
]

#: Columns of :func:`docs_index_to_frame`, in order (all strings).
DOCS_INDEX_COLUMNS: Final = ("section", "title", "url", "path", "description")
#: Columns of :func:`search_hits_to_frame`, in order: strings, and ``score`` a float.
SEARCH_HIT_COLUMNS: Final = ("title", "url", "score", "snippet")


def _fields(records: Sequence[Any], columns: tuple[str, ...], what: str) -> list[list[Any]]:
    """The values of each column over ``records``, each record read by field name."""
    if isinstance(records, str | bytes) or not isinstance(records, Sequence):
        raise InputError(f"{what} takes a list of records, got {describe(records)}")
    values: list[list[Any]] = [[] for _ in columns]
    for position, record in enumerate(records):
        try:
            for column, name in zip(values, columns, strict=True):
                column.append(getattr(record, name))
        except AttributeError:
            raise InputError(
                f"{what}: item {position} is a {describe(record)}, not a record with "
                f"fields {', '.join(columns)}"
            ) from None
    return values


def docs_index_to_frame(entries: Sequence[Any]) -> pd.DataFrame:
    """A docs host's index as a frame: one row per link of its ``llms.txt``, in file order.

    Parameters
    ----------
    entries : list of IndexEntry
        What :meth:`DocsClient.index <ledgerkit.DocsClient.index>` answers.

    Returns
    -------
    pandas.DataFrame
        :data:`DOCS_INDEX_COLUMNS`, all strings: ``path`` is the page's path on the host
        (what ``DocsClient.page`` takes), ``""`` for a link elsewhere.

    Examples
    --------
    >>> docs_index_to_frame(docs.index())  # doctest: +SKIP
    """
    values = _fields(entries, DOCS_INDEX_COLUMNS, "docs_index_to_frame")
    return pd.DataFrame(
        {
            name: pd.array(column, dtype=STRING)
            for name, column in zip(DOCS_INDEX_COLUMNS, values, strict=True)
        }
    )


def search_hits_to_frame(hits: Sequence[Any]) -> pd.DataFrame:
    """The hits of a docs search as a frame, best first.

    Parameters
    ----------
    hits : list of SearchHit
        What :meth:`DocsClient.search <ledgerkit.DocsClient.search>` answers.

    Returns
    -------
    pandas.DataFrame
        :data:`SEARCH_HIT_COLUMNS`: ``title``, ``url`` and ``snippet`` strings, ``score``
        a float.
    """
    values = _fields(hits, SEARCH_HIT_COLUMNS, "search_hits_to_frame")
    return pd.DataFrame(
        {
            name: pd.array(column, dtype="float64" if name == "score" else STRING)
            for name, column in zip(SEARCH_HIT_COLUMNS, values, strict=True)
        }
    )
