"""The node's answers fit the public node family's own OpenAPI schemas.

Every endpoint is called on a running node and its body is validated against the
response schema that the reference document (kept beside the project) gives for the
same path, method and status, so code written against real nodes reads ours too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from node_http_helpers import submit, transfer, wait
from openapi_schema_validator import OAS30Validator

from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "aptos-openapi-spec.yaml"


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return load_reference()


def load_reference() -> dict[str, Any]:
    """The reference document, widened where it is known to be narrower than real nodes
    (skips the test when the document is not there, fails in CI)."""
    if not REFERENCE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{REFERENCE} is missing")
        pytest.skip(f"{REFERENCE} is not here")
    document: dict[str, Any] = yaml.safe_load(REFERENCE.read_text())
    # One known gap in the reference: its MoveType pattern admits neither the references
    # (`&signer`, `&mut T`) nor the generic parameters (`T0`) that module ABIs carry and
    # that real nodes send (see the facts, section 6). Widen just that pattern.
    move_type = document["components"]["schemas"]["MoveType"]
    move_type["pattern"] = "^(&(mut )?)?(T[0-9]+|" + move_type["pattern"][2:-2] + ")$"
    # A second: MoveValue is an anyOf of every value kind under a top-level
    # `type: object` that no string, number or array could pass. Drop that line.
    document["components"]["schemas"]["MoveValue"].pop("type", None)
    # A third: a single sender's signature is `{"type": "single_sender", "public_key",
    # "signature"}` (or a multi-key's fields), but the reference nests the tagged
    # AccountSignature under the `single_sender` tag, whose discriminator can never match:
    # no such signature validates. Take the untagged bodies it may carry.
    schemas = document["components"]["schemas"]
    schemas["TransactionSignature_AccountSignature"]["allOf"][1] = {
        "anyOf": [
            {"$ref": f"#/components/schemas/{name}"}
            for name in ("SingleKeySignature", "MultiKeySignature")
        ]
    }
    return document


def check(reference: dict[str, Any], path: str, method: str, response: httpx.Response) -> list[str]:
    """What in the answer breaks the reference's schema (empty when it fits)."""
    status = str(response.status_code)
    operation = reference["paths"][path][method]
    if status not in operation["responses"]:
        return [f"{method.upper()} {path}: status {status} is not documented"]
    content = operation["responses"][status].get("content", {})
    media = response.headers["content-type"].split(";")[0]
    if media != "application/json":
        return []
    schema = content["application/json"]["schema"]
    root = {**schema, "components": reference["components"]}
    errors = sorted(
        OAS30Validator(root).iter_errors(response.json()), key=lambda e: list(e.absolute_path)
    )
    return [
        f"{method.upper()} {path} {list(e.absolute_path)[:6]}: {e.message[:160]}"
        for e in errors[:3]
    ]


def _first_user_transaction(http: httpx.Client) -> dict[str, Any]:
    for start in range(0, 2000, 100):
        for txn in http.get("/transactions", params={"start": start, "limit": 100}).json():
            if txn["type"] == "user_transaction" and txn["success"]:
                return dict(txn)
    raise AssertionError("no user transaction in the generated chain")


def _board_owner(http: httpx.Client) -> str:
    for start in range(0, 2000, 100):
        for txn in http.get("/transactions", params={"start": start, "limit": 100}).json():
            payload = txn.get("payload", {})
            if (
                txn["type"] == "user_transaction"
                and txn["success"]
                and str(payload.get("function", "")).startswith("0x1::ledger_demo::set_")
            ):
                return str(txn["sender"])
    raise AssertionError("no ledger_demo transaction in the generated chain")


