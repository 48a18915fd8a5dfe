"""How the widgets package is put together: each module imports on its own, none imports
a sibling inside a function (the navigator opens views from its registry instead), the
modules import one another without a cycle, and each explorer registers its views."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ledgerkit.widgets
from ledgerkit.widgets._navigator import VIEWS

PACKAGE = Path(ledgerkit.widgets.__file__).parent
MODULES = sorted(
    "ledgerkit.widgets" + ("" if p.stem == "__init__" else f".{p.stem}")
    for p in PACKAGE.glob("*.py")
)


def _sibling_imports(tree: ast.AST) -> list[tuple[int, str, bool]]:
    """``(line, module, inside a function)`` of every import of a ``ledgerkit.widgets``
    module."""
    found: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            if isinstance(child, ast.ImportFrom) and child.module:
                names = [child.module, *(f"{child.module}.{a.name}" for a in child.names)]
            elif isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            else:
                names = []
            for name in names:
                if (
                    name.startswith("ledgerkit.widgets.")
                    and (PACKAGE / f"{name.split('.')[2]}.py").exists()
                ):
                    found.append((child.lineno, ".".join(name.split(".")[:3]), inside))
            visit(child, inside)

    visit(tree, False)
    return found


def test_the_package_has_the_modules_named_for_what_they_hold() -> None:
    assert MODULES == [
        "ledgerkit.widgets",
        "ledgerkit.widgets._account_activity",
        "ledgerkit.widgets._account_events",
        "ledgerkit.widgets._account_explorer",
        "ledgerkit.widgets._account_modules",
        "ledgerkit.widgets._balance_rows",
        "ledgerkit.widgets._cells",
        "ledgerkit.widgets._front_end",
        "ledgerkit.widgets._gas_dashboard",
        "ledgerkit.widgets._grid",
        "ledgerkit.widgets._hex_dump",
        "ledgerkit.widgets._move_rows",
        "ledgerkit.widgets._names",
        "ledgerkit.widgets._navigator",
        "ledgerkit.widgets._read_client",
        "ledgerkit.widgets._signatures",
        "ledgerkit.widgets._sources",
        "ledgerkit.widgets._static",
        "ledgerkit.widgets._table_explorer",
        "ledgerkit.widgets._transaction_facts",
        "ledgerkit.widgets._transaction_inspector",
        "ledgerkit.widgets._typed_fields",
        "ledgerkit.widgets._value_tree",
        "ledgerkit.widgets._view_form",
    ]


#: Imports each module first, in one fresh interpreter: before each, every widgets
#: module is forgotten (the third-party ones stay loaded, which keeps it quick).
ONE_BY_ONE = """
import importlib, sys
for module in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m.startswith("ledgerkit.widgets")]:
        del sys.modules[loaded]
    importlib.import_module(module)
    print(module)
"""


def test_each_module_imports_on_its_own() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ONE_BY_ONE, *MODULES], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == MODULES


def test_no_module_imports_a_sibling_inside_a_function() -> None:
    late = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        late += [
            f"{path.name}:{line} imports {name}"
            for line, name, inside in _sibling_imports(tree)
            if inside
        ]
    assert late == []


def test_the_modules_import_one_another_without_a_cycle() -> None:
    graph = {
        f"ledgerkit.widgets.{path.stem}": {
            name for _, name, _ in _sibling_imports(ast.parse(path.read_text("utf-8")))
        }
        for path in PACKAGE.glob("_*.py")
    }
    done: set[str] = set()

    def walk(module: str, trail: tuple[str, ...]) -> None:
        assert module not in trail, " -> ".join([*trail, module])
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            walk(target, (*trail, module))
        done.add(module)

    for module in sorted(graph):
        walk(module, ())
    # The navigator knows no explorer.
    assert graph["ledgerkit.widgets._navigator"] == {
        "ledgerkit.widgets._grid",
        "ledgerkit.widgets._move_rows",
        "ledgerkit.widgets._names",
        "ledgerkit.widgets._read_client",
        "ledgerkit.widgets._static",
    }


def test_every_view_a_row_can_open_is_registered() -> None:
    assert sorted(VIEWS) == ["account", "events", "table", "transaction"]
    assert {kind: factory.__module__ for kind, factory in VIEWS.items()} == {
        "account": "ledgerkit.widgets._account_explorer",
        "events": "ledgerkit.widgets._account_events",
        "table": "ledgerkit.widgets._table_explorer",
        "transaction": "ledgerkit.widgets._transaction_inspector",
    }
