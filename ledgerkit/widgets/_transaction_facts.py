"""What the transaction inspector's summary says first: success, or the failure with its
decoded abort; then the function, the amounts moved, the fee and who paid it, the gas,
the block and its time; and the accounts that signed or paid. Text only, no I/O: the
inspector reads the block and the balance changes and hands them in."""

from __future__ import annotations

import html
from typing import Any, Final, NamedTuple

from ledgerkit.frames import APT_DECIMALS
from ledgerkit.models import FeePayerSignature, MultiAgentSignature, UserTransaction, fee_statement
from ledgerkit.tx import parse_abort
from ledgerkit.types import Address
from ledgerkit.widgets._balance_rows import units_text
from ledgerkit.widgets._cells import format_time
from ledgerkit.widgets._names import short_id_html, short_move

__all__ = [
    "AccountRole",
    "Fee",
    "accounts",
    "fee_of",
    "gas_html",
    "status_html",
    "summary_html",
]

_ZERO: Final = Address.from_int(0)
_SUCCESS: Final = "var(--jp-success-color1, #1a7f37)"
_FAILURE: Final = "var(--jp-error-color1, #cf222e)"


class AccountRole(NamedTuple):
    """An account the transaction names, and as what (``Sender``, ``Secondary signer``,
    ``Fee payer``)."""

    role: str
    address: Address


class Fee(NamedTuple):
    """A user transaction's fee in octas: ``gas_used * gas_unit_price``, the storage
    refund of its ``FeeStatement``, what was charged (the fee less the refund), and who
    paid it (``payer``; ``sponsored`` when a fee payer other than the sender did)."""

    total: int
    refund: int
    charged: int
    payer: Address
    sponsored: bool


def gas_html(txn: Any) -> str:
    """The Gas tab: the gas used against the most allowed, at its price, and the fee;
    then, from the transaction's fee statement, the fee broken into execution, IO and
    storage, the storage refund and what was charged in the end."""
    used = int(getattr(txn, "gas_used", 0))
    if not isinstance(txn, UserTransaction):
        return f"<p>Gas used: {used:,} units (no fee: not a user transaction)</p>"
    price, most = int(txn.gas_unit_price), int(txn.max_gas_amount)
    fee = used * price
    head = (
        f"<p>Gas used <b>{used:,}</b> units of at most {most:,} ({_percent(used, most)}), "
        f"at {price:,} octas a unit: fee <b>{fee:,}</b> octas = "
        f"{units_text(fee, APT_DECIMALS)} APT.</p>"
    )
    statement = fee_statement(txn)
    if statement is None:
        return head + (
            "<p class='lk-no-statement'>The node sent no <code>FeeStatement</code> event with "
            "this transaction: the fee is not broken down into execution, IO and storage.</p>"
        )

    def units(octas: int) -> str:
        whole, part = divmod(octas, max(price, 1))
        return f"{whole:,}" if not part else f"{octas / max(price, 1):,.2f}"

    charged = statement.total_units * price
    net = charged - statement.refund_octas
    rows = [
        ("Execution", f"{statement.execution_units:,}", statement.execution_units * price),
        ("IO", f"{statement.io_units:,}", statement.io_units * price),
        ("Storage", units(statement.storage_octas), statement.storage_octas),
        ("Charged", f"{statement.total_units:,}", charged),
        ("Storage refund", "", -statement.refund_octas),
        ("Net charge" if net >= 0 else "Net refund", "", net),
    ]
    cells = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{name}</th>"
        f"<td style='text-align:right;padding-right:1em'>{gas}</td>"
        f"<td style='text-align:right'>{octas:,}</td></tr>"
        for name, gas, octas in rows
    )
    return head + (
        "<table class='lk-fee-statement'><thead><tr><th></th>"
        "<th style='text-align:right;padding-right:1em'>gas units</th>"
        "<th style='text-align:right'>octas</th></tr></thead>"
        f"<tbody>{cells}</tbody></table>"
        "<p class='lk-statement-note'>From the transaction's <code>FeeStatement</code> event. "
        "The node rounds each part, so they may differ from the charge by a unit.</p>"
    )


def accounts(txn: Any) -> list[AccountRole]:
    """The sender, the secondary signers and the fee payer, in that order."""
    if not isinstance(txn, UserTransaction):
        return []
    found = [AccountRole("Sender", Address.parse(txn.sender))]
    signature = txn.signature
    if isinstance(signature, MultiAgentSignature | FeePayerSignature):
        found += [
            AccountRole("Secondary signer", Address.parse(a))
            for a in signature.secondary_signer_addresses
        ]
    if isinstance(signature, FeePayerSignature):
        payer = Address.parse(signature.fee_payer_address)
        if payer != _ZERO:
            found.append(AccountRole("Fee payer", payer))
    return found


def fee_of(txn: Any, refund: int) -> Fee | None:
    """The fee of a user transaction (None for other kinds)."""
    if not isinstance(txn, UserTransaction):
        return None
    total = int(txn.gas_used) * int(txn.gas_unit_price)
    payer = Address.parse(txn.sender)
    for account in accounts(txn):
        if account.role == "Fee payer":
            payer = account.address
    return Fee(total, refund, max(total - refund, 0), payer, payer != Address.parse(txn.sender))


