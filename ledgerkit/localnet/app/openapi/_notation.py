"""How the node's OpenAPI schemas are written: building blocks and the field notation.

Object fields are written in a small notation, ``"name:Type name:[Type]"`` (see
``_type``), to keep the tables readable; tagged unions are a ``oneOf`` of
``<Union>_<Tag>`` wrappers that pin the tag to one value. The tables themselves live in
the ``_*_schemas`` modules named for what they describe.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

Schema = dict[str, Any]


def _ref(name: str, kind: str = "schemas") -> Schema:
    return {"$ref": f"#/components/{kind}/{name}"}


def _uint(bits: int) -> Schema:
    return {"type": "integer", "format": f"uint{bits}", "minimum": 0, "maximum": 2**bits - 1}


def _enum(*values: str) -> Schema:
    return {"type": "string", "enum": list(values)}


_PRIMITIVES: Final[dict[str, Schema]] = {
    "bool": {"type": "boolean"},
    "str": {"type": "string"},
    "obj": {"type": "object"},
    "any": {},
    "bytes": {"type": "string", "format": "binary"},
    **{f"u{bits}": _uint(bits) for bits in (8, 16, 32, 64)},
}


def _type(token: str) -> Schema:
    """``[T]`` an array of T; ``a|b`` a string enum; ``bool str obj any bytes`` and ``u8`` to
    ``u64`` (JSON integers); anything else names a component schema (``U64`` is the string)."""
    if token.startswith("[") and token.endswith("]"):
        return {"type": "array", "items": _type(token[1:-1])}
    if "|" in token:
        return _enum(*token.split("|"))
    if token in _PRIMITIVES:
        return dict(_PRIMITIVES[token])
    return _ref(token)


def _nullable(schema: Schema) -> Schema:
    # A $ref ignores its siblings in OpenAPI 3.0, hence the allOf.
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def _fields(spec: str) -> dict[str, Schema]:
    return {name: _type(token) for name, token in (item.split(":") for item in spec.split())}


def _obj(description: str, required: str, optional: str = "", kept: str = "") -> Schema:
    """An open object: ``optional`` fields may be absent or null, ``kept`` ones only absent."""
    properties = _fields(required)
    properties |= {name: _nullable(schema) for name, schema in _fields(optional).items()}
    properties |= _fields(kept)
    out: Schema = {"type": "object", "description": description, "properties": properties}
    if required:
        out["required"] = list(_fields(required))
    return out


def _wrapper(union: str, tag: str) -> str:
    return union + "_" + "".join(part.capitalize() for part in tag.split("_"))


def _union(union: str, description: str, variants: dict[str, Schema]) -> dict[str, Schema]:
    """``union`` as a oneOf of wrappers, each ``type`` pinned to one tag plus a variant body."""
    out: dict[str, Schema] = {}
    for tag, body in variants.items():
        pin = {"type": "object", "required": ["type"], "properties": {"type": _enum(tag)}}
        out[_wrapper(union, tag)] = {"allOf": [pin, body]}
    out[union] = _one_of(description, union, tuple(variants))
    return out


def _one_of(description: str, union: str, tags: tuple[str, ...]) -> Schema:
    mapping = {tag: f"#/components/schemas/{_wrapper(union, tag)}" for tag in tags}
    return {
        "type": "object",
        "description": description,
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }


def _records(table: Mapping[str, tuple[str, ...]]) -> dict[str, Schema]:
    """The open objects of ``table``: name -> ``_obj`` arguments."""
    return {name: _obj(*spec) for name, spec in table.items()}


def _unions(
    table: Mapping[str, tuple[str, str]], bodies: Mapping[str, Schema] | None = None
) -> dict[str, Schema]:
    """The tagged unions of ``table``: union -> (description, ``"tag:Variant ..."``).

    A variant is a reference to the schema it names, unless ``bodies`` gives its schema.
    """
    inline = bodies or {}
    out: dict[str, Schema] = {}
    for union, (description, spec) in table.items():
        variants = {
            tag: inline[body] if body in inline else _ref(body)
            for tag, body in (item.split(":") for item in spec.split())
        }
        out |= _union(union, description, variants)
    return out
