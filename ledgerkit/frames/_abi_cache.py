"""Module ABIs held for typing event data, and the layout of an event type as flat columns.

An event's ``data`` is its struct's Move value in the API's JSON form: u64 and wider as
decimal strings, addresses in any length, nested structs as objects, options as
``{"vec": [...]}``. Typing it needs the struct's fields, which the declaring module's ABI
lists (and the fields of every struct nested in it, from their own modules' ABIs).
:class:`AbiCache` holds those ABIs, bounded, and lays out an event type as flat columns;
:func:`abi_requests` is the flow that tells which modules a layout still needs, so that
whoever holds a client (``ledgerkit.typed_events``, ``ledgerkit.events_of_type``) fetches
exactly those, once. Nothing here does I/O.
"""

from __future__ import annotations

import collections
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from ledgerkit._errors import InputError, LedgerError, UnknownStructError
from ledgerkit.frames._inputs import describe
from ledgerkit.models import MoveModule, MoveModuleBytecode, MoveStruct
from ledgerkit.types import (
    Address,
    ModuleId,
    MoveType,
    PrimitiveType,
    StructTag,
    VectorType,
)

__all__ = ["AbiCache", "Leaf", "abi_requests"]

#: Modules an :class:`AbiCache` holds unless told otherwise.
DEFAULT_MAX_MODULES: Final = 256
#: Structs nested deeper than this are one JSON text column.
MAX_DEPTH: Final = 16
#: Columns one event type may flatten to.
MAX_COLUMNS: Final = 1_000
#: Rounds of fetching a layout may take (each finds the modules of one nesting level).
MAX_ROUNDS: Final = MAX_DEPTH + 2

_ONE: Final = Address.from_int(1)
_STRING: Final = ("string", "String")
_OPTION: Final = ("option", "Option")
_OBJECT: Final = ("object", "Object")
BYTES: Final = VectorType(PrimitiveType("u8"))
#: The step of a path that opens an option (``{"vec": [x]}`` -> ``x``, or missing).
SOME: Final = None


def _builtin(tag: StructTag, which: tuple[str, str]) -> bool:
    return (tag.module, tag.name) == which and tag.address == _ONE


@dataclass(frozen=True, slots=True)
class Leaf:
    """One column of a layout: its name, the path to its value in the data (field names,
    ``SOME`` to open an option) and its Move type (None: JSON text)."""

    name: str
    path: tuple[str | None, ...]
    move_type: MoveType | None


