"""What a transaction's run is charged for, measured from its context, and its fee event.

:func:`gas_usage` turns a :class:`~.framework.Context` into the
:class:`~._gas_schedule.GasUsage` the schedule prices: the pages of each item read, each
state slot written with its key and value sizes (BCS, as the ledger stores them; an
object's resources are one ``0x1::object::ObjectGroup`` slot, written whole, sized as the
BCS map of every member it holds) and each event's
size (its type tag and data, plus the handle's key and sequence number for a handle
event). :func:`fee_event` is the ``0x1::transaction_fee::FeeStatement`` module event the
VM emits last in every user transaction.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.bcs import Serializer, serialize_struct_tag
from ledgerkit.localnet.vm._gas_schedule import FeeStatement, GasUsage, SlotWrite
from ledgerkit.localnet.vm.framework import (
    FRAMEWORK,
    MODULE,
    OBJECT_GROUP,
    RESOURCE,
    Context,
    Write,
    expand_groups,
    group_key_bcs,
    is_group_member,
    state_key_bcs,
)
from ledgerkit.types import Address, StructTag

__all__ = ["FEE_STATEMENT", "fee_event", "gas_usage"]

FEE_STATEMENT: Final = "0x1::transaction_fee::FeeStatement"
#: A handle event's ``EventKey`` (creation number, account) and sequence number.
_HANDLE_EVENT_BYTES: Final = 8 + 32 + 8
_ZERO_GUID: Final = {"creation_number": "0", "account_address": "0x0"}


def _uleb_size(n: int) -> int:
    size = 1
    while n >= 0x80:
        n >>= 7
        size += 1
    return size


def _tag_bcs(tag: str) -> bytes:
    s = Serializer()
    serialize_struct_tag(s, StructTag.parse(tag))
    return s.output()


def _value_size(w: Write) -> int:
    codec = FRAMEWORK.codec
    if w.kind == RESOURCE:
        if not w.bcs:  # kept: the change list shows the same bytes
            w.bcs = codec.encode(w.path, w.value)
        return len(w.bcs)
    if w.kind == MODULE:
        return len(w.bcs)
    return len(w.value_bcs or codec.encode(w.value_type, w.value))


def _slot(ctx: Context, w: Write) -> SlotWrite:
    key_size = len(state_key_bcs(w.skey))
    if w.value is None:
        deleted = ctx.stored_sizes.get(w.skey, 0) if w.existed else 0
        return SlotWrite(key_size, None, deleted_size=deleted)
    return SlotWrite(key_size, _value_size(w), created=not w.existed)


def _group_slot(ctx: Context, address: Address, members: list[Write]) -> SlotWrite:
    """The ``ObjectGroup`` slot of an object (``members``: all it holds, as
    :func:`~.framework.expand_groups` writes them): created when none of them was there,
    deleted when none is left, sized as the BCS map of every member."""
    key_size = len(group_key_bcs(address, OBJECT_GROUP))
    live = [w for w in members if w.value is not None]
    if not live:
        held = [(w.path, ctx.stored_sizes.get(w.skey, 0)) for w in members if w.existed]
        return SlotWrite(key_size, None, deleted_size=_map_size(held) if held else 0)
    size = _map_size([(w.path, _value_size(w)) for w in live])
    return SlotWrite(key_size, size, created=not any(w.existed for w in members))


def _map_size(entries: list[tuple[str, int]]) -> int:
    """The size of a group's BCS map of struct tag to value bytes."""
    size = _uleb_size(len(entries))
    for tag, value in entries:
        size += len(_tag_bcs(tag)) + _uleb_size(value) + value
    return size


def _event_size(event: dict[str, Any], data: bytes | None = None) -> int:
    if data is None:
        data = FRAMEWORK.codec.encode(event["type"], event["data"])
    size = 1 + len(_tag_bcs(event["type"])) + len(data)
    if event["guid"] != _ZERO_GUID:
        size += _HANDLE_EVENT_BYTES
    return size


def gas_usage(ctx: Context, size: int, *, completed: bool) -> GasUsage:
    """What ``ctx``'s run is charged for; ``completed`` False drops its writes and events
    (an abort: only the reads and the transaction's bytes are paid for)."""
    slots: list[SlotWrite] = []
    events: tuple[int, ...] = ()
    if completed:
        expand_groups(ctx)
        groups: dict[Address, list[Write]] = {}
        for w in ctx.writes.values():
            if w.kind == RESOURCE and is_group_member(w.path):
                groups.setdefault(w.address, []).append(w)
            else:
                slots.append(_slot(ctx, w))
        slots += [_group_slot(ctx, address, members) for address, members in groups.items()]
        events = tuple(_event_size(e, ctx.event_bcs.get(i)) for i, e in enumerate(ctx.events))
    return GasUsage(
        size=size,
        calls=ctx.calls,
        read_pages=tuple(ctx.read_pages),
        writes=tuple(slots),
        event_sizes=events,
        extra_units=ctx.extra_gas,
    )


def fee_event(statement: FeeStatement) -> dict[str, Any]:
    """The ``FeeStatement`` module event (zero GUID, sequence number 0)."""
    return {
        "guid": dict(_ZERO_GUID),
        "sequence_number": "0",
        "type": FEE_STATEMENT,
        "data": statement.event_data(),
    }
