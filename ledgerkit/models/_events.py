"""Events: what a transaction emitted, read from a transaction or an event stream, and
the events of a transaction alone (:class:`TransactionEvents`)."""

from __future__ import annotations

from typing import Any

import msgspec

from ledgerkit.models._base import Record, U64Int, check_u64
from ledgerkit.types import MoveType

__all__ = ["Event", "EventGuid", "TransactionEvents"]


class EventGuid(Record, frozen=True, kw_only=True):
    """The event stream an event belongs to: an account and a creation number.

    Module events (the v2 kind) carry a zero guid: address ``0x0``, creation number 0.
    """

    creation_number: U64Int
    account_address: str

    def __post_init__(self) -> None:
        check_u64(self.creation_number)


class Event(Record, frozen=True, kw_only=True):
    """One event.

    Attributes
    ----------
    guid : EventGuid
    sequence_number : int
        Position in its stream (0 for module events).
    type : str
        The event's Move type.
    data : Any
        The Move value as plain JSON (u64 and wider stay exact decimal strings).
    version : int or None
        The transaction version; sent by the event endpoints, absent inside transactions.
    """

    guid: EventGuid
    sequence_number: U64Int
    type: str
    data: Any
    version: U64Int | None = None

    def __post_init__(self) -> None:
        check_u64(self.sequence_number, self.version)

    @property
    def move_type(self) -> MoveType:
        """``type`` parsed (parses are cached)."""
        return MoveType.parse(self.type)


class TransactionEvents(Record, frozen=True, kw_only=True):
    """The events of the committed transaction at ``version``, in the node's order (an
    event's index in ``events`` is its ``event_index``): what
    :func:`decode_transaction_events` reads of a page of transactions, skipping the rest.

    Attributes
    ----------
    version : int
    events : list of Event
    """

    version: U64Int
    events: list[Event] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        check_u64(self.version)
