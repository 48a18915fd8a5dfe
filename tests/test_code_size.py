"""No function or method of the package runs over 100 lines, from its ``def`` to its last
line, docstring included: a longer one is split by concept into pieces named for what
they do. Every module is parsed (not imported); nested functions count on their own and
within the function around them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import ledgerkit

PACKAGE_DIR = Path(ledgerkit.__file__).parent
MAX_FUNCTION_LINES = 100


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int, int]]:
    """Every function and method under ``tree``: its qualified name, its ``def`` line and
    its length in lines."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = prefix + node.name
            assert node.end_lineno is not None
            yield name, node.lineno, node.end_lineno - node.lineno + 1
            yield from _functions(node, name + ".<locals>.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + ".")
        else:
            yield from _functions(node, prefix)


def _too_long(source: str, where: str) -> list[str]:
    return [
        f"{where}:{line} {name} ({length} lines)"
        for name, line, length in _functions(ast.parse(source))
        if length > MAX_FUNCTION_LINES
    ]


def test_no_function_of_the_package_is_over_100_lines() -> None:
    offenders = [
        found
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        for found in _too_long(
            path.read_text(encoding="utf-8"), path.relative_to(PACKAGE_DIR.parent).as_posix()
        )
    ]
    assert not offenders, "over 100 lines, to split by concept:\n" + "\n".join(offenders)


def test_the_count_runs_from_def_to_the_last_line_and_names_methods() -> None:
    def lines(indent: str) -> str:
        return "\n".join(f"{indent}x{i} = {i}" for i in range(98))

    source = (
        "@decorator\n"
        f"def fits():\n    'Doc.'\n{lines('    ')}\n\n"
        "class Thing:\n"
        f"    def method(self):\n        'Doc.'\n{lines('        ')}\n        return 1\n\n"
        f"async def outer():\n    def inner():\n{lines('        ')}\n        return 1\n"
        "    return inner\n"
    )
    # fits: def, docstring and 98 lines, 100; Thing.method 101; outer 102, its inner 100.
    assert _too_long(source, "example.py") == [
        "example.py:104 Thing.method (101 lines)",
        "example.py:206 outer (102 lines)",
    ]
