"""Schemas of the node's OpenAPI document: scalars, records and tagged unions.

Object fields are written in a small notation, ``"name:Type name:[Type]"`` (see
``_type``), to keep the tables readable; tagged unions are a ``oneOf`` of
``<Union>_<Tag>`` wrappers that pin the tag to one value.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from ledgerkit._errors import ErrorCode

Schema = dict[str, Any]

_HEX: Final = "[0-9a-fA-F]"
_IDENT: Final = "[A-Za-z_][A-Za-z0-9_]*"


def _at_most(limit: int) -> str:
    """A regular expression of the decimal numbers from 0 to ``limit``, leading zeros
    allowed (as the node reads them): shorter numbers, then, digit by digit, those of
    the same length that stay below ``limit``."""
    digits = str(limit)
    options = [f"[0-9]{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    for i, digit in enumerate(digits):
        if digit != "0":
            low = "0" if i or len(digits) == 1 else "1"
            rest = len(digits) - i - 1
            tail = f"[0-9]{{{rest}}}" if rest else ""
            top = int(digit) - 1
            if top >= int(low):
                options.append(f"{digits[:i]}[{low}-{top}]{tail}")
    options.append(digits)
    return f"0*({'|'.join(options)})"


def _move_type(depth: int) -> str:
    """A Move type as the node reads it, nested at most ``depth`` levels in type arguments
    (a regular expression cannot count brackets; real types are a few levels deep)."""
    primitive = "bool|u8|u16|u32|u64|u128|u256|i8|i16|i32|i64|i128|i256|address|signer"
    struct = f"0x{_HEX}{{1,64}}::{_IDENT}::{_IDENT}"
    if depth == 0:
        return f"(?:{primitive}|{struct})"
    inner = _move_type(depth - 1)
    return f"(?:{primitive}|vector<{inner}>|{struct}(?:<{inner}(?:, ?{inner})*>)?)"


def _struct_tag(depth: int) -> str:
    inner = _move_type(depth - 1)
    return f"0x{_HEX}{{1,64}}::{_IDENT}::{_IDENT}(?:<{inner}(?:, ?{inner})*>)?"


#: Nesting of type arguments the document's patterns describe.
_TYPE_DEPTH: Final = 3


# -- building blocks ------------------------------------------------------------------------


def _ref(name: str, kind: str = "schemas") -> Schema:
    return {"$ref": f"#/components/{kind}/{name}"}


def _uint(bits: int) -> Schema:
    return {"type": "integer", "format": f"uint{bits}", "minimum": 0, "maximum": 2**bits - 1}


def _enum(*values: str) -> Schema:
    return {"type": "string", "enum": list(values)}


_PRIMITIVES: Final[dict[str, Schema]] = {
    "bool": {"type": "boolean"},
    "str": {"type": "string"},
    "obj": {"type": "object"},
    "any": {},
    "bytes": {"type": "string", "format": "binary"},
    **{f"u{bits}": _uint(bits) for bits in (8, 16, 32, 64)},
}


def _type(token: str) -> Schema:
    """``[T]`` an array of T; ``a|b`` a string enum; ``bool str obj any bytes`` and ``u8`` to
    ``u64`` (JSON integers); anything else names a component schema (``U64`` is the string)."""
    if token.startswith("[") and token.endswith("]"):
        return {"type": "array", "items": _type(token[1:-1])}
    if "|" in token:
        return _enum(*token.split("|"))
    if token in _PRIMITIVES:
        return dict(_PRIMITIVES[token])
    return _ref(token)


def _nullable(schema: Schema) -> Schema:
    # A $ref ignores its siblings in OpenAPI 3.0, hence the allOf.
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def _fields(spec: str) -> dict[str, Schema]:
    return {name: _type(token) for name, token in (item.split(":") for item in spec.split())}


def _obj(description: str, required: str, optional: str = "", kept: str = "") -> Schema:
    """An open object: ``optional`` fields may be absent or null, ``kept`` ones only absent."""
    properties = _fields(required)
    properties |= {name: _nullable(schema) for name, schema in _fields(optional).items()}
    properties |= _fields(kept)
    out: Schema = {"type": "object", "description": description, "properties": properties}
    if required:
        out["required"] = list(_fields(required))
    return out


def _wrapper(union: str, tag: str) -> str:
    return union + "_" + "".join(part.capitalize() for part in tag.split("_"))


def _union(union: str, description: str, variants: dict[str, Schema]) -> dict[str, Schema]:
    """``union`` as a oneOf of wrappers, each ``type`` pinned to one tag plus a variant body."""
    out: dict[str, Schema] = {}
    for tag, body in variants.items():
        pin = {"type": "object", "required": ["type"], "properties": {"type": _enum(tag)}}
        out[_wrapper(union, tag)] = {"allOf": [pin, body]}
    out[union] = _one_of(description, union, tuple(variants))
    return out


def _one_of(description: str, union: str, tags: tuple[str, ...]) -> Schema:
    mapping = {tag: f"#/components/schemas/{_wrapper(union, tag)}" for tag in tags}
    return {
        "type": "object",
        "description": description,
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }


# -- schemas --------------------------------------------------------------------------------

_SCALARS: Final[dict[str, Schema]] = {
    "U64": {
        "type": "string",
        "format": "uint64",
        "pattern": f"^{_at_most(2**64 - 1)}$",
        "description": "An unsigned 64-bit integer written as a decimal string.",
        "example": "32425224034",
    },
    "Address": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{1,64}}$",
        "description": "A 32-byte account address: `0x` and hex; leading zeros may be dropped.",
        "example": "0x1",
    },
    "HexBytes": {
        "type": "string",
        "pattern": f"^0x({_HEX}{{2}})*$",
        "description": "Bytes as `0x` and two hex digits per byte; zeros are kept.",
        "example": "0x0102ff",
    },
    "HashValue": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{64}}$",
        "description": "A 32-byte hash: `0x` and 64 hex digits.",
    },
    "MoveType": {
        "type": "string",
        "pattern": f"^{_move_type(_TYPE_DEPTH)}$",
        "description": "A Move type: a primitive, `vector<T>` or a struct tag (spaces ignored).",
        "example": "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    },
    "MoveAbiType": {
        "type": "string",
        "description": "A Move type as an ABI writes it; may also be a reference (`&signer`, "
        "`&mut T`) or a generic parameter (`T0`).",
    },
    "MoveStructTag": {
        "type": "string",
        "pattern": f"^{_struct_tag(_TYPE_DEPTH)}$",
        "description": "`address::module::Struct`, with any type arguments in angle brackets.",
        "example": "0x1::account::Account",
    },
    "MoveModuleId": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{1,64}}::{_IDENT}$",
        "description": "`address::module`.",
        "example": "0x1::coin",
    },
    "EntryFunctionId": {
        "type": "string",
        "pattern": f"^0x{_HEX}{{1,64}}::{_IDENT}::{_IDENT}$",
        "description": "`address::module::function`; names are case-sensitive.",
        "example": "0x1::aptos_account::transfer",
    },
    "Identifier": {
        "type": "string",
        "pattern": f"^{_IDENT}$",
        "description": "A Move identifier: a module, function, struct or field name.",
    },
    "MoveAbility": _enum("copy", "drop", "store", "key"),
    "MoveValue": {
        "description": "A Move value as JSON: bool a boolean; u8, u16, u32 numbers; u64, u128, "
        "u256 decimal strings; address and `vector<u8>` hex strings; other vectors arrays; "
        "`0x1::string::String` a string; a struct an object of its fields.",
    },
    "ErrorCode": {
        **_enum(*(code.value for code in ErrorCode)),
        "description": "What went wrong, for programs.",
    },
}

_COMMITTED: Final = (
    "version:U64 hash:HashValue state_change_hash:HashValue event_root_hash:HashValue "
    "gas_used:U64 success:bool vm_status:str accumulator_root_hash:HashValue "
    "changes:[WriteSetChange] "
)
_CHECKPOINT: Final = "state_checkpoint_hash:HashValue "
_USER: Final = (
    "sender:Address sequence_number:U64 max_gas_amount:U64 gas_unit_price:U64 "
    "expiration_timestamp_secs:U64 payload:TransactionPayload "
)
_USER_REQUEST: Final = _USER.replace("payload:TransactionPayload", "payload:EntryFunctionRequest")
_USER_EXTRA: Final = "signature:TransactionSignature replay_protection_nonce:U64"
_MULTI_AGENT: Final = (
    "sender:AccountSignature secondary_signer_addresses:[Address] "
    "secondary_signers:[AccountSignature] "
)
_KEY_KINDS: Final = "ed25519|secp256k1_ecdsa|secp256r1_ecdsa|keyless|federated_keyless|"
_SIG_KINDS: Final = "ed25519|secp256k1_ecdsa|web_authn|keyless|"
_PQ: Final = "slh_dsa__sha2_128s"

# name: (description, required fields, optional fields[, fields absent but never null])
_OBJECTS: Final[dict[str, tuple[str, ...]]] = {
    "IndexResponse": (
        "Where the ledger stands, and which node answers.",
        "chain_id:u8 epoch:U64 ledger_version:U64 oldest_ledger_version:U64 "
        "ledger_timestamp:U64 node_role:validator|full_node oldest_block_height:U64 "
        "block_height:U64",
        "git_hash:str",
    ),
    "HealthCheckSuccess": ("The node is healthy.", "message:str"),
    "GasEstimation": (
        "Gas unit prices from recent blocks; the minimum price while blocks are not full.",
        "gas_estimate:u64",
        "deprioritized_gas_estimate:u64 prioritized_gas_estimate:u64",
    ),
    "Error": (
        "The record a failed request answers with.",
        "message:str error_code:ErrorCode",
        "vm_error_code:u64",
    ),
    "Account": (
        "An account's sequence number and authentication key.",
        "sequence_number:U64 authentication_key:HexBytes",
    ),
    "Block": (
        "A block; `transactions` only when asked for, and at most one page of them.",
        "block_height:U64 block_hash:HashValue block_timestamp:U64 first_version:U64 "
        "last_version:U64",
        "transactions:[Transaction]",
    ),
    "AuxiliaryInfo": (
        "Extra facts about one transaction; without an index none are known.",
        "",
        "transaction_index:u32",
    ),
    "MoveResource": ("A resource stored under an account.", "type:MoveStructTag data:obj"),
    "MoveModuleBytecode": (
        "A module's bytecode and, when it decodes, its ABI.",
        "bytecode:HexBytes",
        "abi:MoveModule",
    ),
    "MoveScriptBytecode": (
        "A script's bytecode and, when it decodes, its function's ABI.",
        "bytecode:HexBytes",
        "abi:MoveFunction",
    ),
    "MoveModule": (
        "The ABI of a module: what it exposes to callers.",
        "address:Address name:Identifier friends:[MoveModuleId] "
        "exposed_functions:[MoveFunction] structs:[MoveStruct]",
    ),
    "MoveFunction": (
        "A function of a module's ABI; generic parameters appear as `T0`, `T1`, ...",
        "name:Identifier visibility:private|public|friend is_entry:bool "
        "generic_type_params:[MoveFunctionGenericTypeParam] params:[MoveAbiType] "
        "return:[MoveAbiType]",
        "",
        "is_view:bool",
    ),
    "MoveFunctionGenericTypeParam": ("A generic type parameter.", "constraints:[MoveAbility]"),
    "MoveStruct": (
        "A struct or enum of a module's ABI.",
        "name:Identifier is_native:bool abilities:[MoveAbility] "
        "generic_type_params:[MoveStructGenericTypeParam] fields:[MoveStructField]",
        "",
        "is_event:bool is_enum:bool variants:[MoveStructVariant]",
    ),
    "MoveStructGenericTypeParam": ("A generic type parameter.", "constraints:[MoveAbility]"),
    "MoveStructField": ("A field of a struct.", "name:Identifier type:MoveAbiType"),
    "MoveStructVariant": ("A variant of an enum.", "name:Identifier fields:[MoveStructField]"),
    "EventGuid": (
        "An event stream: account and creation number (zero for module events).",
        "creation_number:U64 account_address:Address",
    ),
    "Event": (
        "An event emitted by a transaction.",
        "guid:EventGuid sequence_number:U64 type:MoveType data:any",
    ),
    "VersionedEvent": (
        "An event read from a stream, with the version that emitted it.",
        "version:U64 guid:EventGuid sequence_number:U64 type:MoveType data:any",
    ),
    "PendingTransaction": (
        "A transaction accepted into the mempool and not yet committed.",
        "hash:HashValue " + _USER,
        _USER_EXTRA,
    ),
    "UserTransaction": (
        "A committed or simulated user transaction.",
        _COMMITTED + _USER + "events:[Event] timestamp:U64",
        _CHECKPOINT + _USER_EXTRA,
    ),
    "GenesisTransaction": (
        "The first transaction: it writes the initial state.",
        _COMMITTED + "payload:GenesisPayload events:[Event]",
        _CHECKPOINT,
    ),
    "BlockMetadataTransaction": (
        "Opens a block: its proposer, round, time and the votes it carries.",
        _COMMITTED + "id:HashValue epoch:U64 round:U64 events:[Event] "
        "previous_block_votes_bitvec:[u8] proposer:Address failed_proposer_indices:[u32] "
        "timestamp:U64",
        _CHECKPOINT + "block_metadata_extension:BlockMetadataExtension",
    ),
    "BlockMetadataExtension": (
        "Per-block extras: `v0` none, `v1` randomness, `v2` and `v3` decryption too.",
        "type:v0|v1|v2|v3",
        "randomness:HexBytes decryption_key:HexBytes decryption_round:U64",
    ),
    "StateCheckpointTransaction": (
        "Marks a state checkpoint.",
        _COMMITTED + "timestamp:U64",
        _CHECKPOINT,
    ),
    "BlockEpilogueTransaction": (
        "Closes a block.",
        _COMMITTED + "timestamp:U64",
        _CHECKPOINT + "block_end_info:BlockEndInfo",
    ),
    "BlockEndInfo": (
        "Which limits the block reached.",
        "block_gas_limit_reached:bool block_output_limit_reached:bool "
        "block_effective_block_gas_units:u64 block_approx_output_size:u64",
    ),
    "ValidatorTransaction": (
        "Written by validators; `validator_transaction_type` says which kind.",
        _COMMITTED + "events:[Event] timestamp:U64 "
        "validator_transaction_type:observed_jwk_update|dkg_result|chunky_d_k_g_result",
        _CHECKPOINT + "quorum_certified_update:obj dkg_transcript:obj certified_subtrx:obj "
        "encryption_key:HexBytes",
    ),
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
    "WriteResource": (
        "A resource written.",
        "address:Address state_key_hash:HashValue data:MoveResource",
    ),
    "DeleteResource": (
        "A resource removed.",
        "address:Address state_key_hash:HashValue resource:MoveStructTag",
    ),
    "WriteModule": (
        "A module published.",
        "address:Address state_key_hash:HashValue data:MoveModuleBytecode",
    ),
    "DeleteModule": (
        "A module removed.",
        "address:Address state_key_hash:HashValue module:MoveModuleId",
    ),
    "WriteTableItem": (
        "A table item written; `data` decodes it when the types are known. The handle is "
        "written like an address.",
        "state_key_hash:HashValue handle:Address key:HexBytes value:HexBytes",
        "data:DecodedTableData",
    ),
    "DeleteTableItem": (
        "A table item removed.",
        "state_key_hash:HashValue handle:Address key:HexBytes",
        "data:DeletedTableData",
    ),
    "DecodedTableData": (
        "A table item's key and value as JSON, with their Move types.",
        "key:MoveValue key_type:str value:MoveValue value_type:str",
    ),
    "DeletedTableData": (
        "A removed table item's key as JSON, with its Move type.",
        "key:MoveValue key_type:str",
    ),
    "Ed25519Signature": ("An Ed25519 key and signature.", "public_key:HexBytes signature:HexBytes"),
    "MultiEd25519Signature": (
        "K-of-N Ed25519: the keys, the signatures in key order, and a bitmap of the signers.",
        "public_keys:[HexBytes] signatures:[HexBytes] threshold:u8 bitmap:HexBytes",
    ),
    "MultiAgentSignature": ("The sender's and the secondary signers' signatures.", _MULTI_AGENT),
    "FeePayerSignature": (
        "The sender, the secondary signers, and the account that pays the fees.",
        _MULTI_AGENT + "fee_payer_address:Address fee_payer_signer:AccountSignature",
    ),
    "NoAccountSignature": ("No signature.", ""),
    "SingleKeySignature": (
        "One key of any kind and its signature.",
        "public_key:PublicKey signature:Signature",
    ),
    "MultiKeySignature": (
        "K-of-N keys of any kind, with the signatures of the keys that signed.",
        "public_keys:[PublicKey] signatures:[IndexedSignature] signatures_required:u8",
    ),
    "IndexedSignature": ("A signature and its key's position.", "index:u8 signature:Signature"),
    "AbstractionSignature": (
        "Account abstraction: the authenticating function and its data.",
        "function_info:str auth_data:HexBytes",
    ),
    "PublicKey": ("A public key and its kind.", f"type:{_KEY_KINDS}{_PQ} value:HexBytes"),
    "Signature": ("A signature and its kind.", f"type:{_SIG_KINDS}{_PQ} value:HexBytes"),
    "SubmitTransactionRequest": (
        "A signed transaction as JSON. To simulate, the signature must not verify: send the "
        "real public key and an all-zero signature. This node runs entry functions only, "
        "and no orderless (nonce) transactions.",
        _USER_REQUEST + "signature:TransactionSignature",
    ),
    "TransactionsBatchSubmissionResult": (
        "The transactions of a batch the node refused; empty when it accepted them all.",
        "transaction_failures:[TransactionsBatchSingleSubmissionFailure]",
    ),
    "TransactionsBatchSingleSubmissionFailure": (
        "A refused transaction of a batch: its error record and its position in the batch.",
        "error:Error transaction_index:u64",
    ),
    "EncodeSubmissionRequest": (
        "An unsigned transaction to turn into its signing message (entry functions only, "
        "no nonce, as this node runs them).",
        _USER_REQUEST,
        "secondary_signers:[Address]",
    ),
    "TableItemRequest": (
        "A table key as JSON, with the key's and the value's Move types.",
        "key_type:MoveType value_type:MoveType key:MoveValue",
    ),
    "RawTableItemRequest": ("A table key, BCS-encoded, in hex.", "key:HexBytes"),
    "ViewRequest": (
        "A view function call.",
        "function:EntryFunctionId type_arguments:[MoveType] arguments:[MoveValue]",
    ),
}

_UNIONS: Final = {
    "Transaction": (
        "A transaction, tagged by `type`.",
        "pending_transaction:PendingTransaction user_transaction:UserTransaction "
        "genesis_transaction:GenesisTransaction "
        "block_metadata_transaction:BlockMetadataTransaction "
        "state_checkpoint_transaction:StateCheckpointTransaction "
        "block_epilogue_transaction:BlockEpilogueTransaction "
        "validator_transaction:ValidatorTransaction",
    ),
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
    "WriteSetChange": (
        "One change to state, tagged by `type`.",
        "write_resource:WriteResource delete_resource:DeleteResource write_module:WriteModule "
        "delete_module:DeleteModule write_table_item:WriteTableItem "
        "delete_table_item:DeleteTableItem",
    ),
    "TransactionSignature": (
        "How a transaction is authorized, tagged by `type`.",
        "ed25519_signature:Ed25519Signature multi_ed25519_signature:MultiEd25519Signature "
        "multi_agent_signature:MultiAgentSignature fee_payer_signature:FeePayerSignature "
        "single_sender:SingleSenderBody no_account_signature:NoAccountSignature",
    ),
    "AccountSignature": (
        "One account's signature, tagged by `type`; node versions spell the abstraction "
        "variant `abstraction_signature` or `abstract_signature`.",
        "ed25519_signature:Ed25519Signature multi_ed25519_signature:MultiEd25519Signature "
        "single_key_signature:SingleKeySignature multi_key_signature:MultiKeySignature "
        "no_account_signature:NoAccountSignature abstraction_signature:AbstractionSignature "
        "abstract_signature:AbstractionSignature",
    ),
}

# The node writes `single_sender` over the inner account signature's own tag, so the body
# is told apart by its fields; only the tag (no other field) is the no-account case.
_SINGLE_SENDER: Final[Schema] = {
    "anyOf": [
        _ref(name)
        for name in (
            "Ed25519Signature",
            "MultiEd25519Signature",
            "SingleKeySignature",
            "MultiKeySignature",
            "AbstractionSignature",
        )
    ]
    + [{"type": "object", "maxProperties": 1}],
}


def _schemas() -> dict[str, Schema]:
    schemas = {name: copy.deepcopy(schema) for name, schema in _SCALARS.items()}
    schemas |= {name: _obj(*spec) for name, spec in _OBJECTS.items()}
    for union, (description, spec) in _UNIONS.items():
        variants = {
            tag: _SINGLE_SENDER if body == "SingleSenderBody" else _ref(body)
            for tag, body in (item.split(":") for item in spec.split())
        }
        schemas |= _union(union, description, variants)
    inner = ("entry_function_payload", "script_payload")
    schemas["MultisigTransactionPayload"] = _one_of(
        "The payload a multisig account runs, tagged by `type`.", "TransactionPayload", inner
    )
    schemas["EntryFunctionRequest"] = _one_of(
        "The payload of a transaction sent to this node: an entry function call, tagged by `type`.",
        "TransactionPayload",
        inner[:1],
    )
    return dict(sorted(schemas.items()))
