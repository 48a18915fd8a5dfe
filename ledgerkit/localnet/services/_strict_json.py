"""JSON read strictly, as the services take it from strangers: no key twice in an object,
no ``NaN`` or ``Infinity`` (which :func:`json.loads` lets through)."""

from __future__ import annotations

import json
from typing import Any, NoReturn

__all__ = ["strict_json"]


def strict_json(text: str) -> Any:
    """``text`` parsed as JSON.

    Raises
    ------
    ValueError
        Not JSON, a repeated key in an object, or ``NaN`` / ``Infinity``.
    RecursionError
        Nested deeper than the interpreter recurses.
    """
    return json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constant)


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a repeated key")
    return found


def _no_constant(word: str) -> NoReturn:
    raise ValueError("NaN and Infinity are not JSON")
