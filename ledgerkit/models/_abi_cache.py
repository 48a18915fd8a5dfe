"""The one cache of module ABIs, and the flow that tells which modules a set of types still
needs. No I/O here.

A module's ABI (``GET /accounts/{address}/module/{name}``: its exposed functions and its
structs) is read once and kept in an :class:`AbiCache`, bounded, least recently used
dropped first. Everything ledgerkit reads from ABIs reads it there:

* a module's functions (:meth:`AbiCache.module`): checking a call's arguments before it
  is built, typing a transaction's arguments when it is explained;
* struct layouts for the BCS codec (:meth:`AbiCache.struct_fields`: an
  :class:`AbiCache` is a :class:`~ledgerkit.bcs.LayoutSource`), to encode arguments and
  decode what a view function returns;
* an event type's data as flat columns (:meth:`AbiCache.layout`). An event's ``data`` is
  its struct's Move value in the API's JSON form: u64 and wider as decimal strings,
  addresses in any length, nested structs as objects, options as ``{"vec": [...]}``.
  Typing it needs the struct's fields, which the declaring module's ABI lists (and the
  fields of every struct nested in it, from their own modules' ABIs).

:func:`abi_requests` is the flow that fills a cache with what a set of types needs, one
nesting level at a time, so that whoever reads modules (the clients, with
``client.load_abis``; an explorer) fetches exactly those, once.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from ledgerkit._errors import (
    InputError,
    LedgerError,
    MoveTypeSyntaxError,
    MoveValueError,
    UnknownStructError,
)
from ledgerkit.bcs import DictLayouts
from ledgerkit.models._accounts import MoveModule, MoveModuleBytecode, MoveStruct
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
#: Nesting a BCS value's layout is followed to (the codec's own limit).
MAX_BCS_DEPTH: Final = 64
#: Columns one event type may flatten to.
MAX_COLUMNS: Final = 1_000

_ONE: Final = Address.from_int(1)
_STRING: Final = ("string", "String")
_OPTION: Final = ("option", "Option")
_OBJECT: Final = ("object", "Object")
_BYTES: Final = VectorType(PrimitiveType("u8"))

#: A module held: its ABI and its structs by name. None: the node does not publish it.
_Held = tuple[MoveModule, dict[str, MoveStruct]] | None
#: How a level of modules is fetched: a flow sent what was found for each (None: none).
Fetch = Callable[[list[ModuleId]], Generator[Any, Any, Mapping[ModuleId, MoveModule | None]]]


def _builtin(tag: StructTag, which: tuple[str, str]) -> bool:
    return (tag.module, tag.name) == which and tag.address == _ONE


def _wanted(t: MoveType | str, bcs: bool) -> MoveType:
    """A type asked for: any Move type for BCS values, a struct for event data."""
    return MoveType.parse(t) if bcs else StructTag.parse(t)


@dataclass(frozen=True, slots=True)
class Leaf:
    """One column of an event type's layout: its name, the path to its value in the data
    (field names; ``None`` opens an option, ``{"vec": [x]}`` -> ``x``) and its Move type
    (None: JSON text)."""

    name: str
    path: tuple[str | None, ...]
    move_type: MoveType | None


class AbiCache:
    """Module ABIs by module id; bounded, least recently used dropped first. Hold one and
    pass it again to fetch each module once.

    A module the node said it does not publish is remembered too (as missing), so it is
    not asked for again to lay out event data. Modules can be upgraded with new structs
    and functions: :meth:`forget` one, or :meth:`clear` them all; a struct missing from a
    module held is asked for again once per call that needs it. Thread-safe.

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
    >>> from ledgerkit.bcs import MoveValueCodec
    >>> from ledgerkit.models import MoveModule, MoveStruct, MoveStructField
    >>> point = MoveStruct(
    ...     name="Point", is_native=False, abilities=["copy"], generic_type_params=[],
    ...     fields=[MoveStructField(name="x", type="u64"), MoveStructField(name="y", type="u64")],
    ... )
    >>> module = MoveModule(
    ...     address="0x42", name="geo", friends=[], exposed_functions=[], structs=[point]
    ... )
    >>> MoveValueCodec(AbiCache([module])).encode("0x42::geo::Point", {"x": 1, "y": 2}).hex()
    '01000000000000000200000000000000'
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
        self._lock = threading.RLock()
        self._modules: collections.OrderedDict[ModuleId, _Held] = collections.OrderedDict()
        self._layouts: dict[StructTag, tuple[Leaf, ...]] = {}
        #: Struct fields parsed from the modules held, as the codec asks for them.
        self._parsed = DictLayouts()
        self._generation = 0
        if isinstance(modules, MoveModule | MoveModuleBytecode | str | bytes):
            raise InputError(
                f"AbiCache takes an iterable of modules, got a {type(modules).__name__}"
            )
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

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    @property
    def max_modules(self) -> int:
        """Modules held at most."""
        return self._max

    @property
    def modules(self) -> list[ModuleId]:
        """The modules held (missing ones included), least recently used first."""
        with self._lock:
            return list(self._modules)

    @property
    def generation(self) -> int:
        """Grows whenever a module is added, forgotten or cleared, so that codecs drop
        what they compiled from older layouts."""
        return self._generation

    # -- holding -------------------------------------------------------------------------

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
            raise InputError(f"AbiCache holds MoveModule ABIs, got a {type(module).__name__}")
        self._put(module.module_id, (module, {s.name: s for s in module.structs}))

    def add_missing(self, module_id: ModuleId | str) -> None:
        """Remember that ``module_id`` is not published (the node answered 404)."""
        self._put(ModuleId.parse(module_id), None)

    def forget(self, module_id: ModuleId | str) -> None:
        """Drop one module (it may have been upgraded); it is fetched again when needed."""
        found = ModuleId.parse(module_id)
        with self._lock:
            if self._modules.pop(found, False) is not False:
                self._parsed = DictLayouts()
                self._layouts.clear()
                self._generation += 1

    def clear(self) -> None:
        """Drop every module."""
        with self._lock:
            self._modules.clear()
            self._parsed = DictLayouts()
            self._layouts.clear()
            self._generation += 1

    def _put(self, module_id: ModuleId, held: _Held) -> None:
        with self._lock:
            self._modules[module_id] = held
            self._modules.move_to_end(module_id)
            while len(self._modules) > self._max:
                self._modules.popitem(last=False)
            self._parsed = DictLayouts()
            self._layouts.clear()
            self._generation += 1

    def _held(self, module_id: ModuleId) -> _Held | Literal[False]:
        """The module held, marked as just used (None: known missing); False: not held."""
        with self._lock:
            if module_id not in self._modules:
                return False
            self._modules.move_to_end(module_id)
            return self._modules[module_id]

    # -- reading -------------------------------------------------------------------------

    def module(self, module_id: ModuleId | str) -> MoveModule | None:
        """The ABI held for ``module_id``, or None: not held, or known not to be published
        (``module_id in cache`` tells which)."""
        held = self._held(ModuleId.parse(module_id))
        return held[0] if held else None

    def struct(self, tag: StructTag | str) -> MoveStruct:
        """The ABI of the struct ``tag`` (type arguments ignored).

        Raises
        ------
        UnknownStructError
            Its module is not held, is known not to be published, or does not declare it.
        """
        tag = StructTag.parse(tag)
        held = self._held(tag.module_id)
        found = held[1].get(tag.name) if held else None
        if found is not None:
            return found
        module = str(tag.module_id)
        if held is False:
            why = f"the ABI of module {module} is not at hand"
        elif held is None:
            why = f"module {module} is not published"
        else:
            why = f"module {module} declares no struct {tag.name}"
        raise UnknownStructError(
            f"cannot type {tag}: {why}",
            struct=str(tag),
            module=module,
            module_found=bool(held),
        )

    def struct_fields(self, tag: StructTag) -> Sequence[tuple[str, MoveType]] | None:
        """The fields of the struct ``tag`` in declaration order, its type arguments put
        in; None when no module held declares it (or it is an enum). What the BCS codec
        asks of its :class:`~ledgerkit.bcs.LayoutSource`.

        Raises
        ------
        MoveValueError
            A field type that does not parse, or type arguments that do not fit.
        """
        with self._lock:
            held = self._held(tag.module_id)  # marked as just used, parsed or not
            if not held:
                return None
            found = self._parsed.struct_fields(tag)
            if found is not None:
                return found
            struct = held[1].get(tag.name)
            if struct is None or struct.is_enum:
                return None
            try:
                self._parsed.add(tag.base, [(f.name, f.type) for f in struct.fields])
            except MoveTypeSyntaxError as exc:
                raise MoveValueError(f"layout of {tag.base}: {exc}") from None
            return self._parsed.struct_fields(tag)

    def missing_modules(
        self,
        types: Iterable[MoveType | str],
        *,
        fresh: Iterable[ModuleId] = (),
        bcs: bool = False,
    ) -> list[ModuleId]:
        """The modules still needed for ``types``, in the order met.

        By default, what laying out the event types ``types`` as columns takes (see
        :meth:`layout`): the fields of structs are followed, vectors (JSON text) are not,
        and a module known not to be published is not needed again. With ``bcs``, what
        encoding or decoding values of ``types`` takes: vectors' elements too, and a module
        known missing is asked for again unless among ``fresh``.

        A module not held is needed; so is a module held that lacks a struct asked for
        (it may have been upgraded since), unless it is among ``fresh`` (just fetched).
        The fields of the structs held are followed, so asking again after each fetch
        finds the next nesting level.
        """
        recent = set(fresh)
        limit = MAX_BCS_DEPTH if bcs else MAX_DEPTH
        needed: dict[ModuleId, None] = {}
        seen: set[MoveType] = set()
        stack: list[tuple[MoveType, int]] = [(_wanted(t, bcs), 0) for t in types]
        while stack:
            t, depth = stack.pop()
            if t in seen or depth > limit:
                continue
            seen.add(t)
            if isinstance(t, VectorType) and bcs:
                stack.append((t.element, depth + 1))
            if not isinstance(t, StructTag) or _builtin(t, _STRING) or _builtin(t, _OBJECT):
                continue  # primitives, generics and references need no module
            if _builtin(t, _OPTION):
                stack.extend((inner, depth) for inner in t.type_args)
                continue
            held = self._held(t.module_id)
            if held is False:
                needed[t.module_id] = None
                continue
            if held is None:  # not published: laying it out says so
                if bcs and t.module_id not in recent:
                    needed[t.module_id] = None
                continue
            struct = held[1].get(t.name)
            if struct is None:
                if t.module_id not in recent:
                    needed[t.module_id] = None
                continue
            if struct.is_enum:
                continue
            for field in struct.fields:
                try:
                    inner = MoveType.parse(field.type)
                    if t.type_args:
                        inner = inner.substitute(t.type_args)
                except LedgerError:
                    continue  # laying it out, or the codec, says so
                stack.append((inner, depth + 1))
        return list(needed)

    # -- event data as columns -----------------------------------------------------------

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
        return {leaf.name: leaf.move_type for leaf in self.leaves(event_type)}

    def leaves(self, event_type: StructTag | str) -> tuple[Leaf, ...]:
        """The columns of :meth:`layout`, each with the path to its value in the data.

        Raises
        ------
        UnknownStructError, InputError
            As :meth:`layout`.
        """
        tag = StructTag.parse(event_type)
        with self._lock:
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
                self._value(out, name, (*path, None), move_type.type_args[0], depth)
            else:
                self._struct(out, name + ".", path, move_type, depth + 1)
            return
        if isinstance(move_type, PrimitiveType) or move_type == _BYTES:
            out.append(Leaf(name, path, move_type))
            return
        out.append(Leaf(name, path, None))  # other vectors, generics left open: JSON


