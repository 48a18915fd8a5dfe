"""The public functions of ``fungible_asset``, ``primary_fungible_store`` and
``dispatchable_fungible_asset`` that published Move code calls, as Python bodies.

They work in the API's JSON form (declared in :mod:`._asset_api_specs`): a
``FungibleAsset`` is ``{"metadata": {"inner": addr}, "amount": "n"}``, a ref
``{"metadata": {"inner": addr}}``, a ``ConstructorRef`` ``{"self": addr, "can_delete":
bool}``; a ``&mut`` argument is a JSON value the body changes in place. A leading
``&signer`` is not among the arguments: it is the context's signer.

An asset's metadata object holds ``Metadata`` and ``ConcurrentSupply`` (or ``Supply``),
as APT's at ``0xa`` does; stores are ``FungibleStore`` objects, primary ones at
``SHA3-256(owner ‖ metadata ‖ 0xFC)``. Dispatch hooks are not modelled, so the
dispatchable functions move every asset as plain ``fungible_asset`` does.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._asset_modules import (
    CONCURRENT_SUPPLY,
    FUNGIBLE_STORE,
    METADATA,
    object_core,
    primary_store_address,
)
from ledgerkit.localnet.vm.framework._context import NATIVES, Context, VMStatusError, native
from ledgerkit.localnet.vm.framework._object_module import OBJECT_CORE
from ledgerkit.types import U64_MAX, Address, MoveType

__all__ = [
    "U128_MAX",
    "add_fungibility",
    "burn_asset",
    "ensure_primary_store",
    "mint_asset",
    "owned_withdraw",
    "primary_deposit",
    "store_deposit",
    "store_withdraw",
]

U128_MAX: Final = (1 << 128) - 1
_FA: Final = "fungible_asset"
_PFS: Final = "primary_fungible_store"
SUPPLY: Final = "0x1::fungible_asset::Supply"
DERIVE_REF_POD: Final = "0x1::primary_fungible_store::DeriveRefPod"
_FRAMEWORK: Final = Address.from_int(1)
_STORE_TYPE: Final = MoveType.parse(FUNGIBLE_STORE)
_MAX_NAME: Final = 32
_MAX_SYMBOL: Final = 32
_MAX_DECIMALS: Final = 32
_MAX_URI: Final = 512


def _address(value: Any) -> Address:
    """An ``Object<T>`` (``{"inner": addr}``) or an address, as an address."""
    return Address.parse(value["inner"] if isinstance(value, dict) else value)


def _asset(metadata: Address, amount: int) -> dict[str, Any]:
    return {"metadata": {"inner": metadata.standard}, "amount": str(amount)}


def _metadata_object(ctx: Context, value: Any) -> Address:
    """``Object<Metadata>`` from an object address: ``ObjectCore`` then ``Metadata``
    there (``object::address_to_object``)."""
    address = _address(value)
    if not ctx.exists(address, OBJECT_CORE):
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    if not ctx.exists(address, METADATA):
        raise ctx.abort("object", 0x60007, "ERESOURCE_DOES_NOT_EXIST")
    return address


# -- supply -----------------------------------------------------------------------------------


def _change_supply(ctx: Context, metadata: Address, delta: int) -> None:
    if delta == 0:
        return
    concurrent = ctx.resource(metadata, CONCURRENT_SUPPLY)
    if concurrent is not None:
        current = int(concurrent["current"]["value"]) + delta
        if current > int(concurrent["current"]["max_value"]):
            raise ctx.abort(_FA, 0x20005, "EMAX_SUPPLY_EXCEEDED")
        if current < 0:
            raise ctx.abort(_FA, 0x20014, "ESUPPLY_UNDERFLOW")
        concurrent["current"]["value"] = str(current)
        ctx.put(metadata, CONCURRENT_SUPPLY, concurrent)
        return
    supply = ctx.resource(metadata, SUPPLY)
    if supply is None:
        raise ctx.abort(_FA, 0x60015, "ESUPPLY_NOT_FOUND")
    current = int(supply["current"]) + delta
    maximum = supply["maximum"]["vec"]
    if maximum and current > int(maximum[0]):
        raise ctx.abort(_FA, 0x20005, "EMAX_SUPPLY_EXCEEDED")
    if current < 0:
        raise ctx.abort(_FA, 0x30014, "ESUPPLY_UNDERFLOW")
    if current > U128_MAX:
        raise VMStatusError("ARITHMETIC_ERROR")
    supply["current"] = str(current)
    ctx.put(metadata, SUPPLY, supply)


def mint_asset(ctx: Context, metadata: Address, amount: int) -> dict[str, Any]:
    """``fungible_asset::mint_internal``: raise the supply, return the new asset."""
    _change_supply(ctx, metadata, amount)
    return _asset(metadata, amount)


def burn_asset(ctx: Context, asset: dict[str, Any]) -> int:
    """``fungible_asset::burn_internal``: lower the supply by the asset's amount."""
    amount = int(asset["amount"])
    _change_supply(ctx, _address(asset["metadata"]), -amount)
    return amount


