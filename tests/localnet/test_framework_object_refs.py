"""``0x1::object``'s public functions as Move code calls them: objects made by name, by
the transaction's unique addresses, from an account's GUID; the refs a constructor hands
out and what each allows; ``Object<T>`` from an address. Addresses derived here with
hashlib as aptos-core's object.move derives them, abort codes from its source."""

from __future__ import annotations

import pytest
from framework_call_helpers import (
    ALICE,
    BOB,
    OBJECT_GUID_START,
    aborts,
    auid,
    call,
    context,
    sha3,
)

from ledgerkit.localnet.vm.framework import VMStatusError
from ledgerkit.types import Address

CORE = "0x1::object::ObjectCore"
UNTRANSFERABLE = "0x1::object::Untransferable"
SEED = b"my object"


def named(creator: Address = ALICE, seed: bytes = SEED) -> Address:
    return sha3(bytes(creator), seed, b"\xfe")


def test_a_named_object_lives_at_its_seed_address_and_cannot_be_made_twice() -> None:
    ctx = context(ALICE)
    address = named()
    ref = call(ctx, "object::create_named_object", ALICE.standard, "0x" + SEED.hex())
    assert ref == [{"self": address.long, "can_delete": False}]
    assert ctx.resource(address, CORE) == {
        "guid_creation_num": str(OBJECT_GUID_START + 1),
        "owner": ALICE.long,
        "allow_ungated_transfer": True,
        "transfer_events": {
            "counter": "0",
            "guid": {"id": {"creation_num": str(OBJECT_GUID_START), "addr": address.long}},
        },
    }
    aborts(
        ctx, 0x80001, "EOBJECT_EXISTS", "object::create_named_object", ALICE.long, "0x" + SEED.hex()
    )
    # The pure derivation gives the same address.
    assert call(ctx, "object::create_object_address", ALICE.long, "0x" + SEED.hex()) == [
        address.long
    ]


def test_unnamed_objects_take_the_transactions_unique_addresses_in_order() -> None:
    ctx = context(ALICE)
    first = call(ctx, "object::create_object", BOB.long)
    second = call(ctx, "object::create_sticky_object", BOB.long)
    assert first == [{"self": auid(1).long, "can_delete": True}]
    assert second == [{"self": auid(2).long, "can_delete": False}]
    assert ctx.resource(auid(2), CORE)["owner"] == BOB.long
    assert call(ctx, "transaction_context::generate_auid_address") == [auid(3).long]


def test_an_object_from_an_account_guid_takes_the_accounts_next_creation_number() -> None:
    ctx = context(ALICE)
    # A new account has used creation numbers 0 and 1 for its two event handles.
    address = sha3((2).to_bytes(8, "little"), bytes(ALICE), b"\xfd")
    assert call(ctx, "object::create_object_from_account", ALICE.long) == [
        {"self": address.long, "can_delete": True}
    ]
    assert ctx.resource(ALICE, "0x1::account::Account")["guid_creation_num"] == "3"
    assert call(ctx, "object::create_guid_object_address", ALICE.long, "2") == [address.long]


def test_a_user_derived_object_lives_at_source_and_derive_ref_address() -> None:
    ctx = context(ALICE)
    base = named()
    call(ctx, "object::create_named_object", ALICE.long, "0x" + SEED.hex())
    derive_ref = call(ctx, "object::generate_derive_ref", {"self": base.long, "can_delete": False})
    assert derive_ref == [{"self": base.long}]
    address = sha3(bytes(BOB), bytes(base), b"\xfc")
    assert call(ctx, "object::create_user_derived_object", BOB.long, derive_ref[0]) == [
        {"self": address.long, "can_delete": False}
    ]
    assert call(ctx, "object::create_user_derived_object_address", BOB.long, base.long) == [
        address.long
    ]


