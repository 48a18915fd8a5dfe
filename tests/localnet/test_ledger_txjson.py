"""One transaction, three JSON forms: pending (while it waits), simulated and committed.
They share their sender, numbers, payload and signature, in the node's key order."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledgerkit.bcs import Ed25519Authenticator, EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address

RECIPIENT = Address.parse("0x" + "5e" * 32)
SHARED = [
    "sender",
    "sequence_number",
    "max_gas_amount",
    "gas_unit_price",
    "expiration_timestamp_secs",
    "payload",
    "signature",
]
INFO = [
    "version",
    "hash",
    "state_change_hash",
    "event_root_hash",
    "gas_used",
    "success",
    "vm_status",
    "accumulator_root_hash",
    "changes",
]


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=41, blocks=2))
    yield opened
    opened.close()


def test_pending_simulated_and_committed_forms_agree(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", RECIPIENT), ("u64", 12345)]
    )
    expiration = ledger.meta().ledger_timestamp_usec // 1_000_000 + 600
    # 100,000: the transfer creates its recipient (about 10,400 units).
    raw = RawTransaction(alice.address, 0, payload, 100_000, 100, expiration, 4)
    signed = raw.sign(alice.private_key)
    txn_hash = bytes(signed.hash())

    unsigned = SignedTransaction(
        raw, Ed25519Authenticator(alice.private_key.public_key_bytes, bytes(64))
    )
    (simulated,), _ = ledger.simulate(unsigned)
    ledger.submit(signed)
    pending = ledger.transaction_by_hash(txn_hash)
    ledger.produce_block(ledger.meta().ledger_timestamp_usec + 500_000)
    committed = ledger.transaction_by_hash(txn_hash)

    assert list(pending) == ["hash", *SHARED, "type"]
    assert list(simulated) == [*INFO, *SHARED, "events", "timestamp"]
    assert list(committed) == [*INFO, *SHARED, "events", "timestamp", "type"]
    assert pending["type"] == "pending_transaction"
    assert committed["type"] == "user_transaction"
    assert pending["hash"] == committed["hash"] == "0x" + txn_hash.hex()
    assert pending["sender"] == simulated["sender"] == committed["sender"] == alice.address.standard
    for name in ("sequence_number", "max_gas_amount", "gas_unit_price"):
        assert pending[name] == simulated[name] == committed[name]
    assert pending["expiration_timestamp_secs"] == str(expiration)
    assert pending["payload"] == simulated["payload"] == committed["payload"]
    assert committed["payload"] == {
        "function": "0x1::aptos_account::transfer",
        "type_arguments": [],
        "arguments": [RECIPIENT.standard, "12345"],
        "type": "entry_function_payload",
    }
    assert pending["signature"] == committed["signature"]
    assert pending["signature"]["type"] == simulated["signature"]["type"] == "ed25519_signature"
    assert simulated["signature"]["signature"] == "0x" + "00" * 64
    assert committed["success"] is simulated["success"] is True
    assert committed["gas_used"] == simulated["gas_used"]
