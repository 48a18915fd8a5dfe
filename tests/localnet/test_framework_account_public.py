"""``account``, ``event``, ``type_info``, ``timestamp`` and ``transaction_context`` public
functions as Move code calls them: resource accounts and their signer capability, GUIDs
and handle events, type names, the transaction's hash, sender and unique identifiers.
Expected values written out or derived here with hashlib; abort codes from the Move
sources."""

from __future__ import annotations

from framework_call_helpers import ALICE, BOB, TXN_HASH, aborts, auid, call, context, sha3

from ledgerkit.types import Address

ACCOUNT = "0x1::account::Account"
SEED = b"vault"
CAROL = Address.parse("0x" + "c4" * 32)


def test_a_resource_account_lives_at_its_seed_address_with_a_zero_key() -> None:
    ctx = context(ALICE)
    address = sha3(bytes(ALICE), SEED, b"\xff").long
    assert call(ctx, "account::create_resource_address", ALICE.long, "0x" + SEED.hex()) == [address]
    out = call(ctx, "account::create_resource_account", ALICE.long, "0x" + SEED.hex())
    assert out == [address, {"account": address}]
    account = ctx.resource(Address.parse(address), ACCOUNT)
    assert account["authentication_key"] == "0x" + "00" * 32
    assert account["sequence_number"] == "0"
    assert account["guid_creation_num"] == "2"
    assert account["signer_capability_offer"] == {"for": {"vec": [address]}}
    aborts(
        ctx,
        0x8000F,
        "ERESOURCE_ACCCOUNT_EXISTS",
        "account::create_resource_account",
        ALICE.long,
        "0x" + SEED.hex(),
    )
    cap = {"account": address}
    assert call(ctx, "account::create_signer_with_capability", cap) == [address]
    assert call(ctx, "account::get_signer_capability_address", cap) == [address]


def test_a_resource_account_over_a_used_account_is_refused() -> None:
    address = sha3(bytes(ALICE), SEED, b"\xff")
    ctx = context(ALICE, accounts=(ALICE, address))
    account = ctx.resource(address, ACCOUNT)
    account["sequence_number"] = "1"
    ctx.put(address, ACCOUNT, account)
    aborts(
        ctx,
        0x30010,
        "EACCOUNT_ALREADY_USED",
        "account::create_resource_account",
        ALICE.long,
        "0x" + SEED.hex(),
    )


def test_an_unused_account_at_the_address_becomes_the_resource_account() -> None:
    address = sha3(bytes(ALICE), SEED, b"\xff")
    ctx = context(ALICE, accounts=(ALICE, address))
    out = call(ctx, "account::create_resource_account", ALICE.long, "0x" + SEED.hex())
    assert out == [address.long, {"account": address.long}]
    assert ctx.resource(address, ACCOUNT)["authentication_key"] == "0x" + "00" * 32


def test_account_event_handles_take_the_accounts_next_guid() -> None:
    ctx = context(ALICE)
    handle = call(ctx, "account::new_event_handle", ALICE.long, ty=("0x1::object::Transfer",))
    assert handle == [{"counter": "0", "guid": {"id": {"creation_num": "2", "addr": ALICE.long}}}]
    assert call(ctx, "account::create_guid", ALICE.long) == [
        {"id": {"creation_num": "3", "addr": ALICE.long}}
    ]
    assert ctx.resource(ALICE, ACCOUNT)["guid_creation_num"] == "4"
    # An address without an account gets one first (default account resources).
    assert call(ctx, "account::create_guid", CAROL.long) == [
        {"id": {"creation_num": "2", "addr": CAROL.long}}
    ]


def test_emit_event_numbers_the_handles_events_and_bumps_its_counter() -> None:
    ctx = context(ALICE)
    handle = {"counter": "0", "guid": {"id": {"creation_num": "2", "addr": ALICE.long}}}
    kind = "0x1::object::TransferEvent"
    data = {"object": BOB.long, "from": ALICE.long, "to": BOB.long}
    call(ctx, "event::emit_event", handle, data, ty=(kind,))
    call(ctx, "event::emit_event", handle, data, ty=(kind,))
    assert handle["counter"] == "2"
    assert ctx.events[-1] == {
        "guid": {"creation_number": "2", "account_address": ALICE.long},
        "sequence_number": "1",
        "type": kind,
        "data": data,
    }
    assert call(ctx, "event::counter", handle, ty=(kind,)) == ["2"]
    assert call(ctx, "event::guid", handle, ty=(kind,)) == [
        {"id": {"creation_num": "2", "addr": ALICE.long}}
    ]


