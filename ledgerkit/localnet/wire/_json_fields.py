"""What the readers of request JSON share: the refusal, a required field, hex bytes, and a
call's type arguments and arguments. Every refusal is ``NodeError(INVALID_INPUT)`` naming
the field by its path (``where``)."""

from __future__ import annotations

from typing import Any

from ledgerkit._errors import ErrorCode, InputError
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.types import HexBytes, MoveType

__all__ = ["call_arguments", "field", "hex_field", "invalid"]


def invalid(message: str) -> NodeError:
    return NodeError(ErrorCode.INVALID_INPUT, message)


def field(obj: Any, name: str, where: str) -> Any:
    """``obj[name]``, refused when ``obj`` is not an object or lacks it."""
    if not isinstance(obj, dict) or name not in obj:
        raise invalid(f"{where} lacks the field {name!r}")
    return obj[name]


def hex_field(obj: Any, name: str, where: str) -> bytes:
    """The bytes of the ``0x`` hex string ``obj[name]``."""
    value = field(obj, name, where)
    try:
        return bytes(HexBytes.parse(value))
    except (InputError, TypeError) as exc:
        raise invalid(f"{where}.{name}: {exc}") from None


def call_arguments(obj: Any, where: str) -> tuple[tuple[MoveType, ...], list[Any]]:
    """A call's ``type_arguments`` parsed and its ``arguments`` as sent (both arrays)."""
    type_texts = field(obj, "type_arguments", where)
    arguments = field(obj, "arguments", where)
    if not isinstance(type_texts, list) or not isinstance(arguments, list):
        raise invalid(f"{where}: type_arguments and arguments must be arrays")
    try:
        type_args = tuple(MoveType.parse(t) for t in type_texts)
    except (InputError, TypeError) as exc:
        raise invalid(f"{where}.type_arguments: {exc}") from None
    return type_args, arguments
