"""The token v2 processor's token v1 part: rows of ``current_collections_v2``,
``current_token_datas_v2``, ``current_token_ownerships_v2``, ``token_activities_v2`` and
``current_token_pending_claims`` for tokens of ``0x3::token``, as aptos-indexer-processors'
``token_v2_processor`` records them in the same tables as digital assets.

Ids: a token data's is ``"0x" + hex(SHA-256("<creator>::<collection>::<name>"))`` (the
creator long form), a collection's ``"0x" + hex(SHA-256("<creator>::<collection>"))``; the
pending claims keep both hashes without the ``0x`` too (``token_data_id_hash``,
``collection_data_id_hash``).

What it follows: a table's owner is the account of the resource holding its handle
(``Collections``' ``collection_data``, ``TokenStore``'s ``tokens``, ``PendingClaims``'
``pending_claims``), remembered from the transaction that wrote the resource (the
processor reads it from the batch of transactions, and its earlier rows). A written
``CollectionData`` item is a collection row (supply, maximum and mutability from it,
``table_handle_v1`` the table); a written ``TokenData`` item a token data row; a written
``Token`` item in a ``TokenStore`` table the owner's row with its amount (its own property
map as ``token_properties_mutated_v1``), a deleted one that row at amount 0; a written or
deleted ``TokenOfferId`` item a pending claim with its amount (0 when claimed or
cancelled). Activities come from the module events (``0x3::token::Mint``, ``Burn``,
``TokenDeposit``, ``TokenWithdraw``, ``MutatePropertyMap``, ``0x3::token_transfers::Offer``,
``Claim``, ``CancelOffer``) and their older handle forms, under the event's own type name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, Final

from ledgerkit.bcs import PROPERTY_TYPES, property_value_text
from ledgerkit.types import Address

__all__ = ["V1_TABLE_RESOURCES", "table_owner", "token_v1_rows", "v1_tables"]

#: The resources whose tables hold token v1 state: ``type -> field`` of the handle.
V1_TABLE_RESOURCES: Final = {
    "0x3::token::Collections": "collection_data",
    "0x3::token::TokenStore": "tokens",
    "0x3::token_transfers::PendingClaims": "pending_claims",
}
_STORE: Final = "0x3::token::TokenStore"
_JSON_NULL: Final = "null"
#: Event type -> (field of the token id, field of the sender, field of the receiver):
#: ``"@"`` is the event's handle account, ``None`` no address; a ``TokenDataId`` field
#: (mints) has property version 0.
_EVENTS: Final[dict[str, tuple[str, str | None, str | None]]] = {
    "0x3::token::MintTokenEvent": ("id", "@", None),
    "0x3::token::Mint": ("id", "creator", None),
    "0x3::token::BurnTokenEvent": ("id", "@", None),
    "0x3::token::Burn": ("id", "account", None),
    "0x3::token::MutateTokenPropertyMapEvent": ("new_id", "@", None),
    "0x3::token::MutatePropertyMap": ("new_id", "account", None),
    "0x3::token::WithdrawEvent": ("id", "@", None),
    "0x3::token::TokenWithdraw": ("id", "account", None),
    "0x3::token::DepositEvent": ("id", None, "@"),
    "0x3::token::TokenDeposit": ("id", None, "account"),
    "0x3::token_transfers::TokenOfferEvent": ("token_id", "@", "to_address"),
    "0x3::token_transfers::Offer": ("token_id", "account", "to_address"),
    "0x3::token_transfers::TokenCancelOfferEvent": ("token_id", "@", "to_address"),
    "0x3::token_transfers::CancelOffer": ("token_id", "account", "to_address"),
    "0x3::token_transfers::TokenClaimEvent": ("token_id", "@", "to_address"),
    "0x3::token_transfers::Claim": ("token_id", "account", "to_address"),
}
_CLAIMS: Final = ("0x3::token_transfers::TokenClaimEvent", "0x3::token_transfers::Claim")
#: The property types the processor reads (others are kept as their hex).
_READ: Final = ("0x1::string::String", "u8", "u64", "u128", "bool")


def _std(address: str) -> str:
    return Address.parse(address).long


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _ids(data_id: dict[str, Any]) -> tuple[str, str]:
    """``(token data id hash, collection id hash)`` of a ``TokenDataId``, no ``0x``."""
    creator = _std(data_id["creator"])
    return (
        _sha256(f"{creator}::{data_id['collection']}::{data_id['name']}"),
        _sha256(f"{creator}::{data_id['collection']}"),
    )


def _value_text(kind: str, value: str) -> str:
    try:
        data = bytes.fromhex(value.removeprefix("0x"))
    except ValueError:
        return value
    if kind == "address":  # read as a BCS string, as the processor does
        text = property_value_text(PROPERTY_TYPES.index("0x1::string::String"), data)
        return value if text is None else "0x" + text
    if kind not in _READ:
        return value
    text = property_value_text(PROPERTY_TYPES.index(kind), data)
    return value if text is None else text


def _properties(found: Any) -> Any:
    """A ``0x3::property_map::PropertyMap`` as ``{key: text}``; kept as it is when it is
    not one."""
    try:
        data = found["map"]["data"]
        entries = [(e["key"], e["value"]["type"], e["value"]["value"]) for e in data]
        return {str(key): _value_text(str(kind), str(value)) for key, kind, value in entries}
    except (KeyError, TypeError):
        return found


def v1_tables(changes: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """``handle -> (resource type, owner)`` of the token v1 tables whose resources the
    changes write."""
    found = {}
    for change in changes:
        if change["type"] != "write_resource":
            continue
        tag = change["data"]["type"]
        field = V1_TABLE_RESOURCES.get(tag)
        if field is not None:
            handle = change["data"]["data"][field]["handle"]
            found[_std(handle)] = (tag, _std(change["address"]))
    return found


def table_owner(text: str | None) -> tuple[str, str] | None:
    """A remembered table's ``"<resource type> <owner>"`` text as ``(type, owner)``."""
    if text is None:
        return None
    kind, _, owner = text.partition(" ")
    return kind, owner


