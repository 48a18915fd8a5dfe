"""Static HTML of the widgets: what a widget shows at the moment it is displayed, for the
places where no kernel runs it (an exported HTML, the docs site's notebook pages, a
notebook opened without running it, nbval's saved outputs).

A widget's mime bundle carries this HTML as ``text/html`` beside its
``application/vnd.jupyter.widget-view+json``: live frontends render the widget (they
rank the widget view first), the rest fall back to the HTML. It is built from the
widgets' public state only, walking the ipywidgets tree as it stands:

- a :class:`~ledgerkit.widgets.LedgerGrid` becomes a table of its current page (at most
  :data:`MAX_ROWS` rows and :data:`MAX_COLUMNS` columns, columns empty on the whole page
  left out), its title, and how many rows there are in all;
- tabs become their titles, the selected one marked, and the selected tab's content;
- ``HTML`` widgets keep their markup, passed through an allow-list (tables, lists, text
  formatting; no script, style, image, form or link other than ``http(s)`` and ``#``);
- text boxes and drop-downs show their description and value; outputs their text;
  buttons, which do nothing without a kernel, are left out;
- any other widget whose own bundle has a static form (a chart's ``image/svg+xml``)
  shows it, an SVG as a ``data:`` image (its element ids stay its own).

Everything written comes from the values shown, escaped; nothing depends on the time it
is rendered or on memory addresses, so a notebook executed twice saves the same HTML.
Nothing is loaded from another host: the style sheet is inline and scoped to
``.lk-static`` (one rule lifts the docs theme's light box off the output holding it). Its
colours follow the page's theme, light or dark, whichever way the page says it (the docs
theme, JupyterLab and nbconvert, VS Code, else the system's colour scheme), each text at
WCAG AA contrast against the snapshot's own background. Kept dependency-free (the
standard library's ``html.parser``) because its job is small: a bounded walk and an
allow-list, not a general HTML sanitizer.
"""

from __future__ import annotations

import base64
import html
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from html.parser import HTMLParser
from typing import Any, Final

import ipywidgets

__all__ = [
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MAX_SVG_BYTES",
    "clean_html",
    "grid_html",
    "static_html",
    "with_static_html",
]

_log = logging.getLogger("ledgerkit.widgets")

#: Rows of a grid's page shown statically; the note says how many more there are.
MAX_ROWS: Final = 25
#: Columns of a grid shown statically.
MAX_COLUMNS: Final = 20
#: A cell's text is cut here (the live grid shows it whole on demand).
MAX_CELL: Final = 160
#: A text or JSON cell longer than this wraps; shorter ones (and numbers, addresses,
#: times) stay on one line, the table scrolling sideways in a narrow page.
_WRAP_FROM: Final = 40
#: An SVG larger than this is left out (a note says so).
MAX_SVG_BYTES: Final = 2 << 20
#: HTML markup read from an ``HTML`` widget, at most (characters).
MAX_MARKUP: Final = 100_000
#: Text of an output shown, at most (characters).
MAX_OUTPUT_TEXT: Final = 4_000
#: How deep a tree of widgets is walked.
MAX_DEPTH: Final = 24

HTML_MIME: Final = "text/html"
SVG_MIME: Final = "image/svg+xml"
WIDGET_MIME: Final = "application/vnd.jupyter.widget-view+json"

#: Kinds of grid column shown shortened (``0x1234…abcd``), the full value in a tooltip.
_SHORTENED: Final = frozenset({"address", "hash", "handle"})
_NUMERIC: Final = frozenset({"int", "version"})
#: What a grid's state holds, as its static form reads it.
_GRID_TRAITS: Final = ("columns", "rows", "page", "page_size", "total", "more", "query", "title")
_DIGITS: Final = re.compile(r"-?[0-9]+")
_HEX: Final = re.compile(r"0x[0-9a-fA-F]+")
#: The accessibility attributes of an SVG's marks (values are escaped: no ``"`` inside).
_ARIA: Final = re.compile(r' (?:aria-label|aria-roledescription|role)="[^"]*"')

