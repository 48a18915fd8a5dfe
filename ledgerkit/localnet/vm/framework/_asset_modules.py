"""Accounts and assets: ``account``, ``aptos_account``, ``coin``, ``fungible_asset``,
``primary_fungible_store`` and ``object``, as Python bodies over a :class:`Context`.

APT is the coin ``0x1::aptos_coin::AptosCoin`` paired with the fungible asset whose
metadata object is ``0xa``: every balance lives in a primary fungible store, the object
at ``SHA3-256(owner ‖ metadata ‖ 0xFC)`` holding ``ObjectCore`` and ``FungibleStore``.
The coin functions act on those stores, as on a chain migrated to fungible assets.
The demo token LDT is a plain fungible asset whose metadata object is created at genesis.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import ACCOUNT, Context, VMStatusError, native
from ledgerkit.types import U64_MAX, Address, MoveType, StructTag

__all__ = [
    "APT_METADATA",
    "APT_TYPE",
    "BURNED_FEES",
    "CONCURRENT_SUPPLY",
    "DEMO_TOKEN_METADATA",
    "FUNGIBLE_STORE",
    "METADATA",
    "OBJECT_CORE",
    "PAIRED_COIN_TYPE",
    "account_data",
    "charge_fee",
    "deposit",
    "ensure_account",
    "object_core",
    "primary_store_address",
    "store_balance",
    "transfer_apt",
    "type_info",
]

APT_METADATA: Final = Address.from_int(0xA)
APT_TYPE: Final = "0x1::aptos_coin::AptosCoin"
#: The demo token's metadata object: a named object of 0x1 (SHA3-256(0x1 ‖ seed ‖ 0xFE)).
DEMO_TOKEN_METADATA: Final = Address(
    hashlib.sha3_256(bytes(Address.from_int(1)) + b"ledgerkit::demo_token" + b"\xfe").digest()
)
FUNGIBLE_STORE: Final = "0x1::fungible_asset::FungibleStore"
METADATA: Final = "0x1::fungible_asset::Metadata"
CONCURRENT_SUPPLY: Final = "0x1::fungible_asset::ConcurrentSupply"
SUPPLY: Final = "0x1::fungible_asset::Supply"
OBJECT_CORE: Final = "0x1::object::ObjectCore"
#: At a fungible asset's metadata object: the coin type it is paired with.
PAIRED_COIN_TYPE: Final = "0x1::coin::PairedCoinType"
BURNED_FEES: Final = "0x1::transaction_fee::BurnedFees"
#: First GUID creation number of an object (objects and accounts never share GUIDs).
OBJECT_GUID_START: Final = 0x4000000000000
_FRAMEWORK: Final = Address.from_int(1)
_RESERVED: Final = frozenset({Address.from_int(0), _FRAMEWORK, Address.from_int(3)})


def primary_store_address(owner: Address, metadata: Address) -> Address:
    """Where ``owner``'s primary store of the asset ``metadata`` lives."""
    return Address(hashlib.sha3_256(bytes(owner) + bytes(metadata) + b"\xfc").digest())


def type_info(struct_type: str) -> dict[str, Any]:
    """The ``0x1::type_info::TypeInfo`` value of a struct type (names as UTF-8 bytes)."""
    tag = StructTag.parse(struct_type)
    return {
        "account_address": tag.address.standard,
        "module_name": "0x" + tag.module.encode().hex(),
        "struct_name": "0x" + tag.name.encode().hex(),
    }


def _handle(address: Address, creation_num: int) -> dict[str, Any]:
    return {
        "counter": "0",
        "guid": {"id": {"creation_num": str(creation_num), "addr": address.standard}},
    }


def account_data(address: Address, authentication_key: bytes) -> dict[str, Any]:
    """A new ``0x1::account::Account`` (two event handles, creation numbers 0 and 1)."""
    return {
        "authentication_key": "0x" + authentication_key.hex(),
        "sequence_number": "0",
        "guid_creation_num": "2",
        "coin_register_events": _handle(address, 0),
        "key_rotation_events": _handle(address, 1),
        "rotation_capability_offer": {"for": {"vec": []}},
        "signer_capability_offer": {"for": {"vec": []}},
    }


def object_core(address: Address, owner: Address) -> dict[str, Any]:
    """A new ``0x1::object::ObjectCore`` owned by ``owner``."""
    return {
        "guid_creation_num": str(OBJECT_GUID_START + 1),
        "owner": owner.standard,
        "allow_ungated_transfer": False,
        "transfer_events": _handle(address, OBJECT_GUID_START),
    }


def _object_missing() -> Exception:
    return Context.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")


# -- fungible asset stores --------------------------------------------------------------------


def store_balance(ctx: Context, owner: Address, metadata: Address) -> int:
    store = ctx.resource(primary_store_address(owner, metadata), FUNGIBLE_STORE)
    return 0 if store is None else int(store["balance"])


