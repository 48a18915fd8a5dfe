"""The transaction inspector without a node, as a reader sees it: the summary of a
sponsored transfer and of a failed one (status, decoded abort, amounts moved, fee and
who paid it, gas, block and time, the accounts, each opening its account), the Balance
changes tab exact per account and asset, and events and changes as typed fields, each
module's ABI read once for the explorer.

The inspector reads the embedded node's answers, recorded once and replayed
(``recorded_chain``); every expected value below is written out from its scenario or
taken from the node's answers to the scenario itself. What a public node sends and the
embedded node does not (a ``FeeStatement`` event with a storage refund, a secondary
signer) comes from the fake client (``fake_read_client``).
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from explorer_shown import fee_fields, grid_titled, shortened, units, utc
from fake_read_client import (
    BOB,
    CAROL,
    DAVE,
    LDT,
    SPONSOR,
    SPONSORED,
    STORES,
    FakeReadClient,
)
from recorded_chain import SPONSORED_LDT, ReadLog, Scene

from ledgerkit.frames import FeeStatement, fee_statement
from ledgerkit.models import decode_transaction
from ledgerkit.widgets import LedgerGrid, TransactionInspector
from ledgerkit.widgets._transaction_facts import gas_html

APT_KEY = "0x" + "00" * 31 + "0a"
METADATA = "0x1::fungible_asset::Metadata"
SEP = "\u203a"


pytestmark = pytest.mark.usefixtures("no_node")  # a replayed recording or a fake, never a node


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
    """``(role, address)`` of each account line of the summary: the address whole, as its
    button's tooltip says it, once the button's own text is checked to be its short form
    (``0x1234…cdef``, which a narrow output area shows uncut)."""
    pairs = [line.children for line in lines]
    found = []
    for label, button in pairs:
        address = button.tooltip.removeprefix("Open the account ")
        assert button.description == f"{address[:6]}…{address[-4:]}"
        found.append((_text(label.value), address))
    return found


# -- the summary -------------------------------------------------------------------------------


def _gas(scene: Scene, step: str) -> str:
    """The summary's gas line of a step, from the transaction the node committed."""
    txn = scene.txns[step]
    used, most, price = int(txn.gas_used), int(txn.max_gas_amount), int(txn.gas_unit_price)
    return (
        f"{used} units used of at most {most:,} ({100 * used / most:.1f}%), "
        f"at a price of {price} octas a unit"
    )


def _block(scene: Scene, step: str) -> str:
    """The summary's block line of a step, from the node's block of its version."""
    block = scene.blocks[step]
    return (
        f"{block.block_height} (versions {block.first_version} to {block.last_version}), "
        f"at {utc(int(block.block_timestamp))}"
    )


def test_a_sponsored_transfer_says_what_moved_what_it_cost_and_who_paid(
    client: ReadLog, scene: Scene
) -> None:
    txn = scene.txns["sponsored"]
    fee = scene.fee("sponsored")
    inspector = TransactionInspector(client, scene.version("sponsored"))
    status, facts, lines = _summary(inspector)
    assert status == "✓ Success: Executed successfully"
    assert facts == {
        "Function": "0x1::primary_fungible_store::transfer",
        "Amounts moved": "1.5 LDT",
        "Fee": (f"{units(fee, 8)} APT ({fee:,} octas), paid by the fee payer {scene.sponsor}"),
        "Gas": _gas(scene, "sponsored"),
        "Block": _block(scene, "sponsored"),
        "Time": utc(int(txn.timestamp)),
        "Version": str(scene.version("sponsored")),
        "Sequence number": "1",  # CAROL's second: she sent paid_for first
        "Hash": txn.hash,
        "Type": "user transaction",
    }
    assert _accounts(lines) == [("Sender", scene.carol), ("Fee payer", scene.sponsor)]
    # Reading it took the transaction, its block and LDT's metadata (APT's is known).
    assert sorted(client.methods) == [
        "account_resource",
        "block_by_version",
        "transaction_by_version",
    ]
    assert [(str(a), str(t)) for (a, t), _ in client.asked("account_resource")] == [
        (scene.ldt, METADATA)
    ]


def test_a_public_nodes_fee_statement_and_secondary_signer_are_in_the_summary(
    fake: FakeReadClient,
) -> None:
    inspector = TransactionInspector(fake, 12)
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
    assert sorted(fake.methods) == [
        "account_resource",
        "block_by_version",
        "transaction_by_version",
    ]
    assert fake.asked("account_resource") == [((LDT, METADATA), {})]


