"""Payloads in the node's OpenAPI document: what a transaction runs, and genesis write sets."""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.app.openapi._notation import Schema, _one_of, _records, _unions

# name: (description, required fields, optional fields[, fields absent but never null])
_RECORDS: Final[dict[str, tuple[str, ...]]] = {
    "EntryFunctionPayload": (
        "Call an entry function.",
        "function:EntryFunctionId type_arguments:[MoveType] arguments:[MoveValue]",
    ),
    "ScriptPayload": (
        "Run a script.",
        "code:MoveScriptBytecode type_arguments:[MoveType] arguments:[MoveValue]",
    ),
    "ModuleBundlePayload": ("Deprecated; carries nothing.", ""),
    "MultisigPayload": (
        "Run a payload on behalf of a multisig account.",
        "multisig_address:Address",
        "transaction_payload:MultisigTransactionPayload",
    ),
    "WriteSetPayload": ("The genesis write set.", "write_set:WriteSet"),
    "ScriptWriteSet": (
        "A write set made by running a script as an account.",
        "execute_as:Address script:ScriptPayload",
    ),
    "DirectWriteSet": (
        "A write set given change by change.",
        "changes:[WriteSetChange] events:[Event]",
    ),
}

# union: (description, "tag:Variant ...")
_UNIONS: Final[dict[str, tuple[str, str]]] = {
    "TransactionPayload": (
        "What a user transaction runs, tagged by `type`.",
        "entry_function_payload:EntryFunctionPayload script_payload:ScriptPayload "
        "module_bundle_payload:ModuleBundlePayload multisig_payload:MultisigPayload",
    ),
    "GenesisPayload": ("The genesis payload.", "write_set_payload:WriteSetPayload"),
    "WriteSet": (
        "A genesis write set, tagged by `type`.",
        "script_write_set:ScriptWriteSet direct_write_set:DirectWriteSet",
    ),
}


def _payload_schemas() -> dict[str, Schema]:
    """Payloads, with the subsets a multisig account and this node accept."""
    out = _records(_RECORDS) | _unions(_UNIONS)
    inner = ("entry_function_payload", "script_payload")
    out["MultisigTransactionPayload"] = _one_of(
        "The payload a multisig account runs, tagged by `type`.", "TransactionPayload", inner
    )
    out["EntryFunctionRequest"] = _one_of(
        "The payload of a transaction sent to this node: an entry function call, tagged by `type`.",
        "TransactionPayload",
        inner[:1],
    )
    return out | _records(_REQUEST_RECORDS) | _unions(_REQUEST_UNIONS)


# What this node's encode_submission reads: it does not decode script bytecode, so a
# script comes with the parameter types of its ABI; a multisig account runs an entry function.
_SCRIPT_PARAMS: Final = "signer|&signer|u8|u16|u32|u64|u128|u256|bool|address|vector<u8>"
_REQUEST_RECORDS: Final[dict[str, tuple[str, ...]]] = {
    "ScriptRequest": (
        "A script to encode; this node reads its arguments by the types `code.abi` lists.",
        "code:ScriptRequestCode type_arguments:[MoveType] arguments:[MoveValue]",
    ),
    "ScriptRequestCode": (
        "A script's bytecode and its function's ABI.",
        "bytecode:HexBytes abi:ScriptRequestAbi",
    ),
    "ScriptRequestAbi": (
        "The script function's ABI (a `MoveFunction`): only `params` is read, one type per "
        "argument after a leading `signer`.",
        f"params:[{_SCRIPT_PARAMS}]",
    ),
    "MultisigRequest": (
        "An entry function call run by a multisig account, or (without "
        "`transaction_payload`) the call stored on chain.",
        "multisig_address:Address",
        "transaction_payload:EntryFunctionRequest",
    ),
}
_REQUEST_UNIONS: Final[dict[str, tuple[str, str]]] = {
    "EncodeSubmissionPayload": (
        "The payload of a transaction to encode: an entry function call, a script or a "
        "multisig account's call, tagged by `type`.",
        "entry_function_payload:EntryFunctionPayload script_payload:ScriptRequest "
        "multisig_payload:MultisigRequest",
    ),
}
