"""``ledgerkit.account_activity``: what happened to an account over a range, as a frame,
from the front door: from a node (scanned through the extraction) or from an
``"activity"`` dataset extracted before (no node needed)."""

from __future__ import annotations

import inspect
import os
from typing import TYPE_CHECKING

import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit._public import publish as _publish
from ledgerkit.types import Address

if TYPE_CHECKING:
    from ledgerkit.client import Client

__all__ = ["account_activity"]


def account_activity(
    client: Client | str | os.PathLike[str],
    address: str | Address,
    *,
    start_version: int | None = None,
    end_version: int | None = None,
    dataset: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Every transaction that touched an account after ``start_version``, up to and
    including ``end_version``: as sender, secondary signer or fee payer, as the recipient
    of a coin or fungible-asset deposit, or by a write set that changed its resources or
    stores. One row each (:data:`ledgerkit.frames.ACTIVITY_COLUMNS`): version, timestamp,
    hash, roles, function, success, the fee charged to the account and its exact net
    change per asset. The balance read at ``end_version`` is the balance at
    ``start_version`` plus the rows' changes.

    Parameters
    ----------
    client : Client, or a path
        The node (``Client.account_activity`` scans the range: see there), or the
        directory of an ``"activity"`` dataset extracted before
        (``ledgerkit.extract.extract("activity", ...)``), read without a node; it must
        hold every version of the range.
    address : str or Address
        The account.
    start_version : int, optional
        The version after which to start (default: the first version, genesis included;
        for a dataset, the first it holds).
    end_version : int, optional
        The last version counted (default: the head; for a dataset, the last it holds).
    dataset, progress : optional
        Where a node's scanned range is kept, and its progress bar: see
        ``Client.account_activity``.

    Raises
    ------
    InputError
        ``client`` is an ``AsyncClient`` (``await client.account_activity(...)``), or a
        dataset lacks versions of the range.

    Examples
    --------
    >>> ledgerkit.account_activity(client, "0xa11ce", start_version=1_000)  # doctest: +SKIP
    >>> ledgerkit.account_activity("data/activity", "0xa11ce")  # doctest: +SKIP
    """
    if isinstance(client, str | os.PathLike):
        from ledgerkit.extract import read_activity

        if dataset is not None:
            raise InputError("dataset= is where a node's scan is kept; give the dataset alone")
        start = None if start_version is None else start_version + 1
        stop = None if end_version is None else end_version + 1
        return read_activity(client, address, start=start, stop=stop)
    method = getattr(client, "account_activity", None)
    if method is None:
        raise InputError(
            "account_activity takes a Client or the path of an activity dataset, "
            f"got {type(client).__name__}"
        )
    found = method(
        address,
        start_version=start_version,
        end_version=end_version,
        dataset=dataset,
        progress=progress,
    )
    if inspect.isawaitable(found):
        close = getattr(found, "close", None)
        if close is not None:
            close()
        raise InputError(
            "account_activity takes a Client; with an AsyncClient use "
            "await client.account_activity(address, ...)"
        )
    frame: pd.DataFrame = found
    return frame


_publish(globals(), __all__, "ledgerkit")
