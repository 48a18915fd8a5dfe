"""View functions, simulation, the gas price estimate and encode_submission."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import (
    Deserializer,
    Ed25519Authenticator,
    EntryFunction,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.chain import DevAccount
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address, EntryFunctionId, MoveType, StructTag

APT = "0x1::aptos_coin::AptosCoin"


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=41, blocks=5))
    yield opened
    opened.close()


def raw_call(
    ledger: Ledger,
    account: DevAccount,
    function: str,
    args: list[tuple[str, Any]],
    *,
    sequence: int | None = None,
    price: int = 100,
    max_gas: int = 20_000,
) -> RawTransaction:
    if sequence is None:
        sequence = int(ledger.reads.account(account.address, None)["sequence_number"])
    return RawTransaction(
        account.address,
        sequence,
        EntryFunction.build(function, [], args),
        max_gas,
        price,
        ledger.meta().ledger_timestamp_usec // 1_000_000 + 600,
        ledger.config.chain_id,
    )


def run(ledger: Ledger, *raws: tuple[DevAccount, RawTransaction]) -> int:
    for account, raw in raws:
        ledger.submit(account.private_key.sign_transaction(raw))
    height = ledger.produce_block(ledger.meta().ledger_timestamp_usec + 400_000)
    assert height is not None
    return height


def view(
    ledger: Ledger, function: str, types: list[str], args: list[Any], version: int | None = None
) -> list[Any]:
    values, gas = ledger.views.view(
        EntryFunctionId.parse(function), [MoveType.parse(t) for t in types], args, version
    )
    assert gas > 0
    return values


# -- views ------------------------------------------------------------------------------------


def test_views_read_the_framework_state(ledger: Ledger) -> None:
    dev = ledger.dev_accounts[0].address
    apt = StructTag.parse(APT)
    assert view(ledger, "0x1::coin::balance", [APT], [dev.long]) == [
        str(ledger.reads.balance(dev, apt, None))
    ]
    assert view(ledger, "0x1::coin::symbol", [APT], []) == ["APT"]
    assert view(ledger, "0x1::coin::decimals", [APT], []) == [8]
    assert view(ledger, "0x1::account::exists_at", [], [dev.short]) == [True]
    assert view(ledger, "0x1::account::get_sequence_number", [], ["0x1234"]) == ["0"]
    assert view(ledger, "0x1::chain_id::get", [], []) == [4]
    now = ledger.meta().ledger_timestamp_usec
    assert view(ledger, "0x1::timestamp::now_microseconds", [], []) == [str(now)]
    assert view(ledger, "0x1::block::get_current_block_height", [], []) == [
        str(ledger.meta().block_height)
    ]
    store = view(
        ledger,
        "0x1::primary_fungible_store::primary_store_address",
        ["0x1::fungible_asset::Metadata"],
        [dev.long, {"inner": "0xa"}],
    )[0]
    assert view(
        ledger,
        "0x1::fungible_asset::balance",
        ["0x1::fungible_asset::FungibleStore"],
        [{"inner": store}],
    ) == [str(ledger.reads.balance(dev, Address.from_int(0xA), None))]
    supply = view(ledger, "0x1::coin::supply", [APT], [])[0]["vec"][0]
    burned = view(ledger, "0x1::transaction_fee::burned", [], [])[0]
    assert int(supply) + int(burned) == int(ledger.store.reads.meta("genesis_supply") or 0)


def test_views_answer_at_a_version(ledger: Ledger) -> None:
    dev, other = ledger.dev_accounts[:2]
    before = ledger.meta().ledger_version
    run(
        ledger,
        (
            dev,
            raw_call(
                ledger,
                dev,
                "0x1::ledger_demo::set_score",
                [("address", other.address.long), ("u64", 7)],
            ),
        ),
    )
    run(
        ledger,
        (
            dev,
            raw_call(
                ledger, dev, "0x1::ledger_demo::set_cell", [("u64", 1), ("u64", 2), ("u64", 3)]
            ),
        ),
    )
    args = [dev.address.long, other.address.long]
    assert view(ledger, "0x1::ledger_demo::score", [], args) == ["7"]
    assert view(ledger, "0x1::ledger_demo::score", [], args, before) == ["0"]
    assert view(ledger, "0x1::ledger_demo::cell", [], [dev.address.long, "1", "2"]) == ["3"]
    assert view(ledger, "0x1::ledger_demo::board_exists", [], [dev.address.long], before) == [False]
    assert view(ledger, "0x1::ledger_demo::profile", [], [dev.address.long, "nobody"]) == [
        {"vec": []}
    ]


def test_bcs_views_return_a_count_and_the_values(ledger: Ledger) -> None:
    dev = ledger.dev_accounts[0].address
    payload = EntryFunction.build("0x1::coin::balance", [APT], [("address", dev.long)])
    encoded, gas = ledger.views.view_bcs(payload, None)
    d = Deserializer(encoded)
    assert d.uleb128() == 1
    assert d.u64() == ledger.reads.balance(dev, StructTag.parse(APT), None)
    d.finish()
    assert gas > 0
    result = ledger.views.view_function(
        payload.function_id, list(payload.type_args), list(payload.args), None, bcs_args=True
    )
    balance = ledger.reads.balance(dev, StructTag.parse(APT), None)
    assert (result.encoded, result.values) == (encoded, [str(balance)])


@pytest.mark.parametrize(
    ("function", "types", "args", "fragment"),
    [
        ("0x1::nope::f", [], [], "not found"),
        ("0x1::coin::nope", [], [], "not found"),
        ("0x1::aptos_account::transfer", [], ["0x1", "1"], "not marked as a view"),
        ("0x1::coin::balance", [], ["0x1"], "type argument"),
        ("0x1::coin::balance", [APT], [], "argument"),
        ("0x1::coin::balance", [APT], [5], "Invalid arguments"),
        ("0x1::account::get_authentication_key", [], ["0x1234"], "EACCOUNT_DOES_NOT_EXIST"),
        ("0x1::coin::name", ["0x1::fake::Coin"], [], "Move abort in 0x1::coin"),
    ],
)
def test_view_failures_are_invalid_input(
    ledger: Ledger, function: str, types: list[str], args: list[Any], fragment: str
) -> None:
    with pytest.raises(NodeError) as info:
        view(ledger, function, types, args)
    assert (info.value.code, info.value.status) == (ErrorCode.INVALID_INPUT, 400)
    assert fragment in info.value.message


def test_views_at_unknown_versions(ledger: Ledger) -> None:
    with pytest.raises(NodeError) as info:
        view(ledger, "0x1::chain_id::get", [], [], 10**9)
    assert info.value.code is ErrorCode.VERSION_NOT_FOUND


# -- simulation -------------------------------------------------------------------------------


def unsigned(account: DevAccount, raw: RawTransaction) -> SignedTransaction:
    return SignedTransaction(
        raw, Ed25519Authenticator(account.private_key.public_key_bytes, bytes(64))
    )


def test_simulation_refuses_a_valid_signature(ledger: Ledger) -> None:
    dev = ledger.dev_accounts[0]
    raw = raw_call(ledger, dev, "0x1::aptos_account::transfer", [("address", "0x1234"), ("u64", 1)])
    with pytest.raises(NodeError) as info:
        ledger.simulate(dev.private_key.sign_transaction(raw))
    assert info.value.code is ErrorCode.INVALID_INPUT
    assert info.value.message == "Simulated transactions must not have a valid signature"


def test_simulation_runs_without_committing(ledger: Ledger) -> None:
    dev = ledger.dev_accounts[0]
    before = ledger.meta()
    raw = raw_call(ledger, dev, "0x1::aptos_account::transfer", [("address", "0x1234"), ("u64", 5)])
    (result,), gas = ledger.simulate(unsigned(dev, raw))
    assert "type" not in result  # public nodes answer bare UserTransaction objects
    assert result["success"], result["vm_status"]
    assert int(result["gas_used"]) == gas > 0
    zero = "0x" + "00" * 32
    assert result["state_change_hash"] == result["accumulator_root_hash"] == zero
    assert result["event_root_hash"] == zero
    assert {"version"} & set(result["events"][0]) == set()
    assert any(c["type"] == "write_resource" for c in result["changes"])
    assert ledger.meta() == before
    assert ledger.reads.account(dev.address, None)["sequence_number"] == "0"
    # The same transaction, signed and committed, costs what the simulation said.
    run(ledger, (dev, raw))
    committed = ledger.reads.account_transactions(dev.address, 0, 1)[0]
    assert committed["gas_used"] == result["gas_used"]
    assert committed["changes"] == result["changes"]


def test_simulation_reports_failures_in_the_transaction(ledger: Ledger) -> None:
    dev = ledger.dev_accounts[0]
    aborts = raw_call(ledger, dev, "0x1::ledger_demo::fail_if", [("u64", 7)])
    (result,), _ = ledger.simulate(unsigned(dev, aborts))
    assert (result["success"], result["vm_status"]) == (
        False,
        "Move abort in 0x1::ledger_demo: 0x7",
    )
    future = raw_call(ledger, dev, "0x1::ledger_demo::fail_if", [("u64", 0)], sequence=5)
    (result,), gas = ledger.simulate(unsigned(dev, future))
    assert (result["success"], result["vm_status"], gas) == (False, "SEQUENCE_NUMBER_TOO_NEW", 0)


def test_simulation_estimates_price_and_max_gas(ledger: Ledger) -> None:
    dev = ledger.dev_accounts[0]
    raw = raw_call(
        ledger,
        dev,
        "0x1::aptos_account::transfer",
        [("address", "0x1234"), ("u64", 5)],
        price=777,
        max_gas=50,
    )
    (plain,), _ = ledger.simulate(unsigned(dev, raw))
    assert (plain["gas_unit_price"], plain["max_gas_amount"]) == ("777", "50")
    estimate = ledger.estimate_gas_price()
    (priced,), _ = ledger.simulate(unsigned(dev, raw), estimate_gas_unit_price=True)
    assert priced["gas_unit_price"] == str(estimate["gas_estimate"])
    (prioritized,), _ = ledger.simulate(
        unsigned(dev, raw), estimate_gas_unit_price=True, estimate_prioritized_gas_unit_price=True
    )
    assert prioritized["gas_unit_price"] == str(estimate["prioritized_gas_estimate"])
    (maxed,), _ = ledger.simulate(unsigned(dev, raw), estimate_max_gas_amount=True)
    balance = ledger.reads.balance(dev.address, StructTag.parse(APT), None)
    # Capped by MAX_GAS_AMOUNT, 20,000,000 since aptos-core's tenfold change.
    assert maxed["max_gas_amount"] == str(min(balance // 777, 20_000_000))
    stranger = DevAccount.from_key(Ed25519PrivateKey.from_seed(b"stranger"))
    theirs = RawTransaction(
        stranger.address, 0, raw.payload, 100, 100, raw.expiration_timestamp_secs, raw.chain_id
    )
    with pytest.raises(NodeError) as info:
        ledger.simulate(unsigned(stranger, theirs), estimate_max_gas_amount=True)
    assert info.value.code is ErrorCode.INVALID_INPUT
    (result,), _ = ledger.simulate(unsigned(stranger, theirs))
    assert result["vm_status"] == "SENDING_ACCOUNT_DOES_NOT_EXIST"


# -- gas estimate -----------------------------------------------------------------------------


def test_gas_estimate_rises_with_full_blocks_and_falls_back(ledger: Ledger) -> None:
    assert ledger.estimate_gas_price() == {
        "deprioritized_gas_estimate": 100,
        "gas_estimate": 100,
        "prioritized_gas_estimate": 150,
    }
    other = ledger.dev_accounts[4]
    for n in range(16):
        # Each block: four batch transfers creating 40 accounts each. One such transfer
        # uses over 1,000 units of execution and IO gas (40 recipients, each read and
        # written: about 26 units), so four pass the block's 3,200.
        raws = []
        for d, dev in enumerate(ledger.dev_accounts[:4]):
            start = 0x10000 + n * 1000 + d * 100
            recipients = [Address.from_int(start + i).long for i in range(40)]
            amounts = [1_000] * len(recipients)
            call = raw_call(
                ledger,
                dev,
                "0x1::aptos_account::batch_transfer",
                [("vector<address>", recipients), ("vector<u64>", amounts)],
                price=1000,
                max_gas=100_000,
            )
            raws.append((dev, call))
        run(ledger, *raws)
        block = ledger.reads.block_by_height(ledger.meta().block_height, with_transactions=True)
        assert block["transactions"][-1]["block_end_info"]["block_gas_limit_reached"] is True
    busy = ledger.estimate_gas_price()
    assert busy["deprioritized_gas_estimate"] == 1001
    assert busy["gas_estimate"] == 1001
    assert busy["prioritized_gas_estimate"] > busy["gas_estimate"]
    for _ in range(25):  # quiet blocks again
        run(ledger, (other, raw_call(ledger, other, "0x1::ledger_demo::fail_if", [("u64", 0)])))
    calm = ledger.estimate_gas_price()
    assert calm["deprioritized_gas_estimate"] == calm["gas_estimate"] == 100
    assert calm["prioritized_gas_estimate"] <= busy["prioritized_gas_estimate"]


# -- encode_submission ------------------------------------------------------------------------


def test_encode_submission_is_the_signing_message(ledger: Ledger) -> None:
    dev = ledger.dev_accounts[0]
    request = {
        "sender": dev.address.short,
        "sequence_number": "3",
        "max_gas_amount": "1000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1900000000",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::coin::transfer",
            "type_arguments": [APT],
            "arguments": ["0x2", "10"],
        },
    }
    raw = RawTransaction(
        dev.address,
        3,
        EntryFunction.build("0x1::coin::transfer", [APT], [("address", "0x2"), ("u64", 10)]),
        1000,
        100,
        1_900_000_000,
        ledger.config.chain_id,
    )
    assert ledger.encode_submission(request) == raw.signing_message()
    secondary = [Address.from_int(5)]
    multi = ledger.encode_submission({**request, "secondary_signers": ["0x5"]})
    assert multi == MultiAgentRawTransaction(raw, tuple(secondary)).signing_message()
    with pytest.raises(NodeError) as info:
        ledger.encode_submission({**request, "gas_unit_price": "lots"})
    assert info.value.code is ErrorCode.INVALID_INPUT
