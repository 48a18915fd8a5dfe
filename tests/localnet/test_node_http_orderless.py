"""Orderless transactions and fee-payer gaps on the node, over HTTP.

An orderless transaction carries a nonce in its versioned payload and the sequence number
``2^64 - 1``; the node runs it once, within 100 s of the ledger's time, without touching
the sender's sequence number. Expected codes are Aptos ``StatusCode`` values:
``NONCE_ALREADY_USED`` = 42, ``TRANSACTION_EXPIRATION_TOO_FAR_IN_FUTURE`` = 44.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import (
    SIGNED_TXN_BCS,
    Account,
    apt_balance,
    assert_error,
    ok,
    sequence_number,
    submit,
    wait,
)

from ledgerkit.bcs import (
    EntryFunction,
    FeePayerRawTransaction,
    RawTransaction,
    SignedTransaction,
    TransactionPayloadV1,
)
from ledgerkit.keys import Account as KeyAccount
from ledgerkit.localnet import LocalNode, NodeConfig
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.tx import signed_with_zeros
from ledgerkit.types import Address

U64_MAX: Final = 2**64 - 1
TO: Final = Address.parse("0x" + "0d" * 32)


_NODE: list[LocalNode] = []


@pytest.fixture(autouse=True)
def _chain_clock(node: LocalNode) -> None:
    _NODE[:] = [node]


def ledger_secs(http: httpx.Client) -> int:
    """The chain's time now, what expirations are checked against. It runs ahead of the
    last block's timestamp (``GET /``) while the node is idle: counting from that instead
    made transactions expire at once after an idle spell of the session's node."""
    ledger = _NODE[0].ledger
    assert ledger is not None
    return ledger.now_usec() // 1_000_000


def orderless(
    http: httpx.Client, account: Account, nonce: int, *, expires_in: int = 60, amount: int = 5
) -> RawTransaction:
    call = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", TO), ("u64", amount)]
    )
    chain_id = int(ok(http.get("/"))["chain_id"])
    return RawTransaction(
        account.address,
        U64_MAX,
        TransactionPayloadV1(call, replay_protection_nonce=nonce),
        200_000,
        100,
        ledger_secs(http) + expires_in,
        chain_id,
    )


def post(http: httpx.Client, signed: SignedTransaction) -> httpx.Response:
    headers = {"Content-Type": SIGNED_TXN_BCS}
    return http.post("/transactions", content=signed.to_bcs(), headers=headers)


@pytest.fixture
def sender(node: LocalNode) -> Account:
    account: Account = node.dev_accounts[4]
    return account


def test_an_orderless_transaction_commits_once_and_leaves_the_sequence_number(
    http: httpx.Client, sender: Account
) -> None:
    before = sequence_number(http, sender.address)
    raw = orderless(http, sender, 0xC0FFEE)
    pending = submit(http, sender.sign(raw))
    assert pending["sequence_number"] == str(U64_MAX)
    assert pending["replay_protection_nonce"] == str(0xC0FFEE)
    committed = wait(http, pending["hash"])
    assert committed["success"], committed["vm_status"]
    assert committed["sequence_number"] == str(U64_MAX)
    assert committed["replay_protection_nonce"] == str(0xC0FFEE)
    assert committed["payload"]["function"] == "0x1::aptos_account::transfer"
    assert sequence_number(http, sender.address) == before
    by_version = ok(http.get(f"/transactions/by_version/{committed['version']}"))
    assert by_version["hash"] == pending["hash"]
    # The same nonce again, in another transaction, is refused.
    again = orderless(http, sender, 0xC0FFEE, amount=6)
    refused = http.post(
        "/transactions",
        content=sender.sign(again).to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    record = assert_error(refused, 400, "vm_error")
    assert record["vm_error_code"] == 42


def test_the_identical_orderless_transaction_is_the_same_entry(
    http: httpx.Client, sender: Account
) -> None:
    signed = sender.sign(orderless(http, sender, 77))
    first, second = submit(http, signed), submit(http, signed)
    assert first["hash"] == second["hash"] == "0x" + bytes(signed.hash()).hex()
    assert wait(http, first["hash"])["success"]


@pytest.mark.parametrize(
    ("expires_in", "code"), [(101 + 30, 44), (-1, 6)], ids=["too-far-ahead", "expired"]
)
def test_an_orderless_transaction_outside_its_window_is_refused(
    http: httpx.Client, node: LocalNode, sender: Account, expires_in: int, code: int
) -> None:
    raw = orderless(http, sender, 900 + code, expires_in=expires_in)
    response = post(http, sender.sign(raw))
    assert assert_error(response, 400, "vm_error")["vm_error_code"] == code


def test_an_orderless_transaction_submitted_as_json(http: httpx.Client, sender: Account) -> None:
    raw = orderless(http, sender, 4242)
    request = {
        "sender": str(sender.address),
        "sequence_number": str(U64_MAX),
        "max_gas_amount": str(raw.max_gas_amount),
        "gas_unit_price": str(raw.gas_unit_price),
        "expiration_timestamp_secs": str(raw.expiration_timestamp_secs),
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [TO.standard, "5"],
        },
        "replay_protection_nonce": "4242",
    }
    encoded = ok(http.post("/transactions/encode_submission", json=request))
    assert bytes.fromhex(encoded[2:]) == raw.signing_message()
    signature = sender.private_key.sign(raw.signing_message())
    request["signature"] = {
        "type": "ed25519_signature",
        "public_key": "0x" + sender.private_key.public_key_bytes.hex(),
        "signature": "0x" + signature.hex(),
    }
    pending = ok(http.post("/transactions", json=request), 202)
    assert pending["hash"] == "0x" + bytes(sender.sign(raw).hash()).hex()
    assert wait(http, pending["hash"])["replay_protection_nonce"] == "4242"


