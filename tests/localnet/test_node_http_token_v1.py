"""The node over HTTP, the token standard v1 at ``0x3``: a collection and a token made, offered,
claimed, sent with two signers, mutated and burned; the resources, table items and module
events as a node renders them, and the aborts ``aptos-token``'s ``token.move`` declares.

Expected values are written out; table handles are derived here with hashlib from the rule the
node documents (``SHA3-256("ledgerkit::" ‖ module ‖ "::" ‖ field ‖ owner)``).
"""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
import pytest
from node_http_helpers import Account, ok, raw_transaction, run, submit, wait

from ledgerkit.bcs import MultiAgentRawTransaction
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

S = "0x1::string::String"
STRINGS = f"vector<{S}>"
COLLECTION = "Alice's"
TOKEN = "Sword"
ZERO_GUID = {"creation_number": "0", "account_address": "0x0"}


def handle(module: str, field: str, owner: Address) -> str:
    seed = f"ledgerkit::{module}::{field}".encode()
    return "0x" + hashlib.sha3_256(seed + bytes(owner)).hexdigest()


def data_id(creator: Address) -> dict[str, str]:
    return {"creator": creator.long, "collection": COLLECTION, "name": TOKEN}


def token_id(creator: Address, version: int = 0) -> dict[str, Any]:
    return {"token_data_id": data_id(creator), "property_version": str(version)}


def item(
    http: httpx.Client, table: str, key_type: str, value_type: str, key: Any, at: Any = None
) -> Any:
    """A table item, at the latest version or at version ``at``."""
    body = {"key_type": key_type, "value_type": value_type, "key": key}
    params = {} if at is None else {"ledger_version": at}
    return http.post(f"/tables/{table}/item", json=body, params=params)


def module_events(txn: dict[str, Any]) -> list[tuple[str, Any]]:
    assert all(e["guid"] == ZERO_GUID and e["sequence_number"] == "0" for e in txn["events"])
    return [(e["type"], e["data"]) for e in txn["events"] if not e["type"].startswith("0x1::")]


def collection_args(name: str, maximum: int, setting: list[bool]) -> list[tuple[str, Any]]:
    return [
        (S, name),
        (S, "Alice's simple collection"),
        (S, "https://aptos.dev"),
        ("u64", maximum),
        ("vector<bool>", setting),
    ]


def token_args(collection: str, name: str, owner: Address, **over: Any) -> list[tuple[str, Any]]:
    values = over.get("values", [bytes.fromhex("0500000000000000"), b"\x01"])
    return [
        (S, collection),
        (S, name),
        (S, "A sword"),
        ("u64", over.get("balance", 3)),
        ("u64", 10),
        (S, "https://aptos.dev/img/sword.png"),
        ("address", owner),
        ("u64", 1_000_000),
        ("u64", over.get("numerator", 25_000)),
        ("vector<bool>", over.get("setting", [False, False, False, False, True])),
        (STRINGS, over.get("keys", ["level", "TOKEN_BURNABLE_BY_OWNER"])),
        ("vector<vector<u8>>", values),
        (STRINGS, over.get("types", ["u64", "bool"])),
    ]


def id_args(creator: Address, version: int = 0) -> list[tuple[str, Any]]:
    return [("address", creator), (S, COLLECTION), (S, TOKEN), ("u64", version)]


def two_signers(
    http: httpx.Client, sender: Account, other: Account, function: str, args: list[Any]
) -> dict[str, Any]:
    raw = raw_transaction(http, sender, function, args)
    message = MultiAgentRawTransaction(raw, (other.address,))
    signed = message.authenticate(
        sender.private_key.authenticator(message.signing_message()),
        (other.private_key.authenticator(message.signing_message()),),
    )
    return wait(http, submit(http, signed)["hash"])


def balance(story: Any, owner: Address, version: int = 0, at: int | None = None) -> str:
    """The owner's amount of the token (\"0\" without a store or an item), as the Python
    SDK's token client reads it."""
    store = story.http.get(f"/accounts/{owner}/resource/0x3::token::TokenStore")
    if store.status_code == 404:
        return "0"
    params = {} if at is None else {"ledger_version": at}
    body = {
        "key_type": "0x3::token::TokenId",
        "value_type": "0x3::token::Token",
        "key": token_id(story.alice.address, version),
    }
    found = story.http.post(
        f"/tables/{ok(store)['data']['tokens']['handle']}/item", json=body, params=params
    )
    if found.status_code == 404:
        assert found.json()["error_code"] == "table_item_not_found"
        return "0"
    amount: str = ok(found)["amount"]
    return amount


