"""An object's resources are one resource group: a change to any member lists them all.

On a node (aptos-core's ``api/types/src/convert.rs``), a write of an object's
``0x1::object::ObjectGroup`` slot is listed as one ``write_resource`` per member, in the
group's map order (struct tags: address, module name, struct name), each showing the
group's ``state_key_hash``; a deleted group is one ``delete_resource`` of
``0x1::object::ObjectGroup``. The members are the framework's
``#[resource_group_member(group = aptos_framework::object::ObjectGroup)]`` structs.

Expected lists are written out here from those member lists, and the group's state key
hash is built by hand from the ledger's ``StateKeyInner`` layout.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from test_ledger_executor import commit, transfer

from ledgerkit.bcs import Deserializer, deserialize_struct_tag
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address

STATE_KEY_SALT = hashlib.sha3_256(b"APTOS::StateKey").digest()
APT_METADATA = Address.from_int(0xA)
#: 0xa's members, in struct tag order: coin < fungible_asset < object; within
#: fungible_asset, ConcurrentSupply < Metadata.
APT_GROUP = [
    "0x1::coin::PairedCoinType",
    "0x1::fungible_asset::ConcurrentSupply",
    "0x1::fungible_asset::Metadata",
    "0x1::object::ObjectCore",
]
STORE_GROUP = ["0x1::fungible_asset::FungibleStore", "0x1::object::ObjectCore"]


def group_hash(address: Address) -> str:
    """The state key hash of ``address``'s ObjectGroup, from its BCS written out:
    AccessPath (0) · address · length · Path::ResourceGroup (2) · struct tag
    (address 0x1, "object", "ObjectGroup", no type arguments)."""
    tag = bytes(Address.from_int(1)) + b"\x06object" + b"\x0bObjectGroup" + b"\x00"
    path = b"\x02" + tag
    key = b"\x00" + bytes(address) + bytes([len(path)]) + path
    return "0x" + hashlib.sha3_256(STATE_KEY_SALT + key).hexdigest()


def store_of(owner: Address) -> Address:
    return Address(hashlib.sha3_256(bytes(owner) + bytes(APT_METADATA) + b"\xfc").digest())


def listed(txn: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (
            c["address"],
            c["data"]["type"] if c["type"] == "write_resource" else c["resource"],
            c["type"],
        )
        for c in txn["changes"]
    ]


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=21, blocks=5))
    yield opened
    opened.close()


def test_an_apt_transfer_lists_each_store_and_the_metadata_object_whole(ledger: Ledger) -> None:
    alice, bob = ledger.dev_accounts[:2]
    (txn,) = commit(ledger, transfer(ledger, alice, bob.address, 12_345))
    assert txn["success"], txn["vm_status"]
    # Each address with what it holds; the sender's Account (a plain resource) and the
    # fee's burn total at 0x1 beside the three groups.
    by_address = {
        Address.from_int(1): [("0x1::transaction_fee::BurnedFees", False)],
        APT_METADATA: [(t, True) for t in APT_GROUP],
        alice.address: [("0x1::account::Account", False)],
        store_of(alice.address): [(t, True) for t in STORE_GROUP],
        store_of(bob.address): [(t, True) for t in STORE_GROUP],
    }
    expected = [
        (address.standard, tag, "write_resource")
        for address in sorted(by_address, key=bytes)
        for tag, _ in by_address[address]
    ]
    assert listed(txn) == expected
    for change in txn["changes"]:
        address = Address.parse(change["address"])
        if address in (APT_METADATA, store_of(alice.address), store_of(bob.address)):
            assert change["state_key_hash"] == group_hash(address)
        else:
            assert change["state_key_hash"] != group_hash(address)
    # The members unchanged are written as they were: bob's store's core, 0xa's metadata.
    stored = {(c["address"], c["data"]["type"]): c["data"]["data"] for c in txn["changes"]}
    core = stored[(store_of(bob.address).standard, "0x1::object::ObjectCore")]
    assert core["owner"] == bob.address.standard
    assert core["allow_ungated_transfer"] is False
    assert stored[(APT_METADATA.standard, "0x1::fungible_asset::Metadata")]["symbol"] == "APT"


def test_a_transfer_to_a_new_address_creates_its_store_group(ledger: Ledger) -> None:
    alice = ledger.dev_accounts[0]
    fresh = Ed25519PrivateKey.from_seed(b"a fresh group").address()
    (txn,) = commit(ledger, transfer(ledger, alice, fresh, 5_000))
    assert txn["success"], txn["vm_status"]
    at_store = [c for c in txn["changes"] if c.get("address") == store_of(fresh).standard]
    assert [c["data"]["type"] for c in at_store] == STORE_GROUP
    assert {c["state_key_hash"] for c in at_store} == {group_hash(store_of(fresh))}
    assert at_store[1]["data"]["data"]["owner"] == fresh.standard


def test_the_bcs_write_set_holds_each_group_once_as_a_map_of_its_members(
    ledger: Ledger,
) -> None:
    alice, bob = ledger.dev_accounts[:2]
    (txn,) = commit(ledger, transfer(ledger, alice, bob.address, 777))
    onchain = ledger.transaction_data(txn).onchain
    assert onchain is not None
    groups = {}
    for key, op in onchain.changes.changes:
        if key.path[:1] == b"\x02":  # Path::ResourceGroup
            d = Deserializer(key.path[1:])
            assert str(deserialize_struct_tag(d)) == "0x1::object::ObjectGroup"
            assert key.address is not None
            groups[key.address] = op
    assert set(groups) == {APT_METADATA, store_of(alice.address), store_of(bob.address)}
    for address, op in groups.items():
        assert op.kind == "Modification"
        assert op.data is not None
        d = Deserializer(op.data)
        count = d.uleb128()
        tags = []
        for _ in range(count):
            tags.append(str(deserialize_struct_tag(d)))
            d.var_bytes()
        d.finish()
        assert tags == (APT_GROUP if address == APT_METADATA else STORE_GROUP)
    # One write per state item: three groups, the Account and the burn total.
    assert len(onchain.changes.changes) == 5
