"""``simulate`` and ``submit_and_wait`` against the embedded node, on both clients: the
simulation's outcome, gas and fee, its balance changes worked out by hand from the
amount and the fee in the answer, decoded aborts, keys alone, multi-agent and fee-payer
transactions, the estimate flags, and a transfer submitted and committed."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Iterator
from typing import Any, Final

import pytest
from aptos_sdk.account_address import AccountAddress

from ledgerkit import InputError, TransactionNotFoundError
from ledgerkit.bcs import (
    EntryFunction,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
)
from ledgerkit.client import AsyncClient, Client
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import LocalNode
from ledgerkit.models import MultiAgentSignature, UserTransaction
from ledgerkit.tx import MoveAbort, Simulation, parse_abort
from ledgerkit.types import Address

APT_FA: Final = Address.from_int(0xA).long
#: The demo token's metadata: the named object of 0x1 with seed "ledgerkit::demo_token".
LDT: Final = str(
    AccountAddress.for_named_object(AccountAddress.from_str("0x1"), b"ledgerkit::demo_token")
)
SIGNER, RECIPIENT, PAYER, SUBMITTER = 4, 5, 6, 7


class AsyncTwin:
    """An AsyncClient on its own event loop, called like a Client."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.client: AsyncClient = self._run(self._make(url))

    @staticmethod
    async def _make(url: str) -> AsyncClient:
        return AsyncClient(url)

    def _run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.client, name)
        return lambda *args, **kwargs: self._run(method(*args, **kwargs))

    def close(self) -> None:
        self._run(self.client.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


@pytest.fixture(scope="module", params=["sync", "async"])
def client(request: pytest.FixtureRequest, node: LocalNode) -> Iterator[Any]:
    if request.param == "sync":
        with Client(node.url) as sync:
            yield sync
    else:
        twin = AsyncTwin(node.url)
        yield twin
        twin.close()


def dev(node: LocalNode, index: int) -> Any:
    return node.dev_accounts[index]


def raw_call(
    client: Any, node: LocalNode, function: str, args: list[Any], *, sender: int = SIGNER,
    type_args: tuple[str, ...] = (), max_gas: int = 200_000, price: int = 100,
) -> RawTransaction:  # fmt: skip
    account = dev(node, sender)
    sequence = client.account(account.address).value.sequence_number
    payload = EntryFunction.build(function, list(type_args), args)
    return RawTransaction(
        account.address, sequence, payload, max_gas, price, int(time.time()) + 600, 4
    )


def apt_transfer(client: Any, node: LocalNode, amount: int, **kw: Any) -> RawTransaction:
    to = dev(node, RECIPIENT).address
    args = [("address", to), ("u64", amount)]
    return raw_call(client, node, "0x1::aptos_account::transfer", args, **kw)


def test_a_coin_transfer_foretells_gas_fee_and_balance_changes(
    client: Any, node: LocalNode
) -> None:
    sender, recipient = dev(node, SIGNER), dev(node, RECIPIENT)
    before = client.account_balance(sender.address, "0x1::aptos_coin::AptosCoin").value
    sim = client.simulate(apt_transfer(client, node, 1_234), signer=sender.private_key)
    assert isinstance(sim, Simulation)
    assert sim.success, sim.vm_status
    assert sim.abort is None
    assert sim.gas_used > 0
    assert sim.gas_unit_price == 100
    assert sim.fee == sim.gas_used * 100
    assert sim.ledger.gas_used == sim.gas_used
    rows = sim.balance_changes[["address", "asset", "coin_type", "delta"]].to_dict("records")
    apt = {"asset": APT_FA, "coin_type": "0x1::aptos_coin::AptosCoin"}
    assert rows == [
        {"address": sender.address.long, **apt, "delta": -(1_234 + sim.gas_used * 100)},
        {"address": recipient.address.long, **apt, "delta": 1_234},
    ]
    # The deltas are numbers: compared with Python ints, summed to what left the accounts.
    delta = sim.balance_changes.set_index("address")["delta"]
    assert delta[sender.address.long] == -(1_234 + sim.gas_used * sim.gas_unit_price)
    assert (delta == 1_234).tolist() == [False, True]
    assert delta.sum() == -(sim.gas_used * 100)
    # Nothing was committed.
    assert client.account_balance(sender.address, "0x1::aptos_coin::AptosCoin").value == before
    assert sim.events["type"].tolist() == [
        "0x1::fungible_asset::Withdraw",
        "0x1::fungible_asset::Deposit",
        "0x1::transaction_fee::FeeStatement",
    ]
    assert len(sim.changes) == len(sim.transaction.changes) > 0


def test_a_fungible_asset_transfer_foretells_its_balance_changes(
    client: Any, node: LocalNode
) -> None:
    sender = dev(node, SIGNER)
    stranger = Ed25519PrivateKey.from_seed(b"a new LDT holder").address()
    args = [("address", LDT), ("address", stranger), ("u64", 77)]
    raw = raw_call(
        client, node, "0x1::primary_fungible_store::transfer", args,
        type_args=("0x1::fungible_asset::Metadata",),
    )  # fmt: skip
    sim = client.simulate(raw, public_key=sender.private_key.public_key)
    assert sim.success, sim.vm_status
    assert sim.balance_deltas == {
        (sender.address.long, Address.parse(LDT).long): -77,
        (stranger.long, Address.parse(LDT).long): 77,
        (sender.address.long, APT_FA): -sim.gas_used * 100,
    }


def test_an_abort_is_decoded(client: Any, node: LocalNode) -> None:
    sender = dev(node, SIGNER)
    balance = client.account_balance(sender.address, "0x1::aptos_coin::AptosCoin").value
    sim = client.simulate(apt_transfer(client, node, balance + 1), signer=sender.private_key)
    assert not sim.success
    assert sim.abort is not None
    assert (sim.abort.module, sim.abort.code, sim.abort.name) == (
        "0x1::fungible_asset",
        0x10004,
        "EINSUFFICIENT_BALANCE",
    )
    assert (sim.abort.category_name, sim.abort.reason) == ("INVALID_ARGUMENT", 4)
    # The failed transaction still pays its gas.
    assert sim.balance_deltas == {(sender.address.long, APT_FA): -sim.fee}


def test_fail_if_reads_as_its_module_declares_the_code(client: Any, node: LocalNode) -> None:
    # ledger_demo declares 2 as ESCORE_OVERFLOW: the node names the code by the module's
    # error map whichever function aborts with it, and the table reads it the same.
    raw = raw_call(client, node, "0x1::ledger_demo::fail_if", [("u64", 0x20002)])
    sim = client.simulate(raw, signer=dev(node, SIGNER).private_key)
    assert sim.vm_status == (
        "Move abort in 0x1::ledger_demo: ESCORE_OVERFLOW(0x20002): The score would overflow a u64"
    )
    expected = MoveAbort(
        "0x1::ledger_demo", 0x20002, "ESCORE_OVERFLOW", "The score would overflow a u64"
    )
    assert sim.abort == expected
    assert parse_abort("Move abort in 0x1::ledger_demo: 0x20002") == expected


def test_a_code_the_module_does_not_declare_stays_unnamed(client: Any, node: LocalNode) -> None:
    raw = raw_call(client, node, "0x1::ledger_demo::fail_if", [("u64", 42)])
    sim = client.simulate(raw, signer=dev(node, SIGNER).private_key)
    assert sim.vm_status == "Move abort in 0x1::ledger_demo: 0x2a"
    assert sim.abort == MoveAbort("0x1::ledger_demo", 42)


@pytest.mark.parametrize("form", ["object", "bytes", "hex"])
def test_a_public_key_alone_simulates(client: Any, node: LocalNode, form: str) -> None:
    public = dev(node, SIGNER).private_key.public_key
    key = {"object": public, "bytes": bytes(public), "hex": str(public)}[form]
    sim = client.simulate(apt_transfer(client, node, 5), public_key=key)
    assert sim.success, sim.vm_status
    assert sim.transaction.signature.signature == "0x" + "00" * 64  # type: ignore[union-attr]


def test_a_fee_payer_pays_the_foretold_fee(client: Any, node: LocalNode) -> None:
    sender, recipient, payer = dev(node, SIGNER), dev(node, RECIPIENT), dev(node, PAYER)
    message = FeePayerRawTransaction(apt_transfer(client, node, 300), (), payer.address)
    sim = client.simulate(message, signer=sender.private_key, fee_payer=payer.private_key)
    assert sim.success, sim.vm_status
    assert sim.fee_payer == payer.address.long
    assert sim.balance_deltas == {
        (sender.address.long, APT_FA): -300,
        (recipient.address.long, APT_FA): 300,
        (payer.address.long, APT_FA): -sim.gas_used * 100,
    }


def test_a_fee_payer_not_known_yet_is_simulated_without_fee(client: Any, node: LocalNode) -> None:
    sender, recipient = dev(node, SIGNER), dev(node, RECIPIENT)
    message = FeePayerRawTransaction(apt_transfer(client, node, 300), (), Address.from_int(0))
    sim = client.simulate(message, signer=sender.private_key)
    assert sim.success, sim.vm_status
    assert sim.balance_deltas == {
        (sender.address.long, APT_FA): -300,
        (recipient.address.long, APT_FA): 300,
    }


def test_a_multi_agent_transaction_simulates(client: Any, node: LocalNode) -> None:
    sender, second = dev(node, SIGNER), dev(node, RECIPIENT)
    fresh = Ed25519PrivateKey.from_seed(b"created in a simulation").address()
    raw = raw_call(client, node, "0x1::aptos_account::create_account", [("address", fresh)])
    message = MultiAgentRawTransaction(raw, (second.address,))
    sim = client.simulate(
        message, signer=sender.private_key, secondary_signers=[second.private_key]
    )
    assert sim.success, sim.vm_status
    assert isinstance(sim.transaction.signature, MultiAgentSignature)
    # A secondary key that is not the account's is refused as the node refuses it.
    wrong = client.simulate(
        message, signer=sender.private_key, secondary_signers=[Ed25519PrivateKey.from_seed(b"x")]
    )
    assert not wrong.success
    assert wrong.vm_status == "INVALID_AUTH_KEY"


def test_the_estimate_flags_report_the_values_run_with(client: Any, node: LocalNode) -> None:
    estimate = client.estimate_gas_price().value
    raw = apt_transfer(client, node, 9, price=estimate.gas_estimate + 17, max_gas=10_000)
    plain = client.simulate(raw, signer=dev(node, SIGNER).private_key)
    assert (plain.gas_unit_price, plain.max_gas_amount) == (estimate.gas_estimate + 17, 10_000)
    assert not plain.estimate_gas_unit_price
    estimated = client.simulate(
        raw,
        signer=dev(node, SIGNER).private_key,
        estimate_gas_unit_price=True,
        estimate_max_gas_amount=True,
    )
    assert estimated.estimate_gas_unit_price
    assert estimated.estimate_max_gas_amount
    assert not estimated.estimate_prioritized_gas_unit_price
    assert estimated.gas_unit_price == estimate.gas_estimate
    assert estimated.max_gas_amount != 10_000
    assert estimated.fee == estimated.gas_used * estimate.gas_estimate
    prioritized = client.simulate(
        raw, signer=dev(node, SIGNER).private_key, estimate_prioritized_gas_unit_price=True
    )
    assert prioritized.estimate_prioritized_gas_unit_price
    assert prioritized.gas_unit_price == estimate.prioritized_gas_estimate


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"signer": "not a key"},
        {"signer": Ed25519PrivateKey.from_seed(b"a"), "public_key": b"\x01" * 32},
        {"public_key": b"\x01" * 32, "estimate_gas_unit_price": "yes"},
    ],
)
def test_bad_simulate_input_is_an_input_error(
    client: Any, node: LocalNode, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(InputError):
        client.simulate(apt_transfer(client, node, 1), **kwargs)


def test_a_signed_transaction_takes_no_keys(client: Any, node: LocalNode) -> None:
    key = dev(node, SIGNER).private_key
    signed = key.sign_transaction(apt_transfer(client, node, 1))
    with pytest.raises(InputError):
        client.simulate(signed, signer=key)


def test_submit_and_wait_commits(client: Any, node: LocalNode) -> None:
    account, recipient = dev(node, SUBMITTER), dev(node, RECIPIENT)
    before = client.account_balance(recipient.address, "0x1::aptos_coin::AptosCoin").value
    raw = apt_transfer(client, node, 4_321, sender=SUBMITTER)
    sim = client.simulate(raw, signer=account.private_key)
    committed = client.submit_and_wait(account.private_key.sign_transaction(raw), timeout=30)
    assert isinstance(committed.value, UserTransaction)
    assert committed.value.success, committed.value.vm_status
    assert committed.value.hash == str(account.private_key.sign_transaction(raw).hash())
    assert committed.ledger.ledger_version >= committed.value.version
    after = client.account_balance(recipient.address, "0x1::aptos_coin::AptosCoin").value
    assert after == before + 4_321
    # The simulation foretold the gas the commit used.
    assert committed.value.gas_used == sim.gas_used


def test_submit_and_wait_returns_a_failed_execution(client: Any, node: LocalNode) -> None:
    account = dev(node, SUBMITTER)
    raw = raw_call(client, node, "0x1::ledger_demo::fail_if", [("u64", 7)], sender=SUBMITTER)
    committed = client.submit_and_wait(account.private_key.sign_transaction(raw))
    assert not committed.value.success
    assert committed.value.vm_status == "Move abort in 0x1::ledger_demo: 0x7"


def test_submit_and_wait_refuses_a_bad_timeout(client: Any, node: LocalNode) -> None:
    account = dev(node, SUBMITTER)
    signed = account.private_key.sign_transaction(apt_transfer(client, node, 1, sender=SUBMITTER))
    for timeout in (-1, float("nan"), float("inf"), "soon"):
        with pytest.raises(InputError):
            client.submit_and_wait(signed, timeout=timeout)
    # Nothing was sent.
    with pytest.raises(TransactionNotFoundError):
        client.transaction_by_hash(signed.hash())
