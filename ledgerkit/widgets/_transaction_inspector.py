"""The transaction inspector: summary, payload with arguments typed by the function's
ABI, events, changes, gas and fee, and the byte-level explanation of its BCS.

Opening a transaction reads the transaction alone (its summary is the first tab); the
called function's ABI is asked when the Payload tab is first shown, once per module for
the explorer, and the bytes when "Explain the bytes" is clicked."""

from __future__ import annotations

import contextlib
import datetime as dt
import html
from typing import Any

import ipywidgets as w

from ledgerkit._errors import InputError
from ledgerkit.frames import changes_to_frame, events_to_frame
from ledgerkit.types import MoveType
from ledgerkit.widgets._grid import Column, LedgerGrid
from ledgerkit.widgets._navigator import LazyTabs, Navigator, View, register_view, short
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._sources import ListSource, frame_rows

__all__ = ["TransactionInspector", "transaction_view"]

_OCTAS_PER_APT = 100_000_000
_ARGUMENT_COLUMNS = [
    Column("index", "#", "int"),
    Column("type", "Move type"),
    Column("value", "Value", "json"),
]
_EVENT_COLUMNS = [
    Column("event_index", "#", "int"),
    Column("type", "Type"),
    Column("sequence_number", "Seq", "int"),
    Column("data", "Data", "json", type_from="type"),
]


def _apt(octas: int) -> str:
    whole, part = divmod(octas, _OCTAS_PER_APT)
    return f"{whole:,}" + (f".{part:08d}".rstrip("0") if part else "")


def _summary(txn: Any) -> str:
    def row(name: str, value: Any) -> str:
        return (
            f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(name)}</th>"
            f"<td><code>{html.escape(str(value))}</code></td></tr>"
        )

    rows = [
        row("Version", f"{txn.version:,}"),
        row("Hash", txn.hash),
        row("Type", type(txn).__name__),
    ]
    if hasattr(txn, "success"):
        rows += [
            row("Status", "success" if txn.success else "failed"),
            row("VM status", txn.vm_status),
        ]
    if hasattr(txn, "sender"):
        rows += [row("Sender", txn.sender), row("Sequence number", txn.sequence_number)]
    timestamp = getattr(txn, "timestamp", None)
    if timestamp:
        when = dt.datetime.fromtimestamp(timestamp / 1_000_000, dt.UTC)
        rows.append(row("Time (UTC)", when.isoformat(timespec="milliseconds")))
    return f"<table class='lk-summary'>{''.join(rows)}</table>"


def _gas(txn: Any) -> str:
    if not hasattr(txn, "gas_unit_price"):
        return f"<p>Gas used: {txn.gas_used:,} units (no fee: not a user transaction)</p>"
    fee = int(txn.gas_used) * int(txn.gas_unit_price)
    share = 100 * int(txn.gas_used) / max(1, int(txn.max_gas_amount))
    return (
        f"<p>Gas used <b>{txn.gas_used:,}</b> units of at most {txn.max_gas_amount:,} "
        f"({share:.1f}%), at {txn.gas_unit_price:,} octas a unit: fee <b>{fee:,}</b> octas "
        f"= {_apt(fee)} APT.</p>"
    )


def _arguments(nav: Navigator, txn: Any) -> tuple[str, list[dict[str, Any]]]:
    """The called function and its arguments typed by the ABI (signers dropped)."""
    payload = getattr(txn, "payload", None)
    function = getattr(payload, "function", None)
    arguments = list(getattr(payload, "arguments", None) or [])
    if not function:
        return type(payload).__name__ if payload is not None else "(no payload)", [
            {"index": i, "type": "", "value": a} for i, a in enumerate(arguments)
        ]
    address, module, name = function.split("::")
    client = nav.client
    abi = nav.guard(
        "the function's ABI",
        lambda: nav.memo(
            ("module abi", address, module),
            lambda: client.account_module(address, module).value.abi,
        ),
    )
    params: list[str] = []
    if abi is not None:
        found = abi.function(name)
        if found is not None:
            params = [p for p in found.params if p not in ("signer", "&signer")]
            type_args = [MoveType.parse(t) for t in getattr(payload, "type_arguments", [])]
            with contextlib.suppress(InputError):
                params = [str(MoveType.parse(p).substitute(tuple(type_args))) for p in params]
    rows = [
        {"index": i, "type": params[i] if i < len(params) else "", "value": value}
        for i, value in enumerate(arguments)
    ]
    return function, rows


