"""The Move bytecode interpreter: call frames, the operand stack, calls and returns.

The node runs published Move modules and scripts with this interpreter: no Move VM can
be installed from the package registries, so it follows aptos-core's
``move-vm/runtime/src/interpreter.rs`` (facts only: instruction semantics, statuses,
limits) in our own code. It runs every instruction of bytecode versions 6, 7 (enums), 8
(closures: ``PACK_CLOSURE*``, ``CALL_CLOSURE``), 9 (signed integers) and ``ABORT_MSG``
of 10. Function values cannot be stored or serialized yet (their BCS is refused).

There is no bytecode verifier: every instruction checks what it pops (types, widths,
references, abilities where it matters), and what a verifier would have refused ends
with ``UNKNOWN_INVARIANT_VIOLATION_ERROR`` rather than a Python exception. One operand
stack serves all frames, as on a node; each frame owns the part above its base.

A call goes, in order, to: a function of the calling module; a native of the standard
library the interpreter runs itself (``_stdlib_natives``); a framework function it
implements directly (``_framework_pure``); a module the host has published; and, for the
framework addresses (0x1, 0x3, 0x4) whose Move code the node does not have, the host's
:meth:`MoveHost.call_framework`. The entry points are in ``_entry``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import MoveAbortError, VMStatusError
from ledgerkit.localnet.vm.move._format import (
    VISIBILITY_PRIVATE,
    CompiledModule,
    CompiledScript,
    FunctionDefinition,
    Instruction,
)
from ledgerkit.localnet.vm.move._framework_pure import PURE_FUNCTIONS
from ledgerkit.localnet.vm.move._host import Limits, MoveHost
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError, invariant
from ledgerkit.localnet.vm.move._interp_gas import (
    CALL_GENERIC_PER_TY_ARG,
    CALL_PER_ARG,
    CALL_PER_LOCAL,
    INSTRUCTION_GAS,
    PER_ABSTRACT_VALUE_UNIT,
    GasMeter,
)
from ledgerkit.localnet.vm.move._runtime_types import RuntimeType
from ledgerkit.localnet.vm.move._stdlib_natives import NATIVES, NativeFunction
from ledgerkit.localnet.vm.move._values import (
    INVALID,
    AddressValue,
    MoveInt,
    Reference,
    SignerValue,
    StructValue,
    U64Value,
    Value,
    VectorValue,
    value_abilities,
)

__all__ = ["Frame", "Interpreter"]

FRAMEWORK_ADDRESSES: Final = frozenset(bytes(31) + bytes([n]) for n in (1, 3, 4))
_DROP: Final = 0x2
Tables = CompiledModule | CompiledScript
Handler = Callable[["Interpreter", "Frame", Any], None]
#: What a call resolves to: bytecode, a native run here, or None (the host's bridge).
Target = tuple[CompiledModule, FunctionDefinition] | NativeFunction | None
#: Python errors that can only come from malformed bytecode reaching a container.
BYTECODE_FAULTS: Final = (IndexError, KeyError, TypeError, ValueError, AttributeError)


class Frame:
    """One function's activation: its code, locals, type arguments and position."""

    __slots__ = ("base", "code", "function", "locals", "module", "n_returns", "pc", "type_args")

    def __init__(
        self,
        module: Tables,
        function: str,
        code: tuple[Instruction, ...],
        locals_: list[Value],
        type_args: tuple[RuntimeType, ...],
        base: int,
        n_returns: int,
    ) -> None:
        self.module = module
        self.function = function
        self.code = code
        self.locals = locals_
        self.type_args = type_args
        self.base = base
        self.n_returns = n_returns
        self.pc = 0


