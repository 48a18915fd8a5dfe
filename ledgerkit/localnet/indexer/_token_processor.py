"""The token v2 processor: rows of ``current_collections_v2``, ``current_token_datas_v2``,
``current_token_ownerships_v2`` and ``token_activities_v2`` from a committed user
transaction's changes and events, for digital assets (``0x4``) as aptos-indexer-processors'
``token_v2_processor`` records them.

What it follows: an object is known to a transaction when its ``ObjectCore`` is written
there (the whole resource group is written when any member is); a collection row comes
from a written ``Collection`` (supply from ``ConcurrentSupply``, mutability from
``AptosCollection``); a token row and its owner's row (amount 1) from a written ``Token``,
with an amount-0 row for each owner it was transferred away from in the transaction; a
burn marks the token data deleted and its last owner's amount 0, changing only those
columns of the rows already there (:data:`PARTIAL_UPDATES`). Activities come from
``0x4::collection::Mint`` / ``Burn``, ``0x4::token::Mutation`` and ``0x1::object::Transfer``
(and their older handle forms): a known token's mint, burn and mutation are recorded under
the older type names the processor writes (``0x4::collection::MintEvent``...). A module
event's account is ``0x0``, so a ``Mutation`` is recorded under token ``0x0…0``, as the
processor keys it by the event's account.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.bcs import PROPERTY_TYPES, property_value_text
from ledgerkit.types import U64_MAX, Address

__all__ = ["PARTIAL_UPDATES", "token_rows"]

_CORE: Final = "0x1::object::ObjectCore"
_MINTS: Final = ("0x4::collection::Mint", "0x4::collection::MintEvent")
_BURNS: Final = ("0x4::collection::Burn", "0x4::collection::BurnEvent")
_MUTATIONS: Final = ("0x4::token::Mutation", "0x4::token::MutationEvent")
_TRANSFERS: Final = ("0x1::object::Transfer", "0x1::object::TransferEvent")
#: JSON ``null`` in a ``jsonb`` column (SQL NULL is no value at all).
_JSON_NULL: Final = "null"
#: Pseudo-tables whose rows change only some columns of a row already there:
#: ``name -> (table, primary key, columns updated)``; a row that is not there is inserted.
PARTIAL_UPDATES: Final = {
    "_deleted_token_datas_v2": (
        "current_token_datas_v2",
        ("token_data_id",),
        ("last_transaction_version", "last_transaction_timestamp", "inserted_at", "is_deleted_v2"),
    ),
    "_deleted_token_ownerships_v2": (
        "current_token_ownerships_v2",
        ("token_data_id", "property_version_v1", "owner_address", "storage_id"),
        (
            "amount",
            "last_transaction_version",
            "last_transaction_timestamp",
            "is_fungible_v2",
            "inserted_at",
        ),
    ),
}


def _std(address: str) -> str:
    return Address.parse(address).long


def _property_text(code: int, value: str) -> str:
    """A property's value as the processor writes it; the hex when it cannot decode it."""
    data = bytes.fromhex(value[2:])
    if code == 7:  # the processor reads an address as a BCS string
        text = property_value_text(PROPERTY_TYPES.index("0x1::string::String"), data)
        return value if text is None else "0x" + text
    if code == 6:  # and leaves a u256 as its hex
        return value
    text = property_value_text(code, data)
    return value if text is None else text


def _properties(group: dict[str, Any]) -> Any:
    found = group.get("0x4::property_map::PropertyMap")
    if found is None:
        return _JSON_NULL
    return {
        entry["key"]: _property_text(int(entry["value"]["type"]), entry["value"]["value"])
        for entry in found["inner"]["data"]
    }


