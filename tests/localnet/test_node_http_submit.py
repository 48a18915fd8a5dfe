"""The node over HTTP, writing: submission (BCS and JSON), what it refuses, failing
transactions, simulation with its estimate flags, and encode_submission."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from node_http_helpers import (
    BCS,
    SIGNED_TXN_BCS,
    Account,
    apt_balance,
    assert_error,
    assert_headers,
    expiration,
    for_simulation,
    is_hash,
    is_u64,
    ledger_version,
    ok,
    raw_transaction,
    sequence_number,
    submit,
    transfer,
    txn_hash,
    wait,
)

from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

ZERO_HASH = "0x" + "00" * 32
RECIPIENT = Address.parse("0x" + "c3" * 32)


@pytest.fixture(scope="module")
def sender(node: LocalNode) -> Account:
    account: Account = node.dev_accounts[1]
    return account


@pytest.fixture(scope="module")
def json_sender(node: LocalNode) -> Account:
    account: Account = node.dev_accounts[2]
    return account


@pytest.fixture(scope="module")
def simulator(node: LocalNode) -> Account:
    account: Account = node.dev_accounts[6]
    return account


def post_bcs(http: httpx.Client, path: str, signed: SignedTransaction, **headers: str) -> Any:
    return http.post(
        path, content=signed.to_bcs(), headers={"Content-Type": SIGNED_TXN_BCS, **headers}
    )


def local_transfer(
    sender: Address, sequence: int, amount: int, request: dict[str, Any], chain_id: int
) -> RawTransaction:
    """The raw transaction a ``request_json`` request describes, built locally."""
    args = [("address", RECIPIENT), ("u64", amount)]
    payload = EntryFunction.build("0x1::aptos_account::transfer", [], args)
    expires = int(request["expiration_timestamp_secs"])
    return RawTransaction(sender, sequence, payload, 200_000, 100, expires, chain_id)


def request_json(account: Account, sequence: int, amount: int = 77) -> dict[str, Any]:
    """A transfer as the JSON request of encode_submission, submit and simulate."""
    return {
        "sender": str(account.address),
        "sequence_number": str(sequence),
        "max_gas_amount": "200000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": str(expiration()),
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [RECIPIENT.standard, str(amount)],
        },
    }


# -- BCS submission --------------------------------------------------------------------------------


def test_bcs_submission_is_pending_then_committed(http: httpx.Client, sender: Account) -> None:
    address = sender.address
    amount = 250_000
    balance = apt_balance(http, address)
    received = apt_balance(http, RECIPIENT)
    sequence = sequence_number(http, address)
    signed = transfer(http, sender, RECIPIENT, amount).sign(sender.private_key)

    pending = submit(http, signed)
    assert "type" not in pending  # as public nodes answer: the tag is the union's, on reads
    assert pending["hash"] == txn_hash(signed)
    assert pending["sender"] == address.standard
    assert pending["sequence_number"] == str(sequence)
    for name in ("max_gas_amount", "gas_unit_price", "expiration_timestamp_secs"):
        assert is_u64(pending[name])
    assert pending["payload"]["function"] == "0x1::aptos_account::transfer"
    assert pending["payload"]["arguments"] == [RECIPIENT.standard, str(amount)]
    assert pending["signature"]["type"] == "ed25519_signature"
    assert "version" not in pending

    committed = wait(http, pending["hash"])
    assert committed["type"] == "user_transaction"
    assert committed["success"] is True
    assert committed["vm_status"] == "Executed successfully"
    assert committed["hash"] == pending["hash"]
    assert is_u64(committed["version"])
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert fee > 0
    assert apt_balance(http, address) == balance - amount - fee
    assert apt_balance(http, RECIPIENT) == received + amount
    assert sequence_number(http, address) == sequence + 1
    assert ok(http.get(f"/transactions/by_hash/{pending['hash']}")) == committed
    assert ok(http.get(f"/transactions/by_version/{committed['version']}")) == committed
    mine = ok(http.get(f"/accounts/{address}/transactions", params={"start": sequence}))
    assert mine[0] == committed


def test_reads_right_after_waiting_see_the_transaction(http: httpx.Client, sender: Account) -> None:
    """Once wait_by_hash says committed, the ledger the node answers from includes it."""
    sequence = sequence_number(http, sender.address)
    for i in range(12):
        signed = transfer(http, sender, RECIPIENT, 1, sequence=sequence + i)
        pending = submit(http, signed.sign(sender.private_key))
        for _ in range(30):
            response = http.get(f"/transactions/wait_by_hash/{pending['hash']}")
            committed = ok(response)
            if committed["type"] != "pending_transaction":
                break
        assert committed["type"] == "user_transaction"
        assert assert_headers(response)["X-NODE-LEDGER-VERSION"] >= int(committed["version"])
        assert sequence_number(http, sender.address) == sequence + i + 1


def test_resubmitting_a_used_sequence_number_is_too_old(
    http: httpx.Client, sender: Account
) -> None:
    signed = transfer(http, sender, RECIPIENT, 1).sign(sender.private_key)
    wait(http, submit(http, signed)["hash"])
    again = post_bcs(http, "/transactions", signed)
    assert_error(again, 400, "sequence_number_too_old")
    stale = transfer(http, sender, RECIPIENT, 2, sequence=signed.raw.sequence_number)
    response = post_bcs(http, "/transactions", stale.sign(sender.private_key))
    assert_error(response, 400, "sequence_number_too_old")


def test_corrupted_signature_is_refused(http: httpx.Client, sender: Account) -> None:
    sequence = sequence_number(http, sender.address)
    signed = transfer(http, sender, RECIPIENT, 5).sign(sender.private_key)
    auth = signed.authenticator
    assert isinstance(auth, Ed25519Authenticator)
    flipped = bytes([auth.signature[0] ^ 0x01]) + auth.signature[1:]
    forged = SignedTransaction(signed.raw, Ed25519Authenticator(auth.public_key, flipped))
    body = assert_error(post_bcs(http, "/transactions", forged), 400, "invalid_input", "vm_error")
    assert "SIGNATURE" in body["message"].upper()
    assert sequence_number(http, sender.address) == sequence


def test_another_keys_signature_is_refused(http: httpx.Client, node: LocalNode) -> None:
    owner, thief = node.dev_accounts[1], node.dev_accounts[7]
    raw = transfer(http, owner, RECIPIENT, 5)
    response = post_bcs(http, "/transactions", raw.sign(thief.private_key))
    assert_error(response, 400, "invalid_input", "vm_error")


def test_wrong_chain_id_is_refused(http: httpx.Client, sender: Account) -> None:
    chain_id = ok(http.get("/"))["chain_id"]
    raw = transfer(http, sender, RECIPIENT, 5, chain_id=(chain_id + 1) % 256)
    body = assert_error(post_bcs(http, "/transactions", raw.sign(sender.private_key)), 400)
    assert body["error_code"] in ("vm_error", "invalid_input")
    assert "CHAIN" in body["message"].upper()


def test_expired_transaction_is_refused(http: httpx.Client, sender: Account) -> None:
    raw = transfer(http, sender, RECIPIENT, 5)
    old = RawTransaction(
        raw.sender, raw.sequence_number, raw.payload, raw.max_gas_amount, raw.gas_unit_price,
        1, raw.chain_id,
    )  # fmt: skip
    response = post_bcs(http, "/transactions", old.sign(sender.private_key))
    assert_error(response, 400, "vm_error", "invalid_input")


def test_an_aborting_call_commits_as_a_failure(http: httpx.Client, sender: Account) -> None:
    sequence = sequence_number(http, sender.address)
    balance = apt_balance(http, sender.address)
    raw = raw_transaction(http, sender, "0x1::ledger_demo::fail_if", [("u64", 7)])
    committed = wait(http, submit(http, raw.sign(sender.private_key))["hash"])
    assert committed["type"] == "user_transaction"
    assert committed["success"] is False
    status = committed["vm_status"]
    assert "abort" in status.lower()
    assert "ledger_demo" in status
    assert "0x7" in status or " 7" in status
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert fee > 0, "a failed transaction still pays for its gas"
    assert apt_balance(http, sender.address) == balance - fee
    assert sequence_number(http, sender.address) == sequence + 1


def test_bcs_accept_on_submit_answers_202_with_an_empty_body(
    http: httpx.Client, sender: Account
) -> None:
    signed = transfer(http, sender, RECIPIENT, 3).sign(sender.private_key)
    response = post_bcs(http, "/transactions", signed, Accept=BCS)
    assert response.status_code == 202, response.text
    assert_headers(response)
    assert response.content == b""
    committed = wait(http, txn_hash(signed))  # the client computed the hash itself
    assert committed["success"] is True


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b"", SIGNED_TXN_BCS),
        (b"\x00\x01\x02", SIGNED_TXN_BCS),
        (b"{}", "application/json"),
        (b"[]", "application/json"),
        (b"{not json", "application/json"),
        (b"", "application/json"),
    ],
)
def test_malformed_submissions_are_400(
    http: httpx.Client, content: bytes, content_type: str
) -> None:
    response = http.post("/transactions", content=content, headers={"Content-Type": content_type})
    body = assert_error(response, 400, "invalid_input", "web_framework_error")
    assert len(body["message"]) > 10


def test_trailing_bytes_after_a_signed_transaction_are_400(
    http: httpx.Client, sender: Account
) -> None:
    signed = transfer(http, sender, RECIPIENT, 3).sign(sender.private_key)
    response = http.post(
        "/transactions",
        content=signed.to_bcs() + b"\x00",
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert_error(response, 400, "invalid_input")


# -- JSON submission ---------------------------------------------------------------------------


def test_json_submission_signed_over_encode_submission(
    http: httpx.Client, json_sender: Account
) -> None:
    address = json_sender.address
    sequence = sequence_number(http, address)
    balance = apt_balance(http, address)
    request = request_json(json_sender, sequence, amount=4321)
    message = bytes.fromhex(ok(http.post("/transactions/encode_submission", json=request))[2:])
    signature = json_sender.private_key.sign(message)
    public_key = json_sender.private_key.public_key_bytes
    body = {
        **request,
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + public_key.hex(),
            "signature": "0x" + signature.hex(),
        },
    }
    pending = ok(http.post("/transactions", json=body), 202)
    assert "type" not in pending
    assert ok(http.get(f"/transactions/by_hash/{pending['hash']}"))["type"] in (
        "pending_transaction",
        "user_transaction",
    )
    # The same transaction built locally has the same hash.
    chain_id = ok(http.get("/"))["chain_id"]
    local = local_transfer(address, sequence, 4321, request, chain_id)
    assert local.signing_message() == message
    signed = SignedTransaction(local, Ed25519Authenticator(public_key, signature))
    assert pending["hash"] == txn_hash(signed)
    committed = wait(http, pending["hash"])
    assert committed["success"] is True
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert apt_balance(http, address) == balance - 4321 - fee
    assert sequence_number(http, address) == sequence + 1


@pytest.mark.parametrize(
    "change",
    [
        {"signature": None},
        {"signature": {"type": "ed25519_signature"}},
        {"signature": {"type": "ed25519_signature", "public_key": "0x12", "signature": "0x34"}},
        {"signature": {"type": "no_such_signature"}},
        {"sequence_number": "-1"},
        {"sender": "0xzz"},
        {"payload": {"type": "script_payload"}},
        {"payload": {"type": "entry_function_payload", "function": "0x1::nope::nope",
                     "type_arguments": [], "arguments": []}},
        {"payload": {"type": "entry_function_payload", "function": "0x1::aptos_account::transfer",
                     "type_arguments": [], "arguments": ["0x1"]}},
    ],
)  # fmt: skip
def test_malformed_json_submissions_are_400(
    http: httpx.Client, json_sender: Account, change: dict[str, Any]
) -> None:
    body = {**request_json(json_sender, 0), **change}
    if "signature" not in change:
        body["signature"] = {
            "type": "ed25519_signature",
            "public_key": "0x" + json_sender.private_key.public_key_bytes.hex(),
            "signature": "0x" + "00" * 64,
        }
    assert_error(http.post("/transactions", json=body), 400, "invalid_input", "vm_error")


# -- simulation --------------------------------------------------------------------------------


def test_simulation_runs_without_committing(http: httpx.Client, simulator: Account) -> None:
    address = simulator.address
    before = ledger_version(http)
    sequence = sequence_number(http, address)
    balance = apt_balance(http, address)
    raw = transfer(http, simulator, RECIPIENT, 999)
    response = post_bcs(http, "/transactions/simulate", for_simulation(raw, simulator))
    results = ok(response)
    assert isinstance(results, list)
    assert len(results) == 1
    txn = results[0]
    assert "type" not in txn  # a bare UserTransaction, as public nodes answer a simulation
    assert txn["success"] is True
    assert int(txn["gas_used"]) > 0
    assert response.headers["X-NODE-GAS-USED"] == txn["gas_used"]
    for name in ("state_change_hash", "event_root_hash", "accumulator_root_hash"):
        assert txn[name] == ZERO_HASH, name
    assert txn.get("state_checkpoint_hash") in (None, ZERO_HASH)
    assert is_hash(txn["hash"])
    assert txn["events"], "a transfer emits events"
    for event in txn["events"]:
        assert {"guid", "sequence_number", "type", "data"} <= set(event)
    assert txn["changes"]
    assert txn["sender"] == address.standard
    assert txn["sequence_number"] == str(sequence)
    # Nothing happened.
    assert sequence_number(http, address) == sequence
    assert apt_balance(http, address) == balance
    assert ledger_version(http) == before


def test_simulation_predicts_the_committed_gas(http: httpx.Client, simulator: Account) -> None:
    raw = transfer(http, simulator, RECIPIENT, 1234)
    simulated = ok(post_bcs(http, "/transactions/simulate", for_simulation(raw, simulator)))[0]
    committed = wait(http, submit(http, raw.sign(simulator.private_key))["hash"])
    assert committed["gas_used"] == simulated["gas_used"]
    assert committed["success"] is simulated["success"] is True
    assert [e["type"] for e in committed["events"]] == [e["type"] for e in simulated["events"]]


def test_json_simulation_agrees_with_bcs(http: httpx.Client, simulator: Account) -> None:
    sequence = sequence_number(http, simulator.address)
    request = request_json(simulator, sequence, amount=55)
    body = {
        **request,
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + simulator.private_key.public_key_bytes.hex(),
            "signature": "0x" + "00" * 64,
        },
    }
    by_json = ok(http.post("/transactions/simulate", json=body))[0]
    chain_id = ok(http.get("/"))["chain_id"]
    raw = local_transfer(simulator.address, sequence, 55, request, chain_id)
    by_bcs = ok(post_bcs(http, "/transactions/simulate", for_simulation(raw, simulator)))[0]
    assert by_json["hash"] == by_bcs["hash"]
    assert by_json["gas_used"] == by_bcs["gas_used"]
    assert by_json["changes"] == by_bcs["changes"]


def test_simulation_with_a_valid_signature_is_refused(
    http: httpx.Client, simulator: Account
) -> None:
    signed = transfer(http, simulator, RECIPIENT, 1).sign(simulator.private_key)
    body = assert_error(post_bcs(http, "/transactions/simulate", signed), 400, "invalid_input")
    assert "signature" in body["message"].lower()


def test_simulation_of_an_abort_reports_it(http: httpx.Client, simulator: Account) -> None:
    raw = raw_transaction(http, simulator, "0x1::ledger_demo::fail_if", [("u64", 9)])
    txn = ok(post_bcs(http, "/transactions/simulate", for_simulation(raw, simulator)))[0]
    assert txn["success"] is False
    assert "abort" in txn["vm_status"].lower()


def simulate_with(http: httpx.Client, signed: SignedTransaction, **flags: str) -> dict[str, Any]:
    response = http.post(
        "/transactions/simulate",
        params=flags,
        content=signed.to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    result: dict[str, Any] = ok(response)[0]
    return result


def test_estimate_flags_change_what_they_should(
    http: httpx.Client, node: LocalNode, simulator: Account
) -> None:
    estimate = ok(http.get("/estimate_gas_price"))
    # A price no estimate gives, so that each flag's effect shows.
    price = estimate["prioritized_gas_estimate"] + 7
    # To an account genesis made, whatever ran before: creating one costs far more than 5,000.
    existing = node.dev_accounts[0].address
    raw = transfer(http, simulator, existing, 10, gas_price=price, max_gas=5_000)
    signed = for_simulation(raw, simulator)

    plain = simulate_with(http, signed)
    assert plain["gas_unit_price"] == str(price)
    assert plain["max_gas_amount"] == "5000"

    regular = simulate_with(http, signed, estimate_gas_unit_price="true")
    assert regular["gas_unit_price"] == str(estimate["gas_estimate"])
    assert regular["max_gas_amount"] == "5000"

    prioritized = simulate_with(http, signed, estimate_prioritized_gas_unit_price="true")
    assert prioritized["gas_unit_price"] == str(estimate["prioritized_gas_estimate"])

    both = simulate_with(
        http, signed, estimate_gas_unit_price="true", estimate_prioritized_gas_unit_price="true"
    )
    assert both["gas_unit_price"] == str(estimate["prioritized_gas_estimate"])

    max_gas = simulate_with(http, signed, estimate_max_gas_amount="true")
    assert max_gas["gas_unit_price"] == str(price)
    assert int(max_gas["max_gas_amount"]) > 5000
    balance = apt_balance(http, simulator.address)
    assert int(max_gas["max_gas_amount"]) <= max(balance // price, int(max_gas["gas_used"]))
    for result in (plain, regular, prioritized, both, max_gas):
        assert result["success"] is True
        assert result["gas_used"] == plain["gas_used"]


def test_estimate_max_gas_for_an_unknown_sender_is_400(http: httpx.Client) -> None:
    nobody = Address.parse("0x" + "ee" * 32)
    request = {"expiration_timestamp_secs": str(expiration())}
    raw = local_transfer(nobody, 0, 1, request, ok(http.get("/"))["chain_id"])
    stranger = SignedTransaction(raw, Ed25519Authenticator(bytes(32), bytes(64)))
    response = http.post(
        "/transactions/simulate",
        params={"estimate_max_gas_amount": "true"},
        content=stranger.to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert_error(response, 400, "invalid_input", "account_not_found", "vm_error")


@pytest.mark.parametrize("value", ["maybe", "2", "yes please"])
def test_estimate_flags_must_be_booleans(
    http: httpx.Client, simulator: Account, value: str
) -> None:
    signed = for_simulation(transfer(http, simulator, RECIPIENT, 1), simulator)
    response = http.post(
        "/transactions/simulate",
        params={"estimate_gas_unit_price": value},
        content=signed.to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert_error(response, 400, "invalid_input", "web_framework_error")


@pytest.fixture(scope="module")
def small_body_http() -> Iterator[httpx.Client]:
    with (
        LocalNode(seed=5, blocks=2, max_body_bytes=2048) as small,
        httpx.Client(base_url=small.url) as client,
    ):
        yield client


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/transactions/simulate", SIGNED_TXN_BCS),
        ("/transactions/simulate", "application/json"),
        ("/transactions", SIGNED_TXN_BCS),
        ("/transactions/encode_submission", "application/json"),
        ("/view", "application/json"),
        ("/tables/0x1/item", "application/json"),
    ],
)
def test_a_body_over_the_limit_is_413(
    small_body_http: httpx.Client, path: str, content_type: str
) -> None:
    response = small_body_http.post(
        path, content=b" " * 4096, headers={"Content-Type": content_type}
    )
    body = assert_error(response, 413)
    assert "2048" in body["message"]


def test_a_body_just_under_the_limit_is_read(small_body_http: httpx.Client) -> None:
    padded = b'{"function": "0x1::chain_id::get", "type_arguments": [], "arguments": []}'
    padded = padded + b" " * (2048 - len(padded))
    response = small_body_http.post(
        "/view", content=padded, headers={"Content-Type": "application/json"}
    )
    assert ok(response) == [ok(small_body_http.get("/"))["chain_id"]]


def test_default_limit_refuses_more_than_8_mib(http: httpx.Client) -> None:
    response = http.post(
        "/transactions/simulate",
        content=b"\x00" * (8 * 1024 * 1024 + 1),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert_error(response, 413)


# -- encode_submission ------------------------------------------------------------------------


def test_encode_submission_is_the_signing_message(http: httpx.Client, sender: Account) -> None:
    sequence = sequence_number(http, sender.address)
    request = request_json(sender, sequence, amount=808)
    encoded = ok(http.post("/transactions/encode_submission", json=request))
    assert isinstance(encoded, str)
    assert encoded.startswith("0x")
    raw = local_transfer(sender.address, sequence, 808, request, ok(http.get("/"))["chain_id"])
    assert encoded == "0x" + raw.signing_message().hex()


def test_encode_submission_with_secondary_signers_is_multi_agent(
    http: httpx.Client, sender: Account
) -> None:
    request = request_json(sender, 3, amount=9)
    secondary = [Address.parse("0x2"), Address.parse("0x" + "44" * 32)]
    encoded = ok(
        http.post(
            "/transactions/encode_submission",
            json={**request, "secondary_signers": [a.standard for a in secondary]},
        )
    )
    raw = local_transfer(sender.address, 3, 9, request, ok(http.get("/"))["chain_id"])
    assert encoded == "0x" + MultiAgentRawTransaction(raw, tuple(secondary)).signing_message().hex()
    assert encoded != "0x" + raw.signing_message().hex()


def test_encode_submission_does_not_answer_in_bcs(http: httpx.Client, sender: Account) -> None:
    response = http.post(
        "/transactions/encode_submission",
        json=request_json(sender, 0),
        headers={"Accept": BCS},
    )
    assert_error(response, 400, "bcs_not_supported")


@pytest.mark.parametrize(
    "missing", ["sender", "sequence_number", "payload", "expiration_timestamp_secs"]
)
def test_encode_submission_needs_every_field(
    http: httpx.Client, sender: Account, missing: str
) -> None:
    request = request_json(sender, 0)
    del request[missing]
    body = assert_error(
        http.post("/transactions/encode_submission", json=request), 400, "invalid_input"
    )
    assert missing in body["message"]


def test_encode_submission_refuses_a_bad_secondary_signer(
    http: httpx.Client, sender: Account
) -> None:
    request = {**request_json(sender, 0), "secondary_signers": ["0xzz"]}
    response = http.post("/transactions/encode_submission", json=request)
    assert_error(response, 400, "invalid_input")
