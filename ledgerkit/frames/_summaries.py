"""The frame of an account's transaction summaries (``client.account_transaction_summaries``).

One row per summary, its columns and dtypes fixed (:data:`TRANSACTION_SUMMARY_COLUMNS`),
the same for no summaries at all; the replay protector is split into the sequence number
and the nonce, one of which is missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import pandas as pd

from ledgerkit.frames._dtypes import CATEGORY, STRING, UINT64, build_frame
from ledgerkit.frames._inputs import records_of
from ledgerkit.models import TransactionSummary, decode_transaction_summaries
from ledgerkit.types import Result

__all__ = ["TRANSACTION_SUMMARY_COLUMNS", "transaction_summaries_to_frame"]

#: Columns of :func:`transaction_summaries_to_frame` and their dtypes, in order.
TRANSACTION_SUMMARY_COLUMNS: Final = {
    "version": UINT64,
    "sender": STRING,
    "transaction_hash": STRING,
    "replay_protector": CATEGORY,
    "sequence_number": UINT64,
    "nonce": UINT64,
}
_EXPECTED: Final = "transaction summaries (records, their JSON, or a client result)"


def transaction_summaries_to_frame(
    records: bytes
    | Result[list[TransactionSummary]]
    | TransactionSummary
    | Iterable[TransactionSummary | dict[str, Any]],
) -> pd.DataFrame:
    """One row per summary (:data:`TRANSACTION_SUMMARY_COLUMNS`), in the order given.

    Parameters
    ----------
    records : iterable of TransactionSummary, or a Result of them
        What ``client.account_transaction_summaries(...)`` or
        ``list(client.iter_account_transaction_summaries(...))`` answer, or their JSON.

    Returns
    -------
    pandas.DataFrame
        ``replay_protector`` is ``sequence_number`` or ``nonce`` (missing for a form the
        node sent that is neither); ``sequence_number`` and ``nonce`` hold the number of
        that kind, the other one missing.

    Raises
    ------
    InputError
        ``records``, or an item of it, is none of these.
    """
    summaries: list[TransactionSummary] = records_of(
        records,
        (TransactionSummary,),
        decode_transaction_summaries,
        converter="transaction_summaries_to_frame",
        expected=_EXPECTED,
    )
    sequences = [s.sequence_number for s in summaries]
    nonces = [s.nonce for s in summaries]
    columns: dict[str, list[Any]] = {
        "version": [s.version for s in summaries],
        "sender": [s.sender for s in summaries],
        "transaction_hash": [s.transaction_hash for s in summaries],
        "replay_protector": [_kind(n, k) for n, k in zip(sequences, nonces, strict=True)],
        "sequence_number": sequences,
        "nonce": nonces,
    }
    return build_frame(TRANSACTION_SUMMARY_COLUMNS, columns)


def _kind(sequence_number: int | None, nonce: int | None) -> str | None:
    if sequence_number is not None:
        return "sequence_number"
    return None if nonce is None else "nonce"