def test_each_account_of_the_summary_opens_its_account(client: ReadLog, scene: Scene) -> None:
    inspector = TransactionInspector(client, scene.version("sponsored"))
    _, _, lines = _summary(inspector)
    fee_payer = lines[1].children[1]
    fee_payer.click()
    assert inspector.view is not None
    assert inspector.view.title == f"account {shortened(scene.sponsor)}"
    assert [str(args[0]) for args, _ in client.asked("account")] == [scene.sponsor]
    inspector.back()
    assert inspector.view.title == f"txn {scene.version('sponsored')}"


def test_a_failed_transaction_shows_its_decoded_abort_first(client: ReadLog, scene: Scene) -> None:
    fee = scene.fee("overspend")
    inspector = TransactionInspector(client, scene.txns["overspend"].hash)
    status, facts, lines = _summary(inspector)
    assert status.splitlines() == [
        "✗ Failed: Move abort",
        "in 0x1::fungible_asset",
        "EINSUFFICIENT_BALANCE (code 0x10004, INVALID_ARGUMENT)",
        "The store's balance is too small for the amount asked",
    ]
    assert facts["Function"] == "0x1::primary_fungible_store::transfer"
    assert facts["Amounts moved"] == "nothing besides the fee"
    assert facts["Fee"] == f"{units(fee, 8)} APT ({fee:,} octas), paid by the sender {scene.carol}"
    assert facts["Gas"] == _gas(scene, "overspend")
    assert facts["Block"] == _block(scene, "overspend")
    assert _accounts(lines) == [("Sender", scene.carol)]
    assert client.asked("account_resource") == []  # it moved only APT


