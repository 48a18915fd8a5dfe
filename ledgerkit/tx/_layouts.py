"""Structs the BCS codec knows without a layout: String, Option and Object of ``0x1``.

Every other struct's layout comes from its module's ABI, held in the one
:class:`~ledgerkit.AbiCache` (a :class:`~ledgerkit.bcs.LayoutSource`), which also tells
which modules a type still needs (``AbiCache.missing_modules(types, bcs=True)``).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.types import Address, StructTag

__all__ = ["is_builtin_struct"]

_ONE: Final = Address.from_int(1)
#: Structs the codec knows without a layout: ``(module, name)`` at ``0x1``.
_BUILTIN: Final = frozenset({("string", "String"), ("option", "Option"), ("object", "Object")})


def is_builtin_struct(tag: StructTag) -> bool:
    """String, Option and Object of ``0x1``: the codec encodes them without a layout."""
    return tag.address == _ONE and (tag.module, tag.name) in _BUILTIN
