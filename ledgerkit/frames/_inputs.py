"""Turning what a caller hands a converter into typed records.

Converters take the records of :mod:`ledgerkit.models`; raw API JSON (dicts as
``json.loads`` gives them) is accepted too and decoded through the same msgspec
decoders, so both paths produce the same typed values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

_encode = msgspec.json.Encoder().encode


def as_records(items: Iterable[Any], decode: Callable[[bytes], Sequence[Any]]) -> list[Any]:
    """``items`` as a list of records, decoding any raw JSON dicts among them."""
    records = items if isinstance(items, list) else list(items)
    if not any(isinstance(item, dict) for item in records):
        return records
    if all(isinstance(item, dict) for item in records):
        return list(decode(_encode(records)))
    return [decode(_encode([item]))[0] if isinstance(item, dict) else item for item in records]


def json_text(value: Any) -> str:
    """``value`` (plain JSON) as compact JSON text."""
    return _encode(value).decode()
