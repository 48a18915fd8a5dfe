"""Framework functions (Move code at ``0x1`` on a network) that the interpreter runs
directly, because the node has the framework as Python bodies and no bytecode for it.

Published modules call ``0x1::string::utf8``, ``0x1::signer::address_of``,
``0x1::error::invalid_argument``, ``0x1::option::some``, ``0x1::vector::contains``,
``0x1::event::emit``... These are pure functions of their arguments (``event::emit``
hands its event to the host), so they are written here once, with the abort codes the
framework's Move code uses (``string``: 1 invalid UTF-8, 2 bad index; ``option``:
0x40000 set, 0x40001 not set; ``vector``: 0x20000 index out of bounds); an abort is
located in the framework module. :data:`PURE_FUNCTIONS` maps (module, function) to a
native-shaped function; the interpreter consults it before the host's bridge, and the
host may use it too.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.move._format import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_STORE,
    StructTypeParameter,
)
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError, invariant
from ledgerkit.localnet.vm.move._runtime_types import (
    RuntimeType,
    StructType,
    struct_abilities,
)
from ledgerkit.localnet.vm.move._stdlib_natives import (
    NATIVES,
    STD,
    STRING,
    Args,
    NativeContext,
    NativeFunction,
    TypeArgs,
    byte_string,
    bytes_value,
    checked,
    deref,
    is_char_boundary,
    u64_of,
    utf8_ok,
    vector_of,
)
from ledgerkit.localnet.vm.move._values import (
    Reference,
    SignerValue,
    StructValue,
    U64Value,
    Value,
    VectorValue,
    copy_value,
    values_equal,
)

__all__ = ["ERROR_CATEGORIES", "PURE_FUNCTIONS", "option_type"]

_ALL: Final = ABILITY_COPY | ABILITY_DROP | ABILITY_STORE
#: ``0x1::error`` categories, by function name.
ERROR_CATEGORIES: Final = {
    "invalid_argument": 0x1,
    "out_of_range": 0x2,
    "invalid_state": 0x3,
    "unauthenticated": 0x4,
    "permission_denied": 0x5,
    "not_found": 0x6,
    "aborted": 0x7,
    "already_exists": 0x8,
    "resource_exhausted": 0x9,
    "internal": 0xB,
    "not_implemented": 0xC,
    "unavailable": 0xD,
}
_EINVALID_UTF8: Final = 1
_EINVALID_INDEX: Final = 2
_EOPTION_IS_SET: Final = 0x40000
_EOPTION_NOT_SET: Final = 0x40001
_EOPTION_VEC_TOO_LONG: Final = 0x40002
_EINDEX_OUT_OF_BOUNDS: Final = 0x20000
_Args = Args
_TA = TypeArgs


def option_type(elem: RuntimeType) -> StructType:
    """``0x1::option::Option<elem>`` (declared copy, drop, store)."""
    abilities = struct_abilities(_ALL, (StructTypeParameter(0, False),), (elem,))
    return StructType(STD, "option", "Option", (elem,), abilities)


def _abort(module: str, function: str, code: int) -> MoveExecutionError:
    error = MoveExecutionError("ABORTED", f"{module}::{function}", abort_code=code)
    error.location, error.function = (STD, module), function
    return error


def _string(value: Value) -> bytes:
    target = deref(value) if isinstance(value, Reference) else value
    if not isinstance(target, StructValue) or target.ty != STRING:
        raise invariant(f"expected a String, got {target!r}")
    return byte_string(target.fields[0])


def _new_string(data: bytes) -> StructValue:
    return StructValue(STRING, [bytes_value(data)])


# -- string -----------------------------------------------------------------------------
def _utf8(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    data = byte_string(args[0])
    if not utf8_ok(data):
        raise _abort("string", "utf8", _EINVALID_UTF8)
    return [_new_string(data)]


def _try_utf8(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    data = byte_string(args[0])
    some = [_new_string(data)] if utf8_ok(data) else []
    return [StructValue(option_type(STRING), [VectorValue(STRING, some)])]


def _bytes(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    _string(args[0])
    return [Reference(deref(args[0]).fields, 0, False)]


def _into_bytes(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [bytes_value(_string(args[0]))]


def _str_length(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [U64Value(len(_string(args[0])))]


def _str_is_empty(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [not _string(args[0])]


def _append(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    _string(args[0])
    vector_of(deref(args[0]).fields[0]).elems.extend(bytes_value(_string(args[1])).elems)
    return []


def _append_utf8(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    data = byte_string(args[1])
    if not utf8_ok(data):
        raise _abort("string", "utf8", _EINVALID_UTF8)
    _string(args[0])
    vector_of(deref(args[0]).fields[0]).elems.extend(bytes_value(data).elems)
    return []


def _str_sub_string(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    data = _string(args[0])
    i, j = u64_of(args[1]), u64_of(args[2])
    if not (j <= len(data) and i <= j and is_char_boundary(data, i) and is_char_boundary(data, j)):
        raise _abort("string", "sub_string", _EINVALID_INDEX)
    return [_new_string(data[i:j])]


def _str_index_of(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    data, needle = _string(args[0]), _string(args[1])
    found = data.find(needle)
    return [U64Value(len(data) if found < 0 else found)]


# -- signer, error ----------------------------------------------------------------------
def _address_of(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    signer = deref(args[0])
    if not isinstance(signer, SignerValue):
        raise invariant("expected a signer")
    return [signer.address]


def _canonical(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [U64Value(((u64_of(args[0]) << 16) + u64_of(args[1])) & U64Value.MAX)]


def _category(category: int) -> NativeFunction:
    def code(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
        return [U64Value(((category << 16) + u64_of(args[0])) & U64Value.MAX)]

    return code


# -- option -----------------------------------------------------------------------------
def _option_vec(value: Value, ta: _TA) -> VectorValue:
    target = deref(value) if isinstance(value, Reference) else value
    if not isinstance(target, StructValue) or target.ty != option_type(ta[0]):
        raise invariant(f"expected an Option, got {target!r}")
    return vector_of(target.fields[0])


def _none(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [StructValue(option_type(ta[0]), [VectorValue(ta[0], [])])]


def _some(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [StructValue(option_type(ta[0]), [VectorValue(ta[0], [args[0]])])]


def _is_some(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [bool(_option_vec(args[0], ta).elems)]


def _is_none(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [not _option_vec(args[0], ta).elems]


def _opt_contains(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    elems = _option_vec(args[0], ta).elems
    return [bool(elems) and values_equal(elems[0], deref(args[1]))]


def _opt_borrow(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = _option_vec(args[0], ta)
    if not vector.elems:
        raise _abort("option", "borrow", _EOPTION_NOT_SET)
    return [Reference(vector.elems, 0, False)]


def _extract(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = _option_vec(vector_ref(args[0]), ta)
    if not vector.elems:
        raise _abort("option", "extract", _EOPTION_NOT_SET)
    return [vector.elems.pop()]


def vector_ref(value: Value) -> Value:
    if not (isinstance(value, Reference) and value.mutable):
        raise invariant("expected a mutable reference")
    return value


def _fill(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = _option_vec(vector_ref(args[0]), ta)
    if vector.elems:
        raise _abort("option", "fill", _EOPTION_IS_SET)
    vector.elems.append(args[1])
    return []


def _destroy_some(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = _option_vec(args[0], ta)
    if not vector.elems:
        raise _abort("option", "destroy_some", _EOPTION_NOT_SET)
    return [vector.elems[0]]


def _destroy_none(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    if _option_vec(args[0], ta).elems:
        raise _abort("option", "destroy_none", _EOPTION_IS_SET)
    return []


def _get_with_default(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    elems = _option_vec(args[0], ta).elems
    return [copy_value(elems[0]) if elems else args[1]]


def _opt_borrow_mut(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = _option_vec(vector_ref(args[0]), ta)
    if not vector.elems:
        raise _abort("option", "borrow_mut", _EOPTION_NOT_SET)
    return [Reference(vector.elems, 0, True)]


def _opt_swap(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = _option_vec(vector_ref(args[0]), ta)
    if not vector.elems:
        raise _abort("option", "swap", _EOPTION_NOT_SET)
    old, vector.elems[0] = vector.elems[0], args[1]
    return [old]


def _destroy_with_default(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    elems = _option_vec(args[0], ta).elems
    return [elems[0] if elems else args[1]]


def _borrow_with_default(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    elems = _option_vec(args[0], ta).elems
    return [Reference(elems, 0, False) if elems else args[1]]


def _to_vec(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [_option_vec(args[0], ta)]


def _from_vec(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = vector_of(args[0])
    if len(vector.elems) > 1:
        raise _abort("option", "from_vec", _EOPTION_VEC_TOO_LONG)
    return [StructValue(option_type(ta[0]), [vector])]


# -- vector (Move-level helpers) ---------------------------------------------------------
def _v_insert(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector = vector_of(args[0], mutable=True)
    i = u64_of(args[1])
    if i > len(vector.elems):
        raise _abort("vector", "insert", _EINDEX_OUT_OF_BOUNDS)
    if len(vector.elems) >= ctx.limits.max_vector_length:
        raise MoveExecutionError("MEMORY_LIMIT_EXCEEDED", "vector too long")
    vector.elems.insert(i, args[2])
    return []


def _v_is_empty(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [not vector_of(args[0]).elems]


def _v_contains(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    needle = deref(args[1])
    return [any(values_equal(e, needle) for e in vector_of(args[0]).elems)]


def _v_index_of(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    needle = deref(args[1])
    for i, e in enumerate(vector_of(args[0]).elems):
        if values_equal(e, needle):
            return [True, U64Value(i)]
    return [False, U64Value(0)]


def _v_append(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    target = vector_of(args[0], mutable=True)
    other = vector_of(args[1])
    if len(target.elems) + len(other.elems) > ctx.limits.max_vector_length:
        raise MoveExecutionError("MEMORY_LIMIT_EXCEEDED", "vector too long")
    target.elems.extend(other.elems)
    return []


def _v_reverse(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    vector_of(args[0], mutable=True).elems.reverse()
    return []


def _v_singleton(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return [VectorValue(ta[0], [args[0]])]


def _v_remove(swap: bool) -> NativeFunction:
    def remove(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
        vector = vector_of(args[0], mutable=True)
        i = u64_of(args[1])
        if i >= len(vector.elems):
            raise _abort("vector", "swap_remove" if swap else "remove", _EINDEX_OUT_OF_BOUNDS)
        if swap:
            vector.elems[i], vector.elems[-1] = vector.elems[-1], vector.elems[i]
            return [vector.elems.pop()]
        return [vector.elems.pop(i)]

    return remove


def _emit(ctx: NativeContext, ta: _TA, args: _Args) -> _Args:
    return NATIVES[("event", "write_module_event_to_store")](ctx, ta, args)


_TABLE: dict[tuple[str, str], NativeFunction] = {
    ("string", "utf8"): _utf8,
    ("string", "try_utf8"): _try_utf8,
    ("string", "bytes"): _bytes,
    ("string", "into_bytes"): _into_bytes,
    ("string", "length"): _str_length,
    ("string", "is_empty"): _str_is_empty,
    ("string", "append"): _append,
    ("string", "append_utf8"): _append_utf8,
    ("string", "sub_string"): _str_sub_string,
    ("string", "index_of"): _str_index_of,
    ("signer", "address_of"): _address_of,
    ("error", "canonical"): _canonical,
    **{("error", name): _category(code) for name, code in ERROR_CATEGORIES.items()},
    ("option", "none"): _none,
    ("option", "some"): _some,
    ("option", "is_some"): _is_some,
    ("option", "is_none"): _is_none,
    ("option", "contains"): _opt_contains,
    ("option", "borrow"): _opt_borrow,
    ("option", "extract"): _extract,
    ("option", "fill"): _fill,
    ("option", "destroy_some"): _destroy_some,
    ("option", "destroy_none"): _destroy_none,
    ("option", "get_with_default"): _get_with_default,
    ("option", "borrow_mut"): _opt_borrow_mut,
    ("option", "swap"): _opt_swap,
    ("option", "destroy_with_default"): _destroy_with_default,
    ("option", "borrow_with_default"): _borrow_with_default,
    ("option", "to_vec"): _to_vec,
    ("option", "from_vec"): _from_vec,
    ("vector", "insert"): _v_insert,
    ("vector", "is_empty"): _v_is_empty,
    ("vector", "contains"): _v_contains,
    ("vector", "index_of"): _v_index_of,
    ("vector", "append"): _v_append,
    ("vector", "reverse"): _v_reverse,
    ("vector", "singleton"): _v_singleton,
    ("vector", "remove"): _v_remove(False),
    ("vector", "swap_remove"): _v_remove(True),
    ("event", "emit"): _emit,
}

#: Framework functions at ``0x1`` run here, by (module, function).
PURE_FUNCTIONS: Final[dict[tuple[str, str], NativeFunction]] = {
    k: checked(f) for k, f in _TABLE.items()
}
