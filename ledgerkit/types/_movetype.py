"""Move types as trees: a parser for the API's MoveType grammar, and canonical printing.

Grammar (whitespace between tokens is ignored)::

    type      := primitive | "vector" "<" type ">" | struct | generic | reference
    primitive := bool | u8 | u16 | u32 | u64 | u128 | u256 | address | signer
               | i8 | i16 | i32 | i64 | i128 | i256
    struct    := ADDRESS "::" IDENT "::" IDENT [ "<" type ("," type)* ">" ]
    generic   := "T" DIGITS                      (type parameters in module ABIs)
    reference := "&" ["mut"] type               (parameters in module ABIs)

The parser is hand-written: the grammar is tiny, the error must point at the faulty
character, and no well-kept library parses Move types. Parsed trees are immutable and
cached, so parsing the same text twice costs a dictionary look-up.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, TypeVar
from urllib.parse import quote

from ledgerkit._errors import InvalidAddressError, MoveTypeSyntaxError
from ledgerkit.types._address import Address

__all__ = [
    "EntryFunctionId",
    "GenericTypeParam",
    "ModuleId",
    "MoveStructTag",
    "MoveType",
    "PrimitiveType",
    "ReferenceType",
    "StructTag",
    "VectorType",
    "is_identifier",
]

PRIMITIVE_NAMES: Final = frozenset(
    {"bool", "u8", "u16", "u32", "u64", "u128", "u256", "address", "signer"}
    | {"i8", "i16", "i32", "i64", "i128", "i256"}
)
_P = TypeVar("_P")

_IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TOKEN: Final = re.compile(
    r"\s*(?:(?P<addr>0[xX][0-9a-fA-F]+)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<sep>::)|(?P<punct>[<>,&])|(?P<other>\S))"
)


def is_identifier(text: str) -> bool:
    """True when ``text`` is a valid Move identifier (a module, struct or function name)."""
    return _IDENT.match(text) is not None


class _PathSegment:
    """A name whose canonical text (``str()``) can stand as one URL path segment."""

    __slots__ = ()

    @property
    def url_segment(self) -> str:
        """The canonical text, percent-encoded for use as one URL path segment."""
        return quote(str(self), safe="")


class MoveType(_PathSegment):
    """Base of the Move type tree. Parse any type with :meth:`MoveType.parse`.

    Nodes are frozen dataclasses compared structurally, so two spellings that differ
    only in whitespace or address form are equal; ``str()`` prints the canonical form
    (short addresses, ``", "`` between type arguments).

    Examples
    --------
    >>> t = MoveType.parse("0x1::coin::CoinStore< 0x01::aptos_coin::AptosCoin >")
    >>> str(t)
    '0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>'
    >>> t.url_segment
    '0x1%3A%3Acoin%3A%3ACoinStore%3C0x1%3A%3Aaptos_coin%3A%3AAptosCoin%3E'
    """

    __slots__ = ()

    @staticmethod
    def parse(text: str | MoveType) -> MoveType:
        """Parse a Move type.

        Raises
        ------
        MoveTypeSyntaxError
            With the position of the first character that does not fit.
        """
        return _parsed(text, MoveType, _parse_cached, "Move type")

    @property
    def has_generics(self) -> bool:
        """True when a generic parameter ``T<n>`` appears anywhere inside."""
        return False

    def substitute(self, args: tuple[MoveType, ...]) -> MoveType:
        """Replace each ``T<n>`` with ``args[n]`` (for instantiating generic layouts)."""
        return self


@dataclass(frozen=True, slots=True)
class PrimitiveType(MoveType):
    """``bool``, ``u8`` ... ``u256``, ``address``, ``signer``; the signed ``i8`` ... ``i256``."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class VectorType(MoveType):
    """``vector<T>``."""

    element: MoveType

    def __str__(self) -> str:
        return f"vector<{self.element}>"

    @property
    def has_generics(self) -> bool:
        return self.element.has_generics

    def substitute(self, args: tuple[MoveType, ...]) -> MoveType:
        return VectorType(self.element.substitute(args)) if self.has_generics else self


