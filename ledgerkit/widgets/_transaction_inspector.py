"""The transaction inspector: a summary that says first what a reader wants (success or
the decoded abort, the function, the amounts moved, the fee and who paid it, the gas, the
block and its time, the accounts that signed or paid, each opening its account), the
balance changes per account and asset, the payload with arguments typed by the function's
ABI, the events and the write set as typed fields, gas and fee, and the byte-level
explanation of its BCS as a hex dump.

Opening a transaction reads it and its block (and, when it moves assets other than APT,
their metadata, once per asset for the explorer); each module's ABI is read once for the
explorer, when a tab that types something with it is first shown; the bytes when
"Explain the bytes" is clicked."""

from __future__ import annotations

import contextlib
from typing import Any

import ipywidgets

from ledgerkit._errors import InputError, LedgerError
from ledgerkit.frames import events_to_frame, storage_fee_refund
from ledgerkit.types import MoveType
from ledgerkit.widgets._balance_rows import (
    BALANCE_COLUMNS,
    balance_frame,
    balance_rows,
    moved_text,
)
from ledgerkit.widgets._grid import Column, LedgerGrid
from ledgerkit.widgets._hex_dump import hex_dump_html
from ledgerkit.widgets._navigator import LazyTabs, Navigator, View, register_view, short
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._sources import ListSource
from ledgerkit.widgets._transaction_facts import (
    accounts,
    fee_of,
    gas_html,
    status_html,
    summary_html,
)
from ledgerkit.widgets._typed_fields import (
    change_fields,
    change_rows,
    event_fields,
    fields_text,
    module_abi,
    selected_fields,
)

__all__ = ["TransactionInspector", "transaction_view"]

_ARGUMENT_COLUMNS = [
    Column("index", "#", "int"),
    Column("type", "Move type"),
    Column("value", "Value", "json"),
]
_EVENT_COLUMNS = [
    Column("event_index", "#", "int"),
    Column("type", "Type"),
    Column("fields", "Fields"),
]
_CHANGE_COLUMNS = [
    Column("change_index", "#", "int"),
    Column("type", "Change"),
    Column("address", "Address", "address"),
    Column("handle", "Table", "handle"),
    Column("what", "Resource, module or item"),
]


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
    abi = nav.guard("the function's ABI", lambda: module_abi(nav, address, module))
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


def _block(nav: Navigator, txn: Any) -> Any:
    """The block holding ``txn``, or None when the node cannot tell (pruned, or a node
    that answers no blocks)."""
    version = getattr(txn, "version", None)
    if version is None:
        return None
    try:
        return nav.client.block_by_version(version).value
    except LedgerError:
        return None


def _account_links(nav: Navigator, txn: Any) -> ipywidgets.VBox:
    """The accounts the transaction names, each a button that opens its account."""
    lines = []
    for role, address in accounts(txn):
        button = ipywidgets.Button(
            description=short(address),
            tooltip=f"Open the account {address.standard}",
            layout=ipywidgets.Layout(width="auto"),
        )
        button.add_class("lk-account-link")
        button.on_click(lambda _b, a=address: nav.open_account(a))
        label = ipywidgets.HTML(f"<b>{role}</b>", layout=ipywidgets.Layout(width="10em"))
        line = ipywidgets.HBox([label, button], layout=ipywidgets.Layout(align_items="center"))
        line.add_class("lk-account-role")
        lines.append(line)
    return ipywidgets.VBox(lines)


def _summary(nav: Navigator, txn: Any) -> tuple[Any, list[LedgerGrid]]:
    rows = balance_rows(nav, txn)
    fee = fee_of(txn, storage_fee_refund(txn))
    payer = None if fee is None else fee.payer.long
    moved = moved_text(rows, payer, 0 if fee is None else fee.charged)
    status = ipywidgets.HTML(status_html(txn))
    facts = ipywidgets.HTML(summary_html(txn, moved=moved, fee=fee, block=_block(nav, txn)))
    box = ipywidgets.VBox([status, facts, _account_links(nav, txn)])
    box.add_class("lk-transaction-summary")
    return box, []


