"""The ledger the HTTP app calls: one object composed of its parts.

* ``_node_ledger``: :class:`Ledger`, which opens the file, submits, simulates, produces
  blocks and runs the live workload; it *has* its ``reads`` and its ``views``;
* ``_ledger_reads``: :class:`LedgerReads`, the read side at the ledger's head (accounts,
  state, events, transactions, blocks, tables) and the records it answers with;
* ``_ledger_views``: :class:`LedgerViews`, Move view functions run at a version;
* ``_node_simulation``: a signed transaction executed against the latest state, nothing
  committed;
* ``_file_identity``: which chain a ledger file holds, and which build serves it.

Exports :class:`Ledger`, its parts (:class:`LedgerReads`, :class:`LedgerViews`) and the
records they answer with (:class:`Head`, :class:`Resource`, :class:`Module`,
:class:`Page`, :class:`ViewResult`).
"""

from __future__ import annotations

from ledgerkit.localnet.ledger._ledger_reads import (
    MAX_EVENTS_PAGE,
    MAX_TRANSACTIONS_PAGE,
    Head,
    LedgerReads,
    Module,
    Page,
    Resource,
    ViewResult,
)
from ledgerkit.localnet.ledger._ledger_views import LedgerViews
from ledgerkit.localnet.ledger._node_ledger import Ledger

__all__ = [
    "MAX_EVENTS_PAGE",
    "MAX_TRANSACTIONS_PAGE",
    "Head",
    "Ledger",
    "LedgerReads",
    "LedgerViews",
    "Module",
    "Page",
    "Resource",
    "ViewResult",
]
