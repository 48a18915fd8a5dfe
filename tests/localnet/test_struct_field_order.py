"""A Move struct's fields come out in name order, at every depth, as on a real node.

aptos-core's API renders a struct value as ``MoveStructValue``, a ``BTreeMap`` from field
name to value (api/types/src/move_types.rs), so its JSON lists the fields sorted by name,
nested structs too: the golden ``aptos_api__tests__transactions_test__test_get_transactions_
output_user_transaction_with_entry_function_payload.json`` (commit d8227862) writes an
``0x1::account::Account`` as ``authentication_key, coin_register_events, guid_creation_num,
...`` and its GUID as ``{"id": {"addr", "creation_num"}}`` where the module declares
``creation_num`` first. The orders below are written out from that golden and from the
framework's declarations; the envelopes around the values (a change, an event, a
transaction) keep their own order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from multisig_helpers import call, fund, inner_payload, new_multisig, view
from node_http_helpers import ok, run

from ledgerkit.keys import Account, Ed25519PrivateKey
from ledgerkit.localnet import LocalNode

#: The golden's ``0x1::account::Account`` keys, in its order (the module declares
#: ``authentication_key, sequence_number, guid_creation_num, coin_register_events, ...``).
ACCOUNT_KEYS: Final = [
    "authentication_key",
    "coin_register_events",
    "guid_creation_num",
    "key_rotation_events",
    "rotation_capability_offer",
    "sequence_number",
    "signer_capability_offer",
]
#: The golden's ``0x1::object::ObjectCore`` keys (declared ``guid_creation_num, owner,
#: allow_ungated_transfer, transfer_events``).
OBJECT_CORE_KEYS: Final = [
    "allow_ungated_transfer",
    "guid_creation_num",
    "owner",
    "transfer_events",
]
#: The golden's ``FeeStatement`` keys (declared with ``total_charge_gas_units`` first).
FEE_KEYS: Final = [
    "execution_gas_units",
    "io_gas_units",
    "storage_fee_octas",
    "storage_fee_refund_octas",
    "total_charge_gas_units",
]
#: ``0x1::multisig_account::MultisigTransaction``, declared ``payload, payload_hash, votes,
#: creator, creation_time_secs``.
MULTISIG_TXN_KEYS: Final = ["creation_time_secs", "creator", "payload", "payload_hash", "votes"]


def _unsorted(value: Any, where: str = "") -> list[str]:
    """Where in ``value`` an object's keys are not in name order."""
    found: list[str] = []
    if isinstance(value, dict):
        if list(value) != sorted(value):
            found.append(f"{where}: {list(value)}")
        for key, inner in value.items():
            found += _unsorted(inner, f"{where}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _unsorted(inner, f"{where}[{index}]")
    return found


class World:
    def __init__(self, node: LocalNode, http: httpx.Client) -> None:
        self.http = http
        self.sender: Any = node.dev_accounts[0]
        fresh = Ed25519PrivateKey.from_seed(b"fields in name order").address()
        self.created = run(
            http, self.sender, "0x1::aptos_account::create_account", [("address", fresh)]
        )
        self.block = ok(http.get(f"/transactions/by_version/{int(self.created['version']) - 1}"))
        self.owners = [Account.generate() for _ in range(3)]
        for owner in self.owners:
            fund(http, self.sender, owner.address, 100_000_000)
        self.multisig = new_multisig(http, self.owners)
        payload = inner_payload("0x1::aptos_account::transfer", ("address", fresh), ("u64", 1))
        self.proposed = call(
            http,
            self.owners[0],
            "create_transaction",
            ("address", self.multisig),
            ("vector<u8>", payload),
        )


@pytest.fixture(scope="module")
def world(make_node: Any) -> Iterator[World]:
    node: LocalNode = make_node(seed=47, blocks=2, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        yield World(node, http)


def test_a_resource_lists_its_fields_as_the_golden_does(world: World) -> None:
    sender = world.sender.address.standard
    account = ok(world.http.get(f"/accounts/{sender}/resource/0x1::account::Account"))
    assert list(account) == ["type", "data"]
    assert list(account["data"]) == ACCOUNT_KEYS
    guid = account["data"]["coin_register_events"]["guid"]["id"]
    assert list(guid) == ["addr", "creation_num"]
    changes = {c["data"]["type"]: c for c in world.created["changes"]}
    assert list(changes["0x1::account::Account"]["data"]["data"]) == ACCOUNT_KEYS
    assert list(changes["0x1::object::ObjectCore"]["data"]["data"]) == OBJECT_CORE_KEYS
    assert list(changes["0x1::object::ObjectCore"]) == ["address", "state_key_hash", "data", "type"]


def test_every_resource_of_every_account_is_in_name_order(world: World) -> None:
    places = ["0x1", "0xa", world.sender.address.standard, world.multisig]
    problems = []
    for place in places:
        for resource in ok(world.http.get(f"/accounts/{place}/resources")):
            assert list(resource) == ["type", "data"]
            problems += _unsorted(resource["data"], resource["type"])
    assert problems == []


def test_events_are_in_name_order_and_their_envelope_is_not(world: World) -> None:
    fee = world.created["events"][-1]
    assert list(fee) == ["guid", "sequence_number", "type", "data"]
    assert list(fee["data"]) == FEE_KEYS
    problems = []
    for txn in (world.block, world.created, world.proposed):
        for event in txn["events"]:
            assert list(event) == ["guid", "sequence_number", "type", "data"]
            problems += _unsorted(event["data"], event["type"])
        for change in txn["changes"]:
            problems += _unsorted(change.get("data", {}).get("data"), change["type"])
    assert problems == []
    # The transaction itself is not a Move struct: its keys keep the API's order.
    assert list(world.created)[:3] == ["version", "hash", "state_change_hash"]


def test_a_table_item_and_a_view_are_in_name_order(world: World) -> None:
    txn = world.proposed
    assert txn["success"], txn["vm_status"]
    (item,) = [c for c in txn["changes"] if c["type"] == "write_table_item"]
    assert list(item["data"]) == ["key", "key_type", "value", "value_type"]
    assert list(item["data"]["value"]) == MULTISIG_TXN_KEYS
    assert list(item["data"]["value"]["votes"]["data"][0]) == ["key", "value"]
    (found,) = view(world.http, "get_transaction", world.multisig, "1")
    assert list(found) == MULTISIG_TXN_KEYS
    assert found["creator"] == world.owners[0].address.standard
    body = {"key_type": "u64", "value_type": item["data"]["value_type"], "key": "1"}
    stored = ok(world.http.post(f"/tables/{item['handle']}/item", json=body))
    assert list(stored) == MULTISIG_TXN_KEYS
    assert stored["payload_hash"] == {"vec": []}
    assert stored["payload"]["vec"][0].startswith("0x00")
