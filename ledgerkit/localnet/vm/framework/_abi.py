"""Module ABIs as data: struct and function declarations, their API JSON and "bytecode".

There is no Move compiler or VM here, so a module's ``bytecode`` cannot be real Move
bytecode. The node serves a deterministic stand-in instead: the Move magic
``0xa11ceb0b``, the bytecode version as a little-endian u32, then the BCS of the ABI::

    ModuleAbi   = address · string name · vector<(address, string)> friends
                · vector<Function> · vector<Struct>
    Function    = string name · u8 visibility (0 private, 1 public, 2 friend)
                · bool is_entry · bool is_view · vector<vector<string>> generic constraints
                · vector<string> params · vector<string> return
    Struct      = string name · bool is_native · bool is_event · bool is_enum
                · vector<string> abilities · vector<vector<string>> generic constraints
                · vector<(string name, string type)> fields

Clients that only check the magic, hash the bytes or show their size work as with a real
node; execution is done by the Python functions registered with each module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ledgerkit.bcs import Serializer
from ledgerkit.types import Address, ModuleId, MoveType, StructTag

__all__ = [
    "BYTECODE_VERSION",
    "FRAMEWORK_ADDRESS",
    "MOVE_MAGIC",
    "FunctionSpec",
    "ModuleSpec",
    "StructSpec",
]

FRAMEWORK_ADDRESS: Final = Address.from_int(1)
MOVE_MAGIC: Final = bytes.fromhex("a11ceb0b")
BYTECODE_VERSION: Final = 7
_VISIBILITY: Final = ("private", "public", "friend")


@dataclass(frozen=True, slots=True)
class StructSpec:
    """One struct: abilities, generic constraints and fields (types may use ``T0`` ...)."""

    name: str
    abilities: tuple[str, ...]
    fields: tuple[tuple[str, str], ...] = ()
    generics: tuple[tuple[str, ...], ...] = ()
    is_event: bool = False

    def abi(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "is_native": False,
            "is_event": self.is_event,
            "is_enum": False,
            "abilities": list(self.abilities),
            "generic_type_params": [{"constraints": list(c)} for c in self.generics],
            "fields": [{"name": n, "type": t} for n, t in self.fields],
            "variants": [],
        }

    def serialize(self, s: Serializer) -> None:
        s.string(self.name)
        s.boolean(False)
        s.boolean(self.is_event)
        s.boolean(False)
        s.sequence(self.abilities, s.string)
        s.sequence(self.generics, lambda c: s.sequence(c, s.string))
        s.uleb128(len(self.fields))
        for name, type_text in self.fields:
            s.string(name)
            s.string(type_text)


@dataclass(frozen=True, slots=True)
class FunctionSpec:
    """One function; ``params`` include the leading ``&signer`` of entry functions."""

    name: str
    params: tuple[str, ...] = ()
    returns: tuple[str, ...] = ()
    generics: tuple[tuple[str, ...], ...] = ()
    entry: bool = False
    view: bool = False
    visibility: str = "public"

    def abi(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "visibility": self.visibility,
            "is_entry": self.entry,
            "is_view": self.view,
            "generic_type_params": [{"constraints": list(c)} for c in self.generics],
            "params": list(self.params),
            "return": list(self.returns),
        }

    def serialize(self, s: Serializer) -> None:
        s.string(self.name)
        s.u8(_VISIBILITY.index(self.visibility))
        s.boolean(self.entry)
        s.boolean(self.view)
        s.sequence(self.generics, lambda c: s.sequence(c, s.string))
        s.sequence(self.params, s.string)
        s.sequence(self.returns, s.string)

    @property
    def signer_count(self) -> int:
        """Leading ``signer`` / ``&signer`` parameters (filled by the transaction's signers)."""
        count = 0
        for param in self.params:
            if param.lstrip("&").strip() != "signer":
                break
            count += 1
        return count

    @property
    def value_params(self) -> tuple[MoveType, ...]:
        """The parameters a caller passes as arguments, parsed."""
        return tuple(MoveType.parse(p) for p in self.params[self.signer_count :])

    @property
    def return_types(self) -> tuple[MoveType, ...]:
        return tuple(MoveType.parse(r) for r in self.returns)


@dataclass(frozen=True, slots=True)
class ModuleSpec:
    """One module: its structs and functions, at ``address`` (``0x1``, or ``0x3`` and
    ``0x4`` for the token packages)."""

    name: str
    structs: tuple[StructSpec, ...] = ()
    functions: tuple[FunctionSpec, ...] = ()
    friends: tuple[str, ...] = ()
    address: Address = FRAMEWORK_ADDRESS
    _functions: dict[str, FunctionSpec] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._functions.update({f.name: f for f in self.functions})

    @property
    def module_id(self) -> ModuleId:
        return ModuleId(self.address, self.name)

    @property
    def key(self) -> tuple[Address, str]:
        """``(address, name)``: how the framework finds the module."""
        return self.address, self.name

    def function(self, name: str) -> FunctionSpec | None:
        return self._functions.get(name)

    def abi(self) -> dict[str, Any]:
        """The module ABI in the API's JSON shape.

        Its ``exposed_functions`` are those a node exposes: public and friend functions,
        and entry functions whatever their visibility; a private function that is not an
        entry function is left out, ``#[view]`` or not (aptos-core's normalized module,
        which the API's ABI is made from, filters on visibility and ``entry`` only).
        """
        exposed = [f for f in self.functions if f.visibility != "private" or f.entry]
        return {
            "address": self.address.standard,
            "name": self.name,
            "friends": list(self.friends),
            "exposed_functions": [f.abi() for f in exposed],
            "structs": [s.abi() for s in self.structs],
        }

    def bytecode(self) -> bytes:
        """The deterministic stand-in for Move bytecode (see the module docstring)."""
        s = Serializer()
        s.fixed_bytes(MOVE_MAGIC)
        s.u32(BYTECODE_VERSION)
        s.address(self.address)
        s.string(self.name)
        s.uleb128(len(self.friends))
        for friend in self.friends:
            module = ModuleId.parse(friend)
            s.address(module.address)
            s.string(module.name)
        _sequence(s, self.functions)
        _sequence(s, self.structs)
        return s.output()

    def json(self) -> dict[str, Any]:
        """``{bytecode, abi}`` as the module endpoints answer."""
        return {"bytecode": "0x" + self.bytecode().hex(), "abi": self.abi()}


def _sequence(s: Serializer, items: Sequence[StructSpec] | Sequence[FunctionSpec]) -> None:
    s.uleb128(len(items))
    for item in items:
        item.serialize(s)


def struct_tag(module: str, name: str, *type_args: str) -> StructTag:
    """``0x1::module::name<type_args>`` as a tag."""
    return StructTag(FRAMEWORK_ADDRESS, module, name, tuple(MoveType.parse(t) for t in type_args))
