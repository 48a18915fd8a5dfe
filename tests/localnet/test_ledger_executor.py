"""Submitting and executing transactions: validation codes, gas, fees, aborts, the mempool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import (
    AnySignature,
    Ed25519Authenticator,
    EntryFunction,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
)
from ledgerkit.keys import Ed25519PrivateKey, Secp256k1PrivateKey
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.chain import DevAccount
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address, StructTag

APT = StructTag.parse("0x1::aptos_coin::AptosCoin")


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=21, blocks=5))
    yield opened
    opened.close()


def now_secs(ledger: Ledger) -> int:
    return ledger.meta().ledger_timestamp_usec // 1_000_000


def sign(
    ledger: Ledger,
    account: DevAccount,
    function: str,
    args: list[tuple[str, Any]],
    *,
    type_args: tuple[str, ...] = (),
    sequence: int | None = None,
    price: int = 100,
    max_gas: int = 100_000,  # the Python SDK's default
    chain_id: int | None = None,
    expiration: int | None = None,
    key: Ed25519PrivateKey | None = None,
) -> SignedTransaction:
    if sequence is None:
        sequence = int(ledger.reads.account(account.address, None)["sequence_number"])
    raw = RawTransaction(
        account.address,
        sequence,
        EntryFunction.build(function, type_args, args),
        max_gas,
        price,
        expiration if expiration is not None else now_secs(ledger) + 600,
        ledger.config.chain_id if chain_id is None else chain_id,
    )
    return (key or account.private_key).sign_transaction(raw)


def transfer(
    ledger: Ledger, account: DevAccount, to: Address, amount: int, **kw: Any
) -> SignedTransaction:
    args = [("address", to.long), ("u64", amount)]
    return sign(ledger, account, "0x1::aptos_account::transfer", args, **kw)


def commit(ledger: Ledger, *signed: SignedTransaction) -> list[dict[str, Any]]:
    for txn in signed:
        ledger.submit(txn)
    assert ledger.produce_block(ledger.meta().ledger_timestamp_usec + 500_000) is not None
    return [ledger.transaction_by_hash(bytes(txn.hash())) for txn in signed]


def rejected(ledger: Ledger, signed: SignedTransaction) -> NodeError:
    with pytest.raises(NodeError) as info:
        ledger.submit(signed)
    return info.value


def test_transfer_moves_the_amount_and_burns_the_fee(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    before_a = ledger.reads.balance(alice.address, APT, None)
    before_b = ledger.reads.balance(bob.address, APT, None)
    pending = ledger.submit(transfer(ledger, alice, bob.address, 12_345, price=150))
    assert "type" not in pending  # a submission's answer is an untagged PendingTransaction
    assert ledger.transaction_by_hash(bytes.fromhex(pending["hash"][2:]))["type"] == (
        "pending_transaction"
    )
    ledger.produce_block(ledger.meta().ledger_timestamp_usec + 1)
    txn = ledger.transaction_by_hash(bytes.fromhex(pending["hash"][2:]))
    assert txn["type"] == "user_transaction"
    assert txn["success"], txn["vm_status"]
    fee = int(txn["gas_used"]) * 150
    assert int(txn["gas_used"]) > 0
    assert ledger.reads.balance(alice.address, APT, None) == before_a - 12_345 - fee
    assert ledger.reads.balance(bob.address, APT, None) == before_b + 12_345
    assert ledger.reads.account(alice.address, None)["sequence_number"] == "1"
    types = [e["type"] for e in txn["events"]]
    assert types == [
        "0x1::fungible_asset::Withdraw",
        "0x1::fungible_asset::Deposit",
        "0x1::transaction_fee::FeeStatement",  # the VM's, always last
    ]
    assert all(
        e["guid"] == {"creation_number": "0", "account_address": "0x0"} for e in txn["events"]
    )
    assert txn["payload"]["arguments"] == [bob.address.long, "12345"]
    assert txn["signature"]["type"] == "ed25519_signature"


def test_transfer_to_a_new_address_creates_the_account(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    fresh = Ed25519PrivateKey.from_seed(b"fresh").address()
    with pytest.raises(NodeError) as info:
        ledger.reads.account(fresh, None)
    assert info.value.code is ErrorCode.ACCOUNT_NOT_FOUND
    (txn,) = commit(ledger, transfer(ledger, alice, fresh, 5_000))
    assert txn["success"]
    assert ledger.reads.account(fresh, None) == {
        "sequence_number": "0",
        "authentication_key": fresh.long,
    }
    assert ledger.reads.balance(fresh, APT, None) == 5_000
    changed = {c["data"]["type"] for c in txn["changes"] if c["type"] == "write_resource"}
    assert {"0x1::account::Account", "0x1::object::ObjectCore"} <= changed
    # Two new state slots (the Account, the store's object group) at 400,000 octas each,
    # and their bytes: over 8,000 gas units at 100 octas.
    assert int(txn["gas_used"]) > 8_000


def test_an_abort_is_kept_charged_and_has_no_other_effect(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    before = ledger.reads.balance(alice.address, APT, None)
    (txn,) = commit(ledger, sign(ledger, alice, "0x1::ledger_demo::fail_if", [("u64", 42)]))
    assert txn["success"] is False
    assert txn["vm_status"] == "Move abort in 0x1::ledger_demo: 0x2a"
    # Only the VM's fee statement survives the abort.
    assert [e["type"] for e in txn["events"]] == ["0x1::transaction_fee::FeeStatement"]
    assert ledger.reads.account(alice.address, None)["sequence_number"] == "1"
    assert ledger.reads.balance(alice.address, APT, None) == before - int(txn["gas_used"]) * 100
    touched = {c["data"]["type"] for c in txn["changes"]}
    # The fee's writes: the payer's store and APT's supply are members of their objects'
    # groups, listed whole (the store's ObjectCore; 0xa's paired coin type, metadata and core).
    assert touched == {
        "0x1::account::Account",
        "0x1::fungible_asset::FungibleStore",
        "0x1::object::ObjectCore",
        "0x1::transaction_fee::BurnedFees",
        "0x1::coin::PairedCoinType",
        "0x1::fungible_asset::ConcurrentSupply",
        "0x1::fungible_asset::Metadata",
    }


def test_named_aborts_explain_themselves(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    too_much = transfer(ledger, alice, ledger.dev_accounts[1].address, 10**18)
    (txn,) = commit(ledger, too_much)
    assert txn["vm_status"] == (
        "Move abort in 0x1::fungible_asset: EINSUFFICIENT_BALANCE(0x10004): "
        "The store's balance is too small for the amount asked"
    )


def test_out_of_gas_charges_the_maximum(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    fresh = Ed25519PrivateKey.from_seed(b"costly").address()
    (txn,) = commit(ledger, transfer(ledger, alice, fresh, 1, max_gas=30))
    assert txn["vm_status"] == "Out of gas"
    assert txn["gas_used"] == "30"
    with pytest.raises(NodeError):
        ledger.reads.account(fresh, None)


def test_missing_functions_fail_with_vm_statuses(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    no_function = sign(ledger, alice, "0x1::ledger_demo::missing", [])
    no_module = sign(ledger, alice, "0x1::nowhere::missing", [], sequence=1)
    not_entry = sign(ledger, alice, "0x1::account::exists_at", [("address", "0x1")], sequence=2)
    statuses = [t["vm_status"] for t in commit(ledger, no_function, no_module, not_entry)]
    assert statuses == [
        "FUNCTION_RESOLUTION_FAILURE",
        "LINKER_ERROR",
        "EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION",
    ]
    assert ledger.reads.account(alice.address, None)["sequence_number"] == "3"


def test_argument_and_signer_count_failures_are_spelled_as_on_a_public_node(
    ledger: Ledger,
) -> None:
    alice, bob = ledger.dev_accounts[:2]
    # Two signers for a function that takes one: the node's StatusCode 1101.
    raw = transfer(ledger, alice, bob.address, 1).raw
    message = MultiAgentRawTransaction(raw, (bob.address,))
    two_signers = message.authenticate(
        alice.private_key.authenticator(message.signing_message()),
        (bob.private_key.authenticator(message.signing_message()),),
    )
    # One argument short: StatusCode 1098.
    short = sign(ledger, alice, "0x1::aptos_account::transfer", [("address", "0xb0b")], sequence=1)
    statuses = [t["vm_status"] for t in commit(ledger, two_signers, short)]
    assert statuses == ["NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH", "NUMBER_OF_ARGUMENTS_MISMATCH"]


def test_a_function_without_signer_parameters_runs_for_any_signer(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    fresh = Ed25519PrivateKey.from_seed(b"created by a call").address()
    created = sign(ledger, alice, "0x1::aptos_account::create_account", [("address", fresh.long)])
    (txn,) = commit(ledger, created)
    assert txn["success"], txn["vm_status"]
    assert ledger.reads.account(fresh, None)["sequence_number"] == "0"


@pytest.mark.parametrize(
    ("change", "code", "vm_error_code"),
    [
        ({"chain_id": 99}, ErrorCode.VM_ERROR, 23),
        ({"expiration": 1}, ErrorCode.VM_ERROR, 6),
        ({"price": 99}, ErrorCode.VM_ERROR, 15),
        ({"max_gas": 3}, ErrorCode.VM_ERROR, 14),
        ({"max_gas": 20_000_001}, ErrorCode.VM_ERROR, 13),
        ({"price": 10**9, "max_gas": 2_000_000}, ErrorCode.VM_ERROR, 5),
        ({"key": Ed25519PrivateKey.from_seed(b"mallory")}, ErrorCode.VM_ERROR, 2),
    ],
)
def test_the_prologue_refuses_with_aptos_status_codes(
    ledger: Ledger, change: dict[str, Any], code: ErrorCode, vm_error_code: int
) -> None:
    alice = ledger.dev_accounts[0]
    error = rejected(ledger, transfer(ledger, alice, ledger.dev_accounts[1].address, 1, **change))
    assert (error.code, error.vm_error_code, error.status) == (code, vm_error_code, 400)
    assert "Validation Code" in error.message


def test_a_bad_signature_is_refused(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    signed = transfer(ledger, alice, ledger.dev_accounts[1].address, 1)
    forged = SignedTransaction(
        signed.raw,
        Ed25519Authenticator(alice.private_key.public_key_bytes, alice.private_key.sign(b"x")),
    )
    error = rejected(ledger, forged)
    assert (error.code, error.vm_error_code) == (ErrorCode.VM_ERROR, 1)


def test_an_unknown_sender_is_refused(ledger: Ledger) -> None:
    nobody = DevAccount.from_key(Ed25519PrivateKey.from_seed(b"nobody"))
    error = rejected(
        ledger, transfer(ledger, nobody, ledger.dev_accounts[1].address, 1, sequence=0)
    )
    assert (error.code, error.vm_error_code) == (ErrorCode.VM_ERROR, 7)


def test_used_sequence_numbers_are_too_old(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    commit(ledger, transfer(ledger, alice, bob.address, 1))
    error = rejected(ledger, transfer(ledger, alice, bob.address, 2, sequence=0))
    assert error.code is ErrorCode.SEQUENCE_NUMBER_TOO_OLD
    assert error.vm_error_code == 3


def test_future_sequence_numbers_wait_for_the_gap(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    later = transfer(ledger, alice, bob.address, 2, sequence=1)
    ledger.submit(later)
    assert ledger.produce_block(ledger.meta().ledger_timestamp_usec + 1) is None
    first = transfer(ledger, alice, bob.address, 1, sequence=0)
    ledger.submit(first)
    ledger.produce_block(ledger.meta().ledger_timestamp_usec + 1)
    versions = [int(ledger.transaction_by_hash(bytes(t.hash()))["version"]) for t in (first, later)]
    assert versions[1] == versions[0] + 1


def test_resubmission_update_and_replacement(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    original = transfer(ledger, alice, bob.address, 1)
    assert ledger.submit(original) == ledger.submit(original)  # the same one is accepted again
    error = rejected(ledger, transfer(ledger, alice, bob.address, 2))
    assert error.code is ErrorCode.INVALID_TRANSACTION_UPDATE
    # Another payload is refused even when it pays more; the same one paying more replaces.
    error = rejected(ledger, transfer(ledger, alice, bob.address, 3, price=200))
    assert error.code is ErrorCode.INVALID_TRANSACTION_UPDATE
    better = transfer(ledger, alice, bob.address, 1, price=200)
    ledger.submit(better)
    ledger.produce_block(ledger.meta().ledger_timestamp_usec + 1)
    assert ledger.transaction_by_hash(bytes(better.hash()))["type"] == "user_transaction"
    with pytest.raises(NodeError) as info:
        ledger.transaction_by_hash(bytes(original.hash()))
    assert info.value.code is ErrorCode.TRANSACTION_NOT_FOUND


def test_a_full_mempool_answers_507() -> None:
    small = Ledger.open(None, NodeConfig(seed=21, blocks=1, mempool_capacity=2))
    try:
        alice, bob = small.dev_accounts[:2]
        for sequence in range(2):
            small.submit(transfer(small, alice, bob.address, 1, sequence=sequence))
        error = rejected(small, transfer(small, alice, bob.address, 1, sequence=2))
        assert (error.code, error.status) == (ErrorCode.MEMPOOL_IS_FULL, 507)
    finally:
        small.close()


def test_higher_prices_go_first(ledger: Ledger) -> None:
    senders = ledger.dev_accounts[:3]
    txns = [
        transfer(ledger, sender, ledger.dev_accounts[7].address, 1, price=price)
        for sender, price in zip(senders, (100, 300, 200), strict=True)
    ]
    versions = [int(t["version"]) for t in commit(ledger, *txns)]
    assert versions[1] < versions[2] < versions[0]


def test_json_submission_round_trips_through_encode_submission(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    request: dict[str, Any] = {
        "sender": alice.address.long,
        "sequence_number": "0",
        "max_gas_amount": "10000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": str(now_secs(ledger) + 600),
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [bob.address.short, "777"],
        },
    }
    message = ledger.encode_submission(request)
    raw = ledger.signed_from_json(
        {
            **request,
            "signature": {
                "type": "ed25519_signature",
                "public_key": "0x" + "00" * 32,
                "signature": "0x" + "00" * 64,
            },
        },
        simulation=True,
    ).raw
    assert message == raw.signing_message()
    signature = alice.private_key.sign(message)
    request["signature"] = {
        "type": "ed25519_signature",
        "public_key": "0x" + alice.private_key.public_key_bytes.hex(),
        "signature": "0x" + signature.hex(),
    }
    pending = ledger.submit(ledger.signed_from_json(request, simulation=False))
    assert (
        pending["hash"]
        == "0x"
        + bytes(
            SignedTransaction(
                raw, Ed25519Authenticator(alice.private_key.public_key_bytes, signature)
            ).hash()
        ).hex()
    )
    ledger.produce_block(ledger.meta().ledger_timestamp_usec + 1)
    committed = ledger.transaction_by_hash(bytes.fromhex(pending["hash"][2:]))
    assert committed["success"]
    assert committed["payload"]["arguments"] == [bob.address.long, "777"]


def test_json_submission_errors_are_invalid_input(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    base = {
        "sender": alice.address.long,
        "sequence_number": "0",
        "max_gas_amount": "10000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "99999999999",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": ["0x1", "1"],
        },
        "signature": {"type": "ed25519_signature", "public_key": "0x00", "signature": "0x00"},
    }
    broken: list[dict[str, Any]] = [
        {**base, "sequence_number": -1},
        {**base, "payload": {**base["payload"], "function": "0x1::nope::nope"}},
        {**base, "payload": {**base["payload"], "arguments": ["0x1"]}},
        {**base, "payload": {**base["payload"], "arguments": ["0x1", 1.5]}},
        {**base, "payload": {"type": "script_payload"}},
        {**base, "signature": {"type": "mystery"}},
        {
            **base,
            "signature": {"type": "ed25519_signature", "public_key": "0x00", "signature": "0x00"},
        },
    ]
    for request in broken:
        with pytest.raises(NodeError) as info:
            ledger.submit(ledger.signed_from_json(request, simulation=False))
        assert info.value.code is ErrorCode.INVALID_INPUT, request


def test_pending_and_committed_views_of_one_transaction_agree(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    signed = transfer(ledger, alice, bob.address, 9)
    pending = ledger.submit(signed)
    ledger.produce_block(ledger.meta().ledger_timestamp_usec + 1)
    committed = ledger.transaction_by_hash(bytes(signed.hash()))
    for field in ("hash", "sender", "sequence_number", "payload", "signature", "max_gas_amount"):
        assert committed[field] == pending[field], field
    assert orjson.loads(orjson.dumps(committed)) == committed


def test_a_fee_payer_pays_the_gas(ledger: Ledger) -> None:
    sender, payer, bob = ledger.dev_accounts[:3]
    raw = transfer(ledger, sender, bob.address, 1_000).raw
    message = FeePayerRawTransaction(raw, (), payer.address)
    signed = message.authenticate(
        sender.private_key.authenticator(message.signing_message()),
        (),
        payer.private_key.authenticator(message.signing_message()),
    )
    before_sender = ledger.reads.balance(sender.address, APT, None)
    before_payer = ledger.reads.balance(payer.address, APT, None)
    (txn,) = commit(ledger, signed)
    assert txn["success"], txn["vm_status"]
    assert txn["signature"]["type"] == "fee_payer_signature"
    assert txn["signature"]["fee_payer_address"] == payer.address.long
    assert ledger.reads.balance(sender.address, APT, None) == before_sender - 1_000
    assert (
        ledger.reads.balance(payer.address, APT, None) == before_payer - int(txn["gas_used"]) * 100
    )
    assert ledger.reads.account(payer.address, None)["sequence_number"] == "0"


def test_single_key_accounts_authenticate_by_their_scheme(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    key = Ed25519PrivateKey.from_seed(b"single key")
    address = key.address(single_key=True)
    commit(ledger, transfer(ledger, alice, address, 10**9))
    holder = DevAccount(key, address=address)
    raw = transfer(ledger, holder, alice.address, 5).raw
    signed = SignedTransaction(
        raw, SingleSenderAuthenticator(key.single_key_authenticator(raw.signing_message()))
    )
    (txn,) = commit(ledger, signed)
    assert txn["success"], txn["vm_status"]
    assert txn["signature"]["type"] == "single_sender"
    assert txn["signature"]["public_key"] == {
        "type": "ed25519",
        "value": "0x" + key.public_key_bytes.hex(),
    }
    legacy = transfer(ledger, holder, alice.address, 5)  # the legacy scheme's key hash differs
    error = rejected(ledger, legacy)
    assert (error.code, error.vm_error_code) == (ErrorCode.VM_ERROR, 2)


def _sdk_signed_transfer(
    ledger: Ledger, secret: str, to: Address, amount: int, sequence: int
) -> SignedTransaction:
    """A transfer built and signed by the official SDK with its secp256k1 key."""
    from aptos_sdk import asymmetric_crypto_wrapper, secp256k1_ecdsa
    from aptos_sdk import transactions as sdk
    from aptos_sdk.account import Account
    from aptos_sdk.account_address import AccountAddress
    from aptos_sdk.bcs import Serializer as SDKSerializer

    key = secp256k1_ecdsa.PrivateKey.from_str(secret, strict=True)
    account = Account(
        AccountAddress.from_key(asymmetric_crypto_wrapper.PublicKey(key.public_key())), key
    )
    payload = sdk.EntryFunction.natural(
        "0x1::aptos_account",
        "transfer",
        [],
        [
            sdk.TransactionArgument(AccountAddress.from_str(to.long), SDKSerializer.struct),
            sdk.TransactionArgument(amount, SDKSerializer.u64),
        ],
    )
    raw = sdk.RawTransaction(
        account.address(),
        sequence,
        sdk.TransactionPayload(payload),
        10_000,
        100,
        now_secs(ledger) + 600,
        ledger.config.chain_id,
    )
    signed = sdk.SignedTransaction(raw, account.sign_transaction(raw))
    return SignedTransaction.from_bcs(signed.bytes())


SECP256K1_N = int("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16)


def test_an_sdk_signed_secp256k1_transaction_is_accepted_and_committed(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    key = Secp256k1PrivateKey.from_seed(b"sdk secp256k1 sender")
    commit(ledger, transfer(ledger, alice, key.address(), 10**9))
    signed = _sdk_signed_transfer(ledger, key.secret_aip80(), alice.address, 777, 0)
    assert signed.raw.sender == key.address()
    (txn,) = commit(ledger, signed)
    assert txn["success"], txn["vm_status"]
    assert txn["signature"]["type"] == "single_sender"
    assert txn["signature"]["public_key"] == {
        "type": "secp256k1_ecdsa",
        "value": "0x" + key.public_key_bytes.hex(),
    }
    assert ledger.reads.account(key.address(), None)["sequence_number"] == "1"
    # Our own signing gives the same bytes, so the same transaction hash.
    again = _sdk_signed_transfer(ledger, key.secret_aip80(), alice.address, 5, 1)
    assert key.sign_transaction(again.raw) == again
    (ours,) = commit(ledger, key.sign_transaction(again.raw))
    assert ours["success"], ours["vm_status"]


def test_high_s_and_tampered_secp256k1_signatures_are_invalid_signatures(
    ledger: Ledger,
) -> None:
    alice = ledger.dev_accounts[0]
    key = Secp256k1PrivateKey.from_seed(b"secp256k1 forger")
    commit(ledger, transfer(ledger, alice, key.address(), 10**9))
    holder = DevAccount(Ed25519PrivateKey.from_seed(b"unused"), address=key.address())
    signed = key.sign_transaction(transfer(ledger, holder, alice.address, 1).raw)
    auth = signed.authenticator
    assert isinstance(auth, SingleSenderAuthenticator)
    assert isinstance(auth.sender, SingleKeyAuthenticator)
    good = auth.sender.signature.value
    s = int.from_bytes(good[32:], "big")
    forged = {
        "high_s": good[:32] + (SECP256K1_N - s).to_bytes(32, "big"),
        "tampered": bytes([good[0] ^ 1]) + good[1:],
        "zero": bytes(64),
    }
    for name, value in forged.items():
        bad = SignedTransaction(
            signed.raw,
            SingleSenderAuthenticator(
                SingleKeyAuthenticator(
                    auth.sender.public_key, AnySignature("secp256k1_ecdsa", value)
                )
            ),
        )
        error = rejected(ledger, bad)
        assert (error.code, error.vm_error_code, error.status) == (ErrorCode.VM_ERROR, 1, 400), name
        assert error.message == "Invalid transaction: Type: Validation Code: INVALID_SIGNATURE"
    (txn,) = commit(ledger, signed)  # the genuine one still goes through
    assert txn["success"], txn["vm_status"]
