"""A grid row expanded in full, and a grid sorted by a header: the kernel's side.

The layouts stand in for the modules' ABIs with struct fields written out here; the
trees and orders expected are written out too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from ledgerkit import Address, InputError
from ledgerkit.types import MoveType, StructTag
from ledgerkit.widgets import Column, GridPage, LedgerGrid, SortOrder
from ledgerkit.widgets._sources import ListSource
from ledgerkit.widgets._value_tree import MAX_NODES, value_tree

COIN_STORE = "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"
#: Struct fields, as the modules' ABIs give them (type arguments put in).
FIELDS: dict[str, dict[str, str]] = {
    COIN_STORE: {
        "coin": "0x1::coin::Coin<0x1::aptos_coin::AptosCoin>",
        "frozen": "bool",
        "owners": "vector<address>",
    },
    "0x1::coin::Coin<0x1::aptos_coin::AptosCoin>": {"value": "u64"},
}


class Layouts:
    def fields(self, tag: StructTag) -> dict[str, MoveType] | None:
        found = FIELDS.get(str(tag))
        return None if found is None else {k: MoveType.parse(v) for k, v in found.items()}


def lines(node: Mapping[str, Any], depth: int = 0) -> list[str]:
    """A tree as the browser writes it: ``name: type = value``, indented."""
    out = []
    for child in node["children"]:
        text = f"{'  ' * depth}{child['name']}:"
        if child["type"]:
            text += f" {child['type']}"
        if child["value"] is not None:
            text += (" = " if child["type"] else " ") + child["value"]
        out.append(text)
        out += lines(child, depth + 1)
    return out


def test_a_move_value_becomes_a_tree_typed_from_the_layouts() -> None:
    value = {
        "coin": {"value": str(2**64 - 1)},
        "frozen": False,
        "owners": ["0x1", "0x" + "ab" * 32],
    }
    tree = value_tree(value, COIN_STORE, Layouts())
    assert tree["type"] == COIN_STORE
    assert lines(tree) == [
        "coin: 0x1::coin::Coin<0x1::aptos_coin::AptosCoin>",
        "  value: u64 = 18446744073709551615",
        "frozen: bool = false",
        "owners: vector<address>",
        "  [0]: address = 0x1",
        "  [1]: address = 0x" + "ab" * 32,
    ]


def test_without_layouts_the_tree_has_no_types_and_exact_values() -> None:
    tree = value_tree({"n": 2**256 - 1, "empty": [], "none": {}, "who": Address.from_int(1)})
    assert lines(tree) == [
        f"n: {2**256 - 1}",
        "empty: []",
        "none: {}",
        "who: 0x1",
    ]


def test_a_table_item_types_its_key_and_value_by_the_types_it_carries() -> None:
    item = {
        "key": "ada",
        "key_type": "0x1::string::String",
        "value": {"level": 7},
        "value_type": "0x1::demo::Profile",
    }
    assert lines(value_tree(item))[:3] == [
        "key: 0x1::string::String = ada",
        "key_type: 0x1::string::String",
        "value: 0x1::demo::Profile",
    ]


def test_a_huge_value_is_bounded_and_says_how_much_is_left() -> None:
    tree = value_tree(list(range(MAX_NODES + 500)))
    shown = tree["children"]
    assert len(shown) == MAX_NODES
    assert shown[-1] == {"name": "…", "type": "", "value": "501 more not shown", "children": []}


def test_a_value_deeper_than_the_bound_is_shown_as_json() -> None:
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    text = lines(value_tree(deep))[-1]
    assert text.endswith("[[[[[[[[1]]]]]]]]")


ROWS = [
    {"n": 1, "resource": COIN_STORE, "data": {"coin": {"value": "5"}, "frozen": True}},
    {"n": 2, "resource": COIN_STORE, "data": {"coin": {"value": "7"}}, "note": "x" * 5000},
    {"n": 3, "resource": None, "data": None},
]
COLUMNS = [
    Column("n", kind="int"),
    Column("resource"),
    Column("data", kind="json", type_from="resource"),
    Column("note"),
]


def test_an_expand_message_sends_the_row_in_full_and_a_page_change_closes_it() -> None:
    grid = LedgerGrid(ListSource(ROWS), COLUMNS, page_size=5, layouts=Layouts())
    assert grid.rows[1]["note"].endswith("…")  # the cell is cut on its way...
    grid._handle_custom_msg({"type": "expand", "index": 1}, [])
    assert grid.detail["index"] == 1
    fields = {field["name"]: field for field in grid.detail["fields"]}
    assert list(fields) == ["n", "resource", "data", "note"]
    assert fields["note"]["text"] == "x" * 5000  # ...and whole in the row expanded
    assert fields["n"] == {"name": "n", "label": "n", "kind": "int", "text": "2", "tree": None}
    data = fields["data"]
    assert json.loads(data["text"]) == {"coin": {"value": "7"}}
    assert data["text"].startswith('{\n  "coin"')  # indented, as it is copied
    assert lines(data["tree"]) == [
        "coin: 0x1::coin::Coin<0x1::aptos_coin::AptosCoin>",
        "  value: u64 = 7",
    ]
    grid._handle_custom_msg({"type": "expand", "index": 2}, [])
    assert [field["name"] for field in grid.detail["fields"]] == ["n"]  # nothing missing shown
    grid._handle_custom_msg({"type": "collapse"}, [])
    assert grid.detail == {}
    grid.expand(0)
    grid.refresh()
    assert grid.detail == {}
    with pytest.raises(InputError):
        grid.expand("0")  # type: ignore[arg-type]


def test_an_expand_message_for_no_row_closes_what_is_open() -> None:
    grid = LedgerGrid(ListSource(ROWS), COLUMNS, page_size=5)
    grid.expand(0)
    grid._handle_custom_msg({"type": "expand", "index": 99}, [])
    assert grid.detail == {}


AMOUNTS = [
    {"id": "a", "amount": "9"},
    {"id": "b", "amount": str(2**64 - 1)},
    {"id": "c", "amount": None},
    {"id": "d", "amount": 2**53 + 1},
    {"id": "e", "amount": 2**53},
    {"id": "f", "amount": "10"},
]


def _ids(grid: LedgerGrid) -> list[str]:
    return [row["id"] for row in grid.rows]


def test_a_header_click_sorts_numbers_exactly_with_missing_values_last() -> None:
    grid = LedgerGrid(
        ListSource(AMOUNTS),
        [Column("id"), Column("amount", kind="int")],
        sortable=True,
    )
    assert grid.sort == {}
    assert _ids(grid) == ["a", "b", "c", "d", "e", "f"]
    grid._handle_custom_msg({"type": "sort", "column": "amount"}, [])
    assert grid.sort == {"column": "amount", "descending": False}
    assert _ids(grid) == ["a", "f", "e", "d", "b", "c"]
    grid._handle_custom_msg({"type": "sort", "column": "amount"}, [])
    assert grid.sort_order == SortOrder("amount", descending=True)
    assert _ids(grid) == ["b", "d", "e", "f", "a", "c"]
    grid._handle_custom_msg({"type": "sort", "column": "id"}, [])  # another column: ascending
    assert _ids(grid) == ["a", "b", "c", "d", "e", "f"]
    grid.sort_by(None)
    assert grid.sort == {}


def test_sorting_keeps_the_search_and_starts_from_the_first_page() -> None:
    rows = [{"id": f"row{n:02d}", "amount": n} for n in range(30)]
    grid = LedgerGrid(
        ListSource(rows, ["id"]), [Column("id"), Column("amount", kind="int")], sortable=True
    )
    grid.query = "row1"
    grid.go(0)
    grid.sort_by("amount", descending=True)
    assert grid.page == 0
    assert _ids(grid) == [f"row{n}" for n in range(19, 9, -1)]


def test_a_grid_not_sortable_ignores_sort_messages_and_refuses_sort_by() -> None:
    calls: list[tuple[Any, ...]] = []

    def source(page: int, size: int, query: str) -> GridPage:
        calls.append((page, size, query))
        return GridPage(AMOUNTS, total=len(AMOUNTS))

    grid = LedgerGrid(source, [Column("id"), Column("amount", kind="int")])
    grid._handle_custom_msg({"type": "sort", "column": "amount"}, [])
    assert calls == [(0, 20, "")]
    with pytest.raises(InputError, match="not sortable"):
        grid.sort_by("amount")
    sortable = LedgerGrid(ListSource(AMOUNTS), [Column("id")], sortable=True)
    with pytest.raises(InputError, match="no column 'amount'"):
        sortable.sort_by("amount")
    sortable._handle_custom_msg({"type": "sort", "column": "nope"}, [])
    assert sortable.sort == {}


def test_registering_an_activation_tells_the_browser() -> None:
    grid = LedgerGrid(ListSource(AMOUNTS), [Column("id")])
    assert grid.activatable is False
    grid.on_activate(lambda row, column: None)
    assert grid.activatable is True
