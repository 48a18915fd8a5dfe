"""A grid row in full: what an expanded row shows, each value whole, a structured one as
an indented tree with the Move type of each node.

A cell of the grid is one line, cut where the column ends; expanding its row asks the
kernel for this instead, built from the row's exact Python values (never from the text
sent for the cell). A Move value is typed from the column that holds its type (a
resource's struct tag, an event's type) and the struct layouts of the modules' ABIs, so
each field says what it is; integers stay the exact decimal text. Bounded: at most
:data:`MAX_NODES` nodes and :data:`MAX_DEPTH` levels a value, :data:`MAX_TEXT` characters
of text.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol

from ledgerkit._errors import InputError
from ledgerkit.types import MoveType, StructTag, VectorType
from ledgerkit.widgets._cells import json_safe, plain

__all__ = ["MAX_DEPTH", "MAX_NODES", "MAX_TEXT", "FieldLayouts", "row_details", "value_tree"]

#: Most nodes of one value's tree; the rest is counted in a last node.
MAX_NODES: Final = 2_000
#: Deepest level of a tree; deeper values are shown as JSON text.
MAX_DEPTH: Final = 32
#: Longest text sent for one value (a tree's leaf, a long text, a value's copy).
MAX_TEXT: Final = 100_000

#: The keys of a table item as the node decodes it in a write set.
_TABLE_ITEM: Final = frozenset({"key", "key_type", "value", "value_type"})


class FieldLayouts(Protocol):
    """What types the fields of a struct: ``fields(tag)`` gives each field's type (with
    the tag's type arguments put in), or None when the struct is unknown."""

    def fields(self, tag: StructTag) -> dict[str, MoveType] | None: ...


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _type_of(value: Any) -> MoveType | None:
    if isinstance(value, MoveType):
        return value
    if isinstance(value, str) and value:
        try:
            return MoveType.parse(value)
        except InputError:
            return None
    return None


def _leaf_text(value: Any) -> str:
    value = json_safe(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def value_tree(
    value: Any,
    move_type: MoveType | str | None = None,
    layouts: FieldLayouts | None = None,
    *,
    name: str = "",
) -> dict[str, Any]:
    """``value`` as a tree of nodes ``{"name", "type", "value", "children"}``.

    A mapping or a sequence is a node with children (``value`` None), anything else a
    leaf with its exact text. ``type`` is the node's Move type when known: ``move_type``
    at the root, then the field types of ``layouts`` for struct fields and the element
    type for vector members (``""`` where unknown). A decoded table item
    (``key``, ``key_type``, ``value``, ``value_type``) types its key and value by the
    types it carries.
    """
    budget = [MAX_NODES]

    def node(label: str, item: Any, t: MoveType | None, depth: int) -> dict[str, Any]:
        budget[0] -= 1
        item = plain(item)
        shown = {"name": label, "type": "" if t is None else str(t)}
        if isinstance(item, Mapping | list | tuple) and depth >= MAX_DEPTH:
            text = json.dumps(json_safe(item), separators=(",", ":"), ensure_ascii=False)
            return {**shown, "value": _clip(text), "children": []}
        if isinstance(item, Mapping):
            keys = {str(key) for key in item}
            if keys == _TABLE_ITEM:
                fields: dict[str, MoveType | None] = {
                    "key": _type_of(item.get("key_type")),
                    "value": _type_of(item.get("value_type")),
                }
            elif layouts is not None and isinstance(t, StructTag):
                fields = dict(layouts.fields(t) or {})
            else:
                fields = {}
            pairs = [(str(key), child, fields.get(str(key))) for key, child in item.items()]
        elif isinstance(item, list | tuple):
            element = t.element if isinstance(t, VectorType) else None
            pairs = [(f"[{index}]", child, element) for index, child in enumerate(item)]
        else:
            return {**shown, "value": _clip(_leaf_text(item)), "children": []}
        if not pairs:
            return {
                **shown,
                "value": "[]" if isinstance(item, list | tuple) else "{}",
                "children": [],
            }
        children: list[dict[str, Any]] = []
        for at, (label_, child, child_type) in enumerate(pairs):
            if budget[0] <= 0:
                left = len(pairs) - at
                children.append(
                    {"name": "…", "type": "", "value": f"{left:,} more not shown", "children": []}
                )
                break
            children.append(node(label_, child, child_type, depth + 1))
        return {**shown, "value": None, "children": children}

    return node(name, value, _type_of(move_type), 0)


class DetailColumn(Protocol):
    """What :func:`row_details` reads of a grid column."""

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def type_from(self) -> str: ...


def _copy_text(value: Any) -> str:
    value = plain(value)
    if isinstance(value, Mapping | list | tuple):
        return _clip(json.dumps(json_safe(value), indent=2, ensure_ascii=False))
    return _clip(_leaf_text(value))


def row_details(
    row: Mapping[str, Any],
    columns: Sequence[DetailColumn],
    layouts: FieldLayouts | None = None,
) -> list[dict[str, Any]]:
    """The fields of an expanded row, one per column with a value, in column order.

    Each is ``{"name", "label", "kind", "text", "tree"}``: ``text`` is the value whole
    (a structured value as indented JSON, what its copy button copies); ``tree`` is
    :func:`value_tree` of a structured value (None for a plain one), typed by the
    column's ``type_from`` column when it names one.
    """
    fields: list[dict[str, Any]] = []
    for column in columns:
        value = plain(row.get(column.name))
        if value is None or value == "":
            continue
        if column.kind == "json" and isinstance(value, str) and value[:1] in "[{":
            with contextlib.suppress(ValueError):
                value = json.loads(value)
        structured = isinstance(value, Mapping | list | tuple)
        move_type = row.get(column.type_from) if column.type_from else None
        fields.append(
            {
                "name": column.name,
                "label": column.label or column.name,
                "kind": column.kind,
                "text": _copy_text(value),
                "tree": value_tree(value, move_type, layouts) if structured else None,
            }
        )
    return fields
