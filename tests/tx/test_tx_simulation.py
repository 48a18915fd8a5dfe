"""A Simulation read from answers the reference schema allows, hand-written: aborts, coin
events of each generation, fungible asset events, the fee statement, fee payers, and exact
integers at the edges. Expected balance changes are worked out by hand from the amounts
and the gas written in each answer."""

from __future__ import annotations

import hashlib
import pickle
import re
from typing import Any, Final

import pandas as pd
import pytest
from user_transactions import RECIPIENT, SENDER, decoded, transfer, user_transaction

from ledgerkit import InputError, LedgerMeta
from ledgerkit.frames import CHANGE_COLUMNS, EVENT_COLUMNS, schema_of
from ledgerkit.tx import (
    BALANCE_CHANGE_COLUMNS,
    MoveAbort,
    Simulation,
    primary_store_address,
    stores_to_look_up,
)

PAYER: Final = "0x" + "c3" * 32
POOL: Final = "0x" + "d4" * 32
USD: Final = "0xcafe::usd::USD"
APT: Final = "0x1::aptos_coin::AptosCoin"
FA_APT: Final = "0x" + "0" * 63 + "a"
#: USD's key: the metadata object coin.move pairs it with, a named object of 0xa whose
#: seed is the coin's type name: SHA3-256(0xa ‖ "0xcafe::usd::USD" ‖ 0xFE).
USD_FA: Final = "0x" + hashlib.sha3_256(bytes(31) + b"\x0a" + USD.encode() + b"\xfe").hexdigest()
TOKEN: Final = "0x" + "e5" * 32
LEDGER: Final = LedgerMeta(
    chain_id=4,
    ledger_version=100,
    oldest_ledger_version=0,
    ledger_timestamp_usec=1_700_000_000_000_000,
    epoch=2,
    block_height=50,
    oldest_block_height=0,
    gas_used=10,
)


def derived(owner: str, metadata: str) -> str:
    """A primary store address, by the formula: SHA3-256(owner ‖ metadata ‖ 0xFC)."""
    body = bytes.fromhex(owner[2:].rjust(64, "0")) + bytes.fromhex(metadata[2:].rjust(64, "0"))
    return "0x" + hashlib.sha3_256(body + b"\xfc").hexdigest()


def handle(address: str, number: int) -> dict[str, Any]:
    return {"counter": "1", "guid": {"id": {"addr": address, "creation_num": str(number)}}}


def coin_store(address: str, coin: str, value: int, deposit: int, withdraw: int) -> dict[str, Any]:
    return {
        "type": "write_resource",
        "address": address,
        "state_key_hash": "0x" + "00" * 32,
        "data": {
            "type": f"0x1::coin::CoinStore<{coin}>",
            "data": {
                "coin": {"value": str(value)},
                "frozen": False,
                "deposit_events": handle(address, deposit),
                "withdraw_events": handle(address, withdraw),
            },
        },
    }


def resource(address: str, type_: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "write_resource",
        "address": address,
        "state_key_hash": "0x" + "00" * 32,
        "data": {"type": type_, "data": data},
    }


def event(
    type_: str, data: dict[str, Any], account: str = "0x0", number: int = 0
) -> dict[str, Any]:
    return {
        "guid": {"creation_number": str(number), "account_address": account},
        "sequence_number": "0",
        "type": type_,
        "data": data,
    }


def fee_statement(gas: int, refund: int = 0) -> dict[str, Any]:
    return event(
        "0x1::transaction_fee::FeeStatement",
        {
            "total_charge_gas_units": str(gas),
            "execution_gas_units": str(gas - 1),
            "io_gas_units": "1",
            "storage_fee_octas": "0",
            "storage_fee_refund_octas": str(refund),
        },
    )


def answer(
    *,
    events: list[dict[str, Any]],
    changes: list[dict[str, Any]],
    gas_used: int = 10,
    gas_unit_price: int = 100,
    success: bool = True,
    vm_status: str = "Executed successfully",
    signature: dict[str, Any] | None = None,
    arguments: list[Any] | None = None,
) -> Any:
    """A UserTransaction as the reference schema writes one (u64 as decimal strings)."""
    body = user_transaction(
        events,
        gas_used=gas_used,
        version="101",
        success=success,
        vm_status=vm_status,
        changes=changes,
        sequence_number="7",
        gas_unit_price=str(gas_unit_price),
        payload=transfer(USD, arguments if arguments is not None else [RECIPIENT, "500"]),
    )
    if signature:
        body["signature"] = signature
    return decoded(body)


