"""Altair charts of ledger activity: pure functions from frames to charts.

Charts never fetch; give them frames from :mod:`ledgerkit.frames`. They aggregate in
pandas first, so a chart carries a row per time bucket (or bin, or ranked group), never
the transactions themselves, and integers stay exact until the chart's own data. They
render offline with Altair's ``svg`` or ``png`` renderers (vl-convert); call
:func:`use_offline_renderer` once in a notebook. :func:`interactive_gas_chart` is the
one widget: a ``JupyterChart`` whose brush filters a transactions frame.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.charts._activity import activity_chart
from ledgerkit.charts._blocks import (
    BLOCK_GAS_LIMIT,
    UTILISATION_COLUMNS,
    block_times_chart,
    block_utilisation,
)
from ledgerkit.charts._common import BUCKET_LADDER, bucket_freq
from ledgerkit.charts._display import use_offline_renderer
from ledgerkit.charts._gas import gas_history_chart, gas_market_chart
from ledgerkit.charts._interactive import (
    BRUSH,
    brushed_range,
    filter_by_brush,
    interactive_gas_chart,
)

__all__ = [
    "BLOCK_GAS_LIMIT",
    "BRUSH",
    "BUCKET_LADDER",
    "UTILISATION_COLUMNS",
    "activity_chart",
    "block_times_chart",
    "block_utilisation",
    "brushed_range",
    "bucket_freq",
    "filter_by_brush",
    "gas_history_chart",
    "gas_market_chart",
    "interactive_gas_chart",
    "use_offline_renderer",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