def test_refs_of_a_constructor_name_the_object_and_signers_are_its_address() -> None:
    ctx = context(ALICE)
    (ctor,) = call(ctx, "object::create_object", ALICE.long) or []
    address = auid(1).long
    assert call(ctx, "object::generate_extend_ref", ctor) == [{"self": address}]
    assert call(ctx, "object::generate_transfer_ref", ctor) == [{"self": address}]
    assert call(ctx, "object::generate_delete_ref", ctor) == [{"self": address}]
    assert call(ctx, "object::generate_signer", ctor) == [address]
    assert call(ctx, "object::generate_signer_for_extending", {"self": address}) == [address]
    assert call(ctx, "object::address_from_constructor_ref", ctor) == [address]
    assert call(ctx, "object::address_from_extend_ref", {"self": address}) == [address]
    assert call(ctx, "object::address_from_delete_ref", {"self": address}) == [address]
    assert call(ctx, "object::can_generate_delete_ref", ctor) == [True]
    assert call(ctx, "object::object_address", {"inner": address}, ty=(CORE,)) == [address]


def test_only_a_deletable_object_gives_a_delete_ref() -> None:
    ctx = context(ALICE)
    (ctor,) = call(ctx, "object::create_named_object", ALICE.long, "0x" + SEED.hex()) or []
    assert call(ctx, "object::can_generate_delete_ref", ctor) == [False]
    aborts(ctx, 0x50005, "ECANNOT_DELETE", "object::generate_delete_ref", ctor)


def test_delete_removes_the_object_and_its_untransferable_marker() -> None:
    ctx = context(ALICE)
    (ctor,) = call(ctx, "object::create_object", ALICE.long) or []
    address = auid(1)
    call(ctx, "object::set_untransferable", ctor)
    (delete_ref,) = call(ctx, "object::generate_delete_ref", ctor) or []
    call(ctx, "object::delete", delete_ref)
    assert ctx.resource(address, CORE) is None
    assert ctx.resource(address, UNTRANSFERABLE) is None
    assert call(ctx, "object::is_object", address.long) == [False]
    with pytest.raises(VMStatusError) as caught:  # move_from of nothing: not an abort
        call(ctx, "object::delete", delete_ref)
    assert caught.value.status == "MISSING_DATA"


def test_an_untransferable_object_refuses_transfer_refs() -> None:
    ctx = context(ALICE)
    (ctor,) = call(ctx, "object::create_object", ALICE.long) or []
    (transfer_ref,) = call(ctx, "object::generate_transfer_ref", ctor) or []
    call(ctx, "object::set_untransferable", ctor)
    core = ctx.resource(auid(1), CORE)
    assert core["allow_ungated_transfer"] is False
    assert ctx.resource(auid(1), UNTRANSFERABLE) == {"dummy_field": False}
    name = "EOBJECT_NOT_TRANSFERRABLE"
    aborts(ctx, 0x50009, name, "object::generate_transfer_ref", ctor)
    aborts(ctx, 0x50009, name, "object::generate_linear_transfer_ref", transfer_ref)
    aborts(ctx, 0x50009, name, "object::enable_ungated_transfer", transfer_ref)
    linear = {"self": auid(1).long, "owner": ALICE.long}
    aborts(ctx, 0x50009, name, "object::transfer_with_ref", linear, BOB.long)


def test_a_linear_transfer_ref_moves_the_object_once_and_always_emits() -> None:
    ctx = context(ALICE)
    (ctor,) = call(ctx, "object::create_object", ALICE.long) or []
    address = auid(1).long
    (transfer_ref,) = call(ctx, "object::generate_transfer_ref", ctor) or []
    (linear,) = call(ctx, "object::generate_linear_transfer_ref", transfer_ref) or []
    assert linear == {"self": address, "owner": ALICE.long}
    call(ctx, "object::transfer_with_ref", linear, BOB.long)
    assert ctx.resource(auid(1), CORE)["owner"] == BOB.long
    assert ctx.events[-1]["type"] == "0x1::object::Transfer"
    assert ctx.events[-1]["data"] == {"object": address, "from": ALICE.long, "to": BOB.long}
    # The ref was taken while Alice owned it: stale now.
    aborts(ctx, 0x50004, "ENOT_OBJECT_OWNER", "object::transfer_with_ref", linear, ALICE.long)
    # A transfer to the current owner still emits.
    (linear,) = call(ctx, "object::generate_linear_transfer_ref", transfer_ref) or []
    call(ctx, "object::transfer_with_ref", linear, BOB.long)
    assert ctx.events[-1]["data"] == {"object": address, "from": BOB.long, "to": BOB.long}
    assert len(ctx.events) == 2