def test_a_coin_abort_from_the_reference_shape() -> None:
    txn = answer(
        success=False,
        vm_status="Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): "
        "Not enough coins to complete transaction",
        gas_used=8,
        events=[fee_statement(8)],
        changes=[coin_store(SENDER, APT, 99_200, 2, 3)],
    )
    sim = Simulation.from_transaction(txn, LEDGER)
    assert not sim.success
    assert sim.abort == MoveAbort(
        "0x1::coin", 0x10006, "EINSUFFICIENT_BALANCE", "Not enough coins to complete transaction"
    )
    assert (sim.abort.category, sim.abort.reason) == (1, 6)
    assert (sim.gas_used, sim.gas_unit_price, sim.fee) == (8, 100, 800)
    # Only the gas left the sender, from its APT coin store.
    assert sim.balance_deltas == {(SENDER, FA_APT): -800}


def test_legacy_coin_events_take_their_coin_type_from_the_written_store() -> None:
    txn = answer(
        gas_used=10,
        events=[
            event("0x1::coin::WithdrawEvent", {"amount": "500"}, SENDER, 5),
            event("0x1::coin::DepositEvent", {"amount": "500"}, RECIPIENT, 2),
            fee_statement(10, refund=300),
        ],
        changes=[
            coin_store(SENDER, USD, 1_000, 4, 5),
            coin_store(SENDER, APT, 50_000, 2, 3),
            coin_store(RECIPIENT, USD, 500, 2, 3),
        ],
    )
    sim = Simulation.from_transaction(txn, LEDGER)
    assert sim.fee == 1_000
    assert sim.storage_fee_refund == 300
    # 500 USD moved; the sender paid 10 * 100 - 300 = 700 octas of APT.
    assert sim.balance_deltas == {
        (SENDER, USD_FA): -500,
        (RECIPIENT, USD_FA): 500,
        (SENDER, FA_APT): -700,
    }
    frame = sim.balance_changes
    assert schema_of(frame) == dict(BALANCE_CHANGE_COLUMNS)
    usd = {"asset": USD_FA, "coin_type": USD, "metadata": USD_FA}
    apt = {"asset": FA_APT, "coin_type": APT, "metadata": FA_APT}
    assert frame.drop(columns="version").to_dict("records") == [
        {"address": SENDER, **usd, "delta": -500},
        {"address": RECIPIENT, **usd, "delta": 500},
        {"address": SENDER, **apt, "delta": -700},
    ]
    # 10 gas units at 100 octas, less the refund of 300: summed with the transfer.
    assert frame.groupby("asset", observed=True)["delta"].sum().to_dict() == {
        USD_FA: 0,
        FA_APT: -(10 * 100 - 300),
    }


def test_module_coin_events_name_account_and_coin_type() -> None:
    txn = answer(
        events=[
            event("0x1::coin::CoinWithdraw", {"coin_type": USD, "account": SENDER, "amount": "70"}),
            event(
                "0x1::coin::CoinDeposit", {"coin_type": USD, "account": RECIPIENT, "amount": "70"}
            ),
            event(f"0x1::coin::Deposit<{USD}>", {"account": PAYER, "amount": "5"}),
        ],
        changes=[],
        gas_used=3,
        gas_unit_price=150,
    )
    sim = Simulation.from_transaction(txn, LEDGER)
    # No APT coin store written for the payer: its gas is charged to its store of 0xa.
    assert sim.balance_deltas == {
        (SENDER, USD_FA): -70,
        (RECIPIENT, USD_FA): 70,
        (PAYER, USD_FA): 5,
        (SENDER, FA_APT): -450,
    }


