"""The processors: rows of the indexer's tables from committed transactions (the node
API's JSON of each), in version order.

They follow what aptos-indexer-processors records (see ``_tables`` for where the facts
come from): addresses standardized to 66 characters; ``account_transactions`` names the
signers, the account of every event's handle, the address of every written or deleted
resource and the owner of every written ``ObjectCore`` (genesis, block metadata and user
transactions; not block epilogues); a user transaction's gas is a
``0x1::aptos_coin::GasFeeEvent`` activity at event index -1. An asset with a paired coin
(APT: ``0x1::aptos_coin::AptosCoin``) is recorded under the coin's type, with its
metadata address as ``asset_type_v2``.

:class:`TransactionIndexer` holds what a transaction's rows depend on from earlier ones
(objects' owners, stores' assets, paired coin types), filled from the tables on start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from ledgerkit.localnet.indexer._token_processor import token_rows
from ledgerkit.localnet.indexer._token_v1_processor import table_owner, token_v1_rows, v1_tables
from ledgerkit.models import primary_store_address
from ledgerkit.types import Address

__all__ = [
    "GAS_FEE_EVENT",
    "PROCESSORS",
    "Rows",
    "TransactionIndexer",
    "iso_timestamp",
]

#: The processors whose progress ``processor_status`` reports (the indexer's names).
PROCESSORS: Final = (
    "default_processor",
    "account_transactions_processor",
    "user_transaction_processor",
    "events_processor",
    "fungible_asset_processor",
    "objects_processor",
    "token_v2_processor",
)
GAS_FEE_EVENT: Final = "0x1::aptos_coin::GasFeeEvent"
_FA: Final = "0x1::fungible_asset::"
_FA_EVENTS: Final = {
    _FA + name for name in ("Deposit", "Withdraw", "Frozen", "DepositEvent", "WithdrawEvent")
}
_INDEXED_TYPE_CHARS: Final = 300


def iso_timestamp(usec: int) -> str:
    """Microseconds since the epoch as the stored timestamp text (six fraction digits)."""
    moment = datetime.fromtimestamp(usec // 1_000_000, UTC).replace(tzinfo=None)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{usec % 1_000_000:06d}"


def _std(address: str) -> str:
    return Address.parse(address).long


def _coin_type(paired: dict[str, Any]) -> str:
    """``0x1::aptos_coin::AptosCoin`` from a ``PairedCoinType``'s type info."""
    module = bytes.fromhex(paired["module_name"].removeprefix("0x")).decode()
    struct = bytes.fromhex(paired["struct_name"].removeprefix("0x")).decode()
    return f"{Address.parse(paired['account_address'])}::{module}::{struct}"


@dataclass
class Rows:
    """Rows of each table, by table name, in the order made."""

    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def add(self, table: str, row: dict[str, Any]) -> None:
        self.tables.setdefault(table, []).append(row)


@dataclass
class _Known:
    """What later transactions need: object owners, stores' metadata, paired coins,
    token v1 tables' resource types and owners (``"<type> <owner>"``)."""

    owners: dict[str, str] = field(default_factory=dict)
    stores: dict[str, str] = field(default_factory=dict)
    paired: dict[str, str] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)


