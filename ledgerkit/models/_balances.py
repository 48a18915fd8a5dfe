"""Who gained and lost what in one committed (or simulated) transaction, from its events,
write set and gas. No I/O: what the transaction does not tell is left unresolved.

* Fungible assets: ``0x1::fungible_asset::Withdraw`` / ``Deposit`` name a store and an
  amount. The store's asset is its ``FungibleStore.metadata`` and its owner its
  ``ObjectCore.owner``, read from the write set, or from what the caller looked up, or
  found by matching the store against the primary store address of each account the
  transaction names (``SHA3-256(owner ‖ metadata ‖ 0xFC)``). A store whose owner stays
  unknown is listed under its own address.
* Coins: the module events ``0x1::coin::CoinWithdraw`` / ``CoinDeposit`` (account and
  coin type), ``0x1::coin::Withdraw<T>`` / ``Deposit<T>``, and the older handle events
  ``WithdrawEvent`` / ``DepositEvent``, whose coin type is that of the ``CoinStore`` in
  the write set that owns the handle.
* Gas: ``gas_used * gas_unit_price``, less the storage refund of the ``FeeStatement``
  event, leaves the fee payer's APT. Gas is burned without events, so it is added here.
  A fee payer ``0x0`` (a simulation that skips the fee) pays nothing.
* Genesis: balances are written, not moved: every ``FungibleStore`` and ``CoinStore``
  the genesis write set creates counts as a deposit of its balance to its owner.

Assets are named by their key (``ledgerkit.frames.asset_key``): a coin by the address of
its paired metadata (``ledgerkit.types.paired_metadata_address``), so a coin and its
fungible asset are one asset. The frames of balance changes and activity are built from
these readings; the client's flows and simulations read them without pandas.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, NamedTuple

from ledgerkit._errors import InputError, LedgerError
from ledgerkit.bcs import Deserializer, EntryFunction
from ledgerkit.models._accounts import MoveResource
from ledgerkit.models._changes import WriteResource
from ledgerkit.models._events import Event
from ledgerkit.models._payloads import MultisigPayload
from ledgerkit.models._signatures import FeePayerSignature, MultiAgentSignature
from ledgerkit.models._transactions import GenesisTransaction, UserTransaction
from ledgerkit.types import APT_METADATA, Address, MoveType, StructTag, paired_metadata_address

__all__ = [
    "BalanceKey",
    "FeeStatement",
    "StoreFacts",
    "balance_deltas",
    "coin_types_named",
    "fee_statement",
    "gas_payer",
    "primary_store_address",
    "resolved_stores",
    "storage_fee_refund",
    "store_facts",
    "stores_to_look_up",
]

_ZERO: Final = Address.from_int(0).long
_FEE_STATEMENT: Final = "0x1::transaction_fee::FeeStatement"
_FUNGIBLE_STORE: Final = "0x1::fungible_asset::FungibleStore"
_OBJECT_CORE: Final = "0x1::object::ObjectCore"
_COIN_STORE: Final = "0x1::coin::CoinStore"
_PAIRED_COIN: Final = "0x1::coin::PairedCoinType"

#: ``(account, asset)``: the account in long form; the asset's key (a metadata address,
#: long form; a coin's paired one), None when the transaction does not say.
BalanceKey = tuple[str, str | None]
#: What is known of a fungible store: ``(owner, metadata)``, each long form or None.
StoreFacts = tuple[str | None, str | None]


def primary_store_address(owner: str | Address, metadata: str | Address) -> Address:
    """The address of ``owner``'s primary store of the asset ``metadata``."""
    digest = hashlib.sha3_256(bytes(Address.parse(owner)) + bytes(Address.parse(metadata)))
    digest.update(b"\xfc")
    return Address(digest.digest())


# Transactions repeat the same few addresses and types: each spelling is parsed once.
@functools.lru_cache(maxsize=1 << 14)
def _long_text(value: str) -> str | None:
    try:
        return Address.parse(value).long
    except LedgerError:
        return None


