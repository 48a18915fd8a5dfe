"""The interpreter's function values (bytecode v8): ``PACK_CLOSURE(_GENERIC)`` and
``CALL_CLOSURE``.

A closure is a :class:`ClosureValue`: a function of the packing module and the values it
captured, one for each parameter whose bit is set in the mask (bit 0: the first
parameter), popped in parameter order. Its abilities are those of the function type
(copy, drop, store) that every captured value has. ``CALL_CLOSURE`` pops the closure
(pushed last) and the remaining arguments, puts the captured values back in their
parameter slots and calls the function as ``CALL`` does. Closures compare by function,
type arguments, mask and captured values; they cannot be serialized (``bcs::to_bytes`` or
storage of one is refused).

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledgerkit.localnet.vm.move._format import ABILITY_COPY, ABILITY_DROP, ABILITY_STORE, Op
from ledgerkit.localnet.vm.move._interp_errors import invariant
from ledgerkit.localnet.vm.move._interp_gas import PACK_PER_FIELD
from ledgerkit.localnet.vm.move._runtime_types import RuntimeType, instantiate
from ledgerkit.localnet.vm.move._values import ClosureValue, value_abilities

if TYPE_CHECKING:
    from ledgerkit.localnet.vm.move._interpreter import Frame, Handler, Interpreter

__all__ = ["CLOSURE_HANDLERS"]

_VALUE_ABILITIES = ABILITY_COPY | ABILITY_DROP | ABILITY_STORE


def _pack(
    it: Interpreter, frame: Frame, handle: int, targs: tuple[RuntimeType, ...], mask: int
) -> None:
    tables = frame.module
    n_params = len(tables.signature(tables.function_handles[handle].parameters))
    if not isinstance(mask, int) or mask < 0 or mask >> n_params:
        raise invariant(f"closure mask {mask!r} for {n_params} parameters")
    count = bin(mask).count("1")
    it.meter.charge(PACK_PER_FIELD * count)
    captured = it.pop_args(frame, count)
    abilities = _VALUE_ABILITIES
    for value in captured:
        abilities &= value_abilities(value)
    it.stack.append(ClosureValue(tables, handle, targs, mask, captured, abilities))


def _pack_closure(it: Interpreter, frame: Frame, arg: Any) -> None:
    handle, mask = arg
    _pack(it, frame, handle, (), mask)


def _pack_closure_generic(it: Interpreter, frame: Frame, arg: Any) -> None:
    index, mask = arg
    inst = frame.module.function_instantiations[index]
    tokens = frame.module.signature(inst.type_parameters)
    targs = tuple(instantiate(frame.module, t, frame.type_args) for t in tokens)
    _pack(it, frame, inst.handle, targs, mask)


def _call_closure(it: Interpreter, frame: Frame, arg: Any) -> None:
    closure = it.pop(frame)
    if not isinstance(closure, ClosureValue):
        raise invariant(f"call of {closure!r}, not a function value")
    tables = closure.tables
    n_params = len(tables.signature(tables.function_handles[closure.handle].parameters))
    provided = iter(it.pop_args(frame, n_params - len(closure.captured)))
    captured = iter(closure.captured)
    args = [next(captured) if closure.mask >> i & 1 else next(provided) for i in range(n_params)]
    it.stack.extend(args)
    it.call(frame, closure.handle, closure.type_args, tables)


CLOSURE_HANDLERS: dict[int, Handler] = {
    Op.PACK_CLOSURE: _pack_closure,
    Op.PACK_CLOSURE_GENERIC: _pack_closure_generic,
    Op.CALL_CLOSURE: _call_closure,
}
