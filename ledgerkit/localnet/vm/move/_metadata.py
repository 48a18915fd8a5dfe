"""The Aptos metadata a compiled module carries: error map, view functions, events.

A module's metadata section holds key/value entries. Under ``aptos::metadata_v1`` the
value is the BCS of ``RuntimeModuleMetadataV1``::

    error_map:         map<u64, {code_name: string, code_description: string}>
    struct_attributes: map<string, vector<{kind: u8, args: vector<string>}>>
    fun_attributes:    map<string, vector<{kind: u8, args: vector<string>}>>

(``aptos::metadata_v0`` holds the error map alone). Attribute kinds: 0 and 1 a view
function (0 from an older compiler), 2 a resource group, 3 a resource group member,
4 an event, 5 randomness. The node reads them itself, as it reads the bytecode: no Move
VM can be installed here, so this follows aptos-core's ``module_metadata.rs`` (facts only).

Aborts of a published module are named from its error map, as a node names them: by the
code's low 12 bits (the reason of a canonical error code), then by the whole code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ledgerkit._errors import BCSError
from ledgerkit.bcs import Deserializer
from ledgerkit.localnet.vm.framework._context import MoveAbortError, VMStatusError
from ledgerkit.localnet.vm.move._format import CompiledModule, Metadata, Op
from ledgerkit.localnet.vm.move._reader import stored_module

__all__ = [
    "COMPILATION_METADATA_KEY",
    "METADATA_V0_KEY",
    "METADATA_V1_KEY",
    "RuntimeMetadata",
    "abort_info",
    "check_events",
    "check_metadata",
    "module_abort",
    "runtime_metadata",
    "stored_module_abort",
]

METADATA_V0_KEY: Final = b"aptos::metadata_v0"
METADATA_V1_KEY: Final = b"aptos::metadata_v1"
COMPILATION_METADATA_KEY: Final = b"compilation_metadata"
VIEW_KINDS: Final = frozenset({0, 1})
RESOURCE_GROUP: Final = 2
RESOURCE_GROUP_MEMBER: Final = 3
EVENT: Final = 4
RANDOMNESS: Final = 5
_KNOWN_KINDS: Final = frozenset({0, 1, 2, 3, 4, 5})
_CONSTRAINT: Final = "CONSTRAINT_NOT_SATISFIED"
_EVENT_ERROR: Final = "EVENT_METADATA_VALIDATION_ERROR"
_GROUP_SCOPES: Final = frozenset({"module_scope", "address_scope", "global_scope"})
_ONE: Final = bytes(31) + b"\x01"


@dataclass(frozen=True, slots=True)
class RuntimeMetadata:
    """A module's Aptos metadata: error map and attributes (``(kind, args)`` pairs)."""

    error_map: dict[int, tuple[str, str]] = field(default_factory=dict)
    struct_attributes: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = field(
        default_factory=dict
    )
    fun_attributes: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = field(default_factory=dict)

    def is_view(self, function: str) -> bool:
        return any(kind in VIEW_KINDS for kind, _ in self.fun_attributes.get(function, ()))

    def is_event(self, struct: str) -> bool:
        return any(kind == EVENT for kind, _ in self.struct_attributes.get(struct, ()))


def _attributes(d: Deserializer) -> dict[str, tuple[tuple[int, tuple[str, ...]], ...]]:
    def attribute() -> tuple[int, tuple[str, ...]]:
        return d.u8(), tuple(d.sequence(d.string))

    out: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = {}
    for _ in range(d.length()):
        name = d.string()
        out[name] = tuple(d.sequence(attribute))
    return out


def _decode(value: bytes, *, v1: bool) -> RuntimeMetadata:
    d = Deserializer(value)
    errors: dict[int, tuple[str, str]] = {}
    for _ in range(d.length()):
        code = d.u64()
        errors[code] = (d.string(), d.string())
    if not v1:
        d.finish()
        return RuntimeMetadata(errors)
    structs = _attributes(d)
    functions = _attributes(d)
    d.finish()
    return RuntimeMetadata(errors, structs, functions)


def runtime_metadata(entries: Sequence[Metadata], version: int = 6) -> RuntimeMetadata | None:
    """The module's metadata (v1, else v0 upgraded), or None when it has none or it
    does not decode (a node then treats the module as having none)."""
    by_key = {entry.key: entry.value for entry in entries}
    try:
        if METADATA_V1_KEY in by_key:
            found = _decode(by_key[METADATA_V1_KEY], v1=True)
            if version == 5:  # attributes never meant anything under version 5
                return RuntimeMetadata(found.error_map)
            return found
        if METADATA_V0_KEY in by_key:
            return _decode(by_key[METADATA_V0_KEY], v1=False)
    except BCSError:
        return None
    return None


