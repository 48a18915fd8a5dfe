"""The grid's front end: its ES module files composed into the one module anywidget sends.

The grid's view is written as ES modules of one concern each, in ``static/``: ``grid.js``
and the ``grid-*.js`` modules it imports by relative path
(``import { element } from "./grid-dom.js";``). anywidget hands the browser a widget's
module as text, which the browser imports from a ``blob:`` URL; against that URL a
relative specifier names nothing, so the files cannot be handed over as they are.

:func:`compose_module` composes them, when the widget's class is defined, into one
module that the browser runs as the same set of real ES modules: it makes a ``blob:``
URL of each file in dependency order, each file's relative specifiers replaced by the
URLs of the files they name, then imports the entry file's URL and exports its default.
Every file keeps its own scope, its imports and its exports as written, and a file that
several import is evaluated once. ``blob:`` URLs, as anywidget uses for the module it
is given, rather than ``data:`` URLs: a ``data:`` URL holds its imports' URLs, so every
module would carry a copy of each module below it. :func:`compose_styles` joins the
style sheets, in the order given (the order of the cascade).

Composed here rather than by a bundler or from a CDN because the grid must work where
neither is at hand: ledgerkit has no JavaScript build step (the files in the package are
the files the browser runs), and nothing may be fetched from another host, so that
offline Binder, Voilà and JupyterLab sessions, and pages exported from them, work as
they do online. The composer is deliberately narrow: a file may import only its
siblings, by ``"./name.js"``, with ``import ... from`` or ``export ... from``; a bare
name, a URL, another directory, an import at run time or a cycle is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from ledgerkit._errors import InputError

__all__ = ["compose_module", "compose_styles", "module_order"]

#: An ``import ... from "spec"`` or ``export ... from "spec"`` statement, up to its
#: specifier (a statement may span lines; it never holds a quote before ``from``).
_FROM: Final = re.compile(
    r"""^(?P<keyword>import|export)\b[^;"'`]*?\bfrom\s*(?P<quote>["'])(?P<spec>[^"'\n]*)(?P=quote)""",
    re.M,
)
_IMPORT_STATEMENT: Final = re.compile(r"^import\b", re.M)
_RUN_TIME_IMPORT: Final = re.compile(r"\bimport\s*\(")
_SIBLING: Final = re.compile(r"\./(?P<file>[A-Za-z0-9_-]+\.js)")

#: Runs the modules: each part of a module is its text, or the place in the list of the
#: module it names there, whose URL is made first.
_LOADER: Final = """\
const urls = [];
let entry;
try {
  for (const parts of modules) {
    const text = parts.map((part) => (typeof part === "number" ? urls[part] : part)).join("");
    urls.push(URL.createObjectURL(new Blob([text], { type: "text/javascript" })));
  }
  entry = await import(urls[urls.length - 1]);
} finally {
  // Imported: the modules are the browser's now, their URLs no longer needed.
  for (const url of urls) URL.revokeObjectURL(url);
}
export default entry.default;
"""


def _specifiers(name: str, text: str) -> list[tuple[int, int, str]]:
    """``(start, end, file)`` of each specifier in ``text``, the module file ``name``."""
    if _RUN_TIME_IMPORT.search(text):
        raise InputError(f"{name} imports at run time (import(...)); only static imports compose")
    found: list[tuple[int, int, str]] = []
    imports = 0
    for match in _FROM.finditer(text):
        imports += match["keyword"] == "import"
        sibling = _SIBLING.fullmatch(match["spec"])
        if sibling is None:
            raise InputError(
                f"{name} imports {match['spec']!r}: a module imports only the files beside it,"
                ' as "./name.js"'
            )
        found.append((match.start("spec"), match.end("spec"), sibling["file"]))
    if imports != len(_IMPORT_STATEMENT.findall(text)):
        raise InputError(f"{name} has an import without 'from'; only 'import ... from' composes")
    return found


def module_order(directory: Path, entry: str) -> list[str]:
    """The module files ``entry`` reaches in ``directory``, each after those it imports.

    Raises
    ------
    InputError
        A file is missing, imports what cannot be composed, or the imports form a cycle.
    """
    return list(_read(directory, entry))


def _read(directory: Path, entry: str) -> dict[str, tuple[str, list[tuple[int, int, str]]]]:
    """Each module's text and specifiers, by file name, in dependency order."""
    done: dict[str, tuple[str, list[tuple[int, int, str]]]] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in done:
            return
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise InputError(f"the modules import one another in a cycle: {cycle}")
        file = directory / name
        if not file.is_file():
            importer = f"{path[-1]} imports" if path else "the entry module is"
            raise InputError(f"{importer} {name}, which is not in {directory.name}/")
        text = file.read_text("utf-8")
        specifiers = _specifiers(name, text)
        for _, _, imported in specifiers:
            visit(imported, (*path, name))
        done[name] = (text, specifiers)

    visit(entry, ())
    return done


def compose_module(directory: Path, entry: str) -> str:
    """One ES module that runs ``entry`` of ``directory`` and the modules it imports.

    Parameters
    ----------
    directory : Path
        Where the module files are, side by side.
    entry : str
        The file name of the module whose default export the composed module exports.

    Returns
    -------
    str
        The composed module's text: each file's text, and the few lines that import
        them from ``blob:`` URLs in dependency order.

    Raises
    ------
    InputError
        A file is missing, imports what cannot be composed, or the imports form a cycle.
    """
    modules = _read(directory, entry)
    place = {name: at for at, name in enumerate(modules)}
    lines = [
        f"// {entry} and the modules it imports, composed by ledgerkit: each entry of",
        "// `modules` is a file, its text split where it names another file, whose place",
        "// in the list stands there.",
        "const modules = [",
    ]
    for name, (text, specifiers) in modules.items():
        parts: list[str | int] = []
        at = 0
        for start, end, imported in specifiers:
            parts += [text[at:start], place[imported]]
            at = end
        parts.append(f"{text[at:]}\n//# sourceURL=ledgerkit/widgets/static/{name}\n")
        # "<" escaped: the module stays whole if a page ever inlines it in a <script>.
        encoded = json.dumps(parts, ensure_ascii=True).replace("<", "\\u003c")
        lines.append(f"  /* {name} */ {encoded},")
    lines.append("];")
    return "\n".join(lines) + "\n" + _LOADER


def compose_styles(directory: Path, names: Sequence[str]) -> str:
    """The style sheets ``names`` of ``directory`` as one, in that order."""
    missing = [name for name in names if not (directory / name).is_file()]
    if missing:
        raise InputError(f"style sheets missing from {directory.name}/: {', '.join(missing)}")
    return "\n".join((directory / name).read_text("utf-8") for name in names)
