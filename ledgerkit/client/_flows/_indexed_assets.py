"""The fungible assets an indexer says an account holds: candidates for
``account_assets``, whose balances, names and decimals are then read from the node at one
ledger version. No I/O here: a flow.

The node API cannot list an account's fungible stores (each is an object of its own), so
an asset made after genesis by a published module (an issuer's stablecoin, a game's
gems) is found through the indexer's ``current_fungible_asset_balances`` when the client
knows an indexer: the rows of the owner, fungible-asset ones (``asset_type`` a metadata
address, not a coin type), :data:`PAGE_ROWS` a page, at most :data:`MAX_INDEXED_ASSETS`.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from ledgerkit._errors import LedgerError
from ledgerkit.client._calls._graphql import ask_indexer_pages
from ledgerkit.client._driver import Flow
from ledgerkit.types import Address

__all__ = ["MAX_INDEXED_ASSETS", "indexed_assets"]

PAGE_ROWS: Final = 100
#: Most fungible assets taken from the indexer for one account.
MAX_INDEXED_ASSETS: Final = 10 * PAGE_ROWS

_log = logging.getLogger("ledgerkit")

_HELD_ASSETS: Final = """query heldFungibleAssets($owner: String, $limit: Int, $offset: Int) {
  current_fungible_asset_balances(
    where: {owner_address: {_eq: $owner}}
    limit: $limit
    offset: $offset
    order_by: {asset_type: asc}
  ) {
    asset_type
  }
}"""


def _metadata(row: Any) -> str | None:
    """A row's metadata address (long), or None for a coin's row or a malformed one."""
    asset_type = row.get("asset_type") if isinstance(row, dict) else None
    if not isinstance(asset_type, str) or "::" in asset_type:
        return None
    try:
        return Address.parse(asset_type).long
    except (LedgerError, ValueError):
        return None


def indexed_assets(owner: Address) -> Flow[list[str]]:
    """The metadata addresses (long) of the fungible assets the indexer says ``owner``
    holds, in the indexer's order."""
    rows, more = yield from ask_indexer_pages(
        _HELD_ASSETS, "current_fungible_asset_balances", owner.long, PAGE_ROWS, MAX_INDEXED_ASSETS
    )
    found: list[str] = []
    for row in rows:
        metadata = _metadata(row)
        if metadata is not None and metadata not in found:
            found.append(metadata)
    if more:
        _log.warning(
            "account_assets: %s holds more than %d fungible assets; the first %d are looked at",
            owner.long,
            MAX_INDEXED_ASSETS,
            MAX_INDEXED_ASSETS,
        )
    return found