class TransactionIndexer:
    """Turns committed transactions into rows (see the module).

    Parameters
    ----------
    lookup : callable
        ``lookup(kind, key)`` -> the value recorded earlier (``"owner"`` of an object,
        ``"store"``'s metadata address, ``"paired"`` coin of a metadata address,
        ``"table"``: a token v1 table's ``"<resource type> <owner>"``) or None:
        the tables' memory, for what this indexer has not seen since it started.
    """

    def __init__(self, lookup: Callable[[str, str], str | None]) -> None:
        self._lookup = lookup
        self._known = _Known()

    def _recall(self, kind: str, key: str) -> str | None:
        caches = {"owner": self._known.owners, "store": self._known.stores}
        cache = (caches | {"table": self._known.tables}).get(kind, self._known.paired)
        if key not in cache:
            found = self._lookup(kind, key)
            if found is None:
                return None
            cache[key] = found
        return cache[key]

    def _asset(self, metadata: str) -> tuple[str, str | None]:
        """``(asset_type, asset_type_v1)`` of a metadata address."""
        coin = self._recall("paired", metadata)
        return (coin or metadata), coin

    def index(self, txn: dict[str, Any], block: tuple[int, int], now: str, rows: Rows) -> None:
        """Add the rows of one transaction; ``block`` is its ``(height, epoch)``."""
        kind = txn["type"]
        version = int(txn["version"])
        height, epoch = block
        stamp = iso_timestamp(int(txn.get("timestamp", "0")))
        changes = txn.get("changes", [])
        events = txn.get("events", [])
        self._learn(changes)
        for index, event in enumerate(events):
            rows.add("events", _event_row(event, version, index, height, now))
        payload = txn.get("payload") or {}
        # a multisig payload is indexed under the call it carries (none when stored on chain)
        called = payload.get("transaction_payload") or payload
        function = called.get("function") if kind == "user_transaction" else None
        if kind in ("user_transaction", "genesis_transaction", "block_metadata_transaction"):
            for account in sorted(self._accounts(txn, changes, events)):
                rows.add(
                    "account_transactions",
                    {
                        "transaction_version": version,
                        "account_address": account,
                        "inserted_at": now,
                    },
                )
        context = {
            "transaction_version": version,
            "is_transaction_success": bool(txn.get("success", True)),
            "entry_function_id_str": function,
            "block_height": height,
            "transaction_timestamp": stamp,
            "inserted_at": now,
            "storage_refund_amount": 0,
        }
        if kind == "user_transaction":
            rows.add("user_transactions", _user_row(txn, function, height, epoch, stamp, now))
            self._gas_activity(txn, context, rows)
            token_rows(txn, context, rows.add)
            for handle, (resource, owner) in v1_tables(changes).items():
                self._known.tables[handle] = f"{resource} {owner}"
                rows.add("_v1_tables", {"handle": handle, "resource": resource, "owner": owner})
            token_v1_rows(
                txn, context, rows.add, lambda handle: table_owner(self._recall("table", handle))
            )
        for index, event in enumerate(events):
            if event["type"] in _FA_EVENTS:
                self._activity(event, index, context, rows)
        for change in changes:
            self._state_rows(change, version, stamp, now, rows)

    def _learn(self, changes: list[dict[str, Any]]) -> None:
        for change in changes:
            if change["type"] != "write_resource":
                continue
            tag, data = change["data"]["type"], change["data"]["data"]
            address = _std(change["address"])
            if tag == "0x1::object::ObjectCore":
                self._known.owners[address] = _std(data["owner"])
            elif tag == _FA + "FungibleStore":
                self._known.stores[address] = _std(data["metadata"]["inner"])
            elif tag == "0x1::coin::PairedCoinType":
                self._known.paired[address] = _coin_type(data["type"])

    def _accounts(
        self, txn: dict[str, Any], changes: list[dict[str, Any]], events: list[dict[str, Any]]
    ) -> set[str]:
        accounts = set()
        if "sender" in txn:
            accounts.add(_std(txn["sender"]))
            signature = txn.get("signature") or {}
            for signer in signature.get("secondary_signer_addresses", []):
                accounts.add(_std(signer))
            payer = signature.get("fee_payer_address")
            if payer:
                accounts.add(_std(payer))
        for event in events:
            accounts.add(_std(event["guid"]["account_address"]))
        for change in changes:
            if change["type"] in ("write_resource", "delete_resource"):
                accounts.add(_std(change["address"]))
                data = change.get("data") or {}
                if data.get("type") == "0x1::object::ObjectCore":
                    accounts.add(_std(data["data"]["owner"]))
        return accounts

    def _gas_activity(self, txn: dict[str, Any], context: dict[str, Any], rows: Rows) -> None:
        fee = int(txn["gas_used"]) * int(txn["gas_unit_price"])
        payer = (txn.get("signature") or {}).get("fee_payer_address")
        owner = _std(payer or txn["sender"])
        metadata = Address.from_int(0xA).long
        asset_type, _ = self._asset(metadata)
        rows.add(
            "fungible_asset_activities",
            context
            | {
                "event_index": -1,
                "owner_address": _std(txn["sender"]),
                "storage_id": primary_store_address(owner, metadata).long,
                "asset_type": asset_type,
                "is_frozen": None,
                "amount": fee,
                "type": GAS_FEE_EVENT,
                "is_gas_fee": True,
                "gas_fee_payer_address": _std(payer) if payer else None,
                "token_standard": "v1" if asset_type != metadata else "v2",
            },
        )

    def _activity(
        self, event: dict[str, Any], index: int, context: dict[str, Any], rows: Rows
    ) -> None:
        data = event["data"]
        store = _std(data.get("store", event["guid"]["account_address"]))
        metadata = self._recall("store", store)
        asset_type = self._asset(metadata)[0] if metadata is not None else None
        frozen = data.get("frozen") if event["type"].endswith("Frozen") else None
        rows.add(
            "fungible_asset_activities",
            context
            | {
                "event_index": index,
                "owner_address": self._recall("owner", store),
                "storage_id": store,
                "asset_type": asset_type,
                "is_frozen": frozen,
                "amount": int(data["amount"]) if "amount" in data else None,
                "type": event["type"],
                "is_gas_fee": False,
                "gas_fee_payer_address": None,
                "token_standard": "v2",
            },
        )

    def _state_rows(
        self, change: dict[str, Any], version: int, stamp: str, now: str, rows: Rows
    ) -> None:
        kind = change["type"]
        if kind not in ("write_resource", "delete_resource"):
            return
        address = _std(change["address"])
        if kind == "delete_resource":
            # An object deleted whole is its resource group deleted, as a node lists it.
            if change.get("resource") == "0x1::object::ObjectGroup":
                owner = self._recall("owner", address) or address
                rows.add("current_objects", _object_row(address, owner, change, version, now))
            return
        tag, data = change["data"]["type"], change["data"]["data"]
        if tag == "0x1::object::ObjectCore":
            rows.add("current_objects", _object_row(address, data, change, version, now))
        elif tag == _FA + "FungibleStore":
            self._balance_row(address, data, version, stamp, now, rows)
        elif tag == _FA + "Metadata":
            self._metadata_rows(address, data, version, stamp, now, rows)
        elif tag in (_FA + "ConcurrentSupply", _FA + "Supply"):
            current = data["current"]
            supply = int(current["value"] if isinstance(current, dict) else current)
            if isinstance(current, dict):
                maximum: int | None = int(current["max_value"])
            else:
                vec = data["maximum"]["vec"]
                maximum = int(vec[0]) if vec else None
            rows.add("_supplies", {"asset_type": address, "supply": supply, "maximum": maximum})
        elif tag == "0x1::coin::PairedCoinType":
            rows.add("_paired", {"metadata": address, "coin": _coin_type(data["type"])})
        elif tag.startswith("0x1::coin::CoinInfo<"):
            coin = tag[len("0x1::coin::CoinInfo<") : -1]
            rows.add(
                "fungible_asset_metadata",
                _metadata(coin, address, data, version, stamp, now) | {"token_standard": "v1"},
            )

    def _balance_row(
        self, store: str, data: dict[str, Any], version: int, stamp: str, now: str, rows: Rows
    ) -> None:
        metadata = _std(data["metadata"]["inner"])
        owner = self._recall("owner", store) or store
        asset_type, coin = self._asset(metadata)
        amount = int(data["balance"])
        rows.add(
            "current_fungible_asset_balances",
            {
                "storage_id": store,
                "owner_address": owner,
                "asset_type_v2": metadata,
                "asset_type_v1": coin,
                "is_primary": primary_store_address(owner, metadata).long == store,
                "is_frozen": bool(data["frozen"]),
                "amount_v1": None,
                "amount_v2": amount,
                "amount": amount,
                "last_transaction_version_v1": None,
                "last_transaction_version_v2": version,
                "last_transaction_version": version,
                "last_transaction_timestamp_v1": None,
                "last_transaction_timestamp_v2": stamp,
                "last_transaction_timestamp": stamp,
                "inserted_at": now,
                "asset_type": asset_type,
                "token_standard": "v1" if coin else "v2",
            },
        )

    def _metadata_rows(
        self, address: str, data: dict[str, Any], version: int, stamp: str, now: str, rows: Rows
    ) -> None:
        creator = self._recall("owner", address) or address
        row = _metadata(address, creator, data, version, stamp, now)
        rows.add(
            "fungible_asset_metadata",
            row | {"token_standard": "v2", "is_token_v2": False, "icon_uri": data["icon_uri"]},
        )


