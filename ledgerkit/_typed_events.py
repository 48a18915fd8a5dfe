"""``ledgerkit.typed_events`` (and its coroutine twin ``atyped_events``): event data typed
by the ABIs of the modules that declare it, fetched from the node once per module.

The client reads the modules (``client.load_abis``, a flow both clients share: a nesting
level's modules together) into an :class:`~ledgerkit.AbiCache`, which lays the events'
data out as columns.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit._public import publish as _publish
from ledgerkit.client import AsyncClient, Client
from ledgerkit.frames import (
    EVENT_KEY_COLUMNS,
    event_type_matches,
    events_to_frame,
    expand_event_data,
)
from ledgerkit.models import AbiCache
from ledgerkit.types import StructTag

__all__ = ["atyped_events", "needed_types", "typed_events"]


def needed_types(frame: pd.DataFrame, event_type: str | StructTag) -> list[StructTag]:
    """The types whose layouts expanding ``event_type`` in ``frame`` takes: those of the
    events kept, or the wanted type itself when none is."""
    wanted = StructTag.parse(event_type)
    kinds = [str(t) for t in pd.unique(frame["type"].dropna().astype(str))]
    found = [StructTag.parse(t) for t in kinds if event_type_matches(wanted, t)]
    return found or [wanted]


def _events_frame(events: Any) -> pd.DataFrame:
    if isinstance(events, pd.DataFrame):
        if not {*EVENT_KEY_COLUMNS, "data"} <= set(events.columns):
            raise InputError("typed_events expects a frame of events_to_frame or events")
        return events
    return events_to_frame(events)


def typed_events(
    client: Client,
    events: Any,
    event_type: str | StructTag,
    *,
    cache: AbiCache | None = None,
) -> pd.DataFrame:
    """The events of one type, their fields typed by the ABI of the module that declares
    the event's struct (and of the modules of the structs nested in it), read from the
    node once per module.

    Parameters
    ----------
    client : Client
        The node to read the ABIs from (for an ``AsyncClient``, :func:`atyped_events`).
    events : DataFrame, or what ``events_to_frame`` takes
        A frame of :data:`ledgerkit.frames.EVENT_COLUMNS` (``events_to_frame(...)``,
        ``events_of_type(...)``), or events or transactions as the client returns them:
        handle events and module events alike.
    event_type : str or StructTag
        The events to keep: with type arguments, that exact instantiation; without, the
        struct with any type arguments.
    cache : AbiCache, optional
        The ABIs at hand; those missing are fetched into it. Pass the same one again to
        fetch each module once. Default: a new one for this call.

    Returns
    -------
    pandas.DataFrame
        As :func:`ledgerkit.frames.expand_event_data` gives it: the key columns, then one
        column per field (nested structs flattened to dotted names, u64 ``UInt64``, u128
        and u256 exact text, addresses in long form).

    Raises
    ------
    UnknownStructError
        The event's module, or one of a struct nested in it, is not published on the
        node, or does not declare the struct.
    InputError
        ``client`` is an ``AsyncClient``, or ``events`` is not events.

    Examples
    --------
    >>> page = client.transactions(start=0, limit=100)  # doctest: +SKIP
    >>> ledgerkit.typed_events(client, page, "0x1::fungible_asset::Deposit")  # doctest: +SKIP
    """
    if isinstance(client, AsyncClient):
        raise InputError("with an AsyncClient, use: await ledgerkit.atyped_events(client, ...)")
    frame = _events_frame(events)
    cache = AbiCache() if cache is None else cache
    client.load_abis(needed_types(frame, event_type), cache=cache)
    return expand_event_data(frame, event_type, modules=cache)


async def atyped_events(
    client: AsyncClient,
    events: Any,
    event_type: str | StructTag,
    *,
    cache: AbiCache | None = None,
) -> pd.DataFrame:
    """Coroutine twin of :func:`typed_events`, with an :class:`~ledgerkit.AsyncClient`."""
    if not isinstance(client, AsyncClient):
        raise InputError("atyped_events takes an AsyncClient; with a Client, use typed_events")
    frame = _events_frame(events)
    cache = AbiCache() if cache is None else cache
    await client.load_abis(needed_types(frame, event_type), cache=cache)
    return expand_event_data(frame, event_type, modules=cache)


_publish(globals(), ("atyped_events", "typed_events"), "ledgerkit")
