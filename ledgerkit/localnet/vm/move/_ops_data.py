"""The interpreter's data instructions: references, structs and enum variants, vectors,
global storage.

References are :class:`Reference` cells (see ``_values``). Struct instructions name a
struct definition of the running module, so the type packed or expected is known; an
unpack or a variant field borrow of the wrong variant is ``STRUCT_VARIANT_MISMATCH``.
Vector instructions fail with ``VECTOR_OPERATION_ERROR`` (sub-status: 1 index out of
bounds, 2 pop of an empty vector, 4 unpack of the wrong length). Global storage goes to
the host: a missing resource is ``MISSING_DATA``, a second ``move_to``
``RESOURCE_ALREADY_EXISTS``.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledgerkit.localnet.vm.move._format import ABILITY_COPY, ABILITY_DROP, ABILITY_KEY, Op
from ledgerkit.localnet.vm.move._interp_errors import (
    VEC_INDEX_OUT_OF_BOUNDS,
    VEC_POP_EMPTY,
    VEC_UNPACK_PARITY,
    MoveExecutionError,
    invariant,
)
from ledgerkit.localnet.vm.move._interp_gas import PACK_PER_FIELD
from ledgerkit.localnet.vm.move._runtime_types import (
    RuntimeType,
    StructType,
    instantiate,
    struct_type,
)
from ledgerkit.localnet.vm.move._values import (
    INVALID,
    Reference,
    StructValue,
    U64Value,
    VectorValue,
    abstract_size,
    check_depth,
    copy_value,
    value_abilities,
    value_has_type,
)

if TYPE_CHECKING:
    from ledgerkit.localnet.vm.move._format import CompiledModule
    from ledgerkit.localnet.vm.move._interpreter import Frame, Handler, Interpreter

__all__ = ["DATA_HANDLERS", "vector_error"]


def vector_error(sub_status: int, what: str) -> MoveExecutionError:
    return MoveExecutionError("VECTOR_OPERATION_ERROR", what, sub_status=sub_status)


def _module(frame: Frame) -> CompiledModule:
    from ledgerkit.localnet.vm.move._format import CompiledModule

    if not isinstance(frame.module, CompiledModule):
        raise invariant("a script defines no structs")
    return frame.module


def _type_args(frame: Frame, signature: int) -> tuple[RuntimeType, ...]:
    tokens = frame.module.signature(signature)
    return tuple(instantiate(frame.module, t, frame.type_args) for t in tokens)


def _def_type(frame: Frame, def_index: int, type_args: tuple[RuntimeType, ...]) -> StructType:
    sdef = _module(frame).struct_defs[def_index]
    return struct_type(frame.module, sdef.struct_handle, type_args)


def _generic_def(frame: Frame, inst_index: int) -> tuple[int, tuple[RuntimeType, ...]]:
    inst = _module(frame).struct_def_instantiations[inst_index]
    return inst.def_, _type_args(frame, inst.type_parameters)


# -- references ---------------------------------------------------------------------
def _borrow_loc(mutable: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        if not 0 <= arg < len(frame.locals) or frame.locals[arg] is INVALID:
            raise invariant(f"borrow of local {arg}, which holds no value")
        it.stack.append(Reference(frame.locals, arg, mutable))

    return handler


def _field_ref(
    it: Interpreter, frame: Frame, def_index: int, field: int, mutable: bool, variants: Any = None
) -> None:
    target = it.pop_struct_ref(frame, mutable=mutable)
    module = _module(frame)
    sdef = module.struct_defs[def_index]
    ty = target.ty
    if (ty.address, ty.module, ty.name) != (
        module.address,
        module.name,
        module.struct_name(sdef.struct_handle),
    ):
        raise invariant(f"field borrow on a {ty}")
    if variants is None and target.variant is not None:
        raise invariant("field borrow on an enum value")
    if variants is not None and target.variant not in variants:
        raise MoveExecutionError("STRUCT_VARIANT_MISMATCH", f"variant {target.variant}")
    if not 0 <= field < len(target.fields):
        raise invariant(f"field {field} of {ty}")
    it.stack.append(Reference(target.fields, field, mutable))


def _borrow_field(mutable: bool, generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        module = _module(frame)
        index = module.field_instantiations[arg].handle if generic else arg
        handle = module.field_handles[index]
        _field_ref(it, frame, handle.owner, handle.field, mutable)

    return handler


def _borrow_variant_field(mutable: bool, generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        module = _module(frame)
        index = module.variant_field_instantiations[arg].handle if generic else arg
        handle = module.variant_field_handles[index]
        _field_ref(it, frame, handle.struct_index, handle.field, mutable, handle.variants)

    return handler


def _read_ref(it: Interpreter, frame: Frame, arg: Any) -> None:
    value = it.pop_ref(frame).read()
    if not value_abilities(value) & ABILITY_COPY:
        raise invariant("read of a value without copy")
    it.charge_size(abstract_size(value))
    it.stack.append(copy_value(value))


def _write_ref(it: Interpreter, frame: Frame, arg: Any) -> None:
    ref = it.pop_ref(frame, mutable=True)
    value = it.pop(frame)
    if not value_abilities(ref.read()) & ABILITY_DROP:
        raise invariant("write over a value without drop")
    ref.write(value)


def _freeze_ref(it: Interpreter, frame: Frame, arg: Any) -> None:
    ref = it.pop_ref(frame, mutable=True)
    it.stack.append(Reference(ref.cell, ref.index, False))


# -- structs and variants -----------------------------------------------------------
def _pack_fields(it: Interpreter, frame: Frame, count: int) -> list[Any]:
    it.meter.charge(PACK_PER_FIELD * count)
    return it.pop_args(frame, count)


def _pack(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        def_index, type_args = _generic_def(frame, arg) if generic else (arg, ())
        sdef = _module(frame).struct_defs[def_index]
        if sdef.fields is None:
            raise invariant("pack of a native struct or an enum")
        value = StructValue(
            _def_type(frame, def_index, type_args), _pack_fields(it, frame, len(sdef.fields))
        )
        check_depth(value)
        it.stack.append(value)

    return handler


def _unpack(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        def_index, type_args = _generic_def(frame, arg) if generic else (arg, ())
        value = it.pop(frame)
        ty = _def_type(frame, def_index, type_args)
        if not isinstance(value, StructValue) or value.ty != ty or value.variant is not None:
            raise invariant(f"unpack of {value!r} as {ty}")
        it.meter.charge(PACK_PER_FIELD * len(value.fields))
        it.stack.extend(value.fields)

    return handler


def _variant(frame: Frame, arg: Any, generic: bool) -> tuple[StructType, int, int]:
    module = _module(frame)
    type_args: tuple[RuntimeType, ...] = ()
    if generic:
        inst = module.struct_variant_instantiations[arg]
        arg, type_args = inst.handle, _type_args(frame, inst.type_parameters)
    handle = module.struct_variant_handles[arg]
    variants = module.struct_defs[handle.struct_index].variants
    if variants is None or not 0 <= handle.variant < len(variants):
        raise invariant("variant of a struct that is not an enum")
    ty = _def_type(frame, handle.struct_index, type_args)
    return ty, handle.variant, len(variants[handle.variant].fields)


def _pack_variant(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        ty, variant, count = _variant(frame, arg, generic)
        value = StructValue(ty, _pack_fields(it, frame, count), variant)
        check_depth(value)
        it.stack.append(value)

    return handler


def _unpack_variant(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        ty, variant, _ = _variant(frame, arg, generic)
        value = it.pop(frame)
        if not isinstance(value, StructValue) or value.ty != ty:
            raise invariant(f"unpack of {value!r} as {ty}")
        if value.variant != variant:
            raise MoveExecutionError("STRUCT_VARIANT_MISMATCH", f"variant {value.variant}")
        it.meter.charge(PACK_PER_FIELD * len(value.fields))
        it.stack.extend(value.fields)

    return handler


def _test_variant(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        ty, variant, _ = _variant(frame, arg, generic)
        value = it.pop_struct_ref(frame)
        if value.ty != ty:
            raise invariant(f"variant test of {value!r} as {ty}")
        it.stack.append(value.variant == variant)

    return handler


# -- vectors ------------------------------------------------------------------------
def _index(it: Interpreter, frame: Frame, vector: VectorValue, index: int) -> int:
    if index >= len(vector.elems):
        raise vector_error(VEC_INDEX_OUT_OF_BOUNDS, f"index {index} of {len(vector.elems)}")
    return index


def _vec_pack(it: Interpreter, frame: Frame, arg: Any) -> None:
    signature, count = arg
    (elem,) = _type_args(frame, signature)
    if count > it.limits.max_vector_length:
        raise MoveExecutionError("MEMORY_LIMIT_EXCEEDED", f"vector of {count}")
    value = VectorValue(elem, _pack_fields(it, frame, count))
    if not all(value_has_type(v, elem) for v in value.elems):
        raise invariant(f"vector of {elem} packed from other values")
    check_depth(value)
    it.stack.append(value)


def _vec_len(it: Interpreter, frame: Frame, arg: Any) -> None:
    it.stack.append(U64Value(len(it.pop_vector_ref(frame).elems)))


def _vec_borrow(mutable: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        index = it.pop_u64(frame)
        vector = it.pop_vector_ref(frame, mutable=mutable)
        it.stack.append(Reference(vector.elems, _index(it, frame, vector, index), mutable))

    return handler


def _vec_push_back(it: Interpreter, frame: Frame, arg: Any) -> None:
    value = it.pop(frame)
    vector = it.pop_vector_ref(frame, mutable=True)
    if len(vector.elems) >= it.limits.max_vector_length:
        raise MoveExecutionError("MEMORY_LIMIT_EXCEEDED", "vector too long")
    if not value_has_type(value, vector.elem_type):
        raise invariant(f"push of {value!r} onto a vector of {vector.elem_type}")
    vector.elems.append(value)


def _vec_pop_back(it: Interpreter, frame: Frame, arg: Any) -> None:
    vector = it.pop_vector_ref(frame, mutable=True)
    if not vector.elems:
        raise vector_error(VEC_POP_EMPTY, "pop of an empty vector")
    it.stack.append(vector.elems.pop())


def _vec_unpack(it: Interpreter, frame: Frame, arg: Any) -> None:
    _, count = arg
    vector = it.pop(frame)
    if not isinstance(vector, VectorValue):
        raise invariant(f"vector unpack of {vector!r}")
    if len(vector.elems) != count:
        raise vector_error(VEC_UNPACK_PARITY, f"{len(vector.elems)} elements, not {count}")
    it.meter.charge(PACK_PER_FIELD * count)
    it.stack.extend(vector.elems)


def _vec_swap(it: Interpreter, frame: Frame, arg: Any) -> None:
    j = it.pop_u64(frame)
    i = it.pop_u64(frame)
    vector = it.pop_vector_ref(frame, mutable=True)
    _index(it, frame, vector, i)
    _index(it, frame, vector, j)
    elems = vector.elems
    elems[i], elems[j] = elems[j], elems[i]


# -- global storage -----------------------------------------------------------------
def _resource_type(frame: Frame, arg: Any, generic: bool) -> StructType:
    def_index, type_args = _generic_def(frame, arg) if generic else (arg, ())
    return _def_type(frame, def_index, type_args)


def _exists(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        ty = _resource_type(frame, arg, generic)
        it.stack.append(bool(it.host.resource_exists(it.pop_address(frame), ty)))

    return handler


def _borrow_global(mutable: bool, generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        ty = _resource_type(frame, arg, generic)
        address = it.pop_address(frame)
        value = it.host.borrow_resource(address, ty, mutable)
        if value is None:
            raise MoveExecutionError("MISSING_DATA", f"no {ty} at {address!r}")
        it.stack.append(Reference([value], 0, mutable))

    return handler


def _move_from(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        ty = _resource_type(frame, arg, generic)
        address = it.pop_address(frame)
        value = it.host.move_resource_from(address, ty)
        if value is None:
            raise MoveExecutionError("MISSING_DATA", f"no {ty} at {address!r}")
        it.stack.append(value)

    return handler


def _move_to(generic: bool) -> Handler:
    def handler(it: Interpreter, frame: Frame, arg: Any) -> None:
        ty = _resource_type(frame, arg, generic)
        value = it.pop(frame)
        signer = it.pop_signer(frame)
        if not isinstance(value, StructValue) or value.ty != ty or not ty.abilities & ABILITY_KEY:
            raise invariant(f"move_to of {value!r} as {ty}")
        if not it.host.move_resource_to(signer.address, ty, value):
            raise MoveExecutionError("RESOURCE_ALREADY_EXISTS", f"{ty} at {signer.address!r}")

    return handler


DATA_HANDLERS: dict[int, Handler] = {
    Op.IMM_BORROW_LOC: _borrow_loc(False),
    Op.MUT_BORROW_LOC: _borrow_loc(True),
    Op.IMM_BORROW_FIELD: _borrow_field(False, False),
    Op.MUT_BORROW_FIELD: _borrow_field(True, False),
    Op.IMM_BORROW_FIELD_GENERIC: _borrow_field(False, True),
    Op.MUT_BORROW_FIELD_GENERIC: _borrow_field(True, True),
    Op.IMM_BORROW_VARIANT_FIELD: _borrow_variant_field(False, False),
    Op.MUT_BORROW_VARIANT_FIELD: _borrow_variant_field(True, False),
    Op.IMM_BORROW_VARIANT_FIELD_GENERIC: _borrow_variant_field(False, True),
    Op.MUT_BORROW_VARIANT_FIELD_GENERIC: _borrow_variant_field(True, True),
    Op.READ_REF: _read_ref,
    Op.WRITE_REF: _write_ref,
    Op.FREEZE_REF: _freeze_ref,
    Op.PACK: _pack(False),
    Op.PACK_GENERIC: _pack(True),
    Op.UNPACK: _unpack(False),
    Op.UNPACK_GENERIC: _unpack(True),
    Op.PACK_VARIANT: _pack_variant(False),
    Op.PACK_VARIANT_GENERIC: _pack_variant(True),
    Op.UNPACK_VARIANT: _unpack_variant(False),
    Op.UNPACK_VARIANT_GENERIC: _unpack_variant(True),
    Op.TEST_VARIANT: _test_variant(False),
    Op.TEST_VARIANT_GENERIC: _test_variant(True),
    Op.VEC_PACK: _vec_pack,
    Op.VEC_LEN: _vec_len,
    Op.VEC_IMM_BORROW: _vec_borrow(False),
    Op.VEC_MUT_BORROW: _vec_borrow(True),
    Op.VEC_PUSH_BACK: _vec_push_back,
    Op.VEC_POP_BACK: _vec_pop_back,
    Op.VEC_UNPACK: _vec_unpack,
    Op.VEC_SWAP: _vec_swap,
    Op.EXISTS: _exists(False),
    Op.EXISTS_GENERIC: _exists(True),
    Op.IMM_BORROW_GLOBAL: _borrow_global(False, False),
    Op.MUT_BORROW_GLOBAL: _borrow_global(True, False),
    Op.IMM_BORROW_GLOBAL_GENERIC: _borrow_global(False, True),
    Op.MUT_BORROW_GLOBAL_GENERIC: _borrow_global(True, True),
    Op.MOVE_FROM: _move_from(False),
    Op.MOVE_FROM_GENERIC: _move_from(True),
    Op.MOVE_TO: _move_to(False),
    Op.MOVE_TO_GENERIC: _move_to(True),
}
