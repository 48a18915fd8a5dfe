"""Native functions of the Move standard library that the interpreter runs itself.

These are the ``native fun`` declarations of ``0x1::vector``, ``signer``, ``bcs``,
``hash``, ``string``, ``type_info`` and ``event`` (``write_module_event_to_store``),
written after their aptos-core semantics. Each takes the execution (for the host and
the gas meter), the type arguments and the argument values, and returns the results.
Errors are the VM's: a vector index out of bounds is ``VECTOR_OPERATION_ERROR``
(sub-status 1), ``destroy_empty`` of a non-empty vector sub-status 3.

Gas: a flat base per native and a per-byte part for hashing and serialization (a node
charges each native its own figures from ``move_stdlib.rs``; these are of that order).

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from ledgerkit.localnet.vm.move._format import ABILITY_COPY, ABILITY_DROP, ABILITY_STORE
from ledgerkit.localnet.vm.move._interp_errors import (
    VEC_DESTROY_NON_EMPTY,
    VEC_INDEX_OUT_OF_BOUNDS,
    VEC_POP_EMPTY,
    MoveExecutionError,
    invariant,
)
from ledgerkit.localnet.vm.move._interp_gas import NATIVE_BASE, NATIVE_PER_BYTE, GasMeter
from ledgerkit.localnet.vm.move._runtime_types import RuntimeType, StructType, type_name
from ledgerkit.localnet.vm.move._value_bcs import encode_bcs
from ledgerkit.localnet.vm.move._values import (
    AddressValue,
    Reference,
    SignerValue,
    StructValue,
    U8Value,
    U64Value,
    Value,
    VectorValue,
    value_has_type,
)

if TYPE_CHECKING:
    from ledgerkit.localnet.vm.move._host import Limits, MoveHost

__all__ = ["NATIVES", "STRING", "NativeContext", "NativeFunction", "bytes_value", "checked"]

STD: Final = bytes(31) + b"\x01"
_VALUE_ABILITIES: Final = ABILITY_COPY | ABILITY_DROP | ABILITY_STORE
STRING: Final = StructType(STD, "string", "String", (), _VALUE_ABILITIES)
TYPE_INFO: Final = StructType(STD, "type_info", "TypeInfo", (), _VALUE_ABILITIES)


class NativeContext(Protocol):
    """What a native sees of the execution."""

    host: MoveHost
    meter: GasMeter
    limits: Limits


TypeArgs = tuple[RuntimeType, ...]
Args = list[Value]
NativeFunction = Callable[[NativeContext, TypeArgs, Args], Args]


def checked(fn: NativeFunction) -> NativeFunction:
    """``fn`` with a flat gas charge, whose Python faults on bad arguments (wrong count,
    wrong kinds) become ``UNKNOWN_INVARIANT_VIOLATION_ERROR``."""

    @functools.wraps(fn)
    def run(ctx: NativeContext, type_args: TypeArgs, args: Args) -> Args:
        ctx.meter.charge(NATIVE_BASE)
        try:
            return fn(ctx, type_args, args)
        except (IndexError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise invariant(f"{fn.__name__}: {type(error).__name__}: {error}") from error

    return run


def deref(value: Value) -> Value:
    if not isinstance(value, Reference):
        raise invariant(f"expected a reference, got {value!r}")
    return value.read()


def vector_of(value: Value, *, mutable: bool = False) -> VectorValue:
    if mutable and not (isinstance(value, Reference) and value.mutable):
        raise invariant("expected a mutable reference")
    target = deref(value) if isinstance(value, Reference) else value
    if not isinstance(target, VectorValue):
        raise invariant(f"expected a vector, got {target!r}")
    return target


def u64_of(value: Value) -> int:
    if type(value) is not U64Value:
        raise invariant(f"expected a u64, got {value!r}")
    return int(value)


def byte_string(value: Value) -> bytes:
    """The bytes of a ``vector<u8>`` (or a reference to one)."""
    vector = vector_of(value)
    if vector.elem_type != "u8":
        raise invariant("expected a vector<u8>")
    return bytes(vector.elems)


def bytes_value(data: bytes) -> VectorValue:
    """A ``vector<u8>`` value."""
    return VectorValue("u8", [U8Value(b) for b in data])


def _index(vector: VectorValue, index: int) -> int:
    if index >= len(vector.elems):
        raise MoveExecutionError(
            "VECTOR_OPERATION_ERROR", f"index {index}", sub_status=VEC_INDEX_OUT_OF_BOUNDS
        )
    return index


# -- 0x1::vector ----------------------------------------------------------------------
def _empty(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    (elem,) = ta
    return [VectorValue(elem, [])]


def _length(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    return [U64Value(len(vector_of(args[0]).elems))]


def _borrow(mutable: bool) -> NativeFunction:
    def borrow(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
        vector = vector_of(args[0], mutable=mutable)
        return [Reference(vector.elems, _index(vector, u64_of(args[1])), mutable)]

    return borrow


def _push_back(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    vector = vector_of(args[0], mutable=True)
    if len(vector.elems) >= ctx.limits.max_vector_length:
        raise MoveExecutionError("MEMORY_LIMIT_EXCEEDED", "vector too long")
    if not value_has_type(args[1], vector.elem_type):
        raise invariant(f"push of {args[1]!r} onto a vector of {vector.elem_type}")
    vector.elems.append(args[1])
    return []


def _pop_back(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    vector = vector_of(args[0], mutable=True)
    if not vector.elems:
        raise MoveExecutionError("VECTOR_OPERATION_ERROR", "pop", sub_status=VEC_POP_EMPTY)
    return [vector.elems.pop()]


def _destroy_empty(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    if vector_of(args[0]).elems:
        raise MoveExecutionError(
            "VECTOR_OPERATION_ERROR", "destroy_empty", sub_status=VEC_DESTROY_NON_EMPTY
        )
    return []


def _swap(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    vector = vector_of(args[0], mutable=True)
    i, j = _index(vector, u64_of(args[1])), _index(vector, u64_of(args[2]))
    vector.elems[i], vector.elems[j] = vector.elems[j], vector.elems[i]
    return []


def _move_range(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    source = vector_of(args[0], mutable=True)
    start, length = u64_of(args[1]), u64_of(args[2])
    target = vector_of(args[3], mutable=True)
    insert = u64_of(args[4])
    if start + length > len(source.elems) or insert > len(target.elems):
        raise MoveExecutionError(
            "VECTOR_OPERATION_ERROR", "move_range out of bounds", sub_status=VEC_INDEX_OUT_OF_BOUNDS
        )
    if len(target.elems) + length > ctx.limits.max_vector_length:
        raise MoveExecutionError("MEMORY_LIMIT_EXCEEDED", "vector too long")
    moved = source.elems[start : start + length]
    del source.elems[start : start + length]
    target.elems[insert:insert] = moved
    return []


# -- signer, bcs, hash ------------------------------------------------------------------
def _borrow_address(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    signer = deref(args[0])
    if not isinstance(signer, SignerValue):
        raise invariant("expected a signer")
    return [Reference([signer.address], 0, False)]


def _to_bytes(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    data = encode_bcs(deref(args[0]))
    ctx.meter.charge(NATIVE_PER_BYTE * len(data))
    return [bytes_value(data)]


def _hash(name: str) -> NativeFunction:
    def digest(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
        data = byte_string(args[0])
        ctx.meter.charge(NATIVE_PER_BYTE * len(data))
        return [bytes_value(hashlib.new(name, data).digest())]

    return digest


# -- string -----------------------------------------------------------------------------
def utf8_ok(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_char_boundary(data: bytes, index: int) -> bool:
    return index == len(data) or (index < len(data) and (data[index] & 0xC0) != 0x80)


def _check_utf8(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    return [utf8_ok(byte_string(args[0]))]


def _is_char_boundary(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    return [is_char_boundary(byte_string(args[0]), u64_of(args[1]))]


def _sub_string(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    data = byte_string(args[0])
    return [bytes_value(data[u64_of(args[1]) : u64_of(args[2])])]


def _index_of(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    data, needle = byte_string(args[0]), byte_string(args[1])
    found = data.find(needle)
    return [U64Value(len(data) if found < 0 else found)]


# -- type_info, event -------------------------------------------------------------------
def _type_of(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    (ty,) = ta
    if not isinstance(ty, StructType):
        error = MoveExecutionError("ABORTED", "type_of of a non-struct type", abort_code=1)
        error.location, error.function = (STD, "type_info"), "type_of"
        raise error
    struct_name = type_name(ty).split("::", 2)[2]
    module, name = bytes_value(ty.module.encode()), bytes_value(struct_name.encode())
    return [StructValue(TYPE_INFO, [AddressValue(ty.address), module, name])]


def _type_name(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    (ty,) = ta
    return [StructValue(STRING, [bytes_value(type_name(ty).encode())])]


def _write_event(ctx: NativeContext, ta: TypeArgs, args: Args) -> Args:
    (ty,) = ta
    (value,) = args
    if not isinstance(ty, StructType) or not isinstance(value, StructValue) or value.ty != ty:
        raise invariant("a module event is a struct of its type argument")
    ctx.meter.charge(NATIVE_PER_BYTE * len(encode_bcs(value)))
    ctx.host.emit_event(ty, value)
    return []


_TABLE: dict[tuple[str, str], NativeFunction] = {
    ("vector", "empty"): _empty,
    ("vector", "length"): _length,
    ("vector", "borrow"): _borrow(False),
    ("vector", "borrow_mut"): _borrow(True),
    ("vector", "push_back"): _push_back,
    ("vector", "pop_back"): _pop_back,
    ("vector", "destroy_empty"): _destroy_empty,
    ("vector", "swap"): _swap,
    ("vector", "move_range"): _move_range,
    ("signer", "borrow_address"): _borrow_address,
    ("bcs", "to_bytes"): _to_bytes,
    ("hash", "sha2_256"): _hash("sha256"),
    ("hash", "sha3_256"): _hash("sha3_256"),
    ("string", "internal_check_utf8"): _check_utf8,
    ("string", "internal_is_char_boundary"): _is_char_boundary,
    ("string", "internal_sub_string"): _sub_string,
    ("string", "internal_index_of"): _index_of,
    ("type_info", "type_of"): _type_of,
    ("type_info", "type_name"): _type_name,
    ("event", "write_module_event_to_store"): _write_event,
}

#: The natives at ``0x1``, by (module, function).
NATIVES: Final[dict[tuple[str, str], NativeFunction]] = {k: checked(f) for k, f in _TABLE.items()}
