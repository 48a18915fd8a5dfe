"""Every user transaction ends with the VM's ``0x1::transaction_fee::FeeStatement``, its
fields adding up as aptos-vm's do, and gas charged from aptos-core's 2026 schedule.

The expected figures are worked out by hand from the schedule's published parameters
(aptos-core's values since its tenfold change of March 2026, and this node's three
stand-ins, documented in ``ledgerkit.localnet.vm._gas_schedule``). Sizes are BCS sizes
counted by hand from the structs' fields:

* an ``0x1::object::ObjectGroup`` state key: variant 1 + address 32 + length 1 +
  ``Path::ResourceGroup`` 1 + struct tag (address 32, "object" 1 + 6, "ObjectGroup" 1 +
  11, no type arguments 1) = 87 bytes;
* a primary store's group is written whole, whichever member changed: its
  ``FungibleStore`` (metadata 32, balance 8, frozen 1 = 41 bytes) under its tag
  (32 + 1 + 14 + 1 + 13 + 1 = 62) and its ``ObjectCore`` (guid_creation_num 8, owner 32,
  allow_ungated_transfer 1, transfer_events handle 8 + 8 + 32 = 89 bytes) under its tag
  (32 + 1 + 6 + 1 + 10 + 1 = 51): 1 + (62 + 1 + 41) + (51 + 1 + 89) = 246 bytes;
* an ``0x1::account::Account`` key: 1 + 32 + 1 + 1 + (32 + 1 + 7 + 1 + 7 + 1) = 84 bytes;
  its value: authentication key 1 + 32, sequence number 8, guid_creation_num 8, two
  handles 48 each, two empty options 1 each = 147 bytes;
* a ``Withdraw`` event: type tag 1 + (32 + 1 + 14 + 1 + 8 + 1) = 58, data (store 32,
  amount 8) = 40: 98 bytes; ``Deposit`` 97.

A read costs IO 3,023,850 + 4096 * 1510 = 9,208,810 and execution 1,500,000 internal
units; each call reads two items besides its body's own.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Final

import pytest

from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    FeePayerRawTransaction,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.chain import DevAccount
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.vm import FeeStatement, GasUsage
from ledgerkit.localnet.vm._gas_schedule import SlotWrite, fee_statement
from ledgerkit.types import Address, StructTag

APT: Final = StructTag.parse("0x1::aptos_coin::AptosCoin")
FEE: Final = "0x1::transaction_fee::FeeStatement"
MODULE_GUID: Final = {"creation_number": "0", "account_address": "0x0"}
FIELDS: Final = [
    "total_charge_gas_units",
    "execution_gas_units",
    "io_gas_units",
    "storage_fee_octas",
    "storage_fee_refund_octas",
]
READ: Final = 9_208_810  # IO of one read of one page
READ_EXECUTION: Final = 1_500_000
CALL: Final = 12_000_000
MIN_TXN: Final = 27_600_000


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=23, blocks=3))
    yield opened
    opened.close()


def _raw(
    ledger: Ledger, account: DevAccount, to: Address | str, amount: int, max_gas: int
) -> RawTransaction:
    sequence = int(ledger.reads.account(account.address, None)["sequence_number"])
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", to), ("u64", amount)]
    )
    expiration = ledger.meta().ledger_timestamp_usec // 1_000_000 + 600
    return RawTransaction(
        account.address, sequence, payload, max_gas, 100, expiration, ledger.config.chain_id
    )


def _commit(ledger: Ledger, signed: Any) -> dict[str, Any]:
    ledger.submit(signed)
    assert ledger.produce_block(ledger.meta().ledger_timestamp_usec + 500_000) is not None
    txn: dict[str, Any] = ledger.transaction_by_hash(bytes(signed.hash()))
    return txn


def _statement(txn: dict[str, Any]) -> dict[str, int]:
    """The fee statement, checked to be the last event, a module event, fields in order."""
    last = txn["events"][-1]
    assert last["type"] == FEE
    assert (last["guid"], last["sequence_number"]) == (MODULE_GUID, "0")
    assert [e["type"] for e in txn["events"]].count(FEE) == 1
    assert sorted(last["data"]) == sorted(FIELDS)
    return {name: int(last["data"][name]) for name in FIELDS}


def _internal(n: int) -> int:
    return math.ceil(n / 1_000_000)


def test_a_transfer_to_an_existing_account(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    signed = alice.private_key.sign_transaction(_raw(ledger, alice, bob.address, 5, 2_000))
    size = len(signed.to_bcs())
    before = ledger.reads.balance(alice.address, APT, None)
    txn = _commit(ledger, signed)
    assert txn["success"], txn["vm_status"]
    # Reads: bob's Account, the two stores, and the call's two.
    execution = MIN_TXN + CALL + 5 * READ_EXECUTION
    # Writes: the two store groups (87-byte key, 246-byte value); events 98 + 97 bytes.
    io = 890 * size + 5 * READ + 2 * (895_680 + 890 * (87 + 246)) + 890 * (98 + 97)
    assert execution == 47_100_000
    total = _internal(execution + io)
    assert _statement(txn) == {
        "total_charge_gas_units": total,
        "execution_gas_units": 48,
        "io_gas_units": _internal(io),
        "storage_fee_octas": 0,
        "storage_fee_refund_octas": 0,
    }
    assert (total, _internal(io)) == (96, 49)  # size 264: 49 IO units either way
    assert int(txn["gas_used"]) == total
    assert ledger.reads.balance(alice.address, APT, None) == before - 5 - total * 100


def test_a_transfer_that_creates_its_recipient_pays_for_two_new_slots(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    fresh = Ed25519PrivateKey.from_seed(b"fee statement").address()
    signed = alice.private_key.sign_transaction(_raw(ledger, alice, fresh, 5, 100_000))
    size = len(signed.to_bcs())
    before = ledger.reads.balance(alice.address, APT, None)
    txn = _commit(ledger, signed)
    assert txn["success"], txn["vm_status"]
    # New: the Account (84 + 147 bytes) and the store's group (87 + 246 bytes).
    storage = 2 * 400_000 + 400 * (84 + 147 + 87 + 246)
    assert storage == 1_025_600
    execution = MIN_TXN + CALL + 5 * READ_EXECUTION
    writes = (
        (895_680 + 890 * (84 + 147))  # the new Account
        + (895_680 + 890 * (87 + 246))  # alice's store
        + (895_680 + 890 * (87 + 246))  # the new store
    )
    io = 890 * size + 5 * READ + writes + 890 * (98 + 97)
    total = _internal(execution + io + storage * 1_000_000 // 100)
    assert _statement(txn) == {
        "total_charge_gas_units": total,
        "execution_gas_units": 48,
        "io_gas_units": _internal(io),
        "storage_fee_octas": 1_025_600,
        "storage_fee_refund_octas": 0,
    }
    assert total == 10_354 == int(txn["gas_used"])
    assert ledger.reads.balance(alice.address, APT, None) == before - 5 - total * 100


def test_an_abort_keeps_only_the_fee_statement(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    payload = EntryFunction.build("0x1::ledger_demo::fail_if", [], [("u64", 42)])
    raw = _raw(ledger, alice, "0x1", 1, 2_000)
    raw = RawTransaction(
        raw.sender, raw.sequence_number, payload, 2_000, 100, raw.expiration_timestamp_secs, 4
    )
    signed = alice.private_key.sign_transaction(raw)
    size = len(signed.to_bcs())
    txn = _commit(ledger, signed)
    assert txn["success"] is False
    assert [e["type"] for e in txn["events"]] == [FEE]
    # fail_if reads nothing: the call and its two reads; no write or event is paid for.
    execution = MIN_TXN + CALL + 2 * READ_EXECUTION
    io = 890 * size + 2 * READ
    assert _statement(txn) == {
        "total_charge_gas_units": _internal(execution + io),
        "execution_gas_units": 43,
        "io_gas_units": _internal(io),
        "storage_fee_octas": 0,
        "storage_fee_refund_octas": 0,
    }


def test_out_of_gas_counts_the_meters_up_to_the_one_that_ran_out(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    fresh = Ed25519PrivateKey.from_seed(b"out of gas").address()
    signed = alice.private_key.sign_transaction(_raw(ledger, alice, fresh, 5, 60))
    before = ledger.reads.balance(alice.address, APT, None)
    txn = _commit(ledger, signed)
    assert (txn["success"], txn["vm_status"]) == (False, "Out of gas")
    # Execution (47.1 units) fits in 60; IO (about 50) runs out and counts whole;
    # storage is never reached.
    statement = _statement(txn)
    assert statement["total_charge_gas_units"] == 60 == int(txn["gas_used"])
    assert statement["execution_gas_units"] == 48
    assert statement["io_gas_units"] == 50
    assert (statement["storage_fee_octas"], statement["storage_fee_refund_octas"]) == (0, 0)
    assert ledger.reads.balance(alice.address, APT, None) == before - 60 * 100


def test_a_sponsored_transfer_charges_the_fee_payer(ledger: Ledger) -> None:
    sender, payer, bob = ledger.dev_accounts[3:6]
    raw = _raw(ledger, sender, bob.address, 7, 2_000)
    message = FeePayerRawTransaction(raw, (), payer.address)
    signed = message.authenticate(
        sender.private_key.authenticator(message.signing_message()),
        (),
        payer.private_key.authenticator(message.signing_message()),
    )
    size = len(signed.to_bcs())
    before_sender = ledger.reads.balance(sender.address, APT, None)
    before_payer = ledger.reads.balance(payer.address, APT, None)
    txn = _commit(ledger, signed)
    assert txn["success"], txn["vm_status"]
    execution = MIN_TXN + CALL + 5 * READ_EXECUTION
    io = 890 * size + 5 * READ + 2 * (895_680 + 890 * (87 + 246)) + 890 * (98 + 97)
    total = _internal(execution + io)
    assert _statement(txn)["total_charge_gas_units"] == total == int(txn["gas_used"])
    assert ledger.reads.balance(sender.address, APT, None) == before_sender - 7
    assert ledger.reads.balance(payer.address, APT, None) == before_payer - total * 100


def test_a_simulation_shows_the_fee_statement(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    raw = _raw(ledger, alice, bob.address, 5, 2_000)
    unsigned = SignedTransaction(
        raw, Ed25519Authenticator(alice.private_key.public_key_bytes, bytes(64))
    )
    (simulated,), gas = ledger.simulate(unsigned)
    assert simulated["success"], simulated["vm_status"]
    assert _statement(simulated)["total_charge_gas_units"] == gas == int(simulated["gas_used"])
    committed = _commit(ledger, alice.private_key.sign_transaction(raw))
    assert _statement(committed) == _statement(simulated)


def test_deleting_a_slot_refunds_its_deposit() -> None:
    """A pure check of the schedule: a deleted slot of a 50-byte key and 100-byte value
    refunds 400,000 + 400 * 150 = 460,000 octas, outside gas used."""
    usage = GasUsage(size=300, writes=(SlotWrite(50, None, deleted_size=100),))
    statement, out_of_gas = fee_statement(usage, gas_unit_price=100, max_gas_amount=1_000)
    execution = MIN_TXN + CALL + 2 * READ_EXECUTION
    io = 890 * 300 + 2 * READ + 895_680
    assert not out_of_gas
    assert statement == FeeStatement(_internal(execution + io), 43, _internal(io), 0, 460_000)


def test_storage_in_gas_rounds_up_at_the_gas_unit_price() -> None:
    """1,025,600 octas at 150 octas a unit: 6,837.33 units of storage, counted in
    internal units (rounded up) before the total is."""
    created = (SlotWrite(84, 147, created=True), SlotWrite(87, 246, created=True))
    usage = GasUsage(size=264, writes=created)
    statement, _ = fee_statement(usage, gas_unit_price=150, max_gas_amount=100_000)
    execution = MIN_TXN + CALL + 2 * READ_EXECUTION
    io = 890 * 264 + 2 * READ + (895_680 + 890 * 231) + (895_680 + 890 * 333)
    storage_internal = math.ceil(1_025_600 * 1_000_000 / 150)
    assert statement.storage_fee_octas == 1_025_600
    assert statement.total_charge_gas_units == _internal(execution + io + storage_internal)
    # 42,600,000 + 20,945,900 + 6,837,333,334 = 6,900,879,234 internal units.
    assert statement.total_charge_gas_units == 6_901