def _ask(
    needed: list[ModuleId],
) -> Generator[list[ModuleId], Any, Mapping[ModuleId, MoveModule | None]]:
    found: Mapping[ModuleId, MoveModule | None] = yield needed
    return found


def abi_requests(
    cache: AbiCache,
    types: Iterable[MoveType | str],
    *,
    bcs: bool = False,
    fetch: Fetch | None = None,
) -> Generator[Any, Any, AbiCache]:
    """The flow that fills ``cache`` with the ABIs ``types`` need, one nesting level at a
    time (:meth:`AbiCache.missing_modules <ledgerkit.AbiCache.missing_modules>` says which,
    ``bcs`` as there); it returns ``cache`` when nothing more is needed.

    Each level is fetched by ``fetch(modules)``, a flow that returns what it found for
    each module (its ABI, or None when the node does not publish it). By default the flow
    yields the list of modules itself and is sent that mapping back, so that anything
    holding a way to read modules drives it. The clients run it with a fetch that sends
    a level's reads together (``client.load_abis``).
    """
    wanted = [_wanted(t, bcs) for t in types]
    ask = _ask if fetch is None else fetch
    fetched: set[ModuleId] = set()
    for _ in range((MAX_BCS_DEPTH if bcs else MAX_DEPTH) + 2):
        needed = cache.missing_modules(wanted, fresh=fetched, bcs=bcs)
        if not needed:
            break
        found = yield from ask(needed)
        for module_id in needed:
            module = found.get(module_id)
            if module is None:
                cache.add_missing(module_id)
            else:
                cache.add(module)
            fetched.add(module_id)
    return cache