def _activity(event: dict[str, Any], index: int, context: dict[str, Any]) -> dict[str, Any] | None:
    spec = _EVENTS.get(event["type"])
    if spec is None:
        return None
    field, sender, receiver = spec
    data = event["data"]
    account = _std(event["guid"]["account_address"])

    def address(name: str | None) -> str | None:
        if name is None:
            return None
        return account if name == "@" else _std(data[name])

    found = data[field]
    if "creator" in found:  # a mint names the TokenDataId
        data_id, version = found, 0
    else:
        data_id, version = found["token_data_id"], int(found["property_version"])
    return {
        "transaction_version": context["transaction_version"],
        "event_index": index,
        "event_account_address": account,
        "token_data_id": "0x" + _ids(data_id)[0],
        "property_version_v1": version,
        "type": event["type"],
        "from_address": address(sender),
        "to_address": address(receiver),
        "token_amount": int(data.get("amount", 0)),
        "before_value": None,
        "after_value": None,
        "entry_function_id_str": context["entry_function_id_str"],
        "token_standard": "v1",
        "is_fungible_v2": None,
        "transaction_timestamp": context["transaction_timestamp"],
        "inserted_at": context["inserted_at"],
    }


def token_v1_rows(
    txn: dict[str, Any],
    context: dict[str, Any],
    add: Callable[[str, dict[str, Any]], None],
    table: Callable[[str], tuple[str, str] | None],
) -> None:
    """Add the token v1 rows of one user transaction (``add(table, row)``); ``table(handle)``
    is ``(resource type, owner)`` of a token v1 table known so far, or None; ``context``
    as :func:`~ledgerkit.localnet.indexer._token_processor.token_rows` takes it."""
    last = {
        "last_transaction_version": context["transaction_version"],
        "last_transaction_timestamp": context["transaction_timestamp"],
        "inserted_at": context["inserted_at"],
    }
    claimed: dict[str, str] = {}
    for index, event in enumerate(txn.get("events", [])):
        row = _activity(event, index, context)
        if row is None:
            continue
        add("token_activities_v2", row)
        if event["type"] in _CLAIMS and row["from_address"] is not None:
            claimed[row["token_data_id"]] = row["from_address"]
    for change in txn.get("changes", []):
        kind = change["type"]
        data = change.get("data")
        if kind not in ("write_table_item", "delete_table_item") or not isinstance(data, dict):
            continue
        handle = change["handle"]
        known = table(_std(handle))
        if kind == "write_table_item":
            _written(handle, known, data, last, add)
        else:
            _deleted(handle, known, data, last, claimed, add)


