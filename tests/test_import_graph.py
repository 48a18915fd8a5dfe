"""The doors between ledgerkit's packages: the import graph of the package, read from the
source of every module (imports inside functions and under ``TYPE_CHECKING`` included).

A package is a top-level subpackage (``ledgerkit.client``, ``ledgerkit.models``...). No
package imports another's private module or private name: a seam that is needed has a
public name. The modules at the root (``ledgerkit._errors``, the front door) are shared
ground, except the command line and the demo, which sit above everything.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import ledgerkit

ROOT = Path(ledgerkit.__file__).parent

#: Root modules no package may import: they sit on top of everything.
TOP_FLOOR = frozenset({"ledgerkit.cli", "ledgerkit._demo", "ledgerkit.__main__"})


@dataclass(frozen=True)
class Edge:
    """One import: ``importer`` names ``target`` (a module, or a name in a module)."""

    importer: str
    target: str
    where: str  # file:line

    def __str__(self) -> str:
        return f"{self.where}: {self.importer} imports {self.target}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, *, is_package: bool, where: str) -> list[Edge]:
    """Every import in ``source`` (of module ``module``), absolute; ``from m import n``
    gives both ``m`` and ``m.n``, as ``n`` may be a module or a name."""
    edges = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        edges += [Edge(module, t, f"{where}:{node.lineno}") for t in targets if t]
    return edges


def import_graph(root: Path = ROOT) -> list[Edge]:
    """The imports of every module under ``root`` that name ledgerkit."""
    edges = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        where = str(path.relative_to(root.parent))
        found = imports_of(
            path.read_text("utf-8"), module, is_package=path.name == "__init__.py", where=where
        )
        edges += [e for e in found if e.target.split(".")[0] == root.name]
    return edges


def package_of(module: str) -> str:
    """``ledgerkit.client._client`` -> ``ledgerkit.client``; a root module is its own."""
    return ".".join(module.split(".")[:2])


def _private(segment: str) -> bool:
    return segment.startswith("_") and not (segment.startswith("__") and segment.endswith("__"))


def back_doors(edges: list[Edge]) -> list[Edge]:
    """Imports of another package's private module or name."""
    found = []
    for edge in edges:
        parts = edge.target.split(".")
        if len(parts) < 3 or not (ROOT / parts[1]).is_dir():
            continue  # the front door, a root module (shared ground), or a package itself
        if package_of(edge.importer) == package_of(edge.target):
            continue
        if any(_private(segment) for segment in parts[2:]):
            found.append(edge)
    return found


def test_the_graph_sees_every_kind_of_import() -> None:
    source = (
        "import ledgerkit.client._base\n"
        "from ledgerkit.models import _lenient, decode\n"
        "from ..frames._rows import decode_transaction_rows\n"
        "from . import _ranges\n"
        "def late():\n"
        "    from ledgerkit.types._ledger_meta import HEADER_PREFIXES\n"
        "if TYPE_CHECKING:\n"
        "    from ledgerkit.client import _calls\n"
    )
    edges = imports_of(source, "ledgerkit.extract._fetch", is_package=False, where="x.py")
    assert sorted(str(e) for e in back_doors(edges)) == sorted(
        f"x.py:{line}: ledgerkit.extract._fetch imports {target}"
        for line, target in [
            (1, "ledgerkit.client._base"),
            (2, "ledgerkit.models._lenient"),
            (3, "ledgerkit.frames._rows"),
            (3, "ledgerkit.frames._rows.decode_transaction_rows"),
            (6, "ledgerkit.types._ledger_meta"),
            (6, "ledgerkit.types._ledger_meta.HEADER_PREFIXES"),
            (8, "ledgerkit.client._calls"),
        ]
    )


def test_the_graph_covers_the_package() -> None:
    importers = {edge.importer for edge in import_graph()}
    for module in ("ledgerkit", "ledgerkit.cli", "ledgerkit.client._client", "ledgerkit.frames"):
        assert module in importers


def test_no_package_imports_another_packages_private_module() -> None:
    offenders = back_doors(import_graph())
    assert not offenders, "imports through a back door:\n" + "\n".join(map(str, offenders))


def test_no_package_imports_the_command_line_or_the_demo() -> None:
    offenders = [
        edge
        for edge in import_graph()
        if edge.target in TOP_FLOOR and package_of(edge.importer) not in TOP_FLOOR
    ]
    assert not offenders, "\n".join(map(str, offenders))


# -- layers ------------------------------------------------------------------------------

#: What the embedded node must never import: it shares the ground floor with the client.
ABOVE_THE_NODE = ("client", "frames", "extract", "tx", "charts", "widgets")


def imports_between(edges: list[Edge], importer: str, targets: tuple[str, ...]) -> list[Edge]:
    """The imports from package ``importer`` of any of the packages ``targets``."""
    names = {f"ledgerkit.{name}" for name in targets}
    return [
        edge
        for edge in edges
        if package_of(edge.importer) == f"ledgerkit.{importer}" and package_of(edge.target) in names
    ]


def test_localnet_imports_nothing_above_the_ground_floor() -> None:
    offenders = imports_between(import_graph(), "localnet", ABOVE_THE_NODE)
    assert not offenders, "\n".join(map(str, offenders))
