"""The Python SDK's ``examples/multisig.py`` against ``ledgerkit node`` started with no flags:
its sections up to the vanity account (a 2-of-3 multi-ed25519 account funded by the faucet
sends Chad 100 octas with ``0x1::coin::transfer``, signed by Alice and Bob). The sections
after it rotate an authentication key, publish packages with the CLI and run a Move script,
none of which this flow does.

The account's address is written out from the scheme: ``SHA3-256(pk_1 ‖ pk_2 ‖ pk_3 ‖
threshold ‖ 0x01)`` (multi-ed25519 is scheme 1), computed here with hashlib; balances are
read back over plain HTTP, the fee being the committed ``gas_used * gas_unit_price``.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ClientConfig, FaucetClient, RestClient
from aptos_sdk.authenticator import Authenticator, MultiEd25519Authenticator
from aptos_sdk.bcs import Serializer
from aptos_sdk.ed25519 import MultiPublicKey, MultiSignature
from aptos_sdk.transactions import (
    EntryFunction,
    RawTransaction,
    SignedTransaction,
    TransactionArgument,
    TransactionPayload,
)
from aptos_sdk.type_tag import StructTag, TypeTag
from cli_node import CliNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

NODE_URL: Final = "http://127.0.0.1:8080/v1"
FAUCET_URL: Final = "http://127.0.0.1:8081"
APT: Final = "0x1::aptos_coin::AptosCoin"
#: The examples' ``CLIENT_CONFIG``: at most 100,000 gas units at 100 octas a unit.
MAX_GAS: Final = 100_000


@pytest.fixture(scope="module")
def http(default_node: CliNode) -> Iterator[httpx.Client]:
    assert (default_node.node_url, default_node.faucet_url) == (NODE_URL, FAUCET_URL)
    with httpx.Client(base_url=NODE_URL, timeout=30.0) as client:
        yield client


def get(http: httpx.Client, path: str) -> Any:
    answer = http.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def balance(http: httpx.Client, address: object) -> int:
    return int(get(http, f"/accounts/{address}/balance/{APT}"))


async def sections_1_to_7() -> dict[str, Any]:
    """What the example does up to funding Deedee, with its clients and calls."""
    rest = RestClient(NODE_URL, client_config=ClientConfig(max_gas_amount=MAX_GAS))
    faucet = FaucetClient(FAUCET_URL, rest)
    try:
        alice, bob, chad = Account.generate(), Account.generate(), Account.generate()
        key = MultiPublicKey([alice.public_key(), bob.public_key(), chad.public_key()], 2)
        multisig = AccountAddress.from_key(key)
        await asyncio.gather(
            faucet.fund_account(alice.address(), 100_000_000),
            faucet.fund_account(bob.address(), 200_000_000),
            faucet.fund_account(chad.address(), 300_000_000),
            faucet.fund_account(multisig, 400_000_000),
        )
        call = EntryFunction.natural(
            module="0x1::coin",
            function="transfer",
            ty_args=[TypeTag(StructTag.from_str(APT))],
            args=[
                TransactionArgument(chad.address(), Serializer.struct),
                TransactionArgument(100, Serializer.u64),
            ],
        )
        raw = RawTransaction(
            sender=multisig,
            sequence_number=0,
            payload=TransactionPayload(call),
            max_gas_amount=rest.client_config.max_gas_amount,
            gas_unit_price=rest.client_config.gas_unit_price,
            expiration_timestamps_secs=int(time.time()) + rest.client_config.expiration_ttl,
            chain_id=await rest.chain_id(),
        )
        signatures = [(0, alice.sign(raw.keyed())), (1, bob.sign(raw.keyed()))]
        authenticator = Authenticator(MultiEd25519Authenticator(key, MultiSignature(signatures)))
        txn_hash = await rest.submit_bcs_transaction(SignedTransaction(raw, authenticator))
        await rest.wait_for_transaction(txn_hash)
        deedee = Account.generate()
        while str(deedee.address())[2:4] != "dd":
            deedee = Account.generate()
        await faucet.fund_account(deedee.address(), 500_000_000)
        return {
            "keys": [a.public_key().to_crypto_bytes() for a in (alice, bob, chad)],
            "owners": [str(a.address()) for a in (alice, bob, chad)],
            "multisig": str(multisig),
            "hash": txn_hash,
            "deedee": str(deedee.address()),
            "deedee_balance": await rest.account_balance(deedee.address()),
        }
    finally:
        await rest.close()


def test_a_two_of_three_multi_ed25519_account_sends_coins(http: httpx.Client) -> None:
    done = asyncio.run(asyncio.wait_for(sections_1_to_7(), timeout=240))
    expected = hashlib.sha3_256(b"".join(done["keys"]) + bytes([2, 1])).hexdigest()
    assert done["multisig"] == "0x" + expected
    txn = get(http, f"/transactions/by_hash/{done['hash']}")
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    assert txn["sender"] == done["multisig"]
    assert txn["signature"]["type"] == "multi_ed25519_signature"
    assert txn["signature"]["threshold"] == 2
    assert txn["payload"]["function"] == "0x1::coin::transfer"
    assert txn["payload"]["arguments"] == [done["owners"][2], "100"]
    fee = int(txn["gas_used"]) * int(txn["gas_unit_price"])
    alice, bob, chad = done["owners"]
    assert {
        "alice": balance(http, alice),
        "bob": balance(http, bob),
        "chad": balance(http, chad),
        "multisig": balance(http, done["multisig"]),
    } == {
        "alice": 100_000_000,
        "bob": 200_000_000,
        "chad": 300_000_100,
        "multisig": 400_000_000 - 100 - fee,
    }
    assert get(http, f"/accounts/{done['multisig']}")["sequence_number"] == "1"
    assert done["deedee"].startswith("0xdd")
    assert done["deedee_balance"] == 500_000_000
    assert balance(http, done["deedee"]) == 500_000_000