def _written(
    handle: str,
    known: tuple[str, str] | None,
    data: dict[str, Any],
    last: dict[str, Any],
    add: Callable[[str, dict[str, Any]], None],
) -> None:
    key, value = data["key"], data["value"]
    value_type, key_type = data["value_type"], data["key_type"]
    if value_type == "0x3::token::CollectionData" and known is not None:
        creator = known[1]
        add(
            "current_collections_v2",
            {
                "collection_id": "0x" + _sha256(f"{creator}::{value['name']}"),
                "creator_address": creator,
                "collection_name": value["name"],
                "description": value["description"],
                "uri": value["uri"],
                "current_supply": int(value["supply"]),
                "max_supply": int(value["maximum"]),
                "total_minted_v2": None,
                "mutable_description": bool(value["mutability_config"]["description"]),
                "mutable_uri": bool(value["mutability_config"]["uri"]),
                "table_handle_v1": handle,
                "token_standard": "v1",
                "collection_properties": _JSON_NULL,
            }
            | last,
        )
    elif value_type == "0x3::token::TokenData" and key_type == "0x3::token::TokenDataId":
        token, collection = _ids(key)
        add(
            "current_token_datas_v2",
            {
                "token_data_id": "0x" + token,
                "collection_id": "0x" + collection,
                "token_name": key["name"],
                "maximum": int(value["maximum"]),
                "supply": int(value["supply"]),
                "largest_property_version_v1": int(value["largest_property_version"]),
                "token_uri": value["uri"],
                "description": value["description"],
                "token_properties": _properties(value["default_properties"]),
                "token_standard": "v1",
                "is_fungible_v2": None,
                "decimals": None,
                "is_deleted_v2": None,
            }
            | last,
        )
    elif value_type == "0x3::token::Token" and known is not None:
        if key_type == "0x3::token::TokenId" and known[0] == _STORE:
            add(
                "current_token_ownerships_v2",
                _ownership(key, known[1], _std(handle), int(value["amount"]))
                | {"token_properties_mutated_v1": _properties(value["token_properties"])}
                | last,
            )
        elif key_type == "0x3::token_transfers::TokenOfferId":
            claim = _claim(key, known[1], _std(handle), int(value["amount"]))
            add("current_token_pending_claims", claim | last)


def _deleted(
    handle: str,
    known: tuple[str, str] | None,
    data: dict[str, Any],
    last: dict[str, Any],
    claimed: dict[str, str],
    add: Callable[[str, dict[str, Any]], None],
) -> None:
    key, key_type = data["key"], data["key_type"]
    if key_type == "0x3::token::TokenId" and known is not None and known[0] == _STORE:
        row = _ownership(key, known[1], _std(handle), 0)
        add("_deleted_token_ownerships_v2", row | {"token_properties_mutated_v1": None} | last)
    elif key_type == "0x3::token_transfers::TokenOfferId":
        owner = known[1] if known is not None else None
        if owner is None:
            owner = claimed.get("0x" + _ids(key["token_id"]["token_data_id"])[0])
        if owner is not None:
            add("current_token_pending_claims", _claim(key, owner, _std(handle), 0) | last)


def _ownership(key: dict[str, Any], owner: str, storage: str, amount: int) -> dict[str, Any]:
    return {
        "token_data_id": "0x" + _ids(key["token_data_id"])[0],
        "property_version_v1": int(key["property_version"]),
        "owner_address": owner,
        "storage_id": storage,
        "amount": amount,
        "table_type_v1": _STORE,
        "is_soulbound_v2": None,
        "token_standard": "v1",
        "is_fungible_v2": None,
        "non_transferrable_by_owner": None,
    }


def _claim(key: dict[str, Any], sender: str, storage: str, amount: int) -> dict[str, Any]:
    data_id = key["token_id"]["token_data_id"]
    token, collection = _ids(data_id)
    return {
        "token_data_id_hash": token,
        "property_version": int(key["token_id"]["property_version"]),
        "from_address": sender,
        "to_address": _std(key["to_addr"]),
        "collection_data_id_hash": collection,
        "creator_address": _std(data_id["creator"]),
        "collection_name": data_id["collection"],
        "name": data_id["name"],
        "amount": amount,
        "table_handle": storage,
        "token_data_id": "0x" + token,
        "collection_id": "0x" + collection,
    }
