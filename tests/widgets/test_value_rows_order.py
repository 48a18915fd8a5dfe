"""A struct's rows come in the order its module declares the fields, whatever order the
node lists them in (a node's API sorts a struct's fields by name)."""

from __future__ import annotations

from typing import Any

from ledgerkit.types import MoveType, StructTag
from ledgerkit.widgets._move_rows import flatten_value

ACCOUNT = StructTag.parse("0x1::account::Account")
GUID_ID = StructTag.parse("0x1::guid::ID")


class Declared:
    """The two structs' fields as ``0x1::account`` and ``0x1::guid`` declare them."""

    def fields(self, tag: StructTag) -> dict[str, MoveType] | None:
        return {
            ACCOUNT: {
                "authentication_key": MoveType.parse("vector<u8>"),
                "sequence_number": MoveType.parse("u64"),
                "guid_creation_num": MoveType.parse("u64"),
                "self_id": GUID_ID,
            },
            GUID_ID: {"creation_num": MoveType.parse("u64"), "addr": MoveType.parse("address")},
        }.get(tag)


def test_rows_follow_the_declaration_not_the_node_s_name_order() -> None:
    # As a node sends it: fields by name, nested too; one field the ABI does not know.
    value = {
        "authentication_key": "0x01",
        "extra": "7",
        "guid_creation_num": "2",
        "self_id": {"addr": "0x1", "creation_num": "0"},
        "sequence_number": "5",
    }
    layouts: Any = Declared()
    rows = flatten_value(value, ACCOUNT, layouts)
    assert [(r["path"], r["value"], r["type"]) for r in rows] == [
        ("authentication_key", "0x01", "vector<u8>"),
        ("sequence_number", "5", "u64"),
        ("guid_creation_num", "2", "u64"),
        ("self_id.creation_num", "0", "u64"),
        ("self_id.addr", "0x1", "address"),
        ("extra", "7", ""),
    ]


def test_without_an_abi_rows_keep_the_node_s_order() -> None:
    rows = flatten_value({"b": "1", "a": "2"}, None, None)
    assert [r["path"] for r in rows] == ["b", "a"]
