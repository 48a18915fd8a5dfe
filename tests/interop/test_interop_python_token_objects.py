"""The official Python SDK's digital asset client (``aptos_sdk.aptos_token_client``)
against the embedded node: a collection, tokens (one soul-bound), a transfer, properties,
freezing and a burn, as its example program does them.

Expected values are written out or read over plain HTTP; token addresses are derived by
hand from the transaction hash (``SHA3-256(hash ‖ u64 1 ‖ 0xFB)``).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.aptos_token_client import AptosTokenClient, Property, PropertyMap, ReadObject
from aptos_sdk.async_client import RestClient

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(900)]

T = TypeVar("T")


def sdk_account(dev_account: Any) -> Account:
    key = ed25519.PrivateKey.from_str(dev_account.private_key.secret_hex(), strict=False)
    return Account(AccountAddress.from_key(key.public_key()), key)


def derived_token(txn_hash: str) -> str:
    seed = bytes.fromhex(txn_hash[2:]) + (1).to_bytes(8, "little") + b"\xfb"
    return "0x" + hashlib.sha3_256(seed).hexdigest()


@pytest.fixture(scope="module")
def token_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    return make_node(seed=31, blocks=3, services=False)


def run(node: LocalNode, scenario: Callable[[RestClient], Awaitable[T]]) -> T:
    async def main() -> T:
        rest = RestClient(node.url)
        try:
            return await asyncio.wait_for(scenario(rest), timeout=180)
        finally:
            await rest.close()

    return asyncio.run(main())


def test_the_token_client_runs_its_example_flow(token_node: LocalNode) -> None:
    alice = sdk_account(token_node.dev_accounts[0])
    bob = sdk_account(token_node.dev_accounts[1])
    collection = "0x" + hashlib.sha3_256(alice.address().address + b"Alice's" + b"\xfe").hexdigest()

    async def scenario(rest: RestClient) -> dict[str, Any]:
        tokens = AptosTokenClient(rest)
        out: dict[str, Any] = {}
        txn = await tokens.create_collection(
            alice, "Alice's simple collection", 1, "Alice's", "https://aptos.dev",
            True, True, True, True, True, True, True, True, True, 0, 1,
        )  # fmt: skip
        await rest.wait_for_transaction(txn)
        out["collection"] = await tokens.read_object(AccountAddress.from_str(collection))
        minted = await tokens.mint_token(
            alice,
            "Alice's",
            "Alice's simple token",
            "Alice's first token",
            "https://aptos.dev/img/nyan.jpeg",
            PropertyMap([Property.string("string", "string value")]),
        )
        await rest.wait_for_transaction(minted)
        found = await tokens.tokens_minted_from_transaction(minted)
        out["minted"], out["hash"] = [str(a) for a in found], minted
        token = found[0]
        out["token"] = await tokens.read_object(token)
        for step in (
            tokens.add_token_property(alice, token, Property.bool("test", False)),
            tokens.add_token_property(alice, token, Property.u8("u8", 7)),
            tokens.remove_token_property(alice, token, "string"),
            tokens.update_token_property(alice, token, Property.bool("test", True)),
            tokens.transfer_token(alice, token, bob.address()),
            tokens.freeze_token(alice, token),
        ):
            await rest.wait_for_transaction(await step)
        out["after"] = await tokens.read_object(token)
        # Frozen: Bob cannot send it back (the SDK's wait raises on a failed transaction).
        refused = await tokens.transfer_token(bob, token, alice.address())
        while await rest.transaction_pending(refused):  # bounded by the scenario's timeout
            await asyncio.sleep(0.2)
        out["refused"] = await rest.transaction_by_hash(refused)
        await rest.wait_for_transaction(await tokens.unfreeze_token(alice, token))
        await rest.wait_for_transaction(await tokens.transfer_token(bob, token, alice.address()))
        await rest.wait_for_transaction(await tokens.burn_token(alice, token))
        out["burnt"] = await tokens.client.account_resources(token)
        return out

    async def soul_bound(rest: RestClient) -> Any:
        tokens = AptosTokenClient(rest)
        txn = await tokens.create_collection(
            alice, "Soul", 5, "Soul", "https://aptos.dev",
            False, False, False, False, False, False, False, False, False, 0, 1,
        )  # fmt: skip
        await rest.wait_for_transaction(txn)
        minted = await tokens.mint_soul_bound_token(
            alice,
            "Soul",
            "Bound",
            "Bound token",
            "https://aptos.dev",
            PropertyMap([]),
            bob.address(),
        )
        await rest.wait_for_transaction(minted)
        token = (await tokens.tokens_minted_from_transaction(minted))[0]
        return str(token), await tokens.read_object(token)

    out = run(token_node, scenario)
    assert out["minted"] == [derived_token(out["hash"])]
    read: ReadObject = out["collection"]
    kinds = {cls.struct_tag for cls in read.resources}
    assert kinds == {
        "0x1::object::ObjectCore",
        "0x4::collection::Collection",
        "0x4::royalty::Royalty",
    }
    token_read: ReadObject = out["token"]
    by_tag = {cls.struct_tag: value for cls, value in token_read.resources.items()}
    assert by_tag["0x4::token::Token"].description == "Alice's simple token"
    assert by_tag["0x4::token::Token"].uri == "https://aptos.dev/img/nyan.jpeg"
    assert str(by_tag["0x4::token::Token"].collection) == collection
    assert str(by_tag["0x1::object::ObjectCore"].owner) == str(alice.address())
    props = by_tag["0x4::property_map::PropertyMap"].properties
    assert [(p.name, p.property_type, p.value) for p in props] == [
        ("string", "0x1::string::String", "string value")
    ]
    after = {cls.struct_tag: value for cls, value in out["after"].resources.items()}
    assert str(after["0x1::object::ObjectCore"].owner) == str(bob.address())
    assert after["0x1::object::ObjectCore"].allow_ungated_transfer is False
    # "string" removed: the last entry ("u8") moved into its place.
    assert [(p.name, p.value) for p in after["0x4::property_map::PropertyMap"].properties] == [
        ("u8", 7),
        ("test", True),
    ]
    refused = out["refused"]
    assert refused["success"] is False
    assert refused["vm_status"].startswith(
        "Move abort in 0x1::object: ENO_UNGATED_TRANSFERS(0x50003)"
    )
    assert out["burnt"] == []

    token, bound = run(token_node, soul_bound)
    core = {cls.struct_tag: value for cls, value in bound.resources.items()}[
        "0x1::object::ObjectCore"
    ]
    assert str(core.owner) == str(bob.address())
    assert core.allow_ungated_transfer is False
    with httpx.Client(base_url=token_node.url, timeout=30.0) as http:
        answer = http.post(
            "/view",
            json={
                "function": "0x1::object::owner",
                "type_arguments": ["0x4::token::Token"],
                "arguments": [token],
            },
        )
    assert answer.json() == [str(bob.address())]
