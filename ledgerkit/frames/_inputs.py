"""Turning what a caller hands a converter into typed records.

Converters take what the client returns: a result (``client.transactions(...)``, whose
``value`` is used) or a list of results, a list of records or one record of
:mod:`ledgerkit.models`, a page's JSON bytes, or the API's raw JSON (dicts as
``json.loads`` gives them), decoded through the same msgspec decoders, so every path
produces the same typed values. Anything else is refused with an
:class:`~ledgerkit.InputError` naming what the converter expects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeGuard

import msgspec

from ledgerkit._errors import InputError
from ledgerkit.models import decode
from ledgerkit.types import LedgerMeta

_encode = msgspec.json.Encoder().encode

_BYTES = bytes | bytearray | memoryview


def is_result(value: object) -> TypeGuard[tuple[Any, LedgerMeta]]:
    """Whether ``value`` is what a client method answers: ``(value, LedgerMeta)``."""
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], LedgerMeta)


def describe(value: object) -> str:
    """A short name for what was given, for refusals (never the whole value)."""
    kind = type(value).__name__
    if isinstance(value, str | bytes | int | float | bool) or value is None:
        text = repr(value)
        return f"{kind} {text[:40]}{'...' if len(text) > 40 else ''}"
    return kind


def records_of(
    value: Any,
    kinds: tuple[type, ...],
    decode_json: Callable[[bytes], Sequence[Any]] | None,
    *,
    converter: str,
    expected: str,
) -> list[Any]:
    """``value`` as a list of records of ``kinds``, raw JSON among it decoded.

    Parameters
    ----------
    value
        A client result, one record, an iterable of records, dicts or client results
        (``[client.block_by_height(h) for h in ...]``), one dict, or JSON bytes (a list
        of objects or one object).
    kinds : tuple of type
        The record classes the converter reads.
    decode_json : callable, optional
        Decodes JSON bytes of a list of objects into records; None when the converter
        takes no raw JSON.
    converter, expected : str
        For the refusal: the converter's name and what it takes.

    Raises
    ------
    InputError
        ``value``, or an item of it, is none of these.
    """
    # A list of records and nothing else is what converters are mostly given (a page's
    # records, a partition's); when each item's exact type (read in C, in one pass) is
    # one of ``kinds``, there is nothing to unwrap, check or decode.
    if type(value) is list and set(map(type, value)).issubset(kinds):
        return value
    if is_result(value):
        value = value[0]
    if isinstance(value, _BYTES) and decode_json is not None:
        value = decode(bytes(value), list[dict[str, Any]] | dict[str, Any])
    if isinstance(value, kinds) or (decode_json is not None and isinstance(value, dict)):
        items = [value]
    elif isinstance(value, str | dict | _BYTES) or not isinstance(value, Iterable):
        raise InputError(f"{converter} expects {expected}, got {describe(value)}")
    else:
        items = value if isinstance(value, list) else list(value)
    if any(is_result(item) for item in items):
        items = _unwrapped(items)
    for position, item in enumerate(items):
        if not (isinstance(item, kinds) or (decode_json is not None and isinstance(item, dict))):
            raise InputError(
                f"{converter} expects {expected}, got {describe(item)} at position {position}"
            )
    if decode_json is None:
        return items
    return as_records(items, decode_json)


def _unwrapped(items: list[Any]) -> list[Any]:
    """``items`` with each client result replaced by its value (a list's items in order)."""
    out: list[Any] = []
    for item in items:
        if is_result(item):
            inner = item[0]
            out.extend(inner if isinstance(inner, list) else [inner])
        else:
            out.append(item)
    return out


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