class Story:
    def __init__(self, http: httpx.Client, alice: Account, bob: Account) -> None:
        self.http, self.alice, self.bob = http, alice, bob
        self.guid_before = 0
        self.txns: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="module")
def story() -> Any:
    node = LocalNode(seed=29, blocks=2, services=False).start()
    try:
        with httpx.Client(base_url=node.url, timeout=30.0) as http:
            alice, bob = node.dev_accounts[0], node.dev_accounts[1]
            s = Story(http, alice, bob)
            account = ok(http.get(f"/accounts/{alice.address}/resource/0x1::account::Account"))
            s.guid_before = int(account["data"]["guid_creation_num"])
            s.txns["collection"] = run(
                http,
                alice,
                "0x3::token::create_collection_script",
                collection_args(COLLECTION, 2, [False, True, False]),
            )
            s.txns["token"] = run(
                http,
                alice,
                "0x3::token::create_token_script",
                token_args(COLLECTION, TOKEN, alice.address),
            )
            s.txns["offer"] = run(
                http,
                alice,
                "0x3::token_transfers::offer_script",
                [("address", bob.address), *id_args(alice.address), ("u64", 1)],
            )
            s.txns["claim"] = run(
                http,
                bob,
                "0x3::token_transfers::claim_script",
                [("address", alice.address), *id_args(alice.address)],
            )
            s.txns["direct"] = two_signers(
                http,
                bob,
                alice,
                "0x3::token::direct_transfer_script",
                [*id_args(alice.address), ("u64", 1)],
            )
            s.txns["mutate"] = run(
                http,
                alice,
                "0x3::token::mutate_token_properties",
                [
                    ("address", alice.address),
                    *id_args(alice.address),
                    ("u64", 1),
                    (STRINGS, ["level"]),
                    ("vector<vector<u8>>", [bytes.fromhex("0600000000000000")]),
                    (STRINGS, ["u64"]),
                ],
            )
            s.txns["burn"] = run(
                http, alice, "0x3::token::burn", [*id_args(alice.address), ("u64", 1)]
            )
            s.txns["opt_in"] = run(
                http, bob, "0x3::token::opt_in_direct_transfer", [("bool", True)]
            )
            yield s
    finally:
        node.stop()


def test_create_collection_writes_collections_and_its_table_item(story: Story) -> None:
    txn = story.txns["collection"]
    alice = story.alice.address
    assert txn["success"], txn["vm_status"]
    assert module_events(txn) == [
        (
            "0x3::token::CreateCollection",
            {
                "creator": alice.long,
                "collection_name": COLLECTION,
                "uri": "https://aptos.dev",
                "description": "Alice's simple collection",
                "maximum": "2",
            },
        )
    ]
    n = story.guid_before

    def events(offset: int) -> dict[str, Any]:
        return {
            "counter": "0",
            "guid": {"id": {"addr": alice.long, "creation_num": str(n + offset)}},
        }

    collections = ok(story.http.get(f"/accounts/{alice}/resource/0x3::token::Collections"))
    assert collections["data"] == {
        "collection_data": {"handle": handle("token", "collection_data", alice)},
        "token_data": {"handle": handle("token", "token_data", alice)},
        "create_collection_events": events(0),
        "create_token_data_events": events(1),
        "mint_token_events": events(2),
    }
    table = collections["data"]["collection_data"]["handle"]
    value = ok(item(story.http, table, S, "0x3::token::CollectionData", COLLECTION))
    # One token data made in a collection with a maximum: its supply counts it.
    assert value == {
        "description": "Alice's simple collection",
        "name": COLLECTION,
        "uri": "https://aptos.dev",
        "supply": "1",
        "maximum": "2",
        "mutability_config": {"description": False, "uri": True, "maximum": False},
    }


