"""APT's ``CoinInfo`` and ``0x1::managed_coin`` on a node of its own, over HTTP.

``CoinInfo.supply`` is ``Option<OptionalAggregator>`` with the ``Integer`` form that
``coin::initialize(..., monitor_supply = true)`` makes. Genesis mints APT with
``coin::mint`` and deposits it with ``coin::deposit``, which turns the coins into the
paired fungible asset and takes them off the coin count: the integer is 0 and the total
is the asset's supply at ``0xa``. Abort codes are from ``coin.move`` and
``managed_coin.move`` (``category << 16 | reason``).
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import ok, run

from ledgerkit.localnet import LocalNode

APT: Final = "0x1::aptos_coin::AptosCoin"
COIN_INFO: Final = f"/accounts/0x1/resource/0x1::coin::CoinInfo<{APT}>"
U128_MAX: Final = "340282366920938463463374607431768211455"


@pytest.fixture(scope="module")
def node(make_node: Any) -> LocalNode:
    return make_node(seed=31, blocks=12, services=False)


@pytest.fixture(scope="module")
def http(node: LocalNode) -> Any:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


def _view(http: httpx.Client, function: str, type_args: list[str], args: list[Any]) -> Any:
    body = {"function": function, "type_arguments": type_args, "arguments": args}
    return ok(http.post("/view", json=body))


def test_coin_info_supply_is_an_optional_aggregator(http: httpx.Client) -> None:
    assert ok(http.get(COIN_INFO))["data"] == {
        "name": "Aptos Coin",
        "symbol": "APT",
        "decimals": 8,
        "supply": {
            "vec": [
                {
                    "aggregator": {"vec": []},
                    "integer": {"vec": [{"value": "0", "limit": U128_MAX}]},
                }
            ]
        },
    }
    optional = ok(http.get("/accounts/0x1/module/optional_aggregator"))["abi"]["structs"]
    assert [(s["name"], s["fields"]) for s in optional] == [
        ("Integer", [{"name": "value", "type": "u128"}, {"name": "limit", "type": "u128"}]),
        (
            "OptionalAggregator",
            [
                {"name": "aggregator", "type": "0x1::option::Option<0x1::aggregator::Aggregator>"},
                {
                    "name": "integer",
                    "type": "0x1::option::Option<0x1::optional_aggregator::Integer>",
                },
            ],
        ),
    ]


def test_supply_views_count_coins_and_the_paired_asset(http: httpx.Client) -> None:
    """``coin_supply`` is the integer; ``supply`` adds APT's fungible asset supply, which
    is genesis's supply less the fees burned since."""
    assert _view(http, "0x1::coin::coin_supply", [APT], []) == [{"vec": ["0"]}]
    version = ok(http.get("/"))["ledger_version"]
    at = {"ledger_version": version}
    current = ok(
        http.get("/accounts/0xa/resource/0x1::fungible_asset::ConcurrentSupply", params=at)
    )["data"]["current"]["value"]
    genesis = ok(
        http.get(
            "/accounts/0xa/resource/0x1::fungible_asset::ConcurrentSupply",
            params={"ledger_version": "0"},
        )
    )["data"]["current"]["value"]
    burned = ok(http.get("/accounts/0x1/resource/0x1::transaction_fee::BurnedFees", params=at))
    assert int(burned["data"]["total"]) > 0  # the generated blocks paid fees
    assert int(current) == int(genesis) - int(burned["data"]["total"])
    body = {"function": "0x1::coin::supply", "type_arguments": [APT], "arguments": []}
    answer = ok(http.post("/view", json=body, params=at))
    assert answer == [{"vec": [current]}]


def test_is_account_registered_is_true_for_an_initialized_coin(http: httpx.Client) -> None:
    nobody = "0x" + "5e" * 32
    assert _view(http, "0x1::coin::is_account_registered", [APT], [nobody]) == [True]
    answer = http.post(
        "/view",
        json={
            "function": "0x1::coin::is_account_registered",
            "type_arguments": ["0x1::ledger_demo::Point"],
            "arguments": [nobody],
        },
    )
    assert answer.status_code == 400
    assert "ECOIN_INFO_NOT_PUBLISHED(0x10003)" in answer.json()["message"]


