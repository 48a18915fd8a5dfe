"""The account explorer, headless, over a holder of the default chain's issued assets:
the Assets tab lists Ledger USD and Orbit Points (found through the node's indexer) with
their names, display amounts in their own decimals and base units; the inspector of a
user's ``primary_fungible_store::transfer`` of Ledger USD reads every tab.

Workload account 111 of seed 0 holds, from the day's plan (docs/localnet.md): 2,500 LUSD
minted, 100 sent to 110, 300 received from 113 (2,700 LUSD, 6 decimals) and 1,200 ORBIT
minted, 200 sent to 130 (1,000 ORBIT, 2 decimals)."""

from __future__ import annotations

import hashlib
import time
from typing import Any

import pytest
from explorer_shown import grid_titled

from ledgerkit import Client, Ed25519PrivateKey
from ledgerkit.widgets import AccountExplorer, TransactionInspector

STATUS = """{ processor_status(where: {processor: {_eq: "fungible_asset_processor"}}) {
  last_success_version } }"""


def actor(index: int) -> str:
    key = Ed25519PrivateKey.from_seed(f"ledgerkit-localnet:workload:0:{index}")
    return "0x" + hashlib.sha3_256(key.public_key_bytes + b"\x00").hexdigest()


@pytest.fixture(scope="module")
def client(make_node: Any) -> Any:
    node = make_node(seed=0, blocks=360)
    with Client(node.url, indexer_url=node.indexer_url, cache=False) as client:
        head = client.ledger_info().value.ledger_version
        for _ in range(300):  # the indexer's fungible-asset processor catches up
            status = client.graphql(STATUS)["processor_status"]
            if status and int(status[0]["last_success_version"]) >= head:
                break
            time.sleep(0.1)
        yield client


def test_the_assets_tab_lists_the_issued_assets_in_their_decimals(client: Any) -> None:
    explorer = AccountExplorer(client, actor(111))
    assets = grid_titled(explorer, "Assets")
    shown = {r["name"]: (r["amount"], r["base_units"]) for r in assets.rows}
    assert shown["Ledger USD"] == ("2,700", "2,700,000,000")
    assert shown["Orbit Points"] == ("1,000", "100,000")


def test_the_inspector_reads_a_users_transfer_of_an_issued_asset(client: Any) -> None:
    sender = actor(110)
    found = client.account_transactions(sender, limit=100).value
    lusd = "0x" + hashlib.sha3_256(bytes.fromhex(actor(14)[2:]) + b"LUSD" + b"\xfe").hexdigest()
    sent = next(
        t
        for t in found
        if getattr(t.payload, "function", "") == "0x1::primary_fungible_store::transfer"
        and str(t.payload.arguments[0]["inner"]) == lusd
    )
    inspector = TransactionInspector(client, int(sent.version))
    assert inspector.view is not None
    assert inspector.view.tabs is not None
    for tab in inspector.view.tabs.names:
        inspector.view.show(tab)
    assert [grid.error for grid in inspector.view.grids if grid.error] == []
