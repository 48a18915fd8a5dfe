"""The embedded node's own OpenAPI 3.0.3 document, served at ``GET /v1/spec.json``.

It describes the endpoints this node serves and the JSON it reads and writes, precisely
enough that tests validate real answers against it, yet never stricter than the public
nodes of the family: objects stay open to fields added later (``additionalProperties`` is
left at its default, true), and optional fields may be absent or ``null``.

Tagged unions are a ``oneOf`` of ``<Union>_<Tag>`` wrappers. Each wrapper pins the tag to
one value and adds the fields of an untagged base schema, so the ``discriminator`` and
plain JSON Schema validation agree. Object fields are written in a small notation,
``"name:Type name:[Type]"`` (see ``_type``), to keep the tables readable.

The document is plain data, built without I/O once per ``base_path``.
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Final, NamedTuple

import ledgerkit
from ledgerkit._errors import ErrorCode

__all__ = ["openapi_document"]

Schema = dict[str, Any]

_JSON: Final = "application/json"
_BCS: Final = "application/x-bcs"
_SIGNED_BCS: Final = "application/x.aptos.signed_transaction+bcs"
_VIEW_BCS: Final = "application/x.aptos.view_function+bcs"
_HEX: Final = "[0-9a-fA-F]"
_IDENT: Final = "[A-Za-z_][A-Za-z0-9_]*"


def openapi_document(*, base_path: str = "/v1") -> dict[str, Any]:
    """The node's OpenAPI 3.0.3 document, with ``servers`` set to ``base_path``.

    Parameters
    ----------
    base_path : str
        Where the node API is mounted; the document's paths are relative to it.

    Returns
    -------
    dict
        A fresh JSON-ready copy that the caller may change.

    Examples
    --------
    >>> doc = openapi_document()
    >>> doc["openapi"], doc["servers"][0]["url"], "get" in doc["paths"]["/accounts/{address}"]
    ('3.0.3', '/v1', True)
    """
    return copy.deepcopy(_document(base_path))


@functools.cache
def _document(base_path: str) -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "ledgerkit local node",
            "version": ledgerkit.__version__,
            "description": _DESCRIPTION,
            "license": {"name": "Apache-2.0"},
        },
        "servers": [{"url": base_path, "description": "This node."}],
        "tags": [{"name": name, "description": text} for name, text in _TAGS.items()],
        "paths": _paths(),
        "components": {
            "schemas": _schemas(),
            "parameters": {key: _parameter(key) for key in _PARAMETERS},
            "headers": _headers(),
            "responses": _error_responses(),
        },
    }


_DESCRIPTION: Final = (
    "The REST interface of ledgerkit's embedded node: a local, deterministic ledger of the "
    "Move-based (Aptos) family that answers like a public full node for ledger state, "
    "accounts with their resources and modules, events, transactions (listing, lookup, "
    "submission, simulation and encoding), table items, view functions, blocks and gas "
    "prices. Unsigned integers of 64 bits and wider travel as decimal strings, every answer "
    "carries the ledger position in `X-NODE-*` headers, and every failure is one error record "
    "with a machine-readable `error_code`. Some endpoints also answer in BCS when the request "
    "asks for `application/x-bcs`."
)

_TAGS: Final = {
    "General": "Ledger position, health and this document.",
    "Accounts": "Accounts, their resources, modules, balances and transactions.",
    "Events": "Event streams of an account.",
    "Transactions": "Committed and pending transactions; submission, simulation, encoding.",
    "Tables": "Items of Move tables.",
    "View": "Read-only Move view functions.",
    "Blocks": "Blocks by height or by version.",
    "Gas": "Gas unit price estimates.",
}


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
        "pattern": "^[0-9]+$",
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
        "pattern": "^(bool|u8|u16|u32|u64|u128|u256|i8|i16|i32|i64|i128|i256|address|signer"
        "|vector<.+>|0x[0-9a-zA-Z:_<, >]+)$",
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
        "pattern": "^0x[0-9a-zA-Z:_<>, ]+$",
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
        "real public key and an all-zero signature.",
        _USER + "signature:TransactionSignature",
        "replay_protection_nonce:U64",
    ),
    "EncodeSubmissionRequest": (
        "An unsigned transaction to turn into its signing message.",
        _USER,
        "replay_protection_nonce:U64 secondary_signers:[Address]",
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
    return dict(sorted(schemas.items()))


# -- headers and error responses ------------------------------------------------------------

# header suffix, component name, bits, description
_LEDGER_HEADERS: Final = (
    ("CHAIN-ID", "ChainId", 8, "Chain id of the network."),
    ("LEDGER-VERSION", "LedgerVersion", 64, "Latest committed version."),
    ("LEDGER-OLDEST-VERSION", "LedgerOldestVersion", 64, "Oldest version not yet pruned."),
    ("LEDGER-TIMESTAMPUSEC", "LedgerTimestampUsec", 64, "Chain time, in microseconds."),
    ("EPOCH", "Epoch", 64, "Current epoch."),
    ("BLOCK-HEIGHT", "BlockHeight", 64, "Latest block height."),
    ("OLDEST-BLOCK-HEIGHT", "OldestBlockHeight", 64, "Oldest block height not yet pruned."),
)
_EXTRA_HEADERS: Final = {
    "GasUsed": ("GAS-USED", "u64", "Gas the view function or simulation used."),
    "Cursor": ("CURSOR", "str", "Cursor of the next page, to send as `start`; none on the last."),
    "TxnEncryptionKey": ("TXN-ENCRYPTION-KEY", "str", "The epoch's transaction encryption key."),
}


def _headers() -> dict[str, Schema]:
    out: dict[str, Schema] = {}
    for _, name, bits, text in _LEDGER_HEADERS:
        out[name] = {"description": text, "required": True, "schema": _uint(bits)}
        out[name + "OnError"] = {"description": text + " Sent when known.", "schema": _uint(bits)}
    for name, (_, token, text) in _EXTRA_HEADERS.items():
        out[name] = {"description": text, "required": False, "schema": _type(token)}
    return out


def _response_headers(*, success: bool, extra: tuple[str, ...] = ()) -> dict[str, Schema]:
    suffix = "" if success else "OnError"
    out = {f"X-NODE-{key}": _ref(name + suffix, "headers") for key, name, _, _ in _LEDGER_HEADERS}
    out |= {f"X-NODE-{_EXTRA_HEADERS[name][0]}": _ref(name, "headers") for name in extra}
    return out


_ERRORS: Final = {
    400: (
        "BadRequest",
        "Invalid input: `invalid_input`, `web_framework_error` (a parameter or body that does "
        "not parse), `bcs_not_supported`, or a refused submission (`vm_error`, "
        "`sequence_number_too_old`, `invalid_transaction_update`).",
    ),
    403: (
        "Forbidden",
        "`api_disabled`: this endpoint or output format is switched off on this node; "
        "`rejected_by_filter` for a filtered submission.",
    ),
    404: (
        "NotFound",
        "Not found: `account_not_found`, `resource_not_found`, `module_not_found`, "
        "`struct_field_not_found`, `table_item_not_found`, `transaction_not_found`, "
        "`block_not_found`, `state_value_not_found`, or `version_not_found` (past the latest).",
    ),
    410: ("Gone", "`version_pruned` or `block_pruned`: older than the node keeps."),
    413: ("PayloadTooLarge", "`web_framework_error`: the body is larger than the node takes."),
    500: ("InternalError", "`internal_error`: the node failed; its log says why."),
    503: ("ServiceUnavailable", "`health_check_failed`: the ledger is further behind than asked."),
    507: ("InsufficientStorage", "`mempool_is_full`: the mempool takes no more transactions."),
}


def _error_responses() -> dict[str, Schema]:
    return {
        name: {
            "description": text,
            "headers": _response_headers(success=False),
            "content": {_JSON: {"schema": _ref("Error")}},
        }
        for name, text in _ERRORS.values()
    }


# -- parameters -----------------------------------------------------------------------------

_ADDRESS_IN_PATH: Final = {"type": "string", "pattern": f"^(0x)?{_HEX}{{1,64}}$"}
_HASH_IN_PATH: Final = {"type": "string", "pattern": f"^(0x)?{_HEX}{{64}}$"}
_LIMIT: Final = {**_uint(16), "minimum": 1}
_FLAG: Final = {"type": "boolean", "default": False}

# component key: (name, location, schema or type token, description); path ones are required
_PARAMETERS: Final[dict[str, tuple[str, str, Schema | str, str]]] = {
    "address": ("address", "path", _ADDRESS_IN_PATH, "Account address, `0x` optional."),
    "ledger_version": (
        "ledger_version",
        "query",
        "U64",
        "Answer as of this version (default: latest); past the latest 404, pruned 410.",
    ),
    "limit": ("limit", "query", _LIMIT, "Page size; 0 is refused, above the maximum is cut."),
    "start_cursor": ("start", "query", "str", "Cursor from `X-NODE-CURSOR`; omit at first."),
    "start_sequence_number": ("start", "query", "U64", "First sequence number (default: latest)."),
    "start_version": ("start", "query", "U64", "First version (default: the latest page)."),
    "start_version_required": ("start_version", "query", "U64", "First version."),
    "txn_hash": ("txn_hash", "path", _HASH_IN_PATH, "Transaction hash, `0x` optional."),
    "txn_version": ("txn_version", "path", "U64", "Ledger version."),
    "resource_type": ("resource_type", "path", "MoveStructTag", "Resource type, URL-encoded."),
    "module_name": ("module_name", "path", "Identifier", "Module name."),
    "asset_type": (
        "asset_type",
        "path",
        {"type": "string", "minLength": 1},
        "Coin struct tag, or the address of a fungible asset's metadata (URL-encoded). "
        "Only the primary store is read.",
    ),
    "creation_number": ("creation_number", "path", "U64", "The stream's creation number."),
    "event_handle": ("event_handle", "path", "MoveStructTag", "Struct holding the handle."),
    "field_name": ("field_name", "path", "Identifier", "Name of the event handle field."),
    "table_handle": ("table_handle", "path", _ADDRESS_IN_PATH, "Table handle, `0x` optional."),
    "block_height": ("block_height", "path", "u64", "Block height, from 0."),
    "block_version": ("version", "path", "u64", "A ledger version inside the block."),
    "with_transactions": ("with_transactions", "query", _FLAG, "Include up to a page of them."),
    "duration_secs": (
        "duration_secs",
        "query",
        "u32",
        "Fail with 503 if the latest ledger timestamp is older than this many seconds.",
    ),
    "estimate_max_gas_amount": (
        "estimate_max_gas_amount",
        "query",
        _FLAG,
        "Use the most gas the sender can pay for.",
    ),
    "estimate_gas_unit_price": (
        "estimate_gas_unit_price",
        "query",
        _FLAG,
        "Use the estimated gas unit price.",
    ),
    "estimate_prioritized_gas_unit_price": (
        "estimate_prioritized_gas_unit_price",
        "query",
        _FLAG,
        "Use the prioritized estimate; wins over `estimate_gas_unit_price`.",
    ),
}


def _parameter(key: str) -> Schema:
    name, where, schema, text = _PARAMETERS[key]
    return {
        "name": name,
        "in": where,
        "required": where == "path" or key == "start_version_required",
        "description": text,
        "schema": _type(schema) if isinstance(schema, str) else dict(schema),
    }


# -- paths ----------------------------------------------------------------------------------

_READ: Final = "400 403 404 410 500"
_TABLE: Final = "400 403 404 410 413 500"
_SIMULATE_FLAGS: Final = (
    "estimate_max_gas_amount estimate_gas_unit_price estimate_prioritized_gas_unit_price"
)


class _Op(NamedTuple):
    method: str
    path: str
    op_id: str
    tag: str
    summary: str
    ok: str  # type token of the JSON success body; "" when there is none
    errors: str  # error statuses
    params: str = ""  # keys of _PARAMETERS
    bcs: str = ""  # what a BCS success body holds; "" when BCS is not offered
    body: str = ""  # request schema
    headers: str = ""  # optional success headers besides the ledger ones


# fmt: off
_OPERATIONS: Final = (
    _Op("get", "/", "get_ledger_info", "General", "Ledger information", "IndexResponse",
        "400 403 500"),
    _Op("get", "/-/healthy", "healthy", "General", "Check node health", "HealthCheckSuccess",
        "400 500 503", "duration_secs"),
    _Op("get", "/spec.json", "get_openapi_document", "General", "This OpenAPI document", "obj",
        "500"),
    _Op("get", "/accounts/{address}", "get_account", "Accounts", "Get an account", "Account",
        _READ, "address ledger_version"),
    _Op("get", "/accounts/{address}/resources", "get_account_resources", "Accounts",
        "List an account's resources", "[MoveResource]", _READ,
        "address ledger_version start_cursor limit", headers="Cursor",
        bcs="BCS map of struct tag to resource bytes."),
    _Op("get", "/accounts/{address}/resource/{resource_type}", "get_account_resource",
        "Accounts", "Get one resource of an account", "MoveResource", _READ,
        "address resource_type ledger_version", bcs="The resource's BCS bytes."),
    _Op("get", "/accounts/{address}/modules", "get_account_modules", "Accounts",
        "List an account's modules", "[MoveModuleBytecode]", _READ,
        "address ledger_version start_cursor limit", headers="Cursor",
        bcs="BCS sequence of module bytecodes."),
    _Op("get", "/accounts/{address}/module/{module_name}", "get_account_module", "Accounts",
        "Get one module of an account", "MoveModuleBytecode", _READ,
        "address module_name ledger_version", bcs="The module's bytecode."),
    _Op("get", "/accounts/{address}/balance/{asset_type}", "get_account_balance", "Accounts",
        "Get an account's balance of one asset (a bare JSON integer)", "u64", _READ,
        "address asset_type ledger_version", bcs="The balance as a BCS u64."),
    _Op("get", "/accounts/{address}/transactions", "get_account_transactions", "Accounts",
        "List the transactions an account sent", "[Transaction]", _READ,
        "address start_sequence_number limit"),
    _Op("get", "/accounts/{address}/events/{creation_number}",
        "get_events_by_creation_number", "Events", "Events of a stream, by creation number",
        "[VersionedEvent]", _READ, "address creation_number start_sequence_number limit"),
    _Op("get", "/accounts/{address}/events/{event_handle}/{field_name}",
        "get_events_by_event_handle", "Events", "Events of a stream, by handle field",
        "[VersionedEvent]", _READ, "address event_handle field_name start_sequence_number limit"),
    _Op("get", "/transactions", "get_transactions", "Transactions", "List transactions",
        "[Transaction]", "400 403 410 500", "start_version limit"),
    _Op("post", "/transactions", "submit_transaction", "Transactions",
        "Submit a signed transaction", "PendingTransaction", "400 403 413 500 507",
        body="SubmitTransactionRequest",
        bcs="Empty: with BCS the client computes the transaction hash itself."),
    _Op("get", "/transactions/by_hash/{txn_hash}", "get_transaction_by_hash", "Transactions",
        "Get a transaction by hash", "Transaction", _READ, "txn_hash"),
    _Op("get", "/transactions/wait_by_hash/{txn_hash}", "wait_transaction_by_hash",
        "Transactions", "Wait about a second for a transaction, then get it by hash",
        "Transaction", _READ, "txn_hash"),
    _Op("get", "/transactions/by_version/{txn_version}", "get_transaction_by_version",
        "Transactions", "Get a transaction by version", "Transaction", _READ, "txn_version"),
    _Op("get", "/transactions/auxiliary_info", "get_transactions_auxiliary_info",
        "Transactions", "Auxiliary information of a range of transactions", "[AuxiliaryInfo]",
        _READ, "start_version_required limit", headers="TxnEncryptionKey"),
    _Op("post", "/transactions/encode_submission", "encode_submission", "Transactions",
        "Encode a transaction's signing message (JSON only)", "HexBytes", "400 403 413 500",
        body="EncodeSubmissionRequest"),
    _Op("post", "/transactions/simulate", "simulate_transaction", "Transactions",
        "Simulate a transaction (state hashes are zero)", "[UserTransaction]",
        "400 403 413 500", _SIMULATE_FLAGS, body="SubmitTransactionRequest", headers="GasUsed"),
    _Op("post", "/tables/{table_handle}/item", "get_table_item", "Tables",
        "Get a table item by JSON key", "MoveValue", _TABLE, "table_handle ledger_version",
        body="TableItemRequest", bcs="The value's BCS bytes."),
    _Op("post", "/tables/{table_handle}/raw_item", "get_raw_table_item", "Tables",
        "Get a table item by BCS key (BCS only)", "", _TABLE, "table_handle ledger_version",
        body="RawTableItemRequest", bcs="The value's BCS bytes."),
    _Op("get", "/estimate_gas_price", "estimate_gas_price", "Gas",
        "Estimate the gas unit price", "GasEstimation", "400 403 500",
        bcs="The regular estimate as a BCS u64."),
    _Op("post", "/view", "view", "View", "Call a view function", "[MoveValue]", _TABLE,
        "ledger_version", body="ViewRequest", headers="GasUsed",
        bcs="ULEB128 count, then each returned value's BCS bytes."),
    _Op("get", "/blocks/by_height/{block_height}", "get_block_by_height", "Blocks",
        "Get a block by height", "Block", _READ, "block_height with_transactions"),
    _Op("get", "/blocks/by_version/{version}", "get_block_by_version", "Blocks",
        "Get the block that holds a version", "Block", _READ,
        "block_version with_transactions"),
)
# fmt: on

# Request media types besides JSON, by request schema.
_BCS_REQUESTS: Final = {
    "SubmitTransactionRequest": (_SIGNED_BCS, "BCS of a signed transaction."),
    "ViewRequest": (_VIEW_BCS, "BCS of an entry-function call (module, name, types, args)."),
}


def _paths() -> dict[str, dict[str, Schema]]:
    paths: dict[str, dict[str, Schema]] = {}
    for op in _OPERATIONS:
        paths.setdefault(op.path, {})[op.method] = _operation(op)
    return paths


def _operation(op: _Op) -> Schema:
    content: dict[str, Schema] = {_JSON: {"schema": _type(op.ok)}} if op.ok else {}
    if op.bcs:
        bcs = {**_PRIMITIVES["bytes"], "description": op.bcs}
        if op.op_id == "submit_transaction":
            bcs["maxLength"] = 0
        content[_BCS] = {"schema": bcs}
    status = "202" if op.op_id == "submit_transaction" else "200"
    success = {
        "description": op.summary + ".",
        "headers": _response_headers(success=True, extra=tuple(op.headers.split())),
        "content": content,
    }
    responses = {status: success}
    responses |= {code: _ref(_ERRORS[int(code)][0], "responses") for code in op.errors.split()}
    out: Schema = {"operationId": op.op_id, "tags": [op.tag], "summary": op.summary}
    if op.params:
        out["parameters"] = [_ref(key, "parameters") for key in op.params.split()]
    if op.body:
        media = {_JSON: {"schema": _ref(op.body)}}
        if op.body in _BCS_REQUESTS:
            kind, text = _BCS_REQUESTS[op.body]
            media[kind] = {"schema": {**_PRIMITIVES["bytes"], "description": text}}
        out["requestBody"] = {"required": True, "content": media}
    out["responses"] = responses
    return out
