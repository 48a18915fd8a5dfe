"""The package's floors: which of its packages may import which.

Every module is parsed (not imported), and every import counts: at the top, inside
functions, under ``TYPE_CHECKING``, relative or absolute. The ground floor (``types``,
``bcs``, ``keys``, the error tree) imports nothing above it; the embedded node sits
below the client and everything built on it, the front door included; frames and charts
take data, never fetch it.
"""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

import ledgerkit

PACKAGE_DIR = Path(ledgerkit.__file__).parent

#: The ground floor: each of these may import only the others (``_endpoints`` is the
#: table of operations, plain data; ``_public`` sets the names users see;
#: ``_framework_errors`` the error constants the client and the embedded node share;
#: ``_version`` the version string).
GROUND = frozenset(
    {
        "types",
        "bcs",
        "keys",
        "_errors",
        "_endpoints",
        "_public",
        "_framework_errors",
        "_markdown",
        "_closing",
        "_version",
    }
)

#: Package -> the packages it must never import (``ledgerkit``: the front door itself,
#: which names everything above the node; the node reads the version from ``_version``).
FORBIDDEN = {
    "localnet": frozenset({"ledgerkit", "client", "frames", "extract", "tx", "charts", "widgets"}),
    "frames": frozenset({"client", "extract", "tx"}),
    "charts": frozenset({"client"}),
    # connect() at the front door starts the node; the client knows nothing of it.
    "client": frozenset({"localnet"}),
    # The toolkit does no I/O: the client fetches what it needs and drives it. It reads
    # answers into frames (a simulation's changes), so it sits above them.
    "tx": frozenset({"client", "localnet", "extract", "charts", "widgets"}),
}


def _part_of(dotted: str) -> str:
    """``ledgerkit.localnet._server`` -> ``localnet``; ``ledgerkit`` -> ``ledgerkit``."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported_modules(source: str, module: str, *, is_package: bool) -> set[str]:
    """Every ``ledgerkit`` module ``source`` (the text of ``module``) imports, anywhere."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = module.split(".")
                drop = node.level - 1 if is_package else node.level
                base = ".".join(anchor[: len(anchor) - drop] if drop else anchor)
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            # ``from ledgerkit import localnet`` imports the module ``ledgerkit.localnet``.
            for alias in node.names:
                path = PACKAGE_DIR.parent / f"{target}.{alias.name}".replace(".", "/")
                if path.is_dir() or path.with_suffix(".py").is_file():
                    found.add(f"{target}.{alias.name}")
                else:
                    found.add(target)
    return {name for name in found if name == "ledgerkit" or name.startswith("ledgerkit.")}


