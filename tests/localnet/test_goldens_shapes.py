"""The node's JSON beside what aptos-core's own API tests record.

The expected values are written out here from aptos-core's goldens (``api/goldens/*.json``,
the answers its API tests pin) and from its tests that assert on live JSON, never taken
from this node. What legitimately differs is set aside: hashes, addresses, gas figures
(the goldens run at gas unit price 0, so no fee moves and no store is charged) and the
genesis-dependent handle numbers of ``0x1``.

Real nodes order a Move struct's fields by name (the API's ``MoveStructValue`` is a sorted
map), and so does this node (``test_struct_field_order.py``). The node differs where written
out below: it keeps an
``0x1::account::Account`` resource for every account it creates (aptos-core now creates it
lazily, at an account's first transaction), and it leaves out ``state_checkpoint_hash``
where real nodes write ``null`` (the reference schema has it optional and not nullable).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Final, cast

import httpx
import pytest
from move_value_kinds import Declared
from multisig_helpers import fund, new_multisig
from node_http_helpers import is_address, is_hash, is_u64, ok, run
from test_node_reference_schemas import check, load_reference
from token_object_helpers import create_collection, mint, resources

from ledgerkit.keys import Account, Ed25519PrivateKey
from ledgerkit.localnet import LocalNode

#: The commit of aptos-core's golden read for the expectations below:
#: api/goldens/aptos_api__tests__transactions_test__test_get_transactions_output_
#: user_transaction_with_entry_function_payload.json.
ENTRY_FUNCTION_GOLDEN: Final = "d8227862cae984978f8acc3cbe986cdeccf55065"

#: The golden's user transaction's keys, in its order.
USER_TXN_KEYS: Final = [
    "version",
    "hash",
    "state_change_hash",
    "event_root_hash",
    "state_checkpoint_hash",
    "gas_used",
    "success",
    "vm_status",
    "accumulator_root_hash",
    "changes",
    "sender",
    "sequence_number",
    "max_gas_amount",
    "gas_unit_price",
    "expiration_timestamp_secs",
    "payload",
    "signature",
    "events",
    "timestamp",
    "type",
]
#: The golden's block metadata transaction's keys, in its order.
BLOCK_TXN_KEYS: Final = [
    "version",
    "hash",
    "state_change_hash",
    "event_root_hash",
    "state_checkpoint_hash",
    "gas_used",
    "success",
    "vm_status",
    "accumulator_root_hash",
    "changes",
    "id",
    "epoch",
    "round",
    "events",
    "previous_block_votes_bitvec",
    "proposer",
    "failed_proposer_indices",
    "timestamp",
    "type",
]
#: The golden's ``0x1::block::NewBlockEvent`` data keys (``hash`` blanked there).
NEW_BLOCK_EVENT_KEYS: Final = {
    "epoch",
    "failed_proposer_indices",
    "hash",
    "height",
    "previous_block_votes_bitvec",
    "proposer",
    "round",
    "time_microseconds",
}
#: The golden's ``0x1::block::BlockResource`` data keys.
BLOCK_RESOURCE_KEYS: Final = {
    "epoch_interval",
    "height",
    "new_block_events",
    "update_epoch_interval_events",
}
FEE: Final = "0x1::transaction_fee::FeeStatement"
#: The golden's FeeStatement data keys.
FEE_KEYS: Final = {
    "execution_gas_units",
    "io_gas_units",
    "storage_fee_octas",
    "storage_fee_refund_octas",
    "total_charge_gas_units",
}
APT_METADATA: Final = bytes(31) + b"\x0a"
OBJECT_GUID_START: Final = 1125899906842624  # the golden's transfer_events creation_num


def golden_account(address: str, authentication_key: str, sequence_number: str) -> Any:
    """The golden's sender ``0x1::account::Account`` (``0xa550c18`` there), its address,
    key and sequence number put in."""
    return {
        "authentication_key": authentication_key,
        "coin_register_events": {
            "counter": "0",
            "guid": {"id": {"addr": address, "creation_num": "0"}},
        },
        "guid_creation_num": "2",
        "key_rotation_events": {
            "counter": "0",
            "guid": {"id": {"addr": address, "creation_num": "1"}},
        },
        "rotation_capability_offer": {"for": {"vec": []}},
        "sequence_number": sequence_number,
        "signer_capability_offer": {"for": {"vec": []}},
    }


def golden_store_group(owner: str, store: str) -> list[tuple[str, Any]]:
    """The golden's writes at the new account's APT primary store (``0xa5a7…ef61`` there),
    in its order: the store, then its object."""
    return [
        (
            "0x1::fungible_asset::FungibleStore",
            {"balance": "0", "frozen": False, "metadata": {"inner": "0xa"}},
        ),
        (
            "0x1::object::ObjectCore",
            {
                "allow_ungated_transfer": False,
                "guid_creation_num": str(OBJECT_GUID_START + 1),
                "owner": owner,
                "transfer_events": {
                    "counter": "0",
                    "guid": {"id": {"addr": store, "creation_num": str(OBJECT_GUID_START)}},
                },
            },
        ),
    ]


def primary_store(owner: str) -> str:
    """``SHA3-256(owner ‖ 0xa ‖ 0xFC)``, the APT primary store's address."""
    seed = bytes.fromhex(owner[2:].rjust(64, "0")) + APT_METADATA + b"\xfc"
    return "0x" + hashlib.sha3_256(seed).hexdigest()