#: The snapshot's two palettes (custom properties of ``.lk-static``). Every text colour
#: passes WCAG AA (4.5:1) on both backgrounds of its palette, the snapshot's and the header
#: row's: light text ``#1f2328`` is 15.8:1 on ``#ffffff``, muted ``#57606a`` 5.6:1 on
#: ``#eef1f4``; dark text ``#e6e9ed`` is 14.6:1 on ``#14181e``, muted ``#a3acb7`` 6.1:1 on
#: ``#262d36``; errors and links at least 5.8:1.
_LIGHT: Final = (
    "--lk-fg:#1f2328;--lk-bg:#ffffff;--lk-muted:#57606a;--lk-head:#eef1f4;"
    "--lk-line:#c5ccd3;--lk-error:#b42318;--lk-link:#0b5cad;color-scheme:light"
)
_DARK: Final = (
    "--lk-fg:#e6e9ed;--lk-bg:#14181e;--lk-muted:#a3acb7;--lk-head:#262d36;"
    "--lk-line:#4a535e;--lk-error:#ff9a8f;--lk-link:#8cc4ff;color-scheme:dark"
)
#: Where the host page says which theme it shows: the docs theme's ``data-theme`` on
#: ``<html>`` (set from its switcher, else from the system's scheme), JupyterLab's and
#: nbconvert's ``data-jp-theme-light`` on ``<body>``, VS Code's classes on ``<body>``. A page
#: that says nothing gets the system's colour scheme (``prefers-color-scheme``).
_LIGHT_HOSTS: Final = (
    "html[data-theme=light] .lk-static,body[data-jp-theme-light=true] .lk-static,"
    "body.vscode-light .lk-static,body.vscode-high-contrast-light .lk-static"
)
_DARK_HOSTS: Final = (
    "html[data-theme=dark] .lk-static,body[data-jp-theme-light=false] .lk-static,"
    "body.vscode-dark .lk-static,body.vscode-high-contrast:not(.vscode-high-contrast-light) "
    ".lk-static"
)

