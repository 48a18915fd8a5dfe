"""A transaction's bytes as a hex dump, for the inspector's Bytes tab.

The dump has fixed columns: the offset of each line (hexadecimal, then decimal), the
line's :data:`BYTES_PER_LINE` bytes in groups of :data:`GROUP`, and the fields whose
spans start on that line (each named whole, with its value). A field is named by the
last two steps of its path in the explanation (``raw_txn.sender``, ``args.arg[0]``); its
full path is the title of its bytes. In HTML every byte of a field carries the field's
shade (alternating field by field), so where one field ends and the next begins shows.
The HTML dump stops after :data:`MAX_LINES` lines and says how many bytes are left.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["BYTES_PER_LINE", "GROUP", "MAX_LINES", "DumpLine", "hex_dump_html", "hex_dump_lines"]

#: Bytes shown on each line of the dump.
BYTES_PER_LINE: Final = 16
#: Bytes in each group of a line (groups are set apart by one more space).
GROUP: Final = 4
#: Most lines the HTML dump shows (64 KiB); the rest is counted below it.
MAX_LINES: Final = 4_096
#: Longest value shown beside a field's name (a long address whole; a longer one is cut).
_VALUE_SHOWN: Final = 68
_HEX_WIDTH: Final = BYTES_PER_LINE * 3 + BYTES_PER_LINE // GROUP - 2


@dataclass(frozen=True, slots=True)
class DumpLine:
    """One line of the dump: its offset, its bytes and the fields that start on it."""

    offset: int
    data: bytes
    #: ``(name, value text)`` of each field whose span starts on this line.
    fields: tuple[tuple[str, str], ...]

    @property
    def hex(self) -> str:
        """The bytes in hex, two digits a byte, in groups of :data:`GROUP`."""
        groups = [self.data[i : i + GROUP].hex(" ") for i in range(0, len(self.data), GROUP)]
        return "  ".join(groups)

    @property
    def text(self) -> str:
        """The line as text: ``offset  bytes  fields`` in fixed columns."""
        named = " · ".join(f"{name} = {value}" if value else name for name, value in self.fields)
        return f"{self.offset:06x} {self.offset:>7}  {self.hex:<{_HEX_WIDTH}}  {named}".rstrip()


def _name(path: Sequence[str]) -> str:
    """A field's short name: the last two steps of its path (one when it is the root)."""
    return ".".join(path[-2:]) if len(path) > 2 else ".".join(path[1:] or path)


def _shown(text: str) -> str:
    return text if len(text) <= _VALUE_SHOWN else text[: _VALUE_SHOWN - 1] + "…"


def _leaves(explanation: Any) -> list[Any]:
    return [f for f in explanation.fields if f.leaf and len(f.data)]


def hex_dump_lines(explanation: Any) -> list[DumpLine]:
    """The dump of a :class:`~ledgerkit.tx.TransactionExplanation`, line by line."""
    data: bytes = explanation.data
    starts: dict[int, list[tuple[str, str]]] = {}
    for leaf in _leaves(explanation):
        line = leaf.offset // BYTES_PER_LINE
        starts.setdefault(line, []).append((_name(leaf.path), _shown(leaf.text)))
    return [
        DumpLine(at, data[at : at + BYTES_PER_LINE], tuple(starts.get(at // BYTES_PER_LINE, ())))
        for at in range(0, len(data), BYTES_PER_LINE)
    ]


def _owners(explanation: Any) -> list[int]:
    """For each byte, the index of the leaf field spanning it (-1: none)."""
    owner = [-1] * len(explanation.data)
    for index, leaf in enumerate(_leaves(explanation)):
        for at in range(leaf.offset, min(leaf.offset + len(leaf.data), len(owner))):
            owner[at] = index
    return owner


def _bytes_html(line: DumpLine, owner: list[int], leaves: list[Any]) -> str:
    cells = []
    for i, byte in enumerate(line.data):
        at = line.offset + i
        index = owner[at]
        if i and i % GROUP == 0:
            cells.append(" ")
        shade = f"lk-hex-f{index % 2}" if index >= 0 else "lk-hex-none"
        title = html.escape(".".join(leaves[index].path), quote=True) if index >= 0 else ""
        cells.append(f"<span class='{shade}' title='{title}'>{byte:02x}</span>")
        if i + 1 < len(line.data):
            cells.append(" ")
    return "".join(cells)


#: The dump's look: monospace, no wrapping (a wide dump scrolls within its box).
_STYLE: Final = (
    "<style>"
    ".lk-hex-dump-box,.lk-hex-dump-box>.widget-html-content{min-width:0;max-width:100%}"
    ".lk-hex-dump{overflow-x:auto;max-width:100%;line-height:1.5;"
    "font-family:var(--jp-code-font-family,ui-monospace,SFMono-Regular,Menlo,monospace);"
    "font-size:var(--jp-code-font-size,12px)}"
    ".lk-hex-dump table{border-collapse:collapse;white-space:pre}"
    ".lk-hex-dump td,.lk-hex-dump th{padding:0 1em 0 0;text-align:left;vertical-align:top;"
    "white-space:pre;word-break:keep-all;overflow-wrap:normal}"
    ".lk-hex-dump .lk-hex-offset{color:var(--jp-ui-font-color2,#666);text-align:right}"
    ".lk-hex-dump .lk-hex-f1{background:var(--jp-layout-color2,#eee)}"
    ".lk-hex-dump .lk-hex-field{color:var(--jp-content-font-color1,#222)}"
    "</style>"
)


def hex_dump_html(explanation: Any) -> str:
    """The dump as an HTML table in a box that scrolls sideways (never wraps); shown in
    an ``ipywidgets.HTML`` of class ``lk-hex-dump-box``, the widget is kept within its
    container's width."""
    leaves = _leaves(explanation)
    owner = _owners(explanation)
    rows = []
    lines = hex_dump_lines(explanation)
    for line in lines[:MAX_LINES]:
        fields = " · ".join(
            f"<span class='lk-hex-name'>{html.escape(name)}</span>"
            + (f" = {html.escape(value)}" if value else "")
            for name, value in line.fields
        )
        rows.append(
            "<tr>"
            f"<td class='lk-hex-offset'>{line.offset:06x}</td>"
            f"<td class='lk-hex-offset'>{line.offset}</td>"
            f"<td class='lk-hex-bytes'>{_bytes_html(line, owner, leaves)}</td>"
            f"<td class='lk-hex-field'>{fields}</td>"
            "</tr>"
        )
    size = len(explanation.data)
    if len(lines) > MAX_LINES:
        left = size - MAX_LINES * BYTES_PER_LINE
        rows.append(
            f"<tr><td colspan='4' class='lk-hex-more'>… {left:,} more bytes: "
            "<code>ledgerkit.explain(version, client=client)</code> explains them all</td></tr>"
        )
    head = (
        "<tr><th>offset</th><th>(dec)</th>"
        f"<th>bytes ({BYTES_PER_LINE} a line)</th><th>fields starting on the line</th></tr>"
    )
    caption = f"<div class='lk-hex-caption'>{html.escape(explanation.kind)}: {size:,} bytes</div>"
    return (
        f"{_STYLE}<div class='lk-hex-dump'>{caption}"
        f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
