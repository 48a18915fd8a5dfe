"""Script payloads in the API's JSON shape, read into BCS: the bytecode, the type
arguments, and the arguments converted by the ABI the request sends along (``code.abi``),
since the node does not decode script bytecode. Every malformed one becomes
``NodeError(INVALID_INPUT)`` naming the field.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit._errors import BCSError, ErrorCode, InputError
from ledgerkit.bcs import Script, ScriptArgument
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.types import HexBytes, MoveType

__all__ = ["script_from_json"]


def _invalid(message: str) -> NodeError:
    return NodeError(ErrorCode.INVALID_INPUT, message)


def _field(obj: Any, name: str, where: str) -> Any:
    if not isinstance(obj, dict) or name not in obj:
        raise _invalid(f"{where} lacks the field {name!r}")
    return obj[name]


#: How a refusal of arguments that do not match the ABI sent beside them reads (a relation
#: between two fields that no schema states).
_UNFIT: Final = "does not fit the script's ABI"

#: Script argument kinds by the Move type an ABI gives them.
_SCRIPT_KINDS: Final = {t: kind for kind, t in ScriptArgument.MOVE_TYPES.items()}


def _script_argument(move_type: Any, value: Any, where: str) -> ScriptArgument:
    kind = _SCRIPT_KINDS.get(move_type) if isinstance(move_type, str) else None
    if kind is None:
        raise _invalid(
            f"{where}: a script argument is u8 to u256, bool, address or vector<u8>, "
            f"not {move_type!r}"
        )
    if kind == "bool" and not isinstance(value, bool):
        raise _invalid(f"{where} {_UNFIT}: expected true or false")
    if kind == "u8_vector":
        if not isinstance(value, str):
            raise _invalid(f"{where} {_UNFIT}: a vector<u8> is a 0x hex string")
        try:
            value = bytes(HexBytes.parse(value))
        except InputError as exc:
            raise _invalid(f"{where} {_UNFIT}: {exc}") from None
    if kind not in ("bool", "u8_vector") and isinstance(value, bool):
        raise _invalid(f"{where} {_UNFIT}: expected a {move_type}")
    try:
        return ScriptArgument(kind, value)
    except BCSError as exc:
        raise _invalid(f"{where} {_UNFIT}: {exc}") from None


def script_from_json(obj: Any, where: str = "payload") -> Script:
    """A ``script_payload``, its JSON arguments read by the ABI sent with it.

    The node does not decode script bytecode, so ``code.abi.params`` must list the
    script's parameter types (a leading ``signer`` or ``&signer`` takes no argument).
    """
    code = _field(obj, "code", where)
    try:
        bytecode = bytes(HexBytes.parse(_field(code, "bytecode", f"{where}.code")))
    except (InputError, TypeError) as exc:
        raise _invalid(f"{where}.code.bytecode: {exc}") from None
    type_texts = _field(obj, "type_arguments", where)
    arguments = _field(obj, "arguments", where)
    if not isinstance(type_texts, list) or not isinstance(arguments, list):
        raise _invalid(f"{where}: type_arguments and arguments must be arrays")
    try:
        type_args = tuple(MoveType.parse(t) for t in type_texts)
    except (InputError, TypeError) as exc:
        raise _invalid(f"{where}.type_arguments: {exc}") from None
    abi = code.get("abi")
    if not isinstance(abi, dict) or not isinstance(abi.get("params"), list):
        raise _invalid(
            f"{where}.code.abi: this node reads a script's arguments by the ABI sent with it "
            "(a MoveFunction whose params list the argument types)"
        )
    params = [p for p in abi["params"] if p not in ("signer", "&signer")]
    if len(params) != len(arguments):
        raise _invalid(
            f"{where}.arguments {_UNFIT}: it lists {len(params)} parameter(s), "
            f"{len(arguments)} argument(s) were given"
        )
    args = tuple(
        _script_argument(t, value, f"{where}.arguments[{i}]")
        for i, (t, value) in enumerate(zip(params, arguments, strict=True))
    )
    return Script(bytecode, type_args, args)