def _metadata(
    asset_type: str, creator: str, data: dict[str, Any], version: int, stamp: str, now: str
) -> dict[str, Any]:
    return {
        "asset_type": asset_type,
        "creator_address": creator,
        "name": data["name"],
        "symbol": data["symbol"],
        "decimals": int(data["decimals"]),
        "icon_uri": None,
        "project_uri": data.get("project_uri"),
        "last_transaction_version": version,
        "last_transaction_timestamp": stamp,
        "supply_aggregator_table_handle_v1": None,
        "supply_aggregator_table_key_v1": None,
        "inserted_at": now,
        "is_token_v2": None,
        "supply_v2": None,
        "maximum_v2": None,
    }


def _object_row(
    address: str, data: dict[str, Any] | str, change: dict[str, Any], version: int, now: str
) -> dict[str, Any]:
    deleted = isinstance(data, str)
    core: dict[str, Any] = {} if isinstance(data, str) else data
    return {
        "object_address": address,
        "owner_address": data if isinstance(data, str) else _std(core["owner"]),
        "state_key_hash": change.get("state_key_hash", ""),
        "allow_ungated_transfer": bool(core.get("allow_ungated_transfer", False)),
        "last_guid_creation_num": int(core.get("guid_creation_num", 0)),
        "last_transaction_version": version,
        "is_deleted": deleted,
        "inserted_at": now,
        "untransferrable": False,
    }


