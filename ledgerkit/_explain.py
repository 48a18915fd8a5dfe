"""``ledgerkit.explain``: any transaction's bytes explained field by field, from the front door."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from ledgerkit._errors import InputError
from ledgerkit._public import publish as _publish
from ledgerkit.bcs import RawTransaction, SignedTransaction, TransactionData
from ledgerkit.tx import TransactionExplanation, explain_transaction

if TYPE_CHECKING:
    from ledgerkit.client import Client

__all__ = ["explain"]


def explain(
    txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes,
    *,
    client: Client | None = None,
) -> TransactionExplanation:
    """Explain a transaction's BCS field by field: offsets, bytes, names and values.

    With a ``client``, the called entry function's arguments are typed by its ABI
    (``arg[1] = u64 1000000``) and a transaction may be given by version or hash (read
    from the node as BCS, committed or pending). Without one, a transaction built here is
    explained with its arguments as bytes.

    Parameters
    ----------
    txn : RawTransaction, SignedTransaction, TransactionData, int or str
        The transaction, or the version (int) or hash of one on the ledger.
    client : Client, optional
        The node to read from (for an ``AsyncClient``, ``await client.explain(txn)``).

    Returns
    -------
    TransactionExplanation
        ``str()`` is the annotated dump, ``to_frame()`` a frame of offset, bytes, field
        and value; it renders as ``<pre>`` in Jupyter.

    Raises
    ------
    InputError
        A version or hash without a client, or anything that is not a transaction.

    Examples
    --------
    >>> import ledgerkit
    >>> with ledgerkit.connect() as client:  # doctest: +SKIP
    ...     print(ledgerkit.explain(3, client=client))
    """
    if client is not None:
        explanation = client.explain(txn)
        if inspect.isawaitable(explanation):  # an AsyncClient: it must be awaited
            close = getattr(explanation, "close", None)
            if close is not None:
                close()
            raise InputError("with an AsyncClient, use: await client.explain(txn)")
        return explanation
    if isinstance(txn, RawTransaction | SignedTransaction | TransactionData):
        return explain_transaction(txn)
    if isinstance(txn, int | str | bytes):
        raise InputError("explaining a transaction by version or hash needs client=")
    raise InputError(
        "explain takes a RawTransaction, SignedTransaction, TransactionData, a version or a "
        f"hash, got {type(txn).__name__}"
    )


# A front-door name (see ledgerkit._public).
_publish(globals(), ("explain",), "ledgerkit")
