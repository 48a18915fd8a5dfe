"""Explain BCS bytes field by field: offsets, raw bytes, names and decoded values."""

from __future__ import annotations

from typing import Any

from ledgerkit.bcs._codec import Deserializer, Span
from ledgerkit.types import Address, MoveType

__all__ = ["explain_spans", "format_explanation"]


def explain_spans(data: bytes | bytearray | memoryview, kind: Any) -> list[Span]:
    """Decode ``data`` as one ``kind`` (a BCS struct class) and return every field's span.

    Spans come parents first; a field's children lie inside its ``[start, end)``. Bytes
    of a field that no child field covers (length prefixes, option tags) get a span of
    their own, named ``(length or tag)`` or ``(rest)``, so the leaves (spans without
    children) cover every byte of ``data`` exactly once.
    """
    d = Deserializer(data, trace=True)
    d.field(kind.__name__, kind.deserialize, d)
    d.finish()
    assert d.spans is not None
    return _fill_gaps(d.spans)


def _fill_gaps(spans: list[Span]) -> list[Span]:
    out: list[Span] = []

    def walk(i: int) -> int:
        # Emit spans[i] and its subtree, with spans for uncovered bytes; return the
        # index after the subtree.
        span = spans[i]
        out.append(span)
        cursor = span.start
        j = i + 1
        while j < len(spans) and spans[j].depth > span.depth:
            child = spans[j]
            if child.start > cursor:
                out.append(Span((*span.path, "(length or tag)"), cursor, child.start, None))
            j = walk(j)
            cursor = child.end
        if j > i + 1 and span.end > cursor:
            out.append(Span((*span.path, "(rest)"), cursor, span.end, None))
        return j

    i = 0
    while i < len(spans):
        i = walk(i)
    return out


def _show(value: Any) -> str:
    if isinstance(value, bytes):
        return f"{len(value)} bytes" if len(value) > 32 else "0x" + value.hex()
    if isinstance(value, Address):
        return value.standard
    if isinstance(value, MoveType):
        return str(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, int | bool):
        return str(value)
    if isinstance(value, list):
        return f"{len(value)} item(s)"
    return ""


def format_explanation(
    data: bytes | bytearray | memoryview, spans: list[Span], *, width: int = 16
) -> str:
    """Render spans as text: one line per field, bytes in hex, nested by indentation.

    Bytes inside a field that no child field covers (length prefixes) get a line of
    their own, so every byte of ``data`` is shown exactly once on a leaf line.
    """
    raw = bytes(data)
    lines: list[str] = []

    def hexed(start: int, end: int) -> str:
        chunk = raw[start:end]
        text = chunk[:width].hex(" ")
        return text + (f" ...(+{len(chunk) - width})" if len(chunk) > width else "")

    def children(i: int) -> list[int]:
        parent = spans[i]
        out = []
        j = i + 1
        while j < len(spans) and spans[j].depth > parent.depth:
            if spans[j].depth == parent.depth + 1:
                out.append(j)
            j += 1
        return out

    def render(i: int) -> None:
        span = spans[i]
        kids = children(i)
        indent = "  " * (span.depth - 1)
        if not kids:
            lines.append(
                f"{span.start:5d}  {hexed(span.start, span.end):<{width * 3 + 10}}"
                f"{indent}{span.name} = {_show(span.value)}".rstrip(" =")
            )
            return
        lines.append(f"{span.start:5d}  {'':<{width * 3 + 10}}{indent}{span.name}")
        cursor = span.start
        for k in kids:
            if spans[k].start > cursor:
                lines.append(
                    f"{cursor:5d}  {hexed(cursor, spans[k].start):<{width * 3 + 10}}"
                    f"{indent}  (length or tag)"
                )
            render(k)
            cursor = spans[k].end
        if span.end > cursor:
            lines.append(
                f"{cursor:5d}  {hexed(cursor, span.end):<{width * 3 + 10}}{indent}  (rest)"
            )

    for i, span in enumerate(spans):
        if span.depth == 1:
            render(i)
    return "\n".join(lines)
