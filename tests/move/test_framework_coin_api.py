"""``0x1::coin``, ``managed_coin`` and ``aptos_account``'s public functions, called as
published code calls them: bodies in JSON-land through a ``Context``, on a coin type
declared by a published module (``0xcafe::moon_coin::MoonCoin``).

Expected values are worked out by hand: the paired metadata object is the named object of
``0xa`` whose seed is the type name (``SHA3-256(0xa ‖ "0xcafe::moon_coin::MoonCoin" ‖
0xFE)``), a primary store is ``SHA3-256(owner ‖ metadata ‖ 0xFC)``; abort codes are
``category << 16 | reason`` from coin.move, fungible_asset.move and aptos_account.move.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

import pytest
from assembler.examples import moon_coin

from ledgerkit.localnet.vm.framework import (
    ACCOUNT,
    FRAMEWORK,
    Context,
    MoveAbortError,
    VMStatusError,
    account_data,
    module_key,
)
from ledgerkit.types import Address, EntryFunctionId, MoveType

CAFE: Final = Address.parse("0xcafe")
BOB: Final = Address.parse("0xb0b")
MOON: Final = "0xcafe::moon_coin::MoonCoin"
#: The coin type as resource types write it (long addresses but the special ones).
MOON_LONG: Final = f"{CAFE.long}::moon_coin::MoonCoin"
COIN_INFO: Final = f"0x1::coin::CoinInfo<{MOON_LONG}>"
U128_MAX: Final = str(2**128 - 1)
PAIRED: Final = Address(hashlib.sha3_256(bytes(31) + b"\x0a" + MOON.encode() + b"\xfe").digest())
CAP: Final = {"dummy_field": False}


def _store(owner: Address) -> Address:
    return Address(hashlib.sha3_256(bytes(owner) + bytes(PAIRED) + b"\xfc").digest())


def _supply(count: int) -> dict[str, Any]:
    integer = {"value": str(count), "limit": U128_MAX}
    return {"vec": [{"aggregator": {"vec": []}, "integer": {"vec": [integer]}}]}


@pytest.fixture
def ctx() -> Context:
    """A state holding ``moon_coin`` published at ``0xcafe`` and accounts ``0xcafe`` and
    ``0xb0b``; ``0xcafe`` signs."""
    code = moon_coin("0xcafe").to_bytes()
    state = {module_key(CAFE, "moon_coin"): (b"{}", code)}
    context = Context(state.get, FRAMEWORK.codec, signers=(CAFE,))
    for address in (CAFE, BOB):
        context.put(address, ACCOUNT, account_data(address, bytes(address)))
    return context


def call(ctx: Context, function: str, args: list[Any], coin: str = MOON) -> Any:
    body = FRAMEWORK.body(EntryFunctionId.parse(function))
    assert body is not None, function
    return body(ctx, (MoveType.parse(coin),), args)


def _abort(ctx: Context, function: str, args: list[Any], coin: str = MOON) -> MoveAbortError:
    with pytest.raises(MoveAbortError) as caught:
        call(ctx, function, args, coin)
    return caught.value


def _initialize(ctx: Context) -> None:
    assert call(ctx, "0x1::coin::initialize", ["Moon Coin", "MOON", 6, True]) == [CAP] * 3


def test_initialize_puts_coin_info_at_the_declaring_account(ctx: Context) -> None:
    assert call(ctx, "0x1::coin::is_coin_initialized", []) == [False]
    _initialize(ctx)
    info = {"name": "Moon Coin", "symbol": "MOON", "decimals": 6, "supply": _supply(0)}
    assert ctx.resource(CAFE, COIN_INFO) == info
    assert call(ctx, "0x1::coin::is_coin_initialized", []) == [True]
    assert call(ctx, "0x1::coin::name", []) == ["Moon Coin"]
    assert call(ctx, "0x1::coin::decimals", []) == [6]
    assert call(ctx, "0x1::coin::supply", []) == [{"vec": ["0"]}]
    assert call(ctx, "0x1::coin::paired_metadata", []) == [{"vec": []}]


def test_initialize_without_monitoring_keeps_no_count(ctx: Context) -> None:
    call(ctx, "0x1::coin::initialize", ["Moon Coin", "MOON", 6, False])
    assert ctx.resource(CAFE, COIN_INFO)["supply"] == {"vec": []}
    assert call(ctx, "0x1::coin::supply", []) == [{"vec": []}]


@pytest.mark.parametrize(
    ("signer", "args", "code", "name"),
    [
        (BOB, ["Moon Coin", "MOON", 6, True], 0x10001, "ECOIN_INFO_ADDRESS_MISMATCH"),
        (CAFE, ["M" * 33, "MOON", 6, True], 0x1000C, "ECOIN_NAME_TOO_LONG"),
        (CAFE, ["Moon Coin", "M" * 33, 6, True], 0x1000D, "ECOIN_SYMBOL_TOO_LONG"),
        (CAFE, ["Moon Coin", "MOON", 33, True], 0x1001D, "ECOIN_DECIMALS_TOO_LARGE"),
    ],
)
def test_initialize_refuses(
    ctx: Context, signer: Address, args: list[Any], code: int, name: str
) -> None:
    ctx.signers = (signer,)
    error = _abort(ctx, "0x1::coin::initialize", args)
    assert (error.location, error.code, error.name) == ("0x1::coin", code, name)


def test_initialize_twice_aborts_already_published(ctx: Context) -> None:
    _initialize(ctx)
    error = _abort(ctx, "0x1::coin::initialize", ["Moon Coin", "MOON", 6, True])
    assert (error.code, error.name) == (0x80002, "ECOIN_INFO_ALREADY_PUBLISHED")


def test_a_coin_type_nobody_published_does_not_link(ctx: Context) -> None:
    with pytest.raises(VMStatusError) as caught:
        call(ctx, "0x1::coin::mint", ["1", CAP], "0xbeef::moon_coin::MoonCoin")
    assert caught.value.status == "LINKER_ERROR"
    with pytest.raises(VMStatusError) as caught:
        call(ctx, "0x1::coin::mint", ["1", CAP], "0xcafe::moon_coin::SunCoin")
    assert caught.value.status == "TYPE_RESOLUTION_FAILURE"


def test_mint_deposit_withdraw_burn_keep_the_supply(ctx: Context) -> None:
    _initialize(ctx)
    assert call(ctx, "0x1::coin::mint", ["1000", CAP]) == [{"value": "1000"}]
    assert call(ctx, "0x1::coin::coin_supply", []) == [{"vec": ["1000"]}]
    call(ctx, "0x1::coin::deposit", [BOB.standard, {"value": "1000"}])
    # the coins became the paired asset: off the coin count, onto the asset's supply
    assert call(ctx, "0x1::coin::coin_supply", []) == [{"vec": ["0"]}]
    assert ctx.resource(PAIRED, "0x1::fungible_asset::Metadata") == {
        "name": "Moon Coin",
        "symbol": "MOON",
        "decimals": 6,
        "icon_uri": "",
        "project_uri": "",
    }
    assert ctx.resource(PAIRED, "0x1::fungible_asset::ConcurrentSupply") == {
        "current": {"value": "1000", "max_value": U128_MAX}
    }
    assert ctx.resource(PAIRED, "0x1::coin::PairedCoinType") == {
        "type": {
            "account_address": CAFE.standard,
            "module_name": "0x" + b"moon_coin".hex(),
            "struct_name": "0x" + b"MoonCoin".hex(),
        }
    }
    assert ctx.resource(PAIRED, "0x1::object::ObjectCore")["owner"] == "0xa"
    assert ctx.resource(_store(BOB), "0x1::fungible_asset::FungibleStore") == {
        "metadata": {"inner": PAIRED.standard},
        "balance": "1000",
        "frozen": False,
    }
    assert ctx.resource(_store(BOB), "0x1::object::ObjectCore")["owner"] == BOB.standard
    assert call(ctx, "0x1::coin::paired_metadata", []) == [{"vec": [{"inner": PAIRED.standard}]}]
    assert call(ctx, "0x1::coin::balance", [BOB.standard]) == ["1000"]
    assert call(ctx, "0x1::coin::supply", []) == [{"vec": ["1000"]}]

    ctx.signers = (BOB,)
    assert call(ctx, "0x1::coin::withdraw", ["300"]) == [{"value": "300"}]
    assert call(ctx, "0x1::coin::balance", [BOB.standard]) == ["700"]
    assert call(ctx, "0x1::coin::coin_supply", []) == [{"vec": ["300"]}]
    assert call(ctx, "0x1::coin::supply", []) == [{"vec": ["1000"]}]
    call(ctx, "0x1::coin::burn", [{"value": "300"}, CAP])
    assert call(ctx, "0x1::coin::supply", []) == [{"vec": ["700"]}]
    types = [event["type"] for event in ctx.events]
    assert types == [
        "0x1::fungible_asset::Creation",
        "0x1::coin::PairCreation",
        "0x1::fungible_asset::Deposit",
        "0x1::fungible_asset::Withdraw",
    ]
    assert ctx.events[0]["data"]["maximum_supply"] == {"vec": []}
    assert ctx.events[1]["data"] == {
        "coin_type": {
            "account_address": CAFE.standard,
            "module_name": "0x" + b"moon_coin".hex(),
            "struct_name": "0x" + b"MoonCoin".hex(),
        },
        "fungible_asset_metadata_address": PAIRED.standard,
    }


def test_withdrawing_more_than_the_balance_aborts(ctx: Context) -> None:
    _initialize(ctx)
    ctx.signers = (BOB,)
    error = _abort(ctx, "0x1::coin::withdraw", ["1"])
    assert (error.location, error.code) == ("0x1::fungible_asset", 0x10004)
    assert error.name == "EINSUFFICIENT_BALANCE"


def test_coin_values_merge_extract_and_destroy(ctx: Context) -> None:
    coin = {"value": "10"}
    assert call(ctx, "0x1::coin::extract", [coin, "4"]) == [{"value": "4"}]
    assert coin == {"value": "6"}
    call(ctx, "0x1::coin::merge", [coin, {"value": "5"}])
    assert coin == {"value": "11"}
    assert call(ctx, "0x1::coin::value", [coin]) == ["11"]
    assert call(ctx, "0x1::coin::zero", []) == [{"value": "0"}]
    assert call(ctx, "0x1::coin::destroy_zero", [{"value": "0"}]) is None
    for cap in ("burn", "freeze", "mint"):
        assert call(ctx, f"0x1::coin::destroy_{cap}_cap", [CAP]) is None
    error = _abort(ctx, "0x1::coin::extract", [coin, "12"])
    assert (error.code, error.name) == (0x10006, "EINSUFFICIENT_BALANCE")
    error = _abort(ctx, "0x1::coin::destroy_zero", [coin])
    assert (error.code, error.name) == (0x10007, "EDESTRUCTION_OF_NONZERO_TOKEN")


def test_register_needs_an_initialized_coin(ctx: Context) -> None:
    error = _abort(ctx, "0x1::coin::register", [])
    assert (error.code, error.name) == (0x10003, "ECOIN_INFO_NOT_PUBLISHED")
    _initialize(ctx)
    assert call(ctx, "0x1::coin::register", []) is None
    assert call(ctx, "0x1::coin::is_account_registered", [BOB.standard]) == [True]


def test_managed_coin_on_a_published_coin_type(ctx: Context) -> None:
    name, symbol = "0x" + b"Moon Coin".hex(), "0x" + b"MOON".hex()
    call(ctx, "0x1::managed_coin::initialize", [name, symbol, 6, True])
    caps = {"burn_cap": CAP, "freeze_cap": CAP, "mint_cap": CAP}
    assert ctx.resource(CAFE, f"0x1::managed_coin::Capabilities<{MOON_LONG}>") == caps
    assert ctx.resource(CAFE, COIN_INFO)["name"] == "Moon Coin"
    call(ctx, "0x1::managed_coin::register", [])
    call(ctx, "0x1::managed_coin::mint", [CAFE.standard, "500"])
    assert call(ctx, "0x1::coin::balance", [CAFE.standard]) == ["500"]
    call(ctx, "0x1::managed_coin::burn", ["200"])
    assert call(ctx, "0x1::coin::balance", [CAFE.standard]) == ["300"]
    assert call(ctx, "0x1::coin::supply", []) == [{"vec": ["300"]}]
    call(ctx, "0x1::coin::transfer", [BOB.standard, "100"])
    assert call(ctx, "0x1::coin::balance", [BOB.standard]) == ["100"]
    call(ctx, "0x1::managed_coin::destroy_caps", [])
    assert ctx.resource(CAFE, f"0x1::managed_coin::Capabilities<{MOON_LONG}>") is None
    error = _abort(ctx, "0x1::managed_coin::mint", [CAFE.standard, "1"])
    assert (error.code, error.name) == (0x60001, "ENO_CAPABILITIES")


def test_aptos_account_deposits_make_the_account(ctx: Context) -> None:
    _initialize(ctx)
    carol = Address.parse("0xca401")
    error = _abort(ctx, "0x1::aptos_account::assert_account_exists", [carol.standard])
    assert (error.code, error.name) == (0x60001, "EACCOUNT_NOT_FOUND")
    coin = call(ctx, "0x1::coin::mint", ["7", CAP])[0]
    call(ctx, "0x1::aptos_account::deposit_coins", [carol.standard, coin])
    assert ctx.exists(carol, ACCOUNT)
    assert call(ctx, "0x1::coin::balance", [carol.standard]) == ["7"]
    assert call(ctx, "0x1::aptos_account::assert_account_exists", [carol.standard]) is None
    asset = {"metadata": {"inner": PAIRED.standard}, "amount": "3"}
    call(ctx, "0x1::aptos_account::deposit_fungible_assets", [carol.standard, asset])
    assert call(ctx, "0x1::coin::balance", [carol.standard]) == ["10"]
    answer = call(ctx, "0x1::aptos_account::can_receive_direct_coin_transfers", [BOB.standard])
    assert answer == [True]


COIN_MODULES: Final = (
    "coin",
    "managed_coin",
    "fungible_asset",
    "primary_fungible_store",
    "dispatchable_fungible_asset",
    "aptos_account",
)


@pytest.mark.parametrize("module", COIN_MODULES)
def test_every_declared_function_has_a_body(module: str) -> None:
    spec = FRAMEWORK.module(module)
    assert spec is not None
    for function in spec.functions:
        fid = EntryFunctionId.parse(f"0x1::{module}::{function.name}")
        assert FRAMEWORK.body(fid) is not None, fid


APT: Final = "0x1::aptos_coin::AptosCoin"
APT_FA: Final = Address.from_int(0xA)


def _apt_store(owner: Address) -> Address:
    return Address(hashlib.sha3_256(bytes(owner) + bytes(APT_FA) + b"\xfc").digest())


def test_apt_moves_between_its_coin_and_its_asset_at_0xa(ctx: Context) -> None:
    """APT as genesis leaves it: ``CoinInfo`` at ``0x1`` counting no coins, the asset at
    ``0xa`` holding the whole supply (1000 here, all in ``0xcafe``'s primary store)."""
    ctx.put(
        Address.from_int(1),
        f"0x1::coin::CoinInfo<{APT}>",
        {"name": "Aptos Coin", "symbol": "APT", "decimals": 8, "supply": _supply(0)},
    )
    ctx.put(
        APT_FA,
        "0x1::fungible_asset::Metadata",
        {"name": "Aptos Coin", "symbol": "APT", "decimals": 8, "icon_uri": "", "project_uri": ""},
    )
    supply = {"current": {"value": "1000", "max_value": U128_MAX}}
    ctx.put(APT_FA, "0x1::fungible_asset::ConcurrentSupply", supply)
    store = {"metadata": {"inner": "0xa"}, "balance": "1000", "frozen": False}
    ctx.put(_apt_store(CAFE), "0x1::fungible_asset::FungibleStore", store)
    ctx.put(_apt_store(CAFE), "0x1::object::ObjectCore", {"owner": CAFE.standard})
    coin = call(ctx, "0x1::coin::withdraw", ["400"], APT)[0]
    assert coin == {"value": "400"}
    assert call(ctx, "0x1::coin::coin_supply", [], APT) == [{"vec": ["400"]}]
    assert (
        ctx.resource(APT_FA, "0x1::fungible_asset::ConcurrentSupply")["current"]["value"] == "600"
    )
    assert call(ctx, "0x1::coin::supply", [], APT) == [{"vec": ["1000"]}]
    carol = Address.parse("0xca401")
    call(ctx, "0x1::aptos_account::deposit_coins", [carol.standard, coin], APT)
    assert ctx.exists(carol, ACCOUNT)
    assert ctx.resource(_apt_store(carol), "0x1::fungible_asset::FungibleStore") == {
        "metadata": {"inner": "0xa"},
        "balance": "400",
        "frozen": False,
    }
    assert call(ctx, "0x1::coin::coin_supply", [], APT) == [{"vec": ["0"]}]
    assert call(ctx, "0x1::coin::balance", [CAFE.standard], APT) == ["600"]
    assert call(ctx, "0x1::coin::paired_metadata", [], APT) == [{"vec": [{"inner": "0xa"}]}]


def test_transfer_coins_moves_a_published_coin_and_makes_the_account(ctx: Context) -> None:
    _initialize(ctx)
    call(ctx, "0x1::coin::deposit", [CAFE.standard, call(ctx, "0x1::coin::mint", ["9", CAP])[0]])
    dave = Address.parse("0xda7e")
    call(ctx, "0x1::aptos_account::transfer_coins", [dave.standard, "4"])
    assert ctx.exists(dave, ACCOUNT)
    assert call(ctx, "0x1::coin::balance", [dave.standard]) == ["4"]
    assert call(ctx, "0x1::coin::balance", [CAFE.standard]) == ["5"]
    assert call(ctx, "0x1::coin::supply", []) == [{"vec": ["9"]}]
    error = _abort(
        ctx, "0x1::aptos_account::transfer_coins", [dave.standard, "1"], "0x1::ledger_demo::Point"
    )
    assert (error.code, error.name) == (0x60003, "ECOIN_INFO_NOT_PUBLISHED")
