"""The site in Markdown, as its home page promises: every page's Markdown beside its HTML
(``client.md`` beside ``client.html``, ``api/frames.md`` beside ``api/frames.html``), and
at the site's root ``llms.txt`` (the index, in the llms.txt format) and ``llms-full.txt``
(every page, one after another). The local docs host serves the same for its own pages;
this makes any static host of the built site do it too.

What each page's Markdown is:

- **A guide** (``docs/*.md``, ``guide/``, ``examples/``): its source as written.
- **An API page**: its source with each ``{ledgerkit-api}`` block replaced by the
  module's docstring and, for each name of its ``__all__``, a heading, the signature and
  the docstring (a name documented on another page says where); the
  ``{ledgerkit-frame-columns}`` block by its tables.
- **A notebook**: its Markdown cells as written, its code cells as ``python`` blocks, and
  their text outputs as ``text`` blocks (cut after :data:`MAX_OUTPUT_LINES` lines); a
  chart or a widget is named, not drawn.

``llms.txt`` has the home page's ``## `` sections, each listing the pages it links to,
then a section for each part of the site the home page does not link (the user guide,
the examples, the API reference, the notebooks), in the order of the navigation. Each
line is ``- [Title](<page>.md): description``, the description the first sentence of
the page's first paragraph. Links are relative to the site's root, or absolute under
``html_baseurl`` when it is set.

Each HTML page also names its Markdown in a ``<link rel="alternate"
type="text/markdown">``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path, PurePosixPath
from typing import Any, Final

from docutils import nodes
from ledgerkit_site import (
    API_BLOCK,
    COLUMNS_BLOCK,
    _homes,
    columns_markdown,
    constant_doc,
    exported,
    kind,
)
from sphinx.application import Sphinx

#: Lines of one output kept in a notebook's Markdown.
MAX_OUTPUT_LINES: Final = 40
#: Longest description kept for ``llms.txt`` (characters), as the docs host.
MAX_DESCRIPTION: Final = 200
#: The end of a sentence: a stop before a new sentence (a capital, code, a link) or the end.
SENTENCE_END: Final = re.compile(r"[.!?](?=\s+[A-Z`\[(]|$)")
LINK: Final = re.compile(r"\]\(([^)\s]+)\)")
SCHEME: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
OTHER_SECTION: Final = "Other pages"


# -- each page's Markdown ----------------------------------------------------------------------


def page_markdown(app: Sphinx, docname: str) -> str:
    """The Markdown of one page (see the module's docstring)."""
    source = Path(app.env.doc2path(docname))
    if source.suffix == ".ipynb":
        return notebook_markdown(json.loads(source.read_text("utf-8")))
    text = source.read_text("utf-8")

    def api(match: re.Match[str]) -> str:
        modules = match["modules"].split()
        parts = [api_markdown(app, modules[0], 2)]
        for module in modules[1:]:
            parts += [f"## `{module}`\n", api_markdown(app, module, 3)]
        return "\n".join(parts)

    text = API_BLOCK.sub(api, text)
    text = COLUMNS_BLOCK.sub(lambda _: columns_markdown(), text)
    return text.rstrip("\n") + "\n"


def api_markdown(app: Sphinx, module: str, level: int) -> str:
    """A module's reference in plain Markdown: its docstring, then each exported name."""
    loaded = importlib.import_module(module)
    homes = _homes(app)
    heading = "#" * level
    out = [inspect.cleandoc(loaded.__doc__ or ""), ""]
    for name, obj in exported(module):
        if name.startswith("__"):
            continue
        full = f"{module}.{name}"
        found = kind(obj)
        if found == "module":
            continue
        home = homes.home(obj)
        out += [f"{heading} `{name}`", ""]
        if home is not None and home != full:
            out += [f"Documented as `{home}`.", ""]
            continue
        out += [f"```python\n{signature(full, obj, found)}\n```", ""]
        doc = "\n".join(constant_doc(full) or []) if found == "data" else inspect.getdoc(obj)
        if doc:
            out += [doc, ""]
        if found in ("class", "exception"):
            out += members_markdown(obj, level + 1)
    return "\n".join(out)


def signature(full: str, obj: Any, found: str) -> str:
    if found == "data":
        value = repr(obj)
        return f"{full} = {value}" if len(value) <= 80 else full
    try:
        params = str(inspect.signature(obj))
    except (TypeError, ValueError):
        params = "(...)"
    prefix = "class " if found in ("class", "exception") else ""
    return f"{prefix}{full}{params}"


def members_markdown(cls: type, level: int) -> list[str]:
    """A class's public methods and properties defined in ledgerkit: signature and the
    docstring's first paragraph."""
    out: list[str] = []
    heading = "#" * min(level, 6)
    for name, member in vars_in_order(cls):
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            text, doc = f"{name}", inspect.getdoc(member)
        elif inspect.isfunction(member) or isinstance(member, classmethod | staticmethod):
            function = member.__func__ if isinstance(member, classmethod | staticmethod) else member
            try:
                text = f"{name}{inspect.signature(function)}"
            except (TypeError, ValueError):
                text = f"{name}(...)"
            doc = inspect.getdoc(function)
        else:
            continue
        summary = (doc or "").split("\n\n", 1)[0]
        out += [f"{heading} `{cls.__name__}.{name}`", "", f"```python\n{text}\n```", ""]
        if summary:
            out += [summary, ""]
    return out


def vars_in_order(cls: type) -> list[tuple[str, Any]]:
    """The members a class and its ledgerkit bases define, the class's own first."""
    seen: dict[str, Any] = {}
    for base in cls.__mro__:
        if not base.__module__.startswith("ledgerkit"):
            continue
        for name, member in vars(base).items():
            seen.setdefault(name, member)
    return list(seen.items())


def notebook_markdown(notebook: dict[str, Any]) -> str:
    """A notebook as Markdown: cells in order, text outputs fenced, images named."""
    out: list[str] = []
    for cell in notebook.get("cells", []):
        source = "".join(cell.get("source", "")).strip("\n")
        if cell.get("cell_type") == "markdown":
            out += [source, ""]
        elif cell.get("cell_type") == "code" and source:
            out += ["```python", source, "```", ""]
            for output in cell.get("outputs", []):
                out += output_markdown(output)
    return "\n".join(out).rstrip("\n") + "\n"


def output_markdown(output: dict[str, Any]) -> list[str]:
    kind_ = output.get("output_type")
    if kind_ == "stream":
        return fenced("".join(output.get("text", "")))
    if kind_ == "error":
        return fenced(f"{output.get('ename', '')}: {output.get('evalue', '')}")
    data = output.get("data", {})
    if "application/vnd.jupyter.widget-view+json" in data:
        text = "".join(data.get("text/plain", "")) or "a widget"
        return [f"*(a widget in the notebook: `{text}`)*", ""]
    if "image/svg+xml" in data or "image/png" in data:
        return ["*(a chart, drawn on the notebook's page)*", ""]
    if "text/plain" in data:
        return fenced("".join(data["text/plain"]))
    return []


def fenced(text: str) -> list[str]:
    lines = text.rstrip("\n").split("\n")
    if len(lines) > MAX_OUTPUT_LINES:
        lines = [*lines[:MAX_OUTPUT_LINES], f"... ({len(lines) - MAX_OUTPUT_LINES} more lines)"]
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", *lines, fence, ""]


# -- llms.txt ---------------------------------------------------------------------------------


def navigation(app: Sphinx) -> dict[str, str]:
    """Every document, in the order the navigation reaches it (depth first from the home
    page), mapped to the entry of the home page's navigation it is under (``""`` for the
    home page and for documents no toctree reaches, which come last, by name)."""
    env = app.env
    root = app.config.root_doc
    under: dict[str, str] = {root: ""}

    def visit(docname: str, top: str) -> None:
        for child in env.toctree_includes.get(docname, []):
            if child not in under:
                under[child] = top or child
                visit(child, top or child)

    visit(root, "")
    for docname in sorted(set(env.found_docs) - set(under)):
        under[docname] = ""
    return under


def description(app: Sphinx, docname: str) -> str:
    """The first sentence of the page's first paragraph of prose, on one line."""
    doctree = app.env.get_doctree(docname)
    for paragraph in doctree.findall(nodes.paragraph):
        if not only_in_sections(paragraph):
            continue
        text = " ".join(paragraph.astext().split())
        if not text:
            continue
        end = SENTENCE_END.search(text)
        if end:
            text = text[: end.end()]
        if len(text) > MAX_DESCRIPTION:
            text = text[: MAX_DESCRIPTION - 1].rsplit(" ", 1)[0] + "…"
        return text
    return ""


def only_in_sections(node: nodes.Node) -> bool:
    """Whether ``node`` sits directly in the page's sections: prose, not a list, a table,
    a note or a cell's output."""
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.document):
        if not isinstance(parent, nodes.section):
            return False
        parent = parent.parent
    return True


