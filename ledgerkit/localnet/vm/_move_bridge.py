"""The bridge from published Move code to the framework's Python bodies.

The node has no bytecode for the framework: its functions are Python bodies registered
with ``@native`` and declared by ``FunctionSpec``s. A call from published code to one of
them goes through :func:`call_body`: the Move arguments become the API's JSON per their
types, the body runs on the transaction's context, its results come back as Move values
per the declared return types, and what the body changed in a ``&mut`` argument's JSON
is written back through the reference. So a framework function is callable from Move
exactly when it is declared (with its exact types) and has a body.

Signers: the leading ``&signer`` / ``signer`` parameters become the context's signers
while the body runs (as when a transaction calls it); an entry function's body takes
the other arguments only (its signers never were arguments), any other function's body
takes every argument, a signer as its address. A body returning ``signer`` returns an
address. A reference a body returns is a fresh value: writes through it are not seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledgerkit.localnet.vm._move_json import from_json, to_json
from ledgerkit.localnet.vm.framework import FRAMEWORK
from ledgerkit.localnet.vm.move import (
    AddressValue,
    MoveExecutionError,
    MoveInt,
    Reference,
    ReferenceType,
    RuntimeType,
    SignerValue,
    StructValue,
    Value,
    VectorType,
    VectorValue,
    type_name,
)
from ledgerkit.types import Address, EntryFunctionId, ModuleId, MoveType
from ledgerkit.types import ReferenceType as MoveReferenceType

if TYPE_CHECKING:
    from ledgerkit.localnet.vm._node_host import NodeHost

__all__ = ["call_body", "move_type_of"]

_INVARIANT = "UNKNOWN_INVARIANT_VIOLATION_ERROR"


def move_type_of(value: Value) -> RuntimeType:
    """The runtime type of a value (values carry their types)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, MoveInt):
        return value.TYPE
    if isinstance(value, AddressValue):
        return "address"
    if isinstance(value, SignerValue):
        return "signer"
    if isinstance(value, VectorValue):
        return VectorType(value.elem_type)
    if isinstance(value, StructValue):
        return value.ty
    if isinstance(value, Reference):
        return ReferenceType(move_type_of(value.read()), value.mutable)
    raise MoveExecutionError(_INVARIANT, f"{type(value).__name__} cannot cross to the framework")


def _signer(value: Value) -> Address:
    target = value.read() if isinstance(value, Reference) else value
    if not isinstance(target, SignerValue):
        raise MoveExecutionError(_INVARIANT, f"expected a signer, got {target!r}")
    return Address(bytes(target.address))


def call_body(
    host: NodeHost,
    address: bytes,
    module: str,
    function: str,
    type_args: tuple[RuntimeType, ...],
    args: list[Value],
) -> list[Value] | None:
    """Run the framework function's Python body; its results as Move values, or None if
    the framework declares no public function of that name with a body."""
    fid = EntryFunctionId(ModuleId(Address(address), module), function)
    _, spec = FRAMEWORK.function(fid)
    body = FRAMEWORK.body(fid)
    if spec is None or body is None or spec.visibility != "public":
        return None
    if len(spec.params) != len(args) or len(spec.generics) != len(type_args):
        raise MoveExecutionError(_INVARIANT, f"{fid} called with another signature")
    api_types = tuple(MoveType.parse(type_name(t)) for t in type_args)
    leading = spec.signer_count
    signers = tuple(_signer(a) for a in args[:leading])
    passed = args[leading:] if spec.entry else args
    json_args: list[Any] = [to_json(a, move_type_of(a), host.fields) for a in passed]
    ctx = host.ctx
    saved = ctx.signers
    if leading:
        ctx.signers = signers
    try:
        results = body(ctx, api_types, json_args) or []
    finally:
        ctx.signers = saved
    for arg, data in zip(passed, json_args, strict=True):
        if isinstance(arg, Reference) and arg.mutable:
            arg.write(from_json(data, move_type_of(arg.read()), host.fields))
    returns = [MoveType.parse(r).substitute(api_types) for r in spec.returns]
    if len(results) != len(returns):
        raise MoveExecutionError(_INVARIANT, f"{fid} returned {len(results)} values")
    out: list[Value] = []
    for t, data in zip(returns, results, strict=True):
        if isinstance(t, MoveReferenceType):
            inner = from_json(data, host.runtime_type(t.referent), host.fields)
            out.append(Reference([inner], 0, t.mutable))
        else:
            out.append(from_json(data, host.runtime_type(t), host.fields))
    return out
