"""Charts as SVG for the places where no kernel runs them: an interactive chart's mime
bundle carries its chart as ``image/svg+xml`` beside the widget view, so an exported HTML,
the docs site and nbval's saved outputs show the chart rather than a line of text.

The SVG comes from vl-convert (Altair's ``save(format="svg")``), in the kernel, with
nothing loaded from the web. vl-convert numbers the clip paths of a process's renders one
after another (``clip1``, then ``clip3`` for the same chart rendered again), so the ids
are renumbered here from the chart's own content: the same chart gives the same bytes
however often, and in whatever order, charts were rendered before it, and two charts
inlined in one page never share an id.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
from typing import Any, Final

__all__ = ["MAX_SVG_BYTES", "SVG_MIME", "chart_svg", "stable_ids", "with_static_svg"]

_log = logging.getLogger("ledgerkit.charts")

SVG_MIME: Final = "image/svg+xml"
#: A chart whose SVG is larger than this carries none (its text form stays).
MAX_SVG_BYTES: Final = 2 << 20

#: An element id of vl-convert's numbering (``clip12``, ``gradient_3``).
_NUMBERED_ID: Final = re.compile(r'\bid="([A-Za-z_-]*?)(\d+)"')


def chart_svg(chart: Any) -> str:
    """``chart`` (an Altair chart) rendered as an SVG document with stable ids.

    Raises
    ------
    ValueError
        The chart cannot be rendered (from Altair or vl-convert).
    """
    buffer = io.StringIO()
    chart.save(buffer, format="svg")
    return stable_ids(buffer.getvalue())


def stable_ids(svg: str) -> str:
    """``svg`` with its numbered ids renamed ``lk<digest>-<name><n>``, ``n`` counting from
    1 in order of appearance, and every reference to them (``url(#…)``, ``href="#…"``)
    following. The digest is of the SVG with its ids blanked, so it names the drawing."""
    found = _NUMBERED_ID.findall(svg)
    if not found:
        return svg
    blank = _NUMBERED_ID.sub('id=""', svg)
    digest = hashlib.sha256(re.sub(r"#[A-Za-z_-]*\d+", "#", blank).encode()).hexdigest()[:8]
    renamed: dict[str, str] = {}
    counts: dict[str, int] = {}
    for name, number in found:
        old = f"{name}{number}"
        if old not in renamed:
            counts[name] = counts.get(name, 0) + 1
            renamed[old] = f"lk{digest}-{name}{counts[name]}"
    pattern = re.compile(
        r'(\bid="|url\(#|href="#)(' + "|".join(map(re.escape, renamed)) + r')(?=["\)])'
    )
    return pattern.sub(lambda m: m[1] + renamed[m[2]], svg)


def with_static_svg(bundle: Any, chart: Any, **kwargs: Any) -> Any:
    """``bundle`` (a chart widget's mime bundle) with ``chart`` as ``image/svg+xml``.

    A bundle that is None (a closed widget) or already has an SVG, an ``exclude`` naming
    it, or a chart that cannot be rendered or renders beyond :data:`MAX_SVG_BYTES`
    leave the bundle as it is; a failure is logged, never raised into the display.
    """
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    if not isinstance(data, dict) or SVG_MIME in data or chart is None:
        return bundle
    if SVG_MIME in (kwargs.get("exclude") or ()):
        return bundle
    include = kwargs.get("include")
    if include and SVG_MIME not in include:
        return bundle
    try:
        svg = chart_svg(chart)
    except Exception:  # the display must go on without its static form
        _log.warning("no SVG of the chart", exc_info=True)
        return bundle
    if len(svg.encode("utf-8")) > MAX_SVG_BYTES:
        _log.info("the chart's SVG (%d characters) is too large to carry", len(svg))
        return bundle
    data[SVG_MIME] = svg
    return bundle
