"""The Move examples of ``tests/move/assembler`` for the interop tests, which publish and
call them through the official SDKs.

The assembler is a package of ``tests/move``, a directory that is not on the import path
when the interop tests run alone: it is put there once, here.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Final

#: The directory holding the ``assembler`` package.
MOVE_TESTS: Final = Path(__file__).resolve().parent.parent / "move"


def examples_module() -> ModuleType:
    """``assembler.examples``: the examples' sources and builders, by name in ``EXAMPLES``."""
    if str(MOVE_TESTS) not in sys.path:
        sys.path.append(str(MOVE_TESTS))
    return importlib.import_module("assembler.examples")


def bytecode(name: str, address: str) -> bytes:
    """The bytecode of example ``name`` (a module published at ``address``, or a script)."""
    example = examples_module().EXAMPLES[name]
    data: bytes = example.bytecode(address)
    return data


def package_metadata(name: str, address: str) -> bytes:
    """The BCS of the ``PackageMetadata`` that publishes module example ``name`` alone."""
    example = examples_module().EXAMPLES[name]
    data: bytes = example.package_metadata(address)
    return data
