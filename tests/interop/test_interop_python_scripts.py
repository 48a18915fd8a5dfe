"""A Move script sent with the official Python SDK: ``TransactionPayload(Script(code,
type_args, args))`` with ``ScriptArgument``s, signed by two accounts
(``create_multi_agent_bcs_transaction``) and committed by the embedded node.

The script is the assembler's ``two_signer_transfer`` (``tests/move/assembler/examples.py``:
``coin::transfer<CoinType>(a, signer::address_of(b), amount)``). Balances are read over
plain HTTP before and after; the fee is the committed ``gas_used * gas_unit_price``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ClientConfig, RestClient
from aptos_sdk.transactions import Script, ScriptArgument, TransactionPayload
from aptos_sdk.type_tag import StructTag, TypeTag
from move_examples import bytecode

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

APT: Final = "0x1::aptos_coin::AptosCoin"
AMOUNT: Final = 2_500


@pytest.fixture(scope="module")
def script_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of this module's own: its two signers are spent by nobody else."""
    return make_node(seed=32, blocks=2, services=False)


@pytest.fixture(scope="module")
def http(script_node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=script_node.url, timeout=30.0) as client:
        yield client


def sdk_account(dev: Any) -> Account:
    key = ed25519.PrivateKey.from_str(dev.private_key.secret_hex())
    return Account(AccountAddress.from_key(key.public_key()), key)


def balance(http: httpx.Client, address: str) -> int:
    answer = http.get(f"/accounts/{address}/balance/{APT}")
    assert answer.status_code == 200, answer.text
    return int(answer.json())


def test_a_two_signer_script(script_node: LocalNode, http: httpx.Client) -> None:
    alice, bob = (sdk_account(dev) for dev in script_node.dev_accounts[:2])
    a, b = str(alice.address()), str(bob.address())
    before = {a: balance(http, a), b: balance(http, b)}
    code = bytecode("two_signer_transfer", "0x1")
    payload = TransactionPayload(
        Script(
            code,
            [TypeTag(StructTag.from_str(APT))],
            [ScriptArgument(ScriptArgument.U64, AMOUNT)],
        )
    )

    async def send() -> dict[str, Any]:
        rest = RestClient(script_node.url, ClientConfig())
        try:
            signed = await rest.create_multi_agent_bcs_transaction(alice, [bob], payload)
            txn_hash = await rest.submit_bcs_transaction(signed)
            await rest.wait_for_transaction(txn_hash)
            txn: dict[str, Any] = await rest.transaction_by_hash(txn_hash)
            return txn
        finally:
            await rest.close()

    txn = asyncio.run(send())
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    assert txn["signature"]["type"] == "multi_agent_signature"
    assert txn["signature"]["secondary_signer_addresses"] == [b]
    payload_json = txn["payload"]
    assert payload_json["type"] == "script_payload"
    assert payload_json["code"]["bytecode"] == "0x" + code.hex()
    assert (payload_json["type_arguments"], payload_json["arguments"]) == ([APT], ["2500"])
    fee = int(txn["gas_used"]) * int(txn["gas_unit_price"])
    assert {a: balance(http, a), b: balance(http, b)} == {
        a: before[a] - AMOUNT - fee,
        b: before[b] + AMOUNT,
    }
