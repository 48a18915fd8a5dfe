"""What an explorer shows, read as its headless tests read it: a grid found by its
title, and the breadcrumb's text."""

from __future__ import annotations

from typing import Any

from ledgerkit.widgets import LedgerGrid


def grid_titled(explorer: Any, title_part: str) -> LedgerGrid:
    """The first grid of the explorer's current view whose title holds ``title_part``."""
    view = explorer.view
    assert view is not None
    for grid in view.grids:
        if title_part in grid.title:
            return grid
    raise AssertionError(f"no grid titled {title_part!r} in {[g.title for g in view.grids]}")


def crumbs(explorer: Any) -> str:
    """The breadcrumb's text: each step of the way to the current view."""
    text: str = explorer._crumbs.value
    return text.removeprefix("<span class='lk-crumbs'>").removesuffix("</span>")
