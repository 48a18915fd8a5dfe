"""Bodies of every shape the reference OpenAPI document allows, as Hypothesis strategies.

The reference document (the public node family's OpenAPI 3.0, kept beside the project)
is first turned into JSON Schema: ``$ref`` resolved, ``oneOf`` read as ``anyOf`` (the
``type`` discriminator tells members apart, so a body two members accept is still one
answer), OpenAPI's integer formats (``uint8`` ... ``uint64``) made into bounds, its string
formats (``uint64`` as a decimal string, ``hex``...) kept for the generators below, and
every optional property allowed to be absent or ``null``, as real nodes send them (the
document is 3.0 without ``nullable``).

Scalars are drawn by hypothesis-jsonschema. Objects, arrays and unions are composed
here, property by property: hypothesis-jsonschema's own object generation canonicalises
the whole sub-schema again on every draw (minutes for a few dozen transactions) and
drives a Hypothesis internal that current Hypothesis has replaced.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any, Final

import pytest
import yaml
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

Schema = dict[str, Any]

_NAME: Final = Path("shared") / "reference" / "aptos-openapi-spec.yaml"

# Integer formats of OpenAPI 3.0 (and the reference's own) as JSON Schema bounds.
_INTEGER_BOUNDS: Final = {
    "uint8": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
}


def _decimal(low: int, high: int) -> st.SearchStrategy[str]:
    edges = st.sampled_from(sorted({low, 0 if low < 0 else low, high, high - 1, 2**53 + 1}))
    return st.one_of(edges.filter(lambda n: low <= n <= high), st.integers(low, high)).map(str)


#: Strategies for the string formats of the reference (integers written as strings, hex).
STRING_FORMATS: Final[dict[str, st.SearchStrategy[str]]] = {
    "uint64": _decimal(0, 2**64 - 1),
    "uint128": _decimal(0, 2**128 - 1),
    "uint256": _decimal(0, 2**256 - 1),
    "int64": _decimal(-(2**63), 2**63 - 1),
    "int128": _decimal(-(2**127), 2**127 - 1),
    "int256": _decimal(-(2**255), 2**255 - 1),
    "hex": st.binary(max_size=40).map(lambda data: "0x" + data.hex()),
}

# Keys of OpenAPI schema objects that say nothing about which values are valid.
_ANNOTATIONS: Final = frozenset(
    {"description", "example", "discriminator", "deprecated", "readOnly", "writeOnly", "xml"}
)

#: Any JSON value, small: what a schema without constraints (``{}``) allows.
JSON_VALUES: Final = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)

#: A property a newer node might add to any object: clients must let it pass.
ADDED_LATER: Final = "field_added_later"


def reference_path() -> Path | None:
    """The reference document, looked for beside the project (in a parent directory)."""
    for parent in Path(__file__).resolve().parents:
        if (parent / _NAME).is_file():
            return parent / _NAME
    return None


def load_reference() -> dict[str, Any]:
    """The reference document; skips the test when it is not here (fails in CI)."""
    path = reference_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{_NAME} is missing")
        pytest.skip(f"{_NAME} is not here")
    document: dict[str, Any] = yaml.safe_load(path.read_text())
    return document


class Shapes:
    """The reference document's schemas as JSON Schema, and strategies for their bodies."""

    def __init__(self, document: dict[str, Any]) -> None:
        self._components: dict[str, Schema] = json.loads(
            json.dumps(document["components"]["schemas"])
        )
        # A known slip of the reference: MoveValue is an anyOf of every value kind (numbers,
        # strings, arrays...) under a top-level `type: object` that only objects pass.
        self._components["MoveValue"].pop("type", None)
        self._paths: dict[str, Any] = document["paths"]

    # -- OpenAPI 3.0 to JSON Schema ------------------------------------------------------

    def response_schema(self, method: str, path: str, status: str) -> Schema:
        """The JSON Schema of an operation's JSON answer at ``status``."""
        response = self._paths[path][method]["responses"][status]
        return self.json_schema(response["content"]["application/json"]["schema"])

    def named(self, name: str) -> Schema:
        """The JSON Schema of a component schema."""
        return self.json_schema({"$ref": f"#/components/schemas/{name}"})

    def json_schema(self, node: Any, seen: tuple[str, ...] = ()) -> Any:
        if isinstance(node, list):
            return [self.json_schema(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            # A schema inside itself would never end: from there on anything goes.
            return {} if name in seen else self.json_schema(self._components[name], (*seen, name))
        out: Schema = {}
        for key, value in node.items():
            if key in _ANNOTATIONS:
                continue
            if key == "oneOf":
                out["anyOf"] = self.json_schema(value, seen)
            elif key == "format":
                if node.get("type") == "integer" and value in _INTEGER_BOUNDS:
                    out["minimum"], out["maximum"] = _INTEGER_BOUNDS[value]
                elif node.get("type") == "string" and value in STRING_FORMATS:
                    out["format"] = value
            elif key == "properties":
                required = set(node.get("required", ()))
                out["properties"] = {
                    name: self._optional(self.json_schema(schema, seen), name in required)
                    for name, schema in value.items()
                }
            else:
                out[key] = self.json_schema(value, seen)
        return out

    @staticmethod
    def _optional(schema: Schema, required: bool) -> Schema:
        return schema if required else {"anyOf": [schema, {"type": "null"}]}


# -- strategies -------------------------------------------------------------------------------


def bodies(schema: Schema, *, minimal: bool = False) -> st.SearchStrategy[Any]:
    """Bodies that fit ``schema`` (a JSON Schema from :class:`Shapes`).

    With ``minimal``, objects carry their required properties only; otherwise each
    optional one is absent, null or a value, and an unknown property may be added.
    """
    return _build(json.dumps(schema, sort_keys=True), minimal)


@functools.cache
def _build(text: str, minimal: bool) -> st.SearchStrategy[Any]:
    return _strategy(json.loads(text), minimal)


def _strategy(schema: Schema, minimal: bool) -> st.SearchStrategy[Any]:
    if "allOf" in schema:
        return _strategy(_merged(schema), minimal)
    if "anyOf" in schema:
        rest = {k: v for k, v in schema.items() if k not in ("anyOf", "type")}
        branches = [_strategy({**rest, **branch}, minimal) for branch in schema["anyOf"]]
        return st.one_of(branches)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return _object(schema, minimal)
    if kind == "array":
        items = schema.get("items")
        element = JSON_VALUES if items is None else _strategy(items, minimal)
        return st.lists(element, min_size=schema.get("minItems", 0), max_size=2)
    if not schema or (set(schema) == {"type"} and isinstance(kind, list)):
        return JSON_VALUES
    return from_schema(schema, custom_formats=STRING_FORMATS)


def _object(schema: Schema, minimal: bool) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    if not properties:
        return st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=3)
    must = {name: _strategy(_not_null(s) if minimal else s, minimal)
            for name, s in properties.items() if name in required}  # fmt: skip
    if minimal:
        return st.fixed_dictionaries(must)
    may = {name: _strategy(s, minimal) for name, s in properties.items() if name not in required}
    may[ADDED_LATER] = JSON_VALUES
    return st.fixed_dictionaries(must, optional=may)


def _not_null(schema: Schema) -> Schema:
    branches = schema.get("anyOf")
    if branches and {"type": "null"} in branches:
        kept = [b for b in branches if b != {"type": "null"}]
        return kept[0] if len(kept) == 1 else {**schema, "anyOf": kept}
    return schema


def _merged(schema: Schema) -> Schema:
    """``allOf`` as one schema. The reference uses it for union members only: a part that
    pins ``type`` to the member's tag, then the member's body. Where the body is a union
    itself (``single_sender`` over an account signature), each of its branches is merged,
    and the pinned tag wins over the branch's own (real nodes write it over)."""
    parts = [{k: v for k, v in schema.items() if k != "allOf"}, *schema["allOf"]]
    combined: list[Schema] = [{}]
    for part in parts:
        if "allOf" in part:
            part = _merged(part)
        options = part["anyOf"] if "anyOf" in part and "properties" not in part else [part]
        combined = [_merge_two(done, option) for done in combined for option in options]
    return combined[0] if len(combined) == 1 else {"anyOf": combined}


def _merge_two(first: Schema, second: Schema) -> Schema:
    if "allOf" in second:
        second = _merged(second)
    out = {**second, **{k: v for k, v in first.items() if k not in ("properties", "required")}}
    properties = {**second.get("properties", {}), **first.get("properties", {})}
    required = [*first.get("required", ()), *second.get("required", ())]
    if properties:
        out["properties"] = properties
        out["type"] = "object"
    if required:
        out["required"] = sorted(set(required))
    return out