def home_sections(app: Sphinx) -> list[tuple[str, list[str]]]:
    """The home page's ``## `` sections and the documents each links to, in order."""
    source = Path(app.env.doc2path(app.config.root_doc)).read_text("utf-8")
    sections: list[tuple[str, list[str]]] = []
    fence = False
    for line in source.splitlines():
        if line.startswith(("```", "~~~")):
            fence = not fence
        if fence:
            continue
        if line.startswith("## "):
            sections.append((line[3:].strip(), []))
            continue
        for target in LINK.findall(line):
            docname = docname_of_link(target)
            if sections and docname in app.env.found_docs:
                sections[-1][1].append(docname)
    return sections


def docname_of_link(target: str) -> str:
    """The document a relative link of the home page names (``""`` for other links)."""
    if SCHEME.match(target) or target.startswith("#"):
        return ""
    path = target.partition("#")[0].removeprefix("./").lstrip("/")
    for suffix in (".md", ".ipynb", ".html"):
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return ""


def llms_txt(app: Sphinx) -> str:
    """The index of the site in the llms.txt format (see the module's docstring)."""
    env = app.env
    root = app.config.root_doc
    base = app.config.html_baseurl.rstrip("/") + "/" if app.config.html_baseurl else ""
    under = navigation(app)
    listed = {root}
    sections: list[tuple[str, list[str]]] = []
    for title, docnames in home_sections(app):
        fresh = [d for d in dict.fromkeys(docnames) if d not in listed]
        listed.update(fresh)
        sections.append((title, fresh))
    groups: dict[str, list[str]] = {}
    for docname, top in under.items():
        if docname not in listed:
            groups.setdefault(top, []).append(docname)
    for top, docnames in sorted(groups.items(), key=lambda item: item[0] == ""):
        title = env.titles[top].astext() if top else OTHER_SECTION
        sections.append((title, docnames))
    lines = [f"# {app.config.project}", "", f"> {description(app, root)}"]
    for title, docnames in sections:
        if not docnames:
            continue
        lines += ["", f"## {title}", ""]
        for docname in docnames:
            name = env.titles[docname].astext().replace("[", "(").replace("]", ")")
            text = description(app, docname)
            link = f"- [{name}]({base}{docname}.md)"
            lines.append(f"{link}: {text}" if text else link)
    return "\n".join(lines) + "\n"


# -- Sphinx hooks ---------------------------------------------------------------------------------


def on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if doctree is None or pagename not in app.env.found_docs:
        return
    href = f"{PurePosixPath(pagename).name}.md"
    context["metatags"] = (
        context.get("metatags", "") + f'\n<link rel="alternate" type="text/markdown" href="{href}">'
    )


def on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name != "html":
        return
    out = Path(app.outdir)
    pages = []
    for docname in navigation(app):
        text = page_markdown(app, docname)
        target = out / f"{docname}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
        pages.append(text.strip("\n"))
    (out / "llms.txt").write_text(llms_txt(app), "utf-8")
    (out / "llms-full.txt").write_text("\n\n".join(pages) + "\n", "utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("ledgerkit_site")
    app.connect("html-page-context", on_html_page_context)
    app.connect("build-finished", on_build_finished)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
