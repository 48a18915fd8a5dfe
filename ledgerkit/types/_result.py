"""``Result``: what every client method answers, a value and where the ledger stood.

It lives on the ground floor, beside :class:`LedgerMeta`, because it is plain data that
flows down from the client to whoever reads answers (frames, charts) without those
having to know the client.
"""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

from ledgerkit.types._ledger_meta import LedgerMeta

__all__ = ["Result"]

T = TypeVar("T")


class Result(NamedTuple, Generic[T]):
    """What every client method answers: the value and where the ledger stood.

    Attributes
    ----------
    value : T
        The decoded answer (a model, a list of models, bytes, an int...).
    ledger : LedgerMeta
        The ledger position from the response headers (chain id, ledger version, epoch,
        block height, the cursor of a paged answer, the gas a view used...). An answer
        served from the cache carries the metadata of the response it was stored from.

    Examples
    --------
    >>> info, ledger = client.ledger_info()  # doctest: +SKIP
    >>> client.account(address).value.sequence_number  # doctest: +SKIP
    """

    value: T
    ledger: LedgerMeta