class AbiCache:
    """Module ABIs by module id, for typing event data; bounded, least recently used
    dropped first. Hold one and pass it again to fetch each module once.

    A module the node said it does not publish is remembered too (as missing), so it is
    not asked for again. Modules can be upgraded with new structs: :meth:`forget` one, or
    :meth:`clear` them all; a struct missing from a module held is asked for again once
    per call that needs it.

    Parameters
    ----------
    modules : iterable of MoveModule or MoveModuleBytecode, optional
        ABIs to start with (``client.account_modules("0x1").value``, hand-made
        :class:`~ledgerkit.models.MoveModule` records...).
    max_modules : int, default 256
        Modules held at most.

    Examples
    --------
    >>> cache = AbiCache(client.account_modules("0x1").value)  # doctest: +SKIP
    >>> cache.layout("0x1::fungible_asset::Deposit")  # doctest: +SKIP
    {'store': PrimitiveType(name='address'), 'amount': PrimitiveType(name='u64')}
    """

    def __init__(
        self,
        modules: Iterable[MoveModule | MoveModuleBytecode] = (),
        *,
        max_modules: int = DEFAULT_MAX_MODULES,
    ) -> None:
        if isinstance(max_modules, bool) or not isinstance(max_modules, int) or max_modules < 1:
            raise InputError(f"max_modules must be a positive integer, got {max_modules!r}")
        self._max = max_modules
        self._modules: collections.OrderedDict[ModuleId, dict[str, MoveStruct] | None] = (
            collections.OrderedDict()
        )
        self._layouts: dict[StructTag, tuple[Leaf, ...]] = {}
        if isinstance(modules, MoveModule | MoveModuleBytecode | str | bytes):
            raise InputError(f"AbiCache takes an iterable of modules, got {describe(modules)}")
        for module in modules:
            self.add(module)

    def __repr__(self) -> str:
        missing = sum(1 for v in self._modules.values() if v is None)
        return f"AbiCache({len(self)} modules, {missing} missing, max_modules={self._max})"

    def __len__(self) -> int:
        return len(self._modules)

    def __contains__(self, module_id: object) -> bool:
        try:
            return ModuleId.parse(module_id) in self._modules  # type: ignore[arg-type]
        except (LedgerError, TypeError, AttributeError):
            return False

    @property
    def max_modules(self) -> int:
        """Modules held at most."""
        return self._max

    @property
    def modules(self) -> list[ModuleId]:
        """The modules held (missing ones included), least recently used first."""
        return list(self._modules)

    def add(self, module: MoveModule | MoveModuleBytecode) -> None:
        """Hold ``module``'s ABI (replacing an older one of the same module).

        Raises
        ------
        InputError
            Not a module, or a module sent without its ABI.
        """
        if isinstance(module, MoveModuleBytecode):
            if module.abi is None:
                raise InputError("a module without its ABI cannot type anything")
            module = module.abi
        if not isinstance(module, MoveModule):
            raise InputError(f"AbiCache holds MoveModule ABIs, got {describe(module)}")
        self._put(module.module_id, {s.name: s for s in module.structs})

    def add_missing(self, module_id: ModuleId | str) -> None:
        """Remember that ``module_id`` is not published (the node answered 404)."""
        self._put(ModuleId.parse(module_id), None)

    def forget(self, module_id: ModuleId | str) -> None:
        """Drop one module (it may have been upgraded); it is fetched again when needed."""
        if self._modules.pop(ModuleId.parse(module_id), False) is not False:
            self._layouts.clear()

    def clear(self) -> None:
        """Drop every module."""
        self._modules.clear()
        self._layouts.clear()

    def _put(self, module_id: ModuleId, structs: dict[str, MoveStruct] | None) -> None:
        self._modules[module_id] = structs
        self._modules.move_to_end(module_id)
        while len(self._modules) > self._max:
            self._modules.popitem(last=False)
        self._layouts.clear()

    def _structs(self, module_id: ModuleId) -> dict[str, MoveStruct] | None:
        """The structs of a module held (None: known missing), marked as just used;
        :meth:`_held` tells whether it is held at all."""
        self._modules.move_to_end(module_id)
        return self._modules[module_id]

    def _held(self, module_id: ModuleId) -> bool:
        return module_id in self._modules

    def struct(self, tag: StructTag | str) -> MoveStruct:
        """The ABI of the struct ``tag`` (type arguments ignored).

        Raises
        ------
        UnknownStructError
            Its module is not held, is known not to be published, or does not declare it.
        """
        tag = StructTag.parse(tag)
        held = self._held(tag.module_id)
        structs = self._structs(tag.module_id) if held else None
        found = None if structs is None else structs.get(tag.name)
        if found is not None:
            return found
        module = str(tag.module_id)
        if not held:
            why = f"the ABI of module {module} is not at hand"
        elif structs is None:
            why = f"module {module} is not published"
        else:
            why = f"module {module} declares no struct {tag.name}"
        raise UnknownStructError(
            f"cannot type {tag}: {why}",
            struct=str(tag),
            module=module,
            module_found=structs is not None,
        )

    def missing_modules(
        self, types: Iterable[StructTag | str], *, fresh: Iterable[ModuleId] = ()
    ) -> list[ModuleId]:
        """The modules still needed to lay out ``types``, in the order met.

        A module not held is needed; so is a module held that lacks a struct asked for
        (it may have been upgraded since), unless it is among ``fresh`` (just fetched).
        The fields of the structs held are followed, so asking again after each fetch
        finds the next nesting level.
        """
        recent = set(fresh)
        needed: dict[ModuleId, None] = {}
        seen: set[StructTag] = set()
        stack = [(StructTag.parse(t), 0) for t in types]
        while stack:
            tag, depth = stack.pop()
            if tag in seen or depth > MAX_DEPTH:
                continue
            seen.add(tag)
            if _builtin(tag, _STRING) or _builtin(tag, _OBJECT):
                continue
            if _builtin(tag, _OPTION):
                stack.extend((t, depth) for t in tag.type_args if isinstance(t, StructTag))
                continue
            if not self._held(tag.module_id):
                needed[tag.module_id] = None
                continue
            structs = self._structs(tag.module_id)
            if structs is None:
                continue  # not published: laying it out says so
            struct = structs.get(tag.name)
            if struct is None:
                if tag.module_id not in recent:
                    needed[tag.module_id] = None
                continue
            if struct.is_enum:
                continue
            for field in struct.fields:
                try:
                    inner = MoveType.parse(field.type)
                    if tag.type_args:
                        inner = inner.substitute(tag.type_args)
                except LedgerError:
                    continue  # laying it out says so
                if isinstance(inner, StructTag):
                    stack.append((inner, depth + 1))
        return list(needed)

    def layout(self, event_type: StructTag | str) -> dict[str, MoveType | None]:
        """The columns ``event_type``'s data flattens to: dotted name -> Move type of the
        values (None: JSON text).

        Raises
        ------
        UnknownStructError
            A struct (the event's or one nested in it) no module held declares.
        InputError
            More than 1,000 columns, or field types that do not parse.
        """
        return {leaf.name: leaf.move_type for leaf in self._leaves(StructTag.parse(event_type))}

    def _leaves(self, tag: StructTag) -> tuple[Leaf, ...]:
        found = self._layouts.get(tag)
        if found is None:
            leaves: list[Leaf] = []
            if _builtin(tag, _OPTION) or _builtin(tag, _STRING) or _builtin(tag, _OBJECT):
                self._value(leaves, "value", (), tag, 0)
            else:
                self._struct(leaves, "", (), tag, 0)
            found = tuple(leaves)
            if len(self._layouts) >= 4 * self._max:
                self._layouts.clear()
            self._layouts[tag] = found
        return found

    def _struct(
        self,
        out: list[Leaf],
        prefix: str,
        path: tuple[str | None, ...],
        tag: StructTag,
        depth: int,
    ) -> None:
        struct = self.struct(tag)
        if struct.is_enum or depth >= MAX_DEPTH:
            out.append(Leaf(prefix.rstrip(".") or "value", path, None))
            return
        if len(struct.generic_type_params) != len(tag.type_args) and tag.type_args:
            raise InputError(
                f"{tag} has {len(tag.type_args)} type arguments; {tag.base} takes "
                f"{len(struct.generic_type_params)}"
            )
        for field in struct.fields:
            try:
                move_type = MoveType.parse(field.type)
                if tag.type_args:
                    move_type = move_type.substitute(tag.type_args)
            except LedgerError as exc:
                raise InputError(f"field {field.name} of {tag}: {exc}") from None
            self._value(out, prefix + field.name, (*path, field.name), move_type, depth)

    def _value(
        self,
        out: list[Leaf],
        name: str,
        path: tuple[str | None, ...],
        move_type: MoveType,
        depth: int,
    ) -> None:
        if len(out) >= MAX_COLUMNS:
            raise InputError(f"an event type flattens to more than {MAX_COLUMNS} columns")
        if isinstance(move_type, StructTag):
            if _builtin(move_type, _STRING):
                out.append(Leaf(name, path, move_type))
            elif _builtin(move_type, _OBJECT):
                out.append(Leaf(name, (*path, "inner"), PrimitiveType("address")))
            elif _builtin(move_type, _OPTION) and len(move_type.type_args) == 1:
                self._value(out, name, (*path, SOME), move_type.type_args[0], depth)
            else:
                self._struct(out, name + ".", path, move_type, depth + 1)
            return
        if isinstance(move_type, PrimitiveType) or move_type == BYTES:
            out.append(Leaf(name, path, move_type))
            return
        out.append(Leaf(name, path, None))  # other vectors, generics left open: JSON


def abi_requests(
    cache: AbiCache, types: Iterable[StructTag | str]
) -> Generator[list[ModuleId], Mapping[ModuleId, MoveModule | None], None]:
    """The flow that fills ``cache`` with the ABIs ``types`` need: it yields the modules
    to fetch (one nesting level at a time) and is sent back what was found for each (its
    ABI, or None when the node does not publish it). Driven by a sync or an async client
    alike; ends when nothing more is needed."""
    wanted = [StructTag.parse(t) for t in types]
    fetched: set[ModuleId] = set()
    for _ in range(MAX_ROUNDS):
        needed = cache.missing_modules(wanted, fresh=fetched)
        if not needed:
            return
        found = yield needed
        for module_id in needed:
            module = found.get(module_id)
            if module is None:
                cache.add_missing(module_id)
            else:
                cache.add(module)
            fetched.add(module_id)
