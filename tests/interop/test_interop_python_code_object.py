"""The official Python SDK's ``PackagePublisher`` publishes the assembler's counter to a
code object of the embedded node (``publish_package_to_object``), derives the object's
address itself, and upgrades it (``upgrade_package_object``): the function the upgrade
adds answers the SDK's view call.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from aptos_sdk import ed25519
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ClientConfig, RestClient
from aptos_sdk.package_publisher import PackagePublisher
from move_examples import examples_module, package_metadata

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def object_node(make_node: Callable[..., LocalNode]) -> LocalNode:
    return make_node(seed=35, blocks=2, services=False)


def with_version(address: str) -> bytes:
    """The counter with ``#[view] public fun version(): u64 { 2 }`` added."""
    builder = examples_module().counter(address)
    builder.function(
        "version", visibility="public", view=True, returns=["u64"], code=[("LdU64", 2), "Ret"]
    )
    data: bytes = builder.to_bytes()
    return data


def test_the_sdk_publishes_to_a_code_object_and_upgrades_it(object_node: LocalNode) -> None:
    dev = object_node.dev_accounts[0]
    key = ed25519.PrivateKey.from_str(dev.private_key.secret_hex())
    account = Account(AccountAddress.from_key(key.public_key()), key)

    async def scenario() -> tuple[str, list[dict[str, Any]], list[Any], dict[str, Any]]:
        rest = RestClient(object_node.url, ClientConfig())
        publisher = PackagePublisher(rest)
        try:
            obj = await publisher.derive_object_address(account.address())
            address = str(obj)
            metadata = package_metadata("counter", address)
            code = examples_module().EXAMPLES["counter"].bytecode(address)
            first = await publisher.publish_package_to_object(account, metadata, [code])
            await rest.wait_for_transaction(first)
            second = await publisher.upgrade_package_object(
                account, metadata, [with_version(address)], obj
            )
            await rest.wait_for_transaction(second)
            txns = [await rest.transaction_by_hash(h) for h in (first, second)]
            answer = json.loads(await rest.view(f"{address}::counter::version", [], []))
            registry = await rest.account_resource(obj, "0x1::code::PackageRegistry")
            return address, txns, answer, registry
        finally:
            await rest.close()

    address, txns, answer, registry = asyncio.run(scenario())
    assert [t["success"] for t in txns] == [True, True], [t["vm_status"] for t in txns]
    upgraded = [e["data"] for e in txns[1]["events"] if e["type"].endswith("::Upgrade")]
    assert upgraded == [{"object_address": address}]
    assert answer == ["2"]  # the SDK's view answers the JSON body's bytes
    (package,) = registry["data"]["packages"]
    assert (package["name"], package["upgrade_number"]) == ("Counter", "1")
