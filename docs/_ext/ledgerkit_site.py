"""What the docs site adds to Sphinx: navigation, the API reference and the frame columns,
all derived from the code and the Markdown guides rather than written twice.

The guides in ``docs/*.md`` are plain Markdown, because the local docs host renders them
too (with markdown-it-py). Everything Sphinx-only therefore happens here:

- **Navigation.** The home page (``index.md``) gets a hidden toctree of
  ``ledgerkit_navigation`` (``conf.py``), appended when Sphinx reads it.
- **API reference.** A page holding the block ``{ledgerkit-api} <module> ...`` has it
  replaced, when read, by the module's docstring and, for each name of its ``__all__``, a
  summary table and an autodoc entry. The front door (``ledgerkit``) is grouped by kind;
  a name exported by the front door is documented there only (``ledgerkit.Client``), and
  an object exported by several modules once. Every public module (no ``_`` in its
  dotted name) must have such a page: one missing stops the build.
- **Frame columns.** The block ``{ledgerkit-frame-columns}`` becomes one table per
  ``*_COLUMNS`` constant of :mod:`ledgerkit.frames`: column and dtype.
- **Cross-references by object.** A reference Sphinx cannot resolve (an annotation
  naming ``ledgerkit.client.Client``, or a private module's path) is looked up as a Python
  object and sent to the public name it is documented under; a real object with no page
  (a private base class, a ``TypeVar``) stays text. A ledgerkit name that is not there
  is still a warning.
- **Constants** re-exported by a package get the ``#:`` comment of the module defining
  them, never the docstring of their value's type.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import types
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError, PycodeError
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.nodes import make_refnode

PACKAGE = "ledgerkit"
#: ```{ledgerkit-api} ledgerkit.client ledgerkit.client.calls``` (a fenced block, alone).
API_BLOCK = re.compile(r"^```\{ledgerkit-api\}[ \t]+(?P<modules>[^\n]+)\n```[ \t]*$", re.M)
COLUMNS_BLOCK = re.compile(r"^```\{ledgerkit-frame-columns\}[ \t]*\n```[ \t]*$", re.M)
#: A constant's value is shown when its ``repr`` is at most this long.
SHORT_VALUE = 80


# -- what is public ------------------------------------------------------------------------


def public_modules() -> list[str]:
    """``ledgerkit`` and every module below it without a ``_`` part in its dotted name."""
    package = importlib.import_module(PACKAGE)
    found = [PACKAGE]
    for info in pkgutil.walk_packages(package.__path__, f"{PACKAGE}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            found.append(info.name)
    return sorted(found)


def exported(module: str) -> list[tuple[str, Any]]:
    """The ``(name, object)`` pairs of a module's ``__all__``, in its order."""
    loaded = importlib.import_module(module)
    return [(name, getattr(loaded, name)) for name in getattr(loaded, "__all__", ())]


class Homes:
    """Where each public object is documented: one full name per object.

    The front door's names first (``ledgerkit.Client``); then, module by module, an object
    is documented where its ``__module__`` says it lives if that module exports it, else
    in the first module (by name) that does.
    """

    def __init__(self, modules: list[str]) -> None:
        self.by_id: dict[int, str] = {}
        self._keep: list[Any] = []  # holds the objects, so their ids stay theirs
        listing = {module: exported(module) for module in modules}
        for name, obj in listing.get(PACKAGE, []):
            self._claim(obj, f"{PACKAGE}.{name}")
        for module in modules:
            for name, obj in listing[module]:
                if getattr(obj, "__module__", None) == module:
                    self._claim(obj, f"{module}.{name}")
        for module in modules:
            for name, obj in listing[module]:
                self._claim(obj, f"{module}.{name}")

    def _claim(self, obj: Any, full_name: str) -> None:
        if not documentable(obj) or id(obj) in self.by_id:
            return
        self.by_id[id(obj)] = full_name
        self._keep.append(obj)

    def home(self, obj: Any) -> str | None:
        return self.by_id.get(id(obj))


def documentable(obj: Any) -> bool:
    """Classes and functions are documented once; constants and modules where listed."""
    return isinstance(obj, type) or inspect.isroutine(obj)


# -- the API pages -------------------------------------------------------------------------


def kind(obj: Any) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return "exception"
    if isinstance(obj, type):
        return "class"
    if inspect.isroutine(obj):
        return "function"
    return "data"


#: The subpackages whose classes the front door groups under their own heading.
FRONT_DOOR_GROUPS = (
    ("Types and values", ("ledgerkit.types", "ledgerkit.bcs")),
    ("Keys and accounts", ("ledgerkit.keys",)),
)
KIND_HEADINGS = {
    "class": "Classes",
    "function": "Functions",
    "exception": "Exceptions",
    "data": "Constants",
    "module": "Modules",
}