def test_ordered_and_orderless_transactions_of_one_sender_all_commit(
    http: httpx.Client, node: LocalNode
) -> None:
    sender: Account = node.dev_accounts[5]
    start = sequence_number(http, sender.address)
    hashes = []
    for i in range(4):
        ordered = orderless(http, sender, 0)  # only for its gas and chain fields
        call = ordered.payload.executable  # type: ignore[union-attr]
        numbered = RawTransaction(
            sender.address, start + i, call, 200_000, 100, ledger_secs(http) + 600, ordered.chain_id
        )
        hashes.append(submit(http, sender.sign(numbered))["hash"])
        hashes.append(submit(http, sender.sign(orderless(http, sender, 5_000 + i)))["hash"])
    committed = [wait(http, h) for h in hashes]
    assert all(txn["success"] for txn in committed)
    assert sequence_number(http, sender.address) == start + 4
    # An account's transaction listing holds its sequence-numbered ones only.
    listed = ok(http.get(f"/accounts/{sender.address}/transactions", params={"start": start}))
    assert [t["hash"] for t in listed] == hashes[0::2]


def simulate(http: httpx.Client, signed: SignedTransaction) -> dict[str, Any]:
    answer: list[dict[str, Any]] = ok(
        http.post(
            "/transactions/simulate",
            content=signed.to_bcs(),
            headers={"Content-Type": SIGNED_TXN_BCS},
        )
    )
    return answer[0]


def test_an_orderless_transaction_is_simulated(http: httpx.Client, sender: Account) -> None:
    raw = orderless(http, sender, 31337)
    simulated = simulate(http, signed_with_zeros(raw, sender.public_key))
    assert simulated["success"], simulated["vm_status"]
    assert simulated["replay_protection_nonce"] == "31337"
    assert simulated["sequence_number"] == str(U64_MAX)


def test_a_pending_orderless_transaction_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    config = NodeConfig(seed=11, blocks=2)
    ledger = Ledger.open(path, config)
    account = ledger.dev_accounts[0]
    call = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", TO), ("u64", 3)])
    payload = TransactionPayloadV1(call, replay_protection_nonce=123)
    expiration = ledger._now_secs() + 90
    raw = RawTransaction(account.address, U64_MAX, payload, 200_000, 100, expiration, 4)
    signed = account.sign(raw)
    ledger.submit(signed)
    ledger.close()  # no block was made
    reopened = Ledger.open(path, config)
    try:
        held = reopened.transaction_by_hash(bytes(signed.hash()))
        assert held["type"] == "pending_transaction"
        assert held["replay_protection_nonce"] == "123"
        reopened.produce_block(reopened.meta().ledger_timestamp_usec + 500_000)
        committed = reopened.transaction_by_hash(bytes(signed.hash()))
        assert committed["type"] == "user_transaction"
        assert committed["success"], committed["vm_status"]
    finally:
        reopened.close()


