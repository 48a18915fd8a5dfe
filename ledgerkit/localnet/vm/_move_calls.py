"""Published Move code in transactions and views: entry functions, scripts, views and
``init_module``, run by the node's own interpreter (``vm.move``) over a
:class:`~._node_host.NodeHost`.

Each does a node's checks before running anything: the module exists
(``LINKER_ERROR``), the function too (``FUNCTION_RESOLUTION_FAILURE``) and is an entry
function (``EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION``) or a view; type
arguments (their number, then each one's abilities against its parameter's
constraints: ``CONSTRAINT_NOT_SATISFIED``); the leading ``signer`` / ``&signer``
parameters, one per signer of the transaction; the other arguments, read from their BCS
per the parameter types (``FAILED_TO_DESERIALIZE_ARGUMENT``), of the types a node
accepts as transaction arguments: primitives, vectors of them, ``String``, ``Object<T>``,
``Option<T>``, ``FixedPoint32``/``FixedPoint64``, nested in vectors and options.

Gas: the interpreter's :class:`GasMeter` (internal units, a budget of the transaction's
``max_gas_amount``) counts the code run; what it used is added to the transaction's
execution gas (rounded up to whole gas units) whether the code succeeded or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ledgerkit.bcs import Script, ScriptArgument
from ledgerkit.localnet.vm._gas_schedule import (
    DEPENDENCY_PER_BYTE,
    DEPENDENCY_PER_MODULE,
    GAS_UNIT_SCALING_FACTOR,
)
from ledgerkit.localnet.vm._move_json import from_json, to_json
from ledgerkit.localnet.vm._node_host import FRAMEWORK_ADDRESSES, NodeHost, tag_text
from ledgerkit.localnet.vm.framework import (
    MODULE,
    OBJECT_CORE,
    Context,
    MoveAbortError,
    VMStatusError,
)
from ledgerkit.localnet.vm.move import (
    ABILITY_KEY,
    AddressValue,
    CompiledModule,
    CompiledScript,
    GasMeter,
    MoveExecutionError,
    Reference,
    RuntimeType,
    SignerValue,
    StructType,
    Value,
    VectorType,
    VectorValue,
    abilities_of,
    decode_bcs,
    encode_bcs,
    execute_function,
    execute_script,
    instantiate,
    read_script,
    runtime_metadata,
    stored_module_abort,
)
from ledgerkit.types import Address, EntryFunctionId, MoveType

__all__ = [
    "is_published",
    "move_status",
    "run_init_modules",
    "run_published_entry",
    "run_published_script",
    "run_published_view",
]

_ONE: Final = bytes(31) + b"\x01"
#: Struct types a transaction may pass as arguments, with their fields' types.
_ARGUMENT_STRUCTS: Final = {
    ("string", "String"),
    ("option", "Option"),
    ("object", "Object"),
    ("fixed_point32", "FixedPoint32"),
    ("fixed_point64", "FixedPoint64"),
}


#: Statuses a node reports as ``Execution failed in <function> at code offset <n>``.
EXECUTION_FAILURES: Final = frozenset(
    (
        "ARITHMETIC_ERROR",
        "MISSING_DATA",
        "RESOURCE_ALREADY_EXISTS",
        "RESOURCE_DOES_NOT_EXIST",
        "VECTOR_OPERATION_ERROR",
        "EXECUTION_STACK_OVERFLOW",
        "CALL_STACK_OVERFLOW",
        "VM_MAX_VALUE_DEPTH_REACHED",
    )
)


def move_status(ctx: Context, failure: MoveExecutionError) -> str:
    """The ``vm_status`` text of a transaction whose Move code failed so: a framework
    abort keeps its name, a published module's abort is named from its error map, an
    execution failure says where (aptos-core's ``explain_vm_status`` wording); other
    statuses are their names."""
    cause = failure.__cause__
    if isinstance(cause, MoveAbortError):
        return cause.vm_status
    if failure.status == "OUT_OF_GAS":
        return "Out of gas"
    code = failure.abort_code
    if failure.status == "ABORTED" and code is not None:
        if failure.location is None:
            return f"Move abort: code {code:#x}"
        address, name = failure.location
        stored = ctx.module_code(Address(address), name)
        return stored_module_abort(address, name, stored, code).vm_status
    if failure.status in EXECUTION_FAILURES:
        where = "script"
        if failure.location is not None:
            address, name = failure.location
            where = f"{Address(address).short}::{name}::{failure.function}"
        return f"Execution failed in {where} at code offset {failure.offset}"
    return failure.status


def is_published(fid: EntryFunctionId) -> bool:
    """Whether ``fid`` names a module outside the framework's addresses."""
    return bytes(fid.address) not in FRAMEWORK_ADDRESSES


def _argument_layout(ty: StructType) -> Sequence[RuntimeType] | None:
    if ty.address != _ONE:
        return None
    if (ty.module, ty.name) == ("object", "Object"):
        return ("address",)
    if (ty.module, ty.name) == ("fixed_point32", "FixedPoint32"):
        return ("u64",)
    if (ty.module, ty.name) == ("fixed_point64", "FixedPoint64"):
        return ("u128",)
    return None


def _allowed(ty: RuntimeType) -> bool:
    if isinstance(ty, str):
        return ty != "signer"
    if isinstance(ty, VectorType):
        return _allowed(ty.elem)
    if isinstance(ty, StructType):
        if ty.address != _ONE or (ty.module, ty.name) not in _ARGUMENT_STRUCTS:
            return False
        return ty.name != "Option" or _allowed(ty.type_args[0])
    return False


def _valid_utf8(value: Value) -> bool:
    if isinstance(value, VectorValue):
        return all(_valid_utf8(v) for v in value.elems)
    fields = getattr(value, "fields", None)
    if fields is None:
        return True
    ty = value.ty
    if ty.address == _ONE and (ty.module, ty.name) == ("string", "String"):
        try:
            bytes(fields[0].elems).decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True
    return all(_valid_utf8(v) for v in fields)


def _decode_argument(ty: RuntimeType, raw: bytes) -> Value:
    if not _allowed(ty):
        raise VMStatusError("INVALID_MAIN_FUNCTION_SIGNATURE", "argument type not allowed")
    try:
        value = decode_bcs(ty, raw, _argument_layout)
    except MoveExecutionError as error:
        raise VMStatusError("FAILED_TO_DESERIALIZE_ARGUMENT", error.message) from None
    if not _valid_utf8(value):
        raise VMStatusError("FAILED_TO_DESERIALIZE_ARGUMENT", "a String that is not UTF-8")
    return value


def _signer_count(params: Sequence[Any]) -> int:
    count = 0
    for token in params:
        if token == ("signer",) or token == ("ref", ("signer",)):
            count += 1
        else:
            break
    return count


def _signer_values(params: Sequence[Any], signers: Sequence[Address]) -> list[Value]:
    out: list[Value] = []
    for token, address in zip(params, signers, strict=False):
        signer = SignerValue(AddressValue(bytes(address)))
        out.append(signer if token == ("signer",) else Reference([signer], 0, False))
    return out


def _type_args(
    host: NodeHost, constraints: Sequence[int], type_args: Sequence[MoveType]
) -> tuple[RuntimeType, ...]:
    if len(type_args) != len(constraints):
        raise VMStatusError("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH")
    types = tuple(host.runtime_type(t) for t in type_args)
    for required, ty in zip(constraints, types, strict=True):
        have = abilities_of(ty)
        if required & ABILITY_KEY and not (
            isinstance(ty, StructType) and ty.abilities & ABILITY_KEY
        ):
            raise VMStatusError("CONSTRAINT_NOT_SATISFIED")
        if required & ~ABILITY_KEY & ~have:
            raise VMStatusError("CONSTRAINT_NOT_SATISFIED")
    return types


def _check_objects(host: NodeHost, value: Value) -> None:
    """An ``Object<T>`` argument is built as ``object::address_to_object<T>`` builds it:
    ``ObjectCore`` at the address (else ``EOBJECT_DOES_NOT_EXIST``), then a ``T``
    (else ``ERESOURCE_DOES_NOT_EXIST``), nested in vectors and options too."""
    if isinstance(value, VectorValue):
        for v in value.elems:
            _check_objects(host, v)
        return
    ty = getattr(value, "ty", None)
    if not isinstance(ty, StructType) or ty.address != _ONE:
        return
    if (ty.module, ty.name) != ("object", "Object"):
        for v in value.fields:
            _check_objects(host, v)
        return
    address = bytes(value.fields[0])
    if not host.ctx.exists(Address(address), OBJECT_CORE):
        raise MoveAbortError("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    inner = ty.type_args[0]
    if isinstance(inner, StructType) and inner.address in FRAMEWORK_ADDRESSES:
        present = host.ctx.exists(Address(address), tag_text(inner))
    else:
        present = isinstance(inner, StructType) and host.resource_exists(address, inner)
    if not present:
        raise MoveAbortError("object", 0x60007, "ERESOURCE_DOES_NOT_EXIST")


def _arguments(
    host: NodeHost,
    tables: CompiledModule | CompiledScript,
    params: Sequence[Any],
    type_args: tuple[RuntimeType, ...],
    signers: Sequence[Address],
    raw_args: Sequence[bytes],
    *,
    view: bool = False,
) -> list[Value]:
    count = _signer_count(params)
    if len(params) - count != len(raw_args):
        raise VMStatusError("NUMBER_OF_ARGUMENTS_MISMATCH")
    if view and count:
        raise VMStatusError("INVALID_MAIN_FUNCTION_SIGNATURE", "a view takes no signer")
    if count and count != len(signers):
        raise VMStatusError("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH")
    values = _signer_values(params[:count], signers)
    for token, raw in zip(params[count:], raw_args, strict=True):
        value = _decode_argument(instantiate(tables, token, type_args), raw)
        _check_objects(host, value)
        values.append(value)
    return values


def _settle(ctx: Context, meter: GasMeter, host: NodeHost) -> None:
    """Add what the interpreter used, and the dependency gas of the published modules
    loaded, to the transaction's execution gas."""
    dependencies = sum(DEPENDENCY_PER_MODULE + DEPENDENCY_PER_BYTE * n for n in host.loaded)
    ctx.charge(-(-(meter.used + dependencies) // GAS_UNIT_SCALING_FACTOR))


def _function(host: NodeHost, fid: EntryFunctionId) -> tuple[CompiledModule, Any, Any]:
    module = host.load_module(bytes(fid.address), fid.module.name)
    if module is None:
        raise VMStatusError("LINKER_ERROR", f"no module {fid.module}")
    fdef = module.find_function_def(fid.name)
    if fdef is None:
        raise VMStatusError("FUNCTION_RESOLUTION_FAILURE", f"no function {fid}")
    return module, fdef, module.function_handles[fdef.function]


def run_published_entry(
    ctx: Context,
    fid: EntryFunctionId,
    type_args: Sequence[MoveType],
    raw_args: Sequence[bytes],
    *,
    max_gas_amount: int,
) -> None:
    """Run entry function ``fid`` of a published module with the context's signers."""
    host = NodeHost(ctx)
    ctx.calls = 0  # its code is metered; framework bodies it reaches count
    module, fdef, handle = _function(host, fid)
    if not fdef.is_entry:
        raise VMStatusError("EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION")
    types = _type_args(host, handle.type_parameters, type_args)
    params = module.signature(handle.parameters)
    args = _arguments(host, module, params, types, ctx.signers, raw_args)
    meter = GasMeter(max_gas_amount * GAS_UNIT_SCALING_FACTOR)
    try:
        execute_function(host, module, fid.name, types, args, meter=meter)
    finally:
        _settle(ctx, meter, host)
    host.flush()


def _script_argument_bcs(argument: ScriptArgument) -> bytes:
    """The BCS of a script argument's value, as aptos-core's ``convert_txn_args`` makes it:
    a tagged value loses its tag (a ``u8_vector`` keeps its length prefix), a
    ``serialized`` one is its bytes."""
    if argument.kind == "serialized":
        return bytes(argument.value)
    return argument.to_bcs()[1:]  # past the one-byte tag


def run_published_script(ctx: Context, script: Script, *, max_gas_amount: int) -> None:
    """Run a script payload with the context's signers."""
    host = NodeHost(ctx)
    ctx.calls = 0  # its code is metered; framework bodies it reaches count
    try:
        compiled = read_script(script.code)
    except VMStatusError as error:
        raise VMStatusError("CODE_DESERIALIZATION_ERROR", str(error)) from None
    types = _type_args(host, compiled.type_parameters, script.type_args)
    params = compiled.signature(compiled.parameters)
    count = _signer_count(params)
    if len(params) - count != len(script.args):
        raise VMStatusError("NUMBER_OF_ARGUMENTS_MISMATCH")
    if count and count != len(ctx.signers):
        raise VMStatusError("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH")
    args = _signer_values(params[:count], ctx.signers)
    # As on a node, each argument is read from its value's BCS by the parameter's type, as
    # an entry function's is: a u8_vector may be a String, a serialized one any type.
    for token, argument in zip(params[count:], script.args, strict=True):
        value = _decode_argument(
            instantiate(compiled, token, types), _script_argument_bcs(argument)
        )
        _check_objects(host, value)
        args.append(value)
    meter = GasMeter(max_gas_amount * GAS_UNIT_SCALING_FACTOR)
    try:
        execute_script(host, compiled, types, args, meter=meter)
    finally:
        _settle(ctx, meter, host)
    host.flush()


def run_published_view(
    ctx: Context,
    fid: EntryFunctionId,
    type_args: Sequence[MoveType],
    args: Sequence[Any],
    *,
    json_args: bool,
    max_gas_amount: int,
) -> tuple[list[Any], list[bytes]]:
    """Run ``#[view]`` function ``fid`` read-only: each result's JSON and BCS.

    ``args`` are each argument's BCS, or its JSON when ``json_args``."""
    host = NodeHost(ctx)
    ctx.calls = 0  # its code is metered; framework bodies it reaches count
    module, _, handle = _function(host, fid)
    metadata = runtime_metadata(module.metadata, module.version)
    if metadata is None or not metadata.is_view(fid.name):
        raise VMStatusError("INVALID_MAIN_FUNCTION_SIGNATURE", f"{fid} is not a view function")
    types = _type_args(host, handle.type_parameters, type_args)
    params = module.signature(handle.parameters)
    raw_args = list(args)
    if json_args:
        if len(params) != len(args):
            raise VMStatusError("NUMBER_OF_ARGUMENTS_MISMATCH")
        raw_args = []
        for token, data in zip(params, args, strict=True):
            ty = instantiate(module, token, types)
            if not _allowed(ty):
                raise VMStatusError("INVALID_MAIN_FUNCTION_SIGNATURE", "argument type not allowed")
            raw_args.append(encode_bcs(from_json(data, ty, host.fields)))
    elif not all(isinstance(a, bytes) for a in raw_args):
        raise VMStatusError("FAILED_TO_DESERIALIZE_ARGUMENT")
    args = _arguments(host, module, params, types, (), raw_args, view=True)
    meter = GasMeter(max_gas_amount * GAS_UNIT_SCALING_FACTOR)
    try:
        results = execute_function(host, module, fid.name, types, args, meter=meter)
    finally:
        _settle(ctx, meter, host)
    returns = [instantiate(module, t, types) for t in module.signature(handle.return_)]
    return (
        [to_json(v, t, host.fields) for v, t in zip(results, returns, strict=True)],
        [encode_bcs(v) for v in results],
    )


def run_init_modules(ctx: Context, *, max_gas_amount: int) -> None:
    """Run ``init_module(&signer)`` of each module this transaction published for the
    first time (not an upgrade), in publishing order, with the signer of its address."""
    host = NodeHost(ctx)
    new = [w for w in ctx.writes.values() if w.kind == MODULE and not w.existed and w.value]
    meter = GasMeter(max_gas_amount * GAS_UNIT_SCALING_FACTOR)
    try:
        for w in new:
            module = host.load_module(bytes(w.address), w.path)
            if module is None:
                continue
            fdef = module.find_function_def("init_module")
            if fdef is None or fdef.code is None:
                continue
            handle = module.function_handles[fdef.function]
            if module.signature(handle.parameters) != (("ref", ("signer",)),):
                continue
            signer = Reference([SignerValue(AddressValue(bytes(w.address)))], 0, False)
            execute_function(host, module, "init_module", (), [signer], meter=meter)
    finally:
        _settle(ctx, meter, host)
    host.flush()