# -- stores -----------------------------------------------------------------------------------


def _store(ctx: Context, address: Address) -> dict[str, Any]:
    store = ctx.resource(address, FUNGIBLE_STORE)
    if store is None:
        raise ctx.abort(_FA, 0x60017, "EFUNGIBLE_STORE_EXISTENCE")
    result: dict[str, Any] = store
    return result


def store_withdraw(ctx: Context, address: Address, amount: int) -> dict[str, Any]:
    """``unchecked_withdraw``: take ``amount`` out of the store (no owner or frozen check)."""
    store = _store(ctx, address)
    metadata = _address(store["metadata"])
    if amount != 0:
        if int(store["balance"]) < amount:
            raise ctx.abort(_FA, 0x10004, "EINSUFFICIENT_BALANCE")
        store["balance"] = str(int(store["balance"]) - amount)
        ctx.put(address, FUNGIBLE_STORE, store)
        ctx.emit_module(
            "0x1::fungible_asset::Withdraw", {"store": address.standard, "amount": str(amount)}
        )
    return _asset(metadata, amount)


def store_deposit(ctx: Context, address: Address, asset: dict[str, Any]) -> None:
    """``unchecked_deposit``: put the asset into the store (no frozen check)."""
    store = _store(ctx, address)
    if _address(asset["metadata"]) != _address(store["metadata"]):
        raise ctx.abort(_FA, 0x1000B, "EFUNGIBLE_ASSET_AND_STORE_MISMATCH")
    amount = int(asset["amount"])
    if amount == 0:
        return
    balance = int(store["balance"]) + amount
    if balance > U64_MAX:
        raise VMStatusError("ARITHMETIC_ERROR")
    store["balance"] = str(balance)
    ctx.put(address, FUNGIBLE_STORE, store)
    ctx.emit_module(
        "0x1::fungible_asset::Deposit", {"store": address.standard, "amount": str(amount)}
    )


def _not_frozen(ctx: Context, address: Address) -> None:
    if _store(ctx, address)["frozen"]:
        raise ctx.abort(_FA, 0x50003, "ESTORE_IS_FROZEN")


def owned_withdraw(ctx: Context, address: Address, amount: int) -> dict[str, Any]:
    """``fungible_asset::withdraw``: the signer must own the store (directly or through
    objects it owns, as ``object::owns`` follows them), which is not frozen."""
    owns = NATIVES[(_FRAMEWORK, "object", "owns")]
    answer = owns(ctx, (_STORE_TYPE,), [{"inner": address.standard}, ctx.signer.standard])
    if not answer or not answer[0]:
        raise ctx.abort(_FA, 0x50008, "ENOT_STORE_OWNER")
    _not_frozen(ctx, address)
    return store_withdraw(ctx, address, amount)


def _checked_deposit(ctx: Context, address: Address, asset: dict[str, Any]) -> None:
    _not_frozen(ctx, address)
    store_deposit(ctx, address, asset)


def ensure_primary_store(ctx: Context, owner: Address, metadata: Address) -> Address:
    """``owner``'s primary store of ``metadata``, made (empty, an object owned by
    ``owner`` whose ungated transfer is off) when it does not exist."""
    address = primary_store_address(owner, metadata)
    if not ctx.exists(address, FUNGIBLE_STORE):
        ctx.put(address, OBJECT_CORE, object_core(address, owner))
        store = {"metadata": {"inner": metadata.standard}, "balance": "0", "frozen": False}
        ctx.put(address, FUNGIBLE_STORE, store)
    return address


# -- creating an asset ------------------------------------------------------------------------