def test_type_of_names_a_struct_with_its_type_arguments() -> None:
    ctx = context()
    coin = "0x1::aptos_coin::AptosCoin"
    assert call(ctx, "type_info::type_of", ty=(coin,)) == [
        {
            "account_address": "0x1",
            "module_name": "0x" + b"aptos_coin".hex(),
            "struct_name": "0x" + b"AptosCoin".hex(),
        }
    ]
    (info,) = call(ctx, "type_info::type_of", ty=(f"0x1::coin::CoinStore<{coin}>",)) or []
    assert info["struct_name"] == "0x" + b"CoinStore<0x1::aptos_coin::AptosCoin>".hex()
    assert call(ctx, "type_info::account_address", info) == ["0x1"]
    assert call(ctx, "type_info::module_name", info) == ["0x" + b"coin".hex()]
    assert call(ctx, "type_info::struct_name", info) == [info["struct_name"]]
    aborts(ctx, 1, None, "type_info::type_of", ty=("u64",))


def test_type_name_spells_addresses_short() -> None:
    ctx = context()
    assert call(ctx, "type_info::type_name", ty=("vector<0x00cafe::m::S<u8>>",)) == [
        "vector<0xcafe::m::S<u8>>"
    ]
    assert call(ctx, "type_info::type_name", ty=("u128",)) == ["u128"]
    assert call(ctx, "type_info::chain_id") == [4]


def test_the_transaction_context_knows_hash_signers_and_unique_ids() -> None:
    ctx = context(ALICE, BOB)
    assert call(ctx, "transaction_context::get_transaction_hash") == ["0x" + TXN_HASH.hex()]
    assert call(ctx, "transaction_context::generate_auid_address") == [auid(1).long]
    (made,) = call(ctx, "transaction_context::generate_auid") or []
    assert made == {"unique_address": auid(2).long}
    assert call(ctx, "transaction_context::auid_address", made) == [auid(2).long]
    assert call(ctx, "transaction_context::sender") == [ALICE.long]
    assert call(ctx, "transaction_context::secondary_signers") == [[BOB.long]]
    assert call(ctx, "transaction_context::chain_id") == [4]
    assert call(ctx, "transaction_context::is_orderless_txn") == [False]
    ctx.orderless = True
    assert call(ctx, "transaction_context::is_orderless_txn") == [True]


def test_outside_a_transaction_the_sender_is_unavailable() -> None:
    ctx = context()  # a view: no signers
    aborts(ctx, 0x30001, None, "transaction_context::sender")


def test_the_clock_in_seconds_and_microseconds() -> None:
    ctx = context()
    ctx.put(
        Address.from_int(1),
        "0x1::timestamp::CurrentTimeMicroseconds",
        {"microseconds": "1700000000123456"},
    )
    assert call(ctx, "timestamp::now_microseconds") == ["1700000000123456"]
    assert call(ctx, "timestamp::now_seconds") == ["1700000000"]


def test_guid_accessors_read_the_id() -> None:
    ctx = context()
    guid = {"id": {"creation_num": "7", "addr": ALICE.long}}
    id_ = {"creation_num": "7", "addr": ALICE.long}
    assert call(ctx, "guid::create_id", ALICE.long, "7") == [id_]
    assert call(ctx, "guid::id", guid) == [id_]
    assert call(ctx, "guid::creator_address", guid) == [ALICE.long]
    assert call(ctx, "guid::creation_num", guid) == ["7"]
    assert call(ctx, "guid::id_creator_address", id_) == [ALICE.long]
    assert call(ctx, "guid::id_creation_num", id_) == ["7"]
    assert call(ctx, "guid::eq_id", guid, id_) == [True]
    assert call(ctx, "guid::eq_id", guid, {"creation_num": "8", "addr": ALICE.long}) == [False]
