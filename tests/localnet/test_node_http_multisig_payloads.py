"""Multisig payloads on the node, over HTTP: calls stored by payload or by hash, votes,
execution as the multisig account, failing and rejected calls, simulation, JSON requests.

Expected values are written out from the framework's Move source and aptos-core's VM: a
multisig payload the prologue refuses is a ``vm_error`` with the ``StatusCode`` values 31
(ACCOUNT_NOT_MULTISIG), 32 (NOT_MULTISIG_OWNER), 34
(MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS), 35
(MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH); a call that aborts leaves a
``TransactionExecutionFailed`` event and the transaction succeeds.
"""

from __future__ import annotations

import hashlib
from typing import Final

import httpx
from multisig_helpers import (
    MS,
    call,
    events,
    execute,
    fund,
    inner_payload,
    multisig_fixtures,
    view,
)
from node_http_helpers import SIGNED_TXN_BCS, apt_balance, ok, submit, wait

from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    RawTransaction,
    SignedTransaction,
    TransactionPayloadV1,
)
from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode
from ledgerkit.tx import submission_request
from ledgerkit.types import Address

SEED: Final = 31


msig_node, http, owners, account = multisig_fixtures(SEED)


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
        "0x1::transaction_fee::FeeStatement",  # a simulation shows the VM's too
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


def test_a_call_that_cannot_run_is_resolved_as_failed(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    """No such module, too few arguments, a type argument without the ``key`` its
    parameter needs, and a coin type naming no struct: the VM errors LINKER_ERROR (1081),
    NUMBER_OF_ARGUMENTS_MISMATCH (1098), CONSTRAINT_NOT_SATISFIED (1075) and
    TYPE_RESOLUTION_FAILURE (2021) (numbers of aptos-core's ``StatusCode``), recorded as
    ``VMError`` without a location."""
    a, b, _ = owners
    where = ("address", Address.parse(account))
    to = ("address", Account.generate().address)
    unkeyed = [("address", "0xa"), to, ("u64", 1)]
    calls = [
        (EntryFunction.build("0x1::no_such_module::run", [], []), "1081"),
        (EntryFunction.build("0x1::aptos_account::transfer", [], [to]), "1098"),
        (EntryFunction.build("0x1::primary_fungible_store::transfer", ["u64"], unkeyed), "1075"),
        (EntryFunction.build("0x1::coin::transfer", ["0x1::coin::NoSuchCoin"], [to, ("u64", 1)]),
         "2021"),
    ]  # fmt: skip
    for inner, code in calls:
        created = call(
            http, b, "create_transaction", where, ("vector<u8>", b"\x00" + inner.to_bcs())
        )
        assert created["success"], created["vm_status"]
        done = wait(http, submit(http, execute(http, a, account, None))["hash"])
        assert (done["success"], done["vm_status"]) == (True, "Executed successfully")
        kinds = [k for k, _ in events(done)]
        assert kinds == [MS + "Vote", MS + "TransactionExecutionFailed"]
        assert events(done)[1][1]["execution_error"] == {
            "abort_location": "",
            "error_type": "VMError",
            "error_code": code,
        }


def test_an_orderless_multisig_payload(
    http: httpx.Client, owners: list[Account], account: str, msig_node: LocalNode
) -> None:
    """The versioned payload naming a multisig address and a nonce: it runs as the
    account, and the sender's sequence number does not move."""
    a, b, _ = owners
    to = Account.generate().address
    fund(http, msig_node.dev_accounts[0], Address.parse(account), 1_000_000)
    inner = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", to), ("u64", 3)])
    call(
        http,
        b,
        "create_transaction",
        ("address", Address.parse(account)),
        ("vector<u8>", b"\x00" + inner.to_bcs()),
    )
    before = ok(http.get(f"/accounts/{a.address}"))["sequence_number"]
    ledger = msig_node.ledger
    assert ledger is not None
    now = ledger.now_usec() // 1_000_000
    raw = RawTransaction(
        a.address,
        2**64 - 1,
        TransactionPayloadV1(inner, Address.parse(account), replay_protection_nonce=77),
        200_000,
        100,
        now + 60,
        int(ok(http.get("/"))["chain_id"]),
    )
    done = wait(http, submit(http, raw.sign(a.private_key))["hash"])
    assert done["success"], done["vm_status"]
    assert done["replay_protection_nonce"] == "77"
    assert done["payload"]["type"] == "multisig_payload"
    assert done["payload"]["multisig_address"] == account
    assert [k for k, _ in events(done)][-2:] == [MS + "Vote", MS + "TransactionExecutionSucceeded"]
    assert apt_balance(http, to) == 3
    assert ok(http.get(f"/accounts/{a.address}"))["sequence_number"] == before


def test_a_call_failing_as_it_runs_is_resolved_as_an_execution_failure(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    """Token v1's ``mint_script`` for a creator with no collection reads data that is not
    there: the runtime status MISSING_DATA (4008), recorded as ``MoveExecutionFailure`` at
    the called module; the call is resolved and the transaction succeeds."""
    a, b, _ = owners
    where = ("address", Address.parse(account))
    inner = EntryFunction.build(
        "0x3::token::mint_script",
        [],
        [
            ("address", Address.parse(account)),
            ("0x1::string::String", "no collection"),
            ("0x1::string::String", "no token"),
            ("u64", 1),
        ],
    )
    created = call(http, b, "create_transaction", where, ("vector<u8>", b"\x00" + inner.to_bcs()))
    assert created["success"], created["vm_status"]
    number = int(view(http, "last_resolved_sequence_number", account)[0]) + 1
    done = wait(http, submit(http, execute(http, a, account, None))["hash"])
    assert (done["success"], done["vm_status"]) == (True, "Executed successfully")
    assert [k for k, _ in events(done)] == [MS + "Vote", MS + "TransactionExecutionFailed"]
    assert events(done)[1][1]["execution_error"] == {
        "abort_location": "0000000000000000000000000000000000000000000000000000000000000003::token",
        "error_type": "MoveExecutionFailure",
        "error_code": "4008",
    }
    assert view(http, "last_resolved_sequence_number", account) == [str(number)]