def test_every_endpoint_fits_the_reference(
    reference: dict[str, Any], node: LocalNode, http: httpx.Client
) -> None:
    dev = node.dev_accounts[0]
    address = dev.address.long
    txn = _first_user_transaction(http)
    sender = txn["sender"]
    owner = _board_owner(http)
    board = http.get(f"/accounts/{owner}/resource/0x1::ledger_demo::Board").json()
    scores_handle = board["data"]["scores"]["handle"]
    calls: list[tuple[str, str, dict[str, Any] | None, Any]] = [
        ("/", "get", None, None),
        ("/-/healthy", "get", None, None),
        ("/accounts/{address}", "get", {"address": address}, None),
        ("/accounts/{address}/resources", "get", {"address": address}, None),
        ("/accounts/{address}/resources", "get", {"address": "0x1"}, None),
        (
            "/accounts/{address}/resource/{resource_type}",
            "get",
            {"address": address, "resource_type": "0x1::account::Account"},
            None,
        ),
        ("/accounts/{address}/modules", "get", {"address": "0x1"}, None),
        (
            "/accounts/{address}/module/{module_name}",
            "get",
            {"address": "0x1", "module_name": "coin"},
            None,
        ),
        (
            "/accounts/{address}/balance/{asset_type}",
            "get",
            {"address": address, "asset_type": "0x1::aptos_coin::AptosCoin"},
            None,
        ),
        ("/accounts/{address}/transactions", "get", {"address": sender}, None),
        ("/transactions", "get", None, None),
        ("/transactions/by_version/{txn_version}", "get", {"txn_version": "0"}, None),
        ("/transactions/by_version/{txn_version}", "get", {"txn_version": "1"}, None),
        ("/transactions/by_version/{txn_version}", "get", {"txn_version": txn["version"]}, None),
        ("/transactions/by_hash/{txn_hash}", "get", {"txn_hash": txn["hash"]}, None),
        ("/transactions/wait_by_hash/{txn_hash}", "get", {"txn_hash": txn["hash"]}, None),
        ("/blocks/by_height/{block_height}", "get", {"block_height": "3"}, None),
        ("/blocks/by_version/{version}", "get", {"version": txn["version"]}, None),
        ("/estimate_gas_price", "get", None, None),
        (
            "/view",
            "post",
            None,
            {
                "function": "0x1::coin::balance",
                "type_arguments": ["0x1::aptos_coin::AptosCoin"],
                "arguments": [address],
            },
        ),
        (
            "/tables/{table_handle}/item",
            "post",
            {"table_handle": scores_handle},
            {"key_type": "address", "value_type": "u64", "key": owner},
        ),
        ("/accounts/{address}", "get", {"address": "0x" + "ab" * 32}, None),  # 404
        ("/transactions/by_version/{txn_version}", "get", {"txn_version": "99999999"}, None),
    ]
    problems: list[str] = []
    for path, method, params, body in calls:
        url = path.format(**(params or {}))
        if path == "/blocks/by_height/{block_height}":
            url += "?with_transactions=true"
        response = http.request(method.upper(), url, json=body)
        if response.status_code == 404 and path == "/tables/{table_handle}/item":
            continue  # the owner's own score may be unset; other tests cover items
        problems += check(reference, path, method, response)
    # A batch the node refuses whole (the signature does not verify): 206, its failures.
    unsigned = {
        "sender": address,
        "sequence_number": "0",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "4000000000",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [sender, "1"],
        },
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + dev.private_key.public_key_bytes.hex(),
            "signature": "0x" + "00" * 64,
        },
    }
    batch = http.post("/transactions/batch", json=[unsigned])
    assert batch.status_code == 206, batch.text
    problems += check(reference, "/transactions/batch", "post", batch)
    assert problems == [], "\n".join(problems)
    events = http.get(f"/accounts/{sender}/events/0").json()
    assert isinstance(events, list)


def test_a_single_sender_transaction_fits_the_reference(
    reference: dict[str, Any], node: LocalNode, http: httpx.Client
) -> None:
    """A secp256k1 account's transfer carries a ``single_sender`` signature, which real
    nodes send as ``{"type": "single_sender", "public_key", "signature"}``."""
    funder, fresh = node.dev_accounts[5], Account.generate("secp256k1")
    funded = submit(http, funder.sign(transfer(http, funder, fresh.address, 10**8)))
    assert wait(http, funded["hash"])["success"]
    sent = wait(http, submit(http, fresh.sign(transfer(http, fresh, funder.address, 5)))["hash"])
    assert sent["signature"]["type"] == "single_sender"
    found = http.get(f"/transactions/by_hash/{sent['hash']}")
    assert check(reference, "/transactions/by_hash/{txn_hash}", "get", found) == []
