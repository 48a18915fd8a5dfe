"""``0x1::simple_map`` and ``0x1::multisig_account`` declared: structs, functions, ABIs.

Names, fields (in their order), abilities, parameters and the entry / view flags follow
the Aptos framework's modules; ``multisig_account`` is trimmed to what the embedded node
runs (no time locks, and an existing account is adopted by its own call only, not with
a signed proof).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec

__all__ = ["MULTISIG_ACCOUNT"]

S = StructSpec
_STRING: Final = "0x1::string::String"
_ADDRESSES: Final = "vector<address>"
_STRINGS: Final = "vector<0x1::string::String>"
_BYTES_LIST: Final = "vector<vector<u8>>"
_METADATA: Final = "0x1::simple_map::SimpleMap<0x1::string::String, vector<u8>>"
_TXN: Final = "0x1::multisig_account::MultisigTransaction"
_DROP_STORE: Final = ("drop", "store")


def _entry(name: str, *params: str) -> FunctionSpec:
    return FunctionSpec(name, params, entry=True)


def _private_entry(name: str, *params: str) -> FunctionSpec:
    return FunctionSpec(name, params, entry=True, visibility="private")


def _view(name: str, params: tuple[str, ...], *returns: str) -> FunctionSpec:
    return FunctionSpec(name, params, returns, view=True)


def _handle(event: str) -> str:
    return f"0x1::event::EventHandle<0x1::multisig_account::{event}>"


_HANDLES: Final = (
    ("add_owners_events", "AddOwnersEvent"),
    ("remove_owners_events", "RemoveOwnersEvent"),
    ("update_signature_required_events", "UpdateSignaturesRequiredEvent"),
    ("create_transaction_events", "CreateTransactionEvent"),
    ("vote_events", "VoteEvent"),
    ("execute_rejected_transaction_events", "ExecuteRejectedTransactionEvent"),
    ("execute_transaction_events", "TransactionExecutionSucceededEvent"),
    ("transaction_execution_failed_events", "TransactionExecutionFailedEvent"),
    ("metadata_updated_events", "MetadataUpdatedEvent"),
)
#: The event handles of ``MultisigAccount``, in field order.
HANDLE_FIELDS: Final = tuple(name for name, _ in _HANDLES)

_EXECUTION_ERROR: Final = "0x1::multisig_account::ExecutionError"
# (name, fields after `multisig_account` in the module event; the handle event's own fields)
_EVENTS: Final = (
    ("AddOwners", (("owners_added", _ADDRESSES),)),
    ("RemoveOwners", (("owners_removed", _ADDRESSES),)),
    (
        "UpdateSignaturesRequired",
        (("old_num_signatures_required", "u64"), ("new_num_signatures_required", "u64")),
    ),
    (
        "CreateTransaction",
        (("creator", "address"), ("sequence_number", "u64"), ("transaction", _TXN)),
    ),
    ("Vote", (("owner", "address"), ("sequence_number", "u64"), ("approved", "bool"))),
    (
        "ExecuteRejectedTransaction",
        (("sequence_number", "u64"), ("num_rejections", "u64"), ("executor", "address")),
    ),
    (
        "TransactionExecutionSucceeded",
        (
            ("executor", "address"),
            ("sequence_number", "u64"),
            ("transaction_payload", "vector<u8>"),
            ("num_approvals", "u64"),
        ),
    ),
    (
        "TransactionExecutionFailed",
        (
            ("executor", "address"),
            ("sequence_number", "u64"),
            ("transaction_payload", "vector<u8>"),
            ("num_approvals", "u64"),
            ("execution_error", _EXECUTION_ERROR),
        ),
    ),
    ("MetadataUpdated", (("old_metadata", _METADATA), ("new_metadata", _METADATA))),
)


def _event_structs() -> tuple[StructSpec, ...]:
    out = []
    for name, fields in _EVENTS:
        out.append(S(name, _DROP_STORE, (("multisig_account", "address"), *fields), is_event=True))
        out.append(S(name + "Event", _DROP_STORE, fields))
    return tuple(out)


MULTISIG_ACCOUNT = ModuleSpec(
    "multisig_account",
    structs=tuple(
        sorted(
            (
                *_event_structs(),
                S(
                    "ExecutionError",
                    ("copy", "drop", "store"),
                    (("abort_location", _STRING), ("error_type", _STRING), ("error_code", "u64")),
                ),
                S(
                    "MultisigAccount",
                    ("key",),
                    (
                        ("owners", _ADDRESSES),
                        ("num_signatures_required", "u64"),
                        ("transactions", f"0x1::table::Table<u64, {_TXN}>"),
                        ("last_executed_sequence_number", "u64"),
                        ("next_sequence_number", "u64"),
                        (
                            "signer_cap",
                            "0x1::option::Option<0x1::account::SignerCapability>",
                        ),
                        ("metadata", _METADATA),
                        *((field, _handle(event)) for field, event in _HANDLES),
                    ),
                ),
                S(
                    "MultisigTransaction",
                    ("copy", "drop", "store"),
                    (
                        ("payload", "0x1::option::Option<vector<u8>>"),
                        ("payload_hash", "0x1::option::Option<vector<u8>>"),
                        ("votes", "0x1::simple_map::SimpleMap<address, bool>"),
                        ("creator", "address"),
                        ("creation_time_secs", "u64"),
                    ),
                ),
            ),
            key=lambda s: s.name,
        )
    ),
    functions=tuple(
        sorted(
            (
                _private_entry("add_owner", "&signer", "address"),
                _view("available_transaction_queue_capacity", ("address",), "u64"),
                _private_entry("add_owners", "&signer", _ADDRESSES),
                _private_entry(
                    "add_owners_and_update_signatures_required", "&signer", _ADDRESSES, "u64"
                ),
                _entry("approve_transaction", "&signer", "address", "u64"),
                _view("can_be_executed", ("address", "u64"), "bool"),
                _view("can_be_rejected", ("address", "u64"), "bool"),
                _view("can_execute", ("address", "address", "u64"), "bool"),
                _view("can_reject", ("address", "address", "u64"), "bool"),
                _entry("create", "&signer", "u64", _STRINGS, _BYTES_LIST),
                _entry("create_transaction", "&signer", "address", "vector<u8>"),
                _entry("create_transaction_with_hash", "&signer", "address", "vector<u8>"),
                _entry("create_with_owners", "&signer", _ADDRESSES, "u64", _STRINGS, _BYTES_LIST),
                _entry(
                    "create_with_owners_then_remove_bootstrapper",
                    "&signer",
                    _ADDRESSES,
                    "u64",
                    _STRINGS,
                    _BYTES_LIST,
                ),
                _private_entry(
                    "create_with_existing_account_and_revoke_auth_key_call",
                    "&signer",
                    _ADDRESSES,
                    "u64",
                    _STRINGS,
                    _BYTES_LIST,
                ),
                _private_entry(
                    "create_with_existing_account_call",
                    "&signer",
                    _ADDRESSES,
                    "u64",
                    _STRINGS,
                    _BYTES_LIST,
                ),
                _entry("execute_rejected_transaction", "&signer", "address"),
                _entry("execute_rejected_transactions", "&signer", "address", "u64"),
                _view("get_next_multisig_account_address", ("address",), "address"),
                _view("get_next_transaction_payload", ("address", "vector<u8>"), "vector<u8>"),
                _view("get_pending_transactions", ("address",), f"vector<{_TXN}>"),
                _view("get_transaction", ("address", "u64"), _TXN),
                _view("is_owner", ("address", "address"), "bool"),
                _view("last_resolved_sequence_number", ("address",), "u64"),
                _view("metadata", ("address",), _METADATA),
                _view("next_sequence_number", ("address",), "u64"),
                _view("num_signatures_required", ("address",), "u64"),
                _view("owners", ("address",), _ADDRESSES),
                _entry("reject_transaction", "&signer", "address", "u64"),
                _private_entry("remove_owner", "&signer", "address"),
                _private_entry("remove_owners", "&signer", _ADDRESSES),
                _private_entry("swap_owner", "&signer", "address", "address"),
                _private_entry("swap_owners", "&signer", _ADDRESSES, _ADDRESSES),
                _private_entry(
                    "swap_owners_and_update_signatures_required",
                    "&signer",
                    _ADDRESSES,
                    _ADDRESSES,
                    "u64",
                ),
                _private_entry("update_metadata", "&signer", _STRINGS, _BYTES_LIST),
                _private_entry("update_signatures_required", "&signer", "u64"),
                _view("vote", ("address", "u64", "address"), "bool", "bool"),
                _entry("vote_transaction", "&signer", "address", "u64", "bool"),
                _entry("vote_transactions", "&signer", "address", "u64", "u64", "bool"),
                _entry("vote_transanction", "&signer", "address", "u64", "bool"),
            ),
            key=lambda f: f.name,
        )
    ),
)