def test_transfer_raw_follows_the_ungated_flag_and_the_signers_ownership() -> None:
    ctx = context(ALICE)
    (ctor,) = call(ctx, "object::create_object", ALICE.long) or []
    address = auid(1).long
    (transfer_ref,) = call(ctx, "object::generate_transfer_ref", ctor) or []
    call(ctx, "object::disable_ungated_transfer", transfer_ref)
    assert call(ctx, "object::ungated_transfer_allowed", {"inner": address}, ty=(CORE,)) == [False]
    aborts(
        ctx, 0x50003, "ENO_UNGATED_TRANSFERS", "object::transfer_raw", ALICE.long, address, BOB.long
    )
    call(ctx, "object::enable_ungated_transfer", transfer_ref)
    # Bob neither owns it nor is an object up its ownership chain.
    aborts(ctx, 0x50004, "ENOT_OBJECT_OWNER", "object::transfer_raw", BOB.long, address, BOB.long)
    call(ctx, "object::transfer_raw", ALICE.long, address, BOB.long)
    assert ctx.resource(auid(1), CORE)["owner"] == BOB.long
    assert call(ctx, "object::owner", {"inner": address}, ty=(CORE,)) == [BOB.long]
    assert call(ctx, "object::is_owner", {"inner": address}, BOB.long, ty=(CORE,)) == [True]
    assert call(ctx, "object::owns", {"inner": address}, ALICE.long, ty=(CORE,)) == [False]
    # To its owner: no event, no change.
    events = len(ctx.events)
    call(ctx, "object::transfer_raw", BOB.long, address, BOB.long)
    assert len(ctx.events) == events


def test_address_to_object_checks_the_core_then_the_resource() -> None:
    ctx = context(ALICE)
    call(ctx, "object::create_object", ALICE.long)
    address = auid(1).long
    assert call(ctx, "object::address_to_object", address, ty=(CORE,)) == [{"inner": address}]
    metadata = "0x1::fungible_asset::Metadata"
    aborts(
        ctx,
        0x60007,
        "ERESOURCE_DOES_NOT_EXIST",
        "object::address_to_object",
        address,
        ty=(metadata,),
    )
    aborts(
        ctx, 0x60002, "EOBJECT_DOES_NOT_EXIST", "object::address_to_object", BOB.long, ty=(CORE,)
    )
    ctor = {"self": address, "can_delete": True}
    assert call(ctx, "object::object_from_constructor_ref", ctor, ty=(CORE,)) == [
        {"inner": address}
    ]
    assert call(ctx, "object::object_from_delete_ref", {"self": address}, ty=(CORE,)) == [
        {"inner": address}
    ]
    assert call(ctx, "object::object_exists", address, ty=(CORE,)) == [True]
    assert call(ctx, "object::object_exists", address, ty=(metadata,)) == [False]
    assert call(ctx, "object::object_exists", BOB.long, ty=(CORE,)) == [False]
    assert call(ctx, "object::convert", {"inner": address}, ty=(CORE, CORE)) == [{"inner": address}]


def test_an_objects_event_handles_take_its_next_guids() -> None:
    ctx = context(ALICE)
    call(ctx, "object::create_object", ALICE.long)
    address = auid(1)
    handle = call(ctx, "object::new_event_handle", address.long, ty=("0x1::object::Transfer",))
    assert handle == [
        {
            "counter": "0",
            "guid": {"id": {"creation_num": str(OBJECT_GUID_START + 1), "addr": address.long}},
        }
    ]
    guid = call(ctx, "object::create_guid", address.long)
    assert guid == [{"id": {"creation_num": str(OBJECT_GUID_START + 2), "addr": address.long}}]
    assert ctx.resource(address, CORE)["guid_creation_num"] == str(OBJECT_GUID_START + 3)
