"""Declarations the assembler resolves names against: type parameters (``T: store``,
``phantom T``), abilities, and the signatures of structs and functions of other modules,
written as Move declares them (``0x1::signer::address_of(&signer): address``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ._types import AssemblyError, TypeText, parse_type

#: Ability bits of the binary format.
ABILITIES = {"copy": 0x1, "drop": 0x2, "store": 0x4, "key": 0x8}


def abilities(spec: str | Iterable[str] | int) -> int:
    """``"copy, drop"``, ``"store + drop"``, ``["key"]`` or an int, as the ability bits."""
    if isinstance(spec, int):
        if not 0 <= spec <= 0xF:
            raise AssemblyError(f"not an ability set: {spec}")
        return spec
    words = spec.replace(",", " ").replace("+", " ").split() if isinstance(spec, str) else spec
    bits = 0
    for word in words:
        if word not in ABILITIES:
            raise AssemblyError(f"unknown ability {word!r}")
        bits |= ABILITIES[word]
    return bits


@dataclass(frozen=True, slots=True)
class TypeParam:
    """A type parameter: its name, its constraints and (structs only) whether phantom."""

    name: str
    constraints: int = 0
    phantom: bool = False


def type_param(spec: str | TypeParam) -> TypeParam:
    """``"T"``, ``"T: store + drop"``, ``"phantom T"``, ``"phantom T: key"``."""
    if isinstance(spec, TypeParam):
        return spec
    head, _, bounds = spec.partition(":")
    words = head.split()
    phantom = len(words) == 2 and words[0] == "phantom"
    if len(words) != (2 if phantom else 1) or not words[-1].isidentifier():
        raise AssemblyError(f"not a type parameter: {spec!r}")
    return TypeParam(words[-1], abilities(bounds), phantom)


def type_params(specs: Sequence[str | TypeParam]) -> tuple[TypeParam, ...]:
    if len(specs) > 255:
        raise AssemblyError("at most 255 type parameters")
    params = tuple(type_param(s) for s in specs)
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise AssemblyError(f"type parameters named twice: {names}")
    return params


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside ``<...>`` and ``(...)``; empty parts dropped."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "<(":
            depth += 1
        elif char in ">)":
            depth -= 1
        elif char == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


@dataclass(frozen=True, slots=True)
class QualifiedName:
    """``address::module::name`` (address as 32 bytes)."""

    address: bytes
    module: str
    name: str


def qualified(text: str) -> QualifiedName:
    parsed = parse_type(text)
    if parsed.kind != "name" or parsed.address is None or parsed.module is None or parsed.args:
        raise AssemblyError(f"not a qualified name: {text!r}")
    return QualifiedName(parsed.address, parsed.module, parsed.name)


@dataclass(frozen=True, slots=True)
class StructDecl:
    """A struct of another module as far as a handle needs it."""

    name: QualifiedName
    abilities: int
    type_params: tuple[TypeParam, ...]


@dataclass(frozen=True, slots=True)
class FunctionDecl:
    """A function's signature: type parameters, parameter and return types."""

    name: QualifiedName
    type_params: tuple[TypeParam, ...]
    params: tuple[TypeText, ...]
    returns: tuple[TypeText, ...]


def _name_and_type_params(head: str) -> tuple[QualifiedName, tuple[TypeParam, ...]]:
    head = head.strip()
    if "<" in head:
        base, _, rest = head.partition("<")
        if not rest.endswith(">"):
            raise AssemblyError(f"unbalanced type parameters in {head!r}")
        return qualified(base), type_params(split_top(rest[:-1]))
    return qualified(head), ()


def parse_struct_decl(text: str) -> StructDecl:
    """``0x1::object::Object<phantom T> has copy, drop, store``."""
    head, _, has = text.partition(" has ")
    name, params = _name_and_type_params(head)
    return StructDecl(name, abilities(has), params)


def parse_function_decl(text: str) -> FunctionDecl:
    """``0x1::coin::transfer<CoinType>(&signer, address, u64)``, with ``: ret`` or
    ``: (ret, ret)`` after the parameters when it returns something."""
    open_at = text.find("(")
    if open_at < 0:
        raise AssemblyError(f"no parameter list in {text!r}")
    depth, close_at = 0, -1
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            close_at = i
            break
    if close_at < 0:
        raise AssemblyError(f"unbalanced parameter list in {text!r}")
    tail = text[close_at + 1 :].strip()
    name, params = _name_and_type_params(text[:open_at])
    param_types = tuple(parse_type(p) for p in split_top(text[open_at + 1 : close_at]))
    returns: tuple[TypeText, ...] = ()
    if tail:
        if not tail.startswith(":"):
            raise AssemblyError(f"unexpected {tail!r} in {text!r}")
        ret = tail[1:].strip()
        inner = ret[1:-1] if ret.startswith("(") and ret.endswith(")") else ret
        returns = tuple(parse_type(r) for r in split_top(inner))
    return FunctionDecl(name, params, param_types, returns)
