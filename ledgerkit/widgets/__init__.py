"""Notebook widgets for exploring a ledger: :class:`AccountExplorer`,
:class:`TableExplorer` and :class:`TransactionInspector`, which drill into one another,
over one grid. They read through a :class:`ReadClient` (a :class:`ledgerkit.Client`, or
a fake one in tests), each tab when it is first shown.

:class:`LedgerGrid` is a paged table whose pages a :class:`PageSource` fetches one at a
time in the kernel; only the page shown crosses to the browser. Its front end is an ES
module shipped in this package (no build step, nothing loaded from the network), so it
works offline in JupyterLab, Notebook, Voilà and VS Code.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.widgets._account_explorer import AccountExplorer
from ledgerkit.widgets._gas_dashboard import GasDashboard
from ledgerkit.widgets._grid import (
    Column,
    GridPage,
    LedgerGrid,
    PageSource,
    SortedPageSource,
    SortOrder,
)
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._table_explorer import TableExplorer
from ledgerkit.widgets._transaction_inspector import TransactionInspector

__all__ = [
    "AccountExplorer",
    "Column",
    "GasDashboard",
    "GridPage",
    "LedgerGrid",
    "PageSource",
    "ReadClient",
    "SortOrder",
    "SortedPageSource",
    "TableExplorer",
    "TransactionInspector",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
