"""The request builders of blocks and event streams: a block by height or by version, and a
page of events by creation number or by event handle. Published by
:mod:`ledgerkit.client.calls`.
"""

from __future__ import annotations

from ledgerkit import models
from ledgerkit._errors import InputError
from ledgerkit.client._answers import complete_block, full_page
from ledgerkit.client._call import (
    Call,
    Route,
    _address,
    _call,
    _identifier,
    _limit,
    _params,
    _route,
    _start,
    _u64,
)
from ledgerkit.client._declare import endpoint
from ledgerkit.models import Block, Event
from ledgerkit.types import Address, StructTag

# The client methods' return annotations read ``Result[...]`` (see _declare): imported
# here, where typing.get_type_hints looks them up.
from ledgerkit.types import Result as Result


@endpoint
def events_by_creation_number(
    address: str | Address,
    creation_number: int,
    *,
    start: int | None = None,
    limit: int | None = None,
) -> Call[list[Event]]:
    """One page of an event stream named by the account and its creation number.

    Parameters
    ----------
    start : int, optional
        First sequence number (default: the newest page).
    limit : int, optional
        Events asked for; the node may serve fewer.
    """
    first, size = _start(start), _limit(limit)
    number = _u64(creation_number, "creation_number")
    route = _route(
        "get_events_by_creation_number", address=_address(address), creation_number=number
    )
    query = _params(start=first, limit=size)
    return _call(route, models.decode_events, query, storable=full_page(first, size))


@endpoint
def events_by_handle(
    address: str | Address,
    event_handle: str | StructTag,
    field_name: str,
    *,
    start: int | None = None,
    limit: int | None = None,
) -> Call[list[Event]]:
    """One page of the event stream held in field ``field_name`` of the resource
    ``event_handle`` of ``address`` (the account the events were emitted to)."""
    first, size = _start(start), _limit(limit)
    handle = StructTag.parse(event_handle).url_segment
    field = _identifier(field_name, "field_name")
    route = _route(
        "get_events_by_event_handle",
        address=_address(address),
        event_handle=handle,
        field_name=field,
    )
    query = _params(start=first, limit=size)
    return _call(route, models.decode_events, query, storable=full_page(first, size))


def _block(route: Route, with_transactions: bool) -> Call[Block]:
    if not isinstance(with_transactions, bool):
        raise InputError(f"with_transactions must be a bool, got {with_transactions!r}")
    query = _params(with_transactions="true" if with_transactions else None)
    return _call(route, models.decode_block, query, storable=complete_block)


@endpoint
def block_by_height(height: int, *, with_transactions: bool = False) -> Call[Block]:
    """The block at ``height``, with its transactions when asked (the node may cap
    them; a capped block is not cached).

    Raises
    ------
    BlockNotFoundError, BlockPrunedError
        Past the head, or older than the node keeps.
    """
    route = _route("get_block_by_height", block_height=_u64(height, "height"))
    return _block(route, with_transactions)


@endpoint
def block_by_version(version: int, *, with_transactions: bool = False) -> Call[Block]:
    """The block holding the transaction at ``version``."""
    route = _route("get_block_by_version", version=_u64(version, "version"))
    return _block(route, with_transactions)
