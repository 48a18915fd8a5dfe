"""The default chain's day holds what real chains run, as a user finds it over HTTP.

The expected values come from the day's written plan (docs/localnet.md, "The generated
chain"): who does what, with which names and amounts. The actors are workload accounts
``i``, whose keys are ``Ed25519PrivateKey.from_seed("ledgerkit-localnet:workload:0:i")``
(and ``...:rotated:0:i`` once rotated). Addresses are derived here with hashlib from the
framework's rules: a collection ``SHA3-256(creator ‖ name ‖ 0xFE)``, an ``aptos_token``
token ``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)``, a multisig account
``SHA3-256(creator ‖ "aptos_framework::multisig_account" ‖ u64 seq ‖ 0xFF)``, an Ed25519
authentication key ``SHA3-256(public key ‖ 0x00)``. No fee value is written out: a fee is
checked against the transaction's own ``gas_used`` and ``gas_unit_price``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import APT, ok

from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import LocalNode

#: ``LocalNode()``'s chain: seed 0, 360 blocks.
SEED: Final = 0
BLOCKS: Final = 360
TOKEN: Final = "0x4::token::Token"
MS: Final = "0x1::multisig_account::"


def key(index: int, role: str = "workload") -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_seed(f"ledgerkit-localnet:{role}:{SEED}:{index}")


def auth_key(k: Ed25519PrivateKey) -> str:
    return "0x" + hashlib.sha3_256(k.public_key_bytes + b"\x00").hexdigest()


def actor(index: int) -> str:
    """The address of workload account ``index``: its key's authentication key."""
    return auth_key(key(index))


def sha3(*parts: bytes) -> str:
    return "0x" + hashlib.sha3_256(b"".join(parts)).hexdigest()


def raw(address: str) -> bytes:
    return bytes.fromhex(address[2:].rjust(64, "0"))


@pytest.fixture(scope="module")
def day(make_node: Any) -> LocalNode:
    return make_node(seed=SEED, blocks=BLOCKS, services=False)


@pytest.fixture(scope="module")
def http(day: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=day.url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="module")
def users(http: httpx.Client) -> list[dict[str, Any]]:
    """Every user transaction of the day, read in pages of 100."""
    head = int(ok(http.get("/"))["ledger_version"])
    found = []
    for start in range(0, head + 1, 100):
        page = ok(http.get("/transactions", params={"start": start, "limit": 100}))
        found += [t for t in page if t["type"] == "user_transaction"]
    return found


def calls(users: list[dict[str, Any]], function: str, sender: str) -> list[dict[str, Any]]:
    return [t for t in users if t["sender"] == sender and t["payload"].get("function") == function]


def resource(http: httpx.Client, address: str, type_: str, **params: Any) -> Any:
    return ok(http.get(f"/accounts/{address}/resource/{type_}", params=params))["data"]


def minted(users: list[dict[str, Any]], creator: str, name: str) -> tuple[dict[str, Any], str]:
    """The mint of token ``name`` and the token's address, derived from its hash."""
    (txn,) = [
        t
        for t in users
        if t["sender"] == creator
        and t["payload"].get("function", "").startswith("0x4::aptos_token::mint")
        and t["payload"]["arguments"][2] == name
    ]
    return txn, sha3(raw(txn["hash"]), (1).to_bytes(8, "little"), b"\xfb")


def test_genesis_made_the_framework_reserved_accounts(http: httpx.Client) -> None:
    for n in range(2, 11):
        address = f"0x{n:x}"
        account = ok(http.get(f"/accounts/{address}"))
        assert account == {"sequence_number": "0", "authentication_key": "0x" + f"{n:064x}"}
        data = resource(http, address, "0x1::account::Account")
        assert data["guid_creation_num"] == "2"
        assert data["key_rotation_events"]["guid"]["id"] == {
            "addr": address,
            "creation_num": "1",
        }