#: The snapshot paints its own background and text in the palette of the page's theme, and
#: sets the colours the host page gives its elements (inline code, table rows, headings,
#: links) back to its own: a host's dark-mode colour for code on a snapshot's light
#: background, or the reverse, was unreadable. Muted text has a colour of its own, never
#: an opacity. The cell rules name ``div.lk-static table``: specific enough to win over the
#: host page's own table rules (JupyterLab's and nbconvert's right-align every cell and
#: shade every other row). The docs theme draws an HTML output on a light box in dark mode
#: (made for tables that assume white): a snapshot's output is left on the page's
#: background instead, as the theme leaves data frames.
_STYLE: Final = (
    "<style>"
    f".lk-static{{{_LIGHT}}}"
    f"@media (prefers-color-scheme:dark){{.lk-static{{{_DARK}}}}}"
    f"{_LIGHT_HOSTS}{{{_LIGHT}}}"
    f"{_DARK_HOSTS}{{{_DARK}}}"
    "html[data-theme=dark] .bd-content div.cell_output .output.text_html:has(>div.lk-static)"
    "{background:transparent;padding:0}"
    ".lk-static{font:13px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
    "color:var(--lk-fg);background:var(--lk-bg);border:1px solid var(--lk-line);"
    "border-radius:4px;padding:4px 10px;max-width:100%;overflow-x:auto;margin:2px 0;"
    "box-sizing:border-box}"
    "div.lk-static :is(h1,h2,h3,h4,h5,h6,p,ul,ol,li,dl,dt,dd,table,caption,th,td,strong,b,"
    "em,i,u,s,small,span,abbr,q,blockquote,time,details,summary,sub,sup,del,ins,var,samp)"
    "{color:inherit}"
    "div.lk-static :is(code,kbd,pre){color:inherit;background:transparent;border:0;"
    "padding:0;box-shadow:none}"
    "div.lk-static a{color:var(--lk-link)}"
    ".lk-static table{border-collapse:collapse;margin:4px 0;width:auto}"
    "div.lk-static table th,div.lk-static table td{border:1px solid var(--lk-line);"
    "padding:2px 8px;text-align:left;vertical-align:top;white-space:nowrap}"
    ".lk-static table tr:nth-child(n){background:transparent}"
    "div.lk-static table td.lk-wrap{white-space:normal;overflow-wrap:anywhere;min-width:18em}"
    "div.lk-static thead th{background:var(--lk-head)}"
    "div.lk-static table td.lk-num,div.lk-static table th.lk-num{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".lk-static code,.lk-static pre,.lk-static .lk-mono{font-family:ui-monospace,"
    "'DejaVu Sans Mono',monospace;font-size:.95em}"
    ".lk-static pre{white-space:pre-wrap;margin:4px 0}"
    ".lk-static-title{font-weight:600;margin:8px 0 2px}"
    "div.lk-static .lk-static-note{color:var(--lk-muted);font-size:.92em;margin:2px 0}"
    "div.lk-static .lk-static-error{color:var(--lk-error)}"
    ".lk-static-tabs{display:flex;flex-wrap:wrap;gap:2px;margin:6px 0;"
    "border-bottom:1px solid var(--lk-line)}"
    "div.lk-static .lk-static-tabs span{padding:2px 10px;color:var(--lk-muted)}"
    "div.lk-static .lk-static-tabs span.lk-static-on{color:var(--lk-fg);font-weight:600;"
    "border:1px solid var(--lk-line);border-bottom:none}"
    ".lk-static-row{display:flex;flex-wrap:wrap;gap:12px;align-items:baseline}"
    ".lk-static img{max-width:100%;height:auto}"
    # An id shown short, as the live explorer shows it: its middle there but unseen.
    ".lk-static .lk-id{user-select:all}.lk-static .lk-id-middle{font-size:0}"
    ".lk-static .lk-id-head::after{content:'…'}"
    "</style>"
)
_FOOTNOTE: Final = (
    "<div class='lk-static-note'>A snapshot of the widget as it was displayed: "
    "run the notebook to explore it.</div>"
)


# -- the widget's bundle -------------------------------------------------------------------


def with_static_html(bundle: Any, widget: Any, **kwargs: Any) -> Any:
    """``bundle`` (a widget's mime bundle) with :func:`static_html` of ``widget`` added as
    ``text/html``.

    A closed widget's bundle (None) stays None, and a bundle that already has HTML, or
    whose ``exclude`` names it, is returned as it is. Rendering never raises into the
    display: a failure is logged and the bundle goes without its static form.
    """
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    if not isinstance(data, dict) or HTML_MIME in data:
        return bundle
    if HTML_MIME in (kwargs.get("exclude") or ()):
        return bundle
    include = kwargs.get("include")
    if include and HTML_MIME not in include:
        return bundle
    try:
        data[HTML_MIME] = static_html(widget)
    except Exception:  # the display must go on without its static form
        _log.warning("no static view of %s", type(widget).__name__, exc_info=True)
    return bundle


def static_html(widget: Any) -> str:
    """What ``widget`` shows now, as a self-contained HTML fragment (see the module's
    docstring): an inline style sheet scoped to ``.lk-static``, then the content."""
    body = _walk(widget, 0)
    kind = html.escape(type(widget).__name__)
    return f"<div class='lk-static' data-lk-widget='{kind}'>{_STYLE}{body}{_FOOTNOTE}</div>"


def _walk(widget: Any, depth: int) -> str:
    """The static HTML of one widget and what it holds."""
    if depth > MAX_DEPTH:
        return ""
    if _is_grid(widget):
        return grid_html(widget)
    if isinstance(widget, ipywidgets.Tab):
        return _tabs(widget, depth)
    if isinstance(widget, ipywidgets.Accordion):
        return _accordion(widget, depth)
    if isinstance(widget, ipywidgets.Box):
        parts = [_walk(child, depth + 1) for child in widget.children]
        inner = "".join(part for part in parts if part)
        if not inner:
            return ""
        row = isinstance(widget, ipywidgets.HBox)
        return f"<div class='{'lk-static-row' if row else 'lk-static-box'}'>{inner}</div>"
    if isinstance(widget, ipywidgets.HTML | ipywidgets.HTMLMath):
        markup = clean_html(str(widget.value or ""))
        return f"<div class='lk-static-html'>{markup}</div>" if markup.strip() else ""
    if isinstance(widget, ipywidgets.Label):
        text = str(widget.value or "")
        return f"<div>{_text(text)}</div>" if text else ""
    if isinstance(widget, ipywidgets.Output):
        return _outputs(widget.outputs)
    if isinstance(widget, ipywidgets.Button):
        return ""  # does nothing without a kernel
    if isinstance(
        widget,
        ipywidgets.Dropdown
        | ipywidgets.Select
        | ipywidgets.RadioButtons
        | ipywidgets.ToggleButtons,
    ):
        return _field(widget.description, widget.label)
    if isinstance(widget, ipywidgets.ValueWidget) and isinstance(widget, ipywidgets.DOMWidget):
        return _field(getattr(widget, "description", ""), widget.value)
    return _bundle_of(widget)


def _is_grid(widget: Any) -> bool:
    """A :class:`~ledgerkit.widgets.LedgerGrid`, known by its traits (the grid's module
    imports this one, not the other way round)."""
    return isinstance(widget, ipywidgets.DOMWidget) and all(
        widget.has_trait(name) for name in _GRID_TRAITS
    )


def _tabs(tabs: Any, depth: int) -> str:
    titles = list(getattr(tabs, "titles", ()) or ())
    chosen = tabs.selected_index
    strip = "".join(
        f"<span class='lk-static-on'>{_text(title)}</span>"
        if index == chosen
        else f"<span>{_text(title)}</span>"
        for index, title in enumerate(titles)
    )
    content = ""
    if isinstance(chosen, int) and 0 <= chosen < len(tabs.children):
        content = _walk(tabs.children[chosen], depth + 1)
    return f"<div class='lk-static-tabs'>{strip}</div>{content}"


def _accordion(accordion: Any, depth: int) -> str:
    titles = list(getattr(accordion, "titles", ()) or ())
    chosen = accordion.selected_index
    parts = []
    for index, child in enumerate(accordion.children):
        title = titles[index] if index < len(titles) else ""
        parts.append(f"<div class='lk-static-title'>{_text(title)}</div>")
        if index == chosen:
            parts.append(_walk(child, depth + 1))
    return "".join(parts)


def _field(description: Any, value: Any) -> str:
    text = "" if value is None else str(value)
    if not text:
        return ""
    label = f"<span>{_text(str(description))}</span> " if description else ""
    return f"<div class='lk-static-field'>{label}<code>{_text(_clip(text))}</code></div>"


def _outputs(outputs: Iterable[Mapping[str, Any]]) -> str:
    parts = []
    for output in outputs:
        kind = output.get("output_type")
        if kind == "stream":
            parts.append(_pre(output.get("text", "")))
        elif kind == "error":
            parts.append(_pre(f"{output.get('ename', '')}: {output.get('evalue', '')}"))
        elif kind in ("display_data", "execute_result"):
            data = output.get("data") or {}
            if HTML_MIME in data:
                parts.append(clean_html(_joined(data[HTML_MIME])))
            elif "text/plain" in data:
                parts.append(_pre(_joined(data["text/plain"])))
    return "".join(part for part in parts if part)


def _bundle_of(widget: Any) -> str:
    """The static form another widget's own bundle offers (HTML or SVG), if any."""
    represent: Callable[[], Any] | None = getattr(widget, "_repr_mimebundle_", None)
    if not callable(represent):
        return ""
    bundle = represent()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    if not isinstance(data, Mapping):
        return ""
    if SVG_MIME in data:
        return svg_image(_joined(data[SVG_MIME]))
    if HTML_MIME in data:
        return f"<div class='lk-static-html'>{clean_html(_joined(data[HTML_MIME]))}</div>"
    return ""


def svg_image(svg: str) -> str:
    """An SVG document as an ``<img>`` of a ``data:`` URL (a note when it is too large).

    Inside an image its marks' accessibility attributes reach no one (the image's ``alt``
    does): they are dropped, which halves a chart with a tooltip on every mark.
    """
    data = _ARIA.sub("", svg).encode("utf-8")
    if len(data) > MAX_SVG_BYTES:
        return f"<div class='lk-static-note'>(a chart of {len(data):,} bytes, not shown)</div>"
    encoded = base64.b64encode(data).decode("ascii")
    return f"<img alt='chart' src='data:{SVG_MIME};base64,{encoded}'>"


# -- the grid ---------------------------------------------------------------------------------


def grid_html(grid: Any) -> str:
    """A :class:`~ledgerkit.widgets.LedgerGrid`'s current page as an HTML table: its title,
    an error it shows, the columns with a value on this page, at most :data:`MAX_ROWS`
    rows, and a line saying which rows these are of how many."""
    columns = [c for c in grid.columns if isinstance(c, Mapping)][:MAX_COLUMNS]
    page_rows = [r for r in grid.rows if isinstance(r, Mapping)]
    rows = page_rows[:MAX_ROWS]
    shown = [c for c in columns if any(_present(r.get(c.get("name"))) for r in rows)]
    if not shown:
        shown = columns
    parts = []
    if grid.title:
        parts.append(f"<div class='lk-static-title'>{_text(str(grid.title))}</div>")
    if grid.error:
        parts.append(f"<div class='lk-static-error'>{_text(str(grid.error))}</div>")
    if rows:
        head = "".join(_header(column) for column in shown)
        body = "".join(
            "<tr>" + "".join(_cell(row.get(c.get("name")), c.get("kind")) for c in shown) + "</tr>"
            for row in rows
        )
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    parts.append(f"<div class='lk-static-note'>{_text(_count_line(grid, len(rows)))}</div>")
    return f"<div class='lk-static-grid'>{''.join(parts)}</div>"


def _count_line(grid: Any, shown: int) -> str:
    """``Rows 1 to 25 of 2,374``, ``3 rows``, ``No rows``..."""
    query = str(grid.query or "")
    matching = f' matching "{query}"' if query else ""
    total = grid.total
    if shown == 0:
        return f"No rows{matching}." if not total else f"No rows on this page of {total:,}."
    first = grid.page * grid.page_size
    more_here = len(grid.rows) > shown
    if total is not None:
        if first == 0 and shown == total:
            return f"{total:,} row{'s' if total != 1 else ''}{matching}."
        return f"Rows {first + 1:,} to {first + shown:,} of {total:,}{matching}."
    more = ", more available" if grid.more or more_here else ""
    return f"Rows {first + 1:,} to {first + shown:,}{matching}{more}."


def _header(column: Mapping[str, Any]) -> str:
    label = str(column.get("label") or column.get("name") or "")
    numeric = " class='lk-num'" if column.get("kind") in _NUMERIC else ""
    return f"<th{numeric}>{_text(label)}</th>"


def _cell(value: Any, kind: Any) -> str:
    if value is None:
        return "<td></td>"
    if isinstance(value, bool):
        return f"<td>{'true' if value else 'false'}</td>"
    text = str(value)
    if kind in _NUMERIC:
        if kind == "int" and _DIGITS.fullmatch(text):
            text = f"{int(text):,}"
        return f"<td class='lk-num'>{_text(_clip(text))}</td>"
    if kind in _SHORTENED:
        short = _short(text)
        tip = f" title='{_attr(_clip(text, 500))}'" if short != text else ""
        return f"<td class='lk-mono'{tip}>{_text(short)}</td>"
    wrap = " class='lk-wrap'" if len(text) > _WRAP_FROM else ""
    if kind == "json":
        return f"<td{wrap}><code>{_text(_clip(text))}</code></td>"
    return f"<td{wrap}>{_text(_clip(text))}</td>"


def _present(value: Any) -> bool:
    return value is not None and value != ""


def _short(text: str) -> str:
    """``0x1234…abcd`` for a long hex value, as the live grid shortens; anything else
    (a short address, a type tag) whole."""
    return f"{text[:6]}…{text[-4:]}" if len(text) > 14 and _HEX.fullmatch(text) else text


# -- text -------------------------------------------------------------------------------------


def _text(text: str) -> str:
    return html.escape(text, quote=False)


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def _clip(text: str, limit: int = MAX_CELL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _joined(value: Any) -> str:
    """A bundle's value: text, or the list of lines a saved notebook holds."""
    if isinstance(value, list):
        return "".join(str(part) for part in value)
    return str(value)


def _pre(text: str) -> str:
    if not text:
        return ""
    return f"<pre>{_text(_clip(text, MAX_OUTPUT_TEXT))}</pre>"


# -- markup from HTML widgets --------------------------------------------------------------------

#: Elements kept (their attributes filtered); any other element is dropped, its text kept.
_KEPT: Final = frozenset(
    {
        "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd",
        "del", "details", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
        "i", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small",
        "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
        "thead", "time", "tr", "u", "ul", "var", "wbr",
    }
)  # fmt: skip
#: Elements dropped with everything inside them.
_DROPPED: Final = frozenset(
    {
        "script", "style", "template", "iframe", "object", "embed", "svg", "math",
        "noscript", "textarea", "select", "head", "title", "canvas", "video", "audio",
    }
)  # fmt: skip
_VOID: Final = frozenset({"br", "hr", "col", "wbr", "img", "input", "meta", "link", "source"})
#: Attributes kept on any kept element.
_ATTRIBUTES: Final = frozenset({"class", "title", "colspan", "rowspan", "open", "datetime"})
_SAFE_HREF: Final = re.compile(r"(https?://|#)[^\s\"'<>`]*", re.IGNORECASE)


class _Cleaner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping:
            if tag == self.skipping[-1] and tag not in _VOID:
                self.skipping.append(tag)
            return
        if tag in _DROPPED:
            self.skipping.append(tag)
            return
        if tag not in _KEPT:
            return
        kept = []
        for name, value in attrs:
            if value is None:
                if name == "open":
                    kept.append(" open")
                continue
            if name in _ATTRIBUTES or (
                name == "href" and tag == "a" and _SAFE_HREF.fullmatch(value.strip())
            ):
                kept.append(f" {name}='{_attr(value.strip() if name == 'href' else value)}'")
        self.out.append(f"<{tag}{''.join(kept)}>")
        if tag not in _VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and not self.skipping and self.open and self.open[-1] == tag:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
            return
        if tag not in self.open:
            return
        while self.open:  # close what was left open inside it
            last = self.open.pop()
            self.out.append(f"</{last}>")
            if last == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(_text(data))

    def result(self) -> str:
        self.close()
        return "".join(self.out) + "".join(f"</{tag}>" for tag in reversed(self.open))


def clean_html(markup: str) -> str:
    """``markup`` with only the allowed elements and attributes (see the module's
    docstring): no script, style, event handler, image, frame or form; links only to
    ``http(s)`` addresses and ``#`` anchors. Text is re-escaped; every element opened is
    closed. Markup beyond :data:`MAX_MARKUP` characters is cut first."""
    cleaner = _Cleaner()
    cleaner.feed(markup[:MAX_MARKUP])
    return cleaner.result()
