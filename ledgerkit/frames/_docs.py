"""Frames of a docs host's texts: the index (``llms.txt``) and the hits of a local search.

The docs clients (:class:`ledgerkit.DocsClient`) answer records, one per link or hit
(``IndexEntry``, ``SearchHit``: named tuples); these converters make them frames whose
columns and dtypes are fixed, the same for no records at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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

#: A search score: a plain float.
_SCORE: Final = pd.api.types.pandas_dtype("float64")

#: Columns of :func:`docs_index_to_frame` and their dtypes, in order (all strings).
DOCS_INDEX_COLUMNS: Final = {
    "section": STRING,
    "title": STRING,
    "url": STRING,
    "path": STRING,
    "description": STRING,
}
#: Columns of :func:`search_hits_to_frame` and their dtypes, in order.
SEARCH_HIT_COLUMNS: Final = {
    "title": STRING,
    "url": STRING,
    "score": _SCORE,
    "snippet": STRING,
}


def _frame(records: Sequence[Any], columns: Mapping[str, Any], what: str) -> pd.DataFrame:
    """The frame of ``columns`` over ``records``, each record read by field name."""
    if isinstance(records, str | bytes) or not isinstance(records, Sequence):
        raise InputError(f"{what} takes a list of records, got {describe(records)}")
    values: dict[str, list[Any]] = {name: [] for name in columns}
    for position, record in enumerate(records):
        try:
            for name, column in values.items():
                column.append(getattr(record, name))
        except AttributeError:
            raise InputError(
                f"{what}: item {position} is a {describe(record)}, not a record with "
                f"fields {', '.join(columns)}"
            ) from None
    return pd.DataFrame(
        {name: pd.array(values[name], dtype=dtype) for name, dtype in columns.items()}
    )


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
    return _frame(entries, DOCS_INDEX_COLUMNS, "docs_index_to_frame")


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
    return _frame(hits, SEARCH_HIT_COLUMNS, "search_hits_to_frame")
