"""The explorers, headless, against the local node: what each shows, drilling from one
into another and back, exact values, errors shown in the widget, deterministic reprs.

A dev account of a fresh chain plays with ``0x1::ledger_demo`` first, so it holds a
``Board`` whose three tables (``Table<address, u64>``, ``Table<String, Profile>``,
``Table<Point, u64>``) and event stream the explorers can open. A chain of more than
3,000 versions, of its own, has the account explorer scan its Transactions tab across
several windows of versions.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from explorer_shown import grid_titled
from recorded_chain import ReadLog

import ledgerkit
from ledgerkit import Client, InputError
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address, MoveType
from ledgerkit.widgets import AccountExplorer, TableExplorer, TransactionInspector
from ledgerkit.widgets._table_explorer import parse_key

PLAYER = "0x" + "5a" * 32


@pytest.fixture(scope="module")
def chain() -> Iterator[tuple[LocalNode, Client, Any, dict[str, int]]]:
    with LocalNode(seed=31, blocks=4, services=False) as node, Client(node.url) as client:
        alice = node.dev_accounts[0]
        versions = {}
        for name, args in [
            ("set_score", [PLAYER, 2**64 - 1]),
            ("set_cell", [3, 4, 99]),
            ("set_profile", ["ada", 7, ["move", "python"]]),
        ]:
            raw = client.build_transaction(alice, f"0x1::ledger_demo::{name}", args)
            committed = client.submit_and_wait(alice.sign(raw)).value
            assert committed.success, committed.vm_status
            versions[name] = committed.version
        yield node, client, alice, versions


def test_the_account_overview_shows_every_asset_exactly(chain: Any) -> None:
    _, client, alice, _ = chain
    explorer = AccountExplorer(client, alice.address)
    assert repr(explorer) == f"AccountExplorer({alice.address.short})"
    assets = grid_titled(explorer, "Assets")
    shown = {row["symbol"]: (row["amount"], row["base_units"]) for row in assets.rows}
    assert shown["LDT"] == ("1,000,000", "1,000,000,000,000")
    assert shown["APT"][0].startswith("999,99")  # a million APT less the gas just paid
    frame = assets.to_frame()
    assert str(frame["balance"].dtype) == "UInt64"


def test_a_resource_opens_as_typed_rows_and_a_table_handle_drills_in(chain: Any) -> None:
    _, client, alice, _ = chain
    explorer = AccountExplorer(client, alice.address)
    explorer.view.show("Resources")  # a tab is read when first shown
    resources = grid_titled(explorer, "Resources")
    types = [row["type"] for row in resources.rows]
    board = types.index("0x1::ledger_demo::Board")
    resources.selected_index = board
    value = grid_titled(explorer, "0x1::ledger_demo::Board")
    rows = {row["path"]: row for row in value.rows}
    assert rows["scores"]["points_to"] == "table"
    assert rows["scores"]["type"] == "0x1::table::Table<address, u64>"
    assert rows["score_events"]["points_to"] == "events"
    # Activating the scores table opens the table explorer with K and V from the ABI.
    value.selected_index = [row["path"] for row in value.rows].index("scores")
    explorer.follow(value.selected, "value")
    assert explorer.view is not None
    assert explorer.view.title.startswith("table ")
    items = grid_titled(explorer, "Items written")
    assert [(r["op"], r["key"], r["value"]) for r in items.rows] == [
        ("write", PLAYER, str(2**64 - 1))
    ]
    explorer.back()
    assert explorer.view.title.startswith("account ")


def test_the_table_explorer_looks_up_typed_and_refuses_a_key_that_does_not_fit(
    chain: Any,
) -> None:
    _, client, alice, _ = chain
    board = client.account_resource(alice.address, "0x1::ledger_demo::Board").value.data
    explorer = TableExplorer(client, board["cells"]["handle"])
    assert repr(explorer).startswith("TableExplorer(0x")
    items = grid_titled(explorer, "Items written")
    assert [(r["key"], r["value"]) for r in items.rows] == [('{"x":"3","y":"4"}', "99")]
    from ledgerkit.bcs import MoveValueCodec

    codec = MoveValueCodec({"0x1::ledger_demo::Point": [("x", "u64"), ("y", "u64")]})
    point = MoveType.parse("0x1::ledger_demo::Point")
    assert parse_key('{"x": "3", "y": "4"}', point, codec) == {"x": "3", "y": "4"}
    with pytest.raises(InputError, match="does not fit"):
        parse_key('{"x": "-1", "y": "4"}', point, codec)


def test_the_transaction_inspector_types_the_arguments_by_the_abi(chain: Any) -> None:
    _, client, _, versions = chain
    inspector = TransactionInspector(client, versions["set_score"])
    assert repr(inspector) == f"TransactionInspector({versions['set_score']})"
    inspector.view.show("Payload")  # a tab is read when first shown
    inspector.view.show("Events")
    payload = grid_titled(inspector, "0x1::ledger_demo::set_score")
    assert [(r["type"], r["value"]) for r in payload.rows] == [
        ("address", PLAYER),
        ("u64", str(2**64 - 1)),
    ]
    events = grid_titled(inspector, " event")
    assert any("ScoreChanged" in r["type"] for r in events.rows)


def test_an_unknown_transaction_is_a_message_not_a_traceback(chain: Any) -> None:
    _, client, _, _ = chain
    inspector = TransactionInspector(client, 10**12)
    assert inspector.view is None
    assert "transaction" in inspector._message.value
    assert "Traceback" not in inspector._message.value


def test_an_unreachable_node_is_a_message(chain: Any) -> None:
    with Client("http://127.0.0.1:9/v1", retries=0, timeout=2) as nowhere:
        explorer = AccountExplorer(nowhere, "0x1")
    assert explorer.view is None
    assert "could not" in explorer._message.value.lower() or "account" in explorer._message.value


def test_a_dev_account_that_only_received_lists_what_it_received(
    chain: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    node, client, _, _ = chain
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path))  # where the scan is kept
    bob = node.dev_accounts[1]  # funded at genesis, never sent anything
    explorer = AccountExplorer(client, bob.address)
    explorer.view.show("Transactions")
    txns = grid_titled(explorer, "touched the account")
    head = client.ledger_info().value.ledger_version
    assert txns.title == (
        f"1 transaction touched the account (versions 0 to {head:,}, all scanned)"
    )
    assert [(r["version"], r["role"], r["change"]) for r in txns.rows] == [
        (0, "received, state written", "+1,000,000 APT; +1,000,000 LDT")
    ]


def test_the_sender_sees_what_it_sent_and_what_it_received(
    chain: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, client, alice, versions = chain
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path))
    explorer = AccountExplorer(client, alice.address)
    explorer.view.show("Transactions")
    txns = grid_titled(explorer, "touched the account")
    rows = [(r["version"], r["role"], r["function_shown"]) for r in txns.rows]
    assert rows[-1] == (0, "received, state written", None)
    sent = sorted(versions.values(), reverse=True)
    assert [(v, role) for v, role, _ in rows[:3]] == [(v, "sent, state written") for v in sent]
    assert [f for _, _, f in rows[:3]] == [
        "0x1::ledger_demo::set_profile",
        "0x1::ledger_demo::set_cell",
        "0x1::ledger_demo::set_score",
    ]
    assert all(
        r["change"].endswith(" APT") and r["change"].startswith("-0.") for r in txns.rows[:3]
    )


def test_a_transfer_received_at_the_oldest_version_of_a_scan_window_is_listed(
    make_node: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Transactions tab scans back from the view's version in windows: 1,000
    # versions, then 2,000, then 4,000... A chain of more than 3,000 versions, opened so
    # that a received transfer is the oldest version of the second window.
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path))
    node = make_node(seed=29, blocks=460, services=False)
    with Client(node.url) as client:
        head = client.ledger_info().value.ledger_version
        transfer = next(
            txn
            for txn in client.transactions(start=0, limit=100).value
            if txn.type == "user_transaction"
            and txn.payload.function == "0x1::aptos_account::transfer"
            and txn.success
        )
        edge = int(transfer.version)
        recipient = Address.parse(str(transfer.payload.arguments[0])).long
        at = edge + 1_000 + 2_000 - 1
        assert edge > 0, "a window that starts at genesis asks from its start"
        assert at <= head, (at, head)
        # What touched the account up to there, in one scan (not the tab's windows).
        expected = ledgerkit.account_activity(client, recipient, end_version=at, progress=False)
        assert edge in set(expected["version"])
        log = ReadLog(client)
        explorer = AccountExplorer(log, recipient, ledger_version=at)
        assert explorer.view is not None
        explorer.view.show("Transactions")
        txns = grid_titled(explorer, "touched the account")
        shown = [dict(row) for row in txns.rows]
        while txns.more:
            txns.go(txns.page + 1)
            shown += [dict(row) for row in txns.rows]
    # The windows: the second one ends 1,000 versions below the view and starts at the
    # transfer; the next one ends just below it.
    ends = [kwargs["end_version"] for _, kwargs in log.asked("account_activity")]
    assert ends[:3] == [at, edge + 1_999, edge - 1]
    assert [row["version"] for row in shown] == sorted(map(int, expected["version"]), reverse=True)
    (received,) = [row for row in shown if row["version"] == edge]
    assert received["role"].startswith("received")
    assert received["hash"] == transfer.hash
    assert txns.title == (
        f"{len(expected):,} transactions touched the account (versions 0 to {at:,}, all scanned)"
    )
