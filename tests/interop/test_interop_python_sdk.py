"""The official Python SDK (aptos-sdk) against the embedded node: it reads, pages, simulates,
submits and waits as it would against a public node.

Every expected value comes from a plain HTTP read of the node or is written out; the SDK's
answers are never compared with themselves.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import httpx
import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import RestClient
from aptos_sdk.bcs import Serializer
from aptos_sdk.transactions import (
    EntryFunction,
    SignedTransaction,
    TransactionArgument,
    TransactionPayload,
)

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(900)]

T = TypeVar("T")

APT: Final = "0x1::aptos_coin::AptosCoin"
#: A dev account's genesis balance in octas: one million APT.
GENESIS_BALANCE: Final = 100_000_000_000_000
CHAIN_ID: Final = 4


def run(node: LocalNode, scenario: Callable[[RestClient], Awaitable[T]]) -> T:
    """Run ``scenario`` with a fresh SDK client, as a user's script would."""

    async def main() -> T:
        rest = RestClient(node.url)
        try:
            return await asyncio.wait_for(scenario(rest), timeout=120)
        finally:
            await rest.close()

    return asyncio.run(main())


def sdk_account(dev_account: Any, *, aip80: bool = False) -> Account:
    secret = dev_account.private_key.secret_hex()
    text = f"ed25519-priv-{secret}" if aip80 else secret
    key = ed25519.PrivateKey.from_str(text, strict=aip80)
    return Account(AccountAddress.from_key(key.public_key()), key)


def raw_balance(http: httpx.Client, address: object) -> int:
    answer = http.get(f"/accounts/{address}/balance/{APT}")
    assert answer.status_code == 200, answer.text
    return int(answer.json())