def test_fungible_asset_stores_resolve_to_their_owners() -> None:
    sender_store = derived(SENDER, TOKEN)
    new_store = derived(RECIPIENT, TOKEN)
    txn = answer(
        arguments=[{"inner": TOKEN}, RECIPIENT, "40"],
        events=[
            event("0x1::fungible_asset::Withdraw", {"store": sender_store, "amount": "40"}),
            event("0x1::fungible_asset::Deposit", {"store": new_store, "amount": "40"}),
            fee_statement(10),
        ],
        changes=[
            resource(sender_store, "0x1::fungible_asset::FungibleStore",
                     {"metadata": {"inner": TOKEN}, "balance": "60", "frozen": False}),
            resource(new_store, "0x1::fungible_asset::FungibleStore",
                     {"metadata": {"inner": TOKEN}, "balance": "40", "frozen": False}),
            resource(new_store, "0x1::object::ObjectCore",
                     {"owner": RECIPIENT, "allow_ungated_transfer": False,
                      "guid_creation_num": "1125899906842625",
                      "transfer_events": handle(new_store, 1125899906842624)}),
        ],
    )  # fmt: skip
    sim = Simulation.from_transaction(txn, LEDGER)
    # The sender's store by its primary store address, the new one by its ObjectCore.
    assert sim.balance_deltas == {
        (SENDER, TOKEN): -40,
        (RECIPIENT, TOKEN): 40,
        (SENDER, FA_APT): -1_000,
    }
    assert stores_to_look_up(txn) == []


def test_a_store_of_unknown_owner_is_listed_under_its_address_until_looked_up() -> None:
    pool_store = "0x" + "f6" * 32
    txn = answer(
        events=[
            event("0x1::fungible_asset::Withdraw", {"store": pool_store, "amount": "9"}),
            event("0x1::fungible_asset::Deposit", {"store": derived(SENDER, TOKEN), "amount": "9"}),
        ],
        changes=[
            resource(derived(SENDER, TOKEN), "0x1::fungible_asset::FungibleStore",
                     {"metadata": {"inner": TOKEN}, "balance": "9", "frozen": False}),
        ],
        gas_used=0,
    )  # fmt: skip
    assert stores_to_look_up(txn) == [pool_store]
    alone = Simulation.from_transaction(txn, LEDGER)
    assert alone.balance_deltas == {(pool_store, None): -9, (SENDER, TOKEN): 9}
    assert alone.balance_changes["asset"].isna().tolist() == [True, False]
    found = Simulation.from_transaction(txn, LEDGER, stores={pool_store: (POOL, TOKEN)})
    assert found.balance_deltas == {(POOL, TOKEN): -9, (SENDER, TOKEN): 9}


def test_the_fee_payer_pays_and_a_zero_fee_payer_pays_nothing() -> None:
    def signed_by(payer: str) -> dict[str, Any]:
        ed = {"type": "ed25519_signature", "public_key": "0x" + "ed" * 32,
              "signature": "0x" + "00" * 64}  # fmt: skip
        return {
            "type": "fee_payer_signature",
            "sender": ed,
            "secondary_signer_addresses": [],
            "secondary_signers": [],
            "fee_payer_address": payer,
            "fee_payer_signer": ed,
        }

    paid = Simulation.from_transaction(
        answer(events=[], changes=[], signature=signed_by(PAYER)), LEDGER
    )
    assert paid.fee_payer == PAYER
    assert paid.balance_deltas == {(PAYER, FA_APT): -1_000}
    skipped = Simulation.from_transaction(
        answer(events=[], changes=[], signature=signed_by("0x0")), LEDGER
    )
    assert skipped.fee == 1_000
    assert skipped.balance_deltas == {}
    assert skipped.balance_changes.empty
    assert schema_of(skipped.balance_changes) == dict(BALANCE_CHANGE_COLUMNS)


@pytest.mark.parametrize("amount", [2**53 + 1, 2**63 - 1])
def test_amounts_stay_exact(amount: int) -> None:
    txn = answer(
        events=[event("0x1::coin::CoinDeposit", {"coin_type": USD, "account": RECIPIENT,
                                                 "amount": str(amount)})],
        changes=[],
        gas_used=0,
    )  # fmt: skip
    sim = Simulation.from_transaction(txn, LEDGER)
    assert sim.balance_deltas == {(RECIPIENT, USD_FA): amount}
    assert sim.balance_changes["delta"].tolist() == [amount]
    assert sim.balance_changes["delta"].iloc[0] == amount


