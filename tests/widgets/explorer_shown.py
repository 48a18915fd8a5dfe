"""What an explorer shows, read as its headless tests read it: a grid found by its
title, and the breadcrumb's text; and values written out the way a reader reads them
(a shortened address, an amount, a time), for the tests' expected values."""

from __future__ import annotations

import datetime as dt
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


# -- values written out as a reader reads them, for the expected values ---------------------

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def shortened(address: str) -> str:
    """An address of 64 hex digits as the explorers shorten it: its first and last four."""
    assert len(address) == 66, address
    return f"{address[:6]}…{address[-4:]}"


def units(base: int, decimals: int) -> str:
    """An amount of base units in whole units: grouped, no trailing zeros."""
    whole, part = divmod(abs(base), 10**decimals)
    digits = f"{part:0{decimals}d}".rstrip("0")
    return ("-" if base < 0 else "") + f"{whole:,}" + (f".{digits}" if digits else "")


def utc(usec: int) -> str:
    """Microseconds since the epoch as the explorers write a time."""
    return (_EPOCH + dt.timedelta(microseconds=usec)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


#: ``0x1::transaction_fee::FeeStatement``'s fields, in the struct's order.
FEE_FIELDS = (
    "total_charge_gas_units",
    "execution_gas_units",
    "io_gas_units",
    "storage_fee_octas",
    "storage_fee_refund_octas",
)


def fee_fields(txn: Any) -> str:
    """A transaction's FeeStatement event as the events grid writes its fields out."""
    last = txn.events[-1]
    assert last.type == "0x1::transaction_fee::FeeStatement"
    return " · ".join(f"{name}: {last.data[name]}" for name in FEE_FIELDS)
