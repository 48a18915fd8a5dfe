"""Unsigned integers of fixed width, parsed from the decimal strings the API sends.

A U64 (or wider) never passes through ``float``: text is checked digit by digit and
turned into a Python ``int``, which is exact at any width.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any, ClassVar, Final

from ledgerkit._errors import InvalidIntegerError

__all__ = [
    "U8",
    "U16",
    "U32",
    "U64",
    "U64_MAX",
    "U128",
    "U128_MAX",
    "U256",
    "U256_MAX",
    "parse_u64",
    "parse_uint",
]

U64_MAX: Final = (1 << 64) - 1
U128_MAX: Final = (1 << 128) - 1
U256_MAX: Final = (1 << 256) - 1


def parse_uint(value: object, bits: int, *, what: str | None = None) -> int:
    """Return ``value`` as an ``int`` checked to fit ``bits`` unsigned bits.

    Accepts ints (and numpy integers) and decimal strings of ASCII digits. Refuses
    floats, bools, signs, blanks, underscores and anything out of range, with an
    :class:`InvalidIntegerError` that names the input.
    """
    name = what or f"u{bits}"
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()):
            raise InvalidIntegerError(f"{name} must be a decimal string of digits, got {value!r}")
        digits = value.lstrip("0") or "0"
        if len(digits) > 78:  # more digits than u256 can hold; also avoids huge int()
            raise InvalidIntegerError(
                f"{name} out of range: {value[:40]!r}... ({len(value)} digits)"
            )
        number = int(digits)
    elif isinstance(value, bool):
        raise InvalidIntegerError(f"{name} must be an integer, got the bool {value!r}")
    elif isinstance(value, int):
        number = value
    elif isinstance(value, numbers.Integral):
        number = operator.index(value)
    elif isinstance(value, float):
        raise InvalidIntegerError(
            f"{name} must be an int or a decimal string, got the float {value!r} "
            "(floats cannot hold every u64 exactly)"
        )
    else:
        raise InvalidIntegerError(
            f"{name} must be an int or a decimal string, got {type(value).__name__}: {value!r}"
        )
    if number < 0 or number >> bits:
        raise InvalidIntegerError(f"{name} out of range [0, 2^{bits}-1]: {value!r}")
    return number


def parse_u64(value: object) -> int:
    """Shorthand for ``parse_uint(value, 64)``, the commonest case."""
    return parse_uint(value, 64)


class _UInt(int):
    """An ``int`` known to fit its width; arithmetic on it gives plain ints."""

    BITS: ClassVar[int] = 0
    MAX: ClassVar[int] = 0

    def __new__(cls, value: Any = 0) -> Any:
        return super().__new__(cls, parse_uint(value, cls.BITS, what=cls.__name__))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.MAX = (1 << cls.BITS) - 1

    def __repr__(self) -> str:
        return f"{type(self).__name__}({int.__repr__(self)})"

    def __str__(self) -> str:
        return int.__repr__(self)

    def to_json(self) -> int | str:
        """The API's JSON form: a number up to u32, a decimal string from u64 on."""
        return int(self) if self.BITS <= 32 else str(int(self))


class U8(_UInt):
    """Unsigned 8-bit integer."""

    BITS = 8


class U16(_UInt):
    """Unsigned 16-bit integer."""

    BITS = 16


class U32(_UInt):
    """Unsigned 32-bit integer."""

    BITS = 32


class U64(_UInt):
    """Unsigned 64-bit integer; JSON carries it as a decimal string."""

    BITS = 64


class U128(_UInt):
    """Unsigned 128-bit integer; JSON carries it as a decimal string."""

    BITS = 128


class U256(_UInt):
    """Unsigned 256-bit integer; JSON carries it as a decimal string."""

    BITS = 256
