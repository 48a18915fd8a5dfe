"""Move values as rows the grid can show and drill into.

A resource's JSON value becomes one row per leaf (``path``, ``type``, ``value``), typed by
the struct layouts of the modules' ABIs where the node has them. A row points somewhere
when its value is an address (an account), a table (``Table<K, V>``, with ``K`` and ``V``
from the enclosing struct's field type) or an event handle (a stream of the account):
``target`` holds what to open. Integers stay the exact decimal text the node sent. A
struct's fields come in the order its module declares them (a node's API sorts them by
name).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from ledgerkit._errors import InputError, LedgerError, NotFoundError
from ledgerkit.models import AbiCache, MoveModule
from ledgerkit.types import ModuleId, MoveType, StructTag, VectorType
from ledgerkit.widgets._grid import Column

__all__ = ["MAX_VALUE_ROWS", "VALUE_COLUMNS", "StructLayouts", "flatten_value"]

#: Most rows one value is flattened into, and how deep.
MAX_VALUE_ROWS: Final = 2_000
MAX_DEPTH: Final = 32
_ADDRESS: Final = re.compile(r"^0x[0-9a-fA-F]{1,64}$")
_TABLES: Final = {("table", "Table"), ("table_with_length", "TableWithLength")}
#: How a grid shows the rows of :func:`flatten_value`.
VALUE_COLUMNS: Final = [
    Column("path", "Field"),
    Column("value", "Value"),
    Column("type", "Move type", "move"),
    Column("points_to", "Opens"),
]


class StructLayouts:
    """Field types of structs, from the module ABIs of an explorer's
    :class:`~ledgerkit.AbiCache`; a module it does not hold is read once with
    ``read(address, name)`` (the module's ``MoveModule``, or None; a 404 is remembered as
    not published, any other failure leaves the module's structs untyped).
    """

    def __init__(self, abis: AbiCache, read: Callable[[str, str], MoveModule | None]) -> None:
        self._abis = abis
        self._read = read
        self._unreadable: set[ModuleId] = set()

    def fields(self, tag: StructTag) -> dict[str, MoveType] | None:
        """The fields of ``tag`` with its type arguments put in; ``None`` when unknown."""
        module_id = tag.module_id
        if module_id not in self._abis and module_id not in self._unreadable:
            try:
                module = self._read(tag.address.long, tag.module)
            except NotFoundError:
                self._abis.add_missing(module_id)
            except LedgerError:
                self._unreadable.add(module_id)
            else:
                if module is None:
                    self._abis.add_missing(module_id)
                else:
                    self._abis.add(module)
        try:
            found = self._abis.struct_fields(tag)
        except InputError:
            return None
        return None if found is None else dict(found)

    def struct_fields(self, tag: StructTag) -> list[tuple[str, MoveType]] | None:
        """The fields in declaration order: a layout source for ``MoveValueCodec``."""
        found = self.fields(tag)
        return None if found is None else list(found.items())


#: Field names that hold an account address when the field's type is unknown.
_ADDRESS_FIELDS: Final = frozenset({"addr", "address", "owner", "account", "sender", "creator"})


def _is_table(t: MoveType | None) -> bool:
    return isinstance(t, StructTag) and t.address.short == "0x1" and (t.module, t.name) in _TABLES


def _names_an_account(path: str, t: MoveType | None) -> bool:
    if t is not None:
        return str(t) in ("address", "signer")
    return path.rsplit(".", 1)[-1] in _ADDRESS_FIELDS


def flatten_value(
    value: Any, move_type: MoveType | None, layouts: StructLayouts | None
) -> list[dict[str, Any]]:
    """The rows of ``value`` (see the module docstring): ``path``, ``type``, ``value``,
    ``points_to`` (``"account"``, ``"table"``, ``"events"`` or ``""``) and ``target``
    (what to open: an address, ``(handle, key_type, value_type)``, or an event stream's
    ``(address, creation_number, count)``)."""
    rows: list[dict[str, Any]] = []

    def add(
        path: str, t: MoveType | None, shown: str, points_to: str = "", target: Any = None
    ) -> None:
        if len(rows) < MAX_VALUE_ROWS:
            rows.append(
                {
                    "path": path or "(value)",
                    "type": "" if t is None else str(t),
                    "value": shown,
                    "points_to": points_to,
                    "target": target,
                }
            )

    def walk(path: str, node: Any, t: MoveType | None, depth: int) -> None:
        if len(rows) >= MAX_VALUE_ROWS:
            return
        if depth > MAX_DEPTH:
            add(path, t, "…")
            return
        if isinstance(node, dict):
            if _is_table(t) and isinstance(node.get("handle"), str):
                assert isinstance(t, StructTag)
                key, val = (*t.type_args, None, None)[:2]
                add(path, t, node["handle"], "table", (node["handle"], key, val))
                return
            if "handle" in node and isinstance(node.get("handle"), str) and len(node) == 1:
                add(path, t, node["handle"], "table", (node["handle"], None, None))
                return
            guid = node.get("guid")
            if "counter" in node and isinstance(guid, dict):
                ident = guid.get("id", {}) if isinstance(guid.get("id"), dict) else {}
                count = str(node.get("counter"))
                target = (ident.get("addr"), ident.get("creation_num"), count)
                add(path, t, f"{count} events", "events", target)
                return
            fields = layouts.fields(t) if layouts is not None and isinstance(t, StructTag) else None
            if not node:
                add(path, t, "{}")
            # Declaration order where the ABI is known (a node lists a struct's fields by
            # name), the node's order for anything else.
            declared = [name for name in fields or () if name in node]
            names = declared + [name for name in node if name not in (fields or {})]
            for name in names:
                child = node[name]
                walk(f"{path}.{name}" if path else name, child, (fields or {}).get(name), depth + 1)
            return
        if isinstance(node, list):
            element = t.element if isinstance(t, VectorType) else None
            if not node:
                add(path, t, "[]")
            for index, child in enumerate(node):
                walk(f"{path}[{index}]", child, element, depth + 1)
            return
        text = (
            "null" if node is None else str(node).lower() if isinstance(node, bool) else str(node)
        )
        if isinstance(node, str) and _ADDRESS.match(node) and _names_an_account(path, t):
            add(path, t, text, "account", node)
            return
        add(path, t, text)

    walk("", value, move_type, 0)
    return rows
