"""Checks the model tests share: round trips, nothing-lost comparisons, record walks and
the reference OpenAPI document."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml
from openapi_schema_validator import OAS30Validator

from ledgerkit.models import decode, to_builtins

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "aptos-openapi-spec.yaml"


def round_trip(record: Any, type_: Any) -> None:
    """``record`` survives ``to_builtins`` -> JSON -> ``decode`` unchanged."""
    again = decode(msgspec.json.encode(to_builtins(record)), type_)
    assert again == record
    assert type(again) is type(record)


def assert_same_json(sent: Any, rebuilt: Any, path: str = "$") -> None:
    """``rebuilt`` (from ``to_builtins``) says everything ``sent`` said.

    U64 decimal strings come back as the equal ``int``; keys the node left out may come
    back as None, False or an empty list (the records' defaults).
    """
    if isinstance(sent, dict):
        assert isinstance(rebuilt, dict), f"{path}: {rebuilt!r} is not an object"
        for key, value in sent.items():
            assert key in rebuilt, f"{path}.{key} was lost"
            assert_same_json(value, rebuilt[key], f"{path}.{key}")
        for key in rebuilt.keys() - sent.keys():
            assert rebuilt[key] in (None, False, []), f"{path}.{key}: {rebuilt[key]!r} appeared"
    elif isinstance(sent, list):
        assert isinstance(rebuilt, list), f"{path}: {rebuilt!r} is not a list"
        assert len(sent) == len(rebuilt), f"{path}: length {len(sent)} != {len(rebuilt)}"
        for index, (a, b) in enumerate(zip(sent, rebuilt, strict=True)):
            assert_same_json(a, b, f"{path}[{index}]")
    elif isinstance(sent, str) and isinstance(rebuilt, int) and not isinstance(rebuilt, bool):
        assert sent.isdigit(), f"{path}: {sent!r} came back as the int {rebuilt!r}"
        assert int(sent) == rebuilt, f"{path}: {sent!r} != {rebuilt!r}"
    else:
        assert type(sent) is type(rebuilt), f"{path}: {sent!r} came back as {rebuilt!r}"
        assert sent == rebuilt, f"{path}: {sent!r} != {rebuilt!r}"


def records(value: Any) -> Iterator[msgspec.Struct]:
    """Every record inside ``value`` (itself included), depth first."""
    if isinstance(value, msgspec.Struct):
        yield value
        for field in msgspec.structs.fields(value):
            yield from records(getattr(value, field.name))
    elif isinstance(value, list):
        for item in value:
            yield from records(item)


def reference_document() -> dict[str, Any]:
    """The reference OpenAPI document, with the two gaps the node tests also widen."""
    if not REFERENCE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{REFERENCE} is missing")
        pytest.skip(f"{REFERENCE} is not here")
    document: dict[str, Any] = yaml.safe_load(REFERENCE.read_text())
    schemas = document["components"]["schemas"]
    # MoveType's pattern admits neither references (`&signer`) nor generics (`T0`) that
    # ABIs carry, and MoveValue demands `type: object` of every value. Widen both.
    move_type = schemas["MoveType"]
    move_type["pattern"] = "^(&(mut )?)?(T[0-9]+|" + move_type["pattern"][2:-2] + ")$"
    schemas["MoveValue"].pop("type", None)
    return document


def schema_errors(document: dict[str, Any], schema: str, body: Any) -> list[str]:
    """What in ``body`` breaks the reference schema ``schema`` (empty when it fits)."""
    root = {"$ref": f"#/components/schemas/{schema}", "components": document["components"]}
    errors = OAS30Validator(root).iter_errors(body)
    return [f"{list(e.absolute_path)[:6]}: {e.message[:160]}" for e in errors][:3]