def test_create_token_writes_token_data_and_the_creators_store(story: Story) -> None:
    txn = story.txns["token"]
    alice = story.alice.address
    assert txn["success"], txn["vm_status"]
    config = {
        "maximum": False,
        "uri": False,
        "royalty": False,
        "description": False,
        "properties": True,
    }
    assert module_events(txn) == [
        (
            "0x3::token::TokenDataCreation",
            {
                "creator": alice.long,
                "id": data_id(alice),
                "description": "A sword",
                "maximum": "10",
                "uri": "https://aptos.dev/img/sword.png",
                "royalty_payee_address": alice.long,
                "royalty_points_denominator": "1000000",
                "royalty_points_numerator": "25000",
                "name": TOKEN,
                "mutability_config": config,
                "property_keys": ["level", "TOKEN_BURNABLE_BY_OWNER"],
                "property_values": ["0x0500000000000000", "0x01"],
                "property_types": ["u64", "bool"],
            },
        ),
        ("0x3::token::Mint", {"creator": alice.long, "id": data_id(alice), "amount": "3"}),
        (
            "0x3::token::TokenDeposit",
            {"account": alice.long, "id": token_id(alice), "amount": "3"},
        ),
    ]
    token_data = handle("token", "token_data", alice)
    value = ok(
        item(
            story.http,
            token_data,
            "0x3::token::TokenDataId",
            "0x3::token::TokenData",
            data_id(alice),
            txn["version"],
        )
    )
    assert value["maximum"] == "10"
    assert value["supply"] == "3"
    assert value["royalty"] == {
        "royalty_points_numerator": "25000",
        "royalty_points_denominator": "1000000",
        "payee_address": alice.long,
    }
    assert value["default_properties"] == {
        "map": {
            "data": [
                {"key": "level", "value": {"value": "0x0500000000000000", "type": "u64"}},
                {"key": "TOKEN_BURNABLE_BY_OWNER", "value": {"value": "0x01", "type": "bool"}},
            ]
        }
    }
    store = ok(story.http.get(f"/accounts/{alice}/resource/0x3::token::TokenStore"))["data"]
    assert store["tokens"] == {"handle": handle("token", "tokens", alice)}
    assert store["direct_transfer"] is False
    assert store["deposit_events"]["counter"] == "0"
    # Three handles for Collections, then four for the TokenStore.
    assert store["deposit_events"]["guid"]["id"]["creation_num"] == str(story.guid_before + 3)
    token = ok(
        item(
            story.http,
            store["tokens"]["handle"],
            "0x3::token::TokenId",
            "0x3::token::Token",
            token_id(alice),
            txn["version"],
        )
    )
    assert token == {
        "id": token_id(alice),
        "amount": "3",
        "token_properties": {"map": {"data": []}},
    }


def test_every_step_of_the_story_succeeds(story: Story) -> None:
    statuses = {name: txn["vm_status"] for name, txn in story.txns.items()}
    assert statuses == dict.fromkeys(story.txns, "Executed successfully")


def test_offer_moves_the_token_into_pending_claims(story: Story) -> None:
    alice, bob = story.alice.address, story.bob.address
    txn = story.txns["offer"]
    assert module_events(txn) == [
        (
            "0x3::token::TokenWithdraw",
            {"account": alice.long, "id": token_id(alice), "amount": "1"},
        ),
        (
            "0x3::token_transfers::Offer",
            {
                "account": alice.long,
                "to_address": bob.long,
                "token_id": token_id(alice),
                "amount": "1",
            },
        ),
    ]
    claims = ok(story.http.get(f"/accounts/{alice}/resource/0x3::token_transfers::PendingClaims"))
    table = handle("token_transfers", "pending_claims", alice)
    assert claims["data"]["pending_claims"] == {"handle": table}
    assert [
        claims["data"][f]["counter"]
        for f in ("offer_events", "cancel_offer_events", "claim_events")
    ] == ["0", "0", "0"]
    offer_id = {"to_addr": bob.long, "token_id": token_id(alice)}
    body = {
        "key_type": "0x3::token_transfers::TokenOfferId",
        "value_type": "0x3::token::Token",
        "key": offer_id,
    }
    at_offer = story.http.post(
        f"/tables/{table}/item", json=body, params={"ledger_version": txn["version"]}
    )
    # A part of a balance is offered: it travels without properties.
    assert ok(at_offer) == {
        "id": token_id(alice),
        "amount": "1",
        "token_properties": {"map": {"data": []}},
    }
    assert balance(story, alice, at=int(txn["version"])) == "2"
    # Claimed since: the item is gone.
    gone = story.http.post(f"/tables/{table}/item", json=body)
    assert gone.status_code == 404
    assert gone.json()["error_code"] == "table_item_not_found"


