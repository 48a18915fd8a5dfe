"""Notebook widgets for exploring a ledger: :class:`AccountExplorer`,
:class:`TableExplorer` and :class:`TransactionInspector`, which drill into one another,
over one grid.

:class:`LedgerGrid` is a paged table whose pages a :class:`PageSource` fetches one at a
time in the kernel; only the page shown crosses to the browser. Its front end is an ES
module shipped in this package (no build step, nothing loaded from the network), so it
works offline in JupyterLab, Notebook, Voilà and VS Code.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.widgets._account import AccountExplorer
from ledgerkit.widgets._gas import GasDashboard
from ledgerkit.widgets._grid import Column, GridPage, LedgerGrid, PageSource
from ledgerkit.widgets._inspector import TransactionInspector
from ledgerkit.widgets._table import TableExplorer

__all__ = [
    "AccountExplorer",
    "Column",
    "GasDashboard",
    "GridPage",
    "LedgerGrid",
    "PageSource",
    "TableExplorer",
    "TransactionInspector",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