def test_a_fee_payer_pays_for_a_sender_without_an_account(
    http: httpx.Client, node: LocalNode
) -> None:
    payer: Account = node.dev_accounts[6]
    fresh = KeyAccount.generate()
    assert http.get(f"/accounts/{fresh.address}").status_code == 404
    call = EntryFunction.build("0x1::ledger_demo::fail_if", [], [("u64", 0)])
    chain_id = int(ok(http.get("/"))["chain_id"])
    raw = RawTransaction(fresh.address, 0, call, 2_000, 100, ledger_secs(http) + 600, chain_id)
    message = FeePayerRawTransaction(raw, (), payer.address)
    before = apt_balance(http, payer.address)
    signed = message.authenticate(fresh.sign(message), (), payer.sign(message))  # type: ignore[arg-type]
    committed = wait(http, submit(http, signed)["hash"])
    assert committed["success"], committed["vm_status"]
    assert sequence_number(http, fresh.address) == 1
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert apt_balance(http, payer.address) == before - fee


def test_a_fee_payer_not_known_yet_is_simulated_without_a_fee(
    http: httpx.Client, node: LocalNode
) -> None:
    sender: Account = node.dev_accounts[7]
    call = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", TO), ("u64", 9)])
    chain_id = int(ok(http.get("/"))["chain_id"])
    raw = RawTransaction(
        sender.address,
        sequence_number(http, sender.address),
        call,
        20_000,  # enough to create TO, whether or not a test before this one made it
        100,
        ledger_secs(http) + 600,
        chain_id,
    )
    message = FeePayerRawTransaction(raw, (), Address.parse("0x0"))
    before = apt_balance(http, sender.address)
    simulated = simulate(http, signed_with_zeros(message, sender.public_key, fee_payer=None))
    assert simulated["success"], simulated["vm_status"]
    assert apt_balance(http, sender.address) == before  # a simulation changes nothing
    # Nobody is charged: the sender's balance moves by the amount alone.
    deltas = [
        c
        for c in simulated["changes"]
        if c.get("data", {}).get("type", "").endswith("FungibleStore")
    ]
    assert deltas, simulated["changes"]


def test_encode_submission_of_an_orderless_multisig_call(
    http: httpx.Client, sender: Account
) -> None:
    """A multisig payload with a nonce is the versioned payload naming both."""
    multisig = Address.parse("0x" + "ab" * 32)
    inner = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", TO), ("u64", 5)])
    request = {
        "sender": str(sender.address),
        "sequence_number": str(U64_MAX),
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1800000000",
        "payload": {
            "type": "multisig_payload",
            "multisig_address": multisig.standard,
            "transaction_payload": {
                "type": "entry_function_payload",
                "function": "0x1::aptos_account::transfer",
                "type_arguments": [],
                "arguments": [TO.standard, "5"],
            },
        },
        "replay_protection_nonce": "9",
    }
    chain_id = int(ok(http.get("/"))["chain_id"])
    payload = TransactionPayloadV1(inner, multisig, replay_protection_nonce=9)
    raw = RawTransaction(sender.address, U64_MAX, payload, 2000, 100, 1_800_000_000, chain_id)
    encoded = ok(http.post("/transactions/encode_submission", json=request))
    assert bytes.fromhex(encoded[2:]) == raw.signing_message()


def _script_request(type_arguments: list[str]) -> dict[str, Any]:
    return {
        "sender": "0x1",
        "sequence_number": "1",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1",
        "payload": {
            "type": "script_payload",
            "code": {"bytecode": "0xa11ceb0b", "abi": {"params": []}},
            "type_arguments": type_arguments,
            "arguments": [],
        },
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + "00" * 32,
            "signature": "0x" + "00" * 64,
        },
    }


def test_a_signed_integer_type_argument_is_encoded(http: httpx.Client) -> None:
    """Move 2's signed integers are TypeTag variants 12 ... 17 (after the function type, 11);
    schemathesis found the node refusing them although its document allows them."""
    encoded = bytes.fromhex(
        ok(http.post("/transactions/encode_submission", json=_script_request(["i32"])))[2:]
    )
    # ... script bytes (len 4 + a11ceb0b), one type argument: i32 (0x0e), no arguments ...
    assert bytes.fromhex("0004a11ceb0b010e00") in encoded


@pytest.mark.parametrize("endpoint", ["/transactions/encode_submission", "/transactions/simulate"])
def test_a_type_argument_bcs_cannot_write_is_refused_not_a_server_error(
    http: httpx.Client, endpoint: str
) -> None:
    """A generic parameter is a Move type but no TypeTag: a request naming one as a type
    argument is refused as bad input, never answered with a server error."""
    response = http.post(endpoint, json=_script_request(["T0"]))
    assert_error(response, 400, "invalid_input")
