"""The account explorer's Events tab and the event stream it opens.

The tab lists the event streams found in the account's resources (their handles); a
click on one (or Enter) opens it. A stream shows its events newest first, a page at a
time: each event's fields typed by the ABI of the module declaring the event's struct
(as the transaction inspector types its events, :func:`event_fields`), and the time of
its transaction. The times of a page are read in one request when its versions lie
within :data:`TIME_WINDOW` of one another (a page of ``/transactions``), else one
transaction a version; either way once per explorer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import ipywidgets
import pandas as pd

from ledgerkit._errors import LedgerError
from ledgerkit.frames import events_to_frame
from ledgerkit.types import Address
from ledgerkit.widgets._grid import Column, LedgerGrid
from ledgerkit.widgets._navigator import Navigator, View, short
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._sources import CountedSource, CursorSource, ListSource, Row
from ledgerkit.widgets._typed_fields import event_fields, fields_text, selected_fields

__all__ = ["TIME_WINDOW", "event_streams", "events_tab", "events_view"]

#: Most versions one read of ``/transactions`` spans for the times of a page of events.
TIME_WINDOW: Final = 100
#: Rows a page of resources asks for when the whole list is read.
_ALL_RESOURCES_PAGE: Final = 200
_EVENT_COLUMNS: Final = [
    Column("sequence_number", "Seq", "int"),
    Column("version", "Version", "version"),
    Column("time", "Time", "time"),
    Column("type", "Type"),
    Column("fields", "Fields"),
]
_STREAM_COLUMNS: Final = [
    Column("stream", "Stream"),
    Column("creation_number", "Creation number", "int"),
    Column("events", "Events", "int"),
    Column("opens", "Opens"),
]
_HINT: Final = (
    "<div class='lk-note'>Click a stream (or select it and press Enter) to open its "
    "events, newest first.</div>"
)


def event_streams(address: Address, resources: list[Any]) -> list[tuple[str, str, int, int]]:
    """``(label, address, creation number, count)`` of the event handles in resources."""
    streams = []
    for resource in resources:
        data = resource.data if isinstance(resource.data, dict) else {}
        for field, value in data.items():
            if (
                isinstance(value, dict)
                and "counter" in value
                and isinstance(value.get("guid"), dict)
            ):
                ident = value["guid"].get("id", {})
                try:
                    number, count = int(ident["creation_num"]), int(value["counter"])
                except (KeyError, TypeError, ValueError):
                    continue
                label = f"{resource.type.split('<')[0].split('::', 1)[-1]}.{field} ({count})"
                streams.append((label, str(ident.get("addr", address.long)), number, count))
    return streams


def _times(nav: Navigator, versions: Sequence[int]) -> dict[int, Any]:
    """``version -> timestamp`` (microseconds; None for a transaction without one) of
    the transactions at ``versions``, each read once per explorer."""
    known: dict[int, Any] = nav.memo("transaction times", dict)
    wanted = sorted({v for v in versions if v not in known})
    if not wanted:
        return known
    client = nav.client
    first, last = wanted[0], wanted[-1]
    if last - first < TIME_WINDOW:
        for txn in client.transactions(start=first, limit=last - first + 1).value:
            version = getattr(txn, "version", None)
            if version is not None:
                known[int(version)] = getattr(txn, "timestamp", None)
    else:
        for version in wanted:
            txn = client.transaction_by_version(version).value
            known[version] = getattr(txn, "timestamp", None)
    return known


def _event_rows(nav: Navigator, events: list[Any]) -> list[Row]:
    """A page of a stream's events as rows: typed fields, the summary of them, and the
    time of each event's transaction (None when it could not be read)."""
    frame = events_to_frame(events)
    frame = frame.assign(event_index=pd.Series(range(len(frame)), dtype=frame["event_index"].dtype))
    typed = event_fields(nav, frame)
    versions = [int(e.version) for e in events]
    try:
        times = _times(nav, versions)
    except LedgerError as exc:
        nav.say(f"the events' times: {str(exc).splitlines()[0][:300]}")
        times = {}
    return [
        {
            "sequence_number": event.sequence_number,
            "version": event.version,
            "time": times.get(int(event.version)),
            "type": event.type,
            "fields": fields_text(typed.get(index, [])),
            "typed": typed.get(index, []),
        }
        for index, event in enumerate(events)
    ]


def events_view(
    nav: Navigator,
    address: str,
    creation_number: int | str,
    title: str = "",
    count: int | None = None,
) -> View:
    """One event stream, newest first, and the selected event's typed fields. The node
    pages a stream by sequence number from the oldest: its length comes from the
    handle's counter when known, else it is found by single reads (doubling, then
    bisecting)."""
    client = nav.client
    creation_number = int(creation_number)
    if count is None:
        count = _stream_length(client, address, creation_number)

    def fetch(start: int, limit: int) -> list[Row]:
        page = client.events_by_creation_number(address, creation_number, start=start, limit=limit)
        return _event_rows(nav, list(page.value))

    grid = LedgerGrid(
        CountedSource(fetch, count),
        _EVENT_COLUMNS,
        title=f"{count:,} event{'s' if count != 1 else ''}",
        searchable=False,
    )
    grid.on_activate(nav.follow)
    fields = selected_fields(
        nav,
        grid,
        lambda row: [dict(field) for field in row["typed"]],
        lambda row: f"Event {row['sequence_number']}: {row['type']}",
    )
    label = title or f"events {short(str(address))}/{creation_number}"
    return View(label, [grid, fields], [grid, fields])


def _stream_length(client: ReadClient, address: str, creation_number: int) -> int:
    """How many events a stream holds: doubling, then bisecting on single reads."""

    def exists(n: int) -> bool:
        return bool(
            client.events_by_creation_number(address, creation_number, start=n, limit=1).value
        )

    high = 1
    while exists(high) and high < 1 << 40:
        high *= 2
    low = high // 2
    while low < high:
        mid = (low + high) // 2
        if exists(mid):
            low = mid + 1
        else:
            high = mid
    return low


def events_tab(
    nav: Navigator, address: Address, resources: CursorSource
) -> tuple[Any, list[LedgerGrid]]:
    """The event streams found in the resources (read through the Resources tab's
    source); a click on one opens it."""
    # A failure to read them leaves the tab unbuilt, read again when next shown.
    everything = resources.all_rows(_ALL_RESOURCES_PAGE)
    streams = event_streams(address, [row["resource"] for row in everything])
    stream_rows = [
        {
            "stream": label,
            "address": where,
            "creation_number": number,
            "events": count,
            "opens": "events \u203a",
        }
        for label, where, number, count in streams
    ]
    streams_grid = LedgerGrid(
        ListSource(stream_rows, ["stream"]),
        _STREAM_COLUMNS,
        title="Event streams",
        opens_on_click=True,
    )
    streams_grid.on_activate(
        lambda row, _c: nav.open_events(
            row["address"], row["creation_number"], row["stream"], row["events"]
        )
    )
    return ipywidgets.VBox([ipywidgets.HTML(_HINT), streams_grid]), [streams_grid]
