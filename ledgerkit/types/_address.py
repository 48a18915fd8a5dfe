"""Account addresses: 32 bytes, written ``0x`` + hex, long (64 digits) or short (``0x1``).

Shown as AIP-40 (Address Standard v1) says to display and return them: the special
addresses ``0x0`` ... ``0xf`` short, every other address long, all 64 hex digits, so that
no leading zero is ever dropped from an address a user reads (``str``, ``repr``).
"""

from __future__ import annotations

import functools
from typing import Any, Final

from ledgerkit._errors import InvalidAddressError

__all__ = ["Address"]

_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")


@functools.total_ordering
class Address:
    """A 32-byte account address, equal and hashable by value.

    Parse with :meth:`parse` (``0x``-prefixed or bare hex, long or short form). ``str()``
    and ``repr()`` show it as AIP-40 displays addresses (:attr:`standard`: ``0x1`` for the
    special ``0x0`` ... ``0xf``, all 64 hex digits for every other address); :attr:`long`
    always has the 64 digits, :attr:`short` trims leading zeros (as the API writes Move
    values and type tags).

    Examples
    --------
    >>> a = Address.parse("0x1")
    >>> a.short, a.long[:6], a == Address.parse("0x" + "0" * 63 + "1")
    ('0x1', '0x0000', True)
    >>> str(a), Address.parse("0x0ab" + "0" * 61)
    ('0x1', Address('0x0ab0000000000000000000000000000000000000000000000000000000000000'))
    """

    __slots__ = ("_bytes",)

    LENGTH: Final = 32
    _bytes: bytes

    def __init__(self, value: bytes | bytearray | memoryview) -> None:
        raw = bytes(value)
        if len(raw) != 32:
            raise InvalidAddressError(f"an address is 32 bytes, got {len(raw)}: {raw.hex()!r}")
        object.__setattr__(self, "_bytes", raw)

    @classmethod
    def parse(cls, value: str | bytes | bytearray | Address) -> Address:
        """Parse an address from text (``0x1``, ``1``, ``0x00..01``), 32 bytes, or an Address.

        Raises
        ------
        InvalidAddressError
            Empty, not hex, or more than 64 hex digits (the message names the input).
        """
        if isinstance(value, Address):
            return value
        if isinstance(value, bytes | bytearray):
            return cls(value)
        if not isinstance(value, str):
            raise InvalidAddressError(
                f"an address is text or 32 bytes, got {type(value).__name__}: {value!r}"
            )
        cached = _CACHE.get(value)
        if cached is not None:
            return cached
        digits = value[2:] if value[:2] in ("0x", "0X") else value
        if not digits:
            raise InvalidAddressError(f"empty address: {value!r}")
        if len(digits) > 64:
            raise InvalidAddressError(
                f"an address has at most 64 hex digits, {value!r} has {len(digits)}"
            )
        # isalnum() rules out the white space bytes.fromhex() would skip; fromhex() then
        # rules out the letters that are not hex.
        try:
            if not (digits.isascii() and digits.isalnum()):
                raise ValueError
            raw = bytes.fromhex(digits.rjust(64, "0"))
        except ValueError:
            bad = next(c for c in digits if c not in _HEX_DIGITS)
            raise InvalidAddressError(
                f"not a hex address: {value!r} (bad character {bad!r})"
            ) from None
        address = object.__new__(cls)
        object.__setattr__(address, "_bytes", raw)
        if len(_CACHE) < 65536:
            _CACHE[value] = address
        return address

    @classmethod
    def from_int(cls, value: int) -> Address:
        """The address whose big-endian value is ``value`` (``Address.from_int(1)`` is ``0x1``)."""
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 256:
            raise InvalidAddressError(f"not an address number: {value!r}")
        return cls(value.to_bytes(32, "big"))

    @property
    def long(self) -> str:
        """Canonical form: ``0x`` and all 64 hex digits."""
        return "0x" + self._bytes.hex()

    @property
    def short(self) -> str:
        """Display form: ``0x`` and the hex digits without leading zeros (``0x0`` for zero)."""
        return "0x" + (self._bytes.hex().lstrip("0") or "0")

    @property
    def standard(self) -> str:
        """AIP-40's display form, the one the node writes: short for ``0x0`` ... ``0xf``,
        long (64 hex digits) for all others; also ``str()``."""
        return self.short if self.is_special else self.long

    @property
    def is_special(self) -> bool:
        """True for the reserved framework addresses ``0x0`` to ``0xf``."""
        return self._bytes[:31] == bytes(31) and self._bytes[31] < 16

    def __bytes__(self) -> bytes:
        return self._bytes

    def __str__(self) -> str:
        return self.standard

    def __repr__(self) -> str:
        return f"Address({self.standard!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Address):
            return self._bytes == other._bytes
        return NotImplemented

    def __lt__(self, other: Address) -> bool:
        if not isinstance(other, Address):
            return NotImplemented
        return self._bytes < other._bytes

    def __hash__(self) -> int:
        return hash(self._bytes)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Address is immutable")

    def __delattr__(self, name: str) -> None:
        # Parsed addresses are shared through _CACHE: deleting the slot would break them all.
        raise AttributeError("Address is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Address, (self._bytes,))


_CACHE: dict[str, Address] = {}
