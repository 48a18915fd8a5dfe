"""Move values checked against their declared types, as the API renders them.

The API's rendering of Move values (aptos-core api/types/src/move_types.rs, ``MoveValue``):
u8, u16 and u32 as JSON numbers; u64, u128 and u256 as decimal strings; bool as a JSON
boolean; address as a 0x-hex string; vector<u8> as one 0x-hex string, other vectors as
arrays; ``0x1::string::String`` as its text; any other struct as an object of its fields
(``Option`` so as ``{"vec": [...]}``, ``Object<T>`` as ``{"inner": address}``), an enum
value with its ``__variant__``.
"""

from __future__ import annotations

from typing import Any, Final

import httpx
from node_http_helpers import is_address, is_hex_bytes, is_u64, ok

_NUMBERS: Final = {"u8": 255, "u16": 2**16 - 1, "u32": 2**32 - 1}
_STRINGS: Final = {"u64": 2**64 - 1, "u128": 2**128 - 1, "u256": 2**256 - 1}


def split_type(type_text: str) -> tuple[str, list[str]]:
    """``head<a, b<c>>`` as ``("head", ["a", "b<c>"])``."""
    if not type_text.endswith(">"):
        return type_text, []
    head, inner = type_text[:-1].split("<", 1)
    parts, depth, start = [], 0, 0
    for i, char in enumerate(inner):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    parts.append(inner[start:].strip())
    return head, parts


class Declared:
    """Struct declarations read from the node's module ABIs, by ``address::module::name``."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.structs: dict[str, Any] = {}
        self.fetched: set[str] = set()

    def struct(self, name: str) -> Any:
        address, module, _ = name.split("::")
        if f"{address}::{module}" not in self.fetched:
            self.fetched.add(f"{address}::{module}")
            abi = ok(self.http.get(f"/accounts/{address}/module/{module}"))["abi"]
            for struct in abi["structs"]:
                self.structs[f"{address}::{module}::{struct['name']}"] = struct
        return self.structs[name]

    def problems(self, type_text: str, value: Any, where: str) -> list[str]:
        """What in ``value`` does not render ``type_text`` as the API does."""
        head, args = split_type(type_text)
        if head in _NUMBERS:
            good = isinstance(value, int) and not isinstance(value, bool)
            return [] if good and 0 <= value <= _NUMBERS[head] else [f"{where}: {value!r}"]
        if head in _STRINGS:
            good = is_u64(value) if head == "u64" else isinstance(value, str) and value.isdigit()
            return [] if good and int(value) <= _STRINGS[head] else [f"{where}: {value!r}"]
        if head == "bool":
            return [] if isinstance(value, bool) else [f"{where}: {value!r}"]
        if head == "address":
            return [] if is_address(value) else [f"{where}: {value!r}"]
        if head == "vector":
            if args == ["u8"]:
                return [] if is_hex_bytes(value) else [f"{where}: {value!r}"]
            if not isinstance(value, list):
                return [f"{where}: {value!r} is not an array"]
            return [
                p for i, v in enumerate(value) for p in self.problems(args[0], v, f"{where}[{i}]")
            ]
        if head == "0x1::string::String":
            return [] if isinstance(value, str) else [f"{where}: {value!r}"]
        return self._struct(head, args, value, where)

    def _struct(self, head: str, args: list[str], value: Any, where: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        declared = self.struct(head)
        if declared["is_enum"]:
            return [] if "__variant__" in value else [f"{where}: an enum without __variant__"]
        fields = declared["fields"]
        if set(value) != {f["name"] for f in fields}:
            return [f"{where}: fields {sorted(value)}, declared {[f['name'] for f in fields]}"]
        if head == "0x1::option::Option" and len(value["vec"]) > 1:
            return [f"{where}: an Option of {len(value['vec'])}"]
        found = []
        for field in fields:
            field_type = field["type"]
            for i, arg in enumerate(args):
                field_type = _substitute(field_type, f"T{i}", arg)
            found += self.problems(field_type, value[field["name"]], f"{where}.{field['name']}")
        return found


def _substitute(type_text: str, parameter: str, argument: str) -> str:
    head, args = split_type(type_text)
    if not args:
        return argument if head == parameter else head
    return f"{head}<{', '.join(_substitute(a, parameter, argument) for a in args)}>"
