"""Who gained and lost what in one transaction, for the simulation and the client's
flows: the balance readers of :mod:`ledgerkit.models` (which ``ledgerkit.frames`` reads
committed transactions' balance changes with too), under the names ``ledgerkit.tx`` has
always given them."""

from __future__ import annotations

from ledgerkit.models import (
    BalanceKey,
    StoreFacts,
    balance_deltas,
    gas_payer,
    primary_store_address,
    storage_fee_refund,
    stores_to_look_up,
)
from ledgerkit.types import APT_COIN, APT_METADATA

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