def test_claim_deposits_into_a_new_store_of_the_receiver(story: Story) -> None:
    alice, bob = story.alice.address, story.bob.address
    txn = story.txns["claim"]
    assert module_events(txn) == [
        ("0x3::token::TokenDeposit", {"account": bob.long, "id": token_id(alice), "amount": "1"}),
        (
            "0x3::token_transfers::Claim",
            {
                "account": alice.long,
                "to_address": bob.long,
                "token_id": token_id(alice),
                "amount": "1",
            },
        ),
    ]
    kinds = {(c["type"], c.get("handle")) for c in txn["changes"]}
    assert ("delete_table_item", handle("token_transfers", "pending_claims", alice)) in kinds
    assert ("write_table_item", handle("token", "tokens", bob)) in kinds
    assert balance(story, bob, at=int(txn["version"])) == "1"


def test_direct_transfer_takes_two_signers(story: Story) -> None:
    alice, bob = story.alice.address, story.bob.address
    txn = story.txns["direct"]
    assert txn["signature"]["type"] == "multi_agent_signature"
    assert module_events(txn) == [
        ("0x3::token::TokenWithdraw", {"account": bob.long, "id": token_id(alice), "amount": "1"}),
        ("0x3::token::TokenDeposit", {"account": alice.long, "id": token_id(alice), "amount": "1"}),
    ]
    assert balance(story, bob, at=int(txn["version"])) == "0"
    assert balance(story, alice, at=int(txn["version"])) == "3"


def test_mutating_properties_gives_the_token_a_version_of_its_own(story: Story) -> None:
    alice = story.alice.address
    txn = story.txns["mutate"]
    assert module_events(txn) == [
        (
            "0x3::token::TokenWithdraw",
            {"account": alice.long, "id": token_id(alice), "amount": "1"},
        ),
        (
            "0x3::token::TokenDeposit",
            {"account": alice.long, "id": token_id(alice, 1), "amount": "1"},
        ),
        (
            "0x3::token::MutatePropertyMap",
            {
                "account": alice.long,
                "old_id": token_id(alice),
                "new_id": token_id(alice, 1),
                "keys": ["level"],
                "values": ["0x0600000000000000"],
                "types": ["u64"],
            },
        ),
    ]
    tokens = handle("token", "tokens", alice)
    mutated = ok(
        item(story.http, tokens, "0x3::token::TokenId", "0x3::token::Token", token_id(alice, 1))
    )
    assert mutated == {
        "id": token_id(alice, 1),
        "amount": "1",
        "token_properties": {
            "map": {
                "data": [
                    {"key": "level", "value": {"value": "0x0600000000000000", "type": "u64"}},
                    {"key": "TOKEN_BURNABLE_BY_OWNER", "value": {"value": "0x01", "type": "bool"}},
                ]
            }
        },
    }


def test_burn_by_owner_lowers_the_supply(story: Story) -> None:
    alice = story.alice.address
    txn = story.txns["burn"]
    assert module_events(txn) == [
        (
            "0x3::token::TokenWithdraw",
            {"account": alice.long, "id": token_id(alice), "amount": "1"},
        ),
        ("0x3::token::Burn", {"account": alice.long, "id": token_id(alice), "amount": "1"}),
    ]
    token_data = ok(
        item(
            story.http,
            handle("token", "token_data", alice),
            "0x3::token::TokenDataId",
            "0x3::token::TokenData",
            data_id(alice),
        )
    )
    # 3 minted, 1 burned; the mutation made version 1.
    assert (token_data["supply"], token_data["largest_property_version"]) == ("2", "1")
    assert balance(story, alice) == "1"
    assert balance(story, alice, 1) == "1"


def test_opt_in_direct_transfer_sets_the_flag(story: Story) -> None:
    bob = story.bob.address
    assert module_events(story.txns["opt_in"]) == [
        ("0x3::token_event_store::OptInTransfer", {"account_address": bob.long, "opt_in": True})
    ]
    store = ok(story.http.get(f"/accounts/{bob}/resource/0x3::token::TokenStore"))
    assert store["data"]["direct_transfer"] is True


def test_the_collection_mutability_view(story: Story) -> None:
    body = {
        "function": "0x3::token::get_collection_mutability_config",
        "type_arguments": [],
        "arguments": [str(story.alice.address), COLLECTION],
    }
    assert ok(story.http.post("/view", json=body)) == [
        {"description": False, "uri": True, "maximum": False}
    ]
    body["arguments"] = [str(story.alice.address), "nothing"]
    failed = story.http.post("/view", json=body)
    assert failed.status_code == 400
    assert "ECOLLECTION_NOT_PUBLISHED(0x60002)" in failed.json()["message"]


