"""The node over HTTP, framework state clients of public nodes rely on: the originating
address table that key-rotation lookups read, and the coin a fungible asset is paired with."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
from node_http_helpers import assert_error, ok

from ledgerkit.localnet import LocalNode

# TypeInfo of 0x1::aptos_coin::AptosCoin: the names are vector<u8>, so hex of their UTF-8.
APTOS_COIN_TYPE_INFO = {
    "account_address": "0x1",
    "module_name": "0x6170746f735f636f696e",  # "aptos_coin"
    "struct_name": "0x4170746f73436f696e",  # "AptosCoin"
}

# The demo token's metadata: the named object of 0x1 with seed "ledgerkit::demo_token".
LDT_METADATA = (
    "0x" + hashlib.sha3_256(bytes(31) + b"\x01" + b"ledgerkit::demo_token" + b"\xfe").hexdigest()
)


def _struct(http: httpx.Client, module: str, name: str) -> dict[str, Any]:
    abi = ok(http.get(f"/accounts/0x1/module/{module}"))["abi"]
    (struct,) = [s for s in abi["structs"] if s["name"] == name]
    return dict(struct)


def _function(http: httpx.Client, module: str, name: str) -> dict[str, Any]:
    abi = ok(http.get(f"/accounts/0x1/module/{module}"))["abi"]
    (function,) = [f for f in abi["exposed_functions"] if f["name"] == name]
    return dict(function)


def _view(http: httpx.Client, function: str, args: list[Any]) -> httpx.Response:
    body = {"function": function, "type_arguments": [], "arguments": args}
    return http.post("/view", json=body)


def test_the_originating_address_table_is_there_and_empty(
    node: LocalNode, http: httpx.Client
) -> None:
    resource = ok(http.get("/accounts/0x1/resource/0x1::account::OriginatingAddress"))
    assert resource["type"] == "0x1::account::OriginatingAddress"
    handle = resource["data"]["address_map"]["handle"]
    assert handle.startswith("0x")
    assert len(handle) == 66
    # What an SDK does to find the account behind an authentication key: no entry, so it
    # falls back on the key itself being the address.
    lookup = http.post(
        f"/tables/{handle}/item",
        json={
            "key_type": "address",
            "value_type": "address",
            "key": str(node.dev_accounts[0].address),
        },
    )
    assert_error(lookup, 404, "table_item_not_found")
    assert _struct(http, "account", "OriginatingAddress") == {
        "name": "OriginatingAddress",
        "is_native": False,
        "is_event": False,
        "is_enum": False,
        "abilities": ["key"],
        "generic_type_params": [],
        "fields": [{"name": "address_map", "type": "0x1::table::Table<address, address>"}],
        "variants": [],
    }


def test_paired_coin_names_the_coin_of_apt_and_none_for_other_assets(
    http: httpx.Client,
) -> None:
    apt = ok(_view(http, "0x1::coin::paired_coin", [{"inner": "0xa"}]))
    assert apt == [{"vec": [APTOS_COIN_TYPE_INFO]}]
    # The demo token LDT is a plain fungible asset: no coin behind it.
    ldt = ok(_view(http, "0x1::coin::paired_coin", [{"inner": LDT_METADATA}]))
    assert ldt == [{"vec": []}]
    assert _function(http, "coin", "paired_coin") == {
        "name": "paired_coin",
        "visibility": "public",
        "is_entry": False,
        "is_view": True,
        "generic_type_params": [],
        "params": ["0x1::object::Object<0x1::fungible_asset::Metadata>"],
        "return": ["0x1::option::Option<0x1::type_info::TypeInfo>"],
    }
    # Not a metadata object at all: the object module aborts, as on a node.
    missing = _view(http, "0x1::coin::paired_coin", [{"inner": "0x" + "ab" * 32}])
    assert "EOBJECT_DOES_NOT_EXIST" in assert_error(missing, 400, "invalid_input")["message"]
