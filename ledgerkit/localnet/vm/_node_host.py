"""The node's side of running published Move code: :class:`NodeHost`, a
:class:`~ledgerkit.localnet.vm.move.MoveHost` over a transaction's
:class:`~ledgerkit.localnet.vm.framework.Context`.

It lives here, above both ``vm.framework`` (state, the framework's Python bodies) and
``vm.move`` (the interpreter), because it needs both: the interpreter imports the
framework's error types, and the framework reaches the Move package only lazily (to
check a published bundle), so a host inside either package would tie them in a cycle.

What it serves, per transaction (one host, one cache):

* modules: read from state (``Context.module_code``) and parsed once, each one's size
  kept for its dependency gas (``loaded``: a node charges code it loads per module and
  byte, not as a state read); the framework's addresses have no bytecode here (their
  functions are Python);
* resources of published types: read from the stored JSON, kept as Move values while
  the code runs and written back by :meth:`NodeHost.flush` as JSON with their BCS;
* module events: rendered to JSON with their BCS (``Context.emit_module``);
* ``0x1::table``: natively, items keyed by the key's BCS, cached as Move values and
  written back at the end (handles as a node makes them: SHA3-256 of the transaction
  hash and the number of tables made so far, big-endian u32);
* every other framework function: the bridge (``_move_bridge``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Final

from ledgerkit.localnet.vm._move_bridge import call_body, move_type_of
from ledgerkit.localnet.vm._move_json import from_json, to_json
from ledgerkit.localnet.vm.framework import (
    FRAMEWORK,
    Context,
    MoveAbortError,
    VMStatusError,
    resource_key,
    table_key,
)
from ledgerkit.localnet.vm.move import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_KEY,
    ABILITY_STORE,
    AddressValue,
    CompiledModule,
    GasMeter,
    Reference,
    RuntimeType,
    StructType,
    StructTypeParameter,
    StructValue,
    Value,
    VectorType,
    encode_bcs,
    stored_module,
    struct_field_types,
    type_name,
)
from ledgerkit.localnet.vm.move import struct_abilities as _struct_abilities
from ledgerkit.types import Address, MoveType, PrimitiveType, StructTag
from ledgerkit.types import VectorType as MoveVectorType

__all__ = ["FRAMEWORK_ADDRESSES", "NodeHost", "tag_text"]

FRAMEWORK_ADDRESSES: Final = frozenset(bytes(31) + bytes([n]) for n in (1, 3, 4))
_ONE: Final = bytes(31) + b"\x01"
#: ``0x1::table`` aborts (the table natives' codes: reason << 8 | 7).
TABLE_ALREADY_EXISTS: Final = (100 << 8) + 7
TABLE_NOT_FOUND: Final = (101 << 8) + 7
_ABILITY_BITS: Final = {
    "copy": ABILITY_COPY,
    "drop": ABILITY_DROP,
    "store": ABILITY_STORE,
    "key": ABILITY_KEY,
}
#: Cost of a table operation beyond the call (internal units; aptos-core's table
#: natives' common load base and per-operation bases, times the node's multiplier).
_TABLE_OP_GAS: Final = 3_676 * 10


def tag_text(ty: StructType) -> str:
    """The canonical struct tag text of ``ty`` (the store key's and the API's)."""
    return str(StructTag.parse(type_name(ty)))


class _Item:
    """A cached resource or table item: a one-slot cell (None: absent)."""

    __slots__ = ("cell", "dirty", "existed", "key", "ty")

    def __init__(self, value: Value | None, ty: RuntimeType, key: Any = None) -> None:
        self.cell: list[Value | None] = [value]
        self.existed = value is not None
        self.dirty = False
        self.ty = ty
        self.key = key


class NodeHost:
    """A :class:`MoveHost` over ``ctx`` for one transaction or view call."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._modules: dict[tuple[bytes, str], CompiledModule | None] = {}
        self._resources: dict[tuple[bytes, StructType], _Item] = {}
        self._items: dict[tuple[bytes, bytes], _Item] = {}
        self._tables_made = 0
        #: The size of each module loaded, for dependency gas.
        self.loaded: list[int] = []

    # -- modules and types ---------------------------------------------------------------

    def load_module(self, address: bytes, name: str) -> CompiledModule | None:
        key = (bytes(address), name)
        if key not in self._modules:
            module = None
            if key[0] not in FRAMEWORK_ADDRESSES:
                code = self.ctx.module_code(Address(key[0]), name, counted=False)
                if code is not None:
                    self.loaded.append(len(code))
                module = stored_module(code)
            self._modules[key] = module
        return self._modules[key]

    def fields(self, ty: StructType) -> Sequence[tuple[str, RuntimeType]] | None:
        """The fields of struct type ``ty``: a published module's, or the framework's."""
        if ty.address in FRAMEWORK_ADDRESSES:
            tag = StructTag.parse(type_name(ty))
            found = FRAMEWORK.layouts.struct_fields(tag)
            if found is None:
                return None
            return [(name, self.runtime_type(t)) for name, t in found]
        module = self.load_module(ty.address, ty.module)
        if module is None:
            return None
        return struct_field_types(module, ty.name, ty.type_args)

    def runtime_type(self, t: MoveType) -> RuntimeType:
        """The runtime type of an API type (``LINKER_ERROR`` for an unknown module,
        ``TYPE_RESOLUTION_FAILURE`` for an unknown struct)."""
        if isinstance(t, PrimitiveType):
            return t.name
        if isinstance(t, MoveVectorType):
            return VectorType(self.runtime_type(t.element))
        if not isinstance(t, StructTag):
            raise VMStatusError("TYPE_RESOLUTION_FAILURE", f"{t} is not a value type")
        args = tuple(self.runtime_type(a) for a in t.type_args)
        address = bytes(t.address)
        if address in FRAMEWORK_ADDRESSES:
            spec = FRAMEWORK.layouts.struct(t)
            if spec is None or len(spec.generics) != len(args):
                raise VMStatusError("TYPE_RESOLUTION_FAILURE", f"no struct {t}")
            declared = sum(_ABILITY_BITS[a] for a in spec.abilities)
            if (t.module, t.name) == ("option", "Option"):  # its one parameter is not phantom
                declared = _struct_abilities(declared, (StructTypeParameter(0, False),), args)
            return StructType(address, t.module, t.name, args, declared)
        module = self.load_module(address, t.module)
        if module is None:
            raise VMStatusError("LINKER_ERROR", f"no module {t.module_id}")
        handle = _own_struct_handle(module, t.name)
        if handle is None or len(handle.type_parameters) != len(args):
            raise VMStatusError("TYPE_RESOLUTION_FAILURE", f"no struct {t}")
        abilities = _struct_abilities(handle.abilities, handle.type_parameters, args)
        return StructType(address, t.module, t.name, args, abilities)

    # -- resources -----------------------------------------------------------------------

    def _resource(self, address: bytes, ty: StructType) -> _Item:
        key = (bytes(address), ty)
        item = self._resources.get(key)
        if item is None:
            data = self.ctx.resource(Address(key[0]), tag_text(ty))
            value = None if data is None else from_json(data, ty, self.fields)
            item = self._resources[key] = _Item(value, ty)
        return item

    def resource_exists(self, address: bytes, ty: StructType) -> bool:
        return self._resource(address, ty).cell[0] is not None

    def borrow_resource(self, address: bytes, ty: StructType, mutable: bool) -> StructValue | None:
        item = self._resource(address, ty)
        if mutable and item.cell[0] is not None:
            item.dirty = True
        value = item.cell[0]
        return value if isinstance(value, StructValue) else None

    def move_resource_to(self, address: bytes, ty: StructType, value: StructValue) -> bool:
        item = self._resource(address, ty)
        if item.cell[0] is not None:
            return False
        item.cell[0] = value
        item.dirty = True
        return True

    def move_resource_from(self, address: bytes, ty: StructType) -> StructValue | None:
        item = self._resource(address, ty)
        value = item.cell[0]
        if not isinstance(value, StructValue):
            return None
        item.cell[0] = None
        item.dirty = True
        return value

    def emit_event(self, ty: StructType, value: StructValue) -> None:
        data = to_json(value, ty, self.fields)
        self.ctx.emit_module(tag_text(ty), data, bcs=encode_bcs(value))

    # -- framework calls -----------------------------------------------------------------

    def call_framework(
        self,
        address: bytes,
        module: str,
        function: str,
        type_args: Sequence[RuntimeType],
        args: list[Value],
        meter: GasMeter,
    ) -> list[Value] | None:
        if bytes(address) == _ONE and module == "table":
            meter.charge(_TABLE_OP_GAS)
            return self._table(function, tuple(type_args), args)
        # A framework body run in Python: priced with the schedule's per-call stand-ins.
        self.ctx.calls += 1
        # The body sees the state as the code left it, and what it writes is read anew.
        self.flush()
        try:
            return call_body(self, bytes(address), module, function, tuple(type_args), args)
        finally:
            self._forget_clean()

    def _forget_clean(self) -> None:
        self._resources = {k: v for k, v in self._resources.items() if v.dirty}
        self._items = {k: v for k, v in self._items.items() if v.dirty}

    # -- tables --------------------------------------------------------------------------

    def _table_item(self, table: Value, key: Value, value_type: RuntimeType) -> _Item:
        target = table.read() if isinstance(table, Reference) else table
        handle = bytes(target.fields[0])
        key_bcs = encode_bcs(key)
        item = self._items.get((handle, key_bcs))
        if item is None:
            data = self.ctx.table_item(Address(handle), key_bcs)
            value = None if data is None else from_json(data, value_type, self.fields)
            item = self._items[(handle, key_bcs)] = _Item(value, value_type, key)
        return item

    def _new_table(self, type_args: tuple[RuntimeType, ...]) -> StructValue:
        digest = hashlib.sha3_256(self.ctx.txn_hash + self._tables_made.to_bytes(4, "big"))
        self._tables_made += 1
        ty = StructType(_ONE, "table", "Table", type_args, ABILITY_STORE)
        return StructValue(ty, [AddressValue(digest.digest())])

    def _table(
        self, function: str, type_args: tuple[RuntimeType, ...], args: list[Value]
    ) -> list[Value] | None:
        if function == "new":
            return [self._new_table(type_args)]
        if function in ("destroy", "destroy_known_empty_unsafe", "drop_unchecked"):
            return []
        if function not in _TABLE_FUNCTIONS or len(type_args) != 2:
            return None
        item = self._table_item(args[0], args[1], type_args[1])
        present = item.cell[0] is not None
        if function == "contains":
            return [present]
        if function in ("add", "upsert"):
            if present and function == "add":
                raise MoveAbortError("table", TABLE_ALREADY_EXISTS)
            item.cell[0], item.dirty = args[2], True
            return []
        if function == "borrow_with_default" and not present:
            return [args[2]]
        if function == "borrow_mut_with_default" and not present:
            item.cell[0] = args[2]
            present = True
        if not present:
            raise MoveAbortError("table", TABLE_NOT_FOUND)
        if function == "remove":
            value, item.cell[0], item.dirty = item.cell[0], None, True
            return [value]
        mutable = function.startswith("borrow_mut")
        item.dirty = item.dirty or mutable
        return [Reference(item.cell, 0, mutable)]

    # -- the end -------------------------------------------------------------------------

    def flush(self) -> None:
        """Write back every resource and table item the code changed (again at each
        call of a framework body and at the end: a mutable borrow may change it later)."""
        ctx = self.ctx
        for (address, ty), item in self._resources.items():
            if not item.dirty:
                continue
            value = item.cell[0]
            if value is None:
                if item.existed:
                    ctx.delete(Address(address), tag_text(ty))
                else:  # made and removed in this transaction: nothing to write
                    ctx.writes.pop(resource_key(address, tag_text(ty)), None)
                continue
            data = to_json(value, ty, self.fields)
            ctx.put(Address(address), tag_text(ty), data, bcs=encode_bcs(value))
        for (handle, key_bcs), item in self._items.items():
            if not item.dirty:
                continue
            key_type = move_type_of(item.key)
            key_json = to_json(item.key, key_type, self.fields)
            key_text = _type_text(key_type)
            value = item.cell[0]
            if value is None:
                if item.existed:
                    ctx.table_delete(Address(handle), key_text, key_json, key_bcs=key_bcs)
                else:
                    ctx.writes.pop(table_key(handle, key_bcs), None)
                continue
            ctx.table_put(
                Address(handle),
                key_text,
                _type_text(item.ty),
                key_json,
                to_json(value, item.ty, self.fields),
                key_bcs=key_bcs,
                value_bcs=encode_bcs(value),
            )


_TABLE_FUNCTIONS: Final = frozenset(
    (
        "add",
        "upsert",
        "borrow",
        "borrow_mut",
        "borrow_with_default",
        "borrow_mut_with_default",
        "contains",
        "remove",
    )
)


def _type_text(ty: RuntimeType) -> str:
    """A runtime type as the API writes it (struct addresses short)."""
    return str(MoveType.parse(type_name(ty)))


def _own_struct_handle(module: CompiledModule, name: str) -> Any:
    for sdef in module.struct_defs:
        handle = module.struct_handles[sdef.struct_handle]
        if module.identifier(handle.name) == name:
            return handle
    return None