def _long(value: Any) -> str | None:
    if isinstance(value, dict):  # an Object<T>: {"inner": address}
        value = value.get("inner")
    return _long_text(value) if isinstance(value, str) else None


def _u64(raw: Any) -> int | None:
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if 0 <= value < 1 << 64 else None


def _amount(data: Any) -> int | None:
    return _u64(data.get("amount")) if isinstance(data, dict) else None


@functools.lru_cache(maxsize=1 << 12)
def _struct(type_text: str) -> StructTag | None:
    try:
        parsed = MoveType.parse(type_text)
    except LedgerError:
        return None
    return parsed if isinstance(parsed, StructTag) else None


@functools.lru_cache(maxsize=1 << 12)
def _base(tag: StructTag) -> str:
    return f"{tag.address.short}::{tag.module}::{tag.name}"


def _events(txn: Any) -> list[Event]:
    return list(getattr(txn, "events", None) or ())


def _resources(txn: Any) -> Iterator[tuple[str, StructTag, Any]]:
    """``(address, struct tag, data)`` of every resource the write set writes."""
    for change in getattr(txn, "changes", None) or ():
        if isinstance(change, WriteResource):
            address = _long(change.address)
            tag = _struct(change.data.type)
            if address is not None and tag is not None:
                yield address, tag, change.data.data


def _written_stores(txn: Any) -> dict[str, StoreFacts]:
    found: dict[str, StoreFacts] = {}
    for address, tag, data in _resources(txn):
        owner, metadata = found.get(address, (None, None))
        if _base(tag) == _OBJECT_CORE and isinstance(data, dict):
            owner = _long(data.get("owner")) or owner
        elif _base(tag) == _FUNGIBLE_STORE and isinstance(data, dict):
            metadata = _long(data.get("metadata")) or metadata
        found[address] = (owner, metadata)
    return found


def gas_payer(txn: UserTransaction) -> str:
    """Who pays the gas, long form: the fee payer of a fee-payer transaction, else the
    sender (:func:`ledgerkit.models.fee_payer` is None when the sender pays)."""
    if isinstance(txn.signature, FeePayerSignature):
        payer = _long(txn.signature.fee_payer_address)
        if payer is not None:
            return payer
    return _long(txn.sender) or txn.sender


class FeeStatement(NamedTuple):
    """A transaction's ``0x1::transaction_fee::FeeStatement`` event: the gas charged
    (``total_units``, the transaction's ``gas_used``), its execution and IO parts in gas
    units, the storage fee in octas (charged as part of the total, converted at the
    transaction's gas unit price), and the storage refund in octas (paid back after)."""

    total_units: int
    execution_units: int
    io_units: int
    storage_octas: int
    refund_octas: int


_STATEMENT_FIELDS: Final = (
    "total_charge_gas_units",
    "execution_gas_units",
    "io_gas_units",
    "storage_fee_octas",
    "storage_fee_refund_octas",
)


def fee_statement(txn: Any) -> FeeStatement | None:
    """The transaction's fee statement: None when it carries none (the embedded node
    emits none; public nodes, one with every user transaction) or one whose fields are
    not all u64."""
    for event in _events(txn):
        if event.type == _FEE_STATEMENT and isinstance(event.data, dict):
            values = [_u64(event.data.get(name)) for name in _STATEMENT_FIELDS]
            found = [v for v in values if v is not None]
            return FeeStatement(*found) if len(found) == len(values) else None
    return None


def storage_fee_refund(txn: Any) -> int:
    """The storage refund the ``FeeStatement`` event reports (0 without one)."""
    for event in _events(txn):
        if event.type == _FEE_STATEMENT and isinstance(event.data, dict):
            raw = _u64(event.data.get("storage_fee_refund_octas"))
            if raw is not None:
                return raw
    return 0


