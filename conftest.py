"""Pytest plumbing for the whole project.

The suite runs in a random order (pytest-randomly prints the seed in the header; pass
``--randomly-seed=N`` to repeat an order, or ``-p no:randomly`` to run in file order), so
a test that leans on another's leftovers fails. A notebook is the exception: nbval runs
its cells one after the other in one kernel, so they keep their order and stay together.

Every cell of a notebook is marked ``notebooks``, a slow tier that ``make test-fast``
leaves out (``-m "not notebooks"``), and may take ``NOTEBOOK_CELL_TIMEOUT`` seconds: a
cell that fetches a whole chain outlasts the suite's default timeout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# tests/test_suite_order.py runs pytest on a made-up project to check the order.
pytest_plugins = ("pytester",)

#: Seconds a notebook cell may take, its kernel's start included for the first.
NOTEBOOK_CELL_TIMEOUT = 1200


def pytest_itemcollected(item: pytest.Item) -> None:
    # Marked as it is collected, before ``-m`` selects: marks made later would be missed.
    if item.path.suffix == ".ipynb":
        item.add_marker(pytest.mark.notebooks)
        item.add_marker(pytest.mark.timeout(NOTEBOOK_CELL_TIMEOUT))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    cells = [item for item in items if item.path.suffix == ".ipynb"]
    if not cells:
        return
    first = items.index(cells[0])
    notebooks: dict[Path, list[pytest.Item]] = {}
    for cell in cells:
        notebooks.setdefault(cell.path, []).append(cell)
    in_order = [
        cell
        for notebook in notebooks.values()
        for cell in sorted(notebook, key=lambda cell: int(getattr(cell, "cell_num", 0)))
    ]
    others = [item for item in items if item.path.suffix != ".ipynb"]
    items[:] = others[:first] + in_order + others[first:]