def _balance_changes(nav: Navigator, txn: Any) -> tuple[Any, list[LedgerGrid]]:
    rows = balance_rows(nav, txn)
    frame = balance_frame(nav, txn)
    count = len(rows)
    grid = LedgerGrid(
        ListSource(rows, ["address", "symbol", "roles", "coin_type"]),
        BALANCE_COLUMNS,
        title=f"{count:,} balance change{'s' if count != 1 else ''}",
        frame=lambda shown: frame.iloc[[r["row"] for r in shown]].reset_index(drop=True),
    )
    grid.on_activate(nav.follow)
    return grid, [grid]


def _with_fields(
    nav: Navigator, grid: LedgerGrid, fields_of: Any, title_of: Any
) -> tuple[Any, list[LedgerGrid]]:
    """``grid`` above a grid of the selected row's typed fields (the first row's at first)."""
    fields = selected_fields(nav, grid, fields_of, title_of)
    return ipywidgets.VBox([grid, fields]), [grid, fields]


def _events(nav: Navigator, txn: Any) -> tuple[Any, list[LedgerGrid]]:
    frame = events_to_frame([txn])
    typed = event_fields(nav, frame)
    rows = [
        {
            "event_index": int(index),
            "type": str(kind),
            "fields": fields_text(typed.get(int(index), [])),
            "sequence_number": sequence,
            "account_address": address,
        }
        for index, kind, sequence, address in zip(
            frame["event_index"],
            frame["type"],
            frame["sequence_number"],
            frame["account_address"],
            strict=True,
        )
    ]
    grid = LedgerGrid(
        ListSource(rows, ["type", "fields"]),
        _EVENT_COLUMNS,
        title=f"{len(rows):,} event{'s' if len(rows) != 1 else ''}",
    )
    return _with_fields(
        nav,
        grid,
        lambda row: [dict(field) for field in typed.get(row["event_index"], [])],
        lambda row: f"Event {row['event_index']}: {row['type']}",
    )


def _changes(nav: Navigator, txn: Any) -> tuple[Any, list[LedgerGrid]]:
    rows = change_rows(txn)
    columns = [c for c in _CHANGE_COLUMNS if any(r.get(c.name) not in (None, "") for r in rows)]
    grid = LedgerGrid(
        ListSource(rows, ["type", "address", "what", "handle"]),
        columns or _CHANGE_COLUMNS[:2],
        title=f"{len(rows):,} change{'s' if len(rows) != 1 else ''}",
    )
    grid.on_activate(nav.follow)

    def title(row: Any) -> str:
        where = row["what"] or row["type"]
        return f"Change {row['change_index']}: {where}"

    return _with_fields(nav, grid, lambda row: change_fields(nav, row["change"]), title)


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

    def explained() -> tuple[Any, list[LedgerGrid]]:
        dump = ipywidgets.HTML(layout=ipywidgets.Layout(width="100%"))
        dump.add_class("lk-hex-dump-box")

        def explain(_button: Any) -> None:
            shown = nav.guard("explain", lambda: hex_dump_html(client.explain(txn.version)))
            if shown is not None:
                dump.value = shown

        explain_button = ipywidgets.Button(description="Explain the bytes")
        explain_button.on_click(explain)
        return ipywidgets.VBox([explain_button, dump]), []

    tabs = LazyTabs(
        [
            ("Summary", lambda: _summary(nav, txn)),
            ("Balance changes", lambda: _balance_changes(nav, txn)),
            ("Payload", payload),
            ("Events", lambda: _events(nav, txn)),
            ("Changes", lambda: _changes(nav, txn)),
            ("Gas", lambda: (ipywidgets.HTML(gas_html(txn)), [])),
            ("Bytes", explained),
        ],
        guard=nav.guard,
    )
    return View(f"txn {txn.version}", [tabs], [], tabs=tabs)


class TransactionInspector(Navigator):
    """A transaction, inspected: a summary (success or the decoded abort, function,
    amounts moved, fee and who paid it, gas, block and time, the accounts that signed or
    paid), balance changes per account and asset, the payload with ABI-typed arguments,
    events and changes as typed fields (drill into accounts and tables), gas and fee,
    and its bytes explained.

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
