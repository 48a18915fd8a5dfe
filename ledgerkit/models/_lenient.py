"""The slow path of decoding: keep variants this version does not know.

msgspec decodes a tagged union in one pass but refuses a ``type`` it was not told of.
When the fast pass fails, the body is read again as plain JSON and converted here one
record at a time: a union member of unknown ``type`` becomes the union's
``Unknown...`` record holding the raw object, wherever it sits (a transaction in a
page, a payload or signature in a transaction, a change in a write set), and every
known part is still decoded by msgspec with the same rules as the fast path.

What to do for a record is read from its fields' run-time annotations (the known
variants of each union, see ``_changes.py``), so a new record needs no entry here;
a new *union* needs one in ``_UNIONS``.

A union may also say how to tell a member sent without ``type`` (transactions: the
answers of submission and simulation are written untagged); an object without ``type``
whose kind that cannot tell is refused, as before.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from ledgerkit.models._base import UnknownVariant
from ledgerkit.models._changes import KnownWriteSetChange, UnknownChange
from ledgerkit.models._payloads import (
    DecryptedInnerField,
    KnownTransactionPayload,
    KnownWriteSet,
    MultisigInnerField,
    UnknownPayload,
    UnknownWriteSet,
    WriteSetPayload,
)
from ledgerkit.models._signatures import (
    KnownAccountSignature,
    KnownTransactionSignature,
    SingleSenderSignature,
    UnknownSignature,
)
from ledgerkit.models._transactions import (
    KnownTransaction,
    UnknownTransaction,
    kind_without_type,
)

__all__ = ["Plan", "at_path", "convert", "known_type", "plan", "union_fields"]


@dataclass(frozen=True, slots=True)
class _Union:
    """A union on ``type``: its known members, the record for the others, a body of a
    known member to stand in while the real value is converted on its own, and how to
    tell the ``type`` of a member sent without one (None: such an object is refused)."""

    members: dict[str, type[msgspec.Struct]]
    unknown: type[UnknownVariant]
    stand_in: dict[str, Any] | None
    untagged: Callable[[Mapping[str, Any]], str | None] | None = None


def _members(union: Any) -> tuple[type[msgspec.Struct], ...]:
    return typing.get_args(union) or (union,)


def _union(
    known: Any,
    unknown: type[UnknownVariant],
    stand_in: dict[str, Any] | None,
    untagged: Callable[[Mapping[str, Any]], str | None] | None = None,
) -> _Union:
    by_tag = {cls.__struct_config__.tag: cls for cls in _members(known)}
    return _Union(by_tag, unknown, stand_in, untagged)  # type: ignore[arg-type]


_EMPTY_WRITE_SET = {"type": "direct_write_set", "changes": [], "events": []}

# Transactions are the one union whose members are also sent without ``type``.
_UNTAGGED: dict[Any, Callable[[Mapping[str, Any]], str | None]] = {
    KnownTransaction: kind_without_type,
}

# Every tagged union of the records, by the set of its known members.
_UNIONS: dict[frozenset[type], _Union] = {
    frozenset(_members(known)): _union(known, unknown, stand_in, _UNTAGGED.get(known))
    for known, unknown, stand_in in [
        (KnownTransaction, UnknownTransaction, None),
        (KnownTransactionPayload, UnknownPayload, {"type": "module_bundle_payload"}),
        (
            WriteSetPayload,
            UnknownPayload,
            {"type": "write_set_payload", "write_set": _EMPTY_WRITE_SET},
        ),
        (MultisigInnerField, UnknownPayload, None),
        (DecryptedInnerField, UnknownPayload, None),
        (KnownWriteSet, UnknownWriteSet, _EMPTY_WRITE_SET),
        (KnownTransactionSignature, UnknownSignature, {"type": "no_account_signature"}),
        (KnownAccountSignature, UnknownSignature, {"type": "no_account_signature"}),
        (KnownWriteSetChange, UnknownChange, None),
    ]
}

# Members whose ``type`` is known but whose shape is checked beyond what msgspec sees: a
# body that fails the check is a newer shape under an old tag, and is kept whole.
_KEPT_WHOLE_WHEN_INVALID: frozenset[type] = frozenset({SingleSenderSignature})


# -- reading the annotations ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Field:
    attr: str
    key: str
    optional: bool
    is_list: bool
    target: _Union | type[msgspec.Struct]


@dataclass(frozen=True, slots=True)
class Plan:
    """How to decode one requested type.

    ``fast`` is what msgspec decodes in one pass (known variants only); ``item`` is the
    element type when the request is a list; ``target`` is what the slow path converts
    to (None when nothing inside can be an unknown variant).
    """

    fast: Any
    item: Any
    target: _Union | type[msgspec.Struct] | None


def _split(annotation: Any) -> tuple[bool, bool, Any]:
    """``(optional, is_list, inner)`` of ``X``, ``X | None``, ``list[X]``, ``list[X] | None``."""
    optional = False
    args = typing.get_args(annotation)
    if _is_union(annotation) and type(None) in args:
        optional = True
        rest = tuple(a for a in args if a is not type(None))
        annotation = rest[0] if len(rest) == 1 else functools.reduce(lambda a, b: a | b, rest)
    is_list = typing.get_origin(annotation) is list
    if is_list:
        annotation = typing.get_args(annotation)[0]
    return optional, is_list, annotation


def _is_union(annotation: Any) -> bool:
    return typing.get_origin(annotation) in (typing.Union, types.UnionType)


def _target(annotation: Any) -> _Union | type[msgspec.Struct] | None:
    """The union or record the slow path must handle for ``annotation``, if any."""
    members = _members(annotation)
    union = _UNIONS.get(frozenset(members))
    if union is not None:
        return union
    if (
        len(members) == 1
        and isinstance(annotation, type)
        and issubclass(annotation, msgspec.Struct)
    ):
        return annotation if union_fields(annotation) else None
    return None


@functools.cache
def union_fields(cls: type[msgspec.Struct]) -> tuple[_Field, ...]:
    """The fields of ``cls`` that may hold an unknown variant, however deep."""
    found = []
    for info in msgspec.structs.fields(cls):
        optional, is_list, inner = _split(info.type)
        target = _target(inner)
        if target is None:
            continue
        if not (optional or is_list or (isinstance(target, _Union) and target.stand_in)):
            raise TypeError(f"{cls.__name__}.{info.name}: a required union needs a stand-in")
        found.append(_Field(info.name, info.encode_name, optional, is_list, target))
    return tuple(found)


def known_type(requested: Any) -> Any:
    """``requested`` with every public union (``Transaction``...) cut to its known members."""
    optional, is_list, inner = _split(requested)
    if _is_union(inner):
        known = tuple(
            m
            for m in typing.get_args(inner)
            if not (isinstance(m, type) and issubclass(m, UnknownVariant))
        )
        inner = functools.reduce(lambda a, b: a | b, known)
    if is_list:
        inner = list[inner]  # type: ignore[valid-type]
    return inner | None if optional else inner


@functools.cache
def plan(requested: Any) -> Plan:
    """The :class:`Plan` for a requested type (cached: requested types are few)."""
    fast = known_type(requested)
    optional, is_list, inner = _split(fast)
    target = None if optional else _target(inner)
    return Plan(fast=fast, item=inner if is_list else None, target=target)


# -- converting ----------------------------------------------------------------------------


def at_path(error: msgspec.ValidationError, where: str) -> msgspec.ValidationError:
    """``error`` with its path put under ``where`` (a path relative to ``$``)."""
    text = str(error)
    if "- at `$" in text:
        return msgspec.ValidationError(text.replace("- at `$", f"- at `${where}", 1))
    return msgspec.ValidationError(f"{text} - at `${where}`")


def convert(obj: Any, target: _Union | type[msgspec.Struct]) -> Any:
    """Convert plain JSON ``obj`` to ``target``, keeping unknown variants.

    Raises
    ------
    msgspec.ValidationError
        When a known part does not fit its record.
    """
    if isinstance(target, _Union):
        return _convert_union(obj, target)
    return _convert_struct(obj, target)


def _convert_union(obj: Any, union: _Union) -> Any:
    tag = obj.get("type") if isinstance(obj, dict) else None
    if tag is None and isinstance(obj, dict) and "type" not in obj and union.untagged:
        tag = union.untagged(obj)
        if tag is None:
            raise msgspec.ValidationError(
                f"Expected an object with a string `type` (or fields that tell its kind), "
                f"got {obj!r:.80}"
            )
    if not isinstance(tag, str):
        raise msgspec.ValidationError(f"Expected an object with a string `type`, got {obj!r:.80}")
    cls = union.members.get(tag)
    if cls is None:
        return union.unknown(type=tag, raw=obj)
    try:
        return _convert_struct(obj, cls)
    except msgspec.ValidationError:
        if cls in _KEPT_WHOLE_WHEN_INVALID:
            return union.unknown(type=tag, raw=obj)
        raise


def _convert_struct(obj: Any, cls: type[msgspec.Struct]) -> Any:
    try:
        return msgspec.convert(obj, cls, strict=False)
    except msgspec.ValidationError:
        fields = union_fields(cls)
        if not fields or not isinstance(obj, dict):
            raise
    # Convert each union-bearing field on its own, let stand-ins take their place while
    # msgspec checks the rest, then put the converted values in.
    patched = dict(obj)
    converted: dict[str, Any] = {}
    for field in fields:
        value = obj.get(field.key)
        if value is None:
            continue  # missing or null: msgspec judges that against the annotation
        if field.is_list:
            if not isinstance(value, list):
                continue
            items = []
            for index, item in enumerate(value):
                try:
                    items.append(convert(item, field.target))
                except msgspec.ValidationError as exc:
                    raise at_path(exc, f".{field.key}[{index}]") from None
            converted[field.attr] = items
            patched[field.key] = []
        else:
            try:
                converted[field.attr] = convert(value, field.target)
            except msgspec.ValidationError as exc:
                raise at_path(exc, f".{field.key}") from None
            stand_in = field.target.stand_in if isinstance(field.target, _Union) else None
            patched[field.key] = None if field.optional else stand_in
    record = msgspec.convert(patched, cls, strict=False)
    return msgspec.structs.replace(record, **converted)