@functools.cache
def package_imports() -> dict[str, frozenset[str]]:
    """Each part of the package (``localnet``, ``_errors``, ``cli``...) -> the parts it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        relative = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
        is_package = relative.name == "__init__"
        module = ".".join(relative.parts[:-1] if is_package else relative.parts)
        if module == "ledgerkit":
            continue  # the front door names everything, lazily
        part = _part_of(module)
        targets = imported_modules(path.read_text("utf-8"), module, is_package=is_package)
        graph.setdefault(part, set()).update(_part_of(t) for t in targets if _part_of(t) != part)
    return {part: frozenset(targets) for part, targets in graph.items()}


def test_the_checker_sees_every_kind_of_import() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import ledgerkit.client\n"
        "from ledgerkit import frames\n"
        "from ledgerkit import ErrorCode\n"
        "from . import _store\n"
        "from .._errors import LedgerError\n"
        "if TYPE_CHECKING:\n"
        "    from ledgerkit.extract import extract_blocks\n"
        "def late():\n"
        "    from ledgerkit.tx import Ed25519PrivateKey\n"
    )
    found = imported_modules(source, "ledgerkit.localnet._ledger", is_package=False)
    assert {_part_of(name) for name in found} == {
        "ledgerkit",
        "client",
        "frames",
        "localnet",
        "_errors",
        "extract",
        "tx",
    }


def test_every_floor_is_found() -> None:
    assert {"types", "bcs", "keys", "_errors", "localnet", "client", "frames", "charts"} <= set(
        package_imports()
    )


@pytest.mark.parametrize("part", sorted(GROUND))
def test_the_ground_floor_imports_nothing_above_it(part: str) -> None:
    above = package_imports().get(part, frozenset()) - GROUND
    assert not above, f"ledgerkit.{part} imports {sorted(above)}"


@pytest.mark.parametrize("part", sorted(FORBIDDEN))
def test_no_package_imports_what_sits_above_it(part: str) -> None:
    wrong = package_imports().get(part, frozenset()) & FORBIDDEN[part]
    assert not wrong, f"ledgerkit.{part} imports {sorted(wrong)}"


#: All the client may import, at the top or inside a function: the ground floor, the
#: records, and the I/O-free transaction toolkit. Extraction, frames, widgets and charts
#: sit above it and call it; it never calls them.
CLIENT_FLOOR = GROUND | {"models", "tx"}
#: The client's modules that hold its deprecated aliases, which forward through the front
#: door (``ledgerkit`` itself, the package every client module is loaded under) to where
#: the names moved; no other client module names the front door.
CLIENT_ALIASES = frozenset({"ledgerkit.client", "ledgerkit.client._deprecated"})


def _client_modules() -> dict[str, set[str]]:
    """Each module of the client -> the parts of the package it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((PACKAGE_DIR / "client").rglob("*.py")):
        relative = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
        is_package = relative.name == "__init__"
        module = ".".join(relative.parts[:-1] if is_package else relative.parts)
        targets = imported_modules(path.read_text("utf-8"), module, is_package=is_package)
        found[module] = {_part_of(t) for t in targets} - {"client"}
    return found


def test_the_client_imports_nothing_above_its_floor() -> None:
    modules = _client_modules()
    assert len(modules) > 20
    wrong = {
        module: sorted(
            parts - CLIENT_FLOOR - ({"ledgerkit"} if module in CLIENT_ALIASES else set())
        )
        for module, parts in modules.items()
    }
    assert {module: parts for module, parts in wrong.items() if parts} == {}


def test_the_client_floor_check_sees_a_function_local_import() -> None:
    source = "def scan(client):\n    from ledgerkit.extract import scan_activity\n"
    found = imported_modules(source, "ledgerkit.client._client", is_package=False)
    assert {_part_of(name) for name in found} - CLIENT_FLOOR == {"extract"}


_CLIENT_PROBE = """
import json, sys
import httpx
from ledgerkit import Client
client = Client("http://node.invalid/v1", transport=httpx.MockTransport(lambda r: None))
client.close()
heavy = ("pandas", "pyarrow", "numpy")
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in heavy)))
"""


def test_importing_and_making_a_client_loads_no_pandas_pyarrow_or_numpy() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CLIENT_PROBE],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert json.loads(done.stdout) == []


def _cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` that hold more than one node."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle_between_packages() -> None:
    """Imports inside functions included: data flows one way. The ground floor counts as
    one part; the front door, which names everything lazily, is left out."""
    ground = "<ground floor>"

    def part(name: str) -> str:
        return ground if name in GROUND else name

    graph: dict[str, set[str]] = {}
    for importer, targets in package_imports().items():
        graph.setdefault(part(importer), set()).update(
            part(t) for t in targets if t != "ledgerkit" and part(t) != part(importer)
        )
    assert _cycles({k: frozenset(v) for k, v in graph.items()}) == []


#: The most modules each of these folders keeps at its root; the rest sit in subfolders
#: named for what they hold (see docs/contributing.md).
ROOT_MODULES = {"client": 14, "localnet": 8}


@pytest.mark.parametrize("part", sorted(ROOT_MODULES))
def test_the_client_and_the_node_keep_their_roots_small(part: str) -> None:
    root = PACKAGE_DIR / part
    modules = sorted(p.name for p in root.glob("*.py"))
    assert len(modules) <= ROOT_MODULES[part], modules
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "__pycache__"):
        init = folder / "__init__.py"
        assert init.is_file(), f"{folder.name}/ is not a package"
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert docstring, f"{part}/{folder.name}/__init__.py does not say what it holds"