def test_a_collection_holds_its_mints_less_the_burned_one(
    http: httpx.Client, users: list[dict[str, Any]]
) -> None:
    artist = actor(20)
    collection = sha3(raw(artist), b"Tidepool Prints", b"\xfe")
    data = resource(http, collection, "0x4::collection::Collection")
    assert (data["creator"], data["name"]) == (artist, "Tidepool Prints")
    supply = resource(http, collection, "0x4::collection::ConcurrentSupply")
    assert supply["total_minted"]["value"] == "16"
    assert supply["current_supply"] == {"value": "15", "max_value": "100"}
    mints = calls(users, "0x4::aptos_token::mint", artist)
    assert sorted(t["payload"]["arguments"][2] for t in mints if t["success"]) == sorted(
        f"Tidepool #{i}" for i in range(1, 17)
    )
    # The first six went to collectors 50..55; collector 50 passed its token on to 57.
    for i, owner in ((1, 57), (2, 51), (3, 52), (6, 55), (8, 20)):
        _, token = minted(users, artist, f"Tidepool #{i}")
        assert resource(http, token, "0x1::object::ObjectCore")["owner"] == actor(owner)


def test_a_burned_token_is_gone_and_its_burn_was_an_event(
    http: httpx.Client, users: list[dict[str, Any]]
) -> None:
    artist = actor(20)
    _, token = minted(users, artist, "Tidepool #7")
    (burn,) = calls(users, "0x4::aptos_token::burn", artist)
    assert burn["success"], burn["vm_status"]
    assert burn["payload"]["arguments"][0] == {"inner": token}
    (event,) = [e for e in burn["events"] if e["type"] == "0x4::collection::Burn"]
    assert event["data"]["token"] == token
    assert event["data"]["index"] == "7"
    answer = http.get(f"/accounts/{token}/resource/0x1::object::ObjectCore")
    assert answer.status_code == 404


def test_a_soul_bound_token_stays_with_its_holder(
    http: httpx.Client, users: list[dict[str, Any]]
) -> None:
    holder = actor(52)
    mint, badge = minted(users, actor(21), "Conductor Badge 1")
    assert mint["payload"]["function"] == "0x4::aptos_token::mint_soul_bound"
    (attempt,) = calls(users, "0x1::object::transfer", holder)
    assert attempt["payload"]["arguments"][0] == {"inner": badge}
    assert attempt["success"] is False
    assert attempt["vm_status"].startswith(
        "Move abort in 0x1::object: ENO_UNGATED_TRANSFERS(0x50003)"
    )
    core = resource(http, badge, "0x1::object::ObjectCore")
    assert (core["owner"], core["allow_ungated_transfer"]) == (holder, False)


def test_a_token_v1_offer_was_claimed_and_another_cancelled(
    http: httpx.Client, users: list[dict[str, Any]]
) -> None:
    creator, claimer, declined = actor(22), actor(31), actor(32)
    (claim,) = calls(users, "0x3::token_transfers::claim_script", claimer)
    assert claim["success"], claim["vm_status"]
    assert [e["type"] for e in claim["events"] if e["type"].startswith("0x3::token_transfers")] == [
        "0x3::token_transfers::Claim"
    ]
    (cancel,) = calls(users, "0x3::token_transfers::cancel_offer_script", creator)
    assert cancel["success"], cancel["vm_status"]
    assert cancel["payload"]["arguments"][:4] == [declined, creator, "Founders Pass", "Pass 2"]
    store = resource(http, claimer, "0x3::token::TokenStore")
    token_id = {
        "token_data_id": {"creator": creator, "collection": "Founders Pass", "name": "Pass 1"},
        "property_version": "0",
    }
    held = ok(
        http.post(
            f"/tables/{store['tokens']['handle']}/item",
            json={
                "key_type": "0x3::token::TokenId",
                "value_type": "0x3::token::Token",
                "key": token_id,
            },
        )
    )
    assert held["amount"] == "1"
    assert held["id"] == token_id


