"""The node's OpenAPI document: valid OpenAPI 3.0, complete, and true to the node's JSON.

Golden bodies below are written by hand in the shape the node sends; each must validate
against the document's schemas (OpenAPI 3.0 ``nullable`` read as "also null"), and the
same bodies with a field missing or a U64 sent as a JSON number must not. The last tests
hold the document against the public node family's own OpenAPI file, when it is present.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import openapi_spec_validator
import pytest
import yaml
from referencing import Registry
from referencing.jsonschema import DRAFT4

import ledgerkit
from ledgerkit import ErrorCode
from ledgerkit._endpoints import operations_of
from ledgerkit.localnet.app.openapi import openapi_document

# The public node family's OpenAPI document, kept beside the project (not part of it).
REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "aptos-openapi-spec.yaml"
URN = "urn:ledgerkit:localnet:openapi"
LEDGER_HEADERS = tuple(
    "X-NODE-" + name
    for name in (
        "CHAIN-ID",
        "LEDGER-VERSION",
        "LEDGER-OLDEST-VERSION",
        "LEDGER-TIMESTAMPUSEC",
        "EPOCH",
        "BLOCK-HEIGHT",
        "OLDEST-BLOCK-HEIGHT",
    )
)
# The error codes the document lists: ErrorCode's, which tests/test_errors.py holds to the
# spec and test_error_codes_and_operations_match_the_public_nodes to the public nodes'.
ERROR_CODES = frozenset(code.value for code in ErrorCode)
# The node's own description of its API, kept beside the project (not part of it). The
# operations it lists are what the document must describe, whatever else the node serves.
SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "ledger-node-rest-api.md"
#: An operation as the spec lists it: "- `GET /accounts/{address}` : ...".
SPEC_OPERATION = re.compile(r"^- `(GET|POST|PUT|DELETE|PATCH) (/[^`\s]*)`", re.MULTILINE)
# The node's operations: the rows of its endpoint table, of which the document is a view.
OPERATIONS = {(op.method.lower(), op.path) for op in operations_of("node")}
# The document (and the info) takes no input and ignores Accept and switched-off groups, so the
# only failure it can answer with is the node's own (500).
NO_CLIENT_ERROR = {("get", "/spec.json"), ("get", "/info")}
BCS_TOO = {
    ("get", "/accounts/{address}/resources"),
    ("get", "/accounts/{address}/resource/{resource_type}"),
    ("get", "/accounts/{address}/modules"),
    ("get", "/accounts/{address}/module/{module_name}"),
    ("get", "/accounts/{address}/balance/{asset_type}"),
    ("post", "/tables/{table_handle}/item"),
    ("get", "/estimate_gas_price"),
    ("post", "/view"),
    ("post", "/transactions"),  # 202 with an empty body
    ("get", "/accounts/{address}/transactions"),
    ("get", "/accounts/{address}/transaction_summaries"),
    ("get", "/transactions"),
    ("get", "/transactions/by_hash/{txn_hash}"),
    ("get", "/transactions/wait_by_hash/{txn_hash}"),
    ("get", "/transactions/by_version/{txn_version}"),
}
# Simulation answers in JSON only here: BCS of the simulated output is not produced.
BCS_ONLY = {("post", "/tables/{table_handle}/raw_item")}


# -- helpers --------------------------------------------------------------------------------


def h(label: str) -> str:
    """A realistic 32-byte hash, distinct per label."""
    return "0x" + hashlib.sha3_256(label.encode()).hexdigest()


def hexbytes(label: str, size: int) -> str:
    return "0x" + hashlib.shake_256(label.encode()).hexdigest(size)


def walk(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, (*path, str(index)))


def pointer(doc: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def resolve(doc: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = pointer(doc, node["$ref"])
    return node


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema objects as JSON Schema: ``nullable: true`` also admits null."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: as_json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable") is True:
        return {"anyOf": [out, {"type": "null"}]}
    return out


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return openapi_document()


@pytest.fixture(scope="module")
def registry(doc: dict[str, Any]) -> Registry[Any]:
    registry: Registry[Any] = Registry().with_resource(
        URN, DRAFT4.create_resource(as_json_schema(doc))
    )
    return registry


def problems(registry: Registry[Any], schema: dict[str, Any], body: Any) -> list[str]:
    """Why ``body`` does not fit ``schema`` (refs into the document resolve); [] if it fits."""
    validator = jsonschema.Draft4Validator(as_json_schema(schema), registry=registry)
    return [error.message for error in validator.iter_errors(body)]


def named(name: str) -> dict[str, Any]:
    return {"$ref": f"{URN}#/components/schemas/{name}"}


def success_status(doc: dict[str, Any], method: str, path: str) -> str:
    statuses: list[str] = list(doc["paths"][path][method]["responses"])
    return next(s for s in statuses if s.startswith("2"))


def success_schema(doc: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The JSON success schema of an operation, its refs made absolute for ``problems``."""
    success = doc["paths"][path][method]["responses"][success_status(doc, method, path)]
    schema = success["content"]["application/json"]["schema"]
    absolute: dict[str, Any] = json.loads(json.dumps(schema).replace('"#/', f'"{URN}#/'))
    return absolute


