"""BCS (Binary Canonical Serialization): the Serializer and Deserializer.

Written by hand because the wire format is small and fixed, signing throughput
depends on it, and decoding here is strict in ways the available packages are not:
non-canonical ULEB128, out-of-order map keys, invalid UTF-8, bad bools and trailing
bytes are all refused, each with the byte offset. The Deserializer can also record
what every field spanned, which is how ledgerkit explains raw bytes field by field.

Method names follow the BCS spec: ``u8`` ... ``u256``, ``uleb128``, ``sequence``,
``option``, ``map``; ``boolean``, ``string`` and ``var_bytes`` avoid shadowing builtins.
"""

from __future__ import annotations

import abc
import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol, Self, TypeVar

from ledgerkit._errors import BCSDecodeError, BCSEncodeError
from ledgerkit.types import Address

__all__ = [
    "MAX_SEQUENCE_LENGTH",
    "BCSStruct",
    "Deserializer",
    "Serializable",
    "Serializer",
    "Span",
    "uleb128_prefix",
]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

#: Longest sequence BCS allows (2^31 - 1), as the reference implementation does.
MAX_SEQUENCE_LENGTH: Final = (1 << 31) - 1
_U32_MAX: Final = (1 << 32) - 1

_pack_u16 = struct.Struct("<H").pack
_pack_u32 = struct.Struct("<I").pack
_pack_u64 = struct.Struct("<Q").pack
_unpack_u16 = struct.Struct("<H").unpack_from
_unpack_u32 = struct.Struct("<I").unpack_from
_unpack_u64 = struct.Struct("<Q").unpack_from


class Serializable(Protocol):
    """Anything that writes itself to a :class:`Serializer`."""

    def serialize(self, s: Serializer) -> None: ...


def uleb128_prefix(data: bytes, max_bytes: int) -> tuple[int, int] | None:
    """The ULEB128 number that ``data`` opens with, and how many bytes it takes; ``None``
    when none of the first ``max_bytes`` bytes ends it. Lenient, unlike
    :meth:`Deserializer.uleb128`: no check of width or canonical form, for a caller that
    checks what it read against what it holds (a length prefix that must span the rest).

    Examples
    --------
    >>> uleb128_prefix(b"\\x80\\x01abc", 5)
    (128, 2)
    """
    value = shift = 0
    for i, byte in enumerate(data[:max_bytes]):
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, i + 1
        shift += 7
    return None


def _range_error(kind: str, value: object) -> BCSEncodeError:
    return BCSEncodeError(f"{kind} out of range: {value!r}")


