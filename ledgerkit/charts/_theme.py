"""Charts in the notebook's theme, light or dark.

An interactive chart is drawn as SVG in the browser, where the notebook's theme is
known: JupyterLab (and Voilà) set their colours in ``--jp-*`` CSS variables, which this
style sheet gives to the chart's text, axes and grid, so a chart follows JupyterLab
Dark, and a switch of theme, with no new drawing; VS Code's variables come next, then
the system's colour scheme. A static chart (an SVG or PNG made in the kernel, which
cannot see the page) takes its theme when the renderer is chosen:
``use_offline_renderer("svg", theme="dark")``.
"""

from __future__ import annotations

from typing import Any, Final

import altair as alt

from ledgerkit._errors import InputError

__all__ = ["CHART_CLASS", "DARK", "THEME_CSS", "ThemedChart", "chart_theme"]

#: The class on an interactive chart's element that the style sheet answers to.
CHART_CLASS: Final = "lk-chart"
#: The name of the dark theme of static charts, registered with Altair.
DARK: Final = "ledgerkit-dark"

# JupyterLab Dark's own colours, for charts drawn where its variables are not.
_DARK_BACKGROUND: Final = "#111111"
_DARK_TEXT: Final = "#e0e0e0"
_DARK_MUTED: Final = "#bdbdbd"
_DARK_RULE: Final = "#757575"
_DARK_GRID: Final = "#424242"

#: Applied to the page by the chart widget; every rule is scoped to ``.lk-chart`` (the
#: widget's element, which holds Vega's ``svg.marks``). The marks carry their role as a
#: class (``role-axis-label``...), and CSS outranks the fill and stroke attributes Vega
#: writes; the white background Vega sets on the element needs ``!important``.
THEME_CSS: Final = f"""
.{CHART_CLASS} {{
  --lk-chart-fallback-fg: #000000;
  --lk-chart-fallback-muted: #555555;
  --lk-chart-fallback-rule: #888888;
  --lk-chart-fallback-grid: #dddddd;
  --lk-chart-fg: var(--jp-ui-font-color1,
    var(--vscode-editor-foreground, var(--lk-chart-fallback-fg)));
  --lk-chart-muted: var(--jp-ui-font-color2,
    var(--vscode-descriptionForeground, var(--lk-chart-fallback-muted)));
  --lk-chart-rule: var(--jp-border-color1, var(--lk-chart-fallback-rule));
  --lk-chart-grid: var(--jp-border-color2, var(--lk-chart-fallback-grid));
  color: var(--lk-chart-fg);
}}
@media (prefers-color-scheme: dark) {{
  .{CHART_CLASS} {{
    --lk-chart-fallback-fg: {_DARK_TEXT};
    --lk-chart-fallback-muted: {_DARK_MUTED};
    --lk-chart-fallback-rule: {_DARK_RULE};
    --lk-chart-fallback-grid: {_DARK_GRID};
  }}
}}
.{CHART_CLASS}, .{CHART_CLASS} .vega-embed {{
  overflow: visible;
}}
.{CHART_CLASS} svg.marks {{
  background-color: transparent !important;
}}
.{CHART_CLASS} svg.marks :is(.role-axis-label, .role-axis-title, .role-title-text,
  .role-legend-title, .role-legend-label) text {{
  fill: var(--lk-chart-fg);
}}
.{CHART_CLASS} svg.marks .role-title-subtitle text {{
  fill: var(--lk-chart-muted);
}}
.{CHART_CLASS} svg.marks :is(.role-axis-domain, .role-axis-tick) line {{
  stroke: var(--lk-chart-rule);
}}
.{CHART_CLASS} svg.marks .role-axis-grid line {{
  stroke: var(--lk-chart-grid);
}}
"""


class ThemedChart(alt.JupyterChart):
    """An ``alt.JupyterChart`` drawn as SVG in the colours of the notebook's theme.

    Same parameters as ``alt.JupyterChart``; ``embed_options`` default to no action
    menu and the SVG renderer (whose text the page's style reaches).
    """

    _css = alt.JupyterChart._css + THEME_CSS

    def __init__(self, chart: Any, *, embed_options: dict[str, Any] | None = None, **kw: Any):
        options = {"actions": False, "renderer": "svg", **(embed_options or {})}
        super().__init__(chart, embed_options=options, **kw)
        self.add_class(CHART_CLASS)


def _dark() -> alt.theme.ThemeConfig:
    return alt.theme.ThemeConfig(
        config={
            "background": _DARK_BACKGROUND,
            "title": {"color": _DARK_TEXT, "subtitleColor": _DARK_MUTED},
            "axis": {
                "domainColor": _DARK_RULE,
                "tickColor": _DARK_RULE,
                "gridColor": _DARK_GRID,
                "labelColor": _DARK_TEXT,
                "titleColor": _DARK_TEXT,
            },
            "legend": {"labelColor": _DARK_TEXT, "titleColor": _DARK_TEXT},
            "view": {"stroke": _DARK_GRID},
        }
    )


alt.theme.register(DARK, enable=False)(_dark)


def chart_theme(theme: str) -> None:
    """Draw static charts in the light (Altair's default) or the dark theme.

    Raises
    ------
    InputError
        ``theme`` is neither ``"light"`` nor ``"dark"``.
    """
    if theme == "light":
        alt.theme.enable("default")
    elif theme == "dark":
        alt.theme.enable(DARK)
    else:
        raise InputError(f"a chart theme is 'light' or 'dark', not {theme!r}")
