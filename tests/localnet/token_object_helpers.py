"""What the digital asset tests share: addresses derived by hand (collection
``SHA3-256(creator ‖ name ‖ 0xFE)``, token ``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)``), calls of
``0x4::aptos_token`` over HTTP, and readers of resources, views and events."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
from node_http_helpers import Account, ok, run

S = "0x1::string::String"
TOKEN = "0x4::token::Token"
COLLECTION = "0x4::collection::Collection"
OBJECT_START = 0x4000000000000
MODULE_GUID = {"creation_number": "0", "account_address": "0x0"}
#: mutable_description, mutable_royalty, mutable_uri, mutable_token_description,
#: mutable_token_name, mutable_token_properties, mutable_token_uri, burnable, freezable
FLAGS = (True, True, False, True, True, True, False, True, True)


def collection_address(creator: Account, name: str) -> str:
    return "0x" + hashlib.sha3_256(bytes(creator.address) + name.encode() + b"\xfe").hexdigest()


def token_address(txn_hash: str) -> str:
    seed = bytes.fromhex(txn_hash[2:]) + (1).to_bytes(8, "little") + b"\xfb"
    return "0x" + hashlib.sha3_256(seed).hexdigest()


def create_collection(
    http: httpx.Client,
    creator: Account,
    name: str,
    *,
    max_supply: int = 10,
    flags: tuple[bool, ...] = FLAGS,
    royalty: tuple[int, int] = (5, 100),
) -> dict[str, Any]:
    args = [(S, f"About {name}"), ("u64", max_supply), (S, name), (S, "https://ex.org/c")]
    args += [("bool", flag) for flag in flags]
    args += [("u64", royalty[0]), ("u64", royalty[1])]
    return run(http, creator, "0x4::aptos_token::create_collection", args)


def mint(
    http: httpx.Client,
    creator: Account,
    collection: str,
    name: str,
    properties: tuple[list[str], list[str], list[bytes]] = ([], [], []),
    soul_bound_to: Account | None = None,
) -> tuple[dict[str, Any], str]:
    """Mint; the committed transaction and the token's address derived from its hash."""
    keys, types, values = properties
    args = [(S, collection), (S, f"A {name}"), (S, name), (S, f"https://ex.org/{name}")]
    args += [(f"vector<{S}>", keys), (f"vector<{S}>", types), ("vector<vector<u8>>", values)]
    function = "0x4::aptos_token::mint"
    if soul_bound_to is not None:
        args.append(("address", soul_bound_to.address))
        function = "0x4::aptos_token::mint_soul_bound"
    txn = run(http, creator, function, args)
    return txn, token_address(txn["hash"])


def call(
    http: httpx.Client, account: Account, function: str, token: str, *args: tuple[str, Any]
) -> dict[str, Any]:
    """``function<0x4::token::Token>(signer, token, args...)``."""
    return run(http, account, function, [("address", token), *args], type_args=[TOKEN])


def resources(http: httpx.Client, address: str, version: str | None = None) -> dict[str, Any]:
    params = {} if version is None else {"ledger_version": version}
    found = ok(http.get(f"/accounts/{address}/resources", params=params))
    return {r["type"]: r["data"] for r in found}


def view(http: httpx.Client, function: str, *args: Any, types: tuple[str, ...] = (TOKEN,)) -> Any:
    body = {"function": function, "type_arguments": list(types), "arguments": list(args)}
    return ok(http.post("/view", json=body))


def aborted(txn: dict[str, Any], where: str, name: str, code: int) -> bool:
    return not txn["success"] and txn["vm_status"].startswith(
        f"Move abort in {where}: {name}({code:#x})"
    )


def handle(address: str, number: int) -> dict[str, Any]:
    return {"counter": "0", "guid": {"id": {"creation_num": str(number), "addr": address}}}


FEE = "0x1::transaction_fee::FeeStatement"


def module_events(txn: dict[str, Any]) -> list[tuple[str, Any]]:
    """The transaction's events but its fee statement, as ``(type, data)``; all module events."""
    assert all(e["guid"] == MODULE_GUID for e in txn["events"][:-1])
    return [(e["type"], e["data"]) for e in txn["events"] if e["type"] != FEE]
