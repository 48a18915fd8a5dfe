"""Type text as a Move programmer writes it (``&mut vector<0x1::string::String>``, ``T0``,
``Box<T0>``), parsed into a small tree the builders turn into signature tokens."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledgerkit import InputError
from ledgerkit.types import Address

#: The primitive types of the binary format, by their source names.
PRIMITIVES = frozenset(
    {
        "bool",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "u256",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "i256",
        "address",
        "signer",
    }
)

#: The longest type text accepted (a bound on the input, not a Move limit).
MAX_TYPE_TEXT = 4096
#: How deep a type may nest (the binary format's signature depth limit).
MAX_TYPE_DEPTH = 256

_TOKEN = re.compile(r"\s*(::|&|<|>|,|[A-Za-z_$][A-Za-z0-9_$]*|0x[0-9A-Fa-f]+|[0-9]+)")


class AssemblyError(InputError):
    """A module or script the assembler cannot build: an unknown name, a type it cannot
    parse, an operand of the wrong kind, a table over the format's limits."""


@dataclass(frozen=True, slots=True)
class TypeText:
    """One parsed type.

    ``kind`` is ``"prim"`` (``name`` the primitive), ``"vector"``, ``"ref"``, ``"mut_ref"``
    (``args`` the one inner type), ``"name"`` (a struct or a type parameter: ``address``
    and ``module`` set when written qualified, ``args`` its type arguments).
    """

    kind: str
    name: str = ""
    address: bytes | None = None
    module: str | None = None
    args: tuple[TypeText, ...] = ()


def parse_type(text: str) -> TypeText:
    """Parse one type; ``AssemblyError`` if ``text`` is not exactly one type."""
    if len(text) > MAX_TYPE_TEXT:
        raise AssemblyError(f"type text longer than {MAX_TYPE_TEXT} characters")
    parser = _Parser(text)
    result = parser.type_(0)
    parser.end()
    return result


def parse_name_with_args(text: str) -> tuple[bytes | None, str | None, str, tuple[TypeText, ...]]:
    """``[addr::module::]name[<T, ...>]`` as (address, module, name, type arguments), for
    the operands that name a function or a struct (``0x1::coin::transfer<CoinType>``)."""
    parsed = parse_type(text)
    if parsed.kind != "name":
        raise AssemblyError(f"{text!r} is not a name")
    return parsed.address, parsed.module, parsed.name, parsed.args


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            match = _TOKEN.match(stripped, pos)
            if match is None:
                raise AssemblyError(f"cannot read type {text!r} at {pos}")
            self.tokens.append(match.group(1))
            pos = match.end()
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            want = expected or "a token"
            raise AssemblyError(f"type {self.text!r}: expected {want}, found {token!r}")
        self.pos += 1
        return token

    def end(self) -> None:
        if self.peek() is not None:
            raise AssemblyError(f"type {self.text!r}: unexpected {self.peek()!r}")

    def type_(self, depth: int) -> TypeText:
        if depth > MAX_TYPE_DEPTH:
            raise AssemblyError(f"type {self.text!r} nests deeper than {MAX_TYPE_DEPTH}")
        token = self.take()
        if token == "&":
            if self.peek() == "mut":
                self.take()
                return TypeText("mut_ref", args=(self.type_(depth + 1),))
            return TypeText("ref", args=(self.type_(depth + 1),))
        if token == "vector" and self.peek() == "<":
            args = self.type_args(depth)
            if len(args) != 1:
                raise AssemblyError(f"type {self.text!r}: vector takes one type")
            return TypeText("vector", args=args)
        if token in PRIMITIVES:
            return TypeText("prim", name=token)
        if token.startswith("0x") or token[0].isdigit():
            return self.qualified(token, depth)
        if not (token[0].isalpha() or token[0] == "_"):
            raise AssemblyError(f"type {self.text!r}: unexpected {token!r}")
        args = self.type_args(depth) if self.peek() == "<" else ()
        return TypeText("name", name=token, args=args)

    def qualified(self, address: str, depth: int) -> TypeText:
        try:
            raw = bytes(Address.parse(address if address.startswith("0x") else hex(int(address))))
        except ValueError as exc:
            raise AssemblyError(f"type {self.text!r}: bad address {address!r}") from exc
        self.take("::")
        module = self.take()
        self.take("::")
        name = self.take()
        args = self.type_args(depth) if self.peek() == "<" else ()
        return TypeText("name", name=name, address=raw, module=module, args=args)

    def type_args(self, depth: int) -> tuple[TypeText, ...]:
        self.take("<")
        args = [self.type_(depth + 1)]
        while self.peek() == ",":
            self.take()
            args.append(self.type_(depth + 1))
        self.take(">")
        return tuple(args)