class Serializer:
    """Append BCS encodings to a buffer; :meth:`output` returns the bytes.

    Examples
    --------
    >>> s = Serializer()
    >>> s.u64(1)
    >>> s.string("hi")
    >>> s.sequence([1, 2], s.u8)
    >>> s.output().hex()
    '0100000000000000026869020102'
    """

    __slots__ = ("_buf",)

    def __init__(self) -> None:
        self._buf = bytearray()

    def output(self) -> bytes:
        """Everything written so far."""
        return bytes(self._buf)

    def __len__(self) -> int:
        return len(self._buf)

    # -- scalars ------------------------------------------------------------------------

    def boolean(self, value: bool) -> None:
        if value is True:
            self._buf.append(1)
        elif value is False:
            self._buf.append(0)
        else:
            raise BCSEncodeError(f"bool expected, got {type(value).__name__}: {value!r}")

    def u8(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise BCSEncodeError(f"u8 expected an int, got {value!r}")
        if not 0 <= value <= 0xFF:
            raise _range_error("u8", value)
        self._buf.append(value)

    def u16(self, value: int) -> None:
        self._buf += _checked(_pack_u16, "u16", value)

    def u32(self, value: int) -> None:
        self._buf += _checked(_pack_u32, "u32", value)

    def u64(self, value: int) -> None:
        if value.__class__ is int and 0 <= value <= 0xFFFF_FFFF_FFFF_FFFF:
            self._buf += _pack_u64(value)  # fast path: a plain in-range int
        else:
            self._buf += _checked(_pack_u64, "u64", value)

    def u128(self, value: int) -> None:
        self._buf += _wide(value, 16, "u128")

    def u256(self, value: int) -> None:
        self._buf += _wide(value, 32, "u256")

    def uleb128(self, value: int) -> None:
        """Unsigned LEB128, as BCS uses for lengths and enum variants (at most u32)."""
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _U32_MAX:
            raise _range_error("uleb128 (u32)", value)
        buf = self._buf
        while value >= 0x80:
            buf.append((value & 0x7F) | 0x80)
            value >>= 7
        buf.append(value)

    # -- byte strings ---------------------------------------------------------------------

    def var_bytes(self, value: bytes | bytearray | memoryview) -> None:
        """Length-prefixed bytes (``vector<u8>``)."""
        if not isinstance(value, bytes | bytearray | memoryview):
            raise BCSEncodeError(f"bytes expected, got {type(value).__name__}")
        n = len(value)
        if n < 0x80:  # the common case: a one-byte length
            self._buf.append(n)
        else:
            self.uleb128(n)
        self._buf += value

    def fixed_bytes(self, value: bytes | bytearray | memoryview, length: int | None = None) -> None:
        """Bytes with no length prefix; ``length`` checks the size when given."""
        if not isinstance(value, bytes | bytearray | memoryview):
            raise BCSEncodeError(f"bytes expected, got {type(value).__name__}")
        if length is not None and len(value) != length:
            raise BCSEncodeError(f"expected {length} bytes, got {len(value)}")
        self._buf += value

    def string(self, value: str) -> None:
        """UTF-8, length-prefixed."""
        if not isinstance(value, str):
            raise BCSEncodeError(f"str expected, got {type(value).__name__}: {value!r}")
        try:
            encoded = value.encode()
        except UnicodeEncodeError as exc:
            raise BCSEncodeError(f"string is not valid UTF-8: {exc}") from None
        self.uleb128(len(encoded))
        self._buf += encoded

    def address(self, value: Address) -> None:
        """An account address: 32 bytes, no prefix."""
        if not isinstance(value, Address):
            raise BCSEncodeError(f"Address expected, got {type(value).__name__}: {value!r}")
        self._buf += bytes(value)

    # -- composites -----------------------------------------------------------------------

    def struct(self, value: Serializable) -> None:
        value.serialize(self)

    def sequence(self, values: Iterable[T], encode: Callable[[T], None]) -> None:
        """A length-prefixed sequence; ``encode`` writes one element (e.g. ``s.u64``)."""
        items = values if isinstance(values, list | tuple) else list(values)
        self.uleb128(len(items))
        for item in items:
            encode(item)

    def option(self, value: T | None, encode: Callable[[T], None]) -> None:
        """``None`` as 0, anything else as 1 followed by the value."""
        if value is None:
            self._buf.append(0)
        else:
            self._buf.append(1)
            encode(value)

    def map(
        self,
        values: Mapping[K, V],
        encode_key: Callable[[Serializer, K], None],
        encode_value: Callable[[Serializer, V], None],
    ) -> None:
        """A map, entries sorted by the bytes of their encoded keys (canonical order)."""
        entries = []
        for key, value in values.items():
            ks, vs = Serializer(), Serializer()
            encode_key(ks, key)
            encode_value(vs, value)
            entries.append((ks.output(), vs.output()))
        entries.sort(key=lambda kv: kv[0])
        for i in range(1, len(entries)):
            if entries[i][0] == entries[i - 1][0]:
                raise BCSEncodeError("map keys encode to the same bytes")
        self.uleb128(len(entries))
        for k, v in entries:
            self._buf += k
            self._buf += v


def _checked(pack: Callable[[int], bytes], kind: str, value: int) -> bytes:
    if isinstance(value, bool):
        raise BCSEncodeError(f"{kind} expected an int, got {value!r}")
    try:
        return pack(value)
    except struct.error:
        raise _range_error(kind, value) from None


def _wide(value: int, size: int, kind: str) -> bytes:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BCSEncodeError(f"{kind} expected an int, got {value!r}")
    try:
        return value.to_bytes(size, "little")
    except OverflowError:
        raise _range_error(kind, value) from None


@dataclass(frozen=True, slots=True)
class Span:
    """What one field of a decoded value spanned: ``data[start:end]``."""

    path: tuple[str, ...]
    start: int
    end: int
    value: Any

    @property
    def depth(self) -> int:
        return len(self.path)

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else ""


class Deserializer:
    """Read BCS values from bytes, strictly.

    Every method raises :class:`BCSDecodeError` (with the byte offset) on truncated
    input, a non-canonical encoding or an out-of-range value. :meth:`finish` refuses
    trailing bytes. With ``trace=True``, :meth:`field` records a :class:`Span` for every
    named field, for explaining bytes.
    """

    __slots__ = ("_data", "_path", "_pos", "spans")

    def __init__(self, data: bytes | bytearray | memoryview, *, trace: bool = False) -> None:
        self._data = bytes(data)
        self._pos = 0
        self.spans: list[Span] | None = [] if trace else None
        self._path: list[str] = []

    @property
    def position(self) -> int:
        return self._pos

    @property
    def remaining(self) -> int:
        return len(self._data) - self._pos

    def finish(self) -> None:
        """Raise unless every byte has been read."""
        if self._pos != len(self._data):
            raise BCSDecodeError(
                f"{len(self._data) - self._pos} trailing byte(s) after the value", offset=self._pos
            )

    def field(self, name: str, read: Callable[..., T], *args: Any) -> T:
        """Read one named field with ``read(*args)``; recorded when tracing."""
        if self.spans is None:
            return read(*args)
        start = self._pos
        self._path.append(name)
        index = len(self.spans)
        self.spans.append(Span((), 0, 0, None))  # reserved so parents precede children
        try:
            value = read(*args)
        finally:
            path = tuple(self._path)
            self._path.pop()
        self.spans[index] = Span(path, start, self._pos, value)
        return value

    def _take(self, n: int) -> bytes:
        end = self._pos + n
        if end > len(self._data):
            raise BCSDecodeError(
                f"truncated: needed {n} byte(s), {len(self._data) - self._pos} left",
                offset=self._pos,
            )
        chunk = self._data[self._pos : end]
        self._pos = end
        return chunk

    # -- scalars ------------------------------------------------------------------------

    def boolean(self) -> bool:
        byte = self._take(1)[0]
        if byte > 1:
            raise BCSDecodeError(f"bool must be 0 or 1, got {byte}", offset=self._pos - 1)
        return byte == 1

    def u8(self) -> int:
        return self._take(1)[0]

    def u16(self) -> int:
        value: int = _unpack_u16(self._take(2))[0]
        return value

    def u32(self) -> int:
        value: int = _unpack_u32(self._take(4))[0]
        return value

    def u64(self) -> int:
        value: int = _unpack_u64(self._take(8))[0]
        return value

    def u128(self) -> int:
        return int.from_bytes(self._take(16), "little")

    def u256(self) -> int:
        return int.from_bytes(self._take(32), "little")

    def uleb128(self) -> int:
        start = self._pos
        value = 0
        shift = 0
        while True:
            byte = self._take(1)[0]
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                if byte == 0 and shift:
                    raise BCSDecodeError("non-canonical uleb128 (trailing zero)", offset=start)
                break
            shift += 7
            if shift > 28:
                raise BCSDecodeError("uleb128 longer than 5 bytes", offset=start)
        if value > _U32_MAX:
            raise BCSDecodeError(f"uleb128 above u32: {value}", offset=start)
        return value

    def length(self) -> int:
        """A sequence length: a uleb128 at most 2^31 - 1 that fits the bytes left."""
        start = self._pos
        n = self.uleb128()
        if n > MAX_SEQUENCE_LENGTH:
            raise BCSDecodeError(f"sequence length {n} above 2^31-1", offset=start)
        return n

    # -- byte strings ---------------------------------------------------------------------

    def var_bytes(self) -> bytes:
        return self._take(self.length())

    def fixed_bytes(self, length: int) -> bytes:
        return self._take(length)

    def string(self) -> str:
        start = self._pos
        raw = self.var_bytes()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BCSDecodeError(f"string is not valid UTF-8: {exc.reason}", offset=start) from None

    def address(self) -> Address:
        return Address(self._take(32))

    # -- composites -----------------------------------------------------------------------

    def sequence(self, decode: Callable[[], T], item: str | None = None) -> list[T]:
        """A length-prefixed sequence; when tracing, ``item`` names each element's span."""
        n = self.length()
        if n > self.remaining:  # every element of a BCS value takes at least one byte
            raise BCSDecodeError(
                f"sequence of {n} elements but only {self.remaining} byte(s) left",
                offset=self._pos,
            )
        if item is None or self.spans is None:
            return [decode() for _ in range(n)]
        return [self.field(f"{item}[{i}]", decode) for i in range(n)]

    def option(self, decode: Callable[[], T]) -> T | None:
        start = self._pos
        tag = self._take(1)[0]
        if tag == 0:
            return None
        if tag == 1:
            return decode()
        raise BCSDecodeError(f"option tag must be 0 or 1, got {tag}", offset=start)

    def map(self, decode_key: Callable[[], K], decode_value: Callable[[], V]) -> dict[K, V]:
        n = self.length()
        result: dict[K, V] = {}
        previous: bytes | None = None
        for _ in range(n):
            start = self._pos
            key = decode_key()
            key_bytes = self._data[start : self._pos]
            if previous is not None and key_bytes <= previous:
                raise BCSDecodeError("map keys not in strictly increasing order", offset=start)
            previous = key_bytes
            result[key] = decode_value()
        return result

    def variant(self, names: tuple[str, ...], what: str) -> int:
        """An enum variant index, checked against the known variants."""
        start = self._pos
        index = self.uleb128()
        if index >= len(names):
            raise BCSDecodeError(f"unknown {what} variant {index}", offset=start)
        if self.spans is not None:
            path = (*self._path, f"({what} variant)")
            self.spans.append(Span(path, start, self._pos, names[index]))
        return index

    def bytes_since(self, start: int) -> bytes:
        """The bytes read from offset ``start`` up to here."""
        return self._data[start : self._pos]


class BCSStruct(abc.ABC):
    """Base of ledgerkit's BCS structs: ``to_bcs()`` and a strict ``from_bcs()``."""

    __slots__ = ()

    @abc.abstractmethod
    def serialize(self, s: Serializer) -> None:
        """Write this value."""

    @classmethod
    @abc.abstractmethod
    def deserialize(cls, d: Deserializer) -> Self:
        """Read one value."""

    def to_bcs(self) -> bytes:
        """The BCS bytes of this value."""
        s = Serializer()
        self.serialize(s)
        return s.output()

    @classmethod
    def from_bcs(cls, data: bytes | bytearray | memoryview) -> Self:
        """Decode exactly one value from ``data``; trailing bytes are an error."""
        d = Deserializer(data)
        value = cls.deserialize(d)
        d.finish()
        return value
