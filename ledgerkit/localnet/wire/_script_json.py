"""Script payloads in the API's JSON shape, read into BCS: the bytecode, the type
arguments, and the arguments converted by the ABI the request sends along (``code.abi``),
since the node does not decode script bytecode. Every malformed one becomes
``NodeError(INVALID_INPUT)`` naming the field.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit._errors import BCSError, InputError
from ledgerkit.bcs import Script, ScriptArgument
from ledgerkit.localnet.wire._json_fields import call_arguments, field, hex_field, invalid
from ledgerkit.types import HexBytes

__all__ = ["script_from_json"]


#: How a refusal of arguments that do not match the ABI sent beside them reads (a relation
#: between two fields that no schema states).
_UNFIT: Final = "does not fit the script's ABI"

#: Script argument kinds by the Move type an ABI gives them.
_SCRIPT_KINDS: Final = {t: kind for kind, t in ScriptArgument.MOVE_TYPES.items()}


def _script_argument(move_type: Any, value: Any, where: str) -> ScriptArgument:
    kind = _SCRIPT_KINDS.get(move_type) if isinstance(move_type, str) else None
    if kind is None:
        raise invalid(
            f"{where}: a script argument is u8 to u256, bool, address or vector<u8>, "
            f"not {move_type!r}"
        )
    if kind == "bool" and not isinstance(value, bool):
        raise invalid(f"{where} {_UNFIT}: expected true or false")
    if kind == "u8_vector":
        if not isinstance(value, str):
            raise invalid(f"{where} {_UNFIT}: a vector<u8> is a 0x hex string")
        try:
            value = bytes(HexBytes.parse(value))
        except InputError as exc:
            raise invalid(f"{where} {_UNFIT}: {exc}") from None
    if kind not in ("bool", "u8_vector") and isinstance(value, bool):
        raise invalid(f"{where} {_UNFIT}: expected a {move_type}")
    try:
        return ScriptArgument(kind, value)
    except BCSError as exc:
        raise invalid(f"{where} {_UNFIT}: {exc}") from None


def script_from_json(obj: Any, where: str = "payload") -> Script:
    """A ``script_payload``, its JSON arguments read by the ABI sent with it.

    The node does not decode script bytecode, so ``code.abi.params`` must list the
    script's parameter types (a leading ``signer`` or ``&signer`` takes no argument).
    """
    code = field(obj, "code", where)
    bytecode = hex_field(code, "bytecode", f"{where}.code")
    type_args, arguments = call_arguments(obj, where)
    abi = code.get("abi")
    if not isinstance(abi, dict) or not isinstance(abi.get("params"), list):
        raise invalid(
            f"{where}.code.abi: this node reads a script's arguments by the ABI sent with it "
            "(a MoveFunction whose params list the argument types)"
        )
    params = [p for p in abi["params"] if p not in ("signer", "&signer")]
    if len(params) != len(arguments):
        raise invalid(
            f"{where}.arguments {_UNFIT}: it lists {len(params)} parameter(s), "
            f"{len(arguments)} argument(s) were given"
        )
    args = tuple(
        _script_argument(t, value, f"{where}.arguments[{i}]")
        for i, (t, value) in enumerate(zip(params, arguments, strict=True))
    )
    return Script(bytecode, type_args, args)
