"""The official Python SDK reads the FeeStatement the embedded node ends every user
transaction with, and its default ``max_gas_amount`` (100,000) covers a transfer that
creates its recipient under the 2026 gas schedule.

The figures are worked out in tests/localnet/test_fee_statement.py from the schedule's
parameters: a transfer to an existing account of 264 bytes costs execution 48 and IO 49
gas units (96 in all); one that creates its recipient adds two state slots,
2 * 400,000 + 400 * (84 + 147 + 87 + 246) = 1,025,600 octas of storage.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Final

import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ClientConfig, RestClient
from aptos_sdk.bcs import Serializer
from aptos_sdk.transactions import EntryFunction, TransactionArgument, TransactionPayload

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

FEE: Final = "0x1::transaction_fee::FeeStatement"
FIELDS: Final = [
    "total_charge_gas_units",
    "execution_gas_units",
    "io_gas_units",
    "storage_fee_octas",
    "storage_fee_refund_octas",
]


@pytest.fixture(scope="module")
def fee_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of this module's own, so its dev accounts are spent by nobody else."""
    return make_node(seed=29, blocks=3, services=False)


def _account(dev_account: Any) -> Account:
    key = ed25519.PrivateKey.from_str(dev_account.private_key.secret_hex())
    return Account(AccountAddress.from_key(key.public_key()), key)


def _statement(txn: dict[str, Any]) -> dict[str, int]:
    last = txn["events"][-1]
    assert last["type"] == FEE
    assert last["guid"] == {"creation_number": "0", "account_address": "0x0"}
    assert sorted(last["data"]) == sorted(FIELDS)
    return {name: int(last["data"][name]) for name in FIELDS}


def test_the_sdk_reads_the_fee_statement_of_its_transfers(fee_node: LocalNode) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        rest = RestClient(fee_node.url, ClientConfig())
        try:
            assert rest.client_config.max_gas_amount == 100_000  # the SDK's default
            alice = _account(fee_node.dev_accounts[0])
            bob = _account(fee_node.dev_accounts[1])
            fresh = Account.generate()
            existing = await rest.bcs_transfer(alice, bob.address(), 1_000)
            await rest.wait_for_transaction(existing)
            created = await rest.bcs_transfer(alice, fresh.address(), 1_000)
            await rest.wait_for_transaction(created)
            raw = await rest.create_bcs_transaction(alice, _payload(bob))
            simulated = await rest.simulate_transaction(raw, alice)
            return (
                await rest.transaction_by_hash(existing),
                await rest.transaction_by_hash(created),
                simulated[0],
            )
        finally:
            await rest.close()

    existing, created, simulated = asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    assert existing["success"], existing["vm_status"]
    assert created["success"], created["vm_status"]
    plain = _statement(existing)
    assert plain == {
        "total_charge_gas_units": 96,
        "execution_gas_units": 48,
        "io_gas_units": 49,
        "storage_fee_octas": 0,
        "storage_fee_refund_octas": 0,
    }
    assert plain["total_charge_gas_units"] == int(existing["gas_used"])
    creating = _statement(created)
    assert creating["storage_fee_octas"] == 1_025_600
    assert creating["total_charge_gas_units"] == int(created["gas_used"]) == 10_354
    assert simulated["events"][-1]["type"] == FEE
    assert _statement(simulated)["total_charge_gas_units"] == int(simulated["gas_used"])


def _payload(recipient: Account) -> TransactionPayload:
    return TransactionPayload(
        EntryFunction.natural(
            "0x1::aptos_account",
            "transfer",
            [],
            [
                TransactionArgument(recipient.address(), Serializer.struct),
                TransactionArgument(5, Serializer.u64),
            ],
        )
    )
