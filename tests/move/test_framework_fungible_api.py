"""``fungible_asset``, ``primary_fungible_store`` and ``dispatchable_fungible_asset``'s
public functions, called as published code calls them: bodies in JSON-land through a
``Context``, for a new asset an issuer makes on a named object of its own.

Expected values are worked out by hand: the metadata object is ``SHA3-256(issuer ‖ seed
‖ 0xFE)``, a primary store ``SHA3-256(owner ‖ metadata ‖ 0xFC)``; abort codes are
``category << 16 | reason`` from fungible_asset.move.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

import pytest

from ledgerkit.localnet.vm.framework import (
    ACCOUNT,
    FRAMEWORK,
    OBJECT_CORE,
    Context,
    MoveAbortError,
    account_data,
    object_core,
)
from ledgerkit.types import Address, EntryFunctionId, MoveType

ISSUER: Final = Address.parse("0x1550e")
ALICE: Final = Address.parse("0xa11ce")
BOB: Final = Address.parse("0xb0b")
GEM: Final = Address(hashlib.sha3_256(bytes(ISSUER) + b"gem" + b"\xfe").digest())
GEM_OBJ: Final = {"inner": GEM.standard}
CREF: Final = {"self": GEM.standard, "can_delete": False}
REF: Final = {"metadata": GEM_OBJ}
STORE: Final = "0x1::fungible_asset::FungibleStore"
METADATA_ARGS: Final = [{"vec": ["1000"]}, "Gem", "GEM", 2, "https://gem/icon", "https://gem"]


def _store(owner: Address) -> Address:
    return Address(hashlib.sha3_256(bytes(owner) + bytes(GEM) + b"\xfc").digest())


def _obj(address: Address) -> dict[str, str]:
    return {"inner": address.standard}


def _asset(amount: int) -> dict[str, Any]:
    return {"metadata": GEM_OBJ, "amount": str(amount)}


def call(ctx: Context, function: str, args: list[Any], ty: tuple[str, ...] = ()) -> Any:
    body = FRAMEWORK.body(EntryFunctionId.parse(function))
    assert body is not None, function
    return body(ctx, tuple(MoveType.parse(t) for t in ty), args)


def _abort(ctx: Context, function: str, args: list[Any], ty: tuple[str, ...] = ()) -> Any:
    with pytest.raises(MoveAbortError) as caught:
        call(ctx, function, args, ty)
    error = caught.value
    return error.location, error.code, error.name


KEYED: Final = ("0x1::fungible_asset::FungibleStore",)
META_T: Final = ("0x1::fungible_asset::Metadata",)


@pytest.fixture
def ctx() -> Context:
    """Accounts for the issuer, Alice and Bob; the issuer's named object ``gem`` (what
    ``object::create_named_object`` leaves); the issuer signs."""
    context = Context(lambda key: None, FRAMEWORK.codec, signers=(ISSUER,))
    for address in (ISSUER, ALICE, BOB):
        context.put(address, ACCOUNT, account_data(address, bytes(address)))
    context.put(GEM, OBJECT_CORE, object_core(GEM, ISSUER))
    return context


def _create(ctx: Context) -> None:
    function = "0x1::primary_fungible_store::create_primary_store_enabled_fungible_asset"
    assert call(ctx, function, [CREF, *METADATA_ARGS]) is None


def test_creating_an_asset_writes_its_metadata_object(ctx: Context) -> None:
    _create(ctx)
    assert ctx.resource(GEM, "0x1::fungible_asset::Metadata") == {
        "name": "Gem",
        "symbol": "GEM",
        "decimals": 2,
        "icon_uri": "https://gem/icon",
        "project_uri": "https://gem",
    }
    assert ctx.resource(GEM, "0x1::fungible_asset::ConcurrentSupply") == {
        "current": {"value": "0", "max_value": "1000"}
    }
    # primary_fungible_store.move keeps the object's derive ref there (DeriveRefPod).
    assert ctx.resource(GEM, "0x1::primary_fungible_store::DeriveRefPod") == {
        "metadata_derive_ref": {"self": GEM.standard}
    }
    assert ctx.events == [
        {
            "guid": {"creation_number": "0", "account_address": "0x0"},
            "sequence_number": "0",
            "type": "0x1::fungible_asset::Creation",
            "data": {
                "metadata": GEM.standard,
                "name": "Gem",
                "symbol": "GEM",
                "decimals": 2,
                "icon_uri": "https://gem/icon",
                "project_uri": "https://gem",
                "maximum_supply": {"vec": ["1000"]},
            },
        }
    ]
    for ref in ("mint", "burn", "transfer"):
        answer = call(ctx, f"0x1::fungible_asset::generate_{ref}_ref", [CREF])
        assert answer == [REF]
    assert call(ctx, "0x1::fungible_asset::name", [GEM_OBJ], META_T) == ["Gem"]
    assert call(ctx, "0x1::fungible_asset::supply", [GEM_OBJ], META_T) == [{"vec": ["0"]}]


def test_add_fungibility_returns_the_metadata_object(ctx: Context) -> None:
    function = "0x1::fungible_asset::add_fungibility"
    assert call(ctx, function, [CREF, {"vec": []}, "Gem", "GEM", 2, "", ""]) == [GEM_OBJ]
    supply = ctx.resource(GEM, "0x1::fungible_asset::ConcurrentSupply")
    assert supply == {"current": {"value": "0", "max_value": str(2**128 - 1)}}


@pytest.mark.parametrize(
    ("cref", "args", "code", "name"),
    [
        ({**CREF, "can_delete": True}, METADATA_ARGS, 0x10012, "EOBJECT_IS_DELETABLE"),
        (CREF, [{"vec": []}, "G" * 33, "GEM", 2, "", ""], 0x2000F, "ENAME_TOO_LONG"),
        (CREF, [{"vec": []}, "Gem", "G" * 33, 2, "", ""], 0x20010, "ESYMBOL_TOO_LONG"),
        (CREF, [{"vec": []}, "Gem", "GEM", 33, "", ""], 0x20011, "EDECIMALS_TOO_LARGE"),
        (CREF, [{"vec": []}, "Gem", "GEM", 2, "u" * 513, ""], 0x20013, "EURI_TOO_LONG"),
    ],
)
def test_add_fungibility_refuses(
    ctx: Context, cref: dict[str, Any], args: list[Any], code: int, name: str
) -> None:
    error = _abort(ctx, "0x1::fungible_asset::add_fungibility", [cref, *args])
    assert error == ("0x1::fungible_asset", code, name)


def test_generating_a_ref_needs_metadata(ctx: Context) -> None:
    error = _abort(ctx, "0x1::fungible_asset::generate_mint_ref", [CREF])
    assert error == ("0x1::object", 0x60007, "ERESOURCE_DOES_NOT_EXIST")


def test_mint_to_primary_stores_and_the_maximum(ctx: Context) -> None:
    _create(ctx)
    call(ctx, "0x1::primary_fungible_store::mint", [REF, ALICE.standard, "600"])
    assert ctx.resource(_store(ALICE), STORE) == {
        "metadata": GEM_OBJ,
        "balance": "600",
        "frozen": False,
    }
    assert ctx.resource(_store(ALICE), OBJECT_CORE)["owner"] == ALICE.standard
    args = [ALICE.standard, GEM_OBJ]
    assert call(ctx, "0x1::primary_fungible_store::balance", args, META_T) == ["600"]
    address = call(ctx, "0x1::primary_fungible_store::primary_store_address", args, META_T)
    assert address == [_store(ALICE).standard]
    store = call(ctx, "0x1::primary_fungible_store::primary_store", args, META_T)
    assert store == [_obj(_store(ALICE))]
    assert call(ctx, "0x1::fungible_asset::mint", [REF, "400"]) == [_asset(400)]
    error = _abort(ctx, "0x1::fungible_asset::mint", [REF, "1"])
    assert error == ("0x1::fungible_asset", 0x20005, "EMAX_SUPPLY_EXCEEDED")
    assert call(ctx, "0x1::fungible_asset::supply", [GEM_OBJ], META_T) == [{"vec": ["1000"]}]
    call(ctx, "0x1::fungible_asset::burn", [REF, _asset(400)])
    call(ctx, "0x1::primary_fungible_store::burn", [REF, ALICE.standard, "100"])
    assert call(ctx, "0x1::fungible_asset::supply", [GEM_OBJ], META_T) == [{"vec": ["500"]}]
    assert call(ctx, "0x1::primary_fungible_store::balance", args, META_T) == ["500"]


def test_withdraw_deposit_and_transfer_between_stores(ctx: Context) -> None:
    _create(ctx)
    call(ctx, "0x1::primary_fungible_store::mint", [REF, ALICE.standard, "500"])
    ctx.signers = (ALICE,)
    asset = call(ctx, "0x1::primary_fungible_store::withdraw", [GEM_OBJ, "200"], META_T)
    assert asset == [_asset(200)]
    call(ctx, "0x1::primary_fungible_store::deposit", [BOB.standard, asset[0]])
    assert ctx.resource(_store(BOB), STORE)["balance"] == "200"
    alice, bob = _obj(_store(ALICE)), _obj(_store(BOB))
    call(ctx, "0x1::fungible_asset::transfer", [alice, bob, "50"], KEYED)
    taken = call(ctx, "0x1::dispatchable_fungible_asset::withdraw", [alice, "25"], KEYED)
    call(ctx, "0x1::dispatchable_fungible_asset::deposit", [bob, taken[0]], KEYED)
    call(ctx, "0x1::dispatchable_fungible_asset::transfer", [alice, bob, "25"], KEYED)
    assert ctx.resource(_store(ALICE), STORE)["balance"] == "200"
    assert ctx.resource(_store(BOB), STORE)["balance"] == "300"
    error = _abort(ctx, "0x1::fungible_asset::withdraw", [bob, "1"], KEYED)
    assert error == ("0x1::fungible_asset", 0x50008, "ENOT_STORE_OWNER")
    error = _abort(ctx, "0x1::fungible_asset::withdraw", [alice, "201"], KEYED)
    assert error == ("0x1::fungible_asset", 0x10004, "EINSUFFICIENT_BALANCE")
    kinds = [(e["type"].rsplit("::", 1)[1], e["data"].get("amount")) for e in ctx.events]
    assert kinds == [
        ("Creation", None),
        ("Deposit", "500"),
        ("Withdraw", "200"),
        ("Deposit", "200"),
        ("Withdraw", "50"),
        ("Deposit", "50"),
        ("Withdraw", "25"),
        ("Deposit", "25"),
        ("Withdraw", "25"),
        ("Deposit", "25"),
    ]


def test_a_frozen_store_takes_nothing_but_moves_with_the_transfer_ref(ctx: Context) -> None:
    _create(ctx)
    call(ctx, "0x1::primary_fungible_store::mint", [REF, ALICE.standard, "500"])
    call(ctx, "0x1::primary_fungible_store::set_frozen_flag", [REF, BOB.standard, True])
    args = [BOB.standard, GEM_OBJ]
    assert call(ctx, "0x1::primary_fungible_store::is_frozen", args, META_T) == [True]
    assert ctx.events[-1]["type"] == "0x1::fungible_asset::Frozen"
    assert ctx.events[-1]["data"] == {"store": _store(BOB).standard, "frozen": True}
    ctx.signers = (ALICE,)
    alice, bob = _obj(_store(ALICE)), _obj(_store(BOB))
    error = _abort(ctx, "0x1::fungible_asset::transfer", [alice, bob, "1"], KEYED)
    assert error == ("0x1::fungible_asset", 0x50003, "ESTORE_IS_FROZEN")
    function = "0x1::primary_fungible_store::transfer_with_ref"
    call(ctx, function, [REF, ALICE.standard, BOB.standard, "70"])
    assert ctx.resource(_store(BOB), STORE) == {
        "metadata": GEM_OBJ,
        "balance": "70",
        "frozen": True,
    }
    call(ctx, "0x1::fungible_asset::set_frozen_flag", [REF, bob, False], KEYED)
    assert call(ctx, "0x1::fungible_asset::is_frozen", [bob], KEYED) == [False]


def test_asset_values_extract_merge_and_destroy(ctx: Context) -> None:
    _create(ctx)
    asset = _asset(10)
    assert call(ctx, "0x1::fungible_asset::extract", [asset, "4"]) == [_asset(4)]
    assert asset == _asset(6)
    call(ctx, "0x1::fungible_asset::merge", [asset, _asset(5)])
    assert asset == _asset(11)
    assert call(ctx, "0x1::fungible_asset::amount", [asset]) == ["11"]
    assert call(ctx, "0x1::fungible_asset::metadata_from_asset", [asset]) == [GEM_OBJ]
    assert call(ctx, "0x1::fungible_asset::zero", [GEM_OBJ], META_T) == [_asset(0)]
    assert call(ctx, "0x1::fungible_asset::destroy_zero", [_asset(0)]) is None
    other = {"metadata": {"inner": "0xa"}, "amount": "1"}
    error = _abort(ctx, "0x1::fungible_asset::merge", [asset, other])
    assert error == ("0x1::fungible_asset", 0x10006, "EFUNGIBLE_ASSET_MISMATCH")
    error = _abort(ctx, "0x1::fungible_asset::extract", [asset, "12"])
    assert error == ("0x1::fungible_asset", 0x10004, "EINSUFFICIENT_BALANCE")
    error = _abort(ctx, "0x1::fungible_asset::destroy_zero", [asset])
    assert error == ("0x1::fungible_asset", 0x1000C, "EAMOUNT_IS_NOT_ZERO")
    error = _abort(ctx, "0x1::fungible_asset::burn", [{"metadata": {"inner": "0xa"}}, asset])
    assert error == ("0x1::fungible_asset", 0x1000D, "EBURN_REF_AND_FUNGIBLE_ASSET_MISMATCH")


def test_ensure_primary_store_exists_makes_an_empty_store(ctx: Context) -> None:
    _create(ctx)
    function = "0x1::primary_fungible_store::ensure_primary_store_exists"
    assert call(ctx, function, [BOB.standard, GEM_OBJ], META_T) == [_obj(_store(BOB))]
    assert ctx.resource(_store(BOB), STORE) == {
        "metadata": GEM_OBJ,
        "balance": "0",
        "frozen": False,
    }
    assert call(ctx, "0x1::fungible_asset::store_exists", [_store(BOB).standard]) == [True]


def test_the_owner_of_an_object_may_withdraw_from_the_object_s_store(ctx: Context) -> None:
    """``object::owns`` follows ownership: Alice owns a vault object, which owns a store."""
    _create(ctx)
    vault = Address(hashlib.sha3_256(bytes(ALICE) + b"vault" + b"\xfe").digest())
    ctx.put(vault, OBJECT_CORE, object_core(vault, ALICE))
    call(ctx, "0x1::primary_fungible_store::mint", [REF, vault.standard, "40"])
    ctx.signers = (ALICE,)
    taken = call(ctx, "0x1::fungible_asset::withdraw", [_obj(_store(vault)), "15"], KEYED)
    assert taken == [_asset(15)]
    ctx.signers = (BOB,)
    error = _abort(ctx, "0x1::fungible_asset::withdraw", [_obj(_store(vault)), "1"], KEYED)
    assert error == ("0x1::fungible_asset", 0x50008, "ENOT_STORE_OWNER")


def test_transfer_and_burn_refs_act_on_any_store_of_their_asset(ctx: Context) -> None:
    _create(ctx)
    call(ctx, "0x1::primary_fungible_store::mint", [REF, ALICE.standard, "100"])
    alice, bob = _obj(_store(ALICE)), _obj(_store(BOB))
    function = "0x1::primary_fungible_store::withdraw_with_ref"
    assert call(ctx, function, [REF, ALICE.standard, "30"]) == [_asset(30)]
    function = "0x1::primary_fungible_store::deposit_with_ref"
    call(ctx, function, [REF, BOB.standard, _asset(30)])
    call(ctx, "0x1::fungible_asset::transfer_with_ref", [REF, alice, bob, "20"], KEYED)
    call(ctx, "0x1::fungible_asset::burn_from", [REF, bob, "5"], KEYED)
    taken = call(ctx, "0x1::fungible_asset::withdraw_with_ref", [REF, bob, "1"], KEYED)
    call(ctx, "0x1::fungible_asset::deposit_with_ref", [REF, alice, taken[0]], KEYED)
    assert ctx.resource(_store(ALICE), STORE)["balance"] == "51"
    assert ctx.resource(_store(BOB), STORE)["balance"] == "44"
    assert call(ctx, "0x1::fungible_asset::supply", [GEM_OBJ], META_T) == [{"vec": ["95"]}]
    at_least = "0x1::primary_fungible_store::is_balance_at_least"
    assert call(ctx, at_least, [BOB.standard, GEM_OBJ, "44"], META_T) == [True]
    assert call(ctx, at_least, [BOB.standard, GEM_OBJ, "45"], META_T) == [False]
    nobody = Address.parse("0x404").standard
    assert call(ctx, at_least, [nobody, GEM_OBJ, "0"], META_T) == [True]
    assert call(ctx, "0x1::fungible_asset::transfer_ref_metadata", [REF]) == [GEM_OBJ]
    assert call(ctx, "0x1::fungible_asset::icon_uri", [GEM_OBJ], META_T) == ["https://gem/icon"]
    apt_ref = {"metadata": {"inner": "0xa"}}
    error = _abort(ctx, "0x1::fungible_asset::withdraw_with_ref", [apt_ref, bob, "1"], KEYED)
    assert error == ("0x1::fungible_asset", 0x10009, "ETRANSFER_REF_AND_STORE_MISMATCH")
    error = _abort(ctx, "0x1::fungible_asset::deposit_with_ref", [apt_ref, bob, _asset(0)], KEYED)
    assert error == ("0x1::fungible_asset", 0x10002, "ETRANSFER_REF_AND_FUNGIBLE_ASSET_MISMATCH")