class World:
    def __init__(self, node: LocalNode, http: httpx.Client) -> None:
        self.node, self.http = node, http
        # A funded dev account, passed to functions typed for either kind of account.
        self.sender: Any = cast(Any, node.dev_accounts[0])
        self.fresh = Ed25519PrivateKey.from_seed(b"an account the golden makes").address()
        account = ok(http.get(f"/accounts/{self.sender.address}"))
        self.sequence = int(account["sequence_number"])
        self.created = run(
            http,
            self.sender,
            "0x1::aptos_account::create_account",
            [("address", self.fresh)],
        )
        self.block = ok(http.get(f"/transactions/by_version/{int(self.created['version']) - 1}"))


@pytest.fixture(scope="module")
def world(make_node: Any) -> Iterator[World]:
    node: LocalNode = make_node(seed=43, blocks=2, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        yield World(node, http)


def _writes(txn: dict[str, Any]) -> list[tuple[str, str, Any]]:
    return [
        (c["address"], c["data"]["type"], c["data"]["data"])
        for c in txn["changes"]
        if c["type"] == "write_resource"
    ]


def test_create_account_writes_the_golden_s_resources(world: World) -> None:
    txn, sender, fresh = world.created, world.sender.address.standard, world.fresh.standard
    assert txn["success"], txn["vm_status"]
    public_key = world.sender.private_key.public_key_bytes
    auth_key = "0x" + hashlib.sha3_256(public_key + b"\x00").hexdigest()
    writes = _writes(txn)
    (sender_account,) = (d for a, t, d in writes if (a, t) == (sender, "0x1::account::Account"))
    assert sender_account == golden_account(sender, auth_key, str(world.sequence + 1))
    store = primary_store(fresh)
    at_store = [(t, d) for a, t, d in writes if a == store]
    assert at_store == golden_store_group(fresh, store)  # both there, in the golden's order
    # Resource-group members are separate write_resource entries, as the golden lists them,
    # each with the golden's keys in its order.
    assert {c["type"] for c in txn["changes"]} == {"write_resource"}
    for change in txn["changes"]:
        assert list(change) == ["address", "state_key_hash", "data", "type"]
        assert list(change["data"]) == ["type", "data"]
        assert is_address(change["address"])
        assert is_hash(change["state_key_hash"])
    # A write set is ordered by state key, so by address first (0xa550c18 before 0xa5a7… in
    # the golden).
    addresses = [int(c["address"], 16) for c in txn["changes"]]
    assert addresses == sorted(addresses)


def test_create_account_writes_nothing_else_but_the_fee_and_the_new_account(
    world: World,
) -> None:
    """Beyond the golden's writes: the fee's (burnt from the sender's store, the supply
    and the burn total, since the node's gas price is not 0; the store and the supply
    with the other members of their objects' groups) and the new account's ``Account``,
    which aptos-core leaves to the account's first transaction."""
    sender, fresh = world.sender.address.standard, world.fresh.standard
    store = primary_store(fresh)
    golden = {(sender, "0x1::account::Account")} | {
        (store, t) for t, _ in golden_store_group(fresh, store)
    }
    extra = {(a, t) for a, t, _ in _writes(world.created)} - golden
    assert extra == {
        ("0x1", "0x1::transaction_fee::BurnedFees"),
        ("0xa", "0x1::coin::PairedCoinType"),
        ("0xa", "0x1::fungible_asset::ConcurrentSupply"),
        ("0xa", "0x1::fungible_asset::Metadata"),
        ("0xa", "0x1::object::ObjectCore"),
        (primary_store(sender), "0x1::fungible_asset::FungibleStore"),
        (primary_store(sender), "0x1::object::ObjectCore"),
        (fresh, "0x1::account::Account"),
    }


def test_create_account_transaction_has_the_golden_s_fields(world: World) -> None:
    txn = world.created
    missing = ["state_checkpoint_hash"]  # real nodes write null; the node leaves it out
    assert list(txn) == [k for k in USER_TXN_KEYS if k not in missing]
    assert txn["payload"] == {
        "function": "0x1::aptos_account::create_account",
        "type_arguments": [],
        "arguments": [world.fresh.standard],
        "type": "entry_function_payload",
    }
    assert list(txn["signature"]) == ["public_key", "signature", "type"]
    assert txn["signature"]["type"] == "ed25519_signature"
    for key in ("version", "gas_used", "sequence_number", "max_gas_amount", "gas_unit_price"):
        assert is_u64(txn[key]), key
    assert is_u64(txn["expiration_timestamp_secs"])
    assert is_u64(txn["timestamp"])
    for key in ("hash", "state_change_hash", "event_root_hash", "accumulator_root_hash"):
        assert is_hash(txn[key]), key
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")


def test_its_only_event_is_the_golden_s_fee_statement(world: World) -> None:
    (event,) = world.created["events"]
    assert list(event) == ["guid", "sequence_number", "type", "data"]
    assert event["guid"] == {"creation_number": "0", "account_address": "0x0"}
    assert (event["sequence_number"], event["type"]) == ("0", FEE)
    assert set(event["data"]) == FEE_KEYS
    assert all(is_u64(v) for v in event["data"].values())
    assert event["data"]["total_charge_gas_units"] == world.created["gas_used"]


def test_a_block_metadata_transaction_has_the_golden_s_fields(world: World) -> None:
    block = world.block
    assert block["type"] == "block_metadata_transaction"
    assert list(block) == [k for k in BLOCK_TXN_KEYS if k != "state_checkpoint_hash"]
    assert block["gas_used"] == "0"
    assert all(isinstance(bit, int) for bit in block["previous_block_votes_bitvec"])
    assert is_address(block["proposer"])
    failed = block["failed_proposer_indices"]
    assert all(isinstance(index, int) for index in failed)  # u32: JSON numbers
    (event,) = block["events"]
    assert event["type"] == "0x1::block::NewBlockEvent"
    assert event["guid"]["account_address"] == "0x1"
    assert set(event["data"]) == NEW_BLOCK_EVENT_KEYS
    assert event["data"]["previous_block_votes_bitvec"].startswith("0x")  # bytes, as hex
    # vector<u64> in the event: decimal strings.
    assert event["data"]["failed_proposer_indices"] == [str(index) for index in failed]
    assert event["data"]["time_microseconds"] == block["timestamp"]
    writes = {t: d for a, t, d in _writes(block) if a == "0x1"}
    # The golden's resource writes but the storage usage (written on a new epoch: the
    # golden's block starts one, this one does not) and its one table item, the commit
    # history's.
    assert set(writes) == {
        "0x1::block::BlockResource",
        "0x1::block::CommitHistory",
        "0x1::stake::ValidatorPerformance",
        "0x1::timestamp::CurrentTimeMicroseconds",
        "0x1::randomness::PerBlockRandomness",
    }
    (item,) = [c for c in block["changes"] if c["type"] == "write_table_item"]
    assert list(item) == ["state_key_hash", "handle", "key", "value", "data", "type"]
    history = writes["0x1::block::CommitHistory"]
    assert list(history) == ["max_capacity", "next_idx", "table"]
    assert history["max_capacity"] == 2000
    assert list(writes["0x1::randomness::PerBlockRandomness"]) == ["epoch", "round", "seed"]
    resource = writes["0x1::block::BlockResource"]
    clock = writes["0x1::timestamp::CurrentTimeMicroseconds"]
    assert set(resource) == BLOCK_RESOURCE_KEYS
    assert resource["height"] == event["data"]["height"]
    assert resource["new_block_events"]["guid"]["id"]["addr"] == "0x1"
    assert clock == {"microseconds": block["timestamp"]}


def test_an_option_renders_as_a_vec(world: World) -> None:
    """aptos-core api/goldens/aptos_api__tests__option_test__run_option.json (commit
    185679fbbb6e3ee58c9b4ae72eeedd50a1718175): a view returning ``Option<u64>`` some(1)
    answers ``[{"vec":["1"]}]``, under the framework's enum Option too (its test builds
    with the latest language)."""
    http, creator = world.http, world.sender
    created = create_collection(http, creator, "Goldens")
    assert created["success"], created["vm_status"]
    minted, _ = mint(http, creator, "Goldens", "One")
    assert minted["success"], minted["vm_status"]
    collection = "0x" + hashlib.sha3_256(bytes(creator.address) + b"Goldens\xfe").hexdigest()
    body = {
        "function": "0x4::collection::count",
        "type_arguments": ["0x4::collection::Collection"],
        "arguments": [collection],
    }
    assert ok(http.post("/view", json=body)) == [{"vec": ["1"]}]


def _token_v1(http: httpx.Client, creator: Any, name: str = "Relics") -> None:
    text = "0x1::string::String"
    strings = "vector<0x1::string::String>"
    collection: list[tuple[str, Any]] = [
        (text, name),
        (text, "Old things"),
        (text, "https://ex.org/r"),
    ]
    collection += [("u64", 5), ("vector<bool>", [False, False, False])]
    done = run(http, creator, "0x3::token::create_collection_script", collection)
    assert done["success"], done["vm_status"]
    token: list[tuple[str, Any]] = [
        (text, name),
        (text, "Cup"),
        (text, "A cup"),
        ("u64", 2),
        ("u64", 2),
    ]
    token += [(text, "https://ex.org/cup"), ("address", creator.address), ("u64", 100)]
    token += [("u64", 5), ("vector<bool>", [False] * 5), (strings, []), ("vector<vector<u8>>", [])]
    token += [(strings, [])]
    done = run(http, creator, "0x3::token::create_token_script", token)
    assert done["success"], done["vm_status"]


def test_the_new_resources_and_events_fit_the_reference_schemas(world: World) -> None:
    """The reference document's schemas, for what the framework work added: a token v1
    creator's ``Collections`` and ``TokenStore``, a multisig account's resources and its
    creation, the ``OriginatingAddress`` table and a lookup of it, the fee statement of
    the golden's transaction, a block's transaction, a simulation and ``GET /info``."""
    reference = load_reference()
    http, sender = world.http, world.sender
    owners = [Account.generate() for _ in range(3)]
    for owner in owners:
        fund(http, sender, owner.address, 100_000_000)
    multisig = new_multisig(http, owners)
    _token_v1(http, sender)
    table = ok(http.get("/accounts/0x1/resource/0x1::account::OriginatingAddress"))
    lookup = {"key_type": "address", "value_type": "address", "key": world.fresh.standard}
    txn = world.created["hash"]
    answers = [
        ("/accounts/{address}/resources", f"/accounts/{sender.address}/resources", None),
        ("/accounts/{address}/resources", f"/accounts/{multisig}/resources", None),
        ("/accounts/{address}/resources", f"/accounts/{world.fresh}/resources", None),
        (
            "/accounts/{address}/resources",
            f"/accounts/{primary_store(world.fresh.standard)}/resources",
            None,
        ),
        ("/accounts/{address}/resources", "/accounts/0x1/resources", None),
        ("/transactions/by_hash/{txn_hash}", f"/transactions/by_hash/{txn}", None),
        (
            "/transactions/by_version/{txn_version}",
            f"/transactions/by_version/{world.block['version']}",
            None,
        ),
        ("/accounts/{address}/transactions", f"/accounts/{owners[0].address}/transactions", None),
        (
            "/tables/{table_handle}/item",
            f"/tables/{table['data']['address_map']['handle']}/item",
            lookup,
        ),
        ("/info", "/info", None),
    ]
    problems = []
    for path, url, body in answers:
        method = "get" if body is None else "post"
        response = http.request(method.upper(), url, json=body)
        problems += check(reference, path, method, response)
    assert problems == []


def test_an_account_answers_with_the_golden_s_fields(world: World) -> None:
    """aptos-core api/goldens/aptos_api__tests__accounts_test__test_get_core_account_data.json
    (commit 19a3a0a0dd4109763f29a43c53ba382e7cb552b3): ``GET /accounts/0x1`` is
    ``{"sequence_number": "0", "authentication_key": "0x…"}``, in that order."""
    found = ok(world.http.get("/accounts/0x1"))
    assert found == {"sequence_number": "0", "authentication_key": "0x" + "0" * 63 + "1"}
    assert list(found) == ["sequence_number", "authentication_key"]


def test_objects_read_as_aptos_core_s_object_test_reads_them(world: World) -> None:
    """aptos-core api/src/tests/objects.rs (``test_gen_object``, commit
    118d0a8917560219a56b8c12f8e5741aac52d7b2): minting leaves the collection's
    ``ObjectCore`` and ``Collection`` as they were; the token's resources list
    ``ObjectCore`` and ``0x4::token::Token`` each on its own, owned by the minter; and
    ``0x1::object::transfer_call(token, token)`` makes the token its own owner."""
    http, creator = world.http, world.sender
    created = create_collection(http, creator, "Hero Quest!")
    assert created["success"], created["vm_status"]
    collection = "0x" + hashlib.sha3_256(bytes(creator.address) + b"Hero Quest!\xfe").hexdigest()
    before = resources(http, collection)
    minted, token = mint(http, creator, "Hero Quest!", "Wukong")
    assert minted["success"], minted["vm_status"]
    after = resources(http, collection)
    for kind in ("0x1::object::ObjectCore", "0x4::collection::Collection"):
        assert after[kind] == before[kind], kind
    hero = resources(http, token)
    assert {"0x1::object::ObjectCore", "0x4::token::Token"} <= set(hero)
    assert hero["0x1::object::ObjectCore"]["owner"] == creator.address.standard
    moved = run(http, creator, "0x1::object::transfer_call", [("address", token)] * 2)
    assert moved["success"], moved["vm_status"]
    assert resources(http, token)["0x1::object::ObjectCore"]["owner"] == token


def test_every_resource_renders_its_declared_fields_as_the_api_does(world: World) -> None:
    """Each resource of the framework's accounts and objects that the tests made, and the
    events of a block, the golden's transaction and a collection's creation and mint,
    field by field against the struct its module declares: the key set, and each value in
    the kind the API gives its type."""
    http, sender = world.http, world.sender
    created = create_collection(http, sender, "Kinds")
    assert created["success"], created["vm_status"]
    minted, token = mint(http, sender, "Kinds", "K", (["k"], ["u64"], [bytes(8)]))
    owners = [Account.generate() for _ in range(3)]
    for owner in owners:
        fund(http, sender, owner.address, 100_000_000)
    multisig = new_multisig(http, owners)
    _token_v1(http, sender, "Kinds v1")
    collection = "0x" + hashlib.sha3_256(bytes(sender.address) + b"Kinds\xfe").hexdigest()
    fresh = world.fresh.standard
    places = ["0x1", "0xa", sender.address.standard, fresh, primary_store(fresh)]
    places += [collection, token, multisig]
    declared = Declared(http)
    problems, seen = [], set()
    for place in places:
        for resource in ok(http.get(f"/accounts/{place}/resources")):
            seen.add(resource["type"].split("<")[0])
            problems += declared.problems(resource["type"], resource["data"], resource["type"])
    for txn in (world.block, world.created, created, minted):
        for event in txn["events"]:
            problems += declared.problems(event["type"], event["data"], event["type"])
    assert problems == []
    assert {
        "0x1::account::Account",
        "0x1::object::ObjectCore",
        "0x1::fungible_asset::FungibleStore",
        "0x1::fungible_asset::Metadata",
        "0x4::collection::Collection",
        "0x4::token::Token",
        "0x4::property_map::PropertyMap",
        "0x4::royalty::Royalty",
        "0x1::multisig_account::MultisigAccount",
        "0x3::token::TokenStore",
        "0x3::token::Collections",
    } <= seen
