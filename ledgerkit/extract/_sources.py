"""The kinds of extraction, a closed set (:data:`ExtractKind`), and what each one reads
(:func:`source_of`): shared by the datasets (:func:`~ledgerkit.extract.extract`) and the
Dask frames (:func:`~ledgerkit.extract.extract_dask`).
"""

from __future__ import annotations

import typing
from typing import Final, Literal

from ledgerkit._errors import InputError
from ledgerkit.extract._activity import activity_source
from ledgerkit.extract._fetch import (
    Source,
    blocks_source,
    events_source,
    transaction_events_source,
    transactions_source,
)
from ledgerkit.types import Address

__all__ = ["KINDS", "ExtractKind", "source_of"]

#: What a dataset can hold: transactions by version, blocks by height, the events of
#: one stream by sequence number, the events transactions carry by version, or the
#: activity of every address by version.
ExtractKind = Literal["transactions", "blocks", "events", "transaction_events", "activity"]
#: The kinds, in the order the documentation lists them.
KINDS: Final[tuple[str, ...]] = typing.get_args(ExtractKind)


def source_of(kind: object, address: str | Address | None, creation_number: int | None) -> Source:
    """What ``kind`` reads, checked: a kind of the closed set, and a stream for events
    (and for events only)."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise InputError(
            f"unknown extraction kind {kind!r}; the kinds are {', '.join(map(repr, KINDS))}"
        )
    if kind == "events":
        if address is None or creation_number is None:
            raise InputError("events are read from one stream: give address= and creation_number=")
        return events_source(address, creation_number)
    if address is not None or creation_number is not None:
        raise InputError(f"address= and creation_number= name an event stream; {kind} have none")
    if kind == "blocks":
        return blocks_source()
    if kind == "transaction_events":
        return transaction_events_source()
    if kind == "activity":
        return activity_source()
    return transactions_source(rows=True)
