"""Multisig accounts (``0x1::multisig_account``) on the node, over HTTP.

Expected values are written out from the framework's Move source: the account address
is ``SHA3-256(creator ‖ "aptos_framework::multisig_account" ‖ u64_le(seq) ‖ 0xFF)``
(computed here with hashlib), abort codes are ``category << 16 | reason``
(``EACCOUNT_NOT_MULTISIG`` 2002 -> ``0x307D2`` ...), and a multisig payload refused by
the prologue is a ``vm_error`` with the ``StatusCode`` values 31 (ACCOUNT_NOT_MULTISIG),
32 (NOT_MULTISIG_OWNER), 34 (MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS), 35
(MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import SIGNED_TXN_BCS, apt_balance, ok, run, submit, wait

from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    Multisig,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode
from ledgerkit.tx import submission_request
from ledgerkit.types import Address

MS: Final = "0x1::multisig_account::"
ZERO_KEY: Final = "0x" + "00" * 32


@pytest.fixture(scope="module")
def msig_node(make_node: Any) -> LocalNode:
    node: LocalNode = make_node(seed=29, blocks=3, services=False)
    return node


@pytest.fixture(scope="module")
def http(msig_node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=msig_node.url, timeout=30.0) as client:
        yield client


@pytest.fixture(scope="module")
def owners(http: httpx.Client, msig_node: LocalNode) -> list[Account]:
    """Three new accounts with 1 APT each."""
    bank = msig_node.dev_accounts[0]
    made = [Account.generate() for _ in range(3)]
    for account in made:
        done = run(
            http,
            bank,
            "0x1::aptos_account::transfer",
            [("address", account.address), ("u64", 100_000_000)],
        )
        assert done["success"], done["vm_status"]
    return made


def expected_address(creator: Address, sequence: int) -> str:
    seed = b"aptos_framework::multisig_account" + sequence.to_bytes(8, "little")
    return "0x" + hashlib.sha3_256(bytes(creator) + seed + b"\xff").hexdigest()


def view(http: httpx.Client, function: str, *args: Any) -> list[Any]:
    body = {"function": MS + function, "type_arguments": [], "arguments": list(args)}
    result: list[Any] = ok(http.post("/view", json=body))
    return result


def call(http: httpx.Client, who: Account, function: str, *args: tuple[str, Any]) -> Any:
    name = function if "::" in function else MS + function
    return run(http, who, name, list(args))


def inner_payload(function: str, *args: tuple[str, Any]) -> bytes:
    """``MultisigTransactionPayload::EntryFunction`` as BCS: variant 0, then the call."""
    return b"\x00" + EntryFunction.build(function, [], list(args)).to_bcs()


def execute(http: httpx.Client, who: Account, account: str, ef: EntryFunction | None) -> Any:
    chain_id = int(ok(http.get("/"))["chain_id"])
    sequence = int(ok(http.get(f"/accounts/{who.address}"))["sequence_number"])
    raw = RawTransaction(
        who.address,
        sequence,
        Multisig(Address.parse(account), ef),
        200_000,
        100,
        int(ok(http.get("/"))["ledger_timestamp"]) // 1_000_000 + 600,
        chain_id,
    )
    return raw.sign(who.private_key)


def events(txn: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(e["type"], e["data"]) for e in txn["events"]]


@pytest.fixture
def account(http: httpx.Client, owners: list[Account]) -> str:
    """A new 2-of-3 multisig account created by owner 0 with owners 1 and 2."""
    a, b, c = owners
    sequence = int(ok(http.get(f"/accounts/{a.address}"))["sequence_number"])
    address = expected_address(a.address, sequence)
    assert view(http, "get_next_multisig_account_address", str(a.address)) == [address]
    done = call(
        http,
        a,
        "create_with_owners",
        ("vector<address>", [b.address, c.address]),
        ("u64", 2),
        ("vector<0x1::string::String>", ["Example"]),
        ("vector<vector<u8>>", [b"\x03SDK"]),
    )
    assert done["success"], done["vm_status"]
    assert done["events"] == []  # no event at creation
    return address


def test_the_account_is_a_resource_account_with_its_owners(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, c = owners
    resources = {r["type"]: r["data"] for r in ok(http.get(f"/accounts/{account}/resources"))}
    data = resources["0x1::multisig_account::MultisigAccount"]
    # the creator comes last
    assert data["owners"] == [str(b.address), str(c.address), str(a.address)]
    assert data["num_signatures_required"] == "2"
    assert data["last_executed_sequence_number"] == "0"
    assert data["next_sequence_number"] == "1"
    assert data["signer_cap"] == {"vec": [{"account": account}]}
    assert data["metadata"] == {"data": [{"key": "Example", "value": "0x0353444b"}]}
    assert list(data)[7:] == [
        "add_owners_events",
        "remove_owners_events",
        "update_signature_required_events",
        "create_transaction_events",
        "vote_events",
        "execute_rejected_transaction_events",
        "execute_transaction_events",
        "transaction_execution_failed_events",
        "metadata_updated_events",
    ]
    numbers = [data[name]["guid"]["id"]["creation_num"] for name in list(data)[7:]]
    assert numbers == [str(n) for n in range(2, 11)]
    assert resources["0x1::account::Account"]["authentication_key"] == ZERO_KEY
    assert resources["0x1::account::Account"]["signer_capability_offer"] == {
        "for": {"vec": [account]}
    }
    assert view(http, "owners", account) == [[str(b.address), str(c.address), str(a.address)]]
    assert view(http, "num_signatures_required", account) == ["2"]


def test_a_transfer_voted_and_executed(
    http: httpx.Client, owners: list[Account], account: str, msig_node: LocalNode
) -> None:
    a, b, c = owners
    to = Account.generate().address
    ok_fund = call(
        http,
        msig_node.dev_accounts[0],
        "0x1::aptos_account::transfer",
        ("address", Address.parse(account)),
        ("u64", 10_000_000),
    )
    assert ok_fund["success"]
    payload = inner_payload("0x1::aptos_account::transfer", ("address", to), ("u64", 1_000))
    sequence = int(view(http, "next_sequence_number", account)[0])
    created = call(
        http, b, "create_transaction", ("address", Address.parse(account)), ("vector<u8>", payload)
    )
    assert created["success"], created["vm_status"]
    ((kind, data),) = events(created)
    assert kind == MS + "CreateTransaction"
    assert data["creator"] == str(b.address)
    assert data["sequence_number"] == str(sequence)
    assert data["transaction"]["payload"] == {"vec": ["0x" + payload.hex()]}
    assert data["transaction"]["votes"] == {"data": [{"key": str(b.address), "value": True}]}
    # one approval of two: executing is refused at submission
    early = execute(http, b, account, None)
    answer = http.post(
        "/transactions", content=early.to_bcs(), headers={"Content-Type": SIGNED_TXN_BCS}
    )
    assert answer.status_code == 400
    assert answer.json()["vm_error_code"] == 34
    assert view(http, "can_be_executed", account, str(sequence)) == [False]
    assert view(http, "can_execute", str(c.address), account, str(sequence)) == [True]

    rejected = call(
        http, a, "reject_transaction", ("address", Address.parse(account)), ("u64", sequence)
    )
    assert events(rejected)[0] == (
        MS + "Vote",
        {
            "multisig_account": account,
            "owner": str(a.address),
            "sequence_number": str(sequence),
            "approved": False,
        },
    )
    call(http, c, "approve_transaction", ("address", Address.parse(account)), ("u64", sequence))
    assert view(http, "can_be_executed", account, str(sequence)) == [True]
    assert view(http, "vote", account, str(sequence), str(a.address)) == [True, False]

    done = wait(http, submit(http, execute(http, b, account, None))["hash"])
    assert done["success"], done["vm_status"]
    assert done["payload"] == {"multisig_address": account, "type": "multisig_payload"}
    assert apt_balance(http, to) == 1_000
    assert [k for k, _ in events(done)] == [
        "0x1::fungible_asset::Withdraw",  # the call's own, run as the multisig account
        "0x1::fungible_asset::Deposit",
        MS + "TransactionExecutionSucceeded",  # b approved already: no implicit Vote
    ]
    assert events(done)[-1][1] == {
        "multisig_account": account,
        "executor": str(b.address),
        "sequence_number": str(sequence),
        "transaction_payload": "0x" + payload.hex(),
        "num_approvals": "2",
    }
    assert view(http, "last_resolved_sequence_number", account) == [str(sequence)]
    answer = http.post(
        "/view",
        json={
            "function": MS + "get_transaction",
            "type_arguments": [],
            "arguments": [account, str(sequence)],
        },
    )
    assert answer.status_code == 400
    assert "0x1::table" in answer.json()["message"]
    assert "0x6507" in answer.json()["message"]


def test_a_call_stored_by_hash_needs_its_payload(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, _b, c = owners
    inner = EntryFunction.build(
        "0x1::multisig_account::update_signatures_required", [], [("u64", 3)]
    )
    payload = b"\x00" + inner.to_bcs()
    digest = hashlib.sha3_256(payload).digest()
    short = call(
        http,
        a,
        "create_transaction_with_hash",
        ("address", Address.parse(account)),
        ("vector<u8>", digest[:31]),
    )
    assert short["vm_status"].startswith(
        "Move abort in 0x1::multisig_account: EINVALID_PAYLOAD_HASH(0x1000c)"
    )
    created = call(
        http,
        a,
        "create_transaction_with_hash",
        ("address", Address.parse(account)),
        ("vector<u8>", digest),
    )
    ((_, data),) = events(created)
    assert data["transaction"]["payload"] == {"vec": []}
    assert data["transaction"]["payload_hash"] == {"vec": ["0x" + digest.hex()]}
    # c's implicit approval makes two; without the payload the hash cannot match
    refused = http.post(
        "/transactions",
        content=execute(http, c, account, None).to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert refused.status_code == 400
    assert refused.json()["vm_error_code"] == 35
    done = wait(http, submit(http, execute(http, c, account, inner))["hash"])
    assert done["success"], done["vm_status"]
    assert [k for k, _ in events(done)] == [
        MS + "UpdateSignaturesRequired",
        MS + "Vote",  # c's implicit approval
        MS + "TransactionExecutionSucceeded",
    ]
    assert events(done)[0][1] == {
        "multisig_account": account,
        "old_num_signatures_required": "2",
        "new_num_signatures_required": "3",
    }
    assert events(done)[2][1]["num_approvals"] == "2"
    assert view(http, "num_signatures_required", account) == ["3"]


def test_a_failing_call_is_resolved_and_the_transaction_succeeds(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, c = owners
    k = int(view(http, "num_signatures_required", account)[0])
    # removing two of three owners leaves fewer owners than signatures required
    payload = inner_payload(
        "0x1::multisig_account::remove_owners", ("vector<address>", [a.address, b.address])
    )
    created = call(
        http, a, "create_transaction", ("address", Address.parse(account)), ("vector<u8>", payload)
    )
    sequence = int(events(created)[0][1]["sequence_number"])
    for voter in (b, c)[: k - 1]:
        call(
            http,
            voter,
            "approve_transaction",
            ("address", Address.parse(account)),
            ("u64", sequence),
        )
    before = view(http, "owners", account)
    done = wait(http, submit(http, execute(http, a, account, None))["hash"])
    assert (done["success"], done["vm_status"]) == (True, "Executed successfully")
    ((kind, data),) = events(done)
    assert kind == MS + "TransactionExecutionFailed"
    assert data["execution_error"] == {
        "abort_location": "00" * 31 + "01::multisig_account",
        "error_type": "MoveAbort",
        "error_code": str(0x30005),  # ENOT_ENOUGH_OWNERS
    }
    assert data["num_approvals"] == str(k)
    assert view(http, "owners", account) == before
    assert view(http, "last_resolved_sequence_number", account) == [str(sequence)]


def test_a_rejected_call_and_refusals(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, c = owners
    stranger = Account.generate()
    payload = inner_payload("0x1::multisig_account::add_owner", ("address", stranger.address))
    created = call(
        http, a, "create_transaction", ("address", Address.parse(account)), ("vector<u8>", payload)
    )
    sequence = int(events(created)[0][1]["sequence_number"])
    early = call(http, b, "execute_rejected_transaction", ("address", Address.parse(account)))
    assert early["vm_status"].startswith(
        "Move abort in 0x1::multisig_account: ENOT_ENOUGH_REJECTIONS(0x3000a)"
    )
    not_owner = call(http, a, "approve_transaction", ("address", a.address), ("u64", 1))
    assert "EACCOUNT_NOT_MULTISIG(0x307d2)" in not_owner["vm_status"]
    refused = http.post(
        "/transactions",
        content=execute(http, a, str(a.address), None).to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert refused.json()["vm_error_code"] == 31
    for voter in (b, c):
        call(
            http,
            voter,
            "reject_transaction",
            ("address", Address.parse(account)),
            ("u64", sequence),
        )
    assert view(http, "can_be_rejected", account, str(sequence)) == [True]
    done = call(http, a, "execute_rejected_transaction", ("address", Address.parse(account)))
    assert done["success"], done["vm_status"]
    assert events(done) == [
        (
            MS + "Vote",
            {
                "multisig_account": account,
                "owner": str(a.address),
                "sequence_number": str(sequence),
                "approved": False,
            },
        ),
        (
            MS + "ExecuteRejectedTransaction",
            {
                "multisig_account": account,
                "sequence_number": str(sequence),
                "num_rejections": "3",
                "executor": str(a.address),
            },
        ),
    ]
    assert view(http, "owners", account) == [[str(b.address), str(c.address), str(a.address)]]


def abort_of(txn: dict[str, Any]) -> str:
    assert txn["success"] is False
    status: str = txn["vm_status"]
    return status


def test_creation_refuses_what_the_framework_refuses(
    http: httpx.Client, owners: list[Account]
) -> None:
    a, b, _ = owners
    strings = "vector<0x1::string::String>"
    cases = [
        ([b.address], 0, [], [], "EINVALID_SIGNATURES_REQUIRED(0x1000b)"),
        ([b.address], 3, [], [], "EINVALID_SIGNATURES_REQUIRED(0x1000b)"),
        ([b.address, b.address], 1, [], [], "EDUPLICATE_OWNER(0x10001)"),
        ([a.address], 1, [], [], "EDUPLICATE_OWNER(0x10001)"),  # the creator is added
        ([b.address], 1, ["k"], [], "ENUMBER_OF_METADATA_KEYS_AND_VALUES_DONT_MATCH(0x1000f)"),
        ([b.address], 1, ["k", "k"], [b"", b""], "EDUPLICATE_METADATA_KEY(0x10010)"),
    ]
    for others, required, keys, values, name in cases:
        done = call(
            http,
            a,
            "create_with_owners",
            ("vector<address>", others),
            ("u64", required),
            (strings, keys),
            ("vector<vector<u8>>", values),
        )
        assert abort_of(done).startswith(f"Move abort in 0x1::multisig_account: {name}"), name


def test_owner_changes_are_the_account_s_own(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, c = owners
    # called by an owner directly, the signer is the owner: no MultisigAccount there
    direct = call(http, a, "add_owner", ("address", Account.generate().address))
    assert "EACCOUNT_NOT_MULTISIG(0x307d2)" in abort_of(direct)
    d, e = Account.generate().address, Account.generate().address
    steps = [
        (
            inner_payload(MS + "add_owners", ("vector<address>", [d, e])),
            [str(b.address), str(c.address), str(a.address), str(d), str(e)],
            [(MS + "AddOwners", {"owners_added": [str(d), str(e)]})],
        ),
        (
            # swap_remove: the last owner takes the removed one's place
            inner_payload(MS + "remove_owner", ("address", b.address)),
            [str(e), str(c.address), str(a.address), str(d)],
            [(MS + "RemoveOwners", {"owners_removed": [str(b.address)]})],
        ),
        (
            inner_payload(MS + "swap_owner", ("address", b.address), ("address", e)),
            [str(b.address), str(c.address), str(a.address), str(d)],
            [
                (MS + "AddOwners", {"owners_added": [str(b.address)]}),
                (MS + "RemoveOwners", {"owners_removed": [str(e)]}),
            ],
        ),
        (
            inner_payload(
                MS + "add_owners_and_update_signatures_required",
                ("vector<address>", [e]),
                ("u64", 3),
            ),
            [str(b.address), str(c.address), str(a.address), str(d), str(e)],
            [
                (MS + "AddOwners", {"owners_added": [str(e)]}),
                (
                    MS + "UpdateSignaturesRequired",
                    {"old_num_signatures_required": "2", "new_num_signatures_required": "3"},
                ),
            ],
        ),
    ]
    for payload, expected_owners, expected_events in steps:
        created = call(
            http,
            a,
            "create_transaction",
            ("address", Address.parse(account)),
            ("vector<u8>", payload),
        )
        sequence = int(events(created)[0][1]["sequence_number"])
        call(http, c, "approve_transaction", ("address", Address.parse(account)), ("u64", sequence))
        done = wait(http, submit(http, execute(http, a, account, None))["hash"])
        assert done["success"], done["vm_status"]
        got = events(done)[:-1]
        assert got == [(k, {"multisig_account": account, **v}) for k, v in expected_events]
        assert view(http, "owners", account) == [expected_owners]
    assert view(http, "num_signatures_required", account) == ["3"]
    assert view(http, "is_owner", str(e), account) == [True]
    assert view(http, "is_owner", str(Account.generate().address), account) == [False]
    # the multisig account's own sequence number never moves
    assert ok(http.get(f"/accounts/{account}"))["sequence_number"] == "0"


def test_remove_bootstrapper(http: httpx.Client, owners: list[Account]) -> None:
    a, b, c = owners
    sequence = int(ok(http.get(f"/accounts/{a.address}"))["sequence_number"])
    address = expected_address(a.address, sequence)
    done = call(
        http,
        a,
        "create_with_owners_then_remove_bootstrapper",
        ("vector<address>", [b.address, c.address]),
        ("u64", 2),
        ("vector<0x1::string::String>", []),
        ("vector<vector<u8>>", []),
    )
    assert done["success"], done["vm_status"]
    assert events(done) == [
        (MS + "RemoveOwners", {"multisig_account": address, "owners_removed": [str(a.address)]})
    ]
    # b, c then a; a's removal leaves b, c
    assert view(http, "owners", address) == [[str(b.address), str(c.address)]]


def test_views_of_pending_calls(
    http: httpx.Client, owners: list[Account], account: str, msig_node: LocalNode
) -> None:
    a, b, _ = owners
    assert view(http, "available_transaction_queue_capacity", account) == ["20"]
    payloads = [inner_payload(MS + "update_signatures_required", ("u64", n)) for n in (1, 3)]
    for payload in payloads:
        call(
            http,
            b,
            "create_transaction",
            ("address", Address.parse(account)),
            ("vector<u8>", payload),
        )
    pending = view(http, "get_pending_transactions", account)[0]
    assert [t["payload"] for t in pending] == [{"vec": ["0x" + p.hex()]} for p in payloads]
    assert [t["creator"] for t in pending] == [str(b.address)] * 2
    assert view(http, "get_transaction", account, "2") == [pending[1]]
    assert view(http, "available_transaction_queue_capacity", account) == ["18"]
    assert view(http, "get_next_transaction_payload", account, "0x") == ["0x" + payloads[0].hex()]
    assert view(http, "metadata", account) == [
        {"data": [{"key": "Example", "value": "0x0353444b"}]}
    ]
    assert view(http, "vote", account, "1", str(a.address)) == [False, False]
    for function, args, name in [
        ("get_transaction", [account, "3"], "EINVALID_SEQUENCE_NUMBER(0x10011)"),
        ("get_transaction", [account, "0"], "EINVALID_SEQUENCE_NUMBER(0x10011)"),
        ("owners", [str(a.address)], "MISSING_DATA"),
    ]:
        body = {"function": MS + function, "type_arguments": [], "arguments": args}
        answer = http.post("/view", json=body)
        assert answer.status_code == 400
        assert name in answer.json()["message"]
    # a call of a sender that is no owner is refused at submission
    stranger = Account.generate()
    assert call(
        http,
        msig_node.dev_accounts[0],
        "0x1::aptos_account::transfer",
        ("address", stranger.address),
        ("u64", 100_000_000),
    )["success"]
    refused = http.post(
        "/transactions",
        content=execute(http, stranger, account, None).to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert refused.json()["vm_error_code"] == 32
    not_owner = call(
        http, stranger, "approve_transaction", ("address", Address.parse(account)), ("u64", 1)
    )
    assert "ENOT_OWNER(0x507d3)" in abort_of(not_owner)
    missing = call(http, a, "approve_transaction", ("address", Address.parse(account)), ("u64", 9))
    assert "ETRANSACTION_NOT_FOUND(0x607d6)" in abort_of(missing)
    empty = call(
        http, a, "create_transaction", ("address", Address.parse(account)), ("vector<u8>", b"")
    )
    assert "EPAYLOAD_CANNOT_BE_EMPTY(0x10004)" in abort_of(empty)


def test_a_multisig_payload_is_simulated(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, _ = owners
    inner = EntryFunction.build(MS + "update_signatures_required", [], [("u64", 1)])
    call(
        http,
        b,
        "create_transaction",
        ("address", Address.parse(account)),
        ("vector<u8>", b"\x00" + inner.to_bcs()),
    )
    raw = execute(http, a, account, None).raw
    zeros = SignedTransaction(raw, Ed25519Authenticator(a.private_key.public_key_bytes, bytes(64)))
    answer = ok(
        http.post(
            "/transactions/simulate",
            content=zeros.to_bcs(),
            headers={"Content-Type": SIGNED_TXN_BCS},
        )
    )
    (simulated,) = answer
    assert (simulated["success"], simulated["vm_status"]) == (True, "Executed successfully")
    assert [e["type"] for e in simulated["events"]] == [
        MS + "UpdateSignaturesRequired",
        MS + "Vote",
        MS + "TransactionExecutionSucceeded",
    ]
    assert view(http, "num_signatures_required", account) == ["2"]  # nothing committed


def test_a_multisig_payload_submitted_as_json(
    http: httpx.Client, owners: list[Account], account: str, msig_node: LocalNode
) -> None:
    """ledgerkit's JSON request of a multisig payload carrying its call, signed over the
    node's ``encode_submission`` bytes, runs as the BCS one does."""
    a, b, _ = owners
    to = Account.generate().address
    call(
        http,
        msig_node.dev_accounts[0],
        "0x1::aptos_account::transfer",
        ("address", Address.parse(account)),
        ("u64", 1_000_000),
    )
    inner = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", to), ("u64", 7)])
    call(
        http,
        b,
        "create_transaction",
        ("address", Address.parse(account)),
        ("vector<u8>", b"\x00" + inner.to_bcs()),
    )
    signed = execute(http, a, account, inner)
    body = submission_request(signed.raw, param_types=["address", "u64"])
    message = ok(http.post("/transactions/encode_submission", json=body))
    assert bytes.fromhex(message[2:]) == signed.raw.signing_message()
    auth = signed.authenticator
    assert isinstance(auth, Ed25519Authenticator)
    body["signature"] = {
        "type": "ed25519_signature",
        "public_key": "0x" + auth.public_key.hex(),
        "signature": "0x" + auth.signature.hex(),
    }
    pending = ok(http.post("/transactions", json=body), 202)
    assert pending["hash"] == "0x" + bytes(signed.hash()).hex()
    assert pending["payload"] == {
        "multisig_address": account,
        "transaction_payload": {
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [str(to), "7"],
            "type": "entry_function_payload",
        },
        "type": "multisig_payload",
    }
    done = wait(http, pending["hash"])
    assert done["success"], done["vm_status"]
    assert apt_balance(http, to) == 7
    kinds = [k for k, _ in events(done)]
    # b approved when it stored the call; a's approval is implied by running it
    assert kinds[-2:] == [MS + "Vote", MS + "TransactionExecutionSucceeded"]