def _apt(octas: int) -> str:
    return f"{units_text(octas, APT_DECIMALS)} APT ({octas:,} octas)"


def status_html(txn: Any) -> str:
    """A banner: success, or the failure and, for an abort, its module, error name and
    description; empty for a transaction that neither succeeds nor fails."""
    success = getattr(txn, "success", None)
    if success is None:
        return ""
    vm_status = str(getattr(txn, "vm_status", ""))
    if success:
        return (
            f"<div class='lk-status lk-success' style='color:{_SUCCESS};font-weight:600'>"
            f"✓ Success: {html.escape(vm_status)}</div>"
        )
    abort = parse_abort(vm_status)
    lines = [f"<b>✗ Failed</b>: {html.escape(vm_status)}"]
    if abort is not None:
        lines = ["<b>✗ Failed</b>: Move abort"]
        where = abort.module or "a script"
        lines.append(f"in <code class='lk-abort-module'>{html.escape(where)}</code>")
        name = abort.name or "an error code of no known name"
        category = f", {abort.category_name}" if abort.category_name else ""
        lines.append(
            f"<b class='lk-abort-name'>{html.escape(name)}</b> "
            f"(code {abort.code:#x}{html.escape(category)})"
        )
        if abort.description:
            lines.append(
                f"<span class='lk-abort-description'>{html.escape(abort.description)}</span>"
            )
    body = "<br>".join(lines)
    return f"<div class='lk-status lk-failed' style='color:{_FAILURE}'>{body}</div>"


def _function(txn: Any) -> str:
    payload = getattr(txn, "payload", None)
    function = getattr(payload, "function", None)
    if function:
        return str(function)
    if payload is None:
        return "(none: not a user transaction)"
    return str(getattr(payload, "type", type(payload).__name__)).replace("_", " ")


def _percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` in percent to a tenth, rounded half up, in integers."""
    tenths = (1000 * part + max(whole, 1) // 2) // max(whole, 1)
    return f"{tenths // 10}.{tenths % 10}%"


def _row(name: str, value: str) -> str:
    return (
        f"<tr><th style='text-align:left;padding-right:1em;vertical-align:top'>"
        f"{html.escape(name)}</th><td>{value}</td></tr>"
    )


def summary_html(txn: Any, *, moved: str, fee: Fee | None, block: Any) -> str:
    """The summary's table: function, amounts moved, fee, gas, block and time, version,
    hash. ``moved`` is :func:`ledgerkit.widgets._balance_rows.moved_text`'s; ``block``
    the block holding the transaction (None when it could not be read)."""

    def code(text: Any) -> str:
        return f"<code>{html.escape(str(text))}</code>"

    function = _function(txn)
    shown = short_move(function)
    if shown == function:
        rows = [_row("Function", code(function))]
    else:
        title = html.escape(function, quote=True)
        rows = [_row("Function", f"<code title='{title}'>{html.escape(shown)}</code>")]
    if fee is not None or moved:
        rows.append(_row("Amounts moved", html.escape(moved or "nothing besides the fee")))
    if fee is not None:
        paid = "the fee payer" if fee.sponsored else "the sender"
        text = f"{_apt(fee.total)}, paid by {paid} {short_id_html(fee.payer.standard)}"
        if fee.refund:
            text += (
                f"; a storage refund of {fee.refund:,} octas leaves "
                f"{html.escape(_apt(fee.charged))} charged"
            )
        rows.append(_row("Fee", text))
        used, most = int(txn.gas_used), int(txn.max_gas_amount)
        rows.append(
            _row(
                "Gas",
                f"{used:,} units used of at most {most:,} ({_percent(used, most)}), "
                f"at a price of {int(txn.gas_unit_price):,} octas a unit",
            )
        )
    else:
        rows.append(_row("Gas", f"{int(getattr(txn, 'gas_used', 0)):,} units used, no fee"))
    if block is not None:
        rows.append(
            _row(
                "Block",
                f"{code(f'{block.block_height:,}')} (versions {block.first_version:,} to "
                f"{block.last_version:,}), at {html.escape(format_time(block.block_timestamp))}",
            )
        )
    timestamp = getattr(txn, "timestamp", None)
    if timestamp is not None:
        rows.append(_row("Time", html.escape(format_time(timestamp))))
    rows.append(_row("Version", code(f"{txn.version:,}")))
    if isinstance(txn, UserTransaction):
        rows.append(_row("Sequence number", code(f"{txn.sequence_number:,}")))
    rows.append(_row("Hash", code(txn.hash)))
    tag = getattr(getattr(txn, "__struct_config__", None), "tag", None)
    kind = (tag if isinstance(tag, str) else type(txn).__name__).replace("_", " ")
    rows.append(_row("Type", html.escape(kind)))
    return f"<table class='lk-summary'>{''.join(rows)}</table>"
