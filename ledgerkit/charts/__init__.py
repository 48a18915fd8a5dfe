"""Altair charts of ledger activity: pure functions from frames to ``alt.Chart``.

Charts never fetch; give them frames from :mod:`ledgerkit.frames`. They render offline
with Altair's ``svg`` or ``png`` renderers (vl-convert); call :func:`use_offline_renderer`
once in a notebook.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.charts._gas import activity_chart, gas_history_chart, use_offline_renderer

__all__ = ["activity_chart", "gas_history_chart", "use_offline_renderer"]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