def add_fungibility(ctx: Context, cref: dict[str, Any], args: list[Any]) -> Address:
    """``fungible_asset::add_fungibility`` on the object of ``cref``: ``Metadata`` and a
    concurrent supply (bounded by the optional maximum), and the ``Creation`` event."""
    maximum, name, symbol, decimals, icon_uri, project_uri = args
    if cref["can_delete"]:
        raise ctx.abort(_FA, 0x10012, "EOBJECT_IS_DELETABLE")
    if len(name.encode()) > _MAX_NAME:
        raise ctx.abort(_FA, 0x2000F, "ENAME_TOO_LONG")
    if len(symbol.encode()) > _MAX_SYMBOL:
        raise ctx.abort(_FA, 0x20010, "ESYMBOL_TOO_LONG")
    if int(decimals) > _MAX_DECIMALS:
        raise ctx.abort(_FA, 0x20011, "EDECIMALS_TOO_LARGE")
    if max(len(icon_uri.encode()), len(project_uri.encode())) > _MAX_URI:
        raise ctx.abort(_FA, 0x20013, "EURI_TOO_LONG")
    address = Address.parse(cref["self"])
    if ctx.exists(address, METADATA):  # move_to onto an existing resource
        raise VMStatusError("RESOURCE_ALREADY_EXISTS")
    metadata = {
        "name": name,
        "symbol": symbol,
        "decimals": int(decimals),
        "icon_uri": icon_uri,
        "project_uri": project_uri,
    }
    ctx.put(address, METADATA, metadata)
    creation = {"metadata": address.standard, **metadata, "maximum_supply": maximum}
    ctx.emit_module("0x1::fungible_asset::Creation", creation)
    limit = maximum["vec"][0] if maximum["vec"] else str(U128_MAX)
    ctx.put(address, CONCURRENT_SUPPLY, {"current": {"value": "0", "max_value": str(limit)}})
    return address