def test_the_modules_at_0x3_and_their_abis(story: Story) -> None:
    abi = ok(story.http.get("/accounts/0x3/module/token"))["abi"]
    functions = {f["name"]: f for f in abi["exposed_functions"]}
    assert functions["direct_transfer_script"]["params"] == [
        "&signer",
        "&signer",
        "address",
        S,
        S,
        "u64",
        "u64",
    ]
    assert functions["get_collection_mutability_config"]["is_view"] is True
    structs = {st["name"]: st for st in abi["structs"]}
    assert [f["name"] for f in structs["TokenData"]["fields"]] == [
        "maximum",
        "largest_property_version",
        "supply",
        "uri",
        "royalty",
        "name",
        "description",
        "default_properties",
        "mutability_config",
    ]
    assert structs["TokenDeposit"]["is_event"] is True
    assert structs["DepositEvent"]["is_event"] is False
    names = {m["abi"]["name"] for m in ok(story.http.get("/accounts/0x3/modules"))}
    assert names == {"token", "token_transfers", "property_map", "token_event_store"}
    offer = {
        f["name"]: f
        for f in ok(story.http.get("/accounts/0x3/module/token_transfers"))["abi"][
            "exposed_functions"
        ]
    }["offer_script"]
    assert offer["params"][0] == "signer"


# -- aborts ---------------------------------------------------------------------------------------


def failed(story: Story, account: Account, function: str, args: list[Any]) -> str:
    txn = run(story.http, account, function, args)
    assert txn["success"] is False
    status: str = txn["vm_status"]
    return status


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            collection_args(COLLECTION, 0, [False] * 3),
            "0x3::token: ECOLLECTION_ALREADY_EXISTS(0x80003)",
        ),
        (
            collection_args("c" * 129, 0, [False] * 3),
            "0x3::token: ECOLLECTION_NAME_TOO_LONG(0x10019)",
        ),
    ],
)
def test_create_collection_aborts(story: Story, args: list[Any], expected: str) -> None:
    status = failed(story, story.alice, "0x3::token::create_collection_script", args)
    assert status.startswith(f"Move abort in {expected}")


def test_a_short_mutate_setting_is_a_vector_error(story: Story) -> None:
    status = failed(
        story,
        story.alice,
        "0x3::token::create_collection_script",
        collection_args("Other", 0, [False, False]),
    )
    assert status == "VECTOR_OPERATION_ERROR"


@pytest.mark.parametrize(
    ("collection", "name", "over", "expected"),
    [
        ("Nope", "T", {}, "0x3::token: ECOLLECTION_NOT_PUBLISHED(0x60002)"),
        (COLLECTION, TOKEN, {}, "0x3::token: ETOKEN_DATA_ALREADY_EXISTS(0x80009)"),
        (COLLECTION, "n" * 129, {}, "0x3::token: ENFT_NAME_TOO_LONG(0x1001a)"),
        (
            COLLECTION,
            "T",
            {"numerator": 2_000_000},
            "0x3::token: EINVALID_ROYALTY_NUMERATOR_DENOMINATOR(0x10022)",
        ),
        (COLLECTION, "T", {"balance": 0}, "0x3::token: ETOKEN_CANNOT_HAVE_ZERO_AMOUNT(0x10021)"),
        (
            COLLECTION,
            "T",
            {"types": ["u64"]},
            "0x3::property_map: EKEY_COUNT_NOT_MATCH_TYPE_COUNT(0x10005)",
        ),
        (COLLECTION, "T", {"keys": ["a", "a"]}, "0x1::simple_map: EKEY_ALREADY_EXISTS(0x10001)"),
    ],
)
def test_create_token_aborts(
    story: Story, collection: str, name: str, over: dict[str, Any], expected: str
) -> None:
    args = token_args(collection, name, story.alice.address, **over)
    status = failed(story, story.alice, "0x3::token::create_token_script", args)
    assert status.startswith(f"Move abort in {expected}")