def _addresses_in(value: Any) -> Iterator[str]:
    """Every address-looking string inside a JSON value (arguments, event data)."""
    if isinstance(value, str):
        if value.startswith("0x"):
            found = _long(value)
            if found is not None:
                yield found
    elif isinstance(value, list):
        for item in value:
            yield from _addresses_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _addresses_in(item)


def _accounts_named(txn: Any) -> list[str]:
    """The accounts a transaction names: signers, fee payer, arguments, event data and
    the addresses its write set touches."""
    named: dict[str, None] = {}

    def add(values: Iterable[str]) -> None:
        for value in values:
            named.setdefault(value, None)

    add(_addresses_in(getattr(txn, "sender", None)))
    signature = getattr(txn, "signature", None)
    if isinstance(signature, MultiAgentSignature | FeePayerSignature):
        add(_addresses_in(list(signature.secondary_signer_addresses)))
    if isinstance(signature, FeePayerSignature):
        add(_addresses_in(signature.fee_payer_address))
    payload = getattr(txn, "payload", None)
    add(_addresses_in(getattr(payload, "arguments", None)))
    if isinstance(payload, MultisigPayload):  # a call made as the multisig account
        add(_addresses_in(payload.multisig_address))
        add(_addresses_in(getattr(payload.transaction_payload, "arguments", None)))
    for event in _events(txn):
        add(_addresses_in(event.data))
        add(_stored_call_addresses(event))
    for change in getattr(txn, "changes", None) or ():
        add(_addresses_in(getattr(change, "address", None)))
    return list(named)


#: The events of a multisig account's stored call being run: its BCS is in their data.
_STORED_CALL_EVENTS: Final = frozenset(
    {
        "0x1::multisig_account::TransactionExecutionSucceeded",
        "0x1::multisig_account::TransactionExecutionFailed",
    }
)


def _stored_call_addresses(event: Event) -> list[str]:
    """The 32-byte arguments of the call a multisig account had stored and now ran (its
    ``MultisigTransactionPayload`` BCS in the event's ``transaction_payload``): the
    recipient of a stored transfer is named nowhere else in the transaction."""
    tag = _struct(event.type)
    if tag is None or _base(tag) not in _STORED_CALL_EVENTS or not isinstance(event.data, dict):
        return []
    text = event.data.get("transaction_payload")
    try:
        raw = bytes.fromhex(str(text).removeprefix("0x"))
        d = Deserializer(raw)
        d.variant(("EntryFunction",), "multisig payload")
        call = EntryFunction.deserialize(d)
    except (ValueError, LedgerError):
        return []
    return [Address(arg).long for arg in call.args if len(arg) == 32]


def _fa_store_of(event: Event, tag: StructTag) -> str | None:
    """The store a fungible asset event names, or None for other events."""
    base = _base(tag)
    if base in ("0x1::fungible_asset::Withdraw", "0x1::fungible_asset::Deposit"):
        return _long(event.data.get("store")) if isinstance(event.data, dict) else None
    if base in ("0x1::fungible_asset::WithdrawEvent", "0x1::fungible_asset::DepositEvent"):
        return _long(event.guid.account_address)  # the store's own event handle
    return None


def _fa_events(txn: Any) -> Iterator[tuple[str, int]]:
    """``(store, signed amount)`` of each fungible asset event, in order."""
    for event in _events(txn):
        tag = _struct(event.type)
        if tag is None:
            continue
        store = _fa_store_of(event, tag)
        amount = _amount(event.data)
        if store is not None and amount is not None:
            sign = -1 if tag.name.startswith("Withdraw") else 1
            yield store, sign * amount


def _genesis_stores(txn: Any) -> Iterator[tuple[str, int]]:
    """``(store, balance)`` of each fungible store the genesis write set creates funded."""
    if not isinstance(txn, GenesisTransaction):
        return
    for address, tag, data in _resources(txn):
        if _base(tag) == _FUNGIBLE_STORE and isinstance(data, dict):
            balance = _u64(data.get("balance"))
            if balance:
                yield address, balance


