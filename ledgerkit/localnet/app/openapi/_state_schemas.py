"""State in the node's OpenAPI document: accounts, resources, modules and their ABIs,
events, changes to state, table items and view calls."""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.app.openapi._notation import Schema, _records, _unions

# name: (description, required fields, optional fields[, fields absent but never null])
_RECORDS: Final[dict[str, tuple[str, ...]]] = {
    "Account": (
        "An account's sequence number and authentication key.",
        "sequence_number:U64 authentication_key:HexBytes",
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

# union: (description, "tag:Variant ...")
_UNIONS: Final[dict[str, tuple[str, str]]] = {
    "WriteSetChange": (
        "One change to state, tagged by `type`.",
        "write_resource:WriteResource delete_resource:DeleteResource write_module:WriteModule "
        "delete_module:DeleteModule write_table_item:WriteTableItem "
        "delete_table_item:DeleteTableItem",
    ),
}


def _state_schemas() -> dict[str, Schema]:
    """What the ledger holds and how transactions change it."""
    return _records(_RECORDS) | _unions(_UNIONS)