def groups_of_front_door() -> list[tuple[str, list[str]]]:
    """The front door's names under headings: the clients and the node, frames, types,
    keys, errors (every exception, and ``ErrorCode``)."""
    errors = importlib.import_module(PACKAGE).LedgerError
    elsewhere = {
        title: {name for module in modules for name, _ in exported(module)}
        for title, modules in FRONT_DOOR_GROUPS
    }
    grouped: dict[str, list[str]] = {
        "Connecting and clients": [],
        "Frames": [],
        **{title: [] for title, _ in FRONT_DOOR_GROUPS},
        "Errors": [],
    }
    for name, obj in exported(PACKAGE):
        if name.startswith("__"):
            continue
        if name == "ErrorCode" or (isinstance(obj, type) and issubclass(obj, errors)):
            grouped["Errors"].append(name)
        elif name.endswith("_to_frame"):
            grouped["Frames"].append(name)
        else:
            title = next((t for t, names in elsewhere.items() if name in names), "")
            grouped[title or "Connecting and clients"].append(name)
    return [(title, names) for title, names in grouped.items() if names]


def groups_by_kind(module: str) -> list[tuple[str, list[str]]]:
    grouped: dict[str, list[str]] = {title: [] for title in KIND_HEADINGS.values()}
    for name, obj in exported(module):
        grouped[KIND_HEADINGS[kind(obj)]].append(name)
    return [(title, names) for title, names in grouped.items() if names]


def eval_rst(lines: list[str]) -> list[str]:
    return ["```{eval-rst}", *lines, "```", ""]


def entry(module: str, name: str, obj: Any, homes: Homes) -> list[str]:
    """The autodoc directive of one name, or nothing when it is documented elsewhere."""
    full = f"{module}.{name}"
    found = kind(obj)
    if found == "module":
        return []
    if found in ("class", "exception", "function") and homes.home(obj) != full:
        home = homes.home(obj) or ""
        if home.rpartition(".")[0] != module:
            return []  # documented on the page of another module
        # Another name for an object of the same module (``StructTag``).
        role = "func" if found == "function" else "class"
        directive = "py:function" if found == "function" else "py:class"
        return [
            f".. {directive}:: {name}",
            f"   :module: {module}",
            "",
            f"   Another name for :{role}:`{home}`.",
            "",
        ]
    if found == "data" and isinstance(obj, types.GenericAlias):
        # A type alias (``tuple[Any, ...]``): autodata cannot format one.
        alias = f"   Alias of ``{obj!r}``."
        return [f".. py:data:: {name}", f"   :module: {module}", "", alias, ""]
    if found == "data":
        value = ["   :no-value:"] if len(repr(obj)) > SHORT_VALUE else []
        return [f".. autodata:: {full}", *value, ""]
    if found == "function":
        return [f".. autofunction:: {full}", ""]
    directive = "autoexception" if found == "exception" else "autoclass"
    options = ["   :members:", "   :show-inheritance:"]
    stop_at = inherited_from_elsewhere(obj, homes)
    if stop_at:
        options.append(f"   :inherited-members: {', '.join(stop_at)}")
    return [f".. {directive}:: {full}", *options, ""]


def inherited_from_elsewhere(cls: type, homes: Homes) -> list[str]:
    """The bases whose members a class's entry leaves out: the public ones (documented
    on their own) and those of other projects. What it inherits from a private base of
    ledgerkit (``Client``'s endpoint methods) is documented with it."""
    names = []
    for base in cls.__mro__[1:]:
        private = base.__module__.startswith(f"{PACKAGE}.") and homes.home(base) is None
        if not private and base.__name__ not in names:
            names.append(base.__name__)
    return names if len(names) < len(cls.__mro__) - 1 else []


def api_markdown(module: str, homes: Homes, level: int) -> str:
    """The reference of one module, as MyST Markdown with ``eval-rst`` blocks."""
    heading = "#" * level
    groups = groups_of_front_door() if module == PACKAGE else groups_by_kind(module)
    objects = dict(exported(module))
    out = eval_rst([f".. automodule:: {module}", "   :no-members:", ""])
    for title, names in groups:
        out += [f"{heading} {title}", ""]
        # automodule made ``module`` current; autosummary cannot format a type alias.
        listed = [
            f"   {name}" for name in names if not isinstance(objects[name], types.GenericAlias)
        ]
        out += eval_rst([".. autosummary::", "   :nosignatures:", "", *listed, ""])
        body = [line for name in names for line in entry(module, name, objects[name], homes)]
        if body:
            out += eval_rst(body)
    return "\n".join(out)


# -- the frame columns ---------------------------------------------------------------------


def dtype_text(dtype: Any) -> str:
    name = str(dtype)
    storage = getattr(dtype, "storage", None)
    if name == "string" and storage:
        return f"string ({storage})"
    return name


def columns_markdown() -> str:
    frames = importlib.import_module(f"{PACKAGE}.frames")
    out: list[str] = []
    for name in frames.__all__:
        if not name.endswith("_COLUMNS"):
            continue
        columns = getattr(frames, name)
        out += [f"### `{name}`", "", "| column | dtype |", "|---|---|"]
        out += [f"| `{column}` | `{dtype_text(dtype)}` |" for column, dtype in columns.items()]
        out.append("")
    return "\n".join(out)


# -- docstrings ----------------------------------------------------------------------------