@pytest.mark.parametrize(
    ("function", "coin", "args", "vm_status"),
    [
        (
            "initialize",
            APT,
            [("vector<u8>", b"Mine"), ("vector<u8>", b"MINE"), ("u8", 8), ("bool", True)],
            "Move abort in 0x1::coin: ECOIN_INFO_ADDRESS_MISMATCH(0x10001)",
        ),
        (
            "initialize",
            APT,
            [("vector<u8>", b"\xff"), ("vector<u8>", b"MINE"), ("u8", 8), ("bool", True)],
            "Move abort in 0x1::string: EINVALID_UTF8(0x10001)",
        ),
        (
            "mint",
            APT,
            [("address", "0x" + "5e" * 32), ("u64", 1)],
            "Move abort in 0x1::managed_coin: ENO_CAPABILITIES(0x60001)",
        ),
        ("burn", APT, [("u64", 1)], "Move abort in 0x1::managed_coin: ENO_CAPABILITIES(0x60001)"),
        (
            "register",
            "0x1::ledger_demo::Point",
            [],
            "Move abort in 0x1::coin: ECOIN_INFO_NOT_PUBLISHED(0x10003)",
        ),
        ("mint", "0xcafe::moon::MoonCoin", [("address", "0xcafe"), ("u64", 1)], "LINKER_ERROR"),
    ],
)
def test_managed_coin_stops_where_the_framework_does(
    http: httpx.Client,
    node: LocalNode,
    function: str,
    coin: str,
    args: list[Any],
    vm_status: str,
) -> None:
    txn = run(http, node.dev_accounts[1], f"0x1::managed_coin::{function}", args, type_args=[coin])
    assert not txn["success"]
    assert txn["vm_status"].startswith(vm_status), txn["vm_status"]


def test_managed_coin_register_of_apt_does_nothing(http: httpx.Client, node: LocalNode) -> None:
    txn = run(http, node.dev_accounts[2], "0x1::managed_coin::register", [], type_args=[APT])
    assert txn["success"], txn["vm_status"]
    writes = {c.get("data", {}).get("type") for c in txn["changes"]}
    # Only the fee's writes: the sender's account and store, APT's supply (their objects'
    # groups listed whole) and the burn total.
    assert writes <= {"0x1::account::Account", "0x1::fungible_asset::FungibleStore", None} | {
        "0x1::object::ObjectCore",
        "0x1::coin::PairedCoinType",
        "0x1::fungible_asset::ConcurrentSupply",
        "0x1::fungible_asset::Metadata",
        "0x1::transaction_fee::BurnedFees",
    }


def test_a_coin_transfer_to_an_address_without_an_account_makes_its_store(
    node: LocalNode, http: httpx.Client
) -> None:
    """``coin::transfer<AptosCoin>`` is ``primary_fungible_store::withdraw`` then
    ``primary_fungible_store::deposit`` (coin.move): the recipient needs no account and no
    ``CoinStore``; its APT primary store, at ``SHA3-256(owner ‖ 0xa ‖ 0xFC)``, is made as
    an object it owns, and no ``0x1::account::Account`` is written for it."""
    sender: Any = node.dev_accounts[5]
    fresh = "0x" + "c0" * 32
    done = run(http, sender, "0x1::coin::transfer", [("address", fresh), ("u64", 1234)],
               type_args=[APT])  # fmt: skip
    assert (done["success"], done["vm_status"]) == (True, "Executed successfully")
    seed = bytes.fromhex("c0" * 32) + bytes(31) + b"\x0a" + b"\xfc"
    store = "0x" + hashlib.sha3_256(seed).hexdigest()
    written = {(c["address"], c["data"]["type"]): c["data"]["data"] for c in done["changes"]}
    assert written[store, "0x1::fungible_asset::FungibleStore"] == {
        "balance": "1234",
        "frozen": False,
        "metadata": {"inner": "0xa"},
    }
    core = written[store, "0x1::object::ObjectCore"]
    assert (core["owner"], core["allow_ungated_transfer"]) == (fresh, False)
    assert (fresh, "0x1::account::Account") not in written
    kinds = [(e["type"], e["data"]) for e in done["events"][:-1]]
    assert kinds[-1] == ("0x1::fungible_asset::Deposit", {"amount": "1234", "store": store})
    assert kinds[0][0] == "0x1::fungible_asset::Withdraw"
    assert _view(http, "0x1::coin::balance", [APT], [fresh]) == ["1234"]
