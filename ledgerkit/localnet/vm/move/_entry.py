"""The Move interpreter's entry points: :func:`execute_function` and
:func:`execute_script`.

They check what the caller hands over (the function exists and is not native, the
numbers of type arguments and arguments, each argument's type, and on the way out each
result's type) and run an :class:`Interpreter` to the end. The node turns transaction
payloads and view requests into these calls.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ledgerkit.localnet.vm.move._format import CompiledModule, CompiledScript, SignatureToken
from ledgerkit.localnet.vm.move._host import Limits, MoveHost
from ledgerkit.localnet.vm.move._interp_errors import INVARIANT, MoveExecutionError, invariant
from ledgerkit.localnet.vm.move._interp_gas import GasMeter
from ledgerkit.localnet.vm.move._interpreter import BYTECODE_FAULTS, Interpreter, Tables
from ledgerkit.localnet.vm.move._runtime_types import RuntimeType, instantiate, type_name
from ledgerkit.localnet.vm.move._values import Value, value_has_type

__all__ = ["execute_function", "execute_script"]


def _check_arity(
    expected_types: int, type_args: Sequence[RuntimeType], expected: int, args: Sequence[Value]
) -> None:
    if len(type_args) != expected_types:
        raise MoveExecutionError(
            "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH", f"expected {expected_types} type arguments"
        )
    if len(args) != expected:
        raise MoveExecutionError("NUMBER_OF_ARGUMENTS_MISMATCH", f"expected {expected} arguments")


def _check_types(
    tables: Tables,
    params: Sequence[SignatureToken],
    type_args: Sequence[RuntimeType],
    args: Sequence[Value],
) -> None:
    for index, (token, arg) in enumerate(zip(params, args, strict=True)):
        ty = instantiate(tables, token, type_args)
        if not value_has_type(arg, ty):
            raise MoveExecutionError("TYPE_MISMATCH", f"argument {index} is not a {type_name(ty)}")


def execute_function(
    host: MoveHost,
    module: CompiledModule,
    function: str,
    type_args: Sequence[RuntimeType],
    args: Sequence[Value],
    *,
    meter: GasMeter,
    limits: Limits | None = None,
) -> list[Value]:
    """Run ``module::function<type_args>(args)``; its return values (checked against
    the declared return types).

    ``args`` are interpreter values (``U64Value(5)``, ``AddressValue(...)``, a signer as
    ``Reference([SignerValue(address)], 0, False)`` for ``&signer``); every failure is a
    :class:`MoveExecutionError` with the VM status. Visibility (entry, view) and the
    arguments' types are the caller's to check.
    """
    it = Interpreter(host, meter, limits or Limits())
    try:
        fdef = module.find_function_def(function)
        if fdef is None:
            raise MoveExecutionError("FUNCTION_RESOLUTION_FAILURE", f"{module.name}::{function}")
        handle = module.function_handles[fdef.function]
        n_params = len(module.signature(handle.parameters))
        _check_arity(len(handle.type_parameters), type_args, n_params, args)
        if fdef.code is None:
            raise MoveExecutionError(INVARIANT, f"{function} is native")
        _check_types(module, module.signature(handle.parameters), type_args, args)
        n_returns = len(module.signature(handle.return_))
        n_locals = len(module.signature(fdef.code.locals))
        code = fdef.code.code
    except BYTECODE_FAULTS as error:
        raise invariant(f"{type(error).__name__}: {error}") from error
    it.push_frame(module, function, code, list(args), n_locals, tuple(type_args), n_returns)
    results = it.run()
    for token, value in zip(module.signature(handle.return_), results, strict=True):
        if not value_has_type(value, instantiate(module, token, type_args)):
            raise invariant(f"{function} returned {value!r}, not its declared type")
    return results


def execute_script(
    host: MoveHost,
    script: CompiledScript,
    type_args: Sequence[RuntimeType],
    args: Sequence[Value],
    *,
    meter: GasMeter,
    limits: Limits | None = None,
) -> None:
    """Run a script's code with ``type_args`` and ``args`` (signers first)."""
    it = Interpreter(host, meter, limits or Limits())
    try:
        n_params = len(script.signature(script.parameters))
        _check_arity(len(script.type_parameters), type_args, n_params, args)
        _check_types(script, script.signature(script.parameters), type_args, args)
        n_locals = len(script.signature(script.code.locals))
    except BYTECODE_FAULTS as error:
        raise invariant(f"{type(error).__name__}: {error}") from error
    it.push_frame(script, "main", script.code.code, list(args), n_locals, tuple(type_args), 0)
    it.run()
