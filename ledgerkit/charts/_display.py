"""Showing charts without the web: Altair's static renderers, and the interactive
``JupyterChart`` with its JavaScript bundled from vl-convert instead of a CDN."""

from __future__ import annotations

import threading
from typing import Final

import altair as alt

from ledgerkit._errors import InputError
from ledgerkit.charts._theme import chart_theme

__all__ = ["enable_offline_widgets", "use_offline_renderer"]

_LOCK: Final = threading.Lock()


def use_offline_renderer(kind: str = "svg", *, theme: str | None = None) -> None:
    """Render charts in notebooks without loading JavaScript from a CDN (``svg`` or ``png``).

    Both come from vl-convert in the kernel; ``svg`` is byte-identical from run to run,
    which keeps executed notebooks comparable. The kernel cannot see the notebook's
    theme: give ``theme="dark"`` under JupyterLab Dark (``"light"`` goes back; None
    keeps the theme as it is). Interactive charts follow the page's theme by themselves.
    """
    if kind not in ("svg", "png"):
        raise InputError(f"offline renderers are 'svg' and 'png', not {kind!r}")
    if theme is not None:
        chart_theme(theme)
    alt.renderers.enable(kind)


def enable_offline_widgets() -> None:
    """Make ``alt.JupyterChart`` load Vega from vl-convert's bundle, not from a CDN.

    Called when an interactive chart is made: the first call bundles (about two
    seconds), later ones return at once.
    """
    with _LOCK:
        alt.JupyterChart.enable_offline()
