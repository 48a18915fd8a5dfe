"""Struct layouts from module ABIs: a :class:`~ledgerkit.bcs.LayoutSource` for the codec.

BCS carries no field names, so encoding a struct argument (or decoding a struct a view
function returns) needs the struct's fields in declaration order. A module's ABI lists
them (``MoveModule.structs``); :class:`AbiLayouts` holds the ABIs added to it and tells
which modules a type still needs (:meth:`AbiLayouts.missing_modules`), so a flow can
fetch exactly those before encoding.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ledgerkit._errors import MoveTypeSyntaxError, MoveValueError
from ledgerkit.models import MoveModule, MoveStruct
from ledgerkit.types import (
    Address,
    ModuleId,
    MoveType,
    PrimitiveType,
    StructTag,
    VectorType,
)

__all__ = ["AbiLayouts", "is_builtin_struct"]

_ONE: Final = Address.from_int(1)
#: Structs the codec knows without a layout: ``(module, name)`` at ``0x1``.
_BUILTIN: Final = frozenset({("string", "String"), ("option", "Option"), ("object", "Object")})
_MAX_DEPTH: Final = 64


def is_builtin_struct(tag: StructTag) -> bool:
    """String, Option and Object of ``0x1``: the codec encodes them without a layout."""
    return tag.address == _ONE and (tag.module, tag.name) in _BUILTIN


class AbiLayouts:
    """A :class:`~ledgerkit.bcs.LayoutSource` built from module ABIs.

    Parameters
    ----------
    modules : iterable of MoveModule, optional
        ABIs to start with (``client.account_module(...).value.abi``).

    Examples
    --------
    >>> from ledgerkit.bcs import MoveValueCodec
    >>> from ledgerkit.models import MoveModule, MoveStruct, MoveStructField
    >>> point = MoveStruct(
    ...     name="Point", is_native=False, abilities=["copy"], generic_type_params=[],
    ...     fields=[MoveStructField(name="x", type="u64"), MoveStructField(name="y", type="u64")],
    ... )
    >>> module = MoveModule(
    ...     address="0x42", name="geo", friends=[], exposed_functions=[], structs=[point]
    ... )
    >>> MoveValueCodec(AbiLayouts([module])).encode("0x42::geo::Point", {"x": 1, "y": 2}).hex()
    '01000000000000000200000000000000'
    """

    def __init__(self, modules: Iterable[MoveModule] = ()) -> None:
        self._structs: dict[ModuleId, dict[str, MoveStruct]] = {}
        self._parsed: dict[StructTag, tuple[tuple[str, MoveType], ...]] = {}
        #: Grows on every change, so codecs drop what they compiled from older layouts.
        self.generation = 0
        for module in modules:
            self.add(module)

    def add(self, module: MoveModule) -> None:
        """Add (or replace) the structs of one module's ABI."""
        module_id = module.module_id
        self._structs[module_id] = {struct.name: struct for struct in module.structs}
        self._parsed = {t: f for t, f in self._parsed.items() if t.module_id != module_id}
        self.generation += 1

    def forget(self, module_id: ModuleId) -> None:
        """Drop one module's structs (it may have been upgraded)."""
        if self._structs.pop(module_id, None) is not None:
            self._parsed = {t: f for t, f in self._parsed.items() if t.module_id != module_id}
            self.generation += 1

    def knows(self, module_id: ModuleId) -> bool:
        """Whether the ABI of ``module_id`` was added."""
        return module_id in self._structs

    def struct_fields(self, tag: StructTag) -> Sequence[tuple[str, MoveType]] | None:
        base = tag.base
        fields = self._parsed.get(base)
        if fields is None:
            struct = self._structs.get(tag.module_id, {}).get(tag.name)
            if struct is None or struct.is_enum:
                return None
            try:
                fields = tuple((f.name, MoveType.parse(f.type)) for f in struct.fields)
            except MoveTypeSyntaxError as exc:
                raise MoveValueError(f"layout of {base}: {exc}") from None
            self._parsed[base] = fields
        if not tag.type_args:
            return fields
        try:
            return tuple((name, t.substitute(tag.type_args)) for name, t in fields)
        except MoveTypeSyntaxError as exc:
            raise MoveValueError(f"layout of {tag}: {exc}") from None

    def missing_modules(self, types: Iterable[MoveType]) -> set[ModuleId]:
        """The modules whose ABI is still needed to encode or decode values of ``types``.

        A struct of a module not added yet names that module; a struct missing from a
        module that was added names it too (the module may have been upgraded since).
        The fields of known structs are followed, so one call after each fetch finds
        the next layer.
        """
        missing: set[ModuleId] = set()
        seen: set[MoveType] = set()
        stack = [(t, 0) for t in types]
        while stack:
            t, depth = stack.pop()
            if t in seen or depth > _MAX_DEPTH:
                continue
            seen.add(t)
            if isinstance(t, VectorType):
                stack.append((t.element, depth + 1))
            elif isinstance(t, StructTag):
                if is_builtin_struct(t):
                    if t.module == "option":
                        stack.extend((arg, depth + 1) for arg in t.type_args)
                    continue
                if not self.knows(t.module_id):
                    missing.add(t.module_id)
                    continue
                try:
                    fields = self.struct_fields(t)
                except MoveValueError:
                    continue  # the codec names the fault when it compiles this type
                if fields is None:
                    missing.add(t.module_id)
                    continue
                stack.extend((ft, depth + 1) for _, ft in fields)
            elif not isinstance(t, PrimitiveType):
                continue  # generics and references: the codec refuses them itself
        return missing