SECTION_TITLE = re.compile(r"^(?P<title>[A-Z][A-Za-z ]*)\n-{3,}$", re.M)


def constant_doc(full_name: str) -> list[str] | None:
    """The ``#:`` comment of a constant re-exported by a package, found in the module
    that defines it (autodoc looks only in the package, then falls back to the docstring
    of the value's type: ``dict``'s, or pandas' for a dtype)."""
    package, _, name = full_name.rpartition(".")
    loaded = importlib.import_module(package)
    candidates = [package]
    if hasattr(loaded, "__path__"):
        candidates += [info.name for info in pkgutil.walk_packages(loaded.__path__, f"{package}.")]
    for module in candidates:
        try:
            docs = ModuleAnalyzer.for_module(module).find_attr_docs()
        except PycodeError:
            continue
        found = docs.get(("", name))
        if found:
            return list(found)
    return None


def on_process_docstring(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    if what == "module":
        # Headings of a module docstring (``Examples``) as rubrics: sections there would
        # cut the API page's own sections.
        text = SECTION_TITLE.sub(lambda m: f".. rubric:: {m['title']}\n", "\n".join(lines))
        lines[:] = text.split("\n")
    elif what == "data":
        # Without a ``#:`` comment, what autodoc found is the docstring of the value's
        # type, which says nothing of the constant.
        lines[:] = constant_doc(name) or []


# -- Sphinx hooks ----------------------------------------------------------------------------


def _homes(app: Sphinx) -> Homes:
    homes: Homes | None = getattr(app, "_ledgerkit_homes", None)
    if homes is None:
        homes = Homes(public_modules())
        app._ledgerkit_homes = homes  # type: ignore[attr-defined]
    return homes


def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    text = source[0]
    if docname == app.config.root_doc:
        entries = "\n".join(app.config.ledgerkit_navigation)
        text += f"\n\n```{{toctree}}\n:hidden:\n:maxdepth: 2\n\n{entries}\n```\n"

    def api(match: re.Match[str]) -> str:
        modules = match["modules"].split()
        # The page's title names the first module; the others get a heading each.
        parts = [api_markdown(modules[0], _homes(app), 2)]
        for module in modules[1:]:
            parts += [f"## `{module}`\n", api_markdown(module, _homes(app), 3)]
        return "\n".join(parts)

    text = API_BLOCK.sub(api, text)
    text = COLUMNS_BLOCK.sub(lambda _: columns_markdown(), text)
    source[0] = text


def on_env_check_consistency(app: Sphinx, env: BuildEnvironment) -> None:
    """Every public module has its page (a ``{ledgerkit-api}`` block naming it)."""
    covered: set[str] = set()
    for docname in env.found_docs:
        path = env.doc2path(docname)
        if path.suffix == ".md":
            for match in API_BLOCK.finditer(path.read_text("utf-8")):
                covered.update(match["modules"].split())
    missing = sorted(set(public_modules()) - covered)
    if missing:
        raise ExtensionError(f"public modules without an API page (docs/api/): {missing}")


def resolve(dotted: str) -> Any:
    """The object a dotted name leads to (its module imported), or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attribute in parts[cut:]:
                obj = getattr(obj, attribute)
        except AttributeError:
            return None
        return obj
    return None


def public_names(obj: Any, homes: Homes) -> Iterator[str]:
    """The documented names of ``obj``: its home, or its class's home and its name."""
    home = homes.home(obj)
    if home:
        yield home
    owner = getattr(obj, "__qualname__", "").rpartition(".")[0]
    module = getattr(obj, "__module__", None)
    if owner and module:
        cls = resolve(f"{module}.{owner}")
        cls_home = homes.home(cls) if cls is not None else None
        if cls_home:
            yield f"{cls_home}.{obj.__name__}"


def on_missing_reference(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    if node.get("refdomain") != "py":
        return None
    target = str(node.get("reftarget", ""))
    # A short name (``:class:`Client``` in a module's docstring) is looked up where it
    # was written: in the class, then the module of the docstring.
    module, cls = node.get("py:module") or "", node.get("py:class") or ""
    scopes = [f"{module}.{cls}.", f"{module}.", ""] if cls else [f"{module}.", ""]
    candidates = [scope + target for scope in scopes if (scope or target).startswith(PACKAGE)]
    if not candidates:
        return None
    found_obj = [(name, resolve(name)) for name in candidates]
    target, obj = next(((n, o) for n, o in found_obj if o is not None), (target, None))
    if obj is None:
        return None  # a name that is not there: Sphinx warns
    objects = env.domains["py"].objects
    for name in public_names(obj, _homes(app)):
        found = objects.get(name)
        if found is not None and name != target:
            return make_refnode(
                app.builder, node["refdoc"], found.docname, found.node_id, contnode, name
            )
    # A real object with no public page (a private base class, a TypeVar): its name as
    # text, without a link.
    return contnode


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("ledgerkit_navigation", [], "env", list)
    app.connect("source-read", on_source_read)
    app.connect("env-check-consistency", on_env_check_consistency)
    app.connect("missing-reference", on_missing_reference)
    app.connect("autodoc-process-docstring", on_process_docstring)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
