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
from ledgerkit.localnet.app._limits import MAX_BATCH_TRANSACTIONS
from ledgerkit.localnet.app._openapi_schemas import (
    _HEX,
    _PRIMITIVES,
    _TYPE_DEPTH,
    Schema,
    _ref,
    _schemas,
    _struct_tag,
    _type,
    _uint,
)

__all__ = ["openapi_document"]

_JSON: Final = "application/json"
_BCS: Final = "application/x-bcs"
_SIGNED_BCS: Final = "application/x.aptos.signed_transaction+bcs"
_VIEW_BCS: Final = "application/x.aptos.view_function+bcs"


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
    "carries the ledger position in `X-NODE-*` headers and in their `X-APTOS-*` twins (as "
    "public nodes send them), and every failure is one error record "
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


#: The spec's header family, then the twins public nodes send (and their clients read).
_FAMILIES: Final = ("X-NODE-", "X-APTOS-")


def _response_headers(*, success: bool, extra: tuple[str, ...] = ()) -> dict[str, Schema]:
    suffix = "" if success else "OnError"
    out: dict[str, Schema] = {}
    for family in _FAMILIES:
        out |= {
            f"{family}{key}": _ref(name + suffix, "headers") for key, name, _, _ in _LEDGER_HEADERS
        }
        out |= {f"{family}{_EXTRA_HEADERS[name][0]}": _ref(name, "headers") for name in extra}
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
_ASSET_TYPE: Final = {
    "type": "string",
    "pattern": f"^((0x)?{_HEX}{{1,64}}|{_struct_tag(_TYPE_DEPTH)})$",
}
# Hex of a BCS state key, as the node writes it in X-NODE-CURSOR.
_CURSOR: Final = {"type": "string", "pattern": "^(0x)?([0-9a-f]{2})+$"}
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
    "start_cursor": ("start", "query", _CURSOR, "Cursor from `X-NODE-CURSOR`; omit at first."),
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
        _ASSET_TYPE,
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
    max_items: int = 0  # most items of an array body; 0: no bound
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
    _Op("post", "/transactions/batch", "submit_batch_transactions", "Transactions",
        "Submit up to 10 signed transactions, each admitted as a single submission would be",
        "TransactionsBatchSubmissionResult", "400 403 413 500 507",
        body="[SubmitTransactionRequest]", max_items=MAX_BATCH_TRANSACTIONS),
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
    "[SubmitTransactionRequest]": (_SIGNED_BCS, "BCS sequence of signed transactions."),
    "ViewRequest": (_VIEW_BCS, "BCS of an entry-function call (module, name, types, args)."),
}


# Success statuses other than a lone 200, by operation.
_SUCCESS_STATUSES: Final = {
    "submit_transaction": {"202": "Submit a signed transaction."},
    "submit_batch_transactions": {
        "202": "Every transaction was accepted; `transaction_failures` is empty.",
        "206": "Some or all were refused: `transaction_failures` lists each refused one's "
        "error record and position in the batch.",
    },
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
    statuses = _SUCCESS_STATUSES.get(op.op_id, {"200": op.summary + "."})
    responses = {
        status: {
            "description": text,
            "headers": _response_headers(success=True, extra=tuple(op.headers.split())),
            "content": content,
        }
        for status, text in statuses.items()
    }
    responses |= {code: _ref(_ERRORS[int(code)][0], "responses") for code in op.errors.split()}
    out: Schema = {"operationId": op.op_id, "tags": [op.tag], "summary": op.summary}
    if op.params:
        out["parameters"] = [_ref(key, "parameters") for key in op.params.split()]
    if op.body:
        schema = _type(op.body)
        if op.max_items:
            schema = {**schema, "maxItems": op.max_items}
        media = {_JSON: {"schema": schema}}
        if op.body in _BCS_REQUESTS:
            kind, text = _BCS_REQUESTS[op.body]
            media[kind] = {"schema": {**_PRIMITIVES["bytes"], "description": text}}
        out["requestBody"] = {"required": True, "content": media}
    out["responses"] = responses
    return out
