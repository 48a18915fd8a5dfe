"""The explorers without a node: each test drives an explorer the way a user does
(showing tabs, selecting rows, following them, Back) over the embedded node's answers,
recorded once and replayed (``recorded_chain``), and checks what is shown, exactly, and
which reads were made: none for a tab before it is shown, none twice. Where a public
node answers what the embedded node cannot (pages smaller than asked, balances past a
float's reach), the fake ``ReadClient`` of ``fake_read_client`` answers.

No test here starts a node or reaches the network: either fails the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from explorer_shown import crumbs, fee_fields, grid_titled, shortened, units
from fake_read_client import ALICE, LDT, RESOURCES, FakeReadClient
from recorded_chain import PLAYER, UNKNOWN_VERSION, ReadLog, Scene

import ledgerkit
from ledgerkit import InputError, TransportError, frames
from ledgerkit.charts import BRUSH
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address
from ledgerkit.widgets import (
    AccountExplorer,
    GasDashboard,
    TableExplorer,
    TransactionInspector,
)

U64_MAX = 2**64 - 1
U128_MAX = 2**128 - 1
APT = "0x1::aptos_coin::AptosCoin"
#: What separates the breadcrumb's steps (a single right-pointing angle quote).
SEP = "\u203a"
FRAMEWORK = "0x" + "00" * 31 + "01"


pytestmark = pytest.mark.usefixtures("no_node")


# -- the guard itself ----------------------------------------------------------------------


def test_a_node_cannot_start_in_these_tests() -> None:
    with pytest.raises(AssertionError, match="started a LocalNode"):
        LocalNode(seed=1)
    with pytest.raises(AssertionError, match="reached for the network"):
        httpx.get("http://127.0.0.1:9/v1")


# -- the account explorer -----------------------------------------------------------------


def test_opening_an_account_reads_its_overview_and_nothing_else(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    # The resources are read once, and the holdings are found in them: account_assets
    # reads none again.
    assert client.methods == ["account", "account_resources", "account_assets"]
    assert client.asked("account_resources") == [
        ((explorer.address,), {"ledger_version": scene.head, "start": None, "limit": 200})
    ]
    ((address,), options) = client.asked("account_assets")[0]
    assert address == explorer.address
    assert options["ledger_version"] == scene.head
    assert [r.type for r in options["resources"]] == [
        "0x1::account::Account",
        "0x1::ledger_demo::Board",
    ]
    assert repr(explorer) == f"AccountExplorer({scene.alice})"
    assert crumbs(explorer) == f"account {shortened(scene.alice)}"
    assert explorer._back.disabled
    view = explorer.view
    assert view is not None
    assert view.tabs is not None
    assert view.tabs.built == ["Overview"]
    assert [g.title for g in view.grids] == ["Assets"]
    # She sent five transactions: score_7, score_9, score_max, failed and ldt_out.
    assert "<code>5</code>" in view.tabs.children[0].children[0].children[0].value


def test_a_node_that_serves_two_resources_a_page_has_each_page_read_once(
    fake: FakeReadClient,
) -> None:
    explorer = AccountExplorer(fake, ALICE)
    assert fake.methods == [
        "account",
        "account_resources",
        "account_resources",
        "account_resources",
        "account_assets",
    ]
    assert [kw["start"] for _, kw in fake.asked("account_resources")] == [None, "2", "4"]
    assert fake.asked("account_assets") == [
        (
            (explorer.address,),
            {"ledger_version": 25, "resources": [r["type"] for r in RESOURCES]},
        )
    ]


def test_the_assets_grid_and_its_frame_hold_every_asset_exactly(fake: FakeReadClient) -> None:
    explorer = AccountExplorer(fake, ALICE)
    assets = grid_titled(explorer, "Assets")
    # Base units grouped like the amounts; the coin type by its name; APT's key, the
    # special address 0xa, in full.
    assert assets.rows == [
        {
            "symbol": "APT",
            "name": "Aptos Coin",
            "amount": "100,000.819737",
            "base_units": "10,000,081,973,700",
            "type": "AptosCoin",
            "asset": "0xa",
        },
        {
            "symbol": "LDT",
            "name": "Demo Token",
            "amount": "18,446,744,073,709.551615",
            "base_units": "18,446,744,073,709,551,615",
            "type": "fungible asset",
            "asset": LDT,
        },
    ]
    assert assets.selected is None
    assets.selected_index = 0
    assert assets.selected is not None
    assert assets.selected["coin_type"] == APT  # the full type stays in the row
    assert assets.selected["balance"] == 10_000_081_973_700
    frame = explorer.to_frame()
    assert list(frame["symbol"]) == ["APT", "LDT"]
    assert list(frame["asset"]) == ["0x" + "00" * 31 + "0a", LDT]
    assert frame["coin_type"].iloc[0] == APT
    assert frame["coin_type"].isna().iloc[1]  # a fungible asset alone
    assert list(frame["balance"]) == [10_000_081_973_700, 18_446_744_073_709_551_615]
    assert str(frame["balance"].dtype) == "UInt64"
    assert list(frame["amount"]) == ["100,000.819737", "18,446,744,073,709.551615"]
    # Searched down to one asset, the frame holds that one.
    assets.query = "LDT"
    frame = explorer.to_frame()
    assert list(frame["symbol"]) == ["LDT"]
    assert list(frame["balance"]) == [18_446_744_073_709_551_615]


def test_the_resources_tab_shows_the_pages_the_overview_read_and_reads_none_again(
    fake: FakeReadClient,
) -> None:
    explorer = AccountExplorer(fake, ALICE)
    view = explorer.view
    assert view is not None
    view.show("Resources")
    # The node serves two resources a page: the overview read three, and no more.
    assert [kw["start"] for _, kw in fake.asked("account_resources")] == [None, "2", "4"]
    assert {kw["ledger_version"] for _, kw in fake.asked("account_resources")} == {25}
    resources = grid_titled(explorer, "Resources")
    assert [row["type"] for row in resources.rows] == [
        "0x1::account::Account",
        "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
        "0x1::ledger_demo::Board",
        "0x1::ledger_demo::Counter",
        "0x1::object::ObjectCore",
    ]
    assert [row["fields"] for row in resources.rows] == [3, 2, 3, 1, 2]
    assert resources.total == 5
    before = len(fake.calls)
    # Another page size, a search, the Events tab, the tab shown again: no page asked twice.
    resources.page_size = 5
    resources.query = "ledger_demo"
    assert [row["type"] for row in resources.rows] == [
        "0x1::ledger_demo::Board",
        "0x1::ledger_demo::Counter",
    ]
    view.show("Events")
    view.show("Resources")
    assert fake.calls[before:] == []


def test_the_events_tab_reads_the_streams_from_the_resources_once(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    explorer.view.show("Events")
    assert len(client.asked("account_resources")) == 1
    streams = grid_titled(explorer, "Event streams")
    # An account's two handles (creation numbers 0 and 1), then her board's.
    assert [(r["stream"], r["creation_number"], r["events"]) for r in streams.rows] == [
        ("account::Account.coin_register_events (0)", 0, 0),
        ("account::Account.key_rotation_events (0)", 1, 0),
        ("ledger_demo::Board.score_events (3)", 2, 3),
    ]
    explorer.view.show("Resources")
    assert len(client.asked("account_resources")) == 1
    # A stream opens newest first, one read for the page.
    streams._activate(2, "stream")  # as Enter on the row does
    assert crumbs(explorer) == (
        f"account {shortened(scene.alice)} {SEP} ledger_demo::Board.score_events (3)"
    )
    events = grid_titled(explorer, "3 events")
    assert [(r["sequence_number"], r["version"]) for r in events.rows] == [
        (2, scene.version("score_max")),
        (1, scene.version("score_9")),
        (0, scene.version("score_7")),
    ]
    assert events.rows[0]["fields"] == (
        f"player: {shortened(PLAYER)} · old: 9 · new: 18446744073709551615"
    )
    assert client.asked("events_by_creation_number") == [
        ((scene.alice, 2), {"start": 0, "limit": 3})
    ]


def test_a_resource_is_shown_as_typed_rows_and_each_module_abi_is_asked_once(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    explorer.view.show("Resources")
    resources = grid_titled(explorer, "Resources")
    resources.selected_index = 1  # the Board
    value = grid_titled(explorer, "0x1::ledger_demo::Board")
    assert [(r["path"], r["value"], r["type"], r["points_to"]) for r in value.rows] == [
        ("scores", scene.board["scores"]["handle"], "0x1::table::Table<address, u64>", "table"),
        (
            "names",
            scene.board["names"]["handle"],
            "0x1::table::Table<0x1::string::String, 0x1::ledger_demo::Profile>",
            "table",
        ),
        (
            "cells",
            scene.board["cells"]["handle"],
            "0x1::table::Table<0x1::ledger_demo::Point, u64>",
            "table",
        ),
        (
            "score_events",
            "3 events",
            "0x1::event::EventHandle<0x1::ledger_demo::ScoreChanged>",
            "events",
        ),
    ]
    resources.selected_index = 0  # her account: five sent, three GUIDs handed out
    value = grid_titled(explorer, "0x1::account::Account")
    assert [(r["path"], r["value"], r["type"]) for r in value.rows][1:] == [
        ("sequence_number", "5", "u64"),
        ("guid_creation_num", "3", "u64"),
        (
            "coin_register_events",
            "0 events",
            "0x1::event::EventHandle<0x1::account::CoinRegisterEvent>",
        ),
        (
            "key_rotation_events",
            "0 events",
            "0x1::event::EventHandle<0x1::account::KeyRotationEvent>",
        ),
        ("rotation_capability_offer.for.vec", "[]", "vector<address>"),
        ("signer_capability_offer.for.vec", "[]", "vector<address>"),
    ]
    # Each module an ABI comes from: the Account's Option fields are of 0x1::option.
    assert [args for args, _ in client.asked("account_module")] == [
        (FRAMEWORK, "ledger_demo"),
        (FRAMEWORK, "account"),
        (FRAMEWORK, "option"),
    ]
    resources.selected_index = 1
    assert len(client.asked("account_module")) == 3


def test_a_u128_past_a_floats_reach_is_shown_exactly(fake: FakeReadClient) -> None:
    explorer = AccountExplorer(fake, ALICE)
    assert explorer.view is not None
    explorer.view.show("Resources")
    grid_titled(explorer, "Resources").selected_index = 3  # the Counter
    value = grid_titled(explorer, "0x1::ledger_demo::Counter")
    assert [(r["path"], r["value"], r["type"]) for r in value.rows] == [
        ("value", str(U128_MAX), "u128")
    ]
    # 0x1::ledger_demo's ABI typed it: asked once, and not again for the Board.
    grid_titled(explorer, "Resources").selected_index = 2
    assert [args for args, _ in fake.asked("account_module")] == [(FRAMEWORK, "ledger_demo")]


def test_an_explorer_reads_each_module_once_for_all_its_views(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    explorer.view.show("Resources")
    grid_titled(explorer, "Resources").selected_index = 1  # the Board, of 0x1::ledger_demo
    assert [module for (_, module), _ in client.asked("account_module")] == ["ledger_demo"]
    # A transaction of the same module, opened from this explorer: its arguments and its
    # event are typed by the ABI the resource view read.
    version = scene.version("score_max")
    explorer.open_transaction(version)
    inspector = explorer.view
    assert inspector is not None
    assert inspector.title == f"txn {version}"
    inspector.show("Payload")
    payload = grid_titled(explorer, "0x1::ledger_demo::set_score")
    assert [(r["type"], r["value"]) for r in payload.rows] == [
        ("address", PLAYER),
        ("u64", str(U64_MAX)),
    ]
    inspector.show("Events")
    assert [r["fields"] for r in grid_titled(explorer, "2 events").rows] == [
        f"player: 0x5a5a…5a5a · old: 9 · new: {U64_MAX}",
        fee_fields(scene.txns["score_max"]),
    ]
    # The VM's FeeStatement is typed by 0x1::transaction_fee's ABI, read once.
    assert [module for (_, module), _ in client.asked("account_module")] == [
        "ledger_demo",
        "transaction_fee",
    ]


def test_a_table_opens_from_a_resource_and_back_returns_without_reading_again(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    explorer.view.show("Resources")
    grid_titled(explorer, "Resources").selected_index = 1
    value = grid_titled(explorer, "0x1::ledger_demo::Board")
    value.selected_index = 0
    explorer.follow(value.selected, "value")
    assert crumbs(explorer) == (
        f"account {shortened(scene.alice)} {SEP} table {shortened(scene.scores)}"
    )
    assert not explorer._back.disabled
    items = grid_titled(explorer, "Items written")
    assert [(r["version"], r["op"], r["key"], r["value"]) for r in items.rows] == [
        (scene.version("score_max"), "write", PLAYER, str(U64_MAX)),
        (scene.version("score_9"), "write", PLAYER, "9"),
        (scene.version("score_7"), "write", PLAYER, "7"),
    ]
    before = len(client.calls)
    explorer.back()
    assert crumbs(explorer) == f"account {shortened(scene.alice)}"
    assert explorer.view.tabs is not None
    assert explorer.view.tabs.built == ["Overview", "Resources"]
    assert client.calls[before:] == []
    # The account opened again at the same version reads its overview, not its resources.
    explorer.open_account(scene.alice)
    explorer.view.show("Resources")
    assert client.methods[before:] == ["account", "account_assets"]
    resources = grid_titled(explorer, "Resources")
    assert [r["type"] for r in resources.rows][1] == "0x1::ledger_demo::Board"


def test_an_address_in_a_resource_opens_that_account(client: ReadLog, scene: Scene) -> None:
    # ALICE's APT lives in an object of its own: its primary store, which ALICE owns.
    store = scene.stores[scene.alice, "0x" + "00" * 31 + "0a"]
    explorer = AccountExplorer(client, store)
    assert explorer.view is not None
    # An object has no account resource: the overview says so, and it holds nothing.
    assert client.methods == ["account", "ledger_info", "account_resources", "account_assets"]
    overview = explorer.view.tabs.children[0].children[0].children[0].value  # type: ignore[union-attr]
    assert "no account resource (it may still hold fungible assets)" in overview
    assert grid_titled(explorer, "Assets").rows == []
    explorer.view.show("Resources")
    resources = grid_titled(explorer, "Resources")
    assert [r["type"] for r in resources.rows] == [
        "0x1::fungible_asset::FungibleStore",
        "0x1::object::ObjectCore",
    ]
    resources.selected_index = 1
    value = grid_titled(explorer, "0x1::object::ObjectCore")
    owner = [r for r in value.rows if r["path"] == "owner"]
    assert (owner[0]["value"], owner[0]["points_to"]) == (scene.alice, "account")
    value.selected_index = value.rows.index(owner[0])
    explorer.follow(value.selected, "value")
    assert crumbs(explorer) == (
        f"account {shortened(store)} {SEP} account {shortened(scene.alice)}"
    )
    assert repr(explorer.view) == f"View('account {shortened(scene.alice)}')"
    assert [r["symbol"] for r in grid_titled(explorer, "Assets").rows] == ["APT"]


def test_the_modules_tab_lists_the_abi_when_first_shown(client: ReadLog) -> None:
    explorer = AccountExplorer(client, "0x1")
    assert explorer.view is not None
    assert client.asked("account_modules") == []
    explorer.view.show("Modules")
    assert len(client.asked("account_modules")) == 1
    modules = grid_titled(explorer, "Modules")
    names = [r["name"] for r in modules.rows]
    assert names == sorted(names)
    assert {"account", "coin", "fungible_asset", "ledger_demo", "object"} <= set(names)
    modules.selected_index = names.index("ledger_demo")
    functions = grid_titled(explorer, "Functions")
    shown = {r["name"]: r["signature"] for r in functions.rows}
    assert shown["set_score"] == "public entry fun set_score(&signer, address, u64)"
    assert shown["score"] == "#[view] public fun score(address, address): u64"
    structs = grid_titled(explorer, "Structs")
    assert {"Board", "Point", "Profile", "ScoreChanged"} <= {r["name"] for r in structs.rows}
    row = modules.rows[names.index("ledger_demo")]
    assert (row["functions"], row["structs"]) == (len(functions.rows), len(structs.rows))
    assert repr(explorer) == "AccountExplorer(0x1)"


def test_the_transactions_tab_lists_newest_first_and_opens_the_inspector(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    assert client.asked("account_activity") == []
    explorer.view.show("Transactions")
    txns = grid_titled(explorer, "touched the account")
    assert [(r["version"], r["role"], r["success"]) for r in txns.rows] == [
        (scene.version("ldt_out"), "sent, state written", True),
        (scene.version("failed"), "sent, state written", False),
        (scene.version("paid_for"), "paid the fee, state written", True),
        (scene.version("apt_in"), "received, state written", True),
        (scene.version("ldt_in"), "received, state written", True),
        (scene.version("score_max"), "sent, state written", True),
        (scene.version("score_9"), "sent, state written", True),
        (scene.version("score_7"), "sent, state written", True),
        (0, "received, state written", True),
    ]
    txns._activate(6, "version")
    assert crumbs(explorer) == (
        f"account {shortened(scene.alice)} {SEP} txn {scene.version('score_9')}"
    )
    assert client.methods[-2:] == ["transaction_by_version", "block_by_version"]
    explorer.back()
    assert crumbs(explorer) == f"account {shortened(scene.alice)}"


# -- the transaction inspector ------------------------------------------------------------


def test_the_inspector_reads_the_transaction_then_each_tab_when_shown(
    client: ReadLog, scene: Scene
) -> None:
    version = scene.version("score_max")
    txn = scene.txns["score_max"]
    inspector = TransactionInspector(client, version)
    assert client.methods == ["transaction_by_version", "block_by_version"]
    assert repr(inspector) == f"TransactionInspector({version})"
    assert crumbs(inspector) == f"txn {version}"
    view = inspector.view
    assert view is not None
    assert view.tabs is not None
    assert view.tabs.built == ["Summary"]
    status, facts, _accounts = view.tabs.children[0].children[0].children
    assert "✓ Success: Executed successfully" in status.value
    assert "<code>0x1::ledger_demo::set_score</code>" in facts.value
    view.show("Payload")
    assert client.methods[2:] == ["account_module"]
    payload = grid_titled(inspector, "0x1::ledger_demo::set_score")
    assert [(r["index"], r["type"], r["value"]) for r in payload.rows] == [
        (0, "address", PLAYER),
        (1, "u64", str(U64_MAX)),
    ]
    view.show("Events")
    events = grid_titled(inspector, "2 events")
    assert [(r["type"], r["fields"]) for r in events.rows] == [
        (
            "0x1::ledger_demo::ScoreChanged",
            f"player: 0x5a5a…5a5a · old: 9 · new: {U64_MAX}",
        ),
        ("0x1::transaction_fee::FeeStatement", fee_fields(txn)),
    ]
    view.show("Changes")
    # The board and its table item, the sender's account, the fee: the sender's store and
    # APT's supply with the rest of their groups (2 + 4 members), the burn total.
    changes = grid_titled(inspector, "10 changes")
    # The first change is shown at once, typed by its module's ABI (BurnedFees, of
    # 0x1::transaction_fee, read already for the FeeStatement): no ABI more.
    assert [module for (_, module), _ in client.asked("account_module")] == [
        "ledger_demo",
        "transaction_fee",
    ]
    tables = [(i, r["type"], r["handle"]) for i, r in enumerate(changes.rows) if r["handle"]]
    assert [(kind, handle) for _, kind, handle in tables] == [("write_table_item", scene.scores)]
    # The change's key and value, typed as the table declares them.
    ((index, _, _),) = tables
    changes.selected_index = index
    item = grid_titled(inspector, f"Change {index}")
    assert [(r["path"], r["type"], r["value"]) for r in item.rows] == [
        ("key", "address", PLAYER),
        ("value", "u64", str(U64_MAX)),
    ]
    view.show("Gas")
    gas, most, fee = int(txn.gas_used), int(txn.max_gas_amount), scene.fee("score_max")
    assert int(txn.gas_unit_price) == 100
    markup = view.tabs.children[5].children[0].value
    assert markup.startswith(
        f"<p>Gas used <b>{gas:,}</b> units of at most {most:,} ({100 * gas / most:.1f}%), at "
        f"100 octas a unit: fee <b>{fee:,}</b> octas = {units(fee, 8)} APT.</p>"
        "<table class='lk-fee-statement'>"  # broken down from the node's FeeStatement
    )
    assert "lk-no-statement" not in markup
    view.show("Bytes")
    assert client.asked("explain") == []
    button, dump = view.tabs.children[6].children[0].children
    button.click()
    assert client.asked("explain") == [((version,), {})]
    assert f"OnChain.version</span> = {version}" in dump.value
    assert "args.arg[1]</span> = u64 18446744073709551615" in dump.value
    assert client.methods.count("account_module") == 2
    # A change that names a table opens it.
    changes._activate(index, "handle")
    assert crumbs(inspector) == f"txn {version} {SEP} table {shortened(scene.scores)}"


def test_a_second_transaction_of_the_same_module_asks_no_abi_again(
    client: ReadLog, scene: Scene
) -> None:
    inspector = TransactionInspector(client, scene.version("score_max"))
    assert inspector.view is not None
    inspector.view.show("Payload")
    inspector.open_transaction(scene.txns["score_9"].hash)
    assert inspector.view.title == f"txn {scene.version('score_9')}"
    inspector.view.show("Payload")
    assert [(r["type"], r["value"]) for r in grid_titled(inspector, "set_score").rows] == [
        ("address", PLAYER),
        ("u64", "9"),
    ]
    assert client.methods == [
        "transaction_by_version",
        "block_by_version",
        "account_module",
        "transaction_by_hash",
        "block_by_version",
    ]


def test_an_unknown_transaction_is_a_message_not_a_traceback(client: ReadLog) -> None:
    inspector = TransactionInspector(client, UNKNOWN_VERSION)
    assert inspector.view is None
    assert (
        "transaction: 404 transaction_not_found: "
        "Transaction not found by Ledger version(1000000000000)"
    ) in inspector._message.value
    assert "Traceback" not in inspector._message.value


# -- the table explorer -------------------------------------------------------------------


def _form(explorer: TableExplorer) -> Any:
    view = explorer.view
    assert view is not None
    form = view.children[0]
    key_type, value_type = form.children[1].children
    key, look_up = form.children[2].children
    raw, raw_look_up = form.children[3].children
    return key_type, value_type, key, look_up, raw, raw_look_up


def test_the_table_explorer_lists_the_items_written_and_looks_them_up(
    client: ReadLog, scene: Scene
) -> None:
    explorer = TableExplorer(client, scene.scores)
    # The ledger's head, then its versions back to genesis in one page (fewer than 100).
    assert client.methods == ["ledger_info", "transactions"]
    assert client.asked("transactions") == [((), {"start": 0, "limit": scene.head + 1})]
    assert repr(explorer) == f"TableExplorer({shortened(scene.scores)})"
    items = grid_titled(explorer, "Items written")
    assert [(r["version"], r["op"], r["key"], r["value"]) for r in items.rows] == [
        (scene.version("score_max"), "write", PLAYER, str(U64_MAX)),
        (scene.version("score_9"), "write", PLAYER, "9"),
        (scene.version("score_7"), "write", PLAYER, "7"),
    ]
    key_type, value_type, key, look_up, raw, raw_look_up = _form(explorer)
    assert (key_type.value, value_type.value) == ("address", "u64")
    key.value = f'"{PLAYER}"'
    look_up.click()
    ((handle, *asked), _) = client.asked("table_item")[0]
    assert Address.parse(str(handle)).long == scene.scores
    assert [str(a) for a in asked] == ["address", "u64", PLAYER]
    item = grid_titled(explorer, "→ u64")
    assert [(r["path"], r["value"], r["type"]) for r in item.rows] == [
        ("(value)", str(U64_MAX), "u64")
    ]
    raw.value = "0x" + "5a" * 32
    raw_look_up.click()
    item = grid_titled(explorer, "raw 0x5a5a")
    assert [(r["value"], r["type"]) for r in item.rows] == [(str(U64_MAX), "u64")]


def test_a_key_that_does_not_fit_is_refused_before_anything_is_sent(
    client: ReadLog, scene: Scene
) -> None:
    explorer = TableExplorer(client, scene.scores)
    _, _, key, look_up, _, _ = _form(explorer)
    key.value = "42"
    look_up.click()
    assert "the key does not fit address" in explorer._message.value
    assert client.asked("table_item") == []
    key.value = '"0x' + "99" * 32 + '"'
    look_up.click()
    assert "look-up: no item for this key (0x9999…9999)" in explorer._message.value


# -- the clients the explorers accept -----------------------------------------------------


EXPLORERS = [
    (AccountExplorer, (ALICE,)),
    (TableExplorer, ("0x" + "5c" * 32,)),
    (TransactionInspector, (17,)),
]


@pytest.fixture
def async_client() -> Iterator[ledgerkit.AsyncClient]:
    sent: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(500)

    client = ledgerkit.AsyncClient(
        "http://127.0.0.1:9/v1", transport=httpx.MockTransport(record), retries=0
    )
    yield client
    asyncio.run(client.aclose())
    assert sent == [], "a request was sent"


@pytest.mark.parametrize(("explorer", "args"), EXPLORERS, ids=lambda v: getattr(v, "__name__", ""))
def test_an_async_client_is_refused_when_the_explorer_is_built(
    explorer: Any, args: tuple[Any, ...], async_client: ledgerkit.AsyncClient
) -> None:
    with pytest.raises(InputError) as refused:
        explorer(async_client, *args)
    message = str(refused.value)
    assert message.startswith(f"{explorer.__name__} reads with a sync client (ledgerkit.Client")
    assert "got ledgerkit.AsyncClient" in message
    assert "return coroutines" in message


def test_something_that_is_not_a_client_is_refused() -> None:
    with pytest.raises(InputError, match=r"got builtins\.str, which has none of its methods"):
        AccountExplorer("http://127.0.0.1:8080/v1", ALICE)  # type: ignore[arg-type]


# -- the gas dashboard ------------------------------------------------------------------------


def test_the_gas_dashboard_pages_brushes_and_searches_a_frame_headless(scene: Scene) -> None:
    sent = [t for t in scene.transactions if getattr(t, "sender", None) == scene.alice]
    txns = frames.transactions_to_frame(sent)
    dashboard = GasDashboard(txns)
    assert repr(dashboard) == "GasDashboard(5 transactions)"
    grid = dashboard.grid
    assert grid.title == "All 5 user transactions"
    # Newest first: the last sent comes first.
    steps = ["ldt_out", "failed", "score_max", "score_9", "score_7"]
    assert [(r["version"], r["gas_used"], r["success"]) for r in grid.rows] == [
        (scene.version(s), int(scene.txns[s].gas_used), s != "failed") for s in steps
    ]
    # A brush from score_9's millisecond to score_max's (epoch milliseconds) keeps two.
    start = int(scene.txns["score_9"].timestamp) // 1000
    end = -(-int(scene.txns["score_max"].timestamp) // 1000)
    dashboard.chart._vl_selections = {BRUSH: {"value": {"time": [start, end]}, "store": []}}
    assert grid.title == "2 of 5 user transactions in the brushed range"
    assert [r["version"] for r in grid.rows] == [
        scene.version("score_max"),
        scene.version("score_9"),
    ]
    dashboard.chart._vl_selections = {BRUSH: {"value": {}, "store": []}}
    assert grid.title == "All 5 user transactions"
    grid.query = scene.alice[:10]
    assert grid.total == 5
    grid.query = "fail_if"
    assert grid.total == 1
    grid.query = "coin::transfer"
    assert grid.total == 0


# -- the docs ---------------------------------------------------------------------------------


def test_the_docs_example_of_a_headless_test_runs_as_written() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "widgets.md").read_text("utf-8")
    section = page.split("\n### Testing an explorer without a node\n", 1)[1].split("\n## ", 1)[0]
    (source,) = re.findall(r"```python\n(.*?)```", section, re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "widgets.md", "exec"), {"__name__": "__docs__"})
    assert out.getvalue().splitlines() == [
        "['account', 'account_resources', 'account_assets']",
        "[{'symbol': 'APT', 'balance': 18446744073709551615}]",
        "1",
    ]


def test_a_tab_that_could_not_be_read_says_why_and_is_read_again_when_next_shown(
    client: ReadLog, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise TransportError("the node did not answer")

    with monkeypatch.context() as patch:
        patch.setattr(client, "account_resources", unreachable)
        explorer = AccountExplorer(client, scene.alice)
        view = explorer.view
        assert view is not None
        assert view.tabs is not None
        assets = grid_titled(explorer, "Assets")
        assert assets.rows == []
        assert assets.error == "Could not read the assets: the node did not answer"
        view.show("Events")
        assert "events: the node did not answer" in explorer._message.value
        assert view.tabs.built == ["Overview"]
        # A grid whose source fails says so in the grid, and keeps its place.
        view.show("Modules")
        view.show("Resources")
        resources = grid_titled(explorer, "Resources")
        assert resources.error == ("Could not load page 1: TransportError: the node did not answer")
    resources.refresh()
    assert resources.error == ""
    assert len(resources.rows) == 2
    view.show("Events")
    assert view.tabs.built == ["Overview", "Resources", "Modules", "Events"]
    assert len(grid_titled(explorer, "Event streams").rows) == 3
    # One page of the grid's size (20) held them all: nothing was asked again.
    assert [(kw["start"], kw["limit"]) for _, kw in client.asked("account_resources")] == [
        (None, 20)
    ]


def test_the_inspector_frame_is_the_balance_changes_before_any_tab_is_shown(
    client: ReadLog, scene: Scene
) -> None:
    inspector = TransactionInspector(client, scene.version("score_max"))
    frame = inspector.to_frame()
    # Setting a score moved nothing: the sender paid the fee.
    assert frame[["address", "asset", "delta"]].astype(str).values.tolist() == [
        [scene.alice, "0x" + "00" * 31 + "0a", f"-{scene.fee('score_max')}"]
    ]
    assert inspector.view is not None
    assert inspector.view.tabs is not None
    assert inspector.view.tabs.selected_index == 0  # the summary stays shown
    assert client.methods == ["transaction_by_version", "block_by_version"]
