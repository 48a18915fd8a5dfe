"""What a transaction did to who owns which digital asset (token), read from its events
without I/O: :func:`token_moves`.

A token is named by its key, as :class:`~ledgerkit.client.Holding` names it: a token v2
(and any object) by its address, long form; a token v1 by its token data id as the
Aptos indexer writes it (:func:`token_v1_data_id`). The events read:

- ``0x1::object::Transfer`` (and the older ``TransferEvent``): the object leaves
  ``from`` and reaches ``to``;
- ``0x4::collection::Mint`` / ``MintEvent``: the token reaches its owner (the
  ``ObjectCore`` the write set gives it; the sender when it gives none);
- ``0x4::collection::Burn`` (its ``previous_owner``) / ``BurnEvent`` (the sender): the
  token leaves its owner;
- ``0x3::token::TokenDeposit`` / ``TokenWithdraw`` (and the event-handle
  ``DepositEvent`` / ``WithdrawEvent`` of a ``TokenStore``): ``amount`` of a token v1
  reaches or leaves the account (a v1 burn withdraws first, so it is counted there).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Final

from ledgerkit._errors import LedgerError
from ledgerkit.models._changes import WriteResource
from ledgerkit.models._transactions import UserTransaction
from ledgerkit.types import Address

__all__ = ["TokenKey", "token_moves", "token_v1_data_id"]

#: ``(account, token key)``, both long-form hex.
TokenKey = tuple[str, str]

_OBJECT_CORE: Final = "0x1::object::ObjectCore"
_TRANSFERS: Final = frozenset({"0x1::object::Transfer", "0x1::object::TransferEvent"})
_MINTS: Final = frozenset({"0x4::collection::Mint", "0x4::collection::MintEvent"})
_BURNS: Final = frozenset({"0x4::collection::Burn", "0x4::collection::BurnEvent"})
_V1_IN: Final = frozenset({"0x3::token::TokenDeposit", "0x3::token::DepositEvent"})
_V1_OUT: Final = frozenset({"0x3::token::TokenWithdraw", "0x3::token::WithdrawEvent"})


def token_v1_data_id(creator: str | Address, collection: str, name: str) -> str:
    """A token v1's key: its token data id as the Aptos indexer writes it, the SHA3-256
    of ``"<creator, long form>::<collection>::<name>"`` as a long-form address.

    Examples
    --------
    >>> token_v1_data_id("0x1", "C", "N")[:6]
    '0x7a2c'
    """
    owner = creator if isinstance(creator, Address) else Address.parse(creator)
    text = f"{owner.long}::{collection}::{name}"
    return "0x" + hashlib.sha3_256(text.encode()).hexdigest()


def _long(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return Address.parse(value).long
    except LedgerError:
        return None


def _canonical(tag: str) -> str:
    """``0x0…01::object::Transfer`` as ``0x1::object::Transfer`` (the address short)."""
    address, sep, rest = tag.partition("::")
    short = _long(address)
    if not sep or short is None:
        return tag
    return Address.parse(short).short + sep + rest


def _owners(txn: Any) -> dict[str, str]:
    """Object address -> owner, of each ``ObjectCore`` the write set writes."""
    found: dict[str, str] = {}
    for change in getattr(txn, "changes", None) or ():
        if isinstance(change, WriteResource) and change.data.type == _OBJECT_CORE:
            data = change.data.data
            owner = _long(data.get("owner")) if isinstance(data, dict) else None
            address = _long(change.address)
            if owner is not None and address is not None:
                found[address] = owner
    return found


def _v1_key(data: dict[str, Any]) -> str | None:
    token_id = data.get("id")
    data_id = token_id.get("token_data_id") if isinstance(token_id, dict) else None
    if not isinstance(data_id, dict):
        return None
    try:
        creator = str(data_id["creator"])
        return token_v1_data_id(creator, str(data_id["collection"]), str(data_id["name"]))
    except (KeyError, LedgerError):
        return None


def _amount(value: Any) -> int | None:
    try:
        amount = int(value)
    except (TypeError, ValueError):
        return None
    return amount if amount >= 0 else None


def _moves(txn: Any) -> Iterator[tuple[str | None, str | None, int]]:
    """``(account, token key, signed count)`` of each move, in event order."""
    sender = _long(getattr(txn, "sender", None)) if isinstance(txn, UserTransaction) else None
    owners: dict[str, str] | None = None
    for event in getattr(txn, "events", None) or ():
        tag, data = _canonical(str(event.type)), event.data
        if not isinstance(data, dict):
            continue
        if tag in _TRANSFERS:
            token = _long(data.get("object"))
            yield _long(data.get("from")), token, -1
            yield _long(data.get("to")), token, 1
        elif tag in _MINTS:
            token = _long(data.get("token"))
            if owners is None:
                owners = _owners(txn)
            yield owners.get(token or "", sender), token, 1
        elif tag in _BURNS:
            owner = _long(data.get("previous_owner")) or sender
            yield owner, _long(data.get("token")), -1
        elif tag in _V1_IN or tag in _V1_OUT:
            account = _long(data.get("account")) or _long(event.guid.account_address)
            amount = _amount(data.get("amount"))
            if amount is not None:
                yield account, _v1_key(data), amount if tag in _V1_IN else -amount


def token_moves(txn: Any) -> dict[TokenKey, int]:
    """The net change of each account's holding of each token, zeros left out.

    Parameters
    ----------
    txn : Transaction
        A committed or simulated transaction, of any type.

    Returns
    -------
    dict
        ``(account, token key) -> signed count``: ``+1`` for a token v2 received or
        minted, ``-1`` sent or burnt; a token v1's amount. Any object moved by
        ``0x1::object::transfer`` counts, keyed by its address.
    """
    moves: dict[TokenKey, int] = {}
    for account, token, count in _moves(txn):
        if account is not None and token is not None and count:
            moves[(account, token)] = moves.get((account, token), 0) + count
    return {key: count for key, count in moves.items() if count}
