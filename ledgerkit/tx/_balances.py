"""Who gained and lost what in one transaction, for the simulation and the client's
flows: the balance readers of :mod:`ledgerkit.frames` (which frames committed
transactions' balance changes with them), under the names ``ledgerkit.tx`` has always
given them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledgerkit import frames
from ledgerkit.frames import (
    APT_COIN,
    APT_METADATA,
    gas_payer,
    storage_fee_refund,
)
from ledgerkit.types import Address

__all__ = [
    "APT_COIN",
    "APT_METADATA",
    "BalanceKey",
    "StoreFacts",
    "balance_deltas",
    "gas_payer",
    "primary_store_address",
    "storage_fee_refund",
    "stores_to_look_up",
]

#: ``(account, asset)``: the account in long form; the asset's key (a metadata address,
#: long form; a coin's paired one), None when the transaction does not say.
BalanceKey = tuple[str, str | None]
#: What is known of a fungible store: ``(owner, metadata)``, each long form or None.
StoreFacts = tuple[str | None, str | None]


def balance_deltas(
    txn: Any, stores: Mapping[str, StoreFacts] | None = None
) -> dict[BalanceKey, int]:
    """The net change of each account's balance of each asset, exact, zeros left out:
    ``(account, asset) -> signed change``, the asset named by its key (see
    :func:`ledgerkit.frames.balance_deltas`).

    Parameters
    ----------
    txn : Transaction
        A committed or simulated transaction.
    stores : mapping, optional
        Store address -> ``(owner, metadata)`` looked up elsewhere, for the stores of
        :func:`stores_to_look_up`.
    """
    return frames.balance_deltas(txn, stores)


def primary_store_address(owner: str | Address, metadata: str | Address) -> Address:
    """The address of ``owner``'s primary store of the asset ``metadata``."""
    return frames.primary_store_address(owner, metadata)


def stores_to_look_up(txn: Any) -> list[str]:
    """The fungible stores whose owner or asset the transaction alone does not tell
    (long form): read their ``ObjectCore`` and ``FungibleStore`` to complete the
    balance changes."""
    return frames.stores_to_look_up(txn)
