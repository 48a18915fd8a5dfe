"""Account records: the account itself, its resources, and its modules with their ABIs."""

from __future__ import annotations

from typing import Any

import msgspec

from ledgerkit.models._base import Record, U64Int, check_u64
from ledgerkit.types import Address, ModuleId, StructTag

__all__ = [
    "AccountData",
    "MoveFunction",
    "MoveGenericTypeParam",
    "MoveModule",
    "MoveModuleBytecode",
    "MoveResource",
    "MoveStruct",
    "MoveStructField",
    "MoveStructVariant",
]


class AccountData(Record, frozen=True, kw_only=True):
    """``GET /accounts/{address}``: the account's sequence number and authentication key."""

    sequence_number: U64Int
    authentication_key: str

    def __post_init__(self) -> None:
        check_u64(self.sequence_number)


class MoveResource(Record, frozen=True, kw_only=True):
    """A resource held at an account.

    Attributes
    ----------
    type : str
        The struct tag, as the node spells it.
    data : Any
        The Move value as plain JSON: u64, u128 and u256 stay exact decimal strings.
    """

    type: str
    data: Any

    @property
    def struct_tag(self) -> StructTag:
        """``type`` parsed (parses are cached, so repeated reads are cheap)."""
        return StructTag.parse(self.type)


class MoveGenericTypeParam(Record, frozen=True, kw_only=True):
    """A generic parameter of a function or struct: the abilities it is constrained to.

    ``is_phantom`` was sent by older nodes for struct parameters only.
    """

    constraints: list[str]
    is_phantom: bool | None = None


class MoveFunction(Record, frozen=True, kw_only=True):
    """A function of a module ABI (or the ABI of a script).

    ``return_`` is the JSON field ``return``. ``is_view`` is missing on older nodes and
    then reads False. Parameter and return types are Move type strings (``"&signer"``,
    ``"T0"``, ``"0x1::string::String"``).
    """

    name: str
    visibility: str
    is_entry: bool
    is_view: bool = False
    generic_type_params: list[MoveGenericTypeParam]
    params: list[str]
    return_: list[str] = msgspec.field(name="return")


class MoveStructField(Record, frozen=True, kw_only=True):
    """A field of a struct: its name and Move type."""

    name: str
    type: str


class MoveStructVariant(Record, frozen=True, kw_only=True):
    """A variant of a Move enum and its fields."""

    name: str
    fields: list[MoveStructField]


class MoveStruct(Record, frozen=True, kw_only=True):
    """A struct (or enum) of a module ABI.

    ``is_event``, ``is_enum`` and ``variants`` are missing on older nodes and then read
    False and empty; ``variants`` is filled only for enums.
    """

    name: str
    is_native: bool
    is_event: bool = False
    is_enum: bool = False
    abilities: list[str]
    generic_type_params: list[MoveGenericTypeParam]
    fields: list[MoveStructField]
    variants: list[MoveStructVariant] = msgspec.field(default_factory=list)


class MoveModule(Record, frozen=True, kw_only=True):
    """The ABI of a module: its friends, exposed functions and structs."""

    address: str
    name: str
    friends: list[str]
    exposed_functions: list[MoveFunction]
    structs: list[MoveStruct]

    @property
    def module_id(self) -> ModuleId:
        """``address::name`` as a :class:`~ledgerkit.types.ModuleId`."""
        return ModuleId(Address.parse(self.address), self.name)

    def function(self, name: str) -> MoveFunction | None:
        """The exposed function called ``name``, or None."""
        return next((f for f in self.exposed_functions if f.name == name), None)


class MoveModuleBytecode(Record, frozen=True, kw_only=True):
    """A module as published: its bytecode (hex) and, when the node sends it, its ABI."""

    bytecode: str
    abi: MoveModule | None = None
