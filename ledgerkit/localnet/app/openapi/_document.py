"""The embedded node's own OpenAPI 3.0.3 document, served at ``GET /v1/spec.json``.

It describes the endpoints this node serves and the JSON it reads and writes, precisely
enough that tests validate real answers against it, yet never stricter than the public
nodes of the family: objects stay open to fields added later (``additionalProperties`` is
left at its default, true), and optional fields may be absent or ``null``.

Tagged unions are a ``oneOf`` of ``<Union>_<Tag>`` wrappers. Each wrapper pins the tag to
one value and adds the fields of an untagged base schema, so the ``discriminator`` and
plain JSON Schema validation agree. Object fields are written in a small notation,
``"name:Type name:[Type]"`` (see ``_notation``), to keep the tables readable.

The operations, their parameters and error statuses come from the endpoint table
(``ledgerkit._endpoints``); this module only renders them, with the schemas of
``_components``. The document is plain data, built without I/O once per ``base_path``.
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Final

from ledgerkit._endpoints import BCS, JSON, PARAMETERS, SERVICES, Operation, operations_of
from ledgerkit._version import __version__
from ledgerkit.localnet.app.openapi._components import _schemas
from ledgerkit.localnet.app.openapi._notation import _PRIMITIVES, Schema, _ref, _type, _uint
from ledgerkit.localnet.app.openapi._scalar_schemas import _HEX, _TYPE_DEPTH, _struct_tag

__all__ = ["openapi_document"]

_NODE: Final = SERVICES["node"]


def openapi_document(*, base_path: str = _NODE.base_path) -> dict[str, Any]:
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
            "version": __version__,
            "description": _DESCRIPTION,
            "license": {"name": "Apache-2.0"},
        },
        "servers": [{"url": base_path, "description": "This node."}],
        "tags": [{"name": name, "description": text} for name, text in _TAGS.items()],
        "paths": _paths(),
        "components": {
            "schemas": _schemas(),
            "parameters": {key: _parameter(key) for key in _node_parameters()},
            "headers": _headers(),
            "responses": _error_responses(),
        },
    }


def _node_parameters() -> list[str]:
    """The parameter keys the node's operations use, in table order (the other services'
    parameters belong to their own hosts)."""
    used = {key for op in operations_of("node") for key in op.params}
    return [key for key in PARAMETERS if key in used]


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


def _error_responses() -> dict[str, Schema]:
    return {
        name: {
            "description": text,
            "headers": _response_headers(success=False),
            "content": {JSON: {"schema": _ref(_NODE.error_schema)}},
        }
        for name, text in _NODE.errors.values()
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

# Schemas of the parameter type tokens that name no schema of the document.
_PARAMETER_SCHEMAS: Final[dict[str, Schema]] = {
    "address": _ADDRESS_IN_PATH,
    "hash": _HASH_IN_PATH,
    "asset": _ASSET_TYPE,
    "cursor": _CURSOR,
    "limit": _LIMIT,
    "flag": _FLAG,
}


def _parameter(key: str) -> Schema:
    param = PARAMETERS[key]
    schema = _PARAMETER_SCHEMAS.get(param.type)
    return {
        "name": param.name,
        "in": param.where,
        "required": param.required,
        "description": param.description,
        "schema": _type(param.type) if schema is None else dict(schema),
    }


# -- paths ----------------------------------------------------------------------------------


def _paths() -> dict[str, dict[str, Schema]]:
    paths: dict[str, dict[str, Schema]] = {}
    for op in operations_of("node"):
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op)
    return paths


def _operation(op: Operation) -> Schema:
    content: dict[str, Schema] = {JSON: {"schema": _type(op.answer)}} if op.answer else {}
    if op.answer_bcs:
        bcs = {**_PRIMITIVES["bytes"], "description": op.answer_bcs}
        if op.id == "submit_transaction":  # the BCS answer is empty
            bcs["maxLength"] = 0
        content[BCS] = {"schema": bcs}
    headers = _response_headers(success=True, extra=op.headers)
    responses: dict[str, Schema] = {
        str(status): {
            "description": text or op.summary + ".",
            "headers": headers,
            "content": content,
        }
        for status, text in op.success
    }
    errors = SERVICES[op.service].errors
    responses |= {str(code): _ref(errors[code][0], "responses") for code in op.errors}
    out: Schema = {"operationId": op.id, "tags": [op.tag], "summary": op.summary}
    if op.params:
        out["parameters"] = [_ref(key, "parameters") for key in op.params]
    if op.body:
        schema = _type(op.body)
        if op.max_items:
            schema = {**schema, "maxItems": op.max_items}
        media = {JSON: {"schema": schema}}
        if op.body_bcs is not None:
            kind, text = op.body_bcs
            media[kind] = {"schema": {**_PRIMITIVES["bytes"], "description": text}}
        out["requestBody"] = {"required": True, "content": media}
    out["responses"] = responses
    return out
