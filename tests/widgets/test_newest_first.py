"""Every listing of the explorers and of the gas dashboard that is ordered in time is
newest first: an account's transactions, an event stream, the items written to a table,
the dashboard's transactions (until a header is clicked).

A dev account of a fresh chain sets a ``ledger_demo`` score three times: three
transactions it sent, three events in its board's score stream and three writes of the
scores table, whose versions are written down as the node answered them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from explorer_shown import grid_titled

from ledgerkit import Client, frames
from ledgerkit.localnet import LocalNode
from ledgerkit.widgets import AccountExplorer, GasDashboard, TableExplorer

PLAYER = "0x" + "6b" * 32


@pytest.fixture(scope="module")
def chain() -> Iterator[tuple[Client, Any, list[int]]]:
    with LocalNode(seed=37, blocks=4, services=False) as node, Client(node.url) as client:
        alice = node.dev_accounts[0]
        versions = []
        for score in (1, 2, 3):
            raw = client.build_transaction(alice, "0x1::ledger_demo::set_score", [PLAYER, score])
            committed = client.submit_and_wait(alice.sign(raw)).value
            assert committed.success, committed.vm_status
            versions.append(int(committed.version))
        yield client, alice, versions


def test_the_account_transactions_are_newest_first(
    chain: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, alice, versions = chain
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path))
    explorer = AccountExplorer(client, alice.address)
    explorer.view.show("Transactions")
    shown = [int(row["version"]) for row in grid_titled(explorer, "touched the account").rows]
    first, second, third = versions
    assert shown[:3] == [third, second, first]
    assert shown[-1] == 0  # genesis, which funded the account, last


def test_an_event_stream_is_newest_first(chain: Any) -> None:
    client, alice, versions = chain
    board = client.account_resource(alice.address, "0x1::ledger_demo::Board").value.data
    guid = board["score_events"]["guid"]["id"]
    explorer = AccountExplorer(client, alice.address)
    explorer.open_events(guid["addr"], guid["creation_num"], "scores")
    events = grid_titled(explorer, "events")
    assert [(r["sequence_number"], r["version"]) for r in events.rows] == [
        (2, versions[2]),
        (1, versions[1]),
        (0, versions[0]),
    ]


def test_the_items_written_to_a_table_are_newest_first(chain: Any) -> None:
    client, alice, versions = chain
    board = client.account_resource(alice.address, "0x1::ledger_demo::Board").value.data
    explorer = TableExplorer(client, board["scores"]["handle"])
    items = grid_titled(explorer, "Items written")
    assert [(r["version"], r["value"]) for r in items.rows] == [
        (versions[2], "3"),
        (versions[1], "2"),
        (versions[0], "1"),
    ]


def test_the_gas_dashboard_lists_the_newest_first_until_a_header_is_clicked(
    chain: Any,
) -> None:
    client, _, versions = chain
    history = client.transactions(start=0, limit=100).value
    dashboard = GasDashboard(frames.transactions_to_frame(history), client=client)
    grid = dashboard.grid
    assert grid.sort == {"column": "version", "descending": True}  # ▼ on Version
    shown = [int(row["version"]) for row in grid.rows]
    assert shown[:3] == [versions[2], versions[1], versions[0]]
    assert shown == sorted(shown, reverse=True)
    grid._handle_custom_msg({"type": "sort", "column": "version"}, [])  # the other way
    assert [int(row["version"]) for row in grid.rows][-3:] == versions