# -- the document as a whole ----------------------------------------------------------------


def test_document_is_plain_json_with_our_title_version_and_server(doc: dict[str, Any]) -> None:
    assert json.loads(json.dumps(doc)) == doc
    assert doc["openapi"] == "3.0.3"
    assert doc["info"]["title"] == "ledgerkit local node"
    assert doc["info"]["version"] == ledgerkit.__version__
    assert doc["info"]["description"]
    assert doc["servers"] == [{"url": "/v1", "description": "This node."}]
    assert openapi_document(base_path="http://127.0.0.1:8080/v1")["servers"][0]["url"] == (
        "http://127.0.0.1:8080/v1"
    )


def test_callers_get_their_own_copy(doc: dict[str, Any]) -> None:
    mine = openapi_document()
    mine["paths"].clear()
    mine["components"]["schemas"]["U64"]["pattern"] = "changed"
    again = openapi_document()
    assert again == doc
    assert (
        again["components"]["schemas"]["U64"]["pattern"]
        == doc["components"]["schemas"]["U64"]["pattern"]
    )


def test_document_validates_with_openapi_spec_validator(doc: dict[str, Any]) -> None:
    openapi_spec_validator.validate(doc)


def test_document_fits_the_official_openapi_30_json_schema(doc: dict[str, Any]) -> None:
    # schemathesis (a test dependency) ships a copy of the OpenAPI Initiative's schema.
    from schemathesis.specs.openapi import definitions

    official = definitions.OPENAPI_30
    errors = jsonschema.Draft4Validator(official).iter_errors(doc)
    assert [f"{list(e.absolute_path)}: {e.message}" for e in errors] == []


def test_every_schema_in_the_document_is_a_valid_json_schema(doc: dict[str, Any]) -> None:
    schemas = list(doc["components"]["schemas"].values())
    schemas += [p["schema"] for p in doc["components"]["parameters"].values()]
    schemas += [h["schema"] for h in doc["components"]["headers"].values()]
    schemas += [
        media["schema"]
        for path, node in walk(doc["paths"])
        if path and path[-1] == "content"
        for media in node.values()
    ]
    assert len(schemas) > 150
    for schema in schemas:
        jsonschema.Draft4Validator.check_schema(schema)
        jsonschema.Draft7Validator.check_schema(schema)


def test_every_ref_resolves_inside_the_document(doc: dict[str, Any]) -> None:
    refs = [node["$ref"] for _, node in walk(doc) if isinstance(node, dict) and "$ref" in node]
    assert len(refs) > 300
    for ref in refs:
        assert pointer(doc, ref) is not None, ref
    mappings = [
        target
        for _, node in walk(doc)
        if isinstance(node, dict) and "discriminator" in node
        for target in node["discriminator"]["mapping"].values()
    ]
    for target in mappings:
        pointer(doc, target)


def test_objects_stay_open_to_new_fields(doc: dict[str, Any]) -> None:
    closed = [
        p
        for p, node in walk(doc)
        if isinstance(node, dict) and node.get("additionalProperties") is False
    ]
    assert closed == []