def test_a_change_beyond_int64_is_exact_in_the_mapping_and_in_the_frame() -> None:
    top = 2**64 - 1
    txn = answer(
        events=[event("0x1::coin::CoinDeposit", {"coin_type": USD, "account": RECIPIENT,
                                                 "amount": str(top)})],
        changes=[],
        gas_used=2**32,
        gas_unit_price=2**32,
    )  # fmt: skip
    sim = Simulation.from_transaction(txn, LEDGER)
    assert sim.fee == 2**64
    assert sim.balance_deltas[(RECIPIENT, USD_FA)] == top
    assert sim.balance_deltas[(SENDER, FA_APT)] == -(2**64)
    frame = sim.balance_changes.set_index("address")["delta"]
    assert frame.to_dict() == {RECIPIENT: top, SENDER: -(2**64)}
    assert frame.sum() == top - 2**64 == -1


def test_changes_and_events_are_the_frames_of_ledgerkit_frames() -> None:
    txn = answer(
        events=[
            event("0x1::coin::CoinWithdraw", {"coin_type": USD, "account": SENDER, "amount": "1"}),
            fee_statement(10),
        ],
        changes=[coin_store(SENDER, USD, 1, 4, 5)],
    )  # fmt: skip
    sim = Simulation.from_transaction(txn, LEDGER)
    assert schema_of(sim.changes) == schema_of(
        pd.DataFrame(columns=list(CHANGE_COLUMNS)).astype(CHANGE_COLUMNS)
    )
    assert sim.changes["resource"].tolist() == [f"0x1::coin::CoinStore<{USD}>"]
    assert schema_of(sim.events) == schema_of(
        pd.DataFrame(columns=list(EVENT_COLUMNS)).astype(EVENT_COLUMNS)
    )
    assert sim.events["type"].tolist() == [
        "0x1::coin::CoinWithdraw",
        "0x1::transaction_fee::FeeStatement",
    ]


def test_the_reprs_are_readable_and_stable() -> None:
    txn = answer(
        success=False,
        vm_status="Move abort in 0x1::coin: 0x10006",
        events=[],
        changes=[],
        gas_used=8,
    )
    sim = Simulation.from_transaction(txn, LEDGER)
    assert repr(sim) == (
        "Simulation(success=False, vm_status='Move abort in 0x1::coin: 0x10006', gas_used=8, "
        "gas_unit_price=100, fee=800, balance_changes=1)"
    )
    text = str(sim)
    assert text.splitlines()[:3] == [
        "Simulation: failure: Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): "
        "The balance is too small for the amount asked",
        "vm_status: Move abort in 0x1::coin: 0x10006",
        "gas: 8 units at 100 octas (max 2000); fee 800 octas",
    ]
    assert f"{SENDER}  {FA_APT}  -800" in text
    page = sim._repr_html_()
    assert "-800" in page
    assert "EINSUFFICIENT_BALANCE" in page
    for shown in (repr(sim), text, page):
        assert not re.search(r" at 0x[0-9a-f]+", shown)


def test_a_simulation_pickles_and_compares() -> None:
    sim = Simulation.from_transaction(
        answer(events=[], changes=[]), LEDGER, estimate_gas_unit_price=True
    )
    back = pickle.loads(pickle.dumps(sim))
    assert back == sim
    assert back.estimate_gas_unit_price
    assert not back.estimate_max_gas_amount


def test_only_a_user_transaction_makes_a_simulation() -> None:
    with pytest.raises(InputError):
        Simulation.from_transaction({"success": True}, LEDGER)  # type: ignore[arg-type]


def test_the_primary_store_address_is_the_nodes() -> None:
    # The embedded node's own answer: a dev account's APT store.
    owner = "0xfe53d20321d27ac00a035af44b01025895146ce3ce390e262323554e5fc9105e"
    store = "0x5817e9dee230ab70ee91577348f924e45d2d1b00d5ffdf5c9b28f3f5cc1bcf16"
    assert primary_store_address(owner, "0xa").long == store == derived(owner, "0xa")