def _collection_row(address: str, group: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    supply = group.get("0x4::collection::ConcurrentSupply")
    fixed = group.get("0x4::collection::FixedSupply")
    unlimited = group.get("0x4::collection::UnlimitedSupply")
    current, maximum, minted = 0, None, None
    if unlimited is not None:
        current, minted = int(unlimited["current_supply"]), int(unlimited["total_minted"])
    if fixed is not None:
        current, minted = int(fixed["current_supply"]), int(fixed["total_minted"])
        maximum = int(fixed["max_supply"])
    if supply is not None:
        current = int(supply["current_supply"]["value"])
        limit = int(supply["current_supply"]["max_value"])
        maximum = None if limit == U64_MAX else limit
        minted = int(supply["total_minted"]["value"])
    flags = group.get("0x4::aptos_token::AptosCollection") or {}
    return {
        "collection_id": address,
        "creator_address": _std(data["creator"]),
        "collection_name": data["name"],
        "description": data["description"],
        "uri": data["uri"],
        "current_supply": current,
        "max_supply": maximum,
        "total_minted_v2": minted,
        "mutable_description": flags.get("mutable_description"),
        "mutable_uri": flags.get("mutable_uri"),
        "table_handle_v1": None,
        "token_standard": "v2",
        "collection_properties": _properties(group),
    }


def _ownership(token: str, owner: str, amount: int, soulbound: bool | None) -> dict[str, Any]:
    return {
        "token_data_id": token,
        "property_version_v1": 0,
        "owner_address": owner,
        "storage_id": token,
        "amount": amount,
        "table_type_v1": None,
        "token_properties_mutated_v1": None,
        "is_soulbound_v2": soulbound,
        "token_standard": "v2",
        "is_fungible_v2": None,
    }


def _activity(
    event: dict[str, Any], objects: dict[str, dict[str, Any]]
) -> tuple[str, str, str | None, str | None, int, str | None, str | None]:
    """``(type, token, from, to, amount, before, after)`` of a token event."""
    kind, data = event["type"], event["data"]
    account = _std(event["guid"]["account_address"])
    if kind in _MINTS or kind in _BURNS:
        token = _std(data["token"])
    elif kind in _TRANSFERS:
        token = _std(data["object"])
    else:
        token = account
    group = objects.get(token)
    if group is None:  # a token burnt in this transaction, or none the transaction wrote
        owner = _std(data["previous_owner"]) if kind == "0x4::collection::Burn" else None
        return kind, token, owner, None, 1, None, None
    owner = _std(group[_CORE]["owner"])
    if kind in _TRANSFERS:
        return kind, token, _std(data["from"]), _std(data["to"]), 1, None, None
    if kind in _MUTATIONS:
        source = _std(data["token_address"]) if kind == _MUTATIONS[0] else owner
        named = "0x4::collection::MutationEvent" if kind == _MUTATIONS[0] else kind
        return named, token, source, None, 0, data["old_value"], data["new_value"]
    named = {"0x4::collection::Mint": _MINTS[1], "0x4::collection::Burn": _BURNS[1]}.get(kind, kind)
    return named, token, owner, None, 1, None, None


def token_rows(txn: dict[str, Any], context: dict[str, Any], add: Any) -> None:
    """Add the token v2 rows of one user transaction (``add(table, row)``); ``context``
    holds ``transaction_version``, ``transaction_timestamp``, ``entry_function_id_str``
    and ``inserted_at``."""
    changes = txn.get("changes", [])
    events = txn.get("events", [])
    version = context["transaction_version"]
    stamp = context["transaction_timestamp"]
    now = context["inserted_at"]
    last = {
        "last_transaction_version": version,
        "last_transaction_timestamp": stamp,
        "inserted_at": now,
    }
    objects: dict[str, dict[str, Any]] = {}
    for change in changes:
        if change["type"] == "write_resource" and change["data"]["type"] == _CORE:
            objects[_std(change["address"])] = {}
    for change in changes:
        if change["type"] == "write_resource":
            group = objects.get(_std(change["address"]))
            if group is not None:
                group[change["data"]["type"]] = change["data"]["data"]
    burned: dict[str, dict[str, Any]] = {}
    transfers: dict[str, list[dict[str, Any]]] = {}
    for index, event in enumerate(events):
        kind = event["type"]
        if kind in _BURNS:
            account = event["guid"]["account_address"]
            burned[_std(event["data"]["token"])] = {"collection": account} | event["data"]
        elif kind in _TRANSFERS and _std(event["data"]["object"]) in objects:
            transfers.setdefault(_std(event["data"]["object"]), []).append(event["data"])
        if kind in _MINTS + _BURNS + _MUTATIONS + _TRANSFERS:
            named, token, source, to, amount, before, after = _activity(event, objects)
            add(
                "token_activities_v2",
                {
                    "transaction_version": version,
                    "event_index": index,
                    "event_account_address": _std(event["guid"]["account_address"]),
                    "token_data_id": token,
                    "property_version_v1": 0,
                    "type": named,
                    "from_address": source,
                    "to_address": to,
                    "token_amount": amount,
                    "before_value": before,
                    "after_value": after,
                    "entry_function_id_str": context["entry_function_id_str"],
                    "token_standard": "v2",
                    "is_fungible_v2": None,
                    "transaction_timestamp": stamp,
                    "inserted_at": now,
                },
            )
    for change in changes:
        address = _std(change["address"]) if "address" in change else ""
        if change["type"] == "delete_resource" and address in burned:
            _burn_rows(address, burned[address], last, add)
            continue
        if change["type"] != "write_resource" or address not in objects:
            continue
        tag, data = change["data"]["type"], change["data"]["data"]
        group = objects[address]
        if tag == "0x4::collection::Collection":
            add("current_collections_v2", _collection_row(address, group, data) | last)
        elif tag == "0x4::token::Token":
            _token(address, group, data, transfers.get(address, []), last, add)


def _token(
    address: str,
    group: dict[str, Any],
    data: dict[str, Any],
    transfers: list[dict[str, Any]],
    last: dict[str, Any],
    add: Any,
) -> None:
    identifiers = group.get("0x4::token::TokenIdentifiers")
    name = data["name"] if identifiers is None else identifiers["name"]["value"]
    add(
        "current_token_datas_v2",
        {
            "token_data_id": address,
            "collection_id": _std(data["collection"]["inner"]),
            "token_name": name,
            "maximum": None,
            "supply": None,
            "largest_property_version_v1": None,
            "token_uri": data["uri"],
            "description": data["description"],
            "token_properties": _properties(group),
            "token_standard": "v2",
            "is_fungible_v2": "0x1::fungible_asset::Metadata" in group,
            "decimals": None,
            "is_deleted_v2": False,
        }
        | last,
    )
    core = group[_CORE]
    ungated = bool(core["allow_ungated_transfer"])
    soulbound = "0x1::object::Untransferable" in group or not ungated
    row = _ownership(address, _std(core["owner"]), 1, soulbound)
    add("current_token_ownerships_v2", row | last | {"non_transferrable_by_owner": not ungated})
    for moved in transfers:
        if _std(moved["from"]) == _std(moved["to"]):
            continue
        row = _ownership(address, _std(moved["from"]), 0, soulbound)
        add("current_token_ownerships_v2", row | last | {"non_transferrable_by_owner": soulbound})


def _burn_rows(token: str, burn: dict[str, Any], last: dict[str, Any], add: Any) -> None:
    add(
        "_deleted_token_datas_v2",
        {
            "token_data_id": token,
            "collection_id": _std(burn["collection"]),
            "token_name": "",
            "maximum": None,
            "supply": None,
            "largest_property_version_v1": None,
            "token_uri": "",
            "description": "",
            "token_properties": _JSON_NULL,
            "token_standard": "v2",
            "is_fungible_v2": False,
            "decimals": None,
            "is_deleted_v2": True,
        }
        | last,
    )
    owner = _std(burn["previous_owner"]) if burn.get("previous_owner") else "unknown"
    row = _ownership(token, owner, 0, None)
    add("_deleted_token_ownerships_v2", row | last | {"non_transferrable_by_owner": None})
