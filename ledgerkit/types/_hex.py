"""HexBytes: bytes that print as ``0x`` + two hex digits a byte, zeros never trimmed."""

from __future__ import annotations

from typing import Final

from ledgerkit._errors import InvalidHexError

__all__ = ["HexBytes"]

_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")


class HexBytes(bytes):
    """Bytes whose ``str()`` is the API's hex form.

    Examples
    --------
    >>> str(HexBytes(b"\\x00\\x01"))
    '0x0001'
    >>> HexBytes.parse("0x00ff") == b"\\x00\\xff"
    True
    """

    __slots__ = ()

    @classmethod
    def parse(cls, value: str | bytes | bytearray | memoryview) -> HexBytes:
        """Parse ``0x``-prefixed (or bare) hex with two digits a byte; bytes pass through.

        Raises
        ------
        InvalidHexError
            Odd number of digits, or a character that is not hex.
        """
        if isinstance(value, bytes | bytearray | memoryview):
            return cls(value)
        if not isinstance(value, str):
            raise InvalidHexError(f"hex bytes must be text, got {type(value).__name__}: {value!r}")
        digits = value[2:] if value[:2] in ("0x", "0X") else value
        if len(digits) % 2:
            raise InvalidHexError(
                f"hex bytes need two digits a byte, {_clip(value)} has an odd count"
            )
        if not _HEX_DIGITS.issuperset(digits):
            bad = next(c for c in digits if c not in _HEX_DIGITS)
            raise InvalidHexError(f"not hex: {_clip(value)} (bad character {bad!r})")
        return cls(bytes.fromhex(digits))

    def __str__(self) -> str:
        return "0x" + self.hex()

    def __repr__(self) -> str:
        return f"HexBytes({_clip(str(self))})"


def _clip(text: str, limit: int = 80) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"
