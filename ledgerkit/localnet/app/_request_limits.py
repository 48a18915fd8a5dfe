"""How much work one request may ask of the node, and how much of it an answer repeats.

A local node serves notebooks, tests and tools at once from one event loop: no single
request may freeze the others. The request body is bounded by ``NodeConfig.max_body_bytes``
(413 past it); what is inside a JSON body by the constants here (400 ``invalid_input``
naming the limit). Work that stays heavy within them (decoding, encoding, executing)
runs in a worker thread, off the event loop.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = [
    "MAX_ECHO_CHARS",
    "MAX_JSON_DEPTH",
    "MAX_JSON_ELEMENTS",
    "MAX_MESSAGE_CHARS",
    "ShapeError",
    "check_json_shape",
    "cut_message",
    "echo",
]

#: Deepest nesting of arrays and objects in a JSON body (Move values of real use are
#: a few levels deep; each level costs stack in the codec and in error messages).
MAX_JSON_DEPTH: Final = 64

#: Most values (scalars, arrays and objects together) in one JSON body. A transaction a
#: public node takes is at most 64 KiB, which never holds this many.
MAX_JSON_ELEMENTS: Final = 100_000

#: Most characters of a client's value quoted back in an error message.
MAX_ECHO_CHARS: Final = 200

#: Longest error message the node sends; longer ones are cut and say so.
MAX_MESSAGE_CHARS: Final = 1_000


class ShapeError(ValueError):
    """A JSON body past ``MAX_JSON_DEPTH`` or ``MAX_JSON_ELEMENTS``; the message names it."""


def check_json_shape(value: Any) -> None:
    """Refuse JSON nested deeper than ``MAX_JSON_DEPTH`` or with more than
    ``MAX_JSON_ELEMENTS`` values, without recursion (so without stack to run out of).

    Raises
    ------
    ShapeError
        Naming the limit that was passed.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_JSON_ELEMENTS:
            raise ShapeError(
                f"the JSON body holds more than {MAX_JSON_ELEMENTS} values, the node's limit"
            )
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= MAX_JSON_DEPTH and children:
            raise ShapeError(
                f"the JSON body is nested deeper than {MAX_JSON_DEPTH} levels, the node's limit"
            )
        stack.extend((child, depth + 1) for child in children)


def echo(value: object) -> str:
    """``repr(value)`` for an error message, cut to ``MAX_ECHO_CHARS``.

    Only strings and bytes are quoted whole up to the cut; anything else is named by its
    type, since the repr of a large or deep container is itself costly.

    Examples
    --------
    >>> echo("0x1")
    "'0x1'"
    >>> echo("a" * 500)[-21:]
    "'... (500 characters)"
    """
    if isinstance(value, (str, bytes)):
        if len(value) <= MAX_ECHO_CHARS:
            return repr(value)
        return f"{value[:MAX_ECHO_CHARS]!r}... ({len(value)} characters)"
    if isinstance(value, (bool, int, float)) or value is None:
        text = repr(value)
        if len(text) <= MAX_ECHO_CHARS:
            return text
        return f"{text[:MAX_ECHO_CHARS]}... ({len(text)} characters)"
    return f"a {type(value).__name__}"


def cut_message(message: str) -> str:
    """``message`` itself, or its first ``MAX_MESSAGE_CHARS`` characters and a note."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return f"{message[:MAX_MESSAGE_CHARS]}... (cut: {len(message)} characters in all)"