def transaction_view(nav: Navigator, ref: int | str) -> View:
    """A transaction by version (int) or hash (str); its tabs built when first shown."""
    client = nav.client
    txn: Any  # a committed transaction: a pending one (by hash) has no version to show
    if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
        txn = client.transaction_by_version(int(ref)).value
    else:
        txn = client.transaction_by_hash(str(ref)).value

    def payload() -> tuple[Any, list[LedgerGrid]]:
        function, args = _arguments(nav, txn)
        grid = LedgerGrid(ListSource(args), _ARGUMENT_COLUMNS, title=function, searchable=False)
        return grid, [grid]

    def events() -> tuple[Any, list[LedgerGrid]]:
        rows = frame_rows(events_to_frame([txn]))
        grid = LedgerGrid(
            ListSource(rows, ["type"]), _EVENT_COLUMNS, title="Events", layouts=nav.layouts
        )
        return grid, [grid]

    def changes() -> tuple[Any, list[LedgerGrid]]:
        rows = frame_rows(changes_to_frame([txn]))
        columns = [
            Column(
                name,
                name.replace("_", " "),
                _change_kind(name),
                type_from="resource" if name == "data" else "",
            )
            for name in (list(rows[0]) if rows else ["type"])
            if name not in ("version", "change_index")
        ]
        grid = LedgerGrid(
            ListSource(rows, ["type", "address", "resource"]),
            columns,
            title="Changes",
            layouts=nav.layouts,
        )
        grid.on_activate(nav.follow)
        return grid, [grid]

    def explained() -> tuple[Any, list[LedgerGrid]]:
        bytes_out = w.Output()

        def explain(_button: Any) -> None:
            text = nav.guard("explain", lambda: str(client.explain(txn.version)))
            if text is not None:
                bytes_out.clear_output()
                with bytes_out:
                    print(text)

        explain_button = w.Button(description="Explain the bytes")
        explain_button.on_click(explain)
        return w.VBox([explain_button, bytes_out]), []

    tabs = LazyTabs(
        [
            ("Summary", lambda: (w.HTML(_summary(txn)), [])),
            ("Payload", payload),
            ("Events", events),
            ("Changes", changes),
            ("Gas", lambda: (w.HTML(_gas(txn)), [])),
            ("Bytes", explained),
        ],
        guard=nav.guard,
    )
    return View(f"txn {txn.version}", [tabs], [], tabs=tabs)


def _change_kind(name: str) -> str:
    if name in ("address", "handle"):
        return "address"
    if name in ("state_key_hash",):
        return "hash"
    if name in ("key", "value", "data"):
        return "json"
    return "text"


class TransactionInspector(Navigator):
    """A transaction, inspected: summary, payload with ABI-typed arguments, events,
    changes (drill into accounts and tables), gas and fee, and its bytes explained.

    Parameters
    ----------
    client : ReadClient
        The node to read from: a :class:`ledgerkit.Client` (not an ``AsyncClient``), or
        any object with the methods of :class:`ReadClient`.
    version_or_hash : int or str
        The transaction.

    Raises
    ------
    InputError
        ``client`` is an ``AsyncClient``: the inspector reads in the kernel's thread.
    """

    def __init__(self, client: ReadClient, version_or_hash: int | str) -> None:
        super().__init__(client)
        self.ref = version_or_hash
        self.open_view("transaction", version_or_hash)

    def __repr__(self) -> str:
        ref = self.ref if isinstance(self.ref, int) else short(str(self.ref))
        return f"TransactionInspector({ref})"


register_view("transaction", transaction_view)