def resolved_stores(
    txn: Any, looked_up: Mapping[str, StoreFacts] | None = None
) -> dict[str, StoreFacts]:
    """What is known of each fungible store whose balance the transaction moves:
    ``store -> (owner, metadata)``, each long form or None."""
    stores: dict[str, StoreFacts]
    stores = {store: (None, None) for store, _ in _fa_events(txn)}
    stores.update({store: (None, None) for store, _ in _genesis_stores(txn)})
    written = _written_stores(txn)
    given = {(_long(k) or k): v for k, v in (looked_up or {}).items()}
    for store in stores:
        owner, metadata = written.get(store, (None, None))
        other_owner, other_metadata = given.get(store, (None, None))
        stores[store] = (owner or _long(other_owner), metadata or _long(other_metadata))
    unowned = {s: meta for s, (owner, meta) in stores.items() if owner is None and meta}
    if unowned:
        candidates = _accounts_named(txn)
        for store, metadata in unowned.items():
            for account in candidates:
                if primary_store_address(account, metadata).long == store:
                    stores[store] = (account, metadata)
                    break
    return stores


def stores_to_look_up(txn: Any) -> list[str]:
    """The fungible stores whose owner or asset the transaction alone does not tell
    (long form): read their ``ObjectCore`` and ``FungibleStore`` to complete the
    balance changes."""
    return [s for s, (owner, meta) in resolved_stores(txn).items() if owner is None or not meta]


def store_facts(resources: Iterable[MoveResource]) -> StoreFacts:
    """``(owner, metadata)`` of a fungible store (each long form as the node wrote it, or
    None), from its resources: its ``ObjectCore`` and its ``FungibleStore``, as
    :func:`stores_to_look_up` asks them to be read."""
    if isinstance(resources, str | bytes) or not isinstance(resources, Iterable):
        raise InputError(f"store_facts takes a store's resources, got {type(resources).__name__}")
    owner = metadata = None
    for resource in resources:
        if not isinstance(resource, MoveResource):
            kind = type(resource).__name__
            raise InputError(f"store_facts takes MoveResource records, got {kind}")
        data = resource.data if isinstance(resource.data, Mapping) else {}
        if resource.type == _OBJECT_CORE:
            owner = data.get("owner")
        elif resource.type == _FUNGIBLE_STORE:
            inner = data.get("metadata")
            metadata = inner.get("inner") if isinstance(inner, Mapping) else None
    return (
        owner if isinstance(owner, str) else None,
        metadata if isinstance(metadata, str) else None,
    )


def _coin_handles(txn: Any) -> dict[tuple[str, int], str]:
    """``(address, creation number) -> coin type`` of the handles of written coin stores."""
    handles: dict[tuple[str, int], str] = {}
    for address, tag, data in _resources(txn):
        if _base(tag) != _COIN_STORE or len(tag.type_args) != 1 or not isinstance(data, dict):
            continue
        for field in ("deposit_events", "withdraw_events"):
            try:
                number = int(data[field]["guid"]["id"]["creation_num"])
            except (KeyError, TypeError, ValueError):
                continue
            handles[(address, number)] = str(tag.type_args[0])
    return handles