def test_a_block_the_node_cannot_tell_leaves_the_rest_of_the_summary(
    client: ReadLog, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ledgerkit import BlockPrunedError

    def pruned(version: int, **kwargs: Any) -> Any:
        raise BlockPrunedError("pruned", status=410, error_code="block_pruned")

    monkeypatch.setattr(client, "block_by_version", pruned)
    inspector = TransactionInspector(client, scene.version("score_max"))
    _, facts, _ = _summary(inspector)
    fee = scene.fee("score_max")
    assert "Block" not in facts
    assert facts["Time"] == utc(int(scene.txns["score_max"].timestamp))
    assert facts["Fee"] == f"{units(fee, 8)} APT ({fee:,} octas), paid by the sender {scene.alice}"
    assert inspector._message.value == ""


# -- balance changes ---------------------------------------------------------------------------


def _balance_changes(inspector: TransactionInspector) -> LedgerGrid:
    """The Balance changes tab, shown: its grid."""
    assert inspector.view is not None
    inspector.view.show("Balance changes")
    return grid_titled(inspector, "balance change")


def _changed(grid: LedgerGrid) -> list[tuple[Any, ...]]:
    """Each row shown: who, in which roles, the asset's symbol, the change in whole units
    and in base units, and the asset."""
    fields = ("address", "roles", "symbol", "amount", "base_units", "asset")
    return [tuple(row[field] for field in fields) for row in grid.rows]


def _deltas(grid: LedgerGrid) -> list[list[str]]:
    """The grid's frame: each row's address, asset and exact signed change, as text."""
    return grid.to_frame()[["address", "asset", "delta"]].astype(str).values.tolist()


def test_the_balance_changes_tab_is_exact_per_account_and_asset(
    client: ReadLog, scene: Scene
) -> None:
    fee = scene.fee("sponsored")
    inspector = TransactionInspector(client, scene.version("sponsored"))
    grid = _balance_changes(inspector)
    assert grid.title == "3 balance changes"
    assert _changed(grid) == [
        (scene.carol, "sender", "LDT", "-1.5", "-1,500,000", scene.ldt),
        (scene.bob, "recipient", "LDT", "+1.5", "+1,500,000", scene.ldt),
        (scene.sponsor, "fee payer", "APT", f"-{units(fee, 8)}", f"-{fee:,}", "0xa"),
    ]
    # The frame: the exact signed changes as text, the coin paired with each asset.
    assert _deltas(grid) == [
        [scene.carol, scene.ldt, f"-{SPONSORED_LDT}"],
        [scene.bob, scene.ldt, str(SPONSORED_LDT)],
        [scene.sponsor, APT_KEY, f"-{fee}"],
    ]
    frame = grid.to_frame()
    apt = "0x1::aptos_coin::AptosCoin"
    assert frame["coin_type"].astype(object).where(frame["coin_type"].notna(), None).tolist() == [
        None,
        None,
        apt,
    ]
    # The asset's metadata was read once, for the summary and the tab alike.
    assert client.methods.count("account_resource") == 1
    # A row opens its account.
    grid._activate(1, "address")
    assert inspector.view is not None
    assert inspector.view.title == f"account {shortened(scene.bob)}"


def test_a_public_nodes_storage_refund_is_taken_off_the_fee_payers_change(
    fake: FakeReadClient,
) -> None:
    grid = _balance_changes(TransactionInspector(fake, 12))
    assert grid.title == "5 balance changes"
    assert _changed(grid) == [
        (CAROL, "sender", "APT", "-2.5", "-250,000,000", "0xa"),
        (BOB, "recipient", "APT", "+2.5", "+250,000,000", "0xa"),
        (CAROL, "sender", "LDT", "-1.5", "-1,500,000", LDT),
        (BOB, "recipient", "LDT", "+1.5", "+1,500,000", LDT),
        # 15,100 octas charged, 1,100 refunded for storage.
        (SPONSOR, "fee payer", "APT", "-0.00014", "-14,000", "0xa"),
    ]
    assert _deltas(grid) == [
        [CAROL, APT_KEY, "-250000000"],
        [BOB, APT_KEY, "250000000"],
        [CAROL, LDT, "-1500000"],
        [BOB, LDT, "1500000"],
        [SPONSOR, APT_KEY, "-14000"],
    ]


def test_a_failed_transaction_changes_only_the_fee_payers_apt(
    client: ReadLog, scene: Scene
) -> None:
    fee = scene.fee("overspend")
    grid = _balance_changes(TransactionInspector(client, scene.version("overspend")))
    assert grid.title == "1 balance change"
    assert _changed(grid) == [
        (scene.carol, "sender", "APT", f"-{units(fee, 8)}", f"-{fee:,}", "0xa")
    ]


def test_a_search_narrows_the_balance_changes_and_their_frame(
    client: ReadLog, scene: Scene
) -> None:
    grid = _balance_changes(TransactionInspector(client, scene.version("sponsored")))
    grid.query = "LDT"
    assert [(r["address"], r["base_units"]) for r in grid.rows] == [
        (scene.carol, "-1,500,000"),
        (scene.bob, "+1,500,000"),
    ]
    assert grid.to_frame()["delta"].tolist() == [-1_500_000, 1_500_000]


# -- typed events and changes ------------------------------------------------------------------


def test_events_show_fields_typed_by_their_module_abi(client: ReadLog, scene: Scene) -> None:
    version = scene.version("sponsored")
    carol, bob = scene.stores[scene.carol, scene.ldt], scene.stores[scene.bob, scene.ldt]
    inspector = TransactionInspector(client, version)
    assert inspector.view is not None
    inspector.view.show("Events")
    events = grid_titled(inspector, "3 events")
    assert [(r["event_index"], r["type"], r["fields"]) for r in events.rows] == [
        (0, "0x1::fungible_asset::Withdraw", f"store: {shortened(carol)} · amount: 1500000"),
        (1, "0x1::fungible_asset::Deposit", f"store: {shortened(bob)} · amount: 1500000"),
        (2, "0x1::transaction_fee::FeeStatement", fee_fields(scene.txns["sponsored"])),
    ]
    # The first event's fields, typed; its store opens as an account.
    fields = grid_titled(inspector, "Event 0")
    assert [(r["path"], r["type"], r["value"], r["points_to"]) for r in fields.rows] == [
        ("store", "address", carol, "account"),
        ("amount", "u64", "1500000", ""),
    ]
    events.selected_index = 1
    fields = grid_titled(inspector, "Event 1")
    assert [(r["path"], r["value"]) for r in fields.rows] == [("store", bob), ("amount", "1500000")]
    asked = [(str(address), module) for (address, module), _ in client.asked("account_module")]
    assert asked == [("0x1", "fungible_asset"), ("0x1", "transaction_fee")]
    # The explorer keeps the ABIs: the same transaction opened again asks none.
    inspector.open_transaction(version)
    inspector.view.show("Events")
    assert len(client.asked("account_module")) == 2
    assert len(grid_titled(inspector, "3 events").rows) == 3


def test_an_event_of_a_module_the_node_does_not_publish_is_left_untyped(
    fake: FakeReadClient,
) -> None:
    inspector = TransactionInspector(fake, 12)
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
    fields = grid_titled(inspector, "Event 0")
    assert [(r["path"], r["type"], r["value"], r["points_to"]) for r in fields.rows] == [
        ("store", "address", STORES[0][0], "account"),
        ("amount", "u64", "250000000", ""),
    ]
    # 0x1::transaction_fee is not published there: the FeeStatement's fields are untyped.
    events.selected_index = 4
    fee = grid_titled(inspector, "Event 4")
    assert [(r["path"], r["type"]) for r in fee.rows][-1] == ("storage_fee_refund_octas", "")
    asked = [(str(address), module) for (address, module), _ in fake.asked("account_module")]
    assert asked == [("0x1", "fungible_asset"), ("0x1", "transaction_fee")]
    inspector.open_transaction(12)
    inspector.view.show("Events")
    assert len(fake.asked("account_module")) == 2
    assert len(grid_titled(inspector, "5 events").rows) == 5


def test_changes_show_a_resource_value_as_typed_fields(client: ReadLog, scene: Scene) -> None:
    version = scene.version("sponsored")
    store = scene.stores[scene.carol, scene.ldt]
    inspector = TransactionInspector(client, version)
    assert inspector.view is not None
    inspector.view.show("Changes")
    changes = grid_titled(inspector, "12 changes")
    shown = [(r["type"], r["address"], r["what"]) for r in changes.rows]
    # What a sponsored LDT transfer writes: the fee burned, APT's supply, three stores
    # (CAROL's and BOB's LDT, SPONSOR's APT) and CAROL's account; the supply and the
    # stores with the other members of their objects' groups.
    stores = [store, scene.stores[scene.bob, scene.ldt], scene.stores[scene.sponsor, APT_KEY]]
    apt_group = ["0x1::coin::PairedCoinType", "0x1::fungible_asset::ConcurrentSupply"]
    apt_group += ["0x1::fungible_asset::Metadata", "0x1::object::ObjectCore"]
    store_group = ["0x1::fungible_asset::FungibleStore", "0x1::object::ObjectCore"]
    assert sorted(shown) == sorted(
        [
            ("write_resource", "0x1", "0x1::transaction_fee::BurnedFees"),
            *[("write_resource", "0xa", what) for what in apt_group],
            *[("write_resource", at, what) for at in stores for what in store_group],
            ("write_resource", scene.carol, "0x1::account::Account"),
        ]
    )
    # No change names a table: the column is left out.
    assert [c["name"] for c in changes.columns] == ["change_index", "type", "address", "what"]
    index = shown.index(("write_resource", store, "0x1::fungible_asset::FungibleStore"))
    changes.selected_index = index
    value = grid_titled(inspector, f"Change {index}")
    # CAROL's LDT after the transfer (her overspend later failed: it is her balance now).
    left = scene.balances[scene.carol, scene.ldt]
    assert left == 1_000_000_000_000 - SPONSORED_LDT
    assert [(r["path"], r["type"], r["value"], r["points_to"]) for r in value.rows] == [
        ("metadata.inner", "address", scene.ldt, "account"),
        ("balance", "u64", str(left), ""),
        ("frozen", "bool", "false", ""),
    ]
    value._activate(0, "value")
    assert inspector.view.title == f"account {shortened(scene.ldt)}"
    assert f"txn {version} {SEP} account" in inspector._crumbs.value


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


def test_the_gas_tab_breaks_the_fee_down_from_its_fee_statement(fake: FakeReadClient) -> None:
    # The statement: 151 units charged, 100 execution, 40 IO, 1,100 octas of storage (11
    # units at 100 octas), 1,100 octas refunded: 15,100 charged, 14,000 net.
    text, rows = _gas_tab(TransactionInspector(fake, 12))
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


def test_the_gas_tab_breaks_down_the_embedded_nodes_fee_statement(
    client: ReadLog, scene: Scene
) -> None:
    # The embedded node ends every user transaction with the VM's FeeStatement, an abort's
    # too: the tab shows its parts at the transaction's price (100 octas).
    txn = scene.txns["overspend"]
    used, most, fee = int(txn.gas_used), int(txn.max_gas_amount), scene.fee("overspend")
    data = txn.events[-1].data
    execution, io = int(data["execution_gas_units"]), int(data["io_gas_units"])
    assert int(data["total_charge_gas_units"]) == used
    assert (data["storage_fee_octas"], data["storage_fee_refund_octas"]) == ("0", "0")
    text, rows = _gas_tab(TransactionInspector(client, scene.version("overspend")))
    assert text.startswith(
        f"Gas used {used} units of at most {most:,} ({100 * used / most:.1f}%), "
        f"at 100 octas a unit: fee {fee:,} octas = {units(fee, 8)} APT."
    )
    assert rows == [
        ["", "gas units", "octas"],
        ["Execution", f"{execution:,}", f"{execution * 100:,}"],
        ["IO", f"{io:,}", f"{io * 100:,}"],
        ["Storage", "0", "0"],
        ["Charged", f"{used:,}", f"{fee:,}"],
        ["Storage refund", "", "0"],
        ["Net charge", "", f"{fee:,}"],
    ]


def test_the_gas_tab_says_when_a_transaction_carries_no_fee_statement() -> None:
    events = [e for e in SPONSORED["events"] if not e["type"].endswith("FeeStatement")]
    txn = decode_transaction(json.dumps({**SPONSORED, "events": events}).encode())
    markup = gas_html(txn)
    assert "<table" not in markup
    assert "The node sent no <code>FeeStatement</code> event with this transaction" in markup


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