def withdraw(ctx: Context, owner: Address, metadata: Address, amount: int) -> None:
    address = primary_store_address(owner, metadata)
    store = ctx.resource(address, FUNGIBLE_STORE)
    balance = 0 if store is None else int(store["balance"])
    if store is not None and store["frozen"]:
        raise ctx.abort("fungible_asset", 0x50003, "ESTORE_IS_FROZEN")
    if balance < amount:
        raise ctx.abort("fungible_asset", 0x10004, "EINSUFFICIENT_BALANCE")
    if store is None:  # withdrawing zero from no store is allowed and writes nothing
        return
    store["balance"] = str(balance - amount)
    ctx.put(address, FUNGIBLE_STORE, store)
    ctx.emit_module(
        "0x1::fungible_asset::Withdraw", {"store": address.standard, "amount": str(amount)}
    )


def _new_primary_store(ctx: Context, owner: Address, metadata: Address) -> dict[str, Any]:
    """Make ``owner``'s (empty) primary store of ``metadata``: an object owned by ``owner``,
    its ungated transfer disabled; returns the store, not yet written."""
    address = primary_store_address(owner, metadata)
    ctx.put(address, OBJECT_CORE, object_core(address, owner))
    return {"metadata": {"inner": metadata.standard}, "balance": "0", "frozen": False}


def deposit(
    ctx: Context, owner: Address, metadata: Address, amount: int, *, events: bool = True
) -> None:
    """Credit ``owner``'s primary store, creating it (an object owned by ``owner``) if needed."""
    address = primary_store_address(owner, metadata)
    store = ctx.resource(address, FUNGIBLE_STORE)
    if store is None:
        store = _new_primary_store(ctx, owner, metadata)
    balance = int(store["balance"]) + amount
    if balance > U64_MAX:  # the u64 addition overflows, as the Move VM reports it
        raise VMStatusError("ARITHMETIC_ERROR")
    store["balance"] = str(balance)
    ctx.put(address, FUNGIBLE_STORE, store)
    if events:
        ctx.emit_module(
            "0x1::fungible_asset::Deposit", {"store": address.standard, "amount": str(amount)}
        )


def transfer_asset(
    ctx: Context, sender: Address, to: Address, metadata: Address, amount: int
) -> None:
    withdraw(ctx, sender, metadata, amount)
    deposit(ctx, to, metadata, amount)


def charge_fee(ctx: Context, payer: Address, fee: int) -> None:
    """Burn ``fee`` octas of APT from ``payer``: its store, the supply and the burn total
    (a negative ``fee``, a storage refund larger than the gas, is minted to the payer)."""
    address = primary_store_address(payer, APT_METADATA)
    store = ctx.resource(address, FUNGIBLE_STORE)
    store["balance"] = str(int(store["balance"]) - fee)
    ctx.put(address, FUNGIBLE_STORE, store)
    supply = ctx.resource(APT_METADATA, CONCURRENT_SUPPLY)
    supply["current"]["value"] = str(int(supply["current"]["value"]) - fee)
    ctx.put(APT_METADATA, CONCURRENT_SUPPLY, supply)
    burned = ctx.resource(_FRAMEWORK, BURNED_FEES)
    burned["total"] = str(int(burned["total"]) + max(fee, 0))
    ctx.put(_FRAMEWORK, BURNED_FEES, burned)


def _metadata_of(ctx: Context, value: Any) -> Address:
    address = Address.parse(value["inner"] if isinstance(value, dict) else value)
    if not ctx.exists(address, METADATA):
        raise _object_missing()
    return address


# -- account ----------------------------------------------------------------------------------


def create_account(ctx: Context, address: Address) -> None:
    if address in _RESERVED:
        raise ctx.abort("account", 0x10005, "ECANNOT_RESERVED_ADDRESS")
    if ctx.exists(address, ACCOUNT):
        raise ctx.abort("account", 0x80001, "EACCOUNT_ALREADY_EXISTS")
    ctx.put(address, ACCOUNT, account_data(address, bytes(address)))


def ensure_account(ctx: Context, address: Address) -> dict[str, Any]:
    """``address``'s ``Account`` resource, made first when it has none (the framework's
    ``account::ensure_resource_exists``: a fee payer's transaction may come from an account
    that does not exist yet)."""
    account = ctx.resource(address, ACCOUNT)
    if account is None:
        create_account(ctx, address)
        account = ctx.resource(address, ACCOUNT)
    assert account is not None
    result: dict[str, Any] = account
    return result


@native("account", "exists_at")
def _exists_at(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.exists(Address.parse(args[0]), ACCOUNT)]