def test_unions_pin_one_tag_per_variant(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    unions = {name: s for name, s in schemas.items() if "discriminator" in s}
    assert {"Transaction", "TransactionPayload", "WriteSetChange", "TransactionSignature"} <= set(
        unions
    )
    for name, union in unions.items():
        tag = union["discriminator"]["propertyName"]
        mapping = union["discriminator"]["mapping"]
        assert [v["$ref"] for v in union["oneOf"]] == list(mapping.values()), name
        for value, target in mapping.items():
            pinned = [
                part["properties"][tag]["enum"]
                for part in pointer(doc, target)["allOf"]
                if tag in part.get("properties", {}) and tag in part.get("required", [])
            ]
            assert pinned == [[value]], (name, value)


@pytest.mark.parametrize(
    ("name", "tags"),
    [
        (
            "Transaction",
            "pending_transaction user_transaction genesis_transaction block_metadata_transaction "
            "state_checkpoint_transaction block_epilogue_transaction validator_transaction",
        ),
        (
            "TransactionPayload",
            "entry_function_payload script_payload module_bundle_payload multisig_payload",
        ),
        (
            "WriteSetChange",
            "write_resource delete_resource write_module delete_module write_table_item "
            "delete_table_item",
        ),
        (
            "TransactionSignature",
            "ed25519_signature multi_ed25519_signature multi_agent_signature "
            "fee_payer_signature single_sender no_account_signature",
        ),
        (
            "AccountSignature",
            "ed25519_signature multi_ed25519_signature single_key_signature multi_key_signature "
            "no_account_signature abstraction_signature abstract_signature",
        ),
        ("GenesisPayload", "write_set_payload"),
    ],
)
def test_union_tags(doc: dict[str, Any], name: str, tags: str) -> None:
    mapping = doc["components"]["schemas"][name]["discriminator"]["mapping"]
    assert list(mapping) == tags.split()


# -- operations -----------------------------------------------------------------------------


def test_exactly_the_node_endpoints_are_described(doc: dict[str, Any]) -> None:
    assert {(method, path) for method, path, _ in operations(doc)} == OPERATIONS


@pytest.fixture(scope="module")
def spec_operations() -> set[tuple[str, str]]:
    """The operations the spec lists; skips the test when the spec is not here (fails in CI)."""
    if not SPEC.exists():
        # The spec sits beside the project in CI; elsewhere it may not.
        if os.environ.get("CI"):
            pytest.fail(f"{SPEC} is missing")
        pytest.skip(f"{SPEC} is not here")
    found = SPEC_OPERATION.findall(SPEC.read_text("utf-8"))
    return {(method.lower(), path) for method, path in found}


def test_every_operation_the_spec_lists_is_described(
    doc: dict[str, Any], spec_operations: set[tuple[str, str]]
) -> None:
    # The spec names the node's main operations (it says the others are "not shown").
    assert {("get", "/"), ("post", "/view"), ("get", "/blocks/by_height/{block_height}")} <= (
        spec_operations
    )
    described = {(method, path) for method, path, _ in operations(doc)}
    assert spec_operations <= described, sorted(spec_operations - described)


def test_every_operation_has_an_id_summary_tag_a_success_and_a_client_error(
    doc: dict[str, Any],
) -> None:
    tags = {tag["name"] for tag in doc["tags"]}
    assert tags == {
        "General",
        "Accounts",
        "Events",
        "Transactions",
        "Tables",
        "View",
        "Blocks",
        "Gas",
    }
    ids = [operation["operationId"] for _, _, operation in operations(doc)]
    assert len(ids) == len(set(ids)) == len(OPERATIONS)
    for method, path, operation in operations(doc):
        assert re.fullmatch("[a-z_]+", operation["operationId"])
        assert operation["summary"]
        assert len(operation["tags"]) == 1
        assert operation["tags"][0] in tags
        statuses = set(operation["responses"])
        assert any(s.startswith("2") for s in statuses), (method, path)
        if (method, path) not in NO_CLIENT_ERROR:
            assert any(s.startswith("4") for s in statuses), (method, path)
        assert "500" in statuses


def test_statuses_follow_what_each_endpoint_can_do(doc: dict[str, Any]) -> None:
    for method, path, operation in operations(doc):
        statuses = set(operation["responses"])
        where = (method, path)
        assert ("413" in statuses) == (method == "post"), where
        submits = where in (("post", "/transactions"), ("post", "/transactions/batch"))
        assert ("507" in statuses) == submits, where
        assert ("503" in statuses) == (path == "/-/healthy"), where
        groupless = path in ("/-/healthy", "/spec.json", "/info")
        assert ("403" in statuses) != groupless, where
        reads_state = "ledger_version" in json.dumps(operation.get("parameters", []))
        if reads_state:
            assert {"404", "410"} <= statuses, where
    assert success_status(doc, "post", "/transactions") == "202"
    batch = doc["paths"]["/transactions/batch"]["post"]["responses"]
    assert {"202", "206"} <= set(batch)


def test_every_response_documents_the_ledger_headers(doc: dict[str, Any]) -> None:
    for method, path, operation in operations(doc):
        for status, response in operation["responses"].items():
            response = resolve(doc, response)
            headers = {name: resolve(doc, header) for name, header in response["headers"].items()}
            assert set(LEDGER_HEADERS) <= set(headers), (method, path, status)
            success = status.startswith("2")
            for name in LEDGER_HEADERS:
                assert headers[name].get("required", False) is success, (path, status, name)
                assert headers[name]["schema"]["type"] == "integer"
            has_cursor = "X-NODE-CURSOR" in headers
            assert has_cursor == (success and path.endswith(("/resources", "/modules")))
            has_gas = "X-NODE-GAS-USED" in headers
            assert has_gas == (success and path in ("/view", "/transactions/simulate"))


def test_error_responses_carry_the_error_record(doc: dict[str, Any]) -> None:
    for _, _, operation in operations(doc):
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")):
                content = resolve(doc, response)["content"]
                assert content == {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                }
    error = doc["components"]["schemas"]["Error"]
    assert error["required"] == ["message", "error_code"]
    codes = doc["components"]["schemas"]["ErrorCode"]["enum"]
    assert len(codes) == len(set(codes)) == 24
    assert set(codes) == ERROR_CODES


def test_media_types_of_successes_and_request_bodies(doc: dict[str, Any]) -> None:
    for method, path, operation in operations(doc):
        success = operation["responses"][success_status(doc, method, path)]
        media = set(success["content"])
        if (method, path) in BCS_ONLY:
            assert media == {"application/x-bcs"}
        elif (method, path) in BCS_TOO:
            assert media == {"application/json", "application/x-bcs"}, path
        else:
            assert media == {"application/json"}, path
    bodies = {
        (method, path): set(operation["requestBody"]["content"])
        for method, path, operation in operations(doc)
        if "requestBody" in operation
    }
    signed = {"application/json", "application/x.aptos.signed_transaction+bcs"}
    assert bodies == {
        ("post", "/transactions"): signed,
        ("post", "/transactions/simulate"): signed,
        ("post", "/transactions/batch"): signed,
        ("post", "/transactions/encode_submission"): {"application/json"},
        ("post", "/tables/{table_handle}/item"): {"application/json"},
        ("post", "/tables/{table_handle}/raw_item"): {"application/json"},
        ("post", "/view"): {"application/json", "application/x.aptos.view_function+bcs"},
    }


def test_path_parameters_are_declared_and_required(doc: dict[str, Any]) -> None:
    for method, path, operation in operations(doc):
        params = [resolve(doc, p) for p in operation.get("parameters", [])]
        in_path = {p["name"] for p in params if p["in"] == "path"}
        assert in_path == set(re.findall(r"{(\w+)}", path)), (method, path)
        assert all(p["required"] for p in params if p["in"] == "path")
        names = [(p["name"], p["in"]) for p in params]
        assert len(names) == len(set(names))


def param(doc: dict[str, Any], method: str, path: str, name: str) -> dict[str, Any]:
    for p in doc["paths"][path][method].get("parameters", []):
        found: dict[str, Any] = resolve(doc, p)
        if found["name"] == name:
            return found
    raise KeyError(name)


def test_query_parameters_of_the_brief(doc: dict[str, Any], registry: Registry[Any]) -> None:
    aux = param(doc, "get", "/transactions/auxiliary_info", "start_version")
    assert aux["required"] is True
    simulate = doc["paths"]["/transactions/simulate"]["post"]
    flags = [resolve(doc, p) for p in simulate["parameters"]]
    assert {p["name"] for p in flags} == {
        "estimate_max_gas_amount",
        "estimate_gas_unit_price",
        "estimate_prioritized_gas_unit_price",
    }
    assert all(p["schema"]["type"] == "boolean" for p in flags)
    with_txns = param(doc, "get", "/blocks/by_height/{block_height}", "with_transactions")
    assert with_txns["schema"] == {"type": "boolean", "default": False}
    cursor = param(doc, "get", "/accounts/{address}/resources", "start")
    assert cursor["schema"]["type"] == "string"
    assert problems(registry, cursor["schema"], "0x00ab") == []
    for bad in ("", "0x", "3", "0xABCD", "zz"):  # the node answers 400
        assert problems(registry, cursor["schema"], bad), bad
    duration = param(doc, "get", "/-/healthy", "duration_secs")
    assert duration["schema"]["format"] == "uint32"

    limit = param(doc, "get", "/transactions", "limit")["schema"]
    assert problems(registry, limit, 1) == problems(registry, limit, 65535) == []
    assert problems(registry, limit, 0)  # the node answers 400
    assert problems(registry, limit, 65536)


@pytest.mark.parametrize(
    ("name", "good", "bad"),
    [
        ("address", ["0x1", "1", "0x" + "ab" * 32, "AB" * 32], ["0x", "0x" + "1" * 65, "0xg"]),
        ("txn_hash", [h("t"), h("t")[2:]], [h("t")[:-1], "0x1"]),
    ],
)
def test_path_patterns(
    doc: dict[str, Any], registry: Registry[Any], name: str, good: list[str], bad: list[str]
) -> None:
    schema = doc["components"]["parameters"][name]["schema"]
    for text in good:
        assert problems(registry, schema, text) == [], text
    for text in bad:
        assert problems(registry, schema, text), text


# -- golden bodies --------------------------------------------------------------------------

SENDER = "0x" + hashlib.sha3_256(b"alice").hexdigest()
RECEIVER = "0x" + hashlib.sha3_256(b"bob").hexdigest()
VALIDATOR = "0x" + hashlib.sha3_256(b"validator-0").hexdigest()
TRANSFER = {
    "type": "entry_function_payload",
    "function": "0x1::aptos_account::transfer",
    "type_arguments": [],
    "arguments": [RECEIVER, "100000000"],
}
COMMITTED = {
    "state_change_hash": h("state"),
    "event_root_hash": h("events"),
    "state_checkpoint_hash": None,
    "success": True,
    "vm_status": "Executed successfully",
    "accumulator_root_hash": h("accumulator"),
}
USER_TXN: dict[str, Any] = {
    "type": "user_transaction",
    "version": "1207",
    "hash": h("transfer"),
    **COMMITTED,
    "gas_used": "11",
    "changes": [
        {
            "type": "write_resource",
            "address": SENDER,
            "state_key_hash": h("alice/account"),
            "data": {
                "type": "0x1::account::Account",
                "data": {
                    "authentication_key": SENDER,
                    "coin_register_events": {
                        "counter": "0",
                        "guid": {"id": {"addr": SENDER, "creation_num": "0"}},
                    },
                    "guid_creation_num": "2",
                    "rotation_capability_offer": {"for": {"vec": []}},
                    "sequence_number": "4",
                },
            },
        }
    ],
    "sender": SENDER,
    "sequence_number": "3",
    "max_gas_amount": "2000",
    "gas_unit_price": "100",
    "expiration_timestamp_secs": "1735689630",
    "payload": TRANSFER,
    "signature": {
        "type": "ed25519_signature",
        "public_key": hexbytes("alice-key", 32),
        "signature": hexbytes("alice-sig", 64),
    },
    "events": [
        {
            "guid": {"creation_number": "0", "account_address": "0x0"},
            "sequence_number": "0",
            "type": "0x1::fungible_asset::Withdraw",
            "data": {"amount": "100000000", "store": hexbytes("alice-store", 32)},
        },
        {
            "guid": {"creation_number": "0", "account_address": "0x0"},
            "sequence_number": "0",
            "type": "0x1::transaction_fee::FeeStatement",
            "data": {
                "execution_gas_units": "4",
                "io_gas_units": "7",
                "total_charge_gas_units": "11",
            },
        },
    ],
    "timestamp": "1735689600123456",
}
BLOCK_METADATA_TXN: dict[str, Any] = {
    "type": "block_metadata_transaction",
    "version": "1206",
    "hash": h("block-42"),
    **COMMITTED,
    "gas_used": "0",
    "changes": [
        {
            "type": "write_resource",
            "address": "0x1",
            "state_key_hash": h("0x1/block"),
            "data": {
                "type": "0x1::block::BlockResource",
                "data": {"epoch_interval": "7200000000", "height": "42"},
            },
        }
    ],
    "id": h("block-42-id"),
    "epoch": "2",
    "round": "57",
    "events": [
        {
            "guid": {"creation_number": "3", "account_address": "0x1"},
            "sequence_number": "42",
            "type": "0x1::block::NewBlockEvent",
            "data": {"epoch": "2", "height": "42", "proposer": VALIDATOR, "round": "57"},
        }
    ],
    "previous_block_votes_bitvec": [255, 1],
    "proposer": VALIDATOR,
    "failed_proposer_indices": [],
    "timestamp": "1735689600000000",
    "block_metadata_extension": {"type": "v1", "randomness": hexbytes("rand-42", 32)},
}
MODULE: dict[str, Any] = {
    "bytecode": "0xa11ceb0b0700000a0c01000a020a" + "00" * 12,
    "abi": {
        "address": "0x1",
        "name": "coin",
        "friends": ["0x1::aptos_coin", "0x1::genesis"],
        "exposed_functions": [
            {
                "name": "balance",
                "visibility": "public",
                "is_entry": False,
                "is_view": True,
                "generic_type_params": [{"constraints": []}],
                "params": ["address"],
                "return": ["u64"],
            },
            {
                "name": "transfer",
                "visibility": "public",
                "is_entry": True,
                "is_view": False,
                "generic_type_params": [{"constraints": []}],
                "params": ["&signer", "address", "u64"],
                "return": [],
            },
        ],
        "structs": [
            {
                "name": "CoinStore",
                "is_native": False,
                "is_event": False,
                "is_enum": False,
                "abilities": ["key"],
                "generic_type_params": [{"constraints": []}],
                "fields": [
                    {"name": "coin", "type": "0x1::coin::Coin<T0>"},
                    {"name": "frozen", "type": "bool"},
                ],
                "variants": [],
            }
        ],
    },
}
GENESIS_TXN: dict[str, Any] = {
    "type": "genesis_transaction",
    "version": "0",
    "hash": h("genesis"),
    **COMMITTED,
    "gas_used": "0",
    "changes": [
        {
            "type": "write_module",
            "address": "0x1",
            "state_key_hash": h("0x1/coin"),
            "data": MODULE,
        },
        {
            "type": "write_table_item",
            "state_key_hash": h("table-item"),
            "handle": hexbytes("table", 32),
            "key": "0x0100",
            "value": "0x0a",
            "data": None,
        },
    ],
    "payload": {
        "type": "write_set_payload",
        "write_set": {
            "type": "direct_write_set",
            "changes": [],
            "events": [
                {
                    "guid": {"creation_number": "2", "account_address": "0x1"},
                    "sequence_number": "0",
                    "type": "0x1::reconfiguration::NewEpochEvent",
                    "data": {"epoch": "1"},
                }
            ],
        },
    },
    "events": [],
}
PENDING_TXN: dict[str, Any] = {
    "type": "pending_transaction",
    "hash": h("sponsored"),
    "sender": SENDER,
    "sequence_number": "4",
    "max_gas_amount": "2000",
    "gas_unit_price": "100",
    "expiration_timestamp_secs": "1735689660",
    "payload": TRANSFER,
    "signature": {
        "type": "fee_payer_signature",
        "sender": {
            "type": "single_key_signature",
            "public_key": {"type": "ed25519", "value": hexbytes("alice-key", 32)},
            "signature": {"type": "ed25519", "value": hexbytes("alice-sig-2", 64)},
        },
        "secondary_signer_addresses": [],
        "secondary_signers": [],
        "fee_payer_address": RECEIVER,
        "fee_payer_signer": {
            "type": "ed25519_signature",
            "public_key": hexbytes("bob-key", 32),
            "signature": hexbytes("bob-sig", 64),
        },
    },
}
VERSIONED_EVENT = {
    "version": "1207",
    "guid": {"creation_number": "2", "account_address": RECEIVER},
    "sequence_number": "7",
    "type": "0x1::coin::DepositEvent",
    "data": {"amount": "100000000"},
}
ERROR = {
    "message": f"Account not found by Address({SENDER}) and Ledger version(1207)",
    "error_code": "account_not_found",
    "vm_error_code": None,
}

INDEX = {
    "chain_id": 4,
    "epoch": "2",
    "ledger_version": "1207",
    "oldest_ledger_version": "0",
    "ledger_timestamp": "1735689600123456",
    "node_role": "full_node",
    "oldest_block_height": "0",
    "block_height": "42",
    "git_hash": None,
}

GOLDEN = [
    ("Transaction", USER_TXN),
    ("UserTransaction", USER_TXN),
    ("Transaction", BLOCK_METADATA_TXN),
    ("Transaction", GENESIS_TXN),
    ("Transaction", PENDING_TXN),
    ("PendingTransaction", PENDING_TXN),
    ("MoveModuleBytecode", MODULE),
    ("VersionedEvent", VERSIONED_EVENT),
    ("Error", ERROR),
    ("Error", {"message": "rejected", "error_code": "vm_error", "vm_error_code": 3}),
    ("IndexResponse", INDEX),
    (
        "Block",
        {
            "block_height": "42",
            "block_hash": h("block-42-id"),
            "block_timestamp": "1735689600000000",
            "first_version": "1206",
            "last_version": "1207",
            "transactions": [BLOCK_METADATA_TXN, USER_TXN],
        },
    ),
    (
        "Block",
        {
            "block_height": "0",
            "block_hash": h("genesis-block"),
            "block_timestamp": "0",
            "first_version": "0",
            "last_version": "0",
            "transactions": None,
        },
    ),
    ("GasEstimation", {"gas_estimate": 100, "prioritized_gas_estimate": 150}),
    ("AuxiliaryInfo", {"transaction_index": 1}),
    ("AuxiliaryInfo", {}),
    ("MoveModuleBytecode", {"bytecode": "0xa11ceb0b", "abi": None}),
    (
        "TransactionSignature",
        {
            "type": "single_sender",
            "public_key": {"type": "secp256k1_ecdsa", "value": hexbytes("k1", 65)},
            "signature": {"type": "secp256k1_ecdsa", "value": hexbytes("s1", 64)},
        },
    ),
    ("TransactionSignature", {"type": "single_sender"}),
]


@pytest.mark.parametrize(("name", "body"), GOLDEN)
def test_golden_bodies_fit_their_schema(registry: Registry[Any], name: str, body: Any) -> None:
    assert problems(registry, named(name), body) == []


def test_an_abi_from_an_older_node_still_fits(registry: Registry[Any]) -> None:
    old = copy.deepcopy(MODULE)
    for function in old["abi"]["exposed_functions"]:
        del function["is_view"]
    for struct in old["abi"]["structs"]:
        for key in ("is_event", "is_enum", "variants"):
            del struct[key]
    assert problems(registry, named("MoveModuleBytecode"), old) == []


def test_success_bodies_of_some_endpoints(doc: dict[str, Any], registry: Registry[Any]) -> None:
    balance = success_schema(doc, "get", "/accounts/{address}/balance/{asset_type}")
    assert problems(registry, balance, 100000000) == []
    assert problems(registry, balance, "100000000")  # a bare JSON integer, not a U64 string
    simulate = success_schema(doc, "post", "/transactions/simulate")
    assert problems(registry, simulate, [USER_TXN]) == []
    encoded = success_schema(doc, "post", "/transactions/encode_submission")
    assert problems(registry, encoded, "0xb5e97db07fa0bd0e5598aa3643a9bc6f") == []
    view = success_schema(doc, "post", "/view")
    assert problems(registry, view, ["100", True, {"vec": []}, "0x1"]) == []


def without(body: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != key}


NOT_A_STRING = "is not of type 'string'"


@pytest.mark.parametrize(
    ("name", "body", "why"),
    [
        ("UserTransaction", without(USER_TXN, "sender"), "'sender' is a required property"),
        ("UserTransaction", without(USER_TXN, "gas_used"), "'gas_used' is a required property"),
        ("UserTransaction", {**USER_TXN, "gas_used": 11}, NOT_A_STRING),  # U64 as a number
        ("UserTransaction", {**USER_TXN, "version": 2**53 + 1}, NOT_A_STRING),
        ("UserTransaction", {**USER_TXN, "hash": "0x12"}, "does not match"),
        ("UserTransaction", {**USER_TXN, "type": "user_txn"}, ""),  # the union refuses it
        (
            "EntryFunctionPayload",
            without(TRANSFER, "arguments"),
            "'arguments' is a required property",
        ),
        ("BlockMetadataTransaction", {**BLOCK_METADATA_TXN, "epoch": 2}, NOT_A_STRING),
        (
            "BlockMetadataTransaction",
            without(BLOCK_METADATA_TXN, "proposer"),
            "'proposer' is a required property",
        ),
        ("GenesisTransaction", without(GENESIS_TXN, "payload"), "'payload' is a required"),
        ("PendingTransaction", without(PENDING_TXN, "hash"), "'hash' is a required property"),
        (
            "PendingTransaction",
            {**PENDING_TXN, "signature": {"type": "secret_signature"}},
            "is not valid under any of the given schemas",
        ),
        (
            "TransactionSignature",
            {"type": "single_sender", "unknown": 1},
            "is not valid under any of the given schemas",
        ),
        ("MoveModuleBytecode", without(MODULE, "bytecode"), "'bytecode' is a required property"),
        ("MoveModuleBytecode", {**MODULE, "bytecode": "0xabc"}, "does not match"),  # odd digits
        (
            "VersionedEvent",
            without(VERSIONED_EVENT, "version"),
            "'version' is a required property",
        ),
        ("VersionedEvent", {**VERSIONED_EVENT, "sequence_number": 7}, NOT_A_STRING),
        ("Error", without(ERROR, "error_code"), "'error_code' is a required property"),
        ("Error", {**ERROR, "error_code": "no_such_code"}, "is not one of"),
        ("GasEstimation", {"gas_estimate": "100"}, "is not of type 'integer'"),
        ("IndexResponse", {**INDEX, "chain_id": "4"}, "is not of type 'integer'"),
        ("IndexResponse", {**INDEX, "node_role": "archive"}, "is not one of"),
    ],
)
def test_broken_bodies_do_not_fit(registry: Registry[Any], name: str, body: Any, why: str) -> None:
    found = problems(registry, named(name), body)
    if name.endswith("Transaction"):  # a tagged body: the union must refuse it as well
        union = problems(registry, named("Transaction"), body)
        assert union
        found += union
    assert found
    assert any(why in message for message in found), found


# -- against the public node family's document ---------------------------------------------


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    if not REFERENCE.exists():
        # The reference document sits beside the project in CI; elsewhere it may not.
        if os.environ.get("CI"):
            pytest.fail(f"{REFERENCE} is missing")
        pytest.skip(f"{REFERENCE} is not here")
    loaded: dict[str, Any] = yaml.safe_load(REFERENCE.read_text())
    return loaded


def required_of(doc: dict[str, Any], schema: Any) -> set[str]:
    """Fields an instance must have: its own, all of allOf's, and those every oneOf has."""
    schema = resolve(doc, schema)
    out = set(schema.get("required", []))
    for part in schema.get("allOf", []):
        out |= required_of(doc, part)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            out |= set.intersection(*(required_of(doc, v) for v in schema[key]))
    return out


def kind(doc: dict[str, Any], schema: Any) -> str | None:
    schema = resolve(doc, schema)
    if "type" in schema:
        return str(schema["type"])
    for part in schema.get("allOf", []):
        found = kind(doc, part)
        if found is not None:
            return found
    return None


def test_we_never_demand_more_than_the_public_nodes(
    doc: dict[str, Any], reference: dict[str, Any]
) -> None:
    ours, theirs = doc["components"]["schemas"], reference["components"]["schemas"]
    shared = sorted(set(ours) & set(theirs))
    assert {"Block", "Event", "UserTransaction", "MoveResource", "GasEstimation"} <= set(shared)
    assert len(shared) > 60
    for name in shared:
        mine, public = required_of(doc, ours[name]), required_of(reference, theirs[name])
        assert mine <= public, (name, sorted(mine - public))


def test_shared_fields_have_the_same_json_kind(
    doc: dict[str, Any], reference: dict[str, Any]
) -> None:
    ours, theirs = doc["components"]["schemas"], reference["components"]["schemas"]
    compared = 0
    for name in set(ours) & set(theirs):
        mine = resolve(doc, ours[name]).get("properties", {})
        public = resolve(reference, theirs[name]).get("properties", {})
        for field in set(mine) & set(public):
            a, b = kind(doc, mine[field]), kind(reference, public[field])
            if a is not None and b is not None:
                assert a == b, (name, field, a, b)
                compared += 1
    assert compared > 150


def test_error_codes_and_operations_match_the_public_nodes(
    doc: dict[str, Any], reference: dict[str, Any]
) -> None:
    codes = reference["components"]["schemas"]["AptosErrorCode"]["enum"]
    assert sorted(doc["components"]["schemas"]["ErrorCode"]["enum"]) == sorted(codes)
    shared = 0
    for method, path, operation in operations(doc):
        public = reference["paths"].get(path, {}).get(method)
        if public is None:
            continue
        shared += 1
        assert operation["operationId"] == public["operationId"], path
        mine = {resolve(doc, p)["name"] for p in operation.get("parameters", [])}
        assert mine == {p["name"] for p in public.get("parameters", [])}, path
    assert shared == len(OPERATIONS) - 1  # all but /spec.json


def test_every_response_documents_the_aptos_twins(doc: dict[str, Any]) -> None:
    """Each ``X-NODE-*`` header is declared again as ``X-APTOS-*``, the same way."""
    for method, path, operation in operations(doc):
        for status, response in operation["responses"].items():
            headers = resolve(doc, response)["headers"]
            node = {name[len("X-NODE-") :] for name in headers if name.startswith("X-NODE-")}
            aptos = {name[len("X-APTOS-") :] for name in headers if name.startswith("X-APTOS-")}
            assert node == aptos, (method, path, status)
            assert {"CHAIN-ID", "LEDGER-VERSION", "OLDEST-BLOCK-HEIGHT"} <= aptos
            for name in node:
                assert headers["X-APTOS-" + name] == headers["X-NODE-" + name], (path, name)


U64_MAX = 2**64 - 1


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        (
            "U64",
            ["0", "7", "007", str(U64_MAX), "0" * 30 + str(U64_MAX), "18446744073709551609"],
            ["", "-1", "1.0", " 1", str(U64_MAX + 1), "18446744073709551620",
             "99999999999999999999"],
        ),
        (
            "MoveStructTag",
            [
                "0x1::account::Account",
                "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
                "0xAb::m_1::S<u8, vector<address>>",
                "0x1::a::B<0x1::c::D<vector<u64>>>",
            ],
            ["0x0", "1::a::B", "0x1::a::B<>", "0x1::a::B<U8>", "0x1::a", "0x1::a::B<u8",
             "0xg::a::B"],
        ),
        (
            "MoveType",
            ["u8", "vector<u8>", "address", "0x1::string::String", "vector<0x1::a::B<u8, u64>>"],
            ["", "U8", "vector<>", "vector<u8", "0x1::a", "u512", "&u8"],
        ),
    ],
)  # fmt: skip
def test_scalar_patterns_follow_what_the_node_reads(
    doc: dict[str, Any], registry: Registry[Any], schema: str, good: list[str], bad: list[str]
) -> None:
    found = doc["components"]["schemas"][schema]
    for text in good:
        assert problems(registry, found, text) == [], text
    for text in bad:
        assert problems(registry, found, text), text


