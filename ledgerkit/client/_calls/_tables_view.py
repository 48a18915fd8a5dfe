"""The request builders that read Move state by key or by function: table items (JSON or
BCS keys) and view functions (JSON or BCS answers). Published by
:mod:`ledgerkit.client.calls`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ledgerkit import models
from ledgerkit._endpoints import BCS, JSON, VIEW_BCS
from ledgerkit._errors import InputError
from ledgerkit.bcs import EntryFunction
from ledgerkit.client._answers import bcs_bytes
from ledgerkit.client._call import Call, _address, _route, _state_read, json_body
from ledgerkit.client._declare import endpoint
from ledgerkit.types import Address, EntryFunctionId, HexBytes, MoveType

# The client methods' return annotations read ``Result[...]`` (see _declare): imported
# here, where typing.get_type_hints looks them up.
from ledgerkit.types import Result as Result


@endpoint
def table_item(
    handle: str | Address,
    key_type: str | MoveType,
    value_type: str | MoveType,
    key: Any,
    *,
    ledger_version: int | None = None,
) -> Call[Any]:
    """A table item by its key in JSON form; the value in JSON form.

    Raises
    ------
    TableItemNotFoundError
        No item under that key.
    """
    body = {
        "key_type": str(MoveType.parse(key_type)),
        "value_type": str(MoveType.parse(value_type)),
        "key": key,
    }
    return _state_read(
        _route("get_table_item", table_handle=_address(handle)),
        models.decode_table_item,
        ledger_version,
        body=json_body(body),
        content_type=JSON,
    )


@endpoint
def raw_table_item(
    handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
) -> Call[bytes]:
    """A table item by the BCS bytes of its key; the BCS bytes of its value."""
    return _state_read(
        _route("get_raw_table_item", table_handle=_address(handle)),
        bcs_bytes,
        ledger_version,
        body=json_body({"key": str(HexBytes.parse(key))}),
        content_type=JSON,
        accept=BCS,
    )


def _view_body(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType],
    arguments: Sequence[Any],
) -> tuple[bytes, str]:
    if isinstance(function, EntryFunction):
        if list(type_arguments) or list(arguments):
            raise InputError("an EntryFunction carries its own type arguments and arguments")
        return function.to_bcs(), VIEW_BCS
    if isinstance(arguments, str | bytes) or not isinstance(arguments, Sequence):
        raise InputError(f"arguments must be a list, got {type(arguments).__name__}")
    body = {
        "function": str(EntryFunctionId.parse(function)),
        "type_arguments": [str(MoveType.parse(t)) for t in type_arguments],
        "arguments": list(arguments),
    }
    return json_body(body), JSON


@endpoint
def view_json(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType] = (),
    arguments: Sequence[Any] = (),
    *,
    ledger_version: int | None = None,
) -> Call[list[Any]]:
    """Call a view function with arguments in JSON form; its return values in JSON form.

    :meth:`view` takes and gives Python values, checked against the function's ABI.

    Parameters
    ----------
    function : str, EntryFunctionId or EntryFunction
        ``"0x1::coin::balance"``; an ``EntryFunction`` (BCS arguments) is sent as BCS.
    type_arguments : iterable of str or MoveType
        Type arguments.
    arguments : sequence
        Arguments in JSON form (u64 and wider as strings).
    ledger_version : int, optional
        Run at this version (answers are then cached).
    """
    body, content_type = _view_body(function, type_arguments, arguments)
    return _state_read(
        _route("view"), models.decode_view, ledger_version, body=body, content_type=content_type
    )


@endpoint
def view_bcs(
    function: str | EntryFunctionId | EntryFunction,
    type_arguments: Iterable[str | MoveType] = (),
    arguments: Sequence[Any] = (),
    *,
    ledger_version: int | None = None,
) -> Call[bytes]:
    """Call a view function; the BCS of its return values (a ULEB128 count, then each)."""
    body, content_type = _view_body(function, type_arguments, arguments)
    return _state_read(
        _route("view"),
        bcs_bytes,
        ledger_version,
        body=body,
        content_type=content_type,
        accept=BCS,
    )