class Interpreter:
    """Runs one execution against ``host``, charging ``meter``."""

    def __init__(self, host: MoveHost, meter: GasMeter, limits: Limits) -> None:
        self.host = host
        self.meter = meter
        self.limits = limits
        self.stack: list[Value] = []
        self.frames: list[Frame] = []
        self.steps = 0
        self._modules: dict[tuple[bytes, str], CompiledModule | None] = {}
        self._targets: dict[tuple[bytes, str, str, bool], Target] = {}

    # -- operand stack -------------------------------------------------------------
    def pop(self, frame: Frame) -> Value:
        if len(self.stack) <= frame.base:
            raise MoveExecutionError("EMPTY_VALUE_STACK", "pop below the frame's stack")
        return self.stack.pop()

    def pop_int(self, frame: Frame) -> MoveInt:
        value = self.pop(frame)
        if not isinstance(value, MoveInt):
            raise invariant(f"expected an integer, got {value!r}")
        return value

    def pop_u64(self, frame: Frame) -> int:
        value = self.pop(frame)
        if type(value) is not U64Value:
            raise invariant(f"expected a u64, got {value!r}")
        return int(value)

    def pop_bool(self, frame: Frame) -> bool:
        value = self.pop(frame)
        if type(value) is not bool:
            raise invariant(f"expected a bool, got {value!r}")
        return value

    def pop_address(self, frame: Frame) -> AddressValue:
        value = self.pop(frame)
        if not isinstance(value, AddressValue):
            raise invariant(f"expected an address, got {value!r}")
        return value

    def pop_ref(self, frame: Frame, *, mutable: bool = False) -> Reference:
        value = self.pop(frame)
        if not isinstance(value, Reference):
            raise invariant(f"expected a reference, got {value!r}")
        if mutable and not value.mutable:
            raise invariant("expected a mutable reference")
        return value

    def pop_struct_ref(self, frame: Frame, *, mutable: bool = False) -> StructValue:
        target = self.pop_ref(frame, mutable=mutable).read()
        if not isinstance(target, StructValue):
            raise invariant(f"expected a struct reference, got {target!r}")
        return target

    def pop_vector_ref(self, frame: Frame, *, mutable: bool = False) -> VectorValue:
        target = self.pop_ref(frame, mutable=mutable).read()
        if not isinstance(target, VectorValue):
            raise invariant(f"expected a vector reference, got {target!r}")
        return target

    def pop_signer(self, frame: Frame) -> SignerValue:
        target = self.pop_ref(frame).read()
        if not isinstance(target, SignerValue):
            raise invariant(f"expected a signer reference, got {target!r}")
        return target

    def pop_args(self, frame: Frame, count: int) -> list[Value]:
        if len(self.stack) - frame.base < count:
            raise MoveExecutionError("EMPTY_VALUE_STACK", f"call needs {count} arguments")
        args = self.stack[len(self.stack) - count :]
        del self.stack[len(self.stack) - count :]
        return args

    def charge_size(self, size: int) -> None:
        """Charge the gas of handling a value of abstract ``size``, and count it against
        the instruction bound too (one instruction per 64 units), so that copying large
        values over and over ends as soon as running many instructions would."""
        self.meter.charge(PER_ABSTRACT_VALUE_UNIT * size)
        self.steps += size >> 6

    # -- the loop ------------------------------------------------------------------
    def run(self) -> list[Value]:
        """Run until the entry frame returns; its results."""
        from ledgerkit.localnet.vm.move._ops_closures import CLOSURE_HANDLERS
        from ledgerkit.localnet.vm.move._ops_data import DATA_HANDLERS
        from ledgerkit.localnet.vm.move._ops_scalar import SCALAR_HANDLERS

        handlers: dict[int, Handler] = {**SCALAR_HANDLERS, **DATA_HANDLERS, **CLOSURE_HANDLERS}
        frames, stack, frame = self.frames, self.stack, self.frames[-1]
        try:
            while frames:
                frame = frames[-1]
                self._run_frame(frame, handlers, len(frames), stack)
        except MoveExecutionError as error:
            _locate(error, frame)
            raise
        except RecursionError as error:
            deep = MoveExecutionError("VM_MAX_VALUE_DEPTH_REACHED", "too deep")
            raise _located(deep, frame) from error
        except BYTECODE_FAULTS as error:
            raise _located(invariant(f"{type(error).__name__}: {error}"), frame) from error
        return self.stack[:]

    def _run_frame(
        self, frame: Frame, handlers: dict[int, Handler], depth: int, stack: list[Value]
    ) -> None:
        """Run ``frame`` until it calls or returns (the frame stack changes)."""
        gas, meter, frames = INSTRUCTION_GAS, self.meter, self.frames
        code, budget, max_stack = frame.code, meter.budget, self.limits.max_stack
        size = len(code)
        while len(frames) == depth:
            pc = frame.pc
            if not 0 <= pc < size:
                raise MoveExecutionError("PC_OVERFLOW", f"pc {pc} outside the code")
            op, arg = code[pc]
            frame.pc = pc + 1
            meter.used += gas.get(op, 0)
            if meter.used > budget:
                meter.charge(0)
            self.steps += 1
            if self.steps > self.limits.max_steps:
                raise MoveExecutionError("EXECUTION_LIMIT_REACHED", "too many instructions")
            handler = handlers.get(op)
            if handler is None:
                raise MoveExecutionError("UNKNOWN_OPCODE", f"opcode {op:#x}")
            handler(self, frame, arg)
            if len(stack) > max_stack:
                raise MoveExecutionError("EXECUTION_STACK_OVERFLOW", "operand stack full")

    # -- calls ---------------------------------------------------------------------
    def push_frame(
        self,
        module: Tables,
        name: str,
        code: tuple[Instruction, ...],
        args: list[Value],
        n_locals: int,
        type_args: tuple[RuntimeType, ...],
        n_returns: int,
    ) -> None:
        if len(self.frames) >= self.limits.max_call_depth:
            raise MoveExecutionError("CALL_STACK_OVERFLOW", f"{len(self.frames)} frames")
        self.meter.charge(CALL_PER_ARG * len(args) + CALL_PER_LOCAL * n_locals)
        locals_ = args + [INVALID] * n_locals
        self.frames.append(
            Frame(module, name, code, locals_, type_args, len(self.stack), n_returns)
        )

    def call(
        self,
        frame: Frame,
        handle_index: int,
        type_args: tuple[RuntimeType, ...],
        tables: Tables | None = None,
    ) -> None:
        """Call function handle ``handle_index`` of ``tables`` (default: the frame's
        module), its arguments on the frame's stack."""
        tables = tables or frame.module
        handle = tables.function_handles[handle_index]
        if len(type_args) != len(handle.type_parameters):
            raise MoveExecutionError("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", "call")
        if type_args:
            self.meter.charge(CALL_GENERIC_PER_TY_ARG * len(type_args))
        address, module_name = tables.module_id(handle.module)
        name = tables.function_name(handle_index)
        n_params = len(tables.signature(handle.parameters))
        n_returns = len(tables.signature(handle.return_))
        own = isinstance(tables, CompiledModule) and (tables.address, tables.name) == (
            address,
            module_name,
        )
        key = (address, module_name, name, own)
        if key in self._targets:
            target = self._targets[key]
        else:
            target = self._resolve(tables if own else None, address, module_name, name)
            self._targets[key] = target
        if isinstance(target, tuple):
            module, fdef = target
            assert fdef.code is not None
            n_locals = len(module.signature(fdef.code.locals))
            args = self.pop_args(frame, n_params)
            self.push_frame(module, name, fdef.code.code, args, n_locals, type_args, n_returns)
            return
        args = self.pop_args(frame, n_params)
        if target is None:
            results = self._bridge(address, module_name, name, type_args, args)
        else:
            results = target(self, type_args, args)
        if len(results) != n_returns:
            raise invariant(f"{module_name}::{name} returned {len(results)} values")
        self.stack.extend(results)

    def _resolve(self, own: Tables | None, address: bytes, module_name: str, name: str) -> Target:
        """A bytecode function, a native run here, or None: the host's bridge."""
        if isinstance(own, CompiledModule):
            fdef = own.find_function_def(name)
            if fdef is None:
                raise MoveExecutionError("FUNCTION_RESOLUTION_FAILURE", name)
            return self._bytecode_or_native(own, fdef, address, module_name, name)
        if address == bytes(31) + b"\x01":
            native = NATIVES.get((module_name, name)) or PURE_FUNCTIONS.get((module_name, name))
            if native is not None:
                return native
        module = self.load_module(address, module_name)
        if module is None:
            if address in FRAMEWORK_ADDRESSES:
                return None
            raise MoveExecutionError("LINKER_ERROR", f"no module {module_name}")
        fdef = module.find_function_def(name)
        if fdef is None:
            raise MoveExecutionError("FUNCTION_RESOLUTION_FAILURE", f"{module_name}::{name}")
        if fdef.visibility == VISIBILITY_PRIVATE:
            raise MoveExecutionError(
                "FUNCTION_RESOLUTION_FAILURE", f"{module_name}::{name} is private"
            )
        return self._bytecode_or_native(module, fdef, address, module_name, name)

    def _bytecode_or_native(
        self, module: CompiledModule, fdef: FunctionDefinition, address: bytes, mod: str, name: str
    ) -> Target:
        if fdef.code is not None:
            return module, fdef
        if address == bytes(31) + b"\x01" and (mod, name) in NATIVES:
            return NATIVES[(mod, name)]
        if address in FRAMEWORK_ADDRESSES:
            return None
        raise MoveExecutionError("MISSING_DEPENDENCY", f"native {mod}::{name}")

    def load_module(self, address: bytes, name: str) -> CompiledModule | None:
        key = (address, name)
        if key not in self._modules:
            self._modules[key] = self.host.load_module(address, name)
        return self._modules[key]

    def _bridge(
        self,
        address: bytes,
        module: str,
        name: str,
        type_args: tuple[RuntimeType, ...],
        args: list[Value],
    ) -> list[Value]:
        try:
            results = self.host.call_framework(address, module, name, type_args, args, self.meter)
        except MoveAbortError as abort:
            error = MoveExecutionError("ABORTED", str(abort), abort_code=abort.code)
            error.location, error.function = (address, module), name
            raise error from abort
        except MoveExecutionError:
            raise
        except VMStatusError as failure:
            raise MoveExecutionError(failure.status, str(failure)) from failure
        if results is None:
            raise MoveExecutionError("LINKER_ERROR", f"no framework function {module}::{name}")
        return results

    def ret(self, frame: Frame) -> None:
        if len(self.stack) != frame.base + frame.n_returns:
            raise invariant(f"return leaves {len(self.stack) - frame.base} values")
        for value in frame.locals:
            if value is not INVALID and not value_abilities(value) & _DROP:
                raise invariant("a value without drop left in a local at return")
        self.frames.pop()


def _locate(error: MoveExecutionError, frame: Frame) -> None:
    if error.location is None and error.function is None:
        module = frame.module
        if isinstance(module, CompiledModule):
            error.location = (module.address, module.name)
        error.function = frame.function
        error.offset = frame.pc - 1


def _located(error: MoveExecutionError, frame: Frame) -> MoveExecutionError:
    _locate(error, frame)
    return error
