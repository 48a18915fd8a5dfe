"""Converters for what a transaction carries besides its events: its payload (the function
it calls and its arguments, :func:`payloads_to_frame`) and its write-set changes
(:func:`changes_to_frame`), with their schemas.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import msgspec
import pandas as pd

from ledgerkit.frames._dtypes import CATEGORY, COUNT, STRING, UINT64, long_address
from ledgerkit.frames._inputs import json_text
from ledgerkit.frames._transactions import _build, _entry, _tag, _transactions
from ledgerkit.models import (
    DeleteModule,
    DeleteResource,
    DeleteTableItem,
    MultisigPayload,
    ScriptPayload,
    Transaction,
    UnknownVariant,
    WriteModule,
    WriteResource,
    WriteTableItem,
)

if TYPE_CHECKING:
    from ledgerkit.types import Result

__all__ = [
    "CHANGE_COLUMNS",
    "PAYLOAD_COLUMNS",
    "changes_to_frame",
    "payloads_to_frame",
]

PAYLOAD_COLUMNS: Final = {
    "version": UINT64,
    "hash": STRING,
    "payload_type": CATEGORY,
    "function": CATEGORY,
    "module_address": CATEGORY,
    "module_name": CATEGORY,
    "function_name": CATEGORY,
    "type_arguments": STRING,
    "arguments": STRING,
    "multisig_address": CATEGORY,
}


CHANGE_COLUMNS: Final = {
    "version": UINT64,
    "change_index": COUNT,
    "type": CATEGORY,
    "address": CATEGORY,
    "state_key_hash": STRING,
    "resource": CATEGORY,
    "module": CATEGORY,
    "handle": STRING,
    "key": STRING,
    "value": STRING,
    "data": STRING,
}


def payloads_to_frame(
    records: bytes
    | Result[list[Transaction]]
    | Result[Transaction]
    | Transaction
    | Iterable[Transaction | dict[str, Any]],
) -> pd.DataFrame:
    """One row per transaction with a script or entry-function payload (:data:`PAYLOAD_COLUMNS`).

    ``type_arguments`` and ``arguments`` are JSON text (arguments as the API writes them,
    so u64 and wider are exact decimal strings); ``module_address`` is long-form;
    multisig and decrypted payloads are read through to the entry function they call.
    Genesis and other payload-less transactions give no row. ``records`` is read as by
    :func:`transactions_to_frame` (what the client returns, records, bytes or JSON).
    """
    txs = _transactions(records, "payloads_to_frame")
    cols: dict[str, list[Any]] = {name: [] for name in PAYLOAD_COLUMNS}
    addresses: dict[str, str] = {}

    def long(value: str | None) -> str | None:
        if value is None:
            return None
        found = addresses.get(value)
        if found is None:
            found = addresses[value] = long_address(value)
        return found

    for tx in txs:
        payload = getattr(tx, "payload", None)
        if payload is None or _tag(payload) in ("write_set_payload", "genesis_payload"):
            continue
        entry = _entry(payload)
        inner: Any = entry
        if inner is None and isinstance(payload, ScriptPayload):
            inner = payload
        cols["version"].append(getattr(tx, "version", None))
        cols["hash"].append(getattr(tx, "hash", None))
        cols["payload_type"].append(_tag(payload))
        cols["multisig_address"].append(
            long(payload.multisig_address) if isinstance(payload, MultisigPayload) else None
        )
        if entry is not None:
            address, module, function = entry.function.split("::", 2)
            cols["function"].append(entry.function)
            cols["module_address"].append(long(address))
            cols["module_name"].append(module)
            cols["function_name"].append(function)
        else:
            for name in ("function", "module_address", "module_name", "function_name"):
                cols[name].append(None)
        if inner is not None:
            cols["type_arguments"].append(json_text(inner.type_arguments))
            cols["arguments"].append(json_text(inner.arguments))
        else:
            cols["type_arguments"].append(None)
            cols["arguments"].append(None)
    return _build(PAYLOAD_COLUMNS, cols)


def changes_to_frame(
    records: bytes
    | Result[list[Transaction]]
    | Result[Transaction]
    | Transaction
    | Iterable[Transaction | dict[str, Any]],
) -> pd.DataFrame:
    """One row per write-set change of the given transactions (:data:`CHANGE_COLUMNS`).

    ``resource`` is the struct tag of a written or deleted resource; ``module`` is
    ``address::name`` of a written or deleted module; ``handle`` and ``key`` are set for
    table items (``key`` the BCS bytes in hex); ``value`` holds the table item's value
    in hex or a module's bytecode; ``data`` is JSON text of the resource's Move value or
    of the node's decoded table item (``key``, ``key_type``, ``value``, ``value_type``).
    ``records`` is read as by :func:`transactions_to_frame`.
    """
    txs = _transactions(records, "changes_to_frame")
    cols: dict[str, list[Any]] = {name: [] for name in CHANGE_COLUMNS}
    addresses: dict[str, str] = {}
    encode = msgspec.json.Encoder().encode
    names = [n for n in CHANGE_COLUMNS if n not in ("version", "change_index", "type")]
    for tx in txs:
        version = getattr(tx, "version", None)
        for index, change in enumerate(getattr(tx, "changes", ())):
            row: dict[str, Any] = dict.fromkeys(names)
            address = getattr(change, "address", None)
            if address is not None:
                found = addresses.get(address)
                if found is None:
                    found = addresses[address] = long_address(address)
                row["address"] = found
            row["state_key_hash"] = getattr(change, "state_key_hash", None)
            if isinstance(change, WriteResource):
                row["resource"] = change.data.type
                row["data"] = encode(change.data.data).decode()
            elif isinstance(change, DeleteResource):
                row["resource"] = change.resource
            elif isinstance(change, WriteModule):
                abi = change.data.abi
                if abi is not None:
                    row["module"] = f"{row['address']}::{abi.name}"
                row["value"] = change.data.bytecode
            elif isinstance(change, DeleteModule):
                row["module"] = change.module
            elif isinstance(change, WriteTableItem | DeleteTableItem):
                row["handle"] = change.handle
                row["key"] = change.key
                if isinstance(change, WriteTableItem):
                    row["value"] = change.value
                if change.data is not None:
                    row["data"] = encode(change.data).decode()
            elif isinstance(change, UnknownVariant):
                row["state_key_hash"] = change.raw.get("state_key_hash")
                row["data"] = json_text(change.raw)
            cols["version"].append(version)
            cols["change_index"].append(index)
            cols["type"].append(_tag(change))
            for name in names:
                cols[name].append(row[name])
    return _build(CHANGE_COLUMNS, cols)