def raw(http: httpx.Client, path: str, **params: Any) -> Any:
    answer = http.get(path, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def transfer_payload(recipient: AccountAddress, amount: int) -> TransactionPayload:
    return TransactionPayload(
        EntryFunction.natural(
            "0x1::aptos_account",
            "transfer",
            [],
            [
                TransactionArgument(recipient, Serializer.struct),
                TransactionArgument(amount, Serializer.u64),
            ],
        )
    )


# -- reads -----------------------------------------------------------------------------------


def test_ledger_info_and_chain_id(node: LocalNode, http: httpx.Client) -> None:
    async def scenario(rest: RestClient) -> tuple[dict[str, str], int]:
        return await rest.info(), await rest.chain_id()

    info, chain_id = run(node, scenario)

    assert chain_id == CHAIN_ID
    expected = raw(http, "/")
    # Other tests add blocks, and the chain clock moves the epoch on.
    moving = {"epoch", "ledger_version", "ledger_timestamp", "block_height"}
    assert {k: v for k, v in info.items() if k not in moving} == {
        k: v for k, v in expected.items() if k not in moving
    }
    assert info["chain_id"] == CHAIN_ID
    assert info["node_role"] == "full_node"
    assert 0 < int(info["ledger_version"]) <= int(expected["ledger_version"])


def test_account_and_its_resources(node: LocalNode, http: httpx.Client, dev: list[Any]) -> None:
    reader = dev[7]

    async def scenario(rest: RestClient) -> dict[str, Any]:
        address = AccountAddress.from_str(str(reader.address))
        return {
            "account": await rest.account(address),
            "sequence_number": await rest.account_sequence_number(address),
            "resource": await rest.account_resource(address, "0x1::account::Account"),
            "resources_0x1": await rest.account_resources(AccountAddress.from_str("0x1")),
        }

    got = run(node, scenario)

    assert got["account"] == {
        "sequence_number": "0",
        "authentication_key": str(reader.address),
    }
    assert got["sequence_number"] == 0
    assert got["resource"]["type"] == "0x1::account::Account"
    assert got["resource"]["data"]["authentication_key"] == str(reader.address)
    expected = [r["type"] for r in raw(http, "/accounts/0x1/resources")]
    assert [r["type"] for r in got["resources_0x1"]] == expected
    assert "0x1::chain_id::ChainId" in expected


def test_pages_of_transactions_events_and_modules(
    node: LocalNode, http: httpx.Client, busy_sender: str
) -> None:
    block_resource = raw(http, "/accounts/0x1/resource/0x1::block::BlockResource")
    creation_number = int(block_resource["data"]["new_block_events"]["guid"]["id"]["creation_num"])

    async def scenario(rest: RestClient) -> dict[str, Any]:
        sender = AccountAddress.from_str(busy_sender)
        framework = AccountAddress.from_str("0x1")
        return {
            "transactions": [
                await rest.transactions(limit=5, start=1),
                await rest.transactions(limit=5, start=6),
            ],
            "account_transactions": [
                await rest.transactions_by_account(sender, limit=1, start=0),
                await rest.transactions_by_account(sender, limit=1, start=1),
            ],
            "events_by_creation_number": [
                await rest.event_by_creation_number(framework, creation_number, limit=3, start=0),
                await rest.event_by_creation_number(framework, creation_number, limit=3, start=3),
            ],
            "events_by_handle": [
                await rest.events_by_event_handle(
                    framework, "0x1::block::BlockResource", "new_block_events", limit=3, start=s
                )
                for s in (0, 3)
            ],
            "modules": await rest.account_modules(framework, limit=5),
        }

    got = run(node, scenario)

    assert [[t["version"] for t in page] for page in got["transactions"]] == [
        ["1", "2", "3", "4", "5"],
        ["6", "7", "8", "9", "10"],
    ]
    assert [[t["sequence_number"] for t in page] for page in got["account_transactions"]] == [
        ["0"],
        ["1"],
    ]
    assert {t["sender"] for page in got["account_transactions"] for t in page} == {busy_sender}
    expected_events = raw(
        http, "/accounts/0x1/events/0x1::block::BlockResource/new_block_events", start=0, limit=6
    )
    assert [e["sequence_number"] for e in expected_events] == ["0", "1", "2", "3", "4", "5"]
    for name in ("events_by_creation_number", "events_by_handle"):
        pages = got[name]
        assert [len(page) for page in pages] == [3, 3], name
        assert [e for page in pages for e in page] == expected_events, name
    # The SDK's module listing takes a limit but hands back no cursor: one page only.
    expected_modules = [m["abi"]["name"] for m in raw(http, "/accounts/0x1/modules")]
    assert [m["abi"]["name"] for m in got["modules"]] == expected_modules[:5]


def test_transaction_by_version_and_by_hash(
    node: LocalNode, http: httpx.Client, busy_sender: str
) -> None:
    first = raw(http, f"/accounts/{busy_sender}/transactions", start=0, limit=1)[0]
    version, txn_hash = int(first["version"]), first["hash"]

    async def scenario(rest: RestClient) -> tuple[dict[str, Any], dict[str, Any]]:
        return await rest.transaction_by_version(version), await rest.transaction_by_hash(txn_hash)

    by_version, by_hash = run(node, scenario)

    assert by_version == first
    assert by_hash == first
    assert by_version["type"] == "user_transaction"
    assert by_version["hash"] == txn_hash


def test_view_functions(node: LocalNode, dev: list[Any]) -> None:
    reader = dev[7]

    async def scenario(rest: RestClient) -> dict[str, Any]:
        address = AccountAddress.from_str(str(reader.address))
        return {
            "view_json": json.loads(await rest.view("0x1::coin::balance", [APT], [str(address)])),
            "chain_id": json.loads(await rest.view("0x1::chain_id::get", [], [])),
            # account_balance sends the view as BCS (application/x.aptos.view_function+bcs).
            "balance_bcs_view": await rest.account_balance(address),
        }

    got = run(node, scenario)

    assert got == {
        "view_json": [str(GENESIS_BALANCE)],
        "chain_id": [CHAIN_ID],
        "balance_bcs_view": GENESIS_BALANCE,
    }


# -- writes ----------------------------------------------------------------------------------


def test_build_simulate_sign_submit_wait(
    node: LocalNode, http: httpx.Client, dev: list[Any]
) -> None:
    sender, recipient = sdk_account(dev[0]), AccountAddress.from_str(str(dev[1].address))
    amount = 123_456
    sender_before = raw_balance(http, sender.address())
    recipient_before = raw_balance(http, recipient)
    sequence_before = int(raw(http, f"/accounts/{sender.address()}")["sequence_number"])

    async def scenario(rest: RestClient) -> dict[str, Any]:
        raw_txn = await rest.create_bcs_transaction(sender, transfer_payload(recipient, amount))
        simulated = await rest.simulate_transaction(raw_txn, sender)
        estimated = await rest.simulate_transaction(raw_txn, sender, estimate_gas_usage=True)
        signed = SignedTransaction(raw_txn, sender.sign_transaction(raw_txn))
        txn_hash = await rest.submit_bcs_transaction(signed)
        await rest.wait_for_transaction(txn_hash)
        return {
            "raw": raw_txn,
            "simulated": simulated,
            "estimated": estimated,
            "hash": txn_hash,
            "committed": await rest.transaction_by_hash(txn_hash),
            "balance_after": await rest.account_balance(sender.address()),
        }

    got = run(node, scenario)

    assert got["raw"].sequence_number == sequence_before
    assert got["raw"].chain_id == CHAIN_ID
    for name in ("simulated", "estimated"):
        [simulation] = got[name]
        assert simulation["success"] is True, (name, simulation["vm_status"])
        assert simulation["vm_status"] == "Executed successfully"
        assert int(simulation["gas_used"]) > 0
    committed = raw(http, f"/transactions/by_hash/{got['hash']}")
    assert got["committed"] == committed
    assert committed["type"] == "user_transaction"
    assert committed["success"] is True, committed["vm_status"]
    assert committed["sender"] == str(sender.address())
    assert committed["sequence_number"] == str(sequence_before)
    assert committed["payload"]["function"] == "0x1::aptos_account::transfer"
    assert committed["payload"]["arguments"] == [str(recipient), str(amount)]
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert raw_balance(http, recipient) == recipient_before + amount
    assert raw_balance(http, sender.address()) == sender_before - amount - fee
    assert got["balance_after"] == sender_before - amount - fee
    assert raw(http, f"/accounts/{sender.address()}")["sequence_number"] == str(sequence_before + 1)


def test_transfer_with_an_aip80_key(node: LocalNode, http: httpx.Client, dev: list[Any]) -> None:
    sender = sdk_account(dev[5], aip80=True)
    assert str(sender.address()) == str(dev[5].address)
    recipient = AccountAddress.from_str(str(dev[6].address))
    recipient_before = raw_balance(http, recipient)

    async def scenario(rest: RestClient) -> str:
        txn_hash = await rest.bcs_transfer(sender, recipient, 777)
        await rest.wait_for_transaction(txn_hash)
        return txn_hash

    txn_hash = run(node, scenario)

    committed = raw(http, f"/transactions/by_hash/{txn_hash}")
    assert committed["success"] is True, committed["vm_status"]
    assert committed["sender"] == str(dev[5].address)
    assert raw_balance(http, recipient) == recipient_before + 777


def test_secp256k1_single_key_account(node: LocalNode, http: httpx.Client, dev: list[Any]) -> None:
    """The SDK signs a secp256k1 account's transactions with a SingleKey authenticator; the
    node verifies it (SHA3-256 prehash, low-S) as a public node does."""
    funder = sdk_account(dev[1])
    fresh = Account.generate_secp256k1_ecdsa()
    recipient = AccountAddress.from_str(str(dev[0].address))
    funding, amount = 1_000_000_000, 4321

    async def scenario(rest: RestClient) -> dict[str, Any]:
        await rest.wait_for_transaction(await rest.bcs_transfer(funder, fresh.address(), funding))
        recipient_before = await rest.account_balance(recipient)
        raw_txn = await rest.create_bcs_transaction(fresh, transfer_payload(recipient, amount))
        simulated = await rest.simulate_transaction(raw_txn, fresh)
        signed = SignedTransaction(raw_txn, fresh.sign_transaction(raw_txn))
        txn_hash = await rest.submit_bcs_transaction(signed)
        await rest.wait_for_transaction(txn_hash)
        return {"simulated": simulated, "hash": txn_hash, "recipient_before": recipient_before}

    got = run(node, scenario)

    [simulation] = got["simulated"]
    assert simulation["success"] is True, simulation["vm_status"]
    committed = raw(http, f"/transactions/by_hash/{got['hash']}")
    assert committed["success"] is True, committed["vm_status"]
    assert committed["sender"] == str(fresh.address())
    assert committed["signature"]["type"] == "single_sender"
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert raw_balance(http, fresh.address()) == funding - amount - fee
    assert raw_balance(http, recipient) == got["recipient_before"] + amount
