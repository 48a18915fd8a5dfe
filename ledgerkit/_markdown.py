"""What both the docs host and the docs client read of Markdown: the lines of prose
outside fenced code blocks. Plain text handling on the ground floor, no dependencies."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

__all__ = ["FENCE", "prose_lines"]

#: The opening (or closing) line of a fenced code block: three or more backticks or tildes.
FENCE: Final = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def prose_lines(markdown: str) -> Iterator[str]:
    """The lines of ``markdown`` outside fenced code blocks.

    Examples
    --------
    >>> list(prose_lines("a\\n```\\nb\\n```\\nc"))
    ['a', 'c']
    """
    fence = ""
    for line in markdown.splitlines():
        found = FENCE.match(line)
        if fence:
            if found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence):
                fence = ""
            continue
        if found:
            fence = found.group(1)
            continue
        yield line
