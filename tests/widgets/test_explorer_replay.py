"""An explorer built on a replaying client shows what the recording showed, headless: no
node is started and nothing is sent while it is replayed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

import ledgerkit
from ledgerkit.localnet import LocalNode
from ledgerkit.widgets import AccountExplorer


def _shown(explorer: AccountExplorer) -> dict[str, list[Any]]:
    """Every tab of the explorer, opened, and the rows of each grid."""
    view = explorer.view
    assert view is not None
    for tab in ("Resources", "Modules"):
        view.show(tab)
    return {grid.title: [dict(row) for row in grid.rows] for grid in view.grids}


def test_an_account_explorer_replays_what_was_recorded(
    node: LocalNode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "explorer.snapshot"
    address = node.dev_accounts[0].address
    with ledgerkit.connect(node.url, record=path) as client:
        recorded = _shown(AccountExplorer(client, address))
    (assets,) = [rows for title, rows in recorded.items() if "Assets" in title]
    assert assets  # the dev account holds coins: there is something to replay

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a replayed explorer reached for the network or a node")

    monkeypatch.setattr(LocalNode, "__init__", refuse)
    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", refuse)
    with ledgerkit.connect(replay=path) as replayed:
        explorer = AccountExplorer(replayed, address)
        assert repr(explorer) == f"AccountExplorer({address.short})"
        assert _shown(explorer) == recorded