def test_the_collection_maximum_counts_token_data(story: Story) -> None:
    # A collection of at most one token data: the first fits, the second does not.
    run(
        story.http,
        story.alice,
        "0x3::token::create_collection_script",
        collection_args("Small", 1, [False] * 3),
    )
    first = run(
        story.http,
        story.alice,
        "0x3::token::create_token_script",
        token_args("Small", "One", story.alice.address),
    )
    assert first["success"], first["vm_status"]
    status = failed(
        story,
        story.alice,
        "0x3::token::create_token_script",
        token_args("Small", "Two", story.alice.address),
    )
    assert status.startswith(
        "Move abort in 0x3::token: ECREATE_WOULD_EXCEED_COLLECTION_MAXIMUM(0x10004)"
    )
    # Burning every token of the only token data removes it, and the collection with it.
    alice = story.alice.address
    burned = run(
        story.http,
        story.alice,
        "0x3::token::burn",
        [("address", alice), (S, "Small"), (S, "One"), ("u64", 0), ("u64", 3)],
    )
    assert burned["success"], burned["vm_status"]
    # Keys as the API lists a struct's fields: by name.
    one = {"collection": "Small", "creator": alice.long, "name": "One"}
    kinds = {
        (c["type"], c["handle"], str(c["data"]["key"]))
        for c in burned["changes"]
        if c["type"].endswith("table_item")
    }
    assert kinds == {
        (
            "delete_table_item",
            handle("token", "tokens", alice),
            str({"property_version": "0", "token_data_id": one}),
        ),
        ("delete_table_item", handle("token", "token_data", alice), str(one)),
        ("delete_table_item", handle("token", "collection_data", alice), "Small"),
    }


def test_offer_and_claim_aborts(story: Story) -> None:
    alice, bob = story.alice, story.bob
    too_many = failed(
        story,
        alice,
        "0x3::token_transfers::offer_script",
        [("address", bob.address), *id_args(alice.address), ("u64", 50)],
    )
    assert too_many.startswith("Move abort in 0x3::token: EINSUFFICIENT_BALANCE(0x10005)")
    zero = failed(
        story,
        alice,
        "0x3::token_transfers::offer_script",
        [("address", bob.address), *id_args(alice.address), ("u64", 0)],
    )
    assert zero.startswith("Move abort in 0x3::token: EWITHDRAW_ZERO(0x10011)")
    # Bob never offered anything: the raw code 1, no category.
    never = failed(
        story,
        alice,
        "0x3::token_transfers::claim_script",
        [("address", bob.address), *id_args(alice.address)],
    )
    assert never.startswith("Move abort in 0x3::token_transfers: ETOKEN_OFFER_NOT_EXIST(0x1)")
    # Alice's claims table exists, but holds nothing for Bob now.
    nothing = failed(
        story,
        bob,
        "0x3::token_transfers::claim_script",
        [("address", alice.address), *id_args(alice.address)],
    )
    assert nothing.startswith("Move abort in 0x3::token_transfers: ETOKEN_OFFER_NOT_EXIST(0x60001)")
    cancel = failed(
        story,
        alice,
        "0x3::token_transfers::cancel_offer_script",
        [("address", bob.address), *id_args(alice.address)],
    )
    assert cancel.startswith("Move abort in 0x1::table: 0x6507")


def test_mutate_and_burn_aborts(story: Story) -> None:
    alice, bob = story.alice, story.bob
    changes = [(STRINGS, ["level"]), ("vector<vector<u8>>", [b"\x07"]), (STRINGS, ["u8"])]
    not_creator = failed(
        story,
        bob,
        "0x3::token::mutate_token_properties",
        [("address", alice.address), *id_args(alice.address), ("u64", 1), *changes],
    )
    assert not_creator.startswith("Move abort in 0x3::token: ENO_MUTATE_CAPABILITY(0x6000e)")
    reserved = [(STRINGS, ["TOKEN_X"]), ("vector<vector<u8>>", [b"\x07"]), (STRINGS, ["u8"])]
    status = failed(
        story,
        alice,
        "0x3::token::mutate_token_properties",
        [("address", alice.address), *id_args(alice.address, 1), ("u64", 1), *reserved],
    )
    assert status.startswith("Move abort in 0x3::token: EPROPERTY_RESERVED_BY_STANDARD(0x50028)")
    by_creator = failed(
        story,
        alice,
        "0x3::token::burn_by_creator",
        [("address", alice.address), (S, COLLECTION), (S, TOKEN), ("u64", 0), ("u64", 1)],
    )
    assert by_creator.startswith("Move abort in 0x3::token: ECREATOR_CANNOT_BURN_TOKEN(0x5001f)")
    zero = failed(story, alice, "0x3::token::burn", [*id_args(alice.address), ("u64", 0)])
    assert zero.startswith("Move abort in 0x3::token: ENO_BURN_TOKEN_WITH_ZERO_AMOUNT(0x1001d)")
    not_opted = failed(
        story,
        bob,
        "0x3::token::transfer_with_opt_in",
        [*id_args(alice.address), ("address", alice.address), ("u64", 1)],
    )
    assert not_opted.startswith(
        "Move abort in 0x3::token: EUSER_NOT_OPT_IN_DIRECT_TRANSFER(0x50010)"
    )


