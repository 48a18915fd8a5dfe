"""The public coin and fungible asset functions published code calls, as the module
endpoints show them: public, not entry, with the parameter and return types that
aptos-framework's coin.move, fungible_asset.move and primary_fungible_store.move declare."""

from __future__ import annotations

from typing import Any, Final

import httpx
import pytest
from node_http_helpers import ok

from ledgerkit.localnet import LocalNode

COIN: Final = "0x1::coin::Coin<T0>"
FA: Final = "0x1::fungible_asset::FungibleAsset"


@pytest.fixture(scope="module")
def http(make_node: Any) -> Any:
    node: LocalNode = make_node(seed=32, blocks=2, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


def _function(http: httpx.Client, module: str, name: str) -> dict[str, Any]:
    abi = ok(http.get(f"/accounts/0x1/module/{module}"))["abi"]
    names = [f["name"] for f in abi["exposed_functions"]]
    assert names == sorted(names)
    found: dict[str, Any] = next(f for f in abi["exposed_functions"] if f["name"] == name)
    return found


@pytest.mark.parametrize(
    ("module", "name", "generics", "params", "returns"),
    [
        (
            "coin",
            "initialize",
            [{"constraints": []}],
            ["&signer", "0x1::string::String", "0x1::string::String", "u8", "bool"],
            [
                "0x1::coin::BurnCapability<T0>",
                "0x1::coin::FreezeCapability<T0>",
                "0x1::coin::MintCapability<T0>",
            ],
        ),
        ("coin", "mint", [{"constraints": []}], ["u64", "&0x1::coin::MintCapability<T0>"], [COIN]),
        ("coin", "merge", [{"constraints": []}], [f"&mut {COIN}", COIN], []),
        ("coin", "deposit", [{"constraints": []}], ["address", COIN], []),
        (
            "fungible_asset",
            "mint",
            [],
            ["&0x1::fungible_asset::MintRef", "u64"],
            [FA],
        ),
        (
            "fungible_asset",
            "withdraw",
            [{"constraints": ["key"]}],
            ["&signer", "0x1::object::Object<T0>", "u64"],
            [FA],
        ),
        (
            "primary_fungible_store",
            "create_primary_store_enabled_fungible_asset",
            [],
            [
                "&0x1::object::ConstructorRef",
                "0x1::option::Option<u128>",
                "0x1::string::String",
                "0x1::string::String",
                "u8",
                "0x1::string::String",
                "0x1::string::String",
            ],
            [],
        ),
        (
            "dispatchable_fungible_asset",
            "deposit",
            [{"constraints": ["key"]}],
            ["0x1::object::Object<T0>", FA],
            [],
        ),
        ("aptos_account", "deposit_coins", [{"constraints": []}], ["address", COIN], []),
    ],
)
def test_public_functions_are_listed_public_not_entry(
    http: httpx.Client,
    module: str,
    name: str,
    generics: list[Any],
    params: list[str],
    returns: list[str],
) -> None:
    assert _function(http, module, name) == {
        "name": name,
        "visibility": "public",
        "is_entry": False,
        "is_view": False,
        "generic_type_params": generics,
        "params": params,
        "return": returns,
    }


def test_fungible_asset_declares_the_values_it_passes(http: httpx.Client) -> None:
    abi = ok(http.get("/accounts/0x1/module/fungible_asset"))["abi"]
    structs = {s["name"]: s for s in abi["structs"]}
    assert structs["FungibleAsset"]["abilities"] == []
    assert structs["FungibleAsset"]["fields"] == [
        {"name": "metadata", "type": "0x1::object::Object<0x1::fungible_asset::Metadata>"},
        {"name": "amount", "type": "u64"},
    ]
    assert structs["MintRef"]["abilities"] == ["drop", "store"]
    assert structs["Frozen"]["is_event"] is True