@dataclass(frozen=True, slots=True)
class StructTag(MoveType):
    """A struct type ``address::module::Name<T, ...>``; also known as MoveStructTag.

    ``StructTag.parse`` accepts only struct types.
    """

    address: Address
    module: str
    name: str
    type_args: tuple[MoveType, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.address, Address):
            object.__setattr__(self, "address", _address_of(self.address))
        if not isinstance(self.type_args, tuple):
            object.__setattr__(self, "type_args", tuple(map(MoveType.parse, self.type_args)))

    @staticmethod
    def parse(text: str | MoveType) -> StructTag:
        """Parse a struct tag; any other kind of type is a :class:`MoveTypeSyntaxError`."""
        parsed = MoveType.parse(text)
        if not isinstance(parsed, StructTag):
            raise MoveTypeSyntaxError(
                f"expected a struct tag (address::module::Name), got the {type(parsed).__name__}",
                text=str(text),
                position=0,
            )
        return parsed

    def __str__(self) -> str:
        base = f"{self.address.short}::{self.module}::{self.name}"
        if self.type_args:
            return base + "<" + ", ".join(map(str, self.type_args)) + ">"
        return base

    @property
    def module_id(self) -> ModuleId:
        """The module that defines the struct."""
        return ModuleId(self.address, self.module)

    @property
    def base(self) -> StructTag:
        """The same struct without its type arguments (``0x1::coin::CoinStore``)."""
        return StructTag(self.address, self.module, self.name) if self.type_args else self

    def is_struct(self, address: Address | str, module: str, name: str) -> bool:
        """True when this is ``address::module::name`` with any type arguments."""
        return (
            self.name == name and self.module == module and self.address == Address.parse(address)
        )

    @property
    def has_generics(self) -> bool:
        return any(arg.has_generics for arg in self.type_args)

    def substitute(self, args: tuple[MoveType, ...]) -> MoveType:
        if not self.has_generics:
            return self
        return StructTag(
            self.address, self.module, self.name, tuple(a.substitute(args) for a in self.type_args)
        )


MoveStructTag = StructTag


@dataclass(frozen=True, slots=True)
class GenericTypeParam(MoveType):
    """A type parameter ``T<index>`` as module ABIs write them."""

    index: int

    def __str__(self) -> str:
        return f"T{self.index}"

    @property
    def has_generics(self) -> bool:
        return True

    def substitute(self, args: tuple[MoveType, ...]) -> MoveType:
        if self.index >= len(args):
            raise MoveTypeSyntaxError(
                f"T{self.index} has no type argument ({len(args)} given)",
                text=str(self),
                position=0,
            )
        return args[self.index]


@dataclass(frozen=True, slots=True)
class ReferenceType(MoveType):
    """``&T`` or ``&mut T`` as module ABIs write parameters."""

    referent: MoveType
    mutable: bool = False

    def __str__(self) -> str:
        return f"&mut {self.referent}" if self.mutable else f"&{self.referent}"

    @property
    def has_generics(self) -> bool:
        return self.referent.has_generics

    def substitute(self, args: tuple[MoveType, ...]) -> MoveType:
        return ReferenceType(self.referent.substitute(args), self.mutable)


@dataclass(frozen=True, slots=True)
class ModuleId(_PathSegment):
    """``address::module_name``; the module name is case-sensitive."""

    address: Address
    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.address, Address):
            object.__setattr__(self, "address", _address_of(self.address))

    @staticmethod
    def parse(text: str | ModuleId) -> ModuleId:
        """Parse ``0x1::coin``.

        Raises
        ------
        MoveTypeSyntaxError
            When the text is not an address and an identifier joined by ``::``.
        """
        return _parsed(text, ModuleId, _parse_module_id_text, "module id")

    def __str__(self) -> str:
        return f"{self.address.short}::{self.name}"


@dataclass(frozen=True, slots=True)
class EntryFunctionId(_PathSegment):
    """``address::module::function``; module and function names are case-sensitive."""

    module: ModuleId
    name: str

    @staticmethod
    def parse(text: str | EntryFunctionId) -> EntryFunctionId:
        """Parse ``0x1::aptos_account::transfer``.

        Raises
        ------
        MoveTypeSyntaxError
            When the text is not an address and two identifiers joined by ``::``.
        """
        return _parsed(text, EntryFunctionId, _parse_function_id_text, "function id")

    @property
    def address(self) -> Address:
        return self.module.address

    def __str__(self) -> str:
        return f"{self.module}::{self.name}"


def _split_path(text: str, parts: int, what: str) -> tuple[Address, list[str]]:
    pieces = [p.strip() for p in text.split("::")]
    if len(pieces) != parts:
        raise MoveTypeSyntaxError(
            f"a {what} has {parts} parts joined by '::', found {len(pieces)}", text=text, position=0
        )
    try:
        address = Address.parse(pieces[0])
    except InvalidAddressError as exc:
        raise MoveTypeSyntaxError(f"bad address in {what}: {exc}", text=text, position=0) from None
    position = len(text.split("::")[0]) + 2
    for piece in pieces[1:]:
        if not _IDENT.match(piece):
            raise MoveTypeSyntaxError(
                f"{piece!r} is not a Move identifier", text=text, position=position
            )
        position += len(piece) + 2
    return address, pieces[1:]