def _event_row(
    event: dict[str, Any], version: int, index: int, height: int, now: str
) -> dict[str, Any]:
    return {
        "sequence_number": int(event["sequence_number"]),
        "creation_number": int(event["guid"]["creation_number"]),
        "account_address": _std(event["guid"]["account_address"]),
        "transaction_version": version,
        "transaction_block_height": height,
        "type": event["type"],
        "data": event["data"],
        "inserted_at": now,
        "event_index": index,
        "indexed_type": event["type"][:_INDEXED_TYPE_CHARS],
    }


def _user_row(
    txn: dict[str, Any], function: str | None, height: int, epoch: int, stamp: str, now: str
) -> dict[str, Any]:
    parts = function.split("::") if function else [None, None, None]
    return {
        "version": int(txn["version"]),
        "block_height": height,
        "parent_signature_type": (txn.get("signature") or {}).get("type", ""),
        "sender": _std(txn["sender"]),
        "sequence_number": int(txn.get("sequence_number") or 0),
        "max_gas_amount": int(txn["max_gas_amount"]),
        "expiration_timestamp_secs": iso_timestamp(int(txn["expiration_timestamp_secs"]) * 10**6),
        "gas_unit_price": int(txn["gas_unit_price"]),
        "timestamp": stamp,
        "entry_function_id_str": function or "",
        "inserted_at": now,
        "epoch": epoch,
        "entry_function_contract_address": _std(parts[0]) if parts[0] else None,
        "entry_function_module_name": parts[1],
        "entry_function_function_name": parts[2],
    }
