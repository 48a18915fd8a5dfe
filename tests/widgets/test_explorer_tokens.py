"""The account explorer, headless, over an account holding a digital asset: the Assets
tab lists the token (found by the node's indexer) by name with its collection, and the
Transactions tab shows the transfer that brought it as ``+1 Conch``.

The token is made here: a dev account creates the collection "Shells", mints "Conch"
and sends it to a new account; the token's address is derived by hand
(``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from digital_assets import run, token_address, wait_for_token_indexer
from explorer_shown import grid_titled

from ledgerkit import Client, Ed25519PrivateKey
from ledgerkit.localnet import LocalNode
from ledgerkit.widgets import AccountExplorer, TransactionInspector


@pytest.fixture(scope="module")
def scene(make_node: Callable[..., LocalNode]) -> tuple[Client, str, str, int]:
    node = make_node(seed=53, blocks=3)
    creator, holder = node.dev_accounts[2], Ed25519PrivateKey.generate()
    client = Client(node.url, indexer_url=node.indexer_url, cache=False)
    assert client.transfer(creator, holder.address(), 10**8).value.success
    run(
        client,
        creator,
        "0x4::aptos_token::create_collection",
        ["About", 10, "Shells", "https://ex.org/c", *([True] * 9), 0, 100],
    )
    minted = run(
        client,
        creator,
        "0x4::aptos_token::mint",
        ["Shells", "A Conch", "Conch", "https://ex.org/1", [], [], []],
    )
    conch = token_address(str(minted.hash))
    sent = run(client, creator, "0x1::object::transfer_call", [conch, holder.address()])
    wait_for_token_indexer(client, int(sent.version))
    return client, holder.address().long, conch, int(sent.version)


def test_the_assets_tab_lists_the_token_by_name_and_collection(scene: Any) -> None:
    client, holder, conch, _ = scene
    explorer = AccountExplorer(client, holder)
    assets = grid_titled(explorer, "Assets")
    assert [(r["name"], r["type"], r["amount"], r["base_units"]) for r in assets.rows] == [
        ("Aptos Coin", "AptosCoin", "1", "100,000,000"),
        ("Conch", "token v2 of Shells", "1", "1"),
    ]
    frame = assets.to_frame()
    assert frame[frame["kind"] == "token"]["collection"].tolist() == ["Shells"]
    assert frame[frame["kind"] == "token"]["asset"].tolist() == [conch]


def test_the_transactions_tab_shows_the_token_received(scene: Any) -> None:
    client, holder, _, sent = scene
    explorer = AccountExplorer(client, holder)
    assert explorer.view is not None
    explorer.view.show("Transactions")
    txns = grid_titled(explorer, "touched the account")
    shown = {row["version"]: (row["role"], row["change"]) for row in txns.rows}
    assert shown[sent] == ("received, state written", "+1 Conch")


def test_every_tab_of_the_inspector_reads_the_token_transfer(scene: Any) -> None:
    client, _, _, sent = scene
    inspector = TransactionInspector(client, sent)
    assert inspector.view is not None
    assert inspector.view.tabs is not None
    for tab in inspector.view.tabs.names:
        inspector.view.show(tab)
    assert [grid.error for grid in inspector.view.grids if grid.error] == []
    events = grid_titled(inspector, " event")
    # object::transfer_call emits the one module event (this node writes no FeeStatement).
    assert [r["type"] for r in events.rows] == [
        "0x1::object::Transfer",
        "0x1::transaction_fee::FeeStatement",
    ]
