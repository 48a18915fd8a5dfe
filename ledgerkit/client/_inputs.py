"""What callers pass, checked and put in canonical form before anything is sent.

Addresses in the form the node writes them, decimal integers of the right width, page
sizes the API accepts, transaction hashes of 32 bytes, sorted query parameters, and JSON
bodies with ledgerkit's own values (``U64``, ``Address``, bytes, Move types) in the API's
form. A bad input is an :class:`~ledgerkit.InputError` that names it; two spellings of one
question come out the same, so they share a cache entry. No I/O.
"""

from __future__ import annotations

import json
from typing import Any, SupportsBytes

from ledgerkit._errors import InputError, InvalidHexError, InvalidIntegerError
from ledgerkit.types import (
    Address,
    EntryFunctionId,
    HexBytes,
    ModuleId,
    MoveType,
    is_identifier,
    parse_uint,
)

__all__ = [
    "Params",
    "address",
    "api_json",
    "identifier",
    "json_body",
    "limit",
    "params",
    "public_key_bytes",
    "txn_hash",
    "u64",
]

Params = tuple[tuple[str, str], ...]


def address(value: str | bytes | Address) -> str:
    return Address.parse(value).standard


def u64(value: int | str, what: str) -> str:
    return str(parse_uint(value, 64, what=what))


def limit(value: int | None) -> int | None:
    if value is None:
        return None
    number = parse_uint(value, 16, what="limit")
    if number == 0:
        raise InvalidIntegerError("limit must be at least 1 (it is a u16 page size)")
    return number


def identifier(value: str, what: str) -> str:
    if not isinstance(value, str) or not is_identifier(value):
        raise InputError(f"{what} must be a Move identifier, got {value!r}")
    return value


def txn_hash(value: str | bytes) -> str:
    digest = HexBytes.parse(value)
    if len(digest) != 32:
        raise InvalidHexError(f"a transaction hash is 32 bytes, got {len(digest)}: {value!r}")
    return str(digest)


def params(**values: str | int | None) -> Params:
    """Query parameters without the unset ones, sorted by name."""
    return tuple(sorted((k, str(v)) for k, v in values.items() if v is not None))


def api_json(value: Any) -> Any:
    """``value`` with ledgerkit's own values in the API's JSON form: ``U64`` and wider as
    decimal strings (``U8`` ... ``U32`` stay numbers), addresses, bytes and types as text."""
    to_json = getattr(value, "to_json", None)  # U8 ... U256 are ints: caught before them
    if callable(to_json):
        return to_json()
    if isinstance(value, dict):
        return {key: api_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [api_json(item) for item in value]
    if isinstance(value, Address):
        return value.standard
    if isinstance(value, bytes | bytearray | memoryview):
        return "0x" + bytes(value).hex()
    if isinstance(value, MoveType | ModuleId | EntryFunctionId):
        return str(value)
    return value


def json_body(value: Any) -> bytes:
    """``value`` as a compact JSON body (exact integers; addresses, bytes and types as text)."""
    try:
        return json.dumps(api_json(value), separators=(",", ":"), allow_nan=False).encode()
    except (TypeError, ValueError) as exc:
        raise InputError(f"cannot send as JSON: {exc}") from None


def public_key_bytes(public_key: object) -> bytes:
    """The 32 bytes of an Ed25519 public key given as bytes, hex, a public or private key."""
    raw: object = getattr(public_key, "public_key_bytes", None)  # a private key
    if raw is None:
        if isinstance(public_key, str | bytes | bytearray):
            raw = bytes(HexBytes.parse(public_key))
        elif isinstance(public_key, SupportsBytes):  # Ed25519PublicKey
            raw = bytes(public_key)
    if not isinstance(raw, bytes) or len(raw) != 32:
        raise InputError("public_key must be a 32-byte Ed25519 public key")
    return raw