@native(_FA, "add_fungibility")
def _add_fungibility(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [{"inner": add_fungibility(ctx, args[0], args[1:]).standard}]


@native("primary_fungible_store", "create_primary_store_enabled_fungible_asset")
def _create_primary(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """``add_fungibility``, then the ``DeriveRefPod`` (the object's derive ref) that
    primary stores are derived with, moved to the metadata object."""
    address = add_fungibility(ctx, args[0], args[1:])
    ctx.put(address, DERIVE_REF_POD, {"metadata_derive_ref": {"self": address.standard}})


def _generate_ref(name: str) -> None:
    def body(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
        return [{"metadata": {"inner": _metadata_object(ctx, args[0]["self"]).standard}}]

    native(_FA, name)(body)


for _ref in ("generate_mint_ref", "generate_burn_ref", "generate_transfer_ref"):
    _generate_ref(_ref)


# -- fungible_asset ---------------------------------------------------------------------------


@native(_FA, "amount")
def _amount(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [args[0]["amount"]]


@native(_FA, "metadata_from_asset")
def _metadata_from_asset(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [args[0]["metadata"]]


native(_FA, "asset_metadata")(_metadata_from_asset)


@native(_FA, "mint")
def _mint(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [mint_asset(ctx, _address(args[0]["metadata"]), int(args[1]))]


@native(_FA, "mint_to")
def _mint_to(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    store = _address(args[1])
    _not_frozen(ctx, store)
    store_deposit(ctx, store, mint_asset(ctx, _address(args[0]["metadata"]), int(args[2])))


@native(_FA, "burn")
def _burn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    if _address(args[0]["metadata"]) != _address(args[1]["metadata"]):
        raise ctx.abort(_FA, 0x1000D, "EBURN_REF_AND_FUNGIBLE_ASSET_MISMATCH")
    burn_asset(ctx, args[1])


@native(_FA, "deposit")
def _deposit(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    _checked_deposit(ctx, _address(args[0]), args[1])


@native(_FA, "withdraw")
def _withdraw(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [owned_withdraw(ctx, _address(args[0]), int(args[1]))]


@native(_FA, "transfer")
def _transfer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    asset = owned_withdraw(ctx, _address(args[0]), int(args[2]))
    _checked_deposit(ctx, _address(args[1]), asset)


for _name in ("deposit", "withdraw", "transfer"):
    native("dispatchable_fungible_asset", _name)(
        {"deposit": _deposit, "withdraw": _withdraw, "transfer": _transfer}[_name]
    )


@native(_FA, "set_frozen_flag")
def _set_frozen_flag(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    set_frozen(ctx, args[0], _address(args[1]), bool(args[2]))


def set_frozen(ctx: Context, ref: dict[str, Any], address: Address, frozen: bool) -> None:
    store = _store(ctx, address)
    if _address(ref["metadata"]) != _address(store["metadata"]):
        raise ctx.abort(_FA, 0x10009, "ETRANSFER_REF_AND_STORE_MISMATCH")
    store["frozen"] = frozen
    ctx.put(address, FUNGIBLE_STORE, store)
    ctx.emit_module("0x1::fungible_asset::Frozen", {"store": address.standard, "frozen": frozen})


@native(_FA, "store_exists")
def _store_exists(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.exists(_address(args[0]), FUNGIBLE_STORE)]


@native(_FA, "zero")
def _zero(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [_asset(_metadata_object(ctx, args[0]), 0)]


@native(_FA, "extract")
def _extract(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    asset, amount = args[0], int(args[1])
    if int(asset["amount"]) < amount:
        raise ctx.abort(_FA, 0x10004, "EINSUFFICIENT_BALANCE")
    asset["amount"] = str(int(asset["amount"]) - amount)
    return [{"metadata": dict(asset["metadata"]), "amount": str(amount)}]


@native(_FA, "merge")
def _merge(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    into, source = args
    if _address(into["metadata"]) != _address(source["metadata"]):
        raise ctx.abort(_FA, 0x10006, "EFUNGIBLE_ASSET_MISMATCH")
    total = int(into["amount"]) + int(source["amount"])
    if total > U64_MAX:
        raise VMStatusError("ARITHMETIC_ERROR")
    into["amount"] = str(total)


@native(_FA, "destroy_zero")
def _destroy_zero(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    if int(args[0]["amount"]) != 0:
        raise ctx.abort(_FA, 0x1000C, "EAMOUNT_IS_NOT_ZERO")


# -- primary_fungible_store -------------------------------------------------------------------


def primary_deposit(ctx: Context, owner: Address, asset: dict[str, Any]) -> None:
    """``primary_fungible_store::deposit``: into ``owner``'s primary store, made if needed."""
    store = ensure_primary_store(ctx, owner, _address(asset["metadata"]))
    _checked_deposit(ctx, store, asset)


@native(_PFS, "ensure_primary_store_exists")
def _ensure(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = ensure_primary_store(ctx, Address.parse(args[0]), _address(args[1]))
    return [{"inner": store.standard}]


@native(_PFS, "primary_store")
def _primary_store(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = primary_store_address(Address.parse(args[0]), _address(args[1]))
    if not ctx.exists(store, OBJECT_CORE):
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    if not ctx.exists(store, FUNGIBLE_STORE):
        raise ctx.abort("object", 0x60007, "ERESOURCE_DOES_NOT_EXIST")
    return [{"inner": store.standard}]


@native(_PFS, "is_frozen")
def _pfs_is_frozen(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = ctx.resource(
        primary_store_address(Address.parse(args[0]), _address(args[1])), FUNGIBLE_STORE
    )
    return [False if store is None else store["frozen"]]


@native(_PFS, "deposit")
def _pfs_deposit(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    primary_deposit(ctx, Address.parse(args[0]), args[1])


@native(_PFS, "withdraw")
def _pfs_withdraw(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    store = ensure_primary_store(ctx, ctx.signer, _address(args[0]))
    return [owned_withdraw(ctx, store, int(args[1]))]


@native(_PFS, "mint")
def _pfs_mint(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    metadata = _address(args[0]["metadata"])
    store = ensure_primary_store(ctx, Address.parse(args[1]), metadata)
    _not_frozen(ctx, store)
    store_deposit(ctx, store, mint_asset(ctx, metadata, int(args[2])))


@native(_PFS, "burn")
def _pfs_burn(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    metadata = _address(args[0]["metadata"])
    store = primary_store_address(Address.parse(args[1]), metadata)
    if not ctx.exists(store, OBJECT_CORE):
        raise ctx.abort("object", 0x60002, "EOBJECT_DOES_NOT_EXIST")
    burn_asset(ctx, store_withdraw(ctx, store, int(args[2])))


@native(_PFS, "set_frozen_flag")
def _pfs_set_frozen(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    ref = args[0]
    store = ensure_primary_store(ctx, Address.parse(args[1]), _address(ref["metadata"]))
    set_frozen(ctx, ref, store, bool(args[2]))


@native(_PFS, "transfer_with_ref")
def _pfs_transfer_with_ref(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """Moves the asset whether the stores are frozen or not, as a transfer ref may."""
    ref, amount = args[0], int(args[3])
    metadata = _address(ref["metadata"])
    source = ensure_primary_store(ctx, Address.parse(args[1]), metadata)
    target = ensure_primary_store(ctx, Address.parse(args[2]), metadata)
    store_deposit(ctx, target, store_withdraw(ctx, source, amount))
