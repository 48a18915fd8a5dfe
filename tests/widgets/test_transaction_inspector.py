"""The transaction inspector without a node, as a reader sees it: the summary of a
sponsored transfer and of a failed one (status, decoded abort, amounts moved, fee and
who paid it, gas, block and time, the accounts, each opening its account), the Balance
changes tab exact per account and asset, and events and changes as typed fields, each
module's ABI read once for the explorer.

The fake node (``fake_read_client``) describes the transactions; every expected value
below is worked out by hand from it.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from explorer_shown import grid_titled
from fake_read_client import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    LDT,
    SPONSOR,
    SPONSORED,
    STORES,
    FakeReadClient,
)

from ledgerkit.frames import FeeStatement, fee_statement
from ledgerkit.models import decode_transaction
from ledgerkit.widgets import TransactionInspector
from ledgerkit.widgets._transaction_facts import gas_html

APT_KEY = "0x" + "00" * 31 + "0a"
SEP = "\u203a"


pytestmark = pytest.mark.usefixtures("no_node")  # a fake client, never a node


class _Table(HTMLParser):
    """The rows of the summary's table as ``{heading: text}``, tags dropped."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, str] = {}
        self._cell: list[str] | None = None
        self._heading = ""

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in ("th", "td"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self._cell is not None:
            self._heading = "".join(self._cell)
        elif tag == "td" and self._cell is not None:
            self.rows[self._heading] = "".join(self._cell)
        if tag in ("th", "td"):
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<br>", "\n", re.sub(r"<(?!br>)[^>]+>", "", markup)))


def _summary(inspector: TransactionInspector) -> tuple[str, dict[str, str], list[Any]]:
    """What the summary shows: the status line, the table's rows, the account lines."""
    view = inspector.view
    assert view is not None
    assert view.tabs is not None
    status, facts, accounts = view.tabs.children[0].children[0].children
    table = _Table()
    table.feed(facts.value)
    return _text(status.value), table.rows, list(accounts.children)


def _accounts(lines: list[Any]) -> list[tuple[str, str]]:
    """``(role, address)`` of each account line of the summary."""
    pairs = [line.children for line in lines]
    return [(_text(label.value), button.description) for label, button in pairs]


# -- the summary -------------------------------------------------------------------------------


def test_a_sponsored_transfer_says_what_moved_what_it_cost_and_who_paid(
    client: FakeReadClient,
) -> None:
    inspector = TransactionInspector(client, 12)
    status, facts, lines = _summary(inspector)
    assert status == "✓ Success: Executed successfully"
    assert facts == {
        "Function": "0x1::ledger_demo::pay",
        "Amounts moved": "2.5 APT · 1.5 LDT",
        "Fee": (
            f"0.000151 APT (15,100 octas), paid by the fee payer {SPONSOR}; a storage "
            "refund of 1,100 octas leaves 0.00014 APT (14,000 octas) charged"
        ),
        "Gas": "151 units used of at most 2,000 (7.6%), at a price of 100 octas a unit",
        "Block": "4 (versions 12 to 14), at 2025-06-01 00:00:12.000000 UTC",
        "Time": "2025-06-01 00:00:12.000000 UTC",
        "Version": "12",
        "Sequence number": "4",
        "Hash": "0x" + "5b" * 32,
        "Type": "user transaction",
    }
    assert _accounts(lines) == [
        ("Sender", CAROL),
        ("Secondary signer", DAVE),
        ("Fee payer", SPONSOR),
    ]
    # Reading it took the transaction, its block and LDT's metadata (APT's is known).
    assert sorted(client.methods) == [
        "account_resource",
        "block_by_version",
        "transaction_by_version",
    ]
    assert client.asked("account_resource") == [((LDT, "0x1::fungible_asset::Metadata"), {})]


def test_each_account_of_the_summary_opens_its_account(client: FakeReadClient) -> None:
    inspector = TransactionInspector(client, 12)
    _, _, lines = _summary(inspector)
    fee_payer = lines[2].children[1]
    fee_payer.click()
    assert inspector.view is not None
    assert inspector.view.title == "account 0xfefe…fefe"
    assert [str(args[0]) for args, _ in client.asked("account")] == [SPONSOR]
    inspector.back()
    assert inspector.view.title == "txn 12"


def test_a_failed_transaction_shows_its_decoded_abort_first(client: FakeReadClient) -> None:
    inspector = TransactionInspector(client, "0x" + "ab" * 32)
    status, facts, lines = _summary(inspector)
    assert status.splitlines() == [
        "✗ Failed: Move abort",
        "in 0x1::fungible_asset",
        "EINSUFFICIENT_BALANCE (code 0x10004, INVALID_ARGUMENT)",
        "The store's balance is too small for the amount asked",
    ]
    assert facts["Function"] == "0x1::aptos_account::transfer"
    assert facts["Amounts moved"] == "nothing besides the fee"
    assert facts["Fee"] == f"0.000009 APT (900 octas), paid by the sender {CAROL}"
    assert facts["Gas"] == "9 units used of at most 2,000 (0.5%), at a price of 100 octas a unit"
    assert facts["Block"] == "4 (versions 12 to 14), at 2025-06-01 00:00:12.000000 UTC"
    assert _accounts(lines) == [("Sender", CAROL)]
    assert client.asked("account_resource") == []  # it moved only APT


def test_a_block_the_node_cannot_tell_leaves_the_rest_of_the_summary(
    client: FakeReadClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ledgerkit import BlockPrunedError

    def pruned(version: int, **kwargs: Any) -> Any:
        raise BlockPrunedError("pruned", status=410, error_code="block_pruned")

    monkeypatch.setattr(client, "block_by_version", pruned)
    inspector = TransactionInspector(client, 17)
    _, facts, _ = _summary(inspector)
    assert "Block" not in facts
    assert facts["Time"] == "2025-06-01 00:00:17.000000 UTC"
    assert facts["Fee"] == f"0.000612 APT (61,200 octas), paid by the sender {ALICE}"
    assert inspector._message.value == ""


# -- balance changes ---------------------------------------------------------------------------


def test_the_balance_changes_tab_is_exact_per_account_and_asset(client: FakeReadClient) -> None:
    inspector = TransactionInspector(client, 12)
    assert inspector.view is not None
    inspector.view.show("Balance changes")
    grid = grid_titled(inspector, "balance changes")
    assert grid.title == "5 balance changes"
    assert [
        (r["address"], r["roles"], r["symbol"], r["amount"], r["base_units"], r["asset"])
        for r in grid.rows
    ] == [
        (CAROL, "sender", "APT", "-2.5", "-250,000,000", "0xa"),
        (BOB, "recipient", "APT", "+2.5", "+250,000,000", "0xa"),
        (CAROL, "sender", "LDT", "-1.5", "-1,500,000", LDT),
        (BOB, "recipient", "LDT", "+1.5", "+1,500,000", LDT),
        (SPONSOR, "fee payer", "APT", "-0.00014", "-14,000", "0xa"),
    ]
    # The frame: the exact signed changes as text, the coin paired with each asset.
    frame = grid.to_frame()
    assert frame[["address", "asset", "delta"]].astype(str).values.tolist() == [
        [CAROL, APT_KEY, "-250000000"],
        [BOB, APT_KEY, "250000000"],
        [CAROL, LDT, "-1500000"],
        [BOB, LDT, "1500000"],
        [SPONSOR, APT_KEY, "-14000"],
    ]
    apt = "0x1::aptos_coin::AptosCoin"
    assert frame["coin_type"].astype(object).where(frame["coin_type"].notna(), None).tolist() == [
        apt,
        apt,
        None,
        None,
        apt,
    ]
    # The asset's metadata was read once, for the summary and the tab alike.
    assert client.methods.count("account_resource") == 1
    # A row opens its account.
    grid._activate(1, "address")
    assert inspector.view.title == "account 0xb0b0…b0b0"


def test_a_failed_transaction_changes_only_the_fee_payers_apt(client: FakeReadClient) -> None:
    inspector = TransactionInspector(client, 13)
    assert inspector.view is not None
    inspector.view.show("Balance changes")
    grid = grid_titled(inspector, "balance change")
    assert grid.title == "1 balance change"
    assert [(r["address"], r["symbol"], r["amount"], r["base_units"]) for r in grid.rows] == [
        (CAROL, "APT", "-0.000009", "-900")
    ]


def test_a_search_narrows_the_balance_changes_and_their_frame(client: FakeReadClient) -> None:
    inspector = TransactionInspector(client, 12)
    assert inspector.view is not None
    inspector.view.show("Balance changes")
    grid = grid_titled(inspector, "balance changes")
    grid.query = "LDT"
    assert [(r["address"], r["base_units"]) for r in grid.rows] == [
        (CAROL, "-1,500,000"),
        (BOB, "+1,500,000"),
    ]
    assert grid.to_frame()["delta"].tolist() == ["-1500000", "1500000"]


# -- typed events and changes ------------------------------------------------------------------


def test_events_show_fields_typed_by_their_module_abi(client: FakeReadClient) -> None:
    inspector = TransactionInspector(client, 12)
    assert inspector.view is not None
    inspector.view.show("Events")
    events = grid_titled(inspector, "5 events")
    assert [(r["event_index"], r["type"], r["fields"]) for r in events.rows] == [
        (0, "0x1::fungible_asset::Withdraw", "store: 0xc1c1…c1c1 · amount: 250000000"),
        (1, "0x1::fungible_asset::Deposit", "store: 0xb1b1…b1b1 · amount: 250000000"),
        (2, "0x1::fungible_asset::Withdraw", "store: 0xc2c2…c2c2 · amount: 1500000"),
        (3, "0x1::fungible_asset::Deposit", "store: 0xb2b2…b2b2 · amount: 1500000"),
        (
            4,
            "0x1::transaction_fee::FeeStatement",
            "total_charge_gas_units: 151 · execution_gas_units: 100 · io_gas_units: 40 · "
            "storage_fee_octas: 1100 · storage_fee_refund_octas: 1100",
        ),
    ]
    # The first event's fields, typed; its store opens as an account.
    fields = grid_titled(inspector, "Event 0")
    assert [(r["path"], r["type"], r["value"], r["points_to"]) for r in fields.rows] == [
        ("store", "address", STORES[0][0], "account"),
        ("amount", "u64", "250000000", ""),
    ]
    # A module the node does not publish leaves its event's fields untyped.
    events.selected_index = 4
    fee = grid_titled(inspector, "Event 4")
    assert [(r["path"], r["type"]) for r in fee.rows][-1] == ("storage_fee_refund_octas", "")
    asked = [(str(address), module) for (address, module), _ in client.asked("account_module")]
    assert asked == [("0x1", "fungible_asset"), ("0x1", "transaction_fee")]
    # The explorer keeps the ABIs: the same transaction opened again asks none.
    inspector.open_transaction(12)
    inspector.view.show("Events")
    assert len(client.asked("account_module")) == 2
    assert len(grid_titled(inspector, "5 events").rows) == 5


def test_changes_show_a_resource_value_as_typed_fields(client: FakeReadClient) -> None:
    inspector = TransactionInspector(client, 12)
    assert inspector.view is not None
    inspector.view.show("Changes")
    changes = grid_titled(inspector, "8 changes")
    assert [(r["type"], r["address"], r["what"]) for r in changes.rows][:2] == [
        ("write_resource", STORES[0][0], "0x1::fungible_asset::FungibleStore"),
        ("write_resource", STORES[0][0], "0x1::object::ObjectCore"),
    ]
    # No change names a table: the column is left out.
    assert [c["name"] for c in changes.columns] == ["change_index", "type", "address", "what"]
    value = grid_titled(inspector, "Change 0")
    assert [(r["path"], r["type"], r["value"]) for r in value.rows] == [
        ("metadata.inner", "", "0xa"),
        ("balance", "u64", "750000000"),
        ("frozen", "bool", "false"),
    ]
    changes.selected_index = 1
    owner = grid_titled(inspector, "Change 1")
    assert [(r["path"], r["value"], r["points_to"]) for r in owner.rows] == [
        ("owner", CAROL, "account"),
        ("allow_ungated_transfer", "false", ""),
    ]
    owner._activate(0, "value")
    assert inspector.view.title == "account 0xc0c0…c0c0"
    assert f"txn 12 {SEP} account" in inspector._crumbs.value


def test_amounts_stay_exact_far_beyond_what_a_float_holds() -> None:
    from ledgerkit.widgets._balance_rows import units_text

    assert units_text(2**53 + 1, 0, signed=True) == "+9,007,199,254,740,993"
    assert units_text(-(2**64 - 1), 6) == "-18,446,744,073,709.551615"
    assert units_text(2**128 - 1, 8) == "3,402,823,669,209,384,634,633,746,074,317.68211455"
    assert units_text(2**256 - 1, 0, signed=True) == f"+{2**256 - 1:,}"
    assert units_text(5, None) is None


# -- the gas tab -------------------------------------------------------------------------------


def _gas_tab(inspector: TransactionInspector) -> tuple[str, list[list[str]]]:
    """The Gas tab's text, and its fee table's rows (each row's cells as text)."""
    view = inspector.view
    assert view is not None
    view.show("Gas")
    assert view.tabs is not None
    markup = view.tabs.children[view.tabs.selected_index].children[0].value
    rows = [
        [_text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", markup)
    ]
    return _text(markup), rows


def test_the_gas_tab_breaks_the_fee_down_from_its_fee_statement(client: FakeReadClient) -> None:
    # The statement: 151 units charged, 100 execution, 40 IO, 1,100 octas of storage (11
    # units at 100 octas), 1,100 octas refunded: 15,100 charged, 14,000 net.
    text, rows = _gas_tab(TransactionInspector(client, 12))
    assert text.startswith(
        "Gas used 151 units of at most 2,000 (7.6%), at 100 octas a unit: "
        "fee 15,100 octas = 0.000151 APT."
    )
    assert rows == [
        ["", "gas units", "octas"],
        ["Execution", "100", "10,000"],
        ["IO", "40", "4,000"],
        ["Storage", "11", "1,100"],
        ["Charged", "151", "15,100"],
        ["Storage refund", "", "-1,100"],
        ["Net charge", "", "14,000"],
    ]
    assert "From the transaction's FeeStatement event" in text


def test_the_gas_tab_says_when_a_transaction_carries_no_fee_statement(
    client: FakeReadClient,
) -> None:
    text, rows = _gas_tab(TransactionInspector(client, 13))
    assert text.startswith(
        "Gas used 9 units of at most 2,000 (0.5%), at 100 octas a unit: "
        "fee 900 octas = 0.000009 APT."
    )
    assert rows == []
    assert "The node sent no FeeStatement event with this transaction" in text


def _with_statement(data: dict[str, str]) -> Any:
    events = [e for e in SPONSORED["events"] if not e["type"].endswith("FeeStatement")]
    statement = {**SPONSORED["events"][-1], "data": data}
    return decode_transaction(json.dumps({**SPONSORED, "events": [*events, statement]}).encode())


def test_a_refund_above_the_charge_is_a_net_refund() -> None:
    txn = _with_statement(
        {
            "total_charge_gas_units": "151",
            "execution_gas_units": "100",
            "io_gas_units": "40",
            "storage_fee_octas": "1150",
            "storage_fee_refund_octas": "20000",
        }
    )
    assert fee_statement(txn) == FeeStatement(151, 100, 40, 1150, 20000)
    markup = gas_html(txn)
    # 1,150 octas of storage is 11.5 units at 100 octas; 15,100 - 20,000 = -4,900.
    assert "<th style='text-align:left;padding-right:1em'>Storage</th>" in markup
    assert ">11.50<" in markup
    assert "Net refund</th><td style='text-align:right;padding-right:1em'></td>" in markup
    assert ">-4,900<" in markup


@pytest.mark.parametrize(
    "data",
    [
        {"total_charge_gas_units": "151"},  # fields missing
        {
            "total_charge_gas_units": "151",
            "execution_gas_units": "-1",
            "io_gas_units": "40",
            "storage_fee_octas": "0",
            "storage_fee_refund_octas": "0",
        },
        {
            "total_charge_gas_units": "9" * 21,  # past a u64
            "execution_gas_units": "1",
            "io_gas_units": "1",
            "storage_fee_octas": "0",
            "storage_fee_refund_octas": "0",
        },
    ],
)
def test_a_fee_statement_of_another_shape_is_not_broken_down(data: dict[str, str]) -> None:
    txn = _with_statement(data)
    assert fee_statement(txn) is None
    assert "The node sent no <code>FeeStatement</code> event" in gas_html(txn)
