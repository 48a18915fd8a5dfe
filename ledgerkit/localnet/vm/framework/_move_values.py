"""Move values as the node writes them: type text, address forms and struct layouts.

The node writes every address, inside Move values and type names alike, in its standard
form (``Address.standard``: short for ``0x0`` ... ``0xf``, long otherwise), while
:class:`~ledgerkit.bcs.MoveValueCodec` decodes addresses to the short form. Values the
node decodes from BCS (entry function arguments, table keys asked for by type) go
through :func:`standardizer` so that they read the same as values the node built itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ledgerkit.bcs import MoveValueCodec
from ledgerkit.localnet.vm.framework._abi import FRAMEWORK_ADDRESS, ModuleSpec, StructSpec
from ledgerkit.types import Address, MoveType, PrimitiveType, StructTag, VectorType

__all__ = ["FrameworkLayouts", "make_codec", "render_type", "standardizer", "string_length"]

Fix = Callable[[Any], Any]


def string_length(value: str) -> int:
    """A Move ``String``'s length, which the framework's limits count: its UTF-8 bytes."""
    return len(value.encode())


@functools.lru_cache(maxsize=8192)
def render_type(t: MoveType) -> str:
    """A type as the node writes it: struct addresses in standard form, ``", "`` between args.

    Examples
    --------
    >>> render_type(MoveType.parse("vector<0x01::coin::CoinStore<0x1::aptos_coin::AptosCoin>>"))
    'vector<0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>>'
    """
    if isinstance(t, StructTag):
        base = f"{t.address.standard}::{t.module}::{t.name}"
        if t.type_args:
            return base + "<" + ", ".join(render_type(a) for a in t.type_args) + ">"
        return base
    if isinstance(t, VectorType):
        return f"vector<{render_type(t.element)}>"
    return str(t)


def _standard(value: Any) -> Any:
    return Address.parse(value).standard


def _identity(value: Any) -> Any:
    return value


class FrameworkLayouts:
    """A codec :class:`~ledgerkit.bcs.LayoutSource` over the framework's struct declarations."""

    generation = 0

    def __init__(self, modules: Sequence[ModuleSpec]) -> None:
        self._structs: dict[tuple[Address, str, str], StructSpec] = {
            (module.address, module.name, struct.name): struct
            for module in modules
            for struct in module.structs
        }

    def struct(self, tag: StructTag) -> StructSpec | None:
        return self._structs.get((tag.address, tag.module, tag.name))

    def struct_fields(self, tag: StructTag) -> Sequence[tuple[str, MoveType]] | None:
        spec = self.struct(tag)
        if spec is None or len(tag.type_args) != len(spec.generics):
            return None
        return tuple(
            (name, MoveType.parse(text).substitute(tag.type_args)) for name, text in spec.fields
        )


def make_codec(layouts: FrameworkLayouts) -> MoveValueCodec:
    return MoveValueCodec(layouts)


def standardizer(t: MoveType, layouts: FrameworkLayouts) -> Fix:
    """A function that rewrites the addresses of a decoded ``t`` value in standard form."""
    return _standardizer(t, layouts)


@functools.lru_cache(maxsize=2048)
def _standardizer(t: MoveType, layouts: FrameworkLayouts) -> Fix:
    if isinstance(t, PrimitiveType):
        return _standard if t.name in ("address", "signer") else _identity
    if isinstance(t, VectorType):
        if t.element == PrimitiveType("u8"):
            return _identity
        element = _standardizer(t.element, layouts)
        if element is _identity:
            return _identity
        return lambda value: [element(item) for item in value]
    if isinstance(t, StructTag):
        if t.address == FRAMEWORK_ADDRESS and t.module == "string" and t.name == "String":
            return _identity
        if t.address == FRAMEWORK_ADDRESS and t.module == "object" and t.name == "Object":
            return lambda value: {"inner": _standard(value["inner"])}
        if t.address == FRAMEWORK_ADDRESS and t.module == "option" and t.name == "Option":
            inner = _standardizer(VectorType(t.type_args[0]), layouts)
            return lambda value: {"vec": inner(value["vec"])}
        fields = layouts.struct_fields(t) or ()
        fixes = [(name, _standardizer(ft, layouts)) for name, ft in fields]
        if all(fix is _identity for _, fix in fixes):
            return _identity
        return lambda value: {name: fix(value[name]) for name, fix in fixes}
    return _identity