def check_metadata(module: CompiledModule) -> None:
    """Refuse a module whose metadata a node would not publish: an unknown key, a key
    twice, a value that does not decode, an unknown attribute, a view function that
    returns nothing, a resource group (member) attribute on a struct that cannot be one:
    ``CONSTRAINT_NOT_SATISFIED``, as aptos-core's publishing checks say."""
    seen_runtime = seen_compilation = False
    for entry in module.metadata:
        if entry.key in (METADATA_V0_KEY, METADATA_V1_KEY):
            if seen_runtime:
                raise VMStatusError(_CONSTRAINT, "duplicate key for metadata")
            seen_runtime = True
            try:
                _decode(entry.value, v1=entry.key == METADATA_V1_KEY)
            except BCSError as exc:
                raise VMStatusError(_CONSTRAINT, f"metadata does not decode: {exc}") from None
        elif entry.key == COMPILATION_METADATA_KEY:
            if seen_compilation:
                raise VMStatusError(_CONSTRAINT, "duplicate key for metadata")
            seen_compilation = True
        else:
            raise VMStatusError(_CONSTRAINT, f"unknown metadata key {entry.key!r}")
    metadata = runtime_metadata(module.metadata, module.version)
    if metadata is None:
        return
    functions = {module.function_name(f.function): f for f in module.function_defs}
    for name, attributes in metadata.fun_attributes.items():
        for kind, _ in attributes:
            fdef = functions.get(name)
            if kind in VIEW_KINDS:
                returns = (
                    ()
                    if fdef is None
                    else module.signature(module.function_handles[fdef.function].return_)
                )
                if not returns:
                    raise VMStatusError(_CONSTRAINT, f"{name} is no view function")
            elif kind == RANDOMNESS:
                if fdef is None or not fdef.is_entry or fdef.visibility == 1:
                    raise VMStatusError(_CONSTRAINT, f"{name} cannot use randomness")
            else:
                raise VMStatusError(_CONSTRAINT, f"unknown attribute {kind} of {name}")
    structs = {module.struct_name(s.struct_handle): s for s in module.struct_defs}
    for name, attributes in metadata.struct_attributes.items():
        for kind, args in attributes:
            sdef = structs.get(name)
            handle = None if sdef is None else module.struct_handles[sdef.struct_handle]
            if kind == RESOURCE_GROUP and args and args[0] in _GROUP_SCOPES:
                fields = () if sdef is None else sdef.fields or ()
                if handle is None or handle.abilities or handle.type_parameters or len(fields) != 1:
                    raise VMStatusError(_CONSTRAINT, f"{name} cannot be a resource group")
            elif kind == RESOURCE_GROUP_MEMBER and args:
                if handle is None or not handle.abilities & 0x8:
                    raise VMStatusError(_CONSTRAINT, f"{name} cannot be a resource group member")
            elif kind != EVENT:
                raise VMStatusError(_CONSTRAINT, f"unknown attribute {kind} of {name}")


def _event_structs(module: CompiledModule) -> set[str]:
    metadata = runtime_metadata(module.metadata, module.version) or RuntimeMetadata()
    found: set[str] = set()
    for name, attributes in metadata.struct_attributes.items():
        if sum(kind == EVENT for kind, _ in attributes) > 1:
            raise VMStatusError(_EVENT_ERROR, "found duplicate event attribute")
        if any(kind == EVENT for kind, _ in attributes):
            found.add(name)
    return found


def check_events(module: CompiledModule, old: CompiledModule | None = None) -> None:
    """``EVENT_METADATA_VALIDATION_ERROR`` unless every ``0x1::event::emit`` call of the
    module emits a struct of its own marked ``#[event]``, and an upgrade keeps every
    ``#[event]`` of the module it replaces (aptos-core's event validation)."""
    events = _event_structs(module)
    for fdef in module.function_defs:
        for instruction in fdef.code.code if fdef.code is not None else ():
            if instruction.op != Op.CALL_GENERIC:
                continue
            inst = module.function_instantiations[instruction.arg]
            handle = module.function_handles[inst.handle]
            called = module.module_id(handle.module), module.identifier(handle.name)
            if called != ((_ONE, "event"), "emit"):
                continue
            tokens = module.signature(inst.type_parameters)
            if not tokens or tokens[0][0] not in ("struct", "struct_inst"):
                raise VMStatusError(_EVENT_ERROR, "0x1::event::emit of a non-struct type")
            struct = module.struct_handles[tokens[0][1]]
            name = module.identifier(struct.name)
            if struct.module != module.self_handle:
                raise VMStatusError(_EVENT_ERROR, f"{name} is not defined in the module")
            if name not in events:
                raise VMStatusError(_EVENT_ERROR, f"missing #[event] attribute on {name}")
    if old is not None and not _event_structs(old) <= events:
        raise VMStatusError(_EVENT_ERROR, "invalid change in event attributes")


def abort_info(metadata: RuntimeMetadata | None, code: int) -> tuple[str, str] | None:
    """The ``(name, description)`` a module's error map gives abort ``code``: by its low
    12 bits, then by the whole code; None when the map names neither."""
    if metadata is None:
        return None
    return metadata.error_map.get(code & 0xFFF) or metadata.error_map.get(code)


def module_abort(module: CompiledModule, code: int) -> MoveAbortError:
    """The abort a published ``module`` raises with ``code``, named from its own error
    map: its ``vm_status`` reads ``Move abort in 0xcafe::m: ENAME(0x10001): description``
    (the address as a hex literal without leading zeros), or ``...: 0x10001`` when the
    map does not name the code."""
    digits = module.address.hex().lstrip("0") or "0"
    info = abort_info(runtime_metadata(module.metadata, module.version), code)
    return MoveAbortError(f"0x{digits}::{module.name}", code, declared=info)


def stored_module_abort(
    address: bytes, name: str, bytecode: bytes | None, code: int
) -> MoveAbortError:
    """The abort ``address::name`` raises with ``code``, named from the error map of its
    stored ``bytecode`` (as the state holds it): unnamed when there is no bytecode or it
    does not read, as a node leaves an abort it cannot explain."""
    module = stored_module(bytecode)
    if module is not None and module.address == address and module.name == name:
        return module_abort(module, code)
    digits = address.hex().lstrip("0") or "0"
    return MoveAbortError(f"0x{digits}::{name}", code, declared=None)
