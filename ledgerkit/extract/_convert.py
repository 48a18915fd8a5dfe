"""Records to frames for the datasets: the ``ledgerkit.frames`` converters, and the fixed
empty frame (Dask's ``meta``) each one yields for no records."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ledgerkit.frames import (
    activity_to_frame,
    blocks_to_frame,
    events_to_frame,
    transactions_to_frame,
)

__all__ = ["CONVERTERS", "empty_frame"]

CONVERTERS: dict[str, Callable[[Sequence[Any]], pd.DataFrame]] = {
    "transactions": transactions_to_frame,
    "events": events_to_frame,
    "blocks": blocks_to_frame,
    # The events of transactions, read alone: the frame events_to_frame gives of them.
    "transaction_events": events_to_frame,
    "activity": activity_to_frame,
}


def empty_frame(kind: str) -> pd.DataFrame:
    """The columns and dtypes of ``kind`` with no rows."""
    return CONVERTERS[kind]([])