def test_asset_type_is_a_struct_tag_or_an_address(
    doc: dict[str, Any], registry: Registry[Any]
) -> None:
    schema = param(doc, "get", "/accounts/{address}/balance/{asset_type}", "asset_type")["schema"]
    for good in ("0xa", "a", "0x" + "f" * 64, "0x1::aptos_coin::AptosCoin"):
        assert problems(registry, schema, good) == [], good
    for bad in ("", "0x", "0x1::coin", "\u00cc", "0x" + "f" * 65, "0x1::a::B<>"):
        assert problems(registry, schema, bad), bad


@pytest.mark.parametrize("schema", ["SubmitTransactionRequest", "EncodeSubmissionRequest"])
def test_requests_describe_what_this_node_runs(
    doc: dict[str, Any], registry: Registry[Any], schema: str
) -> None:
    """An optional nonce (orderless transactions, a u64 as text); submissions run entry
    functions only, while encode_submission also encodes scripts and multisig payloads (but
    no module bundle)."""
    found = doc["components"]["schemas"][schema]
    assert "replay_protection_nonce" in found["properties"]
    assert "replay_protection_nonce" not in found.get("required", [])
    request = {
        "sender": SENDER,
        "sequence_number": "3",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1735689630",
        "payload": TRANSFER,
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + "00" * 32,
            "signature": "0x" + "00" * 64,
        },
    }
    assert problems(registry, named(schema), request) == []
    nonce = {**request, "sequence_number": "18446744073709551615"}
    assert problems(registry, named(schema), {**nonce, "replay_protection_nonce": "7"}) == []
    for bad in ("-1", "18446744073709551616", 7, "0x7"):
        assert problems(registry, named(schema), {**nonce, "replay_protection_nonce": bad}), bad
    script = {
        "type": "script_payload",
        "code": {"bytecode": "0xa11ceb0b", "abi": {"params": ["&signer"]}},
        "type_arguments": [],
        "arguments": [],
    }
    no_abi = {**script, "code": {"bytecode": "0xa11ceb0b"}}
    inner_script = {"type": "multisig_payload", "multisig_address": SENDER,
                    "transaction_payload": script}  # fmt: skip
    for payload in (no_abi, inner_script):
        assert problems(registry, named(schema), {**request, "payload": payload})
    multisig = {"type": "multisig_payload", "multisig_address": SENDER}
    bundle = {"type": "module_bundle_payload"}
    for payload in (script, multisig):
        found_problems = problems(registry, named(schema), {**request, "payload": payload})
        assert (found_problems == []) is (schema == "EncodeSubmissionRequest")
    assert problems(registry, named(schema), {**request, "payload": bundle})