def _coin_type(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    found = _struct(value)
    return None if found is None else str(found)


def _coin_events(txn: Any) -> Iterator[tuple[str, str | None, int]]:
    """``(account, coin type, signed amount)`` of each coin event, in order."""
    handles: dict[tuple[str, int], str] | None = None
    for event in _events(txn):
        tag = _struct(event.type)
        amount = _amount(event.data)
        if tag is None or amount is None or tag.address.short != "0x1" or tag.module != "coin":
            continue
        data = event.data
        if tag.name in ("CoinWithdraw", "CoinDeposit"):
            account, coin = _long(data.get("account")), _coin_type(data.get("coin_type"))
        elif tag.name in ("Withdraw", "Deposit") and len(tag.type_args) == 1:
            account, coin = _long(data.get("account")), str(tag.type_args[0])
        elif tag.name in ("WithdrawEvent", "DepositEvent"):
            if handles is None:
                handles = _coin_handles(txn)
            account = _long(event.guid.account_address)
            coin = handles.get((account or "", event.guid.creation_number))
        else:
            continue
        if account is not None:
            sign = -1 if tag.name.startswith(("Withdraw", "CoinWithdraw")) else 1
            yield account, coin, sign * amount


def _genesis_coins(txn: Any) -> Iterator[tuple[str, str, int]]:
    """``(account, coin type, value)`` of each coin store the genesis write set creates."""
    if not isinstance(txn, GenesisTransaction):
        return
    for address, tag, data in _resources(txn):
        if _base(tag) == _COIN_STORE and len(tag.type_args) == 1 and isinstance(data, dict):
            coin = data.get("coin")
            value = _u64(coin.get("value")) if isinstance(coin, dict) else None
            if value:
                yield address, str(tag.type_args[0]), value


def _type_info(value: Any) -> str | None:
    """A coin type from ``0x1::type_info::TypeInfo`` JSON (hex-encoded names)."""
    if not isinstance(value, dict):
        return None
    try:
        module = bytes.fromhex(str(value["module_name"]).removeprefix("0x")).decode()
        struct = bytes.fromhex(str(value["struct_name"]).removeprefix("0x")).decode()
        address = Address.parse(str(value["account_address"]))
    except (KeyError, ValueError, UnicodeDecodeError, LedgerError):
        return None
    return _coin_type(f"{address.short}::{module}::{struct}")


def coin_types_named(txn: Any) -> dict[str, str]:
    """``asset key -> coin type`` of every coin the transaction names (its coin events,
    coin stores, and the ``PairedCoinType`` of metadata objects it writes)."""
    found: dict[str, str] = {}

    def add(coin: str | None) -> None:
        if coin is not None:
            with contextlib.suppress(LedgerError):
                found.setdefault(paired_metadata_address(coin), coin)

    for _, coin, _ in _coin_events(txn):
        add(coin)
    for address, tag, data in _resources(txn):
        if _base(tag) == _COIN_STORE and len(tag.type_args) == 1:
            add(str(tag.type_args[0]))
        elif _base(tag) == _PAIRED_COIN and isinstance(data, dict):
            coin = _type_info(data.get("type"))
            if coin is not None:
                found.setdefault(address, coin)
    return found


def _key(coin: str | None) -> str | None:
    if coin is None:
        return None
    try:
        return paired_metadata_address(coin)
    except LedgerError:
        return None


def balance_deltas(
    txn: Any, stores: Mapping[str, StoreFacts] | None = None
) -> dict[BalanceKey, int]:
    """The net change of each account's balance of each asset, exact, zeros left out.

    Parameters
    ----------
    txn : Transaction
        A committed or simulated transaction, of any type.
    stores : mapping, optional
        Store address -> ``(owner, metadata)`` looked up elsewhere, for the stores of
        :func:`stores_to_look_up`.

    Returns
    -------
    dict
        ``(account, asset) -> signed change``; the asset is its key (a metadata address,
        a coin's paired one), None when unknown; a fungible store whose owner is unknown
        stands for its owner.
    """
    deltas: dict[BalanceKey, int] = {}

    def add(key: BalanceKey, amount: int) -> None:
        deltas[key] = deltas.get(key, 0) + amount

    known = resolved_stores(txn, stores)
    for store, amount in [*_genesis_stores(txn), *_fa_events(txn)]:
        owner, metadata = known.get(store, (None, None))
        add((owner or store, metadata), amount)
    for account, coin, amount in [*_genesis_coins(txn), *_coin_events(txn)]:
        add((account, _key(coin)), amount)
    if isinstance(txn, UserTransaction):
        payer = gas_payer(txn)
        charged = txn.gas_used * txn.gas_unit_price - storage_fee_refund(txn)
        if charged and payer != _ZERO:
            add((payer, APT_METADATA), -charged)
    return {key: value for key, value in deltas.items() if value}