def test_the_module_s_abi(http: httpx.Client) -> None:
    """Entry, view and visibility flags and parameters as ``multisig_account.move`` declares
    them (the owner and threshold changes are private entry functions)."""
    abi = ok(http.get("/accounts/0x1/module/multisig_account"))["abi"]
    functions = {f["name"]: f for f in abi["exposed_functions"]}
    shape = {
        name: (f["visibility"], f["is_entry"], f["is_view"], f["params"], f["return"])
        for name, f in functions.items()
    }
    strings, bytes_list = "vector<0x1::string::String>", "vector<vector<u8>>"
    assert shape["create_with_owners"] == (
        "public",
        True,
        False,
        ["&signer", "vector<address>", "u64", strings, bytes_list],
        [],
    )
    assert shape["add_owner"] == ("private", True, False, ["&signer", "address"], [])
    assert shape["update_signatures_required"] == ("private", True, False, ["&signer", "u64"], [])
    assert shape["vote"] == ("public", False, True, ["address", "u64", "address"], ["bool", "bool"])
    assert shape["get_transaction"][4] == ["0x1::multisig_account::MultisigTransaction"]
    structs = {s["name"]: s for s in abi["structs"]}
    assert [f["name"] for f in structs["MultisigTransaction"]["fields"]] == [
        "payload",
        "payload_hash",
        "votes",
        "creator",
        "creation_time_secs",
    ]
    assert structs["TransactionExecutionFailed"]["is_event"] is True
    assert structs["TransactionExecutionFailedEvent"]["is_event"] is False
    assert [f["name"] for f in structs["ExecutionError"]["fields"]] == [
        "abort_location",
        "error_type",
        "error_code",
    ]