@native("account", "get_sequence_number")
def _get_sequence_number(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    account = ctx.resource(Address.parse(args[0]), ACCOUNT)
    return ["0" if account is None else account["sequence_number"]]


def _account_or_abort(ctx: Context, address: Address) -> Any:
    account = ctx.resource(address, ACCOUNT)
    if account is None:
        raise ctx.abort("account", 0x60002, "EACCOUNT_DOES_NOT_EXIST")
    return account


@native("account", "get_authentication_key")
def _get_authentication_key(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_account_or_abort(ctx, Address.parse(args[0]))["authentication_key"]]


@native("account", "get_guid_next_creation_num")
def _get_guid_next(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_account_or_abort(ctx, Address.parse(args[0]))["guid_creation_num"]]


# -- aptos_account ----------------------------------------------------------------------------


def transfer_apt(ctx: Context, to: Address, amount: int) -> None:
    """``aptos_account::transfer``: the recipient's account is made when it has none."""
    if not ctx.exists(to, ACCOUNT):
        create_account(ctx, to)
    transfer_asset(ctx, ctx.signer, to, APT_METADATA, amount)


@native("aptos_account", "transfer")
def _aa_transfer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    transfer_apt(ctx, Address.parse(args[0]), int(args[1]))


# ``transfer_coins`` (any coin type): :mod:`._managed_coin`.


@native("aptos_account", "batch_transfer")
def _aa_batch(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    recipients, amounts = args
    if len(recipients) != len(amounts):
        raise ctx.abort("aptos_account", 0x10005, "EMISMATCHING_RECIPIENTS_AND_AMOUNTS_LENGTH")
    for to, amount in zip(recipients, amounts, strict=True):
        transfer_apt(ctx, Address.parse(to), int(amount))


@native("aptos_account", "create_account")
def _aa_create(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """``create_account`` then ``register_apt``: the new account's APT primary store is
    made at once (empty), as ``aptos_account::create_account`` makes it."""
    address = Address.parse(args[0])
    create_account(ctx, address)
    if not ctx.exists(primary_store_address(address, APT_METADATA), FUNGIBLE_STORE):
        store = _new_primary_store(ctx, address, APT_METADATA)
        ctx.put(primary_store_address(address, APT_METADATA), FUNGIBLE_STORE, store)


# -- coin -------------------------------------------------------------------------------------


# ``coin``'s other functions (any coin type): :mod:`._coin_api`.


# -- fungible_asset, primary_fungible_store, object ------------------------------------------------


def _object_address(value: Any) -> Address:
    return Address.parse(value["inner"] if isinstance(value, dict) else value)


@native("fungible_asset", "balance")
def _fa_balance(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = ctx.resource(_object_address(args[0]), FUNGIBLE_STORE)
    return ["0" if store is None else store["balance"]]


@native("fungible_asset", "is_frozen")
def _fa_frozen(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = ctx.resource(_object_address(args[0]), FUNGIBLE_STORE)
    return [False if store is None else store["frozen"]]


@native("fungible_asset", "store_metadata")
def _fa_store_metadata(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = ctx.resource(_object_address(args[0]), FUNGIBLE_STORE)
    if store is None:
        raise ctx.abort("fungible_asset", 0x60017, "EFUNGIBLE_STORE_EXISTENCE")
    return [store["metadata"]]


def _metadata_field(field: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        metadata = ctx.resource(_object_address(args[0]), METADATA)
        if metadata is None:
            raise _object_missing()
        return [metadata[field]]

    native("fungible_asset", field)(body)


for _field in ("name", "symbol", "decimals"):
    _metadata_field(_field)


@native("fungible_asset", "supply")
def _fa_supply(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = _object_address(args[0])
    concurrent = ctx.resource(address, CONCURRENT_SUPPLY)
    if concurrent is not None:
        return [{"vec": [concurrent["current"]["value"]]}]
    supply = ctx.resource(address, SUPPLY)
    return [{"vec": [] if supply is None else [supply["current"]]}]


@native("fungible_asset", "maximum")
def _fa_maximum(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    address = _object_address(args[0])
    concurrent = ctx.resource(address, CONCURRENT_SUPPLY)
    if concurrent is not None:
        limit = concurrent["current"]["max_value"]
        return [{"vec": [] if int(limit) == (1 << 128) - 1 else [limit]}]
    supply = ctx.resource(address, SUPPLY)
    return [{"vec": []} if supply is None else supply["maximum"]]


@native("primary_fungible_store", "balance")
def _pfs_balance(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [str(store_balance(ctx, Address.parse(args[0]), _object_address(args[1])))]


@native("primary_fungible_store", "primary_store_address")
def _pfs_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [primary_store_address(Address.parse(args[0]), _object_address(args[1])).standard]


@native("primary_fungible_store", "primary_store_exists")
def _pfs_exists(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = primary_store_address(Address.parse(args[0]), _object_address(args[1]))
    return [ctx.exists(store, FUNGIBLE_STORE)]


@native("primary_fungible_store", "transfer")
def _pfs_transfer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    metadata = _metadata_of(ctx, args[0])
    transfer_asset(ctx, ctx.signer, Address.parse(args[1]), metadata, int(args[2]))


@native("object", "is_object")
def _is_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.exists(Address.parse(args[0]), OBJECT_CORE)]