def test_multisig_proposals_were_approved_executed_and_rejected(
    http: httpx.Client, users: list[dict[str, Any]]
) -> None:
    creator, second, third = actor(23), actor(24), actor(25)
    (made,) = calls(users, MS + "create_with_owners", creator)
    assert made["success"], made["vm_status"]
    seed = b"aptos_framework::multisig_account" + int(made["sequence_number"]).to_bytes(8, "little")
    account = sha3(raw(creator), seed, b"\xff")
    data = resource(http, account, MS + "MultisigAccount")
    # Proposal 3 added account 26 as an owner.
    assert data["owners"] == [second, third, creator, actor(26)]
    assert data["num_signatures_required"] == "2"
    assert (data["last_executed_sequence_number"], data["next_sequence_number"]) == ("3", "4")
    executed = [
        t
        for t in users
        if t["payload"]["type"] == "multisig_payload"
        and t["payload"]["multisig_address"] == account
    ]
    assert [t["sender"] for t in executed] == [third, third]
    first = executed[0]
    (done,) = [e for e in first["events"] if e["type"] == MS + "TransactionExecutionSucceeded"]
    assert done["data"]["sequence_number"] == "1"
    # the proposer's, account 24's and the executor's own (implicit) approval
    assert done["data"]["num_approvals"] == "3"
    paid = [e["data"]["amount"] for e in first["events"] if e["type"].endswith("::Deposit")]
    assert "300000000" in paid  # 3 APT to account 34
    votes = [
        (t["sender"], t["payload"]["function"].split("::")[-1], t["payload"]["arguments"][1])
        for t in users
        if t["payload"].get("function", "").startswith(MS)
        and t["payload"]["function"].endswith(("approve_transaction", "reject_transaction"))
        and t["payload"]["arguments"][0] == account
    ]
    assert votes == [
        (second, "approve_transaction", "1"),
        (second, "reject_transaction", "2"),
        (third, "reject_transaction", "2"),
        (second, "approve_transaction", "3"),
    ]
    (rejected,) = calls(users, MS + "execute_rejected_transaction", creator)
    (event,) = [e for e in rejected["events"] if e["type"] == MS + "ExecuteRejectedTransaction"]
    # accounts 24's and 25's, and the executor's own: it turns its approval into a rejection
    assert event["data"] == {
        "multisig_account": account,
        "sequence_number": "2",
        "num_rejections": "3",
        "executor": creator,
    }
    # The approval came hours after the proposal (planned 0.13 of the day apart, about 3 h,
    # give or take a run of the 60 the day is sampled in).
    proposal = next(
        t
        for t in calls(users, MS + "create_transaction", creator)
        if t["payload"]["arguments"][0] == account
    )
    (approval,) = [
        t
        for t in calls(users, MS + "approve_transaction", second)
        if t["payload"]["arguments"][1] == "1"
    ]
    assert int(approval["timestamp"]) - int(proposal["timestamp"]) > 2 * 3_600_000_000


@pytest.mark.parametrize("index", [40, 41, 42])
def test_a_rotated_account_goes_on_with_its_new_key(
    http: httpx.Client, users: list[dict[str, Any]], index: int
) -> None:
    address, new = actor(index), key(index, "rotated")
    assert ok(http.get(f"/accounts/{address}"))["authentication_key"] == auth_key(new)
    (rotation,) = calls(users, "0x1::account::rotate_authentication_key", address)
    assert rotation["success"], rotation["vm_status"]
    later = [
        t for t in users if t["sender"] == address and int(t["version"]) > int(rotation["version"])
    ]
    # planned: a payment of 1 APT to account 100 + (index - 40) a little later
    assert any(
        t["success"]
        and t["payload"].get("function") == "0x1::aptos_account::transfer"
        and t["payload"]["arguments"] == [actor(60 + index), "100000000"]
        for t in later
    )
    assert all(t["signature"]["public_key"] == "0x" + new.public_key_bytes.hex() for t in later)
    body = {
        "function": "0x1::account::originating_address",
        "type_arguments": [],
        "arguments": [auth_key(new)],
    }
    assert ok(http.post("/view", json=body)) == [{"vec": [address]}]


def test_sponsored_transactions_are_paid_by_their_fee_payer(
    http: httpx.Client, users: list[dict[str, Any]]
) -> None:
    sponsor = actor(28)
    sponsored = [t for t in users if t["signature"]["type"] == "fee_payer_signature"]
    # 20 planned: account 60 + k pays (k + 1) / 10 APT to account 80 + k, account 28 the gas
    assert [(t["sender"], *t["payload"]["arguments"]) for t in sponsored] == [
        (actor(60 + k), actor(80 + k), str((k + 1) * 10_000_000)) for k in range(20)
    ]
    assert {t["signature"]["fee_payer_address"] for t in sponsored} == {sponsor}
    assert all(t["success"] for t in sponsored)
    txn = sponsored[7]
    version = int(txn["version"])

    def balance(address: str, at: int) -> int:
        answer = ok(http.get(f"/accounts/{address}/balance/{APT}", params={"ledger_version": at}))
        assert isinstance(answer, int)
        return answer

    fee = int(txn["gas_used"]) * int(txn["gas_unit_price"])
    assert balance(sponsor, version - 1) - balance(sponsor, version) == fee
    amount = int(txn["payload"]["arguments"][1])
    assert balance(txn["sender"], version - 1) - balance(txn["sender"], version) == amount
