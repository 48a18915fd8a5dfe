"""The digital assets (tokens) an account owns, as :class:`Holding` records of
``kind="token"``. No I/O here: flows.

The node API cannot list the objects an account owns, so tokens are found two ways:

- by the indexer (:func:`indexed_tokens`): its ``current_token_ownerships_v2`` rows of the
  owner with an amount, their token data and collection joined in (the Hasura schema of
  the Aptos indexer, which the embedded node's serves too), in pages of
  :data:`PAGE_ROWS`, at most :data:`MAX_INDEXED_TOKENS` tokens; token v2 and token v1
  alike, fungible tokens left out (they are fungible assets);
- at addresses the caller names (:func:`named_tokens`): the object's resources read from
  the node (``0x4::token::Token``, ``TokenIdentifiers``, ``PropertyMap``, its
  ``0x1::object::ObjectCore`` owner) and its collection's ``Collection``; listed when the
  account owns it.

Property maps are given as text, as the indexer writes them: numbers in decimal, bools
``true``/``false``, strings as they are, addresses and byte vectors in ``0x`` hex. A token
v1 of property version 0 has its token data's default properties; one of a later version
(its properties changed for it alone) has its own, ``token_properties_mutated_v1``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, Final

from ledgerkit._errors import InputError, LedgerError, NotFoundError
from ledgerkit.bcs import property_value_text
from ledgerkit.client import calls
from ledgerkit.client._calls._graphql import ask_indexer_pages
from ledgerkit.client._driver import Flow, send
from ledgerkit.client._flows._holding import Holding
from ledgerkit.types import Address

__all__ = [
    "MAX_INDEXED_TOKENS",
    "MAX_NAMED_TOKENS",
    "PAGE_ROWS",
    "checked_tokens",
    "indexed_tokens",
    "named_tokens",
    "property_map",
]

#: Rows of ownerships asked for at once.
PAGE_ROWS: Final = 100
#: Most tokens listed from the indexer (then a warning says the list is cut).
MAX_INDEXED_TOKENS: Final = 20 * PAGE_ROWS
#: Most token addresses a caller may name.
MAX_NAMED_TOKENS: Final = 1_000

TOKEN: Final = "0x4::token::Token"
TOKEN_IDENTIFIERS: Final = "0x4::token::TokenIdentifiers"
PROPERTY_MAP: Final = "0x4::property_map::PropertyMap"
COLLECTION: Final = "0x4::collection::Collection"
OBJECT_CORE: Final = "0x1::object::ObjectCore"

_log = logging.getLogger("ledgerkit")

_OWNED_TOKENS: Final = """
query AccountTokens($owner: String!, $limit: Int!, $offset: Int!) {
  current_token_ownerships_v2(
    where: {owner_address: {_eq: $owner}, amount: {_gt: 0}}
    order_by: [{token_data_id: asc}, {property_version_v1: asc}, {storage_id: asc}]
    limit: $limit
    offset: $offset
  ) {
    token_data_id
    property_version_v1
    amount
    token_standard
    is_fungible_v2
    token_properties_mutated_v1
    current_token_data {
      token_name
      token_uri
      token_properties
      collection_id
      current_collection { collection_name }
    }
  }
}
"""


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any, default: int | None = None) -> int | None:
    if isinstance(value, bool):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _properties(value: Any) -> dict[str, str] | None:
    if not isinstance(value, dict):
        return None
    return {str(key): item if isinstance(item, str) else str(item) for key, item in value.items()}


def _indexed(row: dict[str, Any]) -> Holding | None:
    """A row of ``current_token_ownerships_v2`` as a holding (``None``: not a token)."""
    token = _text(row.get("token_data_id"))
    if token is None or row.get("is_fungible_v2") is True:
        return None
    joined = row.get("current_token_data")
    data: dict[str, Any] = joined if isinstance(joined, dict) else {}
    collection = data.get("current_collection")
    standard = _text(row.get("token_standard"))
    version = _int(row.get("property_version_v1")) if standard == "v1" else None
    properties = _properties(data.get("token_properties"))
    if version:  # a token v1 past version 0 carries a property map of its own
        properties = _properties(row.get("token_properties_mutated_v1")) or properties
    return Holding(
        _long(token),
        "token",
        _int(row.get("amount"), 0) or 0,
        0,
        None,
        _text(data.get("token_name")),
        collection=_text(collection.get("collection_name"))
        if isinstance(collection, dict)
        else None,
        collection_id=_long_or_none(data.get("collection_id")),
        token_standard=standard,
        uri=_text(data.get("token_uri")),
        properties=properties,
        property_version=version,
    )


def _long(address: str) -> str:
    try:
        return Address.parse(address).long
    except InputError:  # a v1 token data id is a hash, written as the indexer does
        return address


def _long_or_none(value: Any) -> str | None:
    return _long(value) if isinstance(value, str) else None


def indexed_tokens(owner: Address) -> Flow[list[Holding]]:
    """The tokens the indexer says ``owner`` holds, in token order (see the module)."""
    rows, more = yield from ask_indexer_pages(
        _OWNED_TOKENS, "current_token_ownerships_v2", owner.long, PAGE_ROWS, MAX_INDEXED_TOKENS
    )
    found: list[Holding] = []
    for row in rows:
        held = _indexed(row) if isinstance(row, dict) else None
        if held is not None:
            found.append(held)
    if more:
        _log.warning(
            "account_assets: %s holds more than %d tokens; the first %d are listed",
            owner.long,
            MAX_INDEXED_TOKENS,
            MAX_INDEXED_TOKENS,
        )
    return found


def checked_tokens(tokens: Iterable[str | Address]) -> list[Address]:
    """The token addresses a caller named, parsed, each once, at most
    :data:`MAX_NAMED_TOKENS`."""
    if isinstance(tokens, str | bytes) or not isinstance(tokens, Iterable):
        raise InputError(f"tokens is a list of object addresses, got {type(tokens).__name__}")
    named: list[Address] = []
    for token in tokens:
        address = token if isinstance(token, Address) else Address.parse(token)
        if address not in named:
            named.append(address)
        if len(named) > MAX_NAMED_TOKENS:
            raise InputError(f"at most {MAX_NAMED_TOKENS:,} tokens are looked up at once")
    return named


def property_map(data: Any) -> dict[str, str]:
    """A ``0x4::property_map::PropertyMap`` resource's entries as text."""
    out: dict[str, str] = {}
    inner = data.get("inner") if isinstance(data, dict) else None
    entries = inner.get("data") if isinstance(inner, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        try:
            key, value = str(entry["key"]), entry["value"]
            raw = bytes.fromhex(str(value["value"]).removeprefix("0x"))
            text = property_value_text(int(value["type"]), raw)
        except (KeyError, TypeError, ValueError):
            continue
        out[key] = text if text is not None else str(value["value"])
    return out


def _object_resources(address: Address, version: int) -> Flow[dict[str, Any]]:
    """The resources at an object's address by type (none when nothing is there)."""
    try:
        page = yield from send(calls.account_resources(address, ledger_version=version, limit=200))
    except NotFoundError:
        return {}
    return {resource.type: resource.data for resource in page.value}


def _named_token(owner: Address, address: Address, version: int) -> Flow[Holding | None]:
    found = yield from _object_resources(address, version)
    token, core = found.get(TOKEN), found.get(OBJECT_CORE)
    if not isinstance(token, dict) or not isinstance(core, dict):
        return None
    try:
        if Address.parse(str(core.get("owner"))) != owner:
            return None
    except InputError:
        return None
    name = _text(token.get("name"))
    identifiers = found.get(TOKEN_IDENTIFIERS)
    if isinstance(identifiers, dict) and isinstance(identifiers.get("name"), dict):
        name = _text(identifiers["name"].get("value")) or name  # the name since 1.11
    collection_id: str | None = None
    collection_name: str | None = None
    inner = token.get("collection")
    if isinstance(inner, dict) and isinstance(inner.get("inner"), str):
        collection_id = _long(inner["inner"])
        try:
            read = yield from send(
                calls.account_resource(collection_id, COLLECTION, ledger_version=version)
            )
            data = read.value.data
            collection_name = _text(data.get("name")) if isinstance(data, dict) else None
        except LedgerError:
            collection_name = None
    return Holding(
        address.long,
        "token",
        1,
        0,
        None,
        name,
        collection=collection_name,
        collection_id=collection_id,
        token_standard="v2",
        uri=_text(token.get("uri")),
        properties=property_map(found.get(PROPERTY_MAP)) if PROPERTY_MAP in found else None,
    )


def named_tokens(owner: Address, tokens: list[Address], version: int) -> Flow[list[Holding]]:
    """The tokens among ``tokens`` that ``owner`` owns at ``version``, in the order named."""
    out: list[Holding] = []
    for address in tokens:
        held = yield from _named_token(owner, address, version)
        if held is not None:
            out.append(held)
    return out