def test_mint_transfer_with_opt_in_and_cancel_offer(story: Story) -> None:
    alice, bob = story.alice, story.bob
    http = story.http
    # A collection and a token without maximums: no supply is counted.
    made = [
        run(
            http,
            alice,
            "0x3::token::create_collection_script",
            collection_args("Unlimited", 0, [False] * 3),
        ),
        run(
            http,
            alice,
            "0x3::token::create_token_script",
            [
                (S, "Unlimited"),
                (S, "Coin"),
                (S, ""),
                ("u64", 1),
                ("u64", 0),
                (S, ""),
                ("address", alice.address),
                ("u64", 0),
                ("u64", 0),
                ("vector<bool>", [False] * 5),
                (STRINGS, []),
                ("vector<vector<u8>>", []),
                (STRINGS, []),
            ],
        ),
    ]
    assert [t["vm_status"] for t in made] == ["Executed successfully"] * 2
    coin = [("address", alice.address), (S, "Unlimited"), (S, "Coin")]
    coin_id = {
        "token_data_id": {"creator": alice.address.long, "collection": "Unlimited", "name": "Coin"},
        "property_version": "0",
    }
    minted = run(http, alice, "0x3::token::mint_script", [*coin, ("u64", 4)])
    assert module_events(minted) == [
        (
            "0x3::token::Mint",
            {"creator": alice.address.long, "id": coin_id["token_data_id"], "amount": "4"},
        ),
        ("0x3::token::TokenDeposit", {"account": alice.address.long, "id": coin_id, "amount": "4"}),
    ]
    data = ok(
        item(
            http,
            handle("token", "token_data", alice.address),
            "0x3::token::TokenDataId",
            "0x3::token::TokenData",
            coin_id["token_data_id"],
        )
    )
    assert (data["supply"], data["maximum"]) == ("0", "0")
    not_creator = failed(story, bob, "0x3::token::mint_script", [*coin, ("u64", 1)])
    assert not_creator.startswith("Move abort in 0x3::token: ENO_MINT_CAPABILITY(0x50013)")
    # Bob opted in during the story: a transfer needs no signature of his.
    sent = run(
        http,
        alice,
        "0x3::token::transfer_with_opt_in",
        [*coin, ("u64", 0), ("address", bob.address), ("u64", 2)],
    )
    assert [t for t, _ in module_events(sent)] == [
        "0x3::token::TokenWithdraw",
        "0x3::token::TokenDeposit",
    ]
    tokens = handle("token", "tokens", bob.address)
    held = ok(item(http, tokens, "0x3::token::TokenId", "0x3::token::Token", coin_id))
    assert held["amount"] == "2"
    # An offer cancelled comes back to the offering account.
    offered = run(
        http,
        alice,
        "0x3::token_transfers::offer_script",
        [("address", "0xc0ffee"), *coin, ("u64", 0), ("u64", 3)],
    )
    assert offered["success"], offered["vm_status"]
    cancelled = run(
        http,
        alice,
        "0x3::token_transfers::cancel_offer_script",
        [("address", "0xc0ffee"), *coin, ("u64", 0)],
    )
    assert module_events(cancelled) == [
        ("0x3::token::TokenDeposit", {"account": alice.address.long, "id": coin_id, "amount": "3"}),
        (
            "0x3::token_transfers::CancelOffer",
            {
                "account": alice.address.long,
                "to_address": "0x" + "0" * 58 + "c0ffee",
                "token_id": coin_id,
                "amount": "3",
            },
        ),
    ]
    mine = ok(
        item(
            http,
            handle("token", "tokens", alice.address),
            "0x3::token::TokenId",
            "0x3::token::Token",
            coin_id,
        )
    )
    assert mine["amount"] == "3"
