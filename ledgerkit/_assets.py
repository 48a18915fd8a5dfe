"""``ledgerkit.account_balances``: every asset of an account as a frame, from the front door."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import TYPE_CHECKING

import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit._public import publish as _publish
from ledgerkit.frames import holdings_to_frame
from ledgerkit.types import Address

if TYPE_CHECKING:
    from ledgerkit.client import Client

__all__ = ["account_balances"]


def account_balances(
    client: Client,
    address: str | Address,
    *,
    ledger_version: int | None = None,
    assets: Iterable[str | Address] = (),
    tokens: Iterable[str | Address] = (),
) -> pd.DataFrame:
    """Every asset an account holds, coins, fungible assets and digital assets (tokens),
    in one call, as a frame (:data:`ledgerkit.frames.HOLDING_COLUMNS`): exact balances,
    and amounts in display units; a token's collection, standard, URI and properties.

    Coins and fungible assets are found with the node API (see
    ``Client.account_assets``); ``assets`` names more fungible assets (metadata
    addresses) to look for. Tokens are those the client's indexer lists (a client of
    :func:`ledgerkit.connect` knows the embedded node's and the public networks'), and
    those at the object addresses named in ``tokens`` that the account owns.

    Raises
    ------
    InputError
        ``client`` is an ``AsyncClient``: use
        ``holdings_to_frame(await client.account_assets(address))``.

    Examples
    --------
    >>> ledgerkit.account_balances(client, "0x1")  # doctest: +SKIP
    """
    found = client.account_assets(
        address, ledger_version=ledger_version, assets=assets, tokens=tokens
    )
    if inspect.isawaitable(found):
        close = getattr(found, "close", None)
        if close is not None:
            close()
        raise InputError(
            "account_balances takes a Client; with an AsyncClient use "
            "ledgerkit.frames.holdings_to_frame(await client.account_assets(address))"
        )
    return holdings_to_frame(found)


_publish(globals(), __all__, "ledgerkit")
