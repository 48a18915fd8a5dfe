"""What a request is before anything is sent: :class:`Call`, and the checks that put a
caller's inputs in the canonical form a request carries. No I/O.

The request builders of :mod:`ledgerkit.client.calls` are written with these: the route
of an operation of the table (:func:`_route`), checked path segments and query
parameters, a JSON body, and a read of state at the latest or an explicit version
(:func:`_state_read`). ``_declare`` reads :class:`Call` from here, below the builders it
decorates.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, SupportsBytes, TypeVar

from ledgerkit._endpoints import JSON, OPERATIONS
from ledgerkit._errors import InputError, InvalidHexError, InvalidIntegerError
from ledgerkit.client._answers import at_version
from ledgerkit.types import (
    Address,
    EntryFunctionId,
    HexBytes,
    LedgerMeta,
    ModuleId,
    MoveType,
    is_identifier,
    parse_uint,
)

__all__ = [
    "Call",
    "Params",
    "Route",
    "api_json",
    "json_body",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True, eq=False)
class Call(Generic[T]):
    """One request to send and how to read its answer.

    Attributes
    ----------
    name : str
        The request builder that made it, which is the client method of that name when
        there is one (for logs).
    method, path : str
        HTTP method and the path under ``base_url``, already percent-encoded.
    decode : callable
        Reads the body of a 2xx answer into the value.
    params : tuple of (str, str)
        Query parameters, sorted by name.
    body, content_type : bytes, str or None
        Request body and its media type.
    accept : str
        Media type asked for (JSON or BCS).
    idempotent : bool
        Whether sending it twice is harmless (then failures may be retried).
    storable : callable or None
        ``storable(value, ledger)`` says whether this answer can never change and may be
        cached; ``None`` for questions about the latest state (never looked up).
    cache_path : str or None
        Path to cache the answer under when it differs from ``path`` (a committed
        transaction from ``wait_transaction_by_hash`` is the same as from
        ``transaction_by_hash``).
    operation : str or None
        The id of the operation of the endpoint table it asks (``"get_account"``);
        ``None`` for a call written by hand.
    """

    name: str
    method: str
    path: str
    decode: Callable[[bytes], T]
    params: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    content_type: str | None = None
    accept: str = JSON
    idempotent: bool = True
    storable: Callable[[T, LedgerMeta], bool] | None = None
    cache_path: str | None = None
    operation: str | None = None


#: Query parameters of a call: (name, value) pairs, sorted by name.
Params = tuple[tuple[str, str], ...]


class Route(NamedTuple):
    """Where an operation of the table is asked: its id, method and filled-in path."""

    operation: str
    method: str
    path: str


def _route(op_id: str, **segments: object) -> Route:
    """The route of an operation of the table, its path segments filled in."""
    op = OPERATIONS[op_id]
    return Route(op.id, op.method, op.url_path(**segments))


def _call(
    route: Route,
    decode: Callable[[bytes], T],
    params: Params = (),
    *,
    body: bytes | None = None,
    content_type: str | None = None,
    accept: str = JSON,
    idempotent: bool = True,
    storable: Callable[[T, LedgerMeta], bool] | None = None,
    cache_path: str | None = None,
) -> Call[T]:
    """The call of ``route``'s operation. It carries the operation's id as its name until
    the builder that returns it gives it its own (``_declare``)."""
    return Call(
        route.operation,
        route.method,
        route.path,
        decode,
        params,
        body=body,
        content_type=content_type,
        accept=accept,
        idempotent=idempotent,
        storable=storable,
        cache_path=cache_path,
        operation=route.operation,
    )


# -- inputs ----------------------------------------------------------------------------------
#
# What callers pass, checked and put in canonical form before anything is sent: addresses
# in the form the node writes them, decimal integers of the right width, page sizes the
# API accepts, transaction hashes of 32 bytes, sorted query parameters, and JSON bodies
# with ledgerkit's own values (``U64``, ``Address``, bytes, Move types) in the API's form.
# A bad input is an InputError that names it; two spellings of one question come out the
# same, so they share a cache entry.


def _address(value: str | bytes | Address) -> str:
    return Address.parse(value).standard


def _u64(value: int | str, what: str) -> str:
    return str(parse_uint(value, 64, what=what))


def _limit(value: int | None) -> int | None:
    if value is None:
        return None
    number = parse_uint(value, 16, what="limit")
    if number == 0:
        raise InvalidIntegerError("limit must be at least 1 (it is a u16 page size)")
    return number


def _identifier(value: str, what: str) -> str:
    if not isinstance(value, str) or not is_identifier(value):
        raise InputError(f"{what} must be a Move identifier, got {value!r}")
    return value


def _txn_hash(value: str | bytes) -> str:
    digest = HexBytes.parse(value)
    if len(digest) != 32:
        raise InvalidHexError(f"a transaction hash is 32 bytes, got {len(digest)}: {value!r}")
    return str(digest)


def _cursor(start: str | None) -> str | None:
    if start is not None and (not isinstance(start, str) or not start):
        raise InputError(f"start must be a cursor from a previous page, got {start!r}")
    return start


def _start(start: int | None) -> int | None:
    return None if start is None else int(_u64(start, "start"))


def _params(**values: str | int | None) -> Params:
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


def _public_key_bytes(public_key: object) -> bytes:
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


def _state_read(
    route: Route,
    decode: Callable[[bytes], T],
    ledger_version: int | None,
    *,
    accept: str = JSON,
    body: bytes | None = None,
    content_type: str | None = None,
    **params: str | int | None,
) -> Call[T]:
    """A read of state: the latest, or at ``ledger_version`` (then fixed, and cached)."""
    version = None if ledger_version is None else int(_u64(ledger_version, "ledger_version"))
    return _call(
        route,
        decode,
        _params(ledger_version=version, **params),
        body=body,
        content_type=content_type,
        accept=accept,
        storable=at_version(version),
    )