class _Parser:
    """Recursive descent over the token stream of one type string."""

    MAX_DEPTH: ClassVar[int] = 64

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        for match in _TOKEN.finditer(text):
            kind = match.lastgroup
            assert kind is not None
            self.tokens.append((kind, match.group(kind), match.start(kind)))
        self.index = 0

    def fail(self, message: str, position: int | None = None) -> MoveTypeSyntaxError:
        if position is None:
            position = self.peek_pos()
        return MoveTypeSyntaxError(message, text=self.text, position=position)

    def peek_pos(self) -> int:
        if self.index < len(self.tokens):
            return self.tokens[self.index][2]
        return len(self.text)

    def next(self, expected: str) -> tuple[str, str, int]:
        if self.index >= len(self.tokens):
            raise self.fail(f"unexpected end, expected {expected}")
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, value: str) -> None:
        _, text, pos = self.next(repr(value))
        if text != value:
            raise self.fail(f"expected {value!r}, found {text!r}", pos)

    def parse_type(self, depth: int = 0) -> MoveType:
        if depth > self.MAX_DEPTH:
            raise self.fail(f"type nested deeper than {self.MAX_DEPTH} levels")
        kind, text, pos = self.next("a type")
        if kind == "punct" and text == "&":
            if depth:
                raise self.fail("a reference may only be the outermost type", pos)
            mutable = False
            if self.index < len(self.tokens) and self.tokens[self.index][1] == "mut":
                self.index += 1
                mutable = True
            return ReferenceType(self.parse_type(depth + 1), mutable)
        if kind == "ident":
            if text == "vector":
                self.expect("<")
                element = self.parse_type(depth + 1)
                self.expect(">")
                return VectorType(element)
            if text in PRIMITIVE_NAMES:
                return PrimitiveType(text)
            if text[0] == "T" and text[1:].isdigit() and (text == "T0" or text[1] != "0"):
                return GenericTypeParam(int(text[1:]))
            raise self.fail(f"unknown type {text!r} (a struct needs address::module::Name)", pos)
        if kind == "addr":
            if len(text) - 2 > 64:
                raise self.fail("an address has at most 64 hex digits", pos)
            address = Address.parse(text)
            self.expect("::")
            module = self.ident("a module name")
            self.expect("::")
            name = self.ident("a struct name")
            args: list[MoveType] = []
            if self.index < len(self.tokens) and self.tokens[self.index][1] == "<":
                self.index += 1
                args.append(self.parse_type(depth + 1))
                while True:
                    kind, sep, spos = self.next("',' or '>'")
                    if sep == ">":
                        break
                    if sep != ",":
                        raise self.fail(f"expected ',' or '>', found {sep!r}", spos)
                    args.append(self.parse_type(depth + 1))
            return StructTag(address, module, name, tuple(args))
        raise self.fail(f"unexpected {text!r}", pos)

    def ident(self, what: str) -> str:
        kind, text, pos = self.next(what)
        if kind != "ident":
            raise self.fail(f"expected {what}, found {text!r}", pos)
        return text


@functools.lru_cache(maxsize=8192)
def _parse_cached(text: str) -> MoveType:
    parser = _Parser(text)
    if not parser.tokens:
        raise MoveTypeSyntaxError("empty Move type", text=text, position=0)
    result = parser.parse_type()
    if parser.index != len(parser.tokens):
        raise parser.fail(f"unexpected {parser.tokens[parser.index][1]!r} after a complete type")
    return result


@functools.lru_cache(maxsize=4096)
def _parse_module_id_text(text: str) -> ModuleId:
    address, (name,) = _split_path(text, 2, "module id (address::module)")
    return ModuleId(address, name)


@functools.lru_cache(maxsize=4096)
def _parse_function_id_text(text: str) -> EntryFunctionId:
    address, (module, name) = _split_path(text, 3, "function id (address::module::function)")
    return EntryFunctionId(ModuleId(address, module), name)


def _parsed(text: object, kind: type[_P], parse_text: Callable[[str], _P], what: str) -> _P:
    """``text`` itself when it is already a ``kind``, else the text parsed."""
    if isinstance(text, kind):
        return text
    if not isinstance(text, str):
        raise MoveTypeSyntaxError(
            f"a {what} is text, got {type(text).__name__}", text=repr(text), position=0
        )
    return parse_text(text)


def _address_of(value: object) -> Address:
    try:
        return Address.parse(value)  # type: ignore[arg-type]
    except InvalidAddressError as exc:
        raise MoveTypeSyntaxError(str(exc), text=repr(value), position=0) from None
