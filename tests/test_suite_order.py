"""The suite's own order (conftest.py at the root): tests shuffled by pytest-randomly, a
notebook's cells kept in their order and together, file order again with ``-p no:randomly``."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT_CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"
CELLS = 12


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """Two notebooks of ``CELLS`` code cells and a module of ``CELLS`` tests."""
    pytester.makeconftest(ROOT_CONFTEST.read_text())
    for name in ("first", "second"):
        cells = [nbformat.v4.new_code_cell(f"x = {i}") for i in range(CELLS)]
        nbformat.write(nbformat.v4.new_notebook(cells=cells), pytester.path / f"{name}.ipynb")
    pytester.makepyfile(test_plain="\n".join(f"def test_{i}(): pass" for i in range(CELLS)))
    return pytester


def _collected(pytester: pytest.Pytester, *options: str) -> list[str]:
    result = pytester.runpytest("--nbval", "--collect-only", "-q", *options)
    return [line for line in result.outlines if "::" in line]


def test_notebook_cells_keep_their_order_while_the_tests_are_shuffled(
    project: pytest.Pytester,
) -> None:
    in_file_order = [f"test_plain.py::test_{i}" for i in range(CELLS)]
    orders = []
    for seed in (1, 2, 3, 4):
        ids = _collected(project, "-p", "randomly", f"--randomly-seed={seed}")
        cells = [i for i in ids if ".ipynb::" in i]
        notebooks = [
            [f"{name}.ipynb::Cell {i}" for i in range(CELLS)] for name in ("first", "second")
        ]
        assert cells in (notebooks[0] + notebooks[1], notebooks[1] + notebooks[0])
        start = ids.index(cells[0])
        assert ids[start : start + len(cells)] == cells  # together, nothing in between
        tests = [i for i in ids if i.startswith("test_plain.py::")]
        assert sorted(tests) == sorted(in_file_order)
        orders.append(tests)
    assert any(tests != in_file_order for tests in orders)


def test_no_randomly_runs_in_file_order(project: pytest.Pytester) -> None:
    ids = _collected(project, "-p", "no:randomly")
    assert [i for i in ids if i.startswith("test_plain.py::")] == [
        f"test_plain.py::test_{i}" for i in range(CELLS)
    ]
