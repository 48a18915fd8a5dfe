"""A digital asset minted by the official Python SDK (``AptosTokenClient``), listed by
ledgerkit's ``account_assets`` from the node alone: its name, collection, URI and every
kind of property the SDK writes, rendered as text.

The token's address is derived by hand from the mint's hash (``SHA3-256(hash ‖ u64 1 ‖
0xFB)``), the collection's from its creator and name (``SHA3-256(creator ‖ name ‖
0xFE)``); the properties' text is written out from the values given to the SDK.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.aptos_token_client import AptosTokenClient, Property, PropertyMap
from aptos_sdk.async_client import RestClient

from ledgerkit import Client
from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

PAYEE = "0x" + "5e" * 32


def _sdk_account(dev_account: Any) -> Account:
    key = ed25519.PrivateKey.from_str(dev_account.private_key.secret_hex(), strict=False)
    return Account(AccountAddress.from_key(key.public_key()), key)


@pytest.fixture(scope="module")
def minted(make_node: Callable[..., LocalNode]) -> tuple[LocalNode, str, str]:
    node = make_node(seed=59, blocks=3, services=False)
    alice = _sdk_account(node.dev_accounts[0])
    properties = PropertyMap(
        [
            Property.bool("fresh", True),
            Property.u8("rank", 7),
            Property.u64("size", 2**64 - 1),
            Property.u128("weight", 2**128 - 1),
            Property.string("colour", "sea green"),
            Property.bytes("shape", b"\x01\x02\xff"),
            Property("payee", "address", AccountAddress.from_str(PAYEE)),
        ]
    )

    async def scenario() -> str:
        rest = RestClient(node.url)
        try:
            tokens = AptosTokenClient(rest)
            made = await tokens.create_collection(
                alice, "Sea things", 10, "Sea", "https://ex.org/sea",
                True, True, True, True, True, True, True, True, True, 0, 1,
            )  # fmt: skip
            await rest.wait_for_transaction(made)
            mint = await tokens.mint_token(
                alice, "Sea", "A shell", "Shell", "https://ex.org/shell", properties
            )
            await rest.wait_for_transaction(mint)
            return str(mint)
        finally:
            await rest.close()

    txn_hash = asyncio.run(asyncio.wait_for(scenario(), timeout=180))
    seed = bytes.fromhex(txn_hash[2:]) + (1).to_bytes(8, "little") + b"\xfb"
    token = "0x" + hashlib.sha3_256(seed).hexdigest()
    return node, str(alice.address()), token


def test_a_token_the_sdk_minted_is_listed_with_its_properties(
    minted: tuple[LocalNode, str, str],
) -> None:
    node, owner, token = minted
    collection = "0x" + hashlib.sha3_256(bytes.fromhex(owner[2:]) + b"Sea\xfe").hexdigest()
    with Client(node.url, cache=False) as client:
        held = [h for h in client.account_assets(owner, tokens=[token]) if h.kind == "token"]
    assert [(h.asset, h.name, h.collection, h.collection_id, h.uri, h.balance) for h in held] == [
        (token, "Shell", "Sea", collection, "https://ex.org/shell", 1)
    ]
    assert held[0].properties == {
        "fresh": "true",
        "rank": "7",
        "size": "18446744073709551615",
        "weight": "340282366920938463463374607431768211455",
        "colour": "sea green",
        "shape": "0x0102ff",
        "payee": PAYEE,
    }
