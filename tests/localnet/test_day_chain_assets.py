"""The default chain's fungible asset issuers, as a user finds them: over HTTP, through
the embedded indexer, ``account_assets`` and the frames.

The expected values come from the day's written plan (docs/localnet.md, "The generated
chain"): four workload accounts (14..17) publish an issuer module each and mint, users
pass the assets on, the issuers freeze, move and burn a little. Addresses are derived
here with hashlib: a workload account is its key's authentication key, an asset's
metadata object the issuer's named object ``SHA3-256(issuer ‖ symbol ‖ 0xFE)``, a
primary store ``SHA3-256(owner ‖ metadata ‖ 0xFC)``. Balances are worked out by hand
from the plan's amounts, and counted again from the transactions the REST API serves.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from indexer_helpers import wait_for_indexer

import ledgerkit
from ledgerkit.frames import activity_to_frame, balance_changes_to_frame, events_to_frame
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import LocalNode

SEED: Final = 0
BLOCKS: Final = 360
META: Final = "0x1::fungible_asset::Metadata"
#: The issuers: workload account, module, name, symbol, decimals.
ISSUERS: Final = (
    (14, "ledger_usd", "Ledger USD", "LUSD", 6),
    (15, "tidepool_gems", "Tidepool Gems", "GEM", 0),
    (16, "orbit_points", "Orbit Points", "ORBIT", 2),
    (17, "quartz", "Quartz", "QRTZ", 8),
)
#: Each asset's holders at the end of the day and their balances (whole units), from
#: the plan: mints, minus what each sent, plus what each received, minus burns.
HOLDERS: Final = {
    "LUSD": {
        110: "3849.5",  # 5000 - 250.5 + 100 - 1000
        111: "2700",  # 2500 - 100 + 300
        112: "959.75",  # 1000 - 40.25
        113: "440",  # 750 - 10 (moved by the issuer) - 300
        114: "200.5",  # 250.5 - 50
        115: "50.25",  # 40.25 + 10
        116: "800",  # 1000 - 200 burnt
        117: "50",
    },
    "GEM": {120: "420", 121: "285", 122: "113", 110: "50", 123: "35", 124: "5", 125: "60"},
    "ORBIT": {
        130: "8699.75",
        131: "2000.5",
        111: "1000",
        132: "1400.25",
        133: "400.01",
        134: "100",
    },
    "QRTZ": {140: "11.5", 141: "2.375", 142: "1", 143: "0.5"},
}


def actor(index: int) -> str:
    key = Ed25519PrivateKey.from_seed(f"ledgerkit-localnet:workload:{SEED}:{index}")
    return "0x" + hashlib.sha3_256(key.public_key_bytes + b"\x00").hexdigest()


def raw(address: str) -> bytes:
    return bytes.fromhex(address[2:].rjust(64, "0"))


def metadata_of(issuer: int, symbol: str) -> str:
    return "0x" + hashlib.sha3_256(raw(actor(issuer)) + symbol.encode() + b"\xfe").hexdigest()


def store_of(owner: str, metadata: str) -> str:
    return "0x" + hashlib.sha3_256(raw(owner) + raw(metadata) + b"\xfc").hexdigest()


def units(amount: str, decimals: int) -> int:
    whole, _, frac = amount.partition(".")
    return int(whole + frac.ljust(decimals, "0")) if decimals else int(whole)


METADATA: Final = {symbol: metadata_of(i, symbol) for i, _, _, symbol, _ in ISSUERS}
DECIMALS: Final = {symbol: decimals for _, _, _, symbol, decimals in ISSUERS}


@pytest.fixture(scope="module")
def day(make_node: Any) -> LocalNode:
    return make_node(seed=SEED, blocks=BLOCKS)


@pytest.fixture(scope="module")
def http(day: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=day.url, timeout=60.0) as client:
        yield client


@pytest.fixture(scope="module")
def txs(http: httpx.Client) -> list[dict[str, Any]]:
    """Every transaction of the day, over REST."""
    head = int(http.get("/").json()["ledger_version"])
    out: list[dict[str, Any]] = []
    while len(out) <= head:
        out += http.get("/transactions", params={"start": len(out), "limit": 100}).json()
    return out[: head + 1]


def _user(txs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for t in txs if t["type"] == "user_transaction"]


def test_four_issuers_publish_their_modules_and_assets(txs: list[dict[str, Any]]) -> None:
    publish = "0x1::code::publish_package_txn"
    published = [t for t in _user(txs) if t["payload"].get("function") == publish]
    assert [t["sender"] for t in published] == [actor(i) for i, *_ in ISSUERS]
    assert all(t["success"] for t in published)
    created = [
        e["data"]
        for t in published
        for e in t["events"]
        if e["type"] == "0x1::fungible_asset::Creation"
    ]
    assert [(c["name"], c["symbol"], c["decimals"]) for c in created] == [
        (name, symbol, decimals) for _, _, name, symbol, decimals in ISSUERS
    ]
    assert [c["metadata"] for c in created] == list(METADATA.values())


def test_users_send_them_as_wallets_do(txs: list[dict[str, Any]]) -> None:
    sends = [
        t
        for t in _user(txs)
        if t["payload"].get("function") == "0x1::primary_fungible_store::transfer"
        and t["payload"]["arguments"][0]["inner"] in METADATA.values()
    ]
    # The plan's user transfers: 6 of LUSD, 5 of GEM, 4 of ORBIT, 3 of QRTZ.
    assert len(sends) == 18
    assert {tuple(t["payload"]["type_arguments"]) for t in sends} == {(META,)}
    assert all(t["success"] for t in sends)
    calls = {}
    for t in _user(txs):
        function = t["payload"].get("function", "")
        for i, module, *_ in ISSUERS:
            if function.startswith(f"{actor(i)}::{module}::"):
                name = function.rsplit("::", 1)[1]
                calls[(module, name)] = calls.get((module, name), 0) + 1
    assert calls == {
        ("ledger_usd", "mint"): 4,
        ("ledger_usd", "freeze_account"): 1,
        ("ledger_usd", "transfer"): 1,
        ("ledger_usd", "unfreeze_account"): 1,
        ("ledger_usd", "burn"): 1,
        ("tidepool_gems", "mint"): 4,
        ("tidepool_gems", "burn"): 1,
        ("orbit_points", "mint"): 3,
        ("orbit_points", "burn"): 1,
        ("quartz", "mint"): 2,
        ("quartz", "burn"): 1,
    }


def test_a_holders_balance_by_hand_and_counted_from_the_transactions(
    http: httpx.Client, txs: list[dict[str, Any]]
) -> None:
    owner, lusd = actor(110), METADATA["LUSD"]
    expected = units("3849.5", 6)
    body = {"function": "0x1::primary_fungible_store::balance", "type_arguments": [META]}
    body["arguments"] = [owner, lusd]
    assert http.post("/view", json=body).json() == [str(expected)]
    # Counted again: the Deposit and Withdraw events of 110's LUSD store.
    store, counted = store_of(owner, lusd), 0
    for t in _user(txs):
        for e in t["events"] if t["success"] else ():
            kind = e["type"].removeprefix("0x1::fungible_asset::")
            if kind in ("Deposit", "Withdraw") and e["data"]["store"] == store:
                counted += (1 if kind == "Deposit" else -1) * int(e["data"]["amount"])
    assert counted == expected


@pytest.mark.parametrize("symbol", list(HOLDERS))
def test_every_holders_balance_over_rest(http: httpx.Client, symbol: str) -> None:
    for index, amount in HOLDERS[symbol].items():
        got = http.get(f"/accounts/{actor(index)}/balance/{METADATA[symbol]}")
        assert int(got.text) == units(amount, DECIMALS[symbol]), (symbol, index)


HELD = """query held($assets: [String!]) {
  current_fungible_asset_balances(where: {asset_type: {_in: $assets}, amount: {_gt: "0"}}) {
    owner_address asset_type amount is_frozen
  }
}"""
METADATA_ROWS = """query meta($assets: [String!]) {
  fungible_asset_metadata(where: {asset_type: {_in: $assets}}, order_by: {symbol: asc}) {
    asset_type creator_address name symbol decimals token_standard
  }
}"""
ACTIVITIES = """query acts($owner: String, $asset: String) {
  fungible_asset_activities(where: {owner_address: {_eq: $owner}, asset_type: {_eq: $asset}},
    order_by: {transaction_version: asc}) {
    type amount is_transaction_success
  }
}"""


def test_the_indexer_has_the_issuers_assets_and_their_holders(day: LocalNode) -> None:
    assert day.indexer_url is not None
    with ledgerkit.Client(day.url, indexer_url=day.indexer_url, cache=False) as client:
        head = client.ledger_info().value.ledger_version
        with httpx.Client(base_url=day.indexer_url, timeout=60.0) as gql:
            wait_for_indexer(gql, head, "fungible_asset_processor")
        assets = list(METADATA.values())
        meta = client.graphql(METADATA_ROWS, {"assets": assets})["fungible_asset_metadata"]
        assert [(m["symbol"], m["name"], m["decimals"], m["token_standard"]) for m in meta] == [
            ("GEM", "Tidepool Gems", 0, "v2"),
            ("LUSD", "Ledger USD", 6, "v2"),
            ("ORBIT", "Orbit Points", 2, "v2"),
            ("QRTZ", "Quartz", 8, "v2"),
        ]
        creators = {m["symbol"]: m["creator_address"] for m in meta}
        assert creators == {symbol: actor(i) for i, _, _, symbol, _ in ISSUERS}
        held = client.graphql(HELD, {"assets": assets})["current_fungible_asset_balances"]
        by_symbol = {s: {} for s in HOLDERS}  # type: dict[str, dict[str, int]]
        symbol_of = {m: s for s, m in METADATA.items()}
        for row in held:
            by_symbol[symbol_of[row["asset_type"]]][row["owner_address"]] = int(row["amount"])
        for symbol, holders in HOLDERS.items():
            expected = {actor(i): units(a, DECIMALS[symbol]) for i, a in holders.items()}
            assert by_symbol[symbol] == expected, symbol
        assert len({row["owner_address"] for row in held}) == 23
        acts = client.graphql(ACTIVITIES, {"owner": actor(110), "asset": METADATA["LUSD"]})
        assert [(a["type"], a["amount"]) for a in acts["fungible_asset_activities"]] == [
            ("0x1::fungible_asset::Deposit", 5_000_000_000),
            ("0x1::fungible_asset::Withdraw", 250_500_000),
            ("0x1::fungible_asset::Deposit", 100_000_000),
            ("0x1::fungible_asset::Withdraw", 1_000_000_000),
        ]


def test_account_assets_lists_the_assets_of_several_issuers(day: LocalNode) -> None:
    with ledgerkit.Client(day.url, indexer_url=day.indexer_url, cache=False) as client:
        held = client.account_assets(actor(111))
        fungible = {h.symbol: h for h in held if h.kind == "fungible_asset"}
        issued = {s: h for s, h in fungible.items() if s in HOLDERS}
        assert {s: (h.name, h.decimals, h.balance) for s, h in issued.items()} == {
            "LUSD": ("Ledger USD", 6, 2_700_000_000),
            "ORBIT": ("Orbit Points", 2, 100_000),
        }
        assert fungible["LUSD"].asset == METADATA["LUSD"]


def test_the_frames_read_the_issuers_deposits_and_withdrawals(txs: list[dict[str, Any]]) -> None:
    frame = balance_changes_to_frame(txs)
    mine = frame[(frame["address"] == actor(110)) & (frame["asset"] == METADATA["LUSD"])]
    assert mine["delta"].tolist() == [5_000_000_000, -250_500_000, 100_000_000, -1_000_000_000]
    burn = f"{actor(14)}::ledger_usd::burn"
    burnt = [t for t in _user(txs) if t["payload"].get("function") == burn]
    activity = activity_to_frame(burnt)
    row = activity[activity["address"] == actor(116)]
    assert [json.loads(c) for c in row["changes"]] == [{METADATA["LUSD"]: "-200000000"}]


def test_typed_events_read_the_issuers_creations_and_a_holders_deposits(
    day: LocalNode, txs: list[dict[str, Any]]
) -> None:
    frame = events_to_frame(txs)
    with ledgerkit.Client(day.url, cache=False) as client:
        created = ledgerkit.typed_events(client, frame, "0x1::fungible_asset::Creation")
        deposits = ledgerkit.typed_events(client, frame, "0x1::fungible_asset::Deposit")
    assert created["symbol"].astype(str).tolist() == ["LUSD", "GEM", "ORBIT", "QRTZ"]
    assert created["decimals"].tolist() == [6, 0, 2, 8]
    store = store_of(actor(110), METADATA["LUSD"])
    mine = deposits[deposits["store"].astype(str) == store]
    assert mine["amount"].tolist() == [5_000_000_000, 100_000_000]
